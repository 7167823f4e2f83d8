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

/// The generated random mixes (tests/conformance/random).
const RANDOM: &[(&str, &str, &str)] = &[
    corpus!("random/scenarios/", "rand-21-000"),
    corpus!("random/scenarios/", "rand-21-001"),
    corpus!("random/scenarios/", "rand-21-002"),
    corpus!("random/scenarios/", "rand-21-003"),
    corpus!("random/scenarios/", "rand-21-004"),
    corpus!("random/scenarios/", "rand-21-005"),
    corpus!("random/scenarios/", "rand-21-006"),
    corpus!("random/scenarios/", "rand-21-007"),
    corpus!("random/scenarios/", "rand-21-008"),
    corpus!("random/scenarios/", "rand-21-009"),
    corpus!("random/scenarios/", "rand-21-010"),
    corpus!("random/scenarios/", "rand-21-011"),
    corpus!("random/scenarios/", "rand-21-013"),
    corpus!("random/scenarios/", "rand-21-014"),
    corpus!("random/scenarios/", "rand-21-016"),
    corpus!("random/scenarios/", "rand-21-017"),
    corpus!("random/scenarios/", "rand-21-018"),
    corpus!("random/scenarios/", "rand-21-019"),
    corpus!("random/scenarios/", "rand-21-020"),
    corpus!("random/scenarios/", "rand-21-021"),
    corpus!("random/scenarios/", "rand-21-022"),
    corpus!("random/scenarios/", "rand-21-024"),
    corpus!("random/scenarios/", "rand-21-025"),
    corpus!("random/scenarios/", "rand-21-026"),
    corpus!("random/scenarios/", "rand-21-028"),
    corpus!("random/scenarios/", "rand-21-029"),
    corpus!("random/scenarios/", "rand-21-030"),
    corpus!("random/scenarios/", "rand-21-031"),
    corpus!("random/scenarios/", "rand-21-032"),
    corpus!("random/scenarios/", "rand-21-033"),
    corpus!("random/scenarios/", "rand-21-034"),
    corpus!("random/scenarios/", "rand-21-035"),
    corpus!("random/scenarios/", "rand-21-036"),
    corpus!("random/scenarios/", "rand-21-037"),
    corpus!("random/scenarios/", "rand-21-038"),
    corpus!("random/scenarios/", "rand-21-039"),
    corpus!("random/scenarios/", "rand-21-040"),
    corpus!("random/scenarios/", "rand-21-041"),
    corpus!("random/scenarios/", "rand-21-042"),
    corpus!("random/scenarios/", "rand-21-043"),
    corpus!("random/scenarios/", "rand-21-044"),
    corpus!("random/scenarios/", "rand-21-045"),
    corpus!("random/scenarios/", "rand-21-046"),
    corpus!("random/scenarios/", "rand-21-047"),
    corpus!("random/scenarios/", "rand-21-048"),
    corpus!("random/scenarios/", "rand-21-049"),
    corpus!("random/scenarios/", "rand-21-050"),
    corpus!("random/scenarios/", "rand-21-051"),
    corpus!("random/scenarios/", "rand-21-052"),
    corpus!("random/scenarios/", "rand-21-053"),
    corpus!("random/scenarios/", "rand-21-054"),
    corpus!("random/scenarios/", "rand-21-055"),
    corpus!("random/scenarios/", "rand-21-056"),
    corpus!("random/scenarios/", "rand-21-057"),
    corpus!("random/scenarios/", "rand-21-058"),
    corpus!("random/scenarios/", "rand-21-059"),
    corpus!("random/scenarios/", "rand-21-060"),
    corpus!("random/scenarios/", "rand-21-061"),
    corpus!("random/scenarios/", "rand-21-062"),
    corpus!("random/scenarios/", "rand-21-063"),
    corpus!("random/scenarios/", "rand-21-064"),
    corpus!("random/scenarios/", "rand-21-065"),
    corpus!("random/scenarios/", "rand-21-066"),
    corpus!("random/scenarios/", "rand-21-067"),
    corpus!("random/scenarios/", "rand-21-068"),
    corpus!("random/scenarios/", "rand-21-069"),
    corpus!("random/scenarios/", "rand-21-070"),
    corpus!("random/scenarios/", "rand-21-071"),
    corpus!("random/scenarios/", "rand-21-072"),
    corpus!("random/scenarios/", "rand-21-073"),
    corpus!("random/scenarios/", "rand-21-074"),
    corpus!("random/scenarios/", "rand-21-075"),
    corpus!("random/scenarios/", "rand-21-076"),
    corpus!("random/scenarios/", "rand-21-077"),
    corpus!("random/scenarios/", "rand-21-078"),
    corpus!("random/scenarios/", "rand-21-079"),
    corpus!("random/scenarios/", "rand-21-080"),
    corpus!("random/scenarios/", "rand-21-082"),
    corpus!("random/scenarios/", "rand-21-083"),
    corpus!("random/scenarios/", "rand-21-084"),
    corpus!("random/scenarios/", "rand-21-085"),
    corpus!("random/scenarios/", "rand-21-086"),
    corpus!("random/scenarios/", "rand-21-087"),
    corpus!("random/scenarios/", "rand-21-088"),
    corpus!("random/scenarios/", "rand-21-089"),
    corpus!("random/scenarios/", "rand-21-090"),
    corpus!("random/scenarios/", "rand-21-091"),
    corpus!("random/scenarios/", "rand-21-092"),
    corpus!("random/scenarios/", "rand-21-093"),
    corpus!("random/scenarios/", "rand-21-094"),
    corpus!("random/scenarios/", "rand-21-095"),
    corpus!("random/scenarios/", "rand-21-096"),
    corpus!("random/scenarios/", "rand-21-097"),
    corpus!("random/scenarios/", "rand-21-098"),
    corpus!("random/scenarios/", "rand-21-099"),
    corpus!("random/scenarios/", "rand-21-100"),
    corpus!("random/scenarios/", "rand-21-101"),
    corpus!("random/scenarios/", "rand-21-103"),
    corpus!("random/scenarios/", "rand-21-104"),
    corpus!("random/scenarios/", "rand-21-105"),
    corpus!("random/scenarios/", "rand-21-106"),
    corpus!("random/scenarios/", "rand-21-107"),
    corpus!("random/scenarios/", "rand-21-108"),
    corpus!("random/scenarios/", "rand-21-109"),
    corpus!("random/scenarios/", "rand-21-110"),
    corpus!("random/scenarios/", "rand-21-111"),
    corpus!("random/scenarios/", "rand-21-112"),
    corpus!("random/scenarios/", "rand-21-113"),
    corpus!("random/scenarios/", "rand-21-114"),
    corpus!("random/scenarios/", "rand-21-115"),
    corpus!("random/scenarios/", "rand-21-116"),
    corpus!("random/scenarios/", "rand-21-117"),
    corpus!("random/scenarios/", "rand-21-118"),
    corpus!("random/scenarios/", "rand-21-119"),
    corpus!("random/scenarios/", "rand-3-000"),
    corpus!("random/scenarios/", "rand-3-001"),
    corpus!("random/scenarios/", "rand-3-002"),
    corpus!("random/scenarios/", "rand-3-003"),
    corpus!("random/scenarios/", "rand-3-004"),
    corpus!("random/scenarios/", "rand-3-005"),
    corpus!("random/scenarios/", "rand-3-006"),
    corpus!("random/scenarios/", "rand-3-007"),
    corpus!("random/scenarios/", "rand-3-008"),
    corpus!("random/scenarios/", "rand-3-010"),
    corpus!("random/scenarios/", "rand-3-011"),
    corpus!("random/scenarios/", "rand-3-012"),
    corpus!("random/scenarios/", "rand-3-013"),
    corpus!("random/scenarios/", "rand-3-014"),
    corpus!("random/scenarios/", "rand-3-015"),
    corpus!("random/scenarios/", "rand-3-016"),
    corpus!("random/scenarios/", "rand-3-017"),
    corpus!("random/scenarios/", "rand-3-018"),
    corpus!("random/scenarios/", "rand-3-019"),
    corpus!("random/scenarios/", "rand-3-020"),
    corpus!("random/scenarios/", "rand-3-021"),
    corpus!("random/scenarios/", "rand-3-022"),
    corpus!("random/scenarios/", "rand-3-023"),
    corpus!("random/scenarios/", "rand-3-024"),
    corpus!("random/scenarios/", "rand-3-025"),
    corpus!("random/scenarios/", "rand-3-026"),
    corpus!("random/scenarios/", "rand-3-027"),
    corpus!("random/scenarios/", "rand-3-028"),
    corpus!("random/scenarios/", "rand-3-029"),
    corpus!("random/scenarios/", "rand-3-030"),
    corpus!("random/scenarios/", "rand-3-031"),
    corpus!("random/scenarios/", "rand-3-032"),
    corpus!("random/scenarios/", "rand-3-033"),
    corpus!("random/scenarios/", "rand-3-034"),
    corpus!("random/scenarios/", "rand-3-035"),
    corpus!("random/scenarios/", "rand-3-036"),
    corpus!("random/scenarios/", "rand-3-037"),
    corpus!("random/scenarios/", "rand-3-038"),
    corpus!("random/scenarios/", "rand-3-039"),
    corpus!("random/scenarios/", "rand-3-040"),
    corpus!("random/scenarios/", "rand-3-041"),
    corpus!("random/scenarios/", "rand-3-042"),
    corpus!("random/scenarios/", "rand-3-043"),
    corpus!("random/scenarios/", "rand-3-045"),
    corpus!("random/scenarios/", "rand-3-046"),
    corpus!("random/scenarios/", "rand-3-047"),
    corpus!("random/scenarios/", "rand-3-048"),
    corpus!("random/scenarios/", "rand-3-049"),
    corpus!("random/scenarios/", "rand-3-050"),
    corpus!("random/scenarios/", "rand-3-051"),
    corpus!("random/scenarios/", "rand-3-052"),
    corpus!("random/scenarios/", "rand-3-053"),
    corpus!("random/scenarios/", "rand-3-054"),
    corpus!("random/scenarios/", "rand-3-055"),
    corpus!("random/scenarios/", "rand-3-056"),
    corpus!("random/scenarios/", "rand-3-057"),
    corpus!("random/scenarios/", "rand-3-058"),
    corpus!("random/scenarios/", "rand-3-059"),
    corpus!("random/scenarios/", "rand-3-060"),
    corpus!("random/scenarios/", "rand-3-061"),
    corpus!("random/scenarios/", "rand-3-062"),
    corpus!("random/scenarios/", "rand-3-063"),
    corpus!("random/scenarios/", "rand-3-064"),
    corpus!("random/scenarios/", "rand-3-065"),
    corpus!("random/scenarios/", "rand-3-066"),
    corpus!("random/scenarios/", "rand-3-067"),
    corpus!("random/scenarios/", "rand-3-068"),
    corpus!("random/scenarios/", "rand-3-069"),
    corpus!("random/scenarios/", "rand-3-070"),
    corpus!("random/scenarios/", "rand-3-071"),
    corpus!("random/scenarios/", "rand-3-072"),
    corpus!("random/scenarios/", "rand-3-073"),
    corpus!("random/scenarios/", "rand-3-074"),
    corpus!("random/scenarios/", "rand-3-075"),
    corpus!("random/scenarios/", "rand-3-076"),
    corpus!("random/scenarios/", "rand-3-077"),
    corpus!("random/scenarios/", "rand-3-078"),
    corpus!("random/scenarios/", "rand-3-079"),
    corpus!("random/scenarios/", "rand-3-080"),
    corpus!("random/scenarios/", "rand-3-081"),
    corpus!("random/scenarios/", "rand-3-082"),
    corpus!("random/scenarios/", "rand-3-083"),
    corpus!("random/scenarios/", "rand-3-084"),
    corpus!("random/scenarios/", "rand-3-085"),
    corpus!("random/scenarios/", "rand-3-086"),
    corpus!("random/scenarios/", "rand-3-087"),
    corpus!("random/scenarios/", "rand-3-088"),
    corpus!("random/scenarios/", "rand-3-089"),
    corpus!("random/scenarios/", "rand-3-090"),
    corpus!("random/scenarios/", "rand-3-091"),
    corpus!("random/scenarios/", "rand-3-092"),
    corpus!("random/scenarios/", "rand-3-093"),
    corpus!("random/scenarios/", "rand-3-094"),
    corpus!("random/scenarios/", "rand-3-095"),
    corpus!("random/scenarios/", "rand-3-096"),
    corpus!("random/scenarios/", "rand-3-097"),
    corpus!("random/scenarios/", "rand-3-098"),
    corpus!("random/scenarios/", "rand-3-099"),
    corpus!("random/scenarios/", "rand-3-100"),
    corpus!("random/scenarios/", "rand-3-101"),
    corpus!("random/scenarios/", "rand-3-102"),
    corpus!("random/scenarios/", "rand-3-103"),
    corpus!("random/scenarios/", "rand-3-104"),
    corpus!("random/scenarios/", "rand-3-105"),
    corpus!("random/scenarios/", "rand-3-106"),
    corpus!("random/scenarios/", "rand-3-107"),
    corpus!("random/scenarios/", "rand-3-108"),
    corpus!("random/scenarios/", "rand-3-109"),
    corpus!("random/scenarios/", "rand-3-110"),
    corpus!("random/scenarios/", "rand-3-111"),
    corpus!("random/scenarios/", "rand-3-112"),
    corpus!("random/scenarios/", "rand-3-113"),
    corpus!("random/scenarios/", "rand-3-114"),
    corpus!("random/scenarios/", "rand-3-115"),
    corpus!("random/scenarios/", "rand-3-116"),
    corpus!("random/scenarios/", "rand-3-117"),
    corpus!("random/scenarios/", "rand-3-118"),
    corpus!("random/scenarios/", "rand-3-119"),
    corpus!("random/scenarios/", "rand-3-120"),
    corpus!("random/scenarios/", "rand-3-121"),
    corpus!("random/scenarios/", "rand-3-122"),
    corpus!("random/scenarios/", "rand-3-123"),
    corpus!("random/scenarios/", "rand-3-124"),
    corpus!("random/scenarios/", "rand-3-125"),
    corpus!("random/scenarios/", "rand-3-126"),
    corpus!("random/scenarios/", "rand-3-127"),
    corpus!("random/scenarios/", "rand-3-128"),
    corpus!("random/scenarios/", "rand-3-129"),
];

fn all() -> impl Iterator<Item = &'static (&'static str, &'static str, &'static str)> {
    CORPUS.iter().chain(WORKLOADS_DRA).chain(RANDOM)
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
