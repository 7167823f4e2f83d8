//! The conformance corpus run inside the engine's test binary, so that it also runs compiled to
//! wasm32 in headless Chromium (where there is no file system): each scenario is embedded.
//! The native suite (`crates/cli/tests/conformance.rs`) reads the directory instead, so new
//! scenarios are picked up there without editing this list.

use schedlab_core::trace::Detail;
use schedlab_core::{conformance, load_str, output, Engine, EngineOptions};
use wasm_bindgen_test::wasm_bindgen_test;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

macro_rules! corpus {
    ($name:literal) => {
        corpus!("scenarios/", $name)
    };
    ($dir:literal, $name:literal) => {
        (
            $name,
            include_str!(concat!("../../../tests/conformance/", $dir, $name, ".yaml")),
            include_str!(concat!("../../../tests/conformance/", $dir, $name, ".expected.json")),
        )
    };
}

const CORPUS: &[(&str, &str, &str)] = &[
    corpus!("fit-cpu-memory-basic"),
    corpus!("fit-init-containers-max"),
    corpus!("fit-sidecar-restartable-init"),
    corpus!("fit-unschedulable-multiple-reasons"),
    corpus!("imagelocality-large-image"),
    corpus!("interpod-affinity-first-pod-self"),
    corpus!("interpod-affinity-zone-required"),
    corpus!("interpod-antiaffinity-hostname"),
    corpus!("interpod-preferred-namespace-selector"),
    corpus!("mixed-three-zone-web"),
    corpus!("nodeaffinity-added-affinity-config"),
    corpus!("nodeaffinity-preferred-weights"),
    corpus!("nodeaffinity-required-operators"),
    corpus!("nodename-prebound-pods"),
    corpus!("nodeports-hostport-conflicts"),
    corpus!("nodeunschedulable-cordoned"),
    corpus!("preemption-never-policy"),
    corpus!("preemption-pdb-steers-node"),
    corpus!("preemption-single-victim"),
    corpus!("preemption-victims-several-priorities"),
    corpus!("profile-plugin-weights"),
    corpus!("profiles-two-schedulers"),
    corpus!("queue-priority-order"),
    corpus!("queue-scheduling-gates"),
    corpus!("sample-window-zone-blocks"),
    corpus!("scale-batch-binpack"),
    corpus!("score-balanced-allocation"),
    corpus!("score-least-allocated-default"),
    corpus!("score-most-allocated-binpack"),
    corpus!("score-requested-to-capacity-ratio"),
    corpus!("spread-default-constraints-list"),
    corpus!("spread-mindomains"),
    corpus!("spread-zone-donotschedule"),
    corpus!("spread-zone-scheduleanyway"),
    corpus!("taints-noschedule-untolerated"),
    corpus!("taints-prefernoschedule-scoring"),
    corpus!("volume-csi-node-limits"),
    corpus!("volume-pv-node-affinity"),
    corpus!("volume-wffc-zone"),
    corpus!("volume-zone-and-rwop"),
    // tests/conformance/timeline: a cluster that changes over time.
    corpus!("timeline/scenarios/", "timeline-backoff-vs-active"),
    corpus!("timeline/scenarios/", "timeline-batch-durations"),
    corpus!("timeline/scenarios/", "timeline-cordon-uncordon"),
    corpus!("timeline/scenarios/", "timeline-flush-stuck-pod"),
    corpus!("timeline/scenarios/", "timeline-gate-removed"),
    corpus!("timeline/scenarios/", "timeline-labels-patched-affinity"),
    corpus!("timeline/scenarios/", "timeline-node-added-pending-pods"),
    corpus!("timeline/scenarios/", "timeline-node-deleted-with-pods"),
    corpus!("timeline/scenarios/", "timeline-pod-created-with-nodename"),
    corpus!("timeline/scenarios/", "timeline-preemption-then-node-add"),
    corpus!("timeline/scenarios/", "timeline-running-pod-deleted"),
    corpus!("timeline/scenarios/", "timeline-same-instant-order"),
    corpus!("timeline/scenarios/", "timeline-spread-pods-finish"),
    corpus!("timeline/scenarios/", "timeline-taint-removed"),
];

