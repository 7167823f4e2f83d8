//! The answers of `schedlab_core::answer` held against independent runs: every suggestion shown
//! for a pending pod of the corpora, applied and re-run here, makes the pod schedule; "why here"
//! names exactly the plugins whose weighted scores favoured the winner, with the numbers of the
//! trace's score table.

use schedlab_core::answer::{apply_edits, why, RunOptions};
use schedlab_core::trace::{Detail, TraceEvent};
use schedlab_core::{Engine, EngineOptions};
use std::path::{Path, PathBuf};

fn corpus_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(sub)
        .join("scenarios")
}

/// The scenarios of a corpus, in name order (the first `limit`).
fn scenarios(sub: &str, limit: usize) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir(sub))
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files.truncate(limit);
    files
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).expect("read"),
            )
        })
        .collect()
}

/// An independent run (the test's own): controllers on as `schedlab run` runs by default.
fn run(text: &str, seed: u64) -> Engine {
    let mut sc = schedlab_core::load::load_str_for(text, "t.yaml", &schedlab_core::version::Features::new(VERSION)).expect("loads");
    let mut c = schedlab_core::controllers::Controllers::new(seed);
    c.reconcile(&mut sc);
    let mut e = Engine::new(sc, EngineOptions { seed, detail: Detail::All });
    e.enable_controllers(c);
    e.run();
    e
}

const VERSION: schedlab_view::KubeVersion = schedlab_view::KubeVersion::V1_34;

fn opts() -> RunOptions {
    RunOptions::new(1, true, VERSION)
}

/// Every pending pod of the hand-written, timeline and workload corpora (and the first random
/// scenarios): each suggestion, applied and re-run independently, schedules the pod where the
/// suggestion says; suggestions come smallest first.
#[test]
fn every_suggestion_schedules_the_pod() {
    let mut pending = 0;
    let mut suggested = 0;
    let sets = [
        ("", usize::MAX),
        ("timeline", usize::MAX),
        ("workloads-dra", usize::MAX),
        ("random", 12),
    ];
    for (sub, limit) in sets {
        for (name, text) in scenarios(sub, limit) {
            let e = run(&text, 1);
            let keys: Vec<String> = e.pods().iter().filter(|p| p.ran_on.is_none()).map(|p| p.info.key.clone()).collect();
            for key in keys {
                pending += 1;
                let a = why(&text, &name, &key, &opts()).unwrap_or_else(|err| panic!("{name} {key}: {err}"));
                assert_eq!(a.node, None, "{name} {key}");
                let p = a.pending.expect("a pending answer");
                assert!(p.suggestions.len() <= p.tried, "{name} {key}");
                assert!(
                    p.suggestions.windows(2).all(|w| w[0].size <= w[1].size),
                    "{name} {key}: not smallest first"
                );
                for s in &p.suggestions {
                    suggested += 1;
                    let edited = apply_edits(&text, &s.edits).expect("applies");
                    let e2 = run(&edited, 1);
                    let i = e2
                        .pod_by_key(&key)
                        .unwrap_or_else(|| panic!("{name} {key}: gone after {}", s.sentence));
                    assert_eq!(
                        e2.pods()[i].ran_on.as_deref(),
                        Some(s.lands_on.as_str()),
                        "{name} {key}: {}",
                        s.sentence
                    );
                    assert!(!s.cells.is_empty(), "{name} {key}: {}", s.sentence);
                }
            }
        }
    }
    // The sweep saw pending pods and verified suggestions (it cannot pass empty).
    assert!(pending >= 15 && suggested >= 15, "{pending} pending pods, {suggested} suggestions");
}

/// Known pending pods and the smallest fix the engine must find for each.
#[test]
fn smallest_fixes() {
    let table: &[(&str, &str, &str)] = &[
        ("fit-unschedulable-multiple-reasons", "default/trainer", "Give node-cpu 1 more cpu"),
        ("spread-mindomains", "default/etl-3", "maxSkew 2"),
        ("preemption-never-policy", "default/polite", "more cpu"),
        ("nodeunschedulable-cordoned", "default/c-big", "more cpu"),
        ("interpod-antiaffinity-hostname", "default/web-3", "Add a node like"),
    ];
    for (file, key, want) in table {
        let text = std::fs::read_to_string(corpus_dir("").join(format!("{file}.yaml"))).expect("read");
        let a = why(&text, file, key, &opts()).expect("answer");
        let p = a.pending.expect("pending");
        let first = p.suggestions.first().unwrap_or_else(|| panic!("{file} {key}: no suggestion"));
        assert!(first.sentence.contains(want), "{file} {key}: {}", first.sentence);
        assert!(a.sentences.last().unwrap().contains(want), "{file} {key}: {:?}", a.sentences);
        assert!(!p.reasons.is_empty(), "{file} {key}");
    }
}

/// "Why here" names the plugins whose weighted difference favours the winner, with the numbers
/// of the bound cycle's score table (recomputed here from the trace).
#[test]
fn why_here_names_the_plugins_that_made_the_difference() {
    let mut checked = 0;
    for (name, text) in scenarios("", usize::MAX) {
        let e = run(&text, 1);
        for p in e.pods().iter().filter(|p| p.ran_on.is_some() && p.attempts > 0) {
            let a = why(&text, &name, &p.info.key, &opts()).expect("answer");
            let h = a.here.expect("here");
            assert_eq!(a.node.as_deref(), p.ran_on.as_deref());
            let Some(runner) = &h.runner_up else { continue };
            // The score table of the bound cycle, from the trace.
            let t = e
                .trace()
                .events
                .iter()
                .find_map(|ev| match ev {
                    TraceEvent::Score { cycle, table: Some(t), .. } if *cycle == h.cycle => Some(t),
                    _ => None,
                })
                .expect("a score table");
            let col = |n: &str| {
                t.nodes
                    .iter()
                    .position(|&i| e.trace().header.nodes[i as usize] == n)
                    .expect("scored")
            };
            let (w, r) = (col(&h.node), col(runner));
            assert_eq!(h.margin, t.totals[w] - t.totals[r], "{name}");
            let text_all = a.sentences.join(" ");
            for row in &t.plugins {
                let d = (row.normalized[w] - row.normalized[r]) * row.weight;
                let named = text_all.contains(&format!("{} +", row.plugin));
                assert_eq!(
                    named,
                    d > 0 && h.margin > 0,
                    "{name} {}: {} diff {d}: {text_all}",
                    p.info.key,
                    row.plugin
                );
                let x = h.plugins.iter().find(|x| x.plugin == row.plugin.as_str()).expect("listed");
                assert_eq!((x.difference, x.decisive), (d, d > 0 && d >= h.margin), "{name}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}
