use super::*;
use crate::answer::{run_scenario, RunOptions};
use crate::load::load_str;
use std::collections::BTreeMap;

const PODS: &str = "\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {schedlab.dev/test-only: \"yes\"}}
status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"10\"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop, uid: u-1, annotations: {schedlab.dev/duration: 30s, team: a}}
spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: shop}
spec: {nodeName: n1, containers: [{name: c, image: nginx}]}
status: {phase: Succeeded}
---
apiVersion: schedlab.dev/v1alpha1
kind: Timeline
steps:
- at: 10s
  delete: {kind: Pod, namespace: shop, name: web}
";

fn runs_on(text: &str) -> BTreeMap<String, Option<String>> {
    let sc = load_str(text, "t.yaml").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let e = run_scenario(sc, &RunOptions::new(1, true, schedlab_view::KubeVersion::NEWEST));
    crate::output::conformance_json(&e)["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .map(|p| {
            (
                format!("{}/{}", p["namespace"].as_str().unwrap(), p["name"].as_str().unwrap()),
                p["node"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn an_extension_is_left_out_of_the_config_and_named() {
    let text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    filter:\n      enabled: [{name: schedlab.dev/CEL}]\n  pluginConfig:\n  - name: schedlab.dev/CEL\n    args:\n      filter: \"true\"\n";
    let sc = load_str(text, "t.yaml").unwrap();
    assert!(sc.config.to_effective_yaml().contains("schedlab.dev/CEL"));
    let out = config_yaml(&sc);
    let body: String = out.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n");
    assert!(!body.contains("schedlab.dev/CEL"), "{out}");
    assert!(!body.contains("CELArgs"), "{out}");
    assert!(out.contains("# Left out of profile default-scheduler: schedlab.dev/CEL, a schedlab extension"), "{out}");
    assert!(!out.contains("defaults, which it ran with"), "{out}");
    // What is left reads back as the configuration without the extension.
    let back = load_str(&out, "back.yaml").unwrap();
    assert!(!back.config.to_effective_yaml().contains("schedlab.dev/CEL"));
}

#[test]
fn a_scenario_without_config_exports_the_defaults_and_says_so() {
    let sc = load_str(PODS, "t.yaml").unwrap();
    let out = config_yaml(&sc);
    assert!(out.contains("no KubeSchedulerConfiguration: these are v1.35's defaults"), "{out}");
    let back = load_str(&out, "back.yaml").unwrap();
    assert_eq!(back.config.to_effective_yaml(), sc.config.to_effective_yaml());
}

#[test]
fn manifests_leave_out_schedlab_documents_and_fields() {
    let sc = load_str(PODS, "t.yaml").unwrap();
    let out = manifests(PODS, &sc, ManifestOptions::default());
    for gone in ["Timeline", "schedlab.dev/duration", "uid: u-1", "name: done", "status: {phase"] {
        assert!(!out.lines().filter(|l| !l.starts_with('#')).any(|l| l.contains(gone)), "{gone} in\n{out}");
    }
    assert!(out.contains("team: a"), "{out}");
    // The pod's namespace comes first, made because the file did not declare it.
    let first = out.split("---\n").nth(1).unwrap();
    assert!(first.starts_with("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n"), "{first}");
    assert!(out.contains("# Left out: the Timeline"), "{out}");
    assert!(out.contains("# Left out: finished pods"), "{out}");
    assert!(!out.contains("kwok"), "{out}");
    load_str(&out, "back.yaml").unwrap_or_else(|e| panic!("{e}\n{out}"));
}

#[test]
fn kwok_marks_every_node_and_nothing_else() {
    let sc = load_str(PODS, "t.yaml").unwrap();
    let out = manifests(PODS, &sc, ManifestOptions { kwok: true });
    let back = load_str(&out, "back.yaml").unwrap_or_else(|e| panic!("{e}\n{out}"));
    for n in &back.nodes {
        let ann = &n.metadata.annotations;
        assert_eq!(ann.get("kwok.x-k8s.io/node").map(String::as_str), Some("fake"));
        assert_eq!(ann.get("node.alpha.kubernetes.io/ttl").map(String::as_str), Some("0"));
        assert!(n.spec.taints.is_empty());
    }
    assert!(back.pods.iter().all(|p| !p.metadata.annotations.contains_key("kwok.x-k8s.io/node")));
}

/// The "the exported manifests load back into the same placements": every corpus
/// scenario without a timeline (whose steps the manifests leave out) and whose export kept
/// what the run depends on (owner references left out change which pods controllers count; a
/// `schedlab.dev/duration` left out keeps a pod running).
#[test]
fn exported_manifests_and_config_load_back_into_the_same_placements() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let (mut compared, mut skipped) = (0, Vec::new());
    for dir in ["scenarios", "workloads-dra/scenarios", "random/scenarios"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files.iter().filter(|f| f.extension().is_some_and(|x| x == "yaml")) {
            let text = std::fs::read_to_string(f).unwrap();
            let Ok(sc) = load_str(&text, "t.yaml") else { continue };
            let m = manifests(&text, &sc, ManifestOptions::default());
            let changes_the_run = ["# Left out: metadata.ownerReferences", "# Left out: schedlab.dev/"];
            if sc.timeline.is_some() || changes_the_run.iter().any(|c| m.contains(c)) {
                skipped.push(f.display().to_string());
                continue;
            }
            let exported = format!("{}---\n{m}", config_yaml(&sc));
            let (before, after) = (runs_on(&text), runs_on(&exported));
            for (pod, node) in &after {
                assert_eq!(before.get(pod), Some(node), "{}: {pod}\n{exported}", f.display());
            }
            compared += 1;
        }
    }
    assert!(compared >= 60, "compared {compared}, skipped {skipped:?}");
}
