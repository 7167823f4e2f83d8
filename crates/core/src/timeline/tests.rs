//! Reading and validating Timelines (errors with the step's position), and the engine's clock
//! under the timeline rules: the order of things at one instant, the flush ticks, the run's end.

use crate::engine::{Engine, EngineOptions, Phase};
use crate::trace::{ChangeCause, TraceEvent};

/// One node with 4 CPU, a running pod using 3 of them, and a pending pod needing 2.
const BASE: &str = "apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {capacity: {cpu: '4', memory: 8Gi, pods: '10'}}
---
apiVersion: v1
kind: Pod
metadata: {name: running}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: '3'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: waiting}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]
";

fn with_steps(steps: &str) -> String {
    format!("{BASE}---\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n{steps}")
}

/// Lines of BASE (the Timeline's `steps:` line is BASE's line count + 4).
fn base_lines() -> usize {
    BASE.lines().count()
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn invalid_timelines_name_the_step_and_the_reason() {
    let first = base_lines() + 5; // the first step's line
                                  // (steps, line of the error relative to the first step, words the message contains)
    let cases: &[(&str, usize, &str)] = &[
        ("- at: soon\n  delete: {kind: Pod, name: waiting}\n", 0, "time: invalid duration \"soon\""),
        ("- at: 30\n  delete: {kind: Pod, name: waiting}\n", 0, "must be a Go duration string"),
        ("- at: -1s\n  delete: {kind: Pod, name: waiting}\n", 0, "must not be negative"),
        ("- delete: {kind: Pod, name: waiting}\n", 0, "Required value"),
        (
            "- at: 1m\n  delete: {kind: Pod, name: waiting}\n- at: 30s\n  delete: {kind: Pod, name: running}\n",
            2,
            "30s is earlier than the previous step's 1m",
        ),
        ("- at: 1s\n", 0, "needs one of create, delete or patch"),
        (
            "- at: 1s\n  delete: {kind: Pod, name: waiting}\n  patch: {kind: Pod, name: waiting}\n",
            0,
            "exactly one of create, delete or patch, not delete and patch",
        ),
        ("- at: 1s\n  delete: {kind: Pod, name: waiting}\n  merge: {}\n", 0, "merge goes with patch only"),
        ("- at: 1s\n  patch: {kind: Node, name: n1}\n", 0, "patch needs merge"),
        ("- at: 1s\n  when: now\n  delete: {kind: Pod, name: waiting}\n", 0, "unknown field \"when\""),
        ("- at: 1s\n  delete: {kind: Pod, name: ghost}\n", 0, "neither the file nor an earlier step creates it"),
        (
            "- at: 1s\n  delete: {kind: Pod, name: waiting}\n- at: 2s\n  delete: {kind: Pod, name: waiting}\n",
            2,
            "the step at line", // completed below with the line
        ),
        ("- at: 1s\n  delete: {kind: Service, name: web}\n", 0, "delete takes a Pod or a Node"),
        ("- at: 1s\n  delete: {kind: Pod, name: waiting, uid: x}\n", 0, "unknown field \"uid\""),
        (
            "- at: 1s\n  patch: {kind: Node, name: n1}\n  merge: {spec: {podCIDR: 10.0.0.0/24}}\n",
            0,
            "field spec.podCIDR may not be patched",
        ),
        (
            "- at: 1s\n  patch: {kind: Pod, name: waiting}\n  merge: {spec: {schedulingGates: [{name: more}]}}\n",
            0,
            "only deletion is allowed, but found new scheduling gate 'more'",
        ),
        (
            "- at: 1s\n  patch: {kind: Pod, name: waiting}\n  merge: {status: {phase: Running}}\n",
            0,
            "status.phase: Unsupported value",
        ),
        (
            "- at: 1s\n  patch: {kind: Node, name: n1}\n  merge: {metadata: {labels: {'bad key!': x}}}\n",
            0,
            "metadata.labels",
        ),
        (
            "- at: 1s\n  create: {apiVersion: v1, kind: Pod, metadata: {name: waiting}, spec: {containers: [{name: c, image: x}]}}\n",
            0,
            "pods \"waiting\" already exists",
        ),
        (
            "- at: 1s\n  create: {apiVersion: v1, kind: Node, metadata: {name: n1}}\n",
            0,
            "nodes \"n1\" already exists",
        ),
        (
            "- at: 1s\n  create: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: x}], priorityClassName: nope}}\n",
            1, // errors inside a created object point into it, as for any document
            "no PriorityClass with name nope was found",
        ),
        ("- at: 1s\n  create: {apiVersion: v1, kind: Secret, metadata: {name: s}}\n", 1, "no matches for kind \"Secret\""),
    ];
    for (steps, rel_line, words) in cases {
        let text = with_steps(steps);
        let errs = crate::load_str(&text, "t.yaml").expect_err(steps);
        let words = if *words == "the step at line" {
            format!("the step at line {first}")
        } else {
            words.to_string()
        };
        let hit = errs.errors.iter().find(|e| e.to_string().contains(&words));
        let Some(e) = hit else {
            panic!("{steps}: no error says {words:?}: {errs}")
        };
        assert_eq!(e.line, first + rel_line, "{steps}: {e}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn valid_timelines_load_their_steps() {
    let text = with_steps(
        "- at: 1m30s\n  patch: {kind: Node, name: n1}\n  merge: {metadata: {labels: {a: b}}}\n\
         - at: 1m30s\n  delete: {kind: Node, name: n1}\n\
         - at: 2m\n  create: {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {capacity: {cpu: '1'}}}\n\
         - at: 3m\n  create: {apiVersion: v1, kind: Pod, metadata: {name: later, namespace: team}, spec: {containers: [{name: c, image: x}]}}\n",
    );
    let sc = crate::load_str(&text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let tl = sc.timeline.as_ref().expect("a timeline");
    let at: Vec<i64> = tl.steps.iter().map(|s| s.at_ns / 1_000_000_000).collect();
    assert_eq!(at, [90, 90, 120, 180]);
    let verbs: Vec<&str> = tl.steps.iter().map(|s| s.change.verb().as_str()).collect();
    assert_eq!(verbs, ["patch", "delete", "create", "create"]);
    // The created pod got the file's identity rules and its namespace exists from the start.
    let super::Change::Create(o) = &tl.steps[3].change else { panic!() };
    let super::Object::Pod(p) = &**o else { panic!() };
    assert_eq!(p.metadata.uid.as_deref(), Some("uid-pod-team-later"));
    assert_eq!(p.spec.priority, Some(0));
    assert!(sc.cluster.namespaces.contains_key("team"));
}

fn run(text: &str) -> Engine {
    let sc = crate::load_str(text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let mut e = Engine::new(sc, EngineOptions::default());
    e.run();
    e
}

/// The changes of the run: (time s, cause, action, object).
fn changes(e: &Engine) -> Vec<(i64, ChangeCause, String, String)> {
    e.trace
        .events
        .iter()
        .filter_map(|ev| match ev {
            TraceEvent::Change {
                at_ms,
                cause,
                action,
                object,
                ..
            } => Some((at_ms / 1000, *cause, action.to_string(), object.as_ref().map(ToString::to_string).unwrap_or_default())),
            _ => None,
        })
        .collect()
}

fn state<'a>(e: &'a Engine, name: &str) -> &'a crate::engine::PodState {
    &e.pods[e.pod_by_key(&format!("default/{name}")).unwrap()]
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn one_instant_finishes_pods_then_applies_steps_in_order() {
    // `running` finishes at 60s, the moment two steps happen too.
    let text = with_steps(
        "- at: 1m\n  patch: {kind: Node, name: n1}\n  merge: {metadata: {labels: {x: y}}}\n\
         - at: 1m\n  create: {apiVersion: v1, kind: Pod, metadata: {name: late}, spec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]}}\n",
    )
    .replace("metadata: {name: running}", "metadata: {name: running, annotations: {schedlab.dev/duration: 1m}}");
    let e = run(&text);
    let got = changes(&e);
    assert_eq!(
        got.iter().map(|(t, c, a, _)| (*t, *c, a.as_str())).collect::<Vec<_>>(),
        [
            (60, ChangeCause::Finish, "finish"),
            (60, ChangeCause::Step, "patch"),
            (60, ChangeCause::Step, "create")
        ]
    );
    assert_eq!(state(&e, "running").phase, Phase::Succeeded);
    assert_eq!(state(&e, "running").ran_on.as_deref(), Some("n1"));
    // The waiting pod was queued before the step's pod and takes the freed CPU first.
    let bound: Vec<(&str, i64)> = e
        .events
        .iter()
        .filter(|ev| ev.reason == crate::trace::EventReason::Scheduled)
        .map(|ev| (e.pods[ev.pod].info.name(), ev.at_ms))
        .collect();
    assert_eq!(bound, [("waiting", 60_000), ("late", 60_000)]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_flush_retries_pods_stuck_for_more_than_five_minutes_while_steps_remain() {
    // `waiting` fails at 0. Steps until 12m: flushed at 5m30s and 11m (after its retry at
    // 5m30s it waits another 5 minutes and a half).
    let text = with_steps("- at: 12m\n  patch: {kind: Node, name: n1}\n  merge: {metadata: {labels: {x: y}}}\n");
    let e = run(&text);
    let flushes: Vec<i64> = changes(&e).iter().filter(|c| c.1 == ChangeCause::Flush).map(|c| c.0).collect();
    assert_eq!(flushes, [330, 660]);
    let failed_at: Vec<i64> = e.events.iter().map(|ev| ev.at_ms / 1000).collect();
    assert_eq!(failed_at, [0, 330, 660]);
    assert_eq!(state(&e, "waiting").attempts, 3);
    // No step after 5m: the stuck pod is never flushed (the run ends at the last step).
    let text = with_steps("- at: 5m\n  patch: {kind: Node, name: n1}\n  merge: {metadata: {labels: {x: y}}}\n");
    let e = run(&text);
    assert!(changes(&e).iter().all(|c| c.1 != ChangeCause::Flush));
    assert_eq!(state(&e, "waiting").attempts, 1);
    assert_eq!(e.now_ms() / 1000, 300);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn gated_pods_are_never_flushed_and_never_move_the_clock() {
    let text = with_steps("- at: 20m\n  patch: {kind: Node, name: n1}\n  merge: {metadata: {labels: {x: y}}}\n").replace(
        "metadata: {name: waiting}\nspec:\n",
        "metadata: {name: waiting}\nspec:\n  schedulingGates: [{name: hold}]\n",
    );
    let e = run(&text);
    assert!(changes(&e).iter().all(|c| c.1 != ChangeCause::Flush));
    assert_eq!(state(&e, "waiting").attempts, 0);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn steps_whose_target_the_run_removed_are_skipped() {
    // The running pod finishes at 10s; deleting it at 20s is skipped.
    let text = with_steps("- at: 20s\n  delete: {kind: Pod, name: running}\n").replace(
        "metadata: {name: running}",
        "metadata: {name: running, annotations: {schedlab.dev/duration: 10s}}",
    );
    let e = run(&text);
    let skipped: Vec<Option<String>> = e
        .trace
        .events
        .iter()
        .filter_map(|ev| match ev {
            TraceEvent::Change {
                cause: ChangeCause::Step,
                skipped,
                ..
            } => Some(skipped.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(skipped, [Some("pod default/running already finished".to_string())]);
    assert_eq!(state(&e, "running").phase, Phase::Succeeded);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn backoff_is_measured_on_the_logical_clock_in_whole_seconds() {
    // `waiting` fails at 20s (created then); at 20.9s and 21.9s its backoff (1 s, expiring at
    // 21 s truncated) still runs, so the freed CPU sends it to backoffQ; at 22s it is over.
    for (at, want) in [
        ("20900ms", crate::trace::QueueName::BackoffQ),
        ("21900ms", crate::trace::QueueName::BackoffQ),
        ("22s", crate::trace::QueueName::ActiveQ),
    ] {
        let text = with_steps(&format!(
            "- at: 20s\n  create: {{apiVersion: v1, kind: Pod, metadata: {{name: late}}, spec: {{containers: [{{name: c, image: x, resources: {{requests: {{cpu: '2'}}}}}}]}}}}\n\
             - at: {at}\n  delete: {{kind: Pod, name: running}}\n"
        ))
        .replace("requests: {cpu: '2'}}}]\n", "requests: {cpu: '9'}}}]\n");
        let e = run(&text);
        let late = e.pod_by_key("default/late").unwrap() as u32;
        let to = e
            .trace
            .events
            .iter()
            .find_map(|ev| match ev {
                TraceEvent::InformerEvent { event, pods } if event == "AssignedPodDelete" => {
                    pods.iter().find(|p| p.pod == late).map(|p| p.to)
                }
                _ => None,
            })
            .expect("the deletion reached the pod");
        assert_eq!(to, want, "deleted at {at}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pods_that_failed_with_an_error_are_never_retried() {
    // No node at all: an error, not a rejection. A node added later does not retry it.
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n---\n\
                apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n\
                - at: 10s\n  create: {apiVersion: v1, kind: Node, metadata: {name: n}, status: {capacity: {cpu: '1', pods: '5'}}}\n";
    let e = run(text);
    assert_eq!(state(&e, "p").attempts, 1);
    assert_eq!(state(&e, "p").phase, Phase::Pending);
}
