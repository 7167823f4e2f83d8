//! Snapshot tests of whole traces. The same snapshots are checked natively and compiled to
//! wasm32 in headless Chromium, which proves the engine gives byte-identical traces on both.
//! A snapshot is JSON Lines: the header on the first line, then one event per line, so a
//! change in the engine shows as a diff of the events it changed.
//! After an intended change in engine behaviour, refresh them natively with
//! `UPDATE_SNAPSHOTS=1 cargo test -p schedlab-core --test trace_snapshots` and review the diff.

use schedlab_core::trace::Detail;
use schedlab_core::{Engine, EngineOptions};
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
    ($name:literal) => {
        case!("scenarios", $name)
    };
    ($dir:literal, $name:literal) => {
        (
            $name,
            include_str!(concat!("../../../tests/conformance/", $dir, "/", $name, ".yaml")),
            include_str!(concat!("snapshots/", $name, ".trace.jsonl")),
        )
    };
}

/// Small scenarios that together exercise every kind of trace event.
const CASES: &[(&str, &str, &str)] = &[
    case!("preemption-victims-several-priorities"),
    case!("queue-scheduling-gates"),
    case!("spread-zone-donotschedule"),
    case!("volume-wffc-zone"),
    case!("fit-unschedulable-multiple-reasons"),
    // The queue's story under a timeline: which cluster change became which informer event,
    // which plugin's hint answered Queue or Skip for which pod, and where the pod went.
    case!("timeline/scenarios", "timeline-node-added-pending-pods"),
    case!("timeline/scenarios", "timeline-labels-patched-affinity"),
    case!("timeline/scenarios", "timeline-backoff-vs-active"),
    case!("timeline/scenarios", "timeline-flush-stuck-pod"),
    case!("timeline/scenarios", "timeline-gate-removed"),
    case!("timeline/scenarios", "timeline-node-deleted-with-pods"),
    // schedlab's own plugin, schedlab.dev/CEL (no recorded answer exists for it: its scenario
    // is this crate's): filter verdicts, clamped scores, and a runtime error's Error status.
    (
        "cel-plugin",
        include_str!("explanations/cel-plugin.yaml"),
        include_str!("snapshots/cel-plugin.trace.jsonl"),
    ),
];

/// The trace as JSON Lines: `{"header": …}`, then each event on its own line.
fn jsonl(t: &schedlab_core::trace::Trace) -> String {
    let mut out = serde_json::to_string(&serde_json::json!({ "header": t.header })).expect("serializable") + "\n";
    for ev in &t.events {
        out += &serde_json::to_string(ev).expect("serializable");
        out.push('\n');
    }
    out
}

fn trace_json(name: &str, yaml: &str) -> String {
    let sc = load_v1_34(yaml, name).expect("loads");
    let mut e = Engine::new(
        sc,
        EngineOptions {
            seed: 1,
            detail: Detail::All,
        },
    );
    e.run();
    jsonl(e.trace())
}

#[wasm_bindgen_test(unsupported = test)]
fn traces_match_snapshots() {
    snapshot_check::check("traces", CASES, trace_json, |name| format!("tests/snapshots/{name}.trace.jsonl"));
}

/// The controllers reacting over time (controllers on): a Job starting its next pod when one
/// finishes, recorded as `change` events with cause `controller` and the creating Job in `by`.
#[wasm_bindgen_test(unsupported = test)]
fn controller_reactions_match_snapshot() {
    const NAME: &str = "preset-batch-jobs-controllers";
    let yaml = include_str!("../../../assets/presets/batch-jobs.yaml");
    let snapshot = include_str!("snapshots/preset-batch-jobs-controllers.trace.jsonl");
    let mut sc = load_v1_34(yaml, NAME).expect("loads");
    let mut c = schedlab_core::controllers::Controllers::new(1);
    c.reconcile(&mut sc);
    let mut e = Engine::new(
        sc,
        EngineOptions {
            seed: 1,
            detail: Detail::All,
        },
    );
    e.enable_controllers(c);
    e.run();
    let got = jsonl(e.trace());
    #[cfg(not(target_arch = "wasm32"))]
    if got != snapshot && std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        let path = format!("{}/tests/snapshots/{NAME}.trace.jsonl", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(&path, &got).expect("writable");
        return;
    }
    assert!(got == snapshot, "the trace differs from snapshots/{NAME}.trace.jsonl");
}