/// The workloads / Dynamic Resource Allocation addendum (tests/conformance/workloads-dra).
const WORKLOADS_DRA: &[(&str, &str, &str)] = &[
    corpus!("workloads-dra/scenarios/", "workload-list-empty-disables-system-defaults"),
    corpus!("workloads-dra/scenarios/", "workload-list-rack-key-unlabelled-node"),
    corpus!("workloads-dra/scenarios/", "workload-list-zone-hard-host-soft-statefulset"),
    corpus!("workloads-dra/scenarios/", "workload-mostallocated-vs-system-spread"),
    corpus!("workloads-dra/scenarios/", "workload-owner-reference-variants"),
    corpus!("workloads-dra/scenarios/", "workload-rc-nodeselector-honored-counts"),
    corpus!("workloads-dra/scenarios/", "workload-rs-selector-notin-expression"),
    corpus!("workloads-dra/scenarios/", "workload-statefulset-failed-pods-ignored"),
    corpus!("workloads-dra/scenarios/", "dra-allnodes-license-pool"),
    corpus!("workloads-dra/scenarios/", "dra-allocation-all-filtered-nics"),
    corpus!("workloads-dra/scenarios/", "dra-cel-version-bool-presence"),
    corpus!("workloads-dra/scenarios/", "dra-class-selector-and-request-selector"),
    corpus!("workloads-dra/scenarios/", "dra-first-available-pair-or-large"),
    corpus!("workloads-dra/scenarios/", "dra-match-attribute-count-pair"),
    corpus!("workloads-dra/scenarios/", "dra-namespaced-claims-preallocated"),
    corpus!("workloads-dra/scenarios/", "dra-pod-two-claims-shared-and-template"),
    corpus!("workloads-dra/scenarios/", "mixed-dra-preemption-shared-vs-owned-claim"),
    corpus!("workloads-dra/scenarios/", "mixed-list-zone-spread-dra-node-affinity"),
];

fn all() -> impl Iterator<Item = &'static (&'static str, &'static str, &'static str)> {
    CORPUS.iter().chain(WORKLOADS_DRA)
}

/// The addendum's `claims` key too (which `check.py` does not compare yet): each claim's
/// devices and reservations at the end of the run.
#[wasm_bindgen_test(unsupported = test)]
fn embedded_dra_claims_match_the_real_scheduler() {
    let mut failed = Vec::new();
    for (name, yaml, expected) in WORKLOADS_DRA {
        let expected: serde_json::Value = serde_json::from_str(expected).expect("valid expected.json");
        let actual = run(yaml, name, 1);
        if actual.get("claims") != expected.get("claims") {
            failed.push(format!("{name}: claims: got {}, want {}", actual["claims"], expected["claims"]));
        }
    }
    assert!(failed.is_empty(), "{} scenarios differ:\n{}", failed.len(), failed.join("\n"));
}

fn run(text: &str, name: &str, seed: u64) -> serde_json::Value {
    let sc = load_str(text, name).unwrap_or_else(|e| panic!("{name} does not load: {e}"));
    let mut engine = Engine::new(sc, EngineOptions { seed, detail: Detail::All });
    engine.run();
    output::conformance_json(&engine)
}

#[wasm_bindgen_test(unsupported = test)]
fn embedded_corpus_matches_the_real_scheduler() {
    let mut failed = Vec::new();
    for (name, yaml, expected) in all() {
        let expected: serde_json::Value = serde_json::from_str(expected).expect("valid expected.json");
        let diffs = conformance::compare(&expected, &run(yaml, name, 1), true);
        if !diffs.is_empty() {
            failed.push(format!("{name}: {}", diffs.join("; ")));
        }
    }
    assert!(failed.is_empty(), "{} scenarios differ:\n{}", failed.len(), failed.join("\n"));
}

/// The same scenario and seed give the same trace. The digest (FNV-1a of the trace's JSON) is
/// platform independent, so native and wasm runs can be compared by printing it.
#[wasm_bindgen_test(unsupported = test)]
fn deterministic_trace() {
    for (name, yaml, _) in all() {
        let a = trace_digest(yaml, name, 7);
        let b = trace_digest(yaml, name, 7);
        assert_eq!(a, b, "{name}: two runs with the same seed differ");
    }
}

fn trace_digest(text: &str, name: &str, seed: u64) -> u64 {
    let sc = load_str(text, name).expect("loads");
    let mut engine = Engine::new(sc, EngineOptions { seed, detail: Detail::All });
    engine.run();
    let json = serde_json::to_string(engine.trace()).expect("serializable");
    json.bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}
