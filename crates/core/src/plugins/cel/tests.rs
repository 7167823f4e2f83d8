//! The CEL plugin, table-driven: Filter, Score, normalization, compile errors at their line,
//! runtime errors as Error statuses; then in a scenario: enabled by name with a weight, run,
//! and explained with its expression (the cross-check agreeing).

use super::*;
use crate::framework::Code;
use crate::plugins::testing::{Env, MakeNode, MakePod};
use crate::plugins::IN_TREE;
use crate::view::Session;
use crate::{Engine, EngineOptions};

fn plugin(filter: Option<&str>, score: Option<&str>) -> Cel {
    Cel::new(&CelArgs {
        filter: filter.map(str::to_string),
        score: score.map(str::to_string),
    })
}

fn gpu_node() -> MakeNode {
    MakeNode::new("n1")
        .label("zone", "a")
        .label("gpu", "true")
        .capacity(&[("cpu", "8"), ("memory", "32Gi"), ("pods", "110")])
        .taint("dedicated", "ml", "NoSchedule")
}

/// A filter case: what, the expression, the pod, the node, the code, the message's start.
type FilterCase = (&'static str, Option<&'static str>, MakePod, MakeNode, Code, &'static str);

/// Filter on one pod and one node: the code, and for an Error the start of its message.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn filter_verdicts() {
    let pod = || {
        MakePod::new("p")
            .label("app", "web")
            .req(&[("cpu", "2")])
            .node_selector("zone", "a")
    };
    let cases: Vec<FilterCase> = vec![
        ("no expression passes", None, pod(), gpu_node(), Code::Success, ""),
        (
            "a node label",
            Some(r#"node.metadata.labels["gpu"] == "true""#),
            pod(),
            gpu_node(),
            Code::Success,
            "",
        ),
        (
            "a missing label, checked first",
            Some(r#""ssd" in node.metadata.labels && node.metadata.labels.ssd == "true""#),
            pod(),
            gpu_node(),
            Code::UnschedulableAndUnresolvable,
            "",
        ),
        (
            "pod and node together",
            Some(r#"pod.metadata.labels.app == "web" && node.metadata.labels.zone == pod.spec.nodeSelector.zone"#),
            pod(),
            gpu_node(),
            Code::Success,
            "",
        ),
        (
            "a quantity of the node's allocatable",
            Some(r#"quantity(node.status.allocatable.cpu).compareTo(quantity("16")) >= 0"#),
            pod(),
            gpu_node(),
            Code::UnschedulableAndUnresolvable,
            "",
        ),
        (
            "the pod's request against the node's allocatable",
            Some(r#"quantity(pod.spec.containers[0].resources.requests.cpu).isLessThan(quantity(node.status.allocatable.cpu))"#),
            pod(),
            gpu_node(),
            Code::Success,
            "",
        ),
        (
            "taints are a list of maps",
            Some(r#"node.spec.taints.exists(t, t.key == "dedicated" && t.effect == "NoSchedule")"#),
            pod(),
            gpu_node(),
            Code::Success,
            "",
        ),
        (
            "labels and annotations are maps even when the object has none",
            Some(r#"!("team" in pod.metadata.annotations) && pod.metadata.labels.size() == 0"#),
            MakePod::new("p"),
            gpu_node(),
            Code::Success,
            "",
        ),
        (
            "other absent fields are absent",
            Some("pod.spec.priorityClassName == \"\""),
            MakePod::new("p"),
            gpu_node(),
            Code::Error,
            "no such key: priorityClassName",
        ),
        (
            "has() on an absent field",
            Some("!has(node.spec.unschedulable)"),
            pod(),
            gpu_node(),
            Code::Success,
            "",
        ),
        (
            "a missing key is an error, not a rejection",
            Some(r#"node.metadata.labels.ssd == "true""#),
            pod(),
            gpu_node(),
            Code::Error,
            "no such key: ssd",
        ),
        (
            "a result that is not a bool",
            Some("1 + 1"),
            pod(),
            gpu_node(),
            Code::Error,
            "filter expression: result of type int is not bool",
        ),
        (
            "a type error at run time",
            Some(r#"node.metadata.name + 1 == "x""#),
            pod(),
            gpu_node(),
            Code::Error,
            "",
        ),
    ];
    for (what, expr, pod, node, code, msg) in cases {
        let pl = plugin(expr, None);
        let env = Env::new(vec![node.obj()], vec![]);
        let st = pl.filter(&env.cx(), &CycleState::new(), &pod.info(), env.node("n1"));
        assert_eq!(st.code, code, "{what}: {st:?}");
        if code == Code::UnschedulableAndUnresolvable {
            assert_eq!(st.message(), ERR_REASON, "{what}");
        }
        assert!(st.message().starts_with(msg), "{what}: {}", st.message());
    }
}

/// Score on one pod and one node: the raw score, or the start of the error.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn raw_scores() {
    let cases: Vec<(&str, Option<&str>, Result<i64, &str>)> = vec![
        ("no expression", None, Ok(0)),
        ("a constant", Some("42"), Ok(42)),
        ("a label decides", Some(r#"node.metadata.labels.zone == "a" ? 100 : 0"#), Ok(100)),
        (
            "cpu cores as an int",
            Some(r#"quantity(node.status.allocatable.cpu).asInteger() * 10"#),
            Ok(80),
        ),
        ("negative", Some("-5"), Ok(-5)),
        ("a uint", Some("7u"), Ok(7)),
        (
            "a missing key",
            Some("node.metadata.labels.rack == 1 ? 1 : 0"),
            Err("no such key: rack"),
        ),
        (
            "a double is not an int",
            Some("1.5"),
            Err("score expression: result of type double is not int"),
        ),
    ];
    let env = Env::new(vec![gpu_node().obj()], vec![]);
    let pod = MakePod::new("p").info();
    for (what, expr, want) in cases {
        let got = plugin(None, expr).score(&env.cx(), &CycleState::new(), &pod, env.node("n1"));
        match (got, want) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{what}"),
            (Err(s), Err(w)) => {
                assert_eq!(s.code, Code::Error, "{what}");
                assert!(s.message().starts_with(w), "{what}: {}", s.message());
            }
            (g, w) => panic!("{what}: got {g:?}, want {w:?}"),
        }
    }
}

/// NormalizeScore clamps each raw score to 0..100, whatever the others are.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn normalization_clamps() {
    let cases: &[(&[i64], &[i64])] = &[
        (&[0, 50, 100], &[0, 50, 100]),
        (&[-20, 150, 7], &[0, 100, 7]),
        (&[1000, 2000], &[100, 100]),
        (&[3, 4], &[3, 4]),
        (&[i64::MIN, i64::MAX], &[0, 100]),
    ];
    let env = Env::new(vec![], vec![]);
    let pod = MakePod::new("p").info();
    for (raw, want) in cases {
        let mut scores: Vec<NodeScore> = raw.iter().enumerate().map(|(node, &score)| NodeScore { node, score }).collect();
        let st = plugin(None, Some("0")).normalize_score(&env.cx(), &CycleState::new(), &pod, &mut scores);
        assert!(st.is_success());
        let got: Vec<i64> = scores.iter().map(|s| s.score).collect();
        assert_eq!(&got, want, "{raw:?}");
    }
}

/// A two-node scenario: `small` (zone a, 2 cpu) and `big` (zone b, 8 cpu, label gpu=true);
/// `profile` is the profile's plugins and pluginConfig, `pod_labels` the pod's labels.
fn scenario(profile: &str, pod_labels: &str) -> String {
    format!(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n\
         - schedulerName: default-scheduler\n{profile}---\n\
         apiVersion: v1\nkind: Node\nmetadata: {{name: small, labels: {{zone: a}}}}\n\
         status: {{capacity: {{cpu: '2', memory: 4Gi, pods: '110'}}}}\n---\n\
         apiVersion: v1\nkind: Node\nmetadata: {{name: big, labels: {{zone: b, gpu: 'true'}}}}\n\
         status: {{capacity: {{cpu: '8', memory: 32Gi, pods: '110'}}}}\n---\n\
         apiVersion: v1\nkind: Pod\nmetadata: {{name: p, labels: {{{pod_labels}}}}}\n\
         spec:\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: '1'}}}}}}]\n"
    )
}

/// The profile's lines enabling the plugin at `points` with `args` (YAML flow map).
fn enabled(points: &str, args: &str) -> String {
    format!("  plugins:\n{points}  pluginConfig:\n  - name: schedlab.dev/CEL\n    args: {args}\n")
}

const FILTER: &str = "    filter:\n      enabled: [{name: schedlab.dev/CEL}]\n";

fn run(text: &str) -> Engine {
    let sc = crate::load_str(text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let mut e = Engine::new(sc, EngineOptions::default());
    e.run();
    e
}

fn node_of_p(e: &Engine) -> Option<String> {
    e.pods()[e.pod_by_key("default/p").unwrap()].node.clone()
}

#[test]
fn registered_as_a_schedlab_extension() {
    let d = IN_TREE.find("schedlab.dev/CEL").expect("in the registry");
    assert_eq!(d.name, PluginName::Cel);
    assert!(d.name.is_schedlab_extension());
    assert!(crate::plugins::registry::is_schedlab_extension("schedlab.dev/CEL"));
    assert_eq!(d.args.map(|c| c.kind), Some("CELArgs"));
}

/// Where the pod lands with the plugin enabled in several ways: the filter overrides the
/// default scoring's choice (`big`, the roomier), and the score with a high weight does too.
#[test]
fn placements_by_filter_and_weighted_score() {
    let prefer_a = "{score: 'node.metadata.labels.zone == \"a\" ? 100 : 0'}";
    let cases: Vec<(&str, String, Option<&str>)> = vec![
        ("not enabled: the default scoring picks big", String::new(), Some("big")),
        (
            "filter to zone a",
            enabled(FILTER, "{filter: 'node.metadata.labels.zone == \"a\"'}"),
            Some("small"),
        ),
        (
            "filter on the pod's label",
            enabled(
                FILTER,
                "{filter: '!(\"gpu\" in pod.metadata.labels) || \"gpu\" in node.metadata.labels'}",
            ),
            Some("big"),
        ),
        ("a filter no node passes", enabled(FILTER, "{filter: 'false'}"), None),
        (
            "score zone a, weight 10",
            enabled("    score:\n      enabled: [{name: schedlab.dev/CEL, weight: 10}]\n", prefer_a),
            Some("small"),
        ),
        (
            "score via multiPoint, weight 10",
            enabled("    multiPoint:\n      enabled: [{name: schedlab.dev/CEL, weight: 10}]\n", prefer_a),
            Some("small"),
        ),
    ];
    for (what, profile, want) in cases {
        let text = scenario(&profile, "gpu: 'yes'");
        assert_eq!(node_of_p(&run(&text)).as_deref(), want, "{what}");
    }
}

/// A runtime error in Filter fails the cycle with an Error status: FailedScheduling carries
/// the framework's wrapping of the plugin's message, and the pod stays pending.
#[test]
fn a_runtime_error_fails_the_cycle() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "filter: no such key",
            enabled(FILTER, "{filter: 'node.metadata.labels.gpu == \"true\"'}"),
            "running \"schedlab.dev/CEL\" filter plugin: no such key: gpu",
        ),
        (
            "score: not an int",
            enabled(
                "    score:\n      enabled: [{name: schedlab.dev/CEL}]\n",
                "{score: 'node.metadata.name'}",
            ),
            "running Score plugins: plugin \"schedlab.dev/CEL\" failed with: score expression: result of type string is not int",
        ),
    ];
    for (what, profile, want) in cases {
        let e = run(&scenario(&profile, ""));
        assert_eq!(node_of_p(&e), None, "{what}");
        let out = crate::output::describe_text(&e);
        assert!(out.contains(want), "{what}:\n{out}");
    }
}

