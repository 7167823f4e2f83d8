//! The controllers reacting while the cluster runs (`Engine::enable_controllers`): each
//! reaction, as the trace records it (`change` events with cause `controller`).

use super::Controllers;
use crate::engine::{Engine, EngineOptions, Phase};
use crate::load::load_str;
use crate::trace::{ChangeCause, TraceEvent};

const NODES: &str = "
apiVersion: v1
kind: Node
metadata: {name: node-a}
status: {capacity: {cpu: '4', memory: 8Gi, pods: '20'}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b}
status: {capacity: {cpu: '4', memory: 8Gi, pods: '20'}}
";

const SPEC: &str = "{containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]}";

/// Runs `objects` on two nodes with the controllers on; returns the engine and the
/// controllers' changes as `at_ms action object by`.
fn run(objects: &str) -> (Engine, Vec<String>) {
    let text = format!("{NODES}---\n{}", objects.replace("SPEC", SPEC));
    let mut sc = load_str(&text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let mut c = Controllers::new(1);
    c.reconcile(&mut sc);
    let mut e = Engine::new(
        sc,
        EngineOptions {
            seed: 1,
            ..Default::default()
        },
    );
    e.enable_controllers(c);
    e.run();
    let lines = e
        .trace
        .events
        .iter()
        .filter_map(|ev| match ev {
            TraceEvent::Change {
                at_ms,
                cause: ChangeCause::Controller,
                action,
                object,
                by,
                skipped: None,
                ..
            } => Some(format!(
                "{at_ms} {action} {} {}",
                object.as_ref().map(ToString::to_string).unwrap_or_default(),
                by.as_ref().map(ToString::to_string).unwrap_or_default()
            )),
            _ => None,
        })
        .collect();
    (e, lines)
}

fn owned(kind: &str, name: &str, pod: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1
kind: Pod
metadata:
  name: {pod}
  labels: {{app: {name}}}
  ownerReferences: [{{apiVersion: apps/v1, kind: {kind}, name: {name}, controller: true}}]
{extra}spec: SPEC
"
    )
}

const DELETE_AT_10S: &str = "---
apiVersion: schedlab.dev/v1alpha1
kind: Timeline
steps:
- at: 10s
  delete: {kind: Pod, name: POD}
