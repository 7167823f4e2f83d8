//! `schedlab why` for pods the `schedlab.dev/CEL` filter keeps pending: the suggestions it
//! prints in its json, applied here to the scenario's text and run with `schedlab run`, put the
//! pod where they say; its text names the smallest of them.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn schedlab(args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("runs");
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.success())
}

/// The node `key` runs on in `schedlab run FILE --output json` (null: pending).
fn node_of(file: &str, key: &str) -> Value {
    let (out, ok) = schedlab(&["run", file, "--output", "json"]);
    assert!(ok, "run {file}");
    let run: Value = serde_json::from_str(&out).expect("json");
    let (ns, name) = key.split_once('/').unwrap();
    run["pods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["namespace"] == ns && p["name"] == name)
        .unwrap_or_else(|| panic!("{key} in {file}"))["node"]
        .clone()
}

const REJECTED: &str = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    filter:\n      enabled: [{name: schedlab.dev/CEL}]\n  pluginConfig:\n  - name: schedlab.dev/CEL\n    args: {filter: 'node.metadata.labels.lifecycle == \"on-demand\"'}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: spot-1, labels: {lifecycle: spot}}\nstatus:\n  capacity: {cpu: '4', memory: 8Gi, pods: '10'}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: x}]\n";

#[test]
fn every_suggestion_for_a_cel_rejection_schedules_the_pod_in_schedlab_run() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("why-cel");
    std::fs::create_dir_all(&dir).unwrap();
    let rejected = dir.join("rejected.yaml");
    std::fs::write(&rejected, REJECTED).unwrap();
    let explained = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/explanations/cel-plugin.yaml");
    // (scenario, pod, the smallest fix's sentence starts with)
    let table = [
        (rejected.to_string_lossy().into_owned(), "default/web", "Label node spot-1 lifecycle=on-demand"),
        // The filter fails on node legacy (no lifecycle label): an Error status, which stops the cycle.
        (explained.to_string_lossy().into_owned(), "default/checkout", "Label node legacy lifecycle=on-demand"),
    ];
    for (file, key, smallest) in table {
        assert_eq!(node_of(&file, key), Value::Null, "{file}: {key} is pending before");
        let (text, ok) = schedlab(&["why", &file, key]);
        assert!(ok, "{text}");
        assert!(text.contains(&format!("Smallest fix: {smallest}")), "{text}");
        assert!(text.contains("Turn off schedlab.dev/CEL's Filter in profile default-scheduler"), "{text}");
        let (json, ok) = schedlab(&["why", &file, key, "--output", "json"]);
        assert!(ok);
        let answer: Value = serde_json::from_str(&json).expect("json");
        let suggestions = answer["pending"]["suggestions"].as_array().expect("suggestions");
        assert!(suggestions.len() >= 2, "{json}");
        let scenario = std::fs::read_to_string(&file).unwrap();
        for (i, s) in suggestions.iter().enumerate() {
            let edits: Vec<schedlab_view::answer::Edit> = serde_json::from_value(s["edits"].clone()).expect("edits");
            let edited = schedlab_core::answer::apply_edits_keeping_text(&scenario, &edits).expect("applies");
            let out = dir.join(format!("edited-{}-{i}.yaml", key.replace('/', "-")));
            std::fs::write(&out, edited).unwrap();
            assert_eq!(node_of(&out.to_string_lossy(), key), s["landsOn"], "{}", s["sentence"]);
        }
    }
}