/// An expression that does not compile is a configuration error at its line, with its field
/// path; a kube-scheduler-shaped config loads, prints its args and marks nothing else.
#[test]
fn compile_errors_are_configuration_errors_at_their_line() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "{filter: 'node.metadata.labels['}",
            "t.yaml:10:20:",
            "profiles[0].pluginConfig[0].args.filter: Invalid value",
        ),
        (
            "\n      score: '1 +'",
            "t.yaml:11:14:",
            "profiles[0].pluginConfig[0].args.score: Invalid value",
        ),
    ];
    for (args, at, want) in cases {
        let text = scenario(&enabled(FILTER, args), "");
        let err = match crate::load_str(&text, "t.yaml") {
            Ok(_) => panic!("{args}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains(at) && err.contains(want) && err.contains("compilation failed"),
            "{args}:\n{err}\n{text}"
        );
    }
}

/// The effective configuration prints the args; the cells are explained with the expression
/// and what it gave, and the cross-check agrees.
#[test]
fn printed_and_explained() {
    let args = "{filter: 'node.metadata.labels.zone != \"c\"', score: 'quantity(node.status.allocatable.cpu).asInteger() * 50'}";
    let profile = enabled("    multiPoint:\n      enabled: [{name: schedlab.dev/CEL, weight: 5}]\n", args);
    let text = scenario(&profile, "");
    let sc = crate::load_str(&text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let printed = sc.config.to_effective_yaml();
    assert!(
        printed.contains("kind: CELArgs") && printed.contains("name: schedlab.dev/CEL"),
        "{printed}"
    );
    let mut s = Session::new(sc, 1);
    let small = s.node_id("small").unwrap();
    let big = s.node_id("big").unwrap();
    let lines = s.explain(1, small, "schedlab.dev/CEL", false).lines;
    assert!(
        lines.iter().any(|l| l == "Filter expression: node.metadata.labels.zone != \"c\""),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l == "On node small it is true: the node passes."),
        "{lines:#?}"
    );
    let lines = s.explain(1, big, "schedlab.dev/CEL", true).lines;
    assert!(lines.iter().any(|l| l.starts_with("Score expression: quantity(")), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "On node big it gives 400."), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("400 → 100")), "{lines:#?}");
    let check = s.cross_check();
    assert!(check.compared > 0 && check.failures.is_empty(), "{:#?}", check.failures);
}