";

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn deleted_owned_pods_are_replaced() {
    let cases = [
        (
            "ReplicaSet",
            "apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: SPEC}
",
            "web",
            "web-0",
            "ReplicaSet/web",
        ),
        (
            "StatefulSet",
            "apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 1
  serviceName: db
  selector: {matchLabels: {app: db}}
  template: {metadata: {labels: {app: db}}, spec: SPEC}
",
            "db",
            "db-0",
            "StatefulSet/db",
        ),
        (
            "Job",
            "apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completions: 1
  template: {metadata: {labels: {app: batch}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}
",
            "batch",
            "batch-0",
            "Job/batch",
        ),
    ];
    for (kind, workload, name, pod, by) in cases {
        let objects = format!("{workload}---\n{}{}", owned(kind, name, pod, ""), DELETE_AT_10S.replace("POD", pod));
        let (e, lines) = run(&objects);
        assert_eq!(lines.len(), 1, "{kind}: {lines:?}");
        assert!(
            lines[0].starts_with("10000 create Pod/default/") && lines[0].ends_with(by),
            "{kind}: {lines:?}"
        );
        if kind == "StatefulSet" {
            // The same name again, a new pod.
            assert_eq!(lines[0], "10000 create Pod/default/db-0 StatefulSet/db");
            assert_eq!(e.pods.iter().filter(|p| p.info.name() == "db-0").count(), 2);
        }
        let running = e.pods.iter().filter(|p| p.phase == Phase::Running).count();
        assert_eq!(running, 1, "{kind}: the replacement runs");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn daemon_set_follows_nodes() {
    let (e, lines) = run("apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template: {metadata: {labels: {app: agent}}, spec: SPEC}
---
apiVersion: schedlab.dev/v1alpha1
kind: Timeline
steps:
- at: 10s
  create: {apiVersion: v1, kind: Node, metadata: {name: node-c}, status: {capacity: {cpu: '4', memory: 8Gi, pods: '20'}}}
- at: 20s
  delete: {kind: Node, name: node-a}
");
    // A pod for the new node; nothing replaces the one deleted with its node.
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("10000 create Pod/default/agent-") && lines[0].ends_with("DaemonSet/agent"));
    let mut on: Vec<&str> = e
        .pods
        .iter()
        .filter(|p| p.phase == Phase::Running)
        .filter_map(|p| p.node.as_deref())
        .collect();
    on.sort();
    assert_eq!(on, vec!["node-b", "node-c"]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn job_runs_its_completions_one_after_another() {
    let (e, lines) = run("apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completions: 3
  parallelism: 1
  template:
    metadata: {annotations: {schedlab.dev/duration: 20s}}
    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}
");
    let at: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap_or("")).collect();
    assert_eq!(at, vec!["20000", "40000"], "{lines:?}");
    assert!(lines.iter().all(|l| l.starts_with("20000 create") || l.starts_with("40000 create")));
    assert_eq!(e.pods.iter().filter(|p| p.phase == Phase::Succeeded).count(), 3);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn deployment_scaled_by_a_patch() {
    let (e, lines) = run("apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: SPEC}
---
apiVersion: schedlab.dev/v1alpha1
kind: Timeline
steps:
- at: 10s
  patch: {kind: Deployment, name: web}
  merge: {spec: {replicas: 3}}
- at: 20s
  patch: {kind: Deployment, name: web}
  merge: {spec: {replicas: 1}}
");
    let kinds: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| {
            let mut w = l.split(' ');
            (w.next().unwrap_or(""), w.next().unwrap_or(""))
        })
        .collect();
    assert_eq!(
        kinds,
        vec![("10000", "create"), ("10000", "create"), ("20000", "delete"), ("20000", "delete")],
        "{lines:?}"
    );
    // Three pods on two nodes: the two sharing a node go first (upstream's ranking), the
    // newer of them first.
    let deleted: Vec<usize> = lines[2..]
        .iter()
        .map(|l| {
            let key = l.split(' ').nth(2).unwrap_or("").trim_start_matches("Pod/");
            e.pod_by_key(key).expect("pod")
        })
        .collect();
    assert_eq!(e.pods[deleted[0]].ran_on, e.pods[deleted[1]].ran_on);
    assert!(deleted[0] > deleted[1]);
    assert_eq!(e.pods.iter().filter(|p| p.phase == Phase::Running).count(), 1);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn replica_patches_are_validated() {
    let text = format!(
        "{NODES}---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  selector: {{matchLabels: {{app: web}}}}
  template: {{metadata: {{labels: {{app: web}}}}, spec: {SPEC}}}
---
apiVersion: schedlab.dev/v1alpha1
kind: Timeline
steps:
- at: 10s
  patch: {{kind: Deployment, name: web}}
  merge: {{spec: {{replicas: -2}}}}
- at: 20s
  patch: {{kind: Deployment, name: api}}
  merge: {{spec: {{replicas: 2}}}}
- at: 30s
  delete: {{kind: Deployment, name: web}}
"
    );
    let err = load_str(&text, "t.yaml").expect_err("invalid").to_string();
    assert!(
        err.contains("spec.replicas: Invalid value: -2: must be greater than or equal to 0"),
        "{err}"
    );
    assert!(
        err.contains("cannot patch Deployment \"default/api\": neither the file nor an earlier step creates it"),
        "{err}"
    );
    assert!(err.contains("delete takes a Pod or a Node"), "{err}");
}

/// Without a timeline or durations nothing runs over time: the controllers only create the
/// pods before scheduling starts (no `change` events).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn untimed_runs_do_not_react() {
    let (e, lines) = run("apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template: {metadata: {labels: {app: web}}, spec: SPEC}
");
    assert!(lines.is_empty());
    assert!(!e.timed);
}
