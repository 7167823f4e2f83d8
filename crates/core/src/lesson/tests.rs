//! Every goal kind on small runs (pass and fail, with the reason), the edit-scope rule,
//! solutions, and malformed lessons (errors at their line).

use super::*;

/// The FailedScheduling message of pod big in `BASE`.
const BIG: &str = "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";

/// Three nodes (zones a, b, b), two `app: web` pods, a pod too big for any node, and a pod
/// that fits only node-c.
const BASE: &str = "\
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {zone: a}}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {zone: b}}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {zone: b}}
status: {allocatable: {cpu: '4', memory: 4Gi, pods: '110'}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, labels: {app: web}}
spec:
  nodeSelector: {zone: a}
  containers: [{name: c, image: i, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web-2, labels: {app: web}}
spec:
  nodeSelector: {zone: a}
  containers: [{name: c, image: i, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers: [{name: c, image: i, resources: {requests: {cpu: '8'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: mid}
spec:
  containers: [{name: c, image: i, resources: {requests: {cpu: '3'}}}]
";

/// Two nodes full of low-priority pods, and a high-priority pod that preempts one of them.
const PREEMPT: &str = "\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: node-a}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}
---
apiVersion: v1
kind: Pod
metadata: {name: low-1}
spec:
  nodeName: node-a
  containers: [{name: c, image: i, resources: {requests: {cpu: '1'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: low-2}
spec:
  nodeName: node-a
  containers: [{name: c, image: i, resources: {requests: {cpu: '1'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: urgent}
spec:
  priorityClassName: high
  containers: [{name: c, image: i, resources: {requests: {cpu: '2'}}}]
";

const CONFIG: &str = "\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled: [{name: ImageLocality}]
      enabled: [{name: TaintToleration, weight: 7}]
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
";

fn lesson(goals: &str) -> String {
    format!("apiVersion: schedlab.dev/v1\nkind: Lesson\ntitle: t\ntopic: x\nkubernetesVersion: \"1.34\"\nexercises:\n- name: e\n  task: do it\n  goals:\n{goals}")
}

/// The verdict of one goal (`{BIG}` in a reason stands for big's message) (given as one YAML line) on a scenario.
fn verdict(scenario: &str, goal: &str) -> GoalVerdict {
    let text = format!("{}---\n{scenario}", lesson(&format!("  - {goal}\n")));
    let (_, v) = check_text(&text, &text, "t.yaml", CheckOptions::default()).expect("loads").expect("a lesson");
    v[0].goals[0].clone()
}

#[test]
fn every_goal_kind_passes_and_fails_with_its_reason() {
    let preempt_cfg = format!("{PREEMPT}---\n{CONFIG}");
    let cases: &[(&str, &str, bool, &str)] = &[
        (BASE, "runsOn: {pod: mid, node: node-c}", true, "pod mid runs on node-c"),
        (BASE, "runsOn: {pod: web-1, node: node-b}", false, "pod web-1 runs on node-a, not on node-b"),
        (BASE, "runsOn: {pod: big, node: node-b}", false, "pod big is Pending: {BIG}"),
        (BASE, "runsOn: {pod: nobody, node: node-b}", false, "there is no pod nobody in the run"),
        (BASE, "notOn: {pod: mid, node: node-a}", true, "pod mid runs on node-c"),
        (BASE, "notOn: {pod: mid, node: node-c}", false, "pod mid runs on node-c"),
        (BASE, "notOn: {selector: {matchLabels: {app: web}}, node: node-b}", true, "node node-b runs none of pods app=web"),
        (BASE, "notOn: {selector: {matchLabels: {app: web}}, node: node-a}", false, "node node-a runs web-1 and web-2"),
        (PREEMPT, "runsOn: {pod: low-1, node: node-a}", false, "pod low-1 was preempted"),
        (BASE, "runsIn: {pod: mid, topologyKey: zone, value: b}", true, "pod mid runs on node-c, in zone=b"),
        (BASE, "runsIn: {pod: web-1, topologyKey: zone, value: b}", false, "pod web-1 runs on node-a, in zone=a"),
        (BASE, "runsIn: {pod: web-1, topologyKey: rack, value: b}", false, "pod web-1 runs on node-a, which has no label rack"),
        (BASE, "pending: {pod: big}", true, "pod big is Pending: {BIG}"),
        (BASE, "pending: {pod: big, message: Insufficient cpu}", true, "pod big is Pending: {BIG}"),
        (BASE, "pending: {pod: big, message: Insufficient memory}", false, "pod big is Pending: {BIG}"),
        (BASE, "pending: {pod: mid}", false, "pod mid runs on node-c"),
        (PREEMPT, "preempted: {pod: low-1}", true, "pod low-1 was preempted"),
        (PREEMPT, "preempted: {pod: urgent}", false, "pod urgent runs on node-a"),
        (PREEMPT, "preempts: {pod: urgent, count: 2}", true, "pod urgent's preemptions deleted 2 pods (default/low-1, default/low-2)"),
        (PREEMPT, "preempts: {pod: urgent, count: 1}", false, "pod urgent's preemptions deleted 2 pods (default/low-1, default/low-2)"),
        (BASE, "preempts: {pod: mid, count: 1}", false, "pod mid's preemptions deleted 0 pods"),
        (BASE, "spread: {selector: {matchLabels: {app: web}}, topologyKey: zone, maxSkew: 2}", true, "pods app=web per zone: a: 2, b: 0; skew 2"),
        (BASE, "spread: {selector: {matchLabels: {app: web}}, topologyKey: zone, maxSkew: 1}", false, "pods app=web per zone: a: 2, b: 0; skew 2"),
        (BASE, "spread: {selector: {matchLabels: {app: web}}, topologyKey: rack, maxSkew: 1}", false, "no node has the label rack"),
        (BASE, "onePerNode: {selector: {matchLabels: {app: web}}}", false, "node node-a runs web-1 and web-2"),
        (BASE, "onePerNode: {selector: {matchExpressions: [{key: app, operator: DoesNotExist}]}}", true, "1 pod on 1 node, one each"),
        (BASE, "nodesUsed: {atMost: 2}", true, "2 nodes used: node-a, node-c"),
        (BASE, "nodesUsed: {atLeast: 3}", false, "2 nodes used: node-a, node-c"),
        (BASE, "nodesUsed: {selector: {matchLabels: {app: web}}, atLeast: 1, atMost: 1}", true, "1 node used: node-a"),
        (BASE, "boundBy: {selector: {matchLabels: {app: web}}, time: 1s}", true, "all 2 pods bound, the last at 0s"),
        (BASE, "boundBy: {selector: {}, time: 1m}", false, "1 of 4 pods not bound by 1m: big is Pending: {BIG}"),
        (BASE, "pluginEnabled: {plugin: ImageLocality, point: Score}", true, "ImageLocality is enabled at Score in profile default-scheduler"),
        (preempt_cfg.as_str(), "pluginEnabled: {plugin: ImageLocality}", false, "ImageLocality is not enabled in profile default-scheduler"),
        (preempt_cfg.as_str(), "pluginDisabled: {plugin: ImageLocality, point: Score}", true, "ImageLocality is not enabled at Score in profile default-scheduler"),
        (BASE, "pluginDisabled: {plugin: NodeAffinity, point: Filter}", false, "NodeAffinity is enabled at Filter in profile default-scheduler"),
        (BASE, "pluginEnabled: {plugin: NodeAffinity, profile: other}", false, "there is no profile other (the profiles: default-scheduler)"),
        (preempt_cfg.as_str(), "scoringStrategy: {type: MostAllocated}", true, "NodeResourcesFit scores with MostAllocated in profile default-scheduler"),
        (BASE, "scoringStrategy: {type: MostAllocated}", false, "NodeResourcesFit scores with LeastAllocated in profile default-scheduler"),
        (preempt_cfg.as_str(), "pluginWeight: {plugin: TaintToleration, weight: 7}", true, "TaintToleration's weight is 7 in profile default-scheduler"),
        (BASE, "pluginWeight: {plugin: TaintToleration, weight: 7}", false, "TaintToleration's weight is 3 in profile default-scheduler"),
        (preempt_cfg.as_str(), "pluginWeight: {plugin: ImageLocality, weight: 1}", false, "ImageLocality does not score in profile default-scheduler"),
        (BASE, "attempts: {pod: mid, atMost: 1}", true, "pod mid was tried 1 time and runs on node-c"),
        (PREEMPT, "attempts: {pod: urgent, atLeast: 1, atMost: 1}", false, "pod urgent was tried 2 times and runs on node-a"),
    ];
    let mut wrong = Vec::new();
    for (scenario, goal, pass, reason) in cases {
        let v = verdict(scenario, goal);
        let reason = reason.replace("{BIG}", BIG);
        if (v.pass, v.reason.as_str()) != (*pass, reason.as_str()) {
            wrong.push(format!("{goal}\n  want {pass} {reason:?}\n  got  {} {:?}", v.pass, v.reason));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_goal_names_itself() {
    let v = verdict(BASE, "pending: {pod: big, message: Insufficient cpu}");
    assert_eq!(v.goal, "pod big stays Pending, its FailedScheduling message saying \"Insufficient cpu\"");
    let v = verdict(BASE, "spread: {selector: {matchLabels: {app: web}}, topologyKey: zone, maxSkew: 1}");
    assert_eq!(v.goal, "pods app=web spread over zone with skew at most 1");
}

/// A lesson whose exercise may edit only pod mid's nodeSelector, checked on edited texts.
#[test]
fn edits_outside_the_scope_fail_a_passing_goal() {
    let head = lesson(
        "  - runsOn: {pod: mid, node: node-c}\n  editable:\n  - {kind: Pod, name: mid, path: spec.nodeSelector}\n  - {kind: KubeSchedulerConfiguration}\n",
    );
    let start = format!("{head}---\n{BASE}");
    let run = |text: &str| {
        let (_, v) = check_text(text, &start, "t.yaml", CheckOptions::default()).expect("loads").expect("a lesson");
        v[0].goals[0].clone()
    };
    // Untouched, re-laid out, or edited inside the scope: the goal's own verdict.
    assert!(run(&start).pass);
    let relaid = start.replace("metadata: {name: mid}", "metadata:\n  name: mid   # the pod to place");
    assert!(run(&relaid).pass, "{:?}", run(&relaid));
    let inside = start.replace("metadata: {name: mid}\nspec:\n", "metadata: {name: mid}\nspec:\n  nodeSelector: {zone: b}\n");
    assert!(run(&inside).pass);
    let config = format!("{start}---\n{CONFIG}");
    assert!(run(&config).pass, "the configuration may be edited");
    // Outside: another field of the pod, another object, an added object.
    let other_field = start.replace("metadata: {name: mid}\nspec:\n", "metadata: {name: mid}\nspec:\n  nodeName: node-c\n");
    let v = run(&other_field);
    assert!(!v.pass);
    assert_eq!(
        v.reason,
        "pod mid runs on node-c — but Pod/mid changed at spec.nodeName, outside what this exercise lets you edit (Pod/mid at spec.nodeSelector; any KubeSchedulerConfiguration)"
    );
    let other_object = start.replace("{name: node-c, labels: {zone: b}}", "{name: node-c, labels: {zone: c}}");
    assert!(run(&other_object).reason.contains("but Node/node-c changed at metadata.labels.zone"), "{:?}", run(&other_object));
    let added = format!("{start}---\napiVersion: v1\nkind: Namespace\nmetadata: {{name: extra}}\n");
    assert!(run(&added).reason.contains("but Namespace/extra was added"));
    // A failing goal keeps its own reason.
    let failing = start.replace("cpu: '3'", "cpu: '30'").replace("{name: node-a, labels: {zone: a}}", "{name: node-a, labels: {zone: z}}");
    let v = run(&failing);
    assert!(!v.pass && v.reason.starts_with("pod mid is Pending"), "{v:?}");
}

#[test]
fn a_solution_patches_replaces_and_deletes_documents() {
    let head = lesson(
        "  - runsOn: {pod: big, node: node-c}\n  solution:\n  - patch: {kind: Pod, name: big, merge: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: '1'}}}]}}}\n  - delete: {kind: Pod, name: mid}\n  - replace: {apiVersion: v1, kind: Node, metadata: {name: node-a, labels: {zone: b}}, status: {allocatable: {cpu: '1'}}}\n",
    );
    let start = format!("{head}---\n{BASE}");
    let sc = crate::load::load_str(&start, "t.yaml").expect("loads");
    let solved = apply_solution(&start, sc.lesson.as_ref().expect("lesson"), 0).expect("applies");
    let docs = crate::load::documents(&solved);
    assert_eq!(docs.len(), 7, "the Lesson, three nodes and three pods: {solved}");
    let (_, v) = check_text(&solved, &start, "t.yaml", CheckOptions::default()).expect("loads").expect("lesson");
    assert!(v[0].pass, "{v:?}");
    assert!(!docs.iter().any(|d| d["kind"] == "Pod" && d["metadata"]["name"] == "mid"), "mid is deleted");
    let node_a = docs.iter().find(|d| d["kind"] == "Node" && d["metadata"]["name"] == "node-a").expect("node-a");
    assert_eq!(node_a["metadata"]["labels"]["zone"], "b", "node-a is replaced");
    let missing = start.replace("name: big, merge", "name: huge, merge");
    let sc = crate::load::load_str(&missing, "t.yaml").expect("loads");
    assert_eq!(
        apply_solution(&missing, sc.lesson.as_ref().expect("lesson"), 0).unwrap_err(),
        "solution step 0 of exercise e: no Pod huge to patch"
    );
}

#[test]
fn the_engine_ignores_the_lesson_document() {
    let with = format!("{}---\n{BASE}", lesson("  - pending: {pod: big}\n"));
    let a = crate::load::load_str(&with, "t.yaml").expect("loads");
    let b = crate::load::load_str(BASE, "t.yaml").expect("loads");
    assert_eq!(a.documents, b.documents, "the Lesson is not an object of the scenario");
    assert!(a.lesson.is_some() && b.lesson.is_none());
    let run = |sc: crate::Scenario| {
        let mut e = crate::Engine::new(sc, crate::EngineOptions::default());
        e.run();
        serde_json::to_string(&crate::output::conformance_json(&e)).expect("json")
    };
    assert_eq!(run(a), run(b));
}

/// Malformed lessons: each error at its line and field.
#[test]
fn malformed_lessons_are_errors_at_their_line() {
    let cases: &[(&str, &str)] = &[
        // (the goals, the first error as printed)
        ("  - runsOn: {pod: a, nod: b}\n", "t.yaml:10:22: Lesson in version \"v1\" cannot be handled as a Lesson: strict decoding error: unknown field \"exercises[0].goals[0].runsOn.nod\""),
        ("  - runsAt: {pod: a}\n", "t.yaml:10:5: Lesson in version \"v1\" cannot be handled as a Lesson: exercises[0].goals[0]: unknown variant `runsAt`, expected one of `runsOn`, `notOn`"),
        ("  - {}\n  - runsOn: {pod: a, node: b}\n", "t.yaml:10:5: Lesson in version \"v1\" cannot be handled as a Lesson: json: cannot unmarshal object into Go struct field exercises[0].goals[0] of type map with a single key"),
        ("  - runsOn: {pod: a}\n", "t.yaml:10:5: The Lesson \"t\" is invalid: exercises[0].goals[0].runsOn.node: Required value"),
        ("  - pending: {pod: a/b/c}\n", "t.yaml:10:15: The Lesson \"t\" is invalid: exercises[0].goals[0].pending.pod: Invalid value: \"a/b/c\": a pod's name, or namespace/name"),
        ("  - boundBy: {selector: {}, time: 5x}\n", "t.yaml:10:29: The Lesson \"t\" is invalid: exercises[0].goals[0].boundBy.time: Invalid value: \"5x\": time: unknown unit \"x\" in duration \"5x\""),
        ("  - notOn: {pod: a, selector: {}, node: b}\n", "t.yaml:10:13: The Lesson \"t\" is invalid: exercises[0].goals[0].notOn.pod: Invalid value: give either pod or selector"),
        ("  - nodesUsed: {}\n", "t.yaml:10:5: The Lesson \"t\" is invalid: exercises[0].goals[0].nodesUsed.atLeast: Required value: atLeast or atMost"),
        ("  - pluginEnabled: {plugin: Foo}\n", "t.yaml:10:21: The Lesson \"t\" is invalid: exercises[0].goals[0].pluginEnabled.plugin: Invalid value: \"Foo\": not an in-tree plugin"),
        ("  - pluginEnabled: {plugin: NodeAffinity, point: Scoring}\n", "t.yaml:10:43: The Lesson \"t\" is invalid: exercises[0].goals[0].pluginEnabled.point: Unsupported value: \"Scoring\": supported values: PreEnqueue, QueueSort, PreFilter, Filter, PostFilter, PreScore, Score, Reserve, Permit, PreBind, Bind, PostBind"),
        ("  - scoringStrategy: {type: Balanced}\n", "t.yaml:10:23: The Lesson \"t\" is invalid: exercises[0].goals[0].scoringStrategy.type: Unsupported value: \"Balanced\": supported values: LeastAllocated, MostAllocated, RequestedToCapacityRatio"),
        ("  - spread: {selector: {matchExpressions: [{key: a, operator: Foo}]}, topologyKey: z, maxSkew: 1}\n", "t.yaml:10:14: The Lesson \"t\" is invalid: exercises[0].goals[0].spread.selector: Invalid value: \"Foo\" is not a valid label selector operator"),
        ("  - preempts: {pod: a, count: -1}\n", "t.yaml:10:24: Lesson in version \"v1\" cannot be handled as a Lesson: json: cannot unmarshal number -1 into Go struct field exercises[0].goals[0].preempts.count of type uint32"),
        ("  - runsOn: {pod: a, node: b}\n  editable: [{kind: Pod, name: a, path: 'spec..x'}]\n", "t.yaml:11:35: The Lesson \"t\" is invalid: exercises[0].editable[0].path: Invalid value: \"spec..x\": a field path is keys separated by dots, each optionally followed by [index]"),
        ("  - runsOn: {pod: a, node: b}\n  hint: [x]\n", "t.yaml:11:3: Lesson in version \"v1\" cannot be handled as a Lesson: strict decoding error: unknown field \"exercises[0].hint\""),
    ];
    let mut wrong = Vec::new();
    for (goals, want) in cases {
        let text = format!("{}---\n{BASE}", lesson(goals));
        let got = match crate::load::load_str(&text, "t.yaml") {
            Ok(_) => "loaded".to_string(),
            Err(e) => e.to_string().lines().next().unwrap_or("").trim_start_matches("error: ").to_string(),
        };
        if !got.starts_with(want) {
            wrong.push(format!("{goals}  want {want}\n  got  {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let two = format!("{}---\n{}---\n{BASE}", lesson("  - pending: {pod: big}\n"), lesson("  - pending: {pod: big}\n"));
    let e = crate::load::load_str(&two, "t.yaml").unwrap_err();
    assert!(e.to_string().contains("at most one Lesson may be given (the first is at line 1)"), "{e}");
    let version = lesson("  - pending: {pod: big}\n").replace("\"1.34\"", "1.34");
    let e = crate::load::load_str(&version, "t.yaml").unwrap_err();
    assert!(e.to_string().contains("t.yaml:5:1: Lesson in version \"v1\" cannot be handled as a Lesson: json: cannot unmarshal number into Go struct field kubernetesVersion of type string"), "{e}");
}

/// The page's worker evaluates on its session's facts; the CLI runs the engine itself: both
/// read the same run (controllers and timelines included).
#[test]
fn a_sessions_facts_are_the_runs() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/lessons/");
    for name in ["drain.yaml", "deployment-spreading.yaml", "queueing-hints.yaml", "preemption-pdb.yaml"] {
        let text = std::fs::read_to_string(format!("{dir}{name}")).expect("lesson");
        let sc = crate::load::load_str(&text, name).expect("loads");
        let opts = crate::view::SessionOptions { seed: 1, controllers: true };
        let session = crate::view::Session::with_options(sc.clone(), opts, &mut |_| {});
        let ran = RunFacts::run(sc.clone(), CheckOptions { seed: 1, controllers: true });
        assert_eq!(session.run_facts, ran, "{name}");
        let lesson = sc.lesson.as_ref().expect("a lesson");
        assert_eq!(evaluate_texts(lesson, &text, &text, &session.run_facts), check_text(&text, &text, name, CheckOptions { seed: 1, controllers: true }).expect("loads").expect("lesson").1);
    }
}

#[test]
fn the_page_sees_the_lesson_without_its_goals_definitions() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/lessons/taints.yaml")).expect("lesson");
    let info = crate::load::load_str(&text, "taints.yaml").expect("loads").lesson.expect("lesson").info();
    assert_eq!((info.title.as_str(), info.topic.as_str(), info.kubernetes_version.as_str()), ("A node reserved with a taint", "Taints and tolerations", "1.34"));
    assert_eq!(info.exercises.len(), 2);
    assert_eq!(info.exercises[0].goals, ["pod trainer runs on node gpu-1", "pod web does not run on node gpu-1"]);
    assert!(info.exercises[0].has_solution && info.exercises[0].hints.len() == 2);
}

#[test]
fn a_timeline_step_cannot_create_a_lesson() {
    let text = format!(
        "{BASE}---\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n- at: 1s\n  create: {{apiVersion: schedlab.dev/v1, kind: Lesson, title: t}}\n"
    );
    let e = crate::load::load_str(&text, "t.yaml").unwrap_err().to_string();
    assert!(e.contains("t.yaml:45:3: a step cannot create a Lesson"), "{e}");
}
