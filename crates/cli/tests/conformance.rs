//! Runs the conformance corpora (tests/conformance/scenarios, tests/conformance/workloads-dra,
//! tests/conformance/timeline and tests/conformance/random) through the engine and compares the results with the real
//! kube-scheduler's, like `check.py --scores`: as v1.34, and their v1.35 answers
//! (tests/conformance/v1.35) as v1.35. The corpora describe a world where no controller
//! runs, so controllers stay off.

use schedlab_core::load::load_str_for;
use schedlab_core::trace::Detail;
use schedlab_core::version::{Features, KubeVersion};
use schedlab_core::{conformance, output, Engine, EngineOptions};
use std::path::{Path, PathBuf};

fn corpus_dir(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance").join(rel)
}

/// Runs every scenario of `dir` that has an expected result; returns how many passed and the
/// failures.
fn run_corpus(dir: &Path, version: KubeVersion) -> (usize, Vec<String>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .filter(|p| p.with_extension("expected.json").exists())
        .collect();
    files.sort();
    let filter = std::env::var("SCENARIO").ok();
    let (mut passed, mut failed) = (0, Vec::new());
    for f in &files {
        let name = f.file_stem().unwrap().to_string_lossy().to_string();
        if filter.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f.with_extension("expected.json")).unwrap()).unwrap();
        let sc = match load_str_for(&text, &f.to_string_lossy(), &Features::new(version)) {
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
    (passed, failed)
}

fn report(corpus: &str, passed: usize, failed: &[String]) {
    for f in failed {
        eprintln!("{f}");
    }
    eprintln!("{corpus}: {passed} passed, {} failed", failed.len());
    assert!(failed.is_empty(), "{corpus}: {} conformance scenarios failed", failed.len());
}

/// Checks a corpus directory, which must hold at least `at_least` scenarios.
fn check_corpus(rel: &str, at_least: usize) {
    check_corpus_as(KubeVersion::V1_34, rel, at_least)
}

/// Checks a corpus directory as a given version.
fn check_corpus_as(version: KubeVersion, rel: &str, at_least: usize) {
    let (passed, failed) = run_corpus(&corpus_dir(rel), version);
    if std::env::var("SCENARIO").is_err() {
        assert!(
            passed + failed.len() >= at_least,
            "expected the full corpus in {rel}, found {}",
            passed + failed.len()
        );
    }
    report(rel, passed, &failed);
}

#[test]
fn conformance_corpus() {
    check_corpus("scenarios", 40);
}

#[test]
fn workloads_dra_corpus() {
    check_corpus("workloads-dra/scenarios", 18);
}

#[test]
fn timeline_corpus() {
    check_corpus("timeline/scenarios", 14);
}

#[test]
fn random_corpus() {
    check_corpus("random/scenarios", 242);
}

#[test]
fn v1_35_corpora() {
    for (dir, at_least) in [("scenarios", 40), ("workloads-dra", 18), ("timeline", 14), ("random", 242)] {
        check_corpus_as(KubeVersion::V1_35, &format!("v1.35/{dir}"), at_least);
    }
}
