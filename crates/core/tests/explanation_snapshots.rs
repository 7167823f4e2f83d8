//! Snapshot tests of the cell explanations: for a handful of scenarios that together reach
//! every plugin with an explainer, every cell of every cycle's filter matrix and score table is
//! explained and the text (title and sentences) compared with `snapshots/explanations/`. Run
//! natively and, like `trace_snapshots.rs`, compiled to wasm32 in headless Chromium.
//! After an intended change in what the explanations say, refresh them natively with
//! `UPDATE_SNAPSHOTS=1 cargo test -p schedlab-core --test explanation_snapshots` and review
//! the diff.

use schedlab_core::view::{Session, SessionOptions};
use std::fmt::Write;
use wasm_bindgen_test::wasm_bindgen_test;

/// The scenarios and snapshots here are kube-scheduler v1.34's.
fn load_v1_34(text: &str, file: &str) -> Result<schedlab_core::Scenario, schedlab_core::LoadErrors> {
    schedlab_core::load::load_str_for(
        text,
        file,
        &schedlab_core::version::Features::new(schedlab_core::version::KubeVersion::V1_34),
    )
}

mod snapshot_check;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

macro_rules! case {
    (own $name:literal) => {
        (
            $name,
            include_str!(concat!("explanations/", $name, ".yaml")),
            include_str!(concat!("snapshots/explanations/", $name, ".txt")),
        )
    };
    (preset $name:literal) => {
        (
            concat!("preset-", $name),
            include_str!(concat!("../../../assets/presets/", $name, ".yaml")),
            include_str!(concat!("snapshots/explanations/preset-", $name, ".txt")),
        )
    };
    ($name:literal) => {
        case!("scenarios", $name)
    };
    ($dir:literal, $name:literal) => {
        (
            $name,
            include_str!(concat!("../../../tests/conformance/", $dir, "/", $name, ".yaml")),
            include_str!(concat!("snapshots/explanations/", $name, ".txt")),
        )
    };
}

/// Small scenarios whose cells, together, make every explainer speak (see the comments): the
/// ones written for the explanations (`explanations/`, shared with the view's unit tests) and
/// some of the conformance corpus.
const CASES: &[(&str, &str, &str)] = &[
    case!(own "spread-filter"),
    case!(own "spread-score"),
    case!(own "affinity-filter"),
    case!(own "affinity-score"),
    case!(own "image-locality"),
    case!(own "volumes"),
    case!(own "node-terms-and-ports"),
    case!(own "requested-to-capacity-shape"),
    case!(own "running-affinity-and-disks"),
    // schedlab.dev/CEL (a schedlab extension): its expressions, what they gave, the clamp.
    case!(own "cel-plugin"),
    // PodTopologySpread: DoNotSchedule filter, ScheduleAnyway score, minDomains.
    case!("spread-zone-donotschedule"),
    case!("spread-zone-scheduleanyway"),
    case!("spread-mindomains"),
    // InterPodAffinity: required affinity and anti-affinity, preferred terms across namespaces.
    case!("interpod-affinity-zone-required"),
    case!("interpod-antiaffinity-hostname"),
    case!("interpod-preferred-namespace-selector"),
    case!("interpod-affinity-first-pod-self"),
    // NodeResourcesFit (LeastAllocated, MostAllocated, RequestedToCapacityRatio) and
    // NodeResourcesBalancedAllocation.
    case!("fit-unschedulable-multiple-reasons"),
    case!("score-most-allocated-binpack"),
    case!("score-requested-to-capacity-ratio"),
    case!("score-balanced-allocation"),
    // ImageLocality.
    case!("imagelocality-large-image"),
    // TaintToleration: NoSchedule filter, PreferNoSchedule score.
    case!("taints-noschedule-untolerated"),
    case!("taints-prefernoschedule-scoring"),
    // NodeAffinity: required operators, the profile's addedAffinity, preferred weights.
    case!("nodeaffinity-required-operators"),
    case!("nodeaffinity-added-affinity-config"),
    case!("nodeaffinity-preferred-weights"),
    // NodePorts, NodeUnschedulable, NodeName.
    case!("nodeports-hostport-conflicts"),
    case!("nodeunschedulable-cordoned"),
    case!("nodename-prebound-pods"),
    // Volumes: binding (WaitForFirstConsumer, PV node affinity), zone, restrictions, limits.
    case!("volume-wffc-zone"),
    case!("volume-pv-node-affinity"),
    case!("volume-zone-and-rwop"),
    case!("volume-csi-node-limits"),
    // Pods nominated by a preemption counted in the numbers.
    case!("preemption-victims-several-priorities"),
    // DynamicResources.
    case!("workloads-dra/scenarios", "dra-pod-two-claims-shared-and-template"),
    case!("workloads-dra/scenarios", "mixed-list-zone-spread-dra-node-affinity"),
    // A cluster that changes while it runs: nodes deleted (with their pods), cordoned and
    // uncordoned, added; the explanations read the state each cycle found.
    case!("timeline/scenarios", "timeline-node-deleted-with-pods"),
    case!("timeline/scenarios", "timeline-cordon-uncordon"),
    case!("timeline/scenarios", "timeline-node-added-pending-pods"),
    // Presets, run as the page runs them (controllers on): pods a controller created while the
    // cluster ran, nodes added by a timeline, a drain.
    case!(preset "autoscaler"),
    case!(preset "batch-jobs"),
    case!(preset "drain"),
];

/// Every filter and score cell of every cycle explained: for each cycle, node and plugin of
/// the pod's profile at that point (and the whole row, plugin ""), a header naming the cell,
/// the explanation's title, then its sentences. Presets (`preset-…`) run with the controllers
/// on, as the page runs them; the corpus with them off, as its world has none.
fn explanations(name: &str, yaml: &str) -> String {
    let sc = load_v1_34(yaml, name).expect("loads");
    let controllers = name.starts_with("preset-");
    let mut s = Session::with_options(sc, SessionOptions { seed: 1, controllers }, &mut |_| {});
    let cycle_pod = s.summary().cycle_pod;
    let mut out = String::new();
    for (i, &pod) in cycle_pod.iter().enumerate() {
        let cycle = i as u32 + 1;
        let p = &s.model.pods[pod as usize];
        let pod_key = format!("{}/{}", p.namespace, p.name);
        let points = s
            .model
            .profiles
            .iter()
            .find(|pr| pr.name == p.profile)
            .map(|pr| pr.points.clone())
            .unwrap_or_default();
        let plugins_at = |point: &str| -> Vec<String> {
            let mut v = vec![String::new()];
            v.extend(points.iter().filter(|(n, _)| n == point).flat_map(|(_, ps)| ps.clone()));
            v
        };
        let nodes: Vec<String> = s.model.nodes.iter().map(|n| n.name.clone()).collect();
        for (score, point) in [(false, "Filter"), (true, "Score")] {
            for plugin in plugins_at(point) {
                for (n, node) in nodes.iter().enumerate() {
                    let e = s.explain(cycle, n as u32, &plugin, score);
                    let shown = if plugin.is_empty() { "(all)" } else { plugin.as_str() };
                    writeln!(out, "== cycle {cycle} · {pod_key} · {node} · {point} {shown}").unwrap();
                    writeln!(out, "{}", e.title).unwrap();
                    for l in &e.lines {
                        writeln!(out, "  {l}").unwrap();
                    }
                }
            }
        }
    }
    out
}

#[wasm_bindgen_test(unsupported = test)]
fn explanations_match_snapshots() {
    snapshot_check::check("explanations", CASES, explanations, |name| {
        format!("tests/snapshots/explanations/{name}.txt")
    });
}
