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

/// Each pod's answer (`schedlab run --output json`'s pod entry) by `namespace/name`.
fn answers(run: &Value) -> BTreeMap<String, Value> {
    run["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .map(|p| (format!("{}/{}", p["namespace"].as_str().unwrap(), p["name"].as_str().unwrap()), p.clone()))
        .collect()
}

/// What changes if I upgrade from v1.34 to v1.35: each difference `compare --against-version`
/// lists is one between two independent `schedlab run`s at each version (and it misses none
/// of the fields it compares), and it names the upstream change that explains it.
#[test]
fn against_version_lists_the_differences_of_two_runs_with_their_reasons() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // (scenario, pod, field, the change that explains it)
        // An untolerated taint: v1.35's reason no longer names the taint.
        ("v1.35/scenarios/queue-priority-order.yaml", "default/b-none", "message", "kubernetes#134740"),
        // A preemptor's binding no longer wakes the pending pod: fewer attempts.
        (
            "v1.35/timeline/timeline-preemption-then-node-add.yaml",
            "",
            "attempts",
            "kubernetes#134157",
        ),
    ];
    for &(file, pod, field, upstream) in cases {
        let f = corpus(file);
        let run = |v: &str| schedlab(&["run", &f, "--kubernetes-version", v, "--controllers", "off"]);
        let (a, b) = (answers(&run("1.34")), answers(&run("1.35")));
        let c = schedlab(&[
            "compare",
            &f,
            "--kubernetes-version",
            "1.34",
            "--against-version",
            "1.35",
            "--controllers",
            "off",
            "--output",
            "json",
        ]);
        assert_eq!((c["from"].as_str(), c["to"].as_str()), (Some("1.34"), Some("1.35")));
        // Every listed field is the runs' values, and every message, node and attempt count
        // that differs between the runs is listed.
        let text = |v: &Value| match v {
            Value::Null => Value::Null,
            Value::String(_) => v.clone(),
            other => Value::String(other.to_string()),
        };
        let mut listed = Vec::new();
        for p in c["pods"].as_array().expect("pods") {
            let key = p["pod"].as_str().unwrap();
            for d in p["fields"].as_array().unwrap() {
                let fld = d["field"].as_str().unwrap();
                if fld != "score" {
                    assert_eq!(d["from"], text(&a[key][fld]), "{file} {key} {fld} at v1.34");
                    assert_eq!(d["to"], text(&b[key][fld]), "{file} {key} {fld} at v1.35");
                }
                listed.push((key.to_string(), fld.to_string()));
            }
        }
        for (key, pa) in &a {
            for fld in ["node", "nominatedNode", "message", "attempts", "evicted"] {
                if pa[fld] != b[key][fld] {
                    assert!(listed.contains(&(key.clone(), fld.to_string())), "{file}: {key} {fld} differs but is not listed");
                }
            }
        }
        // The difference named in the case is there, explained by the change named.
        let switch = c["changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|ch| ch["upstream"] == upstream)
            .unwrap_or_else(|| panic!("{file}: no change {upstream}: {c:#}"))["switch"]
            .clone();
        let found = c["pods"].as_array().unwrap().iter().any(|p| {
            (pod.is_empty() || p["pod"] == pod)
                && p["fields"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|d| d["field"] == field && d["explainedBy"].as_array().unwrap().contains(&switch))
        });
        assert!(found, "{file}: {pod} {field} explained by {upstream}: {c:#}");
    }
}

/// The text output names the reason, and an unknown version is refused.
#[test]
fn against_version_text_names_the_reason() {
    let f = corpus("v1.35/scenarios/queue-priority-order.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["compare", &f, "--kubernetes-version", "1.34", "--against-version", "1.35"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("untolerated taint(s)"), "{text}");
    assert!(text.contains("because: kubernetes#134740: "), "{text}");
    let bad = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(["compare", &f, "--against-version", "1.33"])
        .output()
        .expect("runs");
    assert!(!bad.status.success());
}

/// `--feature-gates` reaches every run of `compare` and `why`, as it reaches `run`'s: a gate
/// the version does not know is the same usage error for each (it used to be ignored), and a
/// known gate set off gives the same comparison as two `run`s with it.
#[test]
fn compare_and_why_run_with_the_feature_gates() {
    let file = corpus("random/scenarios/rand-21-014.yaml");
    for args in [
        vec!["run", &file, "--feature-gates", "NoSuchGate=true"],
        vec!["compare", &file, "--seed", "7", "--feature-gates", "NoSuchGate=true"],
        vec!["why", &file, "default/x", "--feature-gates", "NoSuchGate=true"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_schedlab")).args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--feature-gates") && err.contains("NoSuchGate"), "{args:?}: {err}");
    }
    let gates = "NominatedNodeNameForExpectation=false";
    let c = schedlab(&["compare", &file, "--seed", "7", "--feature-gates", gates, "--output", "json"]);
    let want = differing(
        &schedlab(&["run", &file, "--seed", "1", "--feature-gates", gates]),
        &schedlab(&["run", &file, "--seed", "7", "--feature-gates", gates]),
    );
    assert_eq!(listed(&c), want);
}
