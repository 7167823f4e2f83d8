//! Every cell of every run explained and held against the trace (`Session::cross_check`): each
//! scenario of every corpus in tests/conformance (and of ../shared/conformance when it is
//! there), run with the controllers off as the corpus world is, and each preset in
//! assets/presets, run with the controllers on as the page runs them. For every cycle, every
//! node that existed in it and every Filter and Score plugin, the explanation must name the
//! node asked, say the verdict the trace recorded, and agree with re-running the cycle's plugins
//! on the state the cycle read; the filter matrix must list exactly the nodes that existed.
//!
//! Native only: it reads the corpus directories. The explanations themselves are the same
//! code in wasm32, where `explanation_snapshots` pins them byte for byte against the native
//! text, and the trace snapshots show the runs are identical there.

mod common;

use schedlab_core::view::{Session, SessionOptions};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The scenario files of a directory, sorted (none when it does not exist).
fn yamls(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "yaml"));
    v.sort();
    v
}

/// A scenario file as (name, text).
fn read(p: &Path) -> (String, String) {
    (
        p.file_name().unwrap().to_string_lossy().to_string(),
        std::fs::read_to_string(p).unwrap(),
    )
}

/// Every corpus scenario as (file name, text): the project's (listed once, in `common`), then
/// those of ../shared not copied yet.
fn corpus() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = common::all().map(|(n, yaml, _)| (format!("{n}.yaml"), yaml.to_string())).collect();
    for sub in common::CORPUS_DIRS {
        for p in yamls(&root().join("../shared/conformance").join(sub)) {
            let (name, text) = read(&p);
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, text));
            }
        }
    }
    out
}

fn check(files: &[(String, String)], controllers: bool, cells: &mut u64, compared: &mut u64, failures: &mut Vec<String>) {
    for (name, text) in files {
        let sc = match schedlab_core::load_str(text, name) {
            Ok(sc) => sc,
            // A scenario the loader refuses has no cells (the corpus has some on purpose).
            Err(_) => continue,
        };
        let mut s = Session::with_options(sc, SessionOptions { seed: 1, controllers }, &mut |_| {});
        let x = s.cross_check();
        *cells += x.cells;
        *compared += x.compared;
        failures.extend(x.failures.into_iter().take(20).map(|l| format!("{name}: {l}")));
    }
}

#[test]
fn every_cell_of_every_corpus_scenario_and_preset_agrees_with_the_trace() {
    let corpus = corpus();
    let presets: Vec<(String, String)> = yamls(&root().join("assets/presets")).iter().map(|p| read(p)).collect();
    assert!(corpus.len() >= 70, "the corpus was not found ({} files)", corpus.len());
    assert!(presets.len() >= 10, "the presets were not found ({} files)", presets.len());
    let (mut cells, mut compared, mut failures) = (0, 0, Vec::new());
    check(&corpus, false, &mut cells, &mut compared, &mut failures);
    check(&presets, true, &mut cells, &mut compared, &mut failures);
    eprintln!(
        "explanation cross-check: {} scenarios and {} presets, {cells} cells explained, {compared} verdicts recomputed and compared",
        corpus.len(),
        presets.len()
    );
    assert!(failures.is_empty(), "{} disagreement(s):\n{}", failures.len(), failures.join("\n"));
    assert!(compared > 1000, "too few cells compared: {compared}");
}
