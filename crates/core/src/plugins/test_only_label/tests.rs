//! The recipe's proof: TestOnlyLabel is registered, enabled by name in a profile, runs, and
//! explains its cells (and the cross-check agrees with what it says).

use super::*;
use crate::plugins::IN_TREE;
use crate::view::Session;
use crate::{Engine, EngineOptions};

/// Node `roomy` has more room (the default scoring prefers it); only `labelled` has the label.
fn scenario(enable: bool) -> String {
    let config = if enable {
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n\
         - schedulerName: default-scheduler\n  plugins:\n    filter:\n      enabled: [{name: TestOnlyLabel}]\n---\n"
    } else {
        ""
    };
    format!(
        "{config}apiVersion: v1\nkind: Node\nmetadata: {{name: roomy}}\nstatus: {{capacity: {{cpu: '16', memory: 64Gi, pods: '110'}}}}\n\
         ---\napiVersion: v1\nkind: Node\nmetadata: {{name: labelled, labels: {{{LABEL}: 'yes'}}}}\n\
         status: {{capacity: {{cpu: '2', memory: 4Gi, pods: '110'}}}}\n\
         ---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: '1'}}}}}}]\n"
    )
}

fn node_of_p(enable: bool) -> Option<String> {
    let sc = crate::load_str(&scenario(enable), "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let mut e = Engine::new(sc, EngineOptions::default());
    e.run();
    e.pods()[e.pod_by_key("default/p").unwrap()].node.clone()
}

#[test]
fn registered_under_its_name() {
    let d = IN_TREE.find("TestOnlyLabel").expect("in the registry");
    assert_eq!(d.name, PluginName::TestOnlyLabel);
    assert_eq!(IN_TREE.get(PluginName::TestOnlyLabel).name, PluginName::TestOnlyLabel);
    assert_eq!(PluginName::parse("TestOnlyLabel"), Some(PluginName::TestOnlyLabel));
    assert_eq!((d.new)(&crate::config::PluginArgs::default()).name(), PluginName::TestOnlyLabel);
}

#[test]
fn runs_when_a_profile_enables_it_by_name() {
    assert_eq!(node_of_p(false).as_deref(), Some("roomy"), "not a default plugin");
    assert_eq!(node_of_p(true).as_deref(), Some("labelled"));
}

#[test]
fn explains_its_filter_cells() {
    let sc = crate::load_str(&scenario(true), "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let mut s = Session::new(sc, 1);
    let roomy = s.node_id("roomy").unwrap();
    let labelled = s.node_id("labelled").unwrap();
    let lines = s.explain(1, roomy, "TestOnlyLabel", false).lines;
    assert!(lines.iter().any(|l| l == &format!("Node roomy has no label {LABEL}.")), "{lines:#?}");
    let lines = s.explain(1, labelled, "TestOnlyLabel", false).lines;
    assert!(lines.iter().any(|l| l == &format!("Node labelled has the label {LABEL}=yes.")), "{lines:#?}");
    let check = s.cross_check();
    assert!(check.compared > 0 && check.failures.is_empty(), "{:#?}", check.failures);
}
