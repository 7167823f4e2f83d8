//! `schedlab compare` against two independent `schedlab run`s: the pods it lists as landing
//! differently are exactly those whose nodes differ between the two runs' JSON.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn schedlab(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("runs");
    assert!(out.status.success(), "schedlab {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json")
}

fn corpus(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// `namespace/name` -> node (null: pending), from `schedlab run --output json`.
fn placements(run: &Value) -> BTreeMap<String, Value> {
    run["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .map(|p| {
            (
                format!("{}/{}", p["namespace"].as_str().unwrap(), p["name"].as_str().unwrap()),
                p["node"].clone(),
            )
        })
        .collect()
}

/// The pods whose node differs between two runs, sorted.
fn differing(a: &Value, b: &Value) -> Vec<String> {
    let (a, b) = (placements(a), placements(b));
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k).unwrap_or(&Value::Null) != b.get(*k).unwrap_or(&Value::Null))
        .cloned()
        .collect()
}

fn listed(c: &Value) -> Vec<String> {
    let mut v: Vec<String> = c["differing"]
        .as_array()
        .expect("differing")
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn compare_lists_exactly_the_pods_two_runs_place_differently() {
    // Another configuration: LeastAllocated (the default) against MostAllocated, the second
    // run made here as a file of its own.
    let file = corpus("scenarios/mixed-three-zone-web.yaml");
    let most = std::fs::read_to_string(corpus("scenarios/score-most-allocated-binpack.yaml")).unwrap();
    let config = most
        .split("\n---\n")
        .find(|d| d.contains("kind: KubeSchedulerConfiguration"))
        .unwrap();
    assert!(config.contains("MostAllocated"));
    let config_file = tmp("compare-most.yaml", config);
    let scenario = std::fs::read_to_string(&file).unwrap();
    assert!(!scenario.contains("KubeSchedulerConfiguration"));
    let combined = tmp("compare-combined.yaml", &format!("{config}\n---\n{scenario}"));
    let c = schedlab(&["compare", &file, "--config", config_file.to_str().unwrap(), "--output", "json"]);
    let want = differing(&schedlab(&["run", &file]), &schedlab(&["run", combined.to_str().unwrap()]));
    assert!(!want.is_empty());
    assert_eq!(listed(&c), want);
    assert!(c["configDiff"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l.as_str().unwrap().contains("MostAllocated")));
    // The second file given as a file: the same answer.
    let c2 = schedlab(&["compare", &file, combined.to_str().unwrap(), "--output", "json"]);
    assert_eq!(listed(&c2), want);

    // Another seed.
    let file = corpus("random/scenarios/rand-21-014.yaml");
    let c = schedlab(&["compare", &file, "--seed", "7", "--output", "json"]);
    let want = differing(&schedlab(&["run", &file, "--seed", "1"]), &schedlab(&["run", &file, "--seed", "7"]));
    assert!(!want.is_empty());
    assert_eq!(listed(&c), want);
    assert!(c["configDiff"].as_array().unwrap().is_empty());
    // Same figures as the runs: pods pending.
    let pending = |v: &Value| v["pods"].as_array().unwrap().iter().filter(|p| p["node"].is_null()).count();
    assert_eq!(
        c["a"]["podsPending"].as_u64().unwrap() as usize,
        pending(&schedlab(&["run", &file, "--seed", "1"]))
    );
}
