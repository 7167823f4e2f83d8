//! The conformance corpus run inside the engine's test binary, so that it also runs compiled to
//! wasm32 in headless Chromium (where there is no file system): each scenario is embedded.
//! The native suite (`crates/cli/tests/conformance.rs`) reads the directory instead, so new
//! scenarios are picked up there without editing this list.

use schedlab_core::trace::Detail;
use schedlab_core::{conformance, load_str, output, Engine, EngineOptions};
use wasm_bindgen_test::wasm_bindgen_test;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{all, WORKLOADS_DRA};

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

/// The embedded list (`common`) names every scenario of the corpus folders, so the wasm run
/// and the explanation cross-check see the whole corpus.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_list_names_every_corpus_scenario() {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut on_disk = Vec::new();
    for sub in common::CORPUS_DIRS {
        for e in std::fs::read_dir(base.join(sub)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().to_string();
            if let Some(stem) = name.strip_suffix(".yaml") {
                on_disk.push(stem.to_string());
            }
        }
    }
    on_disk.sort();
    let mut listed: Vec<String> = all().map(|(n, _, _)| n.to_string()).collect();
    listed.sort();
    assert!(on_disk.len() > 300, "{}", on_disk.len());
    assert_eq!(listed, on_disk, "tests/common/mod.rs lists the corpus folders' scenarios");
}
