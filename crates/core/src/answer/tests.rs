use super::*;
use schedlab_view::answer::Edit;
use serde_json::json;

const TEXT: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  allocatable:\n    cpu: \"1\"\n    memory: 1Gi\n    pods: \"10\"\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n  containers:\n  - name: c\n    image: x\n    resources:\n      requests:\n        cpu: \"2\"\n";

#[test]
fn edits_patch_named_documents_and_add_new_ones() {
    let patch = Edit::Patch {
        kind: "Node".into(),
        namespace: None,
        name: "n1".into(),
        merge: json!({"status": {"allocatable": {"cpu": "2"}}}),
    };
    let out = apply_edits(TEXT, &[patch]).expect("applies");
    let docs = crate::load::documents(&out);
    assert_eq!(docs[0]["status"]["allocatable"], json!({"cpu": "2", "memory": "1Gi", "pods": "10"}));
    let missing = Edit::Patch {
        kind: "Node".into(),
        namespace: None,
        name: "n9".into(),
        merge: json!({}),
    };
    assert!(apply_edits(TEXT, &[missing]).is_err());
    let add = Edit::Add {
        document: json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}}),
    };
    assert_eq!(crate::load::documents(&apply_edits(TEXT, &[add]).unwrap()).len(), 3);
}

#[test]
fn a_pod_short_of_cpu_gets_the_shortfall_verified() {
    let opts = RunOptions {
        seed: 1,
        controllers: false,
        version: schedlab_view::KubeVersion::V1_34,
    };
    let a = why(TEXT, "t.yaml", "default/big", opts).expect("answer");
    assert_eq!(a.node, None);
    let p = a.pending.expect("pending");
    assert_eq!(p.reasons.len(), 1);
    assert_eq!(
        (p.reasons[0].reason.as_str(), p.reasons[0].nodes.clone()),
        ("Insufficient cpu", vec!["n1".to_string()])
    );
    let first = &p.suggestions[0];
    assert!(first.sentence.starts_with("Give n1 1 more cpu"), "{}", first.sentence);
    assert_eq!(first.lands_on, "n1");
    // A shortfall one millicore smaller does not schedule the pod: the figure is the least.
    let less = Edit::Patch {
        kind: "Node".into(),
        namespace: None,
        name: "n1".into(),
        merge: json!({"status": {"allocatable": {"cpu": "1999m"}, "capacity": {"cpu": "1999m"}}}),
    };
    assert_eq!(lands_on(&apply_edits(TEXT, &[less]).unwrap(), "default/big", opts), Ok(None));
    assert!(why(TEXT, "t.yaml", "default/none", opts).is_err());
}
