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
    let opts = &RunOptions::new(1, false, schedlab_view::KubeVersion::V1_34);
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

/// A scenario with `schedlab.dev/CEL` enabled as `plugins` says, its filter `filter`, two
/// nodes (`lifecycle: spot`, `big` with 64 cpus) and a pod labelled `tier: critical`.
fn cel_scenario(plugins: &str, filter: &str) -> String {
    format!(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins: {plugins}\n  pluginConfig:\n  - name: schedlab.dev/CEL\n    args:\n      filter: '{filter}'\n      score: '\"cost\" in node.metadata.labels ? 100 : 0'\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: spot-1\n  labels: {{lifecycle: spot, cost: low}}\nstatus:\n  capacity: {{cpu: '4', memory: 8Gi, pods: '10'}}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: spot-2\n  labels: {{lifecycle: spot}}\nstatus:\n  capacity: {{cpu: '4', memory: 8Gi, pods: '10'}}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {{tier: critical}}\nspec:\n  containers:\n  - name: c\n    image: x\n"
    )
}

/// A pod the CEL filter rejects everywhere: the suggestions that fit the expression (a label it
/// reads, set to a literal it compares with, or the plugin's Filter turned off in the profile;
/// an expression over anything else gets only the latter), each applied — as the CLI prints it
/// and as the page applies it, keeping the text — and re-run here, schedules the pod.
#[test]
fn a_pod_rejected_by_the_cel_filter_gets_fitting_suggestions() {
    let opts = &RunOptions::new(1, false, schedlab_view::KubeVersion::V1_34);
    let multi = "{multiPoint: {enabled: [{name: schedlab.dev/CEL, weight: 2}]}}";
    let split = "{filter: {enabled: [{name: schedlab.dev/CEL}]}, score: {enabled: [{name: schedlab.dev/CEL}]}}";
    let node_label = "node.metadata.labels.lifecycle == \"on-demand\"";
    let pod_label = "!(\"tier\" in pod.metadata.labels) || pod.metadata.labels.tier != \"critical\"";
    let quantity = "quantity(node.status.allocatable.cpu).isGreaterThan(quantity(\"8\"))";
    // (plugins, filter, the sentences wanted (each a prefix of one suggestion), how many in all;
    // never a label the pod has already, tier=critical)
    let table: &[(&str, &str, &[&str], usize)] = &[
        (
            multi,
            node_label,
            &[
                "Label node spot-1 lifecycle=on-demand",
                "Label node spot-2 lifecycle=on-demand",
                "Turn off schedlab.dev/CEL's Filter in profile default-scheduler",
            ],
            3,
        ),
        (
            split,
            pod_label,
            &[
                "Remove label tier from default/web",
                "Turn off schedlab.dev/CEL's Filter in profile default-scheduler",
            ],
            2,
        ),
        (split, quantity, &["Turn off schedlab.dev/CEL's Filter in profile default-scheduler"], 1),
    ];
    for (plugins, filter, want, count) in table {
        let text = cel_scenario(plugins, &filter.replace('\'', "''"));
        let a = why(&text, "t.yaml", "default/web", opts).expect("answer");
        let p = a.pending.unwrap_or_else(|| panic!("{filter}: not pending"));
        assert_eq!(p.reasons.len(), 1, "{filter}: {:?}", p.reasons);
        assert_eq!(p.reasons[0].plugin, "schedlab.dev/CEL");
        let said: Vec<&str> = p.suggestions.iter().map(|s| s.sentence.as_str()).collect();
        for w in *want {
            assert!(said.iter().any(|s| s.starts_with(w)), "{filter}: {w} not in {said:?}");
        }
        assert_eq!(said.len(), *count, "{filter}: {said:?}");
        // Smallest first: a label before the configuration edit.
        assert!(said.last().unwrap().starts_with("Turn off"), "{filter}: {said:?}");
        for s in &p.suggestions {
            assert_eq!(s.cells[0].plugin, "schedlab.dev/CEL", "{}", s.sentence);
            for edited in [apply_edits(&text, &s.edits).unwrap(), apply_edits_keeping_text(&text, &s.edits).unwrap()] {
                assert_eq!(lands_on(&edited, "default/web", opts), Ok(Some(s.lands_on.clone())), "{}", s.sentence);
            }
            if s.sentence.starts_with("Turn off") {
                // The Score stays: the edited configuration still scores with the plugin.
                let edited = apply_edits(&text, &s.edits).unwrap();
                let e = run_text(&edited, "t.yaml", opts).unwrap();
                let profile = &e.config().profiles[0];
                assert!(!profile.plugins.filter.contains(&crate::vocabulary::PluginName::Cel));
                assert!(profile.plugins.score.contains(&crate::vocabulary::PluginName::Cel));
            }
        }
    }
}
