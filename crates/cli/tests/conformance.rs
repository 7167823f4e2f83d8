//! Runs every conformance scenario (tests/conformance/scenarios and
//! tests/conformance/timeline/scenarios) through the engine and compares the results with the
//! real kube-scheduler's, like `check.py --scores`.

use schedlab_core::trace::Detail;
use schedlab_core::{conformance, load_str, output, Engine, EngineOptions};
use std::path::PathBuf;

fn scenario_dir(corpus: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(corpus)
}

#[test]
fn conformance_corpus() {
    check_dir(&scenario_dir("scenarios"), 40);
}

#[test]
fn timeline_corpus() {
    check_dir(&scenario_dir("timeline/scenarios"), 14);
}

fn check_dir(dir: &std::path::Path, at_least: usize) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .filter(|p| p.with_extension("expected.json").exists())
        .collect();
    files.sort();
    assert!(files.len() >= at_least, "expected the full corpus, found {} scenarios", files.len());
    let only = std::env::var("SCENARIO").ok();
    let (mut passed, mut failed) = (0, Vec::new());
    for f in &files {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f.with_extension("expected.json")).unwrap()).unwrap();
        let sc = match load_str(&text, &f.to_string_lossy()) {
            Ok(s) => s,
            Err(e) => {
                failed.push(format!("FAIL {name}\n    does not load: {e}"));
                continue;
            }
        };
        let mut engine = Engine::new(
            sc,
            EngineOptions {
                seed: 1,
                detail: Detail::All,
            },
        );
        engine.run();
        let actual = output::conformance_json(&engine);
        let diffs = conformance::compare(&expected, &actual, true);
        if diffs.is_empty() {
            passed += 1;
        } else {
            let shown: Vec<String> = diffs.iter().take(6).map(|d| format!("    {d}")).collect();
            failed.push(format!("FAIL {name}\n{}", shown.join("\n")));
        }
    }
    for f in &failed {
        eprintln!("{f}");
    }
    eprintln!("conformance: {passed} passed, {} failed", failed.len());
    assert!(failed.is_empty(), "{} conformance scenarios failed", failed.len());
}
