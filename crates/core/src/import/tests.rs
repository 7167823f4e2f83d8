//! Table-driven tests of importing every input shape kubectl and cluster tools write. The
//! dumps in `testdata/` are written in the style of real kubectl output (kind, minikube, k3d
//! `cluster-info dump`, AKS); every imported scenario must load and run, and importing it
//! again must give the same scenario.

use super::*;
use crate::{Engine, EngineOptions};

struct Case {
    name: &'static str,
    input: &'static str,
    imported: &'static str,
    skipped: Option<&'static str>,
    /// Substrings each found in some warning / note / error (all of them, each once at least).
    warnings: &'static [&'static str],
    notes: &'static [&'static str],
    errors: &'static [&'static str],
}

const KIND_LIST: &str = include_str!("testdata/kind-list.yaml");
const MINIKUBE_CONCAT: &str = include_str!("testdata/minikube-concat.json");
const MANAGED_ARRAY: &str = include_str!("testdata/managed-array.json");
const CLUSTER_INFO_DUMP: &str = include_str!("testdata/cluster-info-dump.txt");
const AKS_OLD: &str = include_str!("testdata/aks-old.yaml");

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "kind: a kind: List with managedFields, Events, ConfigMaps, a Secret, a ReplicaSet",
            input: KIND_LIST,
            imported: "imported 1 ReplicaSet, 2 Nodes, 3 Pods",
            skipped: Some("skipped 2 Events, 3 ConfigMaps, 1 Secret — Secret data is never read"),
            warnings: &[
                "Node kind-worker: node kind-worker is NotReady (KubeletNotReady: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized) — a real cluster would taint it node.kubernetes.io/not-ready:NoSchedule; import added the taint",
                "Pod default/web: Running on kind-control-plane but ImagePullBackOff (container sidecar: Back-off pulling image \"example.com/sidecar:v9\")",
                "Pod default/trainer: Pending (Unschedulable): the cluster's scheduler said: 0/2 nodes are available: 1 Insufficient cpu",
            ],
            notes: &[
                "dropped 4 deprecated beta node labels that repeat a stable label",
                "added the NoSchedule taint that the node lifecycle controller gives a node in its condition to 1 Node",
                "dropped 6 annotations the scheduler does not read",
            ],
            errors: &[],
        },
        Case {
            name: "minikube: JSON objects back to back, without separators",
            input: MINIKUBE_CONCAT,
            imported: "imported 1 Node, 2 Pods",
            skipped: None,
            warnings: &[
                "node minikube has DiskPressure (KubeletHasDiskPressure: kubelet has disk pressure) — a real cluster would taint it node.kubernetes.io/disk-pressure:NoSchedule",
                "Pod default/hello-7d8c6f7b8b-m2xkq: Running on minikube but CrashLoopBackOff (container echo-server: back-off 5m0s",
            ],
            notes: &[
                "Pod: ignored fields the simulator does not model: spec.containers[].futureKnob",
                "kept 1 Pod as Succeeded/Failed (the scheduler ignores them)",
            ],
            errors: &[],
        },
        Case {
            name: "managed cluster: a JSON array, a newer field, an evicted pod, a node missing",
            input: MANAGED_ARRAY,
            imported: "imported 1 Node, 2 Pods",
            skipped: Some("skipped 1 ServiceAccount"),
            warnings: &[
                "is NotReady (its kubelet stopped reporting: Ready is Unknown) (NodeStatusUnknown: Kubelet stopped posting node status.) — a real cluster would taint it node.kubernetes.io/unreachable:NoSchedule",
                "Pod shop/api-5f9c8d7b6-2kq8w: Failed: Evicted The node was low on resource: memory.",
                "Pod shop/api-5f9c8d7b6-9zt4m: bound to node aks-nodepool1-12345678-vmss000001, which is not in the input",
            ],
            notes: &[
                "Pod: ignored fields the simulator does not model: spec.workloadRef",
                "dropped 5 deprecated beta node labels",
            ],
            errors: &[],
        },
        Case {
            name: "kubectl cluster-info dump: typed lists whose items have no kind, empty lists, logs",
            input: CLUSTER_INFO_DUMP,
            imported: "imported 1 Service, 1 Deployment, 1 ReplicaSet, 2 Nodes, 3 Pods",
            skipped: Some("skipped 2 Events"),
            warnings: &["Pod default/api-6c9f7b9d5d-8lq2n: Pending (Unschedulable): the cluster's scheduler said: 0/2 nodes are available: 2 Insufficient memory."],
            notes: &[
                "left out the logs of 2 containers (cluster-info dump)",
                "left out 1 line of text between the documents",
            ],
            errors: &[],
        },
        Case {
            name: "old API versions, skipped kinds and bad objects among good ones",
            input: AKS_OLD,
            imported: "imported 2 Deployments, 1 DaemonSet, 2 PodDisruptionBudgets, 1 Pod",
            skipped: Some("skipped 1 HorizontalPodAutoscaler, 1 CronJob, 1 Ingress"),
            warnings: &["Pod payments/payments-7c8d9f-fghij: bound to node aks-nodepool1-12345678-vmss000003, which is not in the input"],
            notes: &[
                "converted 2 × PodDisruptionBudget policy/v1beta1 → policy/v1",
                "converted 1 × Deployment extensions/v1beta1 → apps/v1",
                "converted 1 × Deployment apps/v1beta1 → apps/v1",
                "converted 1 × DaemonSet apps/v1beta2 → apps/v1",
                "Deployment: ignored fields the simulator does not model: spec.rollbackTo",
                "DaemonSet: ignored fields the simulator does not model: spec.templateGeneration",
            ],
            errors: &[
                "aks-old.yaml:86: Pod payments/payments-7c8d9f-abcde: Pod in version \"v1\" cannot be handled as a Pod",
                "aks-old.yaml:101: orphan-without-kind: kind not set",
            ],
        },
        Case {
            name: "a typed list whose items have no kind, and an empty ReplicaSetList",
            input: "apiVersion: v1\nkind: NodeList\nitems:\n- metadata: {name: n1}\n  status: {capacity: {cpu: '2', memory: 4Gi, pods: '110'}}\n---\napiVersion: apps/v1\nkind: ReplicaSetList\nitems: []\n",
            imported: "imported 1 Node",
            skipped: None,
            warnings: &[],
            notes: &[],
            errors: &[],
        },
        Case {
            name: "a kind: List whose item has no kind; a YAML syntax error loses only its document",
            input: "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: lost}\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n1, labels: {answer: 'yes', mode: '0755', empty: ''}}\n---\nkind: [unclosed\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n",
            imported: "imported 1 Node, 1 Pod",
            skipped: None,
            warnings: &[],
            notes: &[],
            errors: &["input:4 (item 0): lost: kind not set", "input:9: not valid YAML"],
        },
        Case {
            name: "a JSON array of lists, and a value that is not an object",
            input: "[{\"kind\": \"PodList\", \"apiVersion\": \"v1\", \"items\": [{\"metadata\": {\"name\": \"a\"}, \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"x\"}]}}]}, 42]",
            imported: "imported 1 Pod",
            skipped: None,
            warnings: &[],
            notes: &[],
            errors: &["input:1 (item 1): not an object but a number"],
        },
        Case {
            name: "broken JSON in a stream: the values after it are read",
            input: "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n1\"}}\n{\"apiVersion\": \"v1\", \"kind\":\n{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n2\"}}\n",
            imported: "imported 2 Nodes",
            skipped: None,
            warnings: &[],
            notes: &[],
            errors: &["not valid JSON"],
        },
    ]
}

fn check_contains(what: &str, name: &str, items: &[String], wanted: &[&str]) {
    for w in wanted {
        assert!(
            items.iter().any(|i| i.contains(w)),
            "{name}: no {what} contains {w:?}; {what}s:\n{}",
            items.join("\n")
        );
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn every_input_shape_imports_loads_and_runs() {
    for c in cases() {
        let file = match c.input {
            AKS_OLD => "aks-old.yaml",
            _ => "input",
        };
        let rep = import_inputs(&[(file, c.input)]);
        assert_eq!(rep.imported_line(), c.imported, "{}:\n{}", c.name, rep.summary_text());
        assert_eq!(rep.skipped_line().as_deref(), c.skipped, "{}", c.name);
        let warnings: Vec<String> = rep.warnings.iter().map(ToString::to_string).collect();
        let errors: Vec<String> = rep.errors.iter().map(ToString::to_string).collect();
        check_contains("warning", c.name, &warnings, c.warnings);
        check_contains("note", c.name, &rep.notes, c.notes);
        check_contains("error", c.name, &errors, c.errors);
        if c.errors.is_empty() {
            assert!(errors.is_empty(), "{}: unexpected errors {errors:?}", c.name);
        }
        // The scenario loads, the controllers and the scheduler run on it.
        let mut sc =
            crate::load_str(&rep.scenario_text, "imported.yaml").unwrap_or_else(|e| panic!("{}: {e}\n{}", c.name, rep.scenario_text));
        crate::controllers::run(&mut sc, 1);
        let mut engine = Engine::new(sc, EngineOptions::default());
        engine.run();
        // Importing the scenario again changes nothing.
        let again = import_str(&rep.scenario_text);
        assert_eq!(again.scenario_text, rep.scenario_text, "{}: not idempotent", c.name);
        assert!(again.errors.is_empty(), "{}: {:?}", c.name, again.errors);
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn what_is_stripped_and_what_is_kept() {
    let rep = import_str(KIND_LIST);
    let t = &rep.scenario_text;
    for gone in [
        "managedFields",
        "resourceVersion",
        "uid:",
        "creationTimestamp",
        "last-applied-configuration",
        "kubeadm.alpha.kubernetes.io",
        "nodeInfo",
        "addresses",
        "lastHeartbeatTime",
        "startedAt",
        "blockOwnerDeletion",
        "beta.kubernetes.io/os",
        "observedGeneration",
        "c2VjcmV0LXZhbHVl",
        "priority: 2000000000",
    ] {
        assert!(!t.contains(gone), "{gone} should be stripped:\n{t}");
    }
    for kept in [
        "phase: Running",
        "reason: ImagePullBackOff",
        "type: PodScheduled",
        "reason: KubeletNotReady",
        "key: node.kubernetes.io/not-ready",
        "deployment.kubernetes.io/revision: \"1\"",
        "priorityClassName: system-cluster-critical",
        "kind: ReplicaSet\n    name: coredns-668d6bf9bc",
        "registry.k8s.io/etcd:3.5.16-0",
        "kubernetes.io/os: linux",
        "node-role.kubernetes.io/control-plane: \"\"",
    ] {
        assert!(t.contains(kept), "{kept} should be kept:\n{t}");
    }
    // The pods keep their real state through the loader.
    let sc = crate::load_str(t, "f.yaml").expect("loads");
    let web = sc.pods.iter().find(|p| p.metadata.name == "web").expect("web");
    assert_eq!(web.status.phase.as_deref(), Some("Running"));
    assert!(web.status.container_statuses.is_some());
    let worker = sc.nodes.iter().find(|n| n.metadata.name == "kind-worker").expect("node");
    assert_eq!(worker.spec.taints[0].key, "node.kubernetes.io/not-ready");
    assert!(worker.status.conditions.is_some());
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pods_follow_their_creation_order_and_kinds_others_refer_to_come_first() {
    let input = "apiVersion: v1\nkind: List\nitems:\n\
- {apiVersion: v1, kind: Pod, metadata: {name: late, creationTimestamp: '2025-01-02T00:00:00Z'}, spec: {containers: [{name: c, image: x}]}}\n\
- {apiVersion: v1, kind: Pod, metadata: {name: early, creationTimestamp: '2025-01-01T00:00:00Z'}, spec: {containers: [{name: c, image: x}]}}\n\
- {apiVersion: v1, kind: Node, metadata: {name: n}}\n\
- {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: high}, value: 10}\n";
    let rep = import_str(input);
    let sc = crate::load_str(&rep.scenario_text, "f.yaml").expect("loads");
    let names: Vec<&str> = sc.pods.iter().map(|p| p.metadata.name.as_str()).collect();
    assert_eq!(names, ["early", "late"]);
    let pc = rep.scenario_text.find("kind: PriorityClass").expect("pc");
    let node = rep.scenario_text.find("kind: Node").expect("node");
    assert!(pc < node);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_missing_priority_class_is_made_from_the_pods_priority() {
    let input = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: batch-high\n  priority: 5000\n  preemptionPolicy: Never\n  containers: [{name: c, image: x}]\n";
    let rep = import_str(input);
    let sc = crate::load_str(&rep.scenario_text, "f.yaml").expect("loads");
    assert_eq!(sc.pods[0].spec.priority, Some(5000));
    assert_eq!(sc.pods[0].spec.preemption_policy.as_deref(), Some("Never"));
    assert!(
        rep.notes
            .iter()
            .any(|n| n.contains("made PriorityClass batch-high (value 5000) from the priority of Pod default/p")),
        "{:?}",
        rep.notes
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn objects_given_twice_are_kept_once() {
    let node = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n";
    let rep = import_inputs(&[("a.yaml", node), ("b.yaml", node)]);
    assert_eq!(rep.imported_line(), "imported 1 Node");
    assert!(
        rep.notes.iter().any(|n| n == "1 object given twice: the first kept"),
        "{:?}",
        rep.notes
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn plurals() {
    for (kind, want) in [
        ("Event", "Events"),
        ("Secret", "Secrets"),
        ("NetworkPolicy", "NetworkPolicies"),
        ("Ingress", "Ingresses"),
        ("Endpoints", "Endpoints"),
        ("Gateway", "Gateways"),
    ] {
        assert_eq!(plural(kind), want);
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn strings_that_yaml_would_retype_are_quoted() {
    let mut m = Map::new();
    for s in [
        "yes", "no", "on", "0755", "1.0", "", "~", "null", "12", "- x", "a: b", "#x", "true", "0x1F", "1e3",
    ] {
        m.insert(format!("k{s}"), Value::String(s.into()));
    }
    m.insert("plain".into(), Value::String("kubernetes.io/hostname".into()));
    let text = emit::document(&m);
    let back = crate::load::yaml::read_documents(&text).0;
    let json = back[0].to_json();
    assert_eq!(json, Value::Object(m), "{text}");
    assert!(text.contains("plain: kubernetes.io/hostname\n"));
}

/// One object without a kind: what its shape tells (`Ok((kind, the note's "from"))`) or why
/// it is refused (`Err(a substring of the error)`).
struct Shape {
    name: &'static str,
    object: &'static str,
    want: Result<(&'static str, &'static str), &'static str>,
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape {
            name: "a node as insights-operator saves it",
            object: r#"{"metadata": {"name": "n1"}, "spec": {}, "status": {"capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "nodeInfo": {"kubeletVersion": "v1.34.0"}}}"#,
            want: Ok(("Node", "status.nodeInfo, status.allocatable")),
        },
        Shape {
            name: "a node with only its provider ID",
            object: r#"{"metadata": {"name": "n1"}, "spec": {"providerID": "aws:///eu-west-1a/i-0"}}"#,
            want: Ok(("Node", "spec.providerID")),
        },
        Shape {
            name: "a node with a pod CIDR",
            object: r#"{"metadata": {"name": "n1"}, "spec": {"podCIDR": "10.244.1.0/24"}}"#,
            want: Ok(("Node", "spec.podCIDR")),
        },
        Shape {
            name: "a pod",
            object: r#"{"metadata": {"name": "p", "namespace": "shop"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}"#,
            want: Ok(("Pod", "spec.containers")),
        },
        Shape {
            name: "a namespace",
            object: r#"{"metadata": {"name": "shop"}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}"#,
            want: Ok(("Namespace", "spec.finalizers")),
        },
        Shape {
            name: "a persistent volume",
            object: r#"{"metadata": {"name": "pv1"}, "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/d"}, "persistentVolumeReclaimPolicy": "Retain"}}"#,
            want: Ok(("PersistentVolume", "spec.persistentVolumeReclaimPolicy, spec.capacity")),
        },
        Shape {
            name: "a persistent volume claim",
            object: r#"{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}"#,
            want: Ok(("PersistentVolumeClaim", "spec.accessModes and spec.resources")),
        },
        Shape {
            name: "a service",
            object: r#"{"metadata": {"name": "web"}, "spec": {"clusterIP": "10.0.0.10", "selector": {"app": "web"}, "ports": [{"port": 80}]}}"#,
            want: Ok(("Service", "spec.clusterIP")),
        },
        Shape {
            name: "a deployment",
            object: r#"{"metadata": {"name": "web"}, "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}}, "strategy": {"type": "RollingUpdate"}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}}}}"#,
            want: Ok(("Deployment", "spec.template and spec.strategy")),
        },
        Shape {
            name: "a statefulset",
            object: r#"{"metadata": {"name": "db"}, "spec": {"serviceName": "db", "replicas": 1, "selector": {"matchLabels": {"app": "db"}}, "template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}}}}"#,
            want: Ok(("StatefulSet", "spec.template and spec.serviceName")),
        },
        Shape {
            name: "a job",
            object: r#"{"metadata": {"name": "once"}, "spec": {"backoffLimit": 6, "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}}}"#,
            want: Ok(("Job", "spec.template and spec.backoffLimit")),
        },
        Shape {
            name: "a disruption budget",
            object: r#"{"metadata": {"name": "web"}, "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}}}"#,
            want: Ok(("PodDisruptionBudget", "spec.minAvailable")),
        },
        Shape {
            name: "a priority class",
            object: r#"{"metadata": {"name": "high"}, "value": 1000}"#,
            want: Ok(("PriorityClass", "value")),
        },
        Shape {
            name: "a storage class",
            object: r#"{"metadata": {"name": "fast"}, "provisioner": "ebs.csi.aws.com"}"#,
            want: Ok(("StorageClass", "provisioner")),
        },
        Shape {
            name: "ambiguous: a node's taints beside a pod's containers",
            object: r#"{"metadata": {"name": "x"}, "spec": {"taints": [{"key": "k", "effect": "NoSchedule"}], "containers": [{"name": "c", "image": "x"}]}}"#,
            want: Err("kind not set, and its shape fits more than one kind: Node (from spec.taints) or Pod (from spec.containers); add kind and apiVersion"),
        },
        Shape {
            name: "ambiguous: a workload template that is a ReplicaSet's or a ReplicationController's",
            object: r#"{"metadata": {"name": "web"}, "spec": {"replicas": 1, "selector": {"app": "web"}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}}}}"#,
            want: Err("its shape is none import recognises"),
        },
        Shape {
            name: "unknown: a config map's data",
            object: r#"{"metadata": {"name": "cfg"}, "data": {"k": "v"}}"#,
            want: Err("kind not set (and not given by a typed list such as PodList), and its shape is none import recognises"),
        },
        Shape {
            name: "unknown: metadata only",
            object: r#"{"metadata": {"name": "bare"}}"#,
            want: Err("add kind and apiVersion"),
        },
        Shape {
            name: "a null field tells nothing",
            object: r#"{"metadata": {"name": "n"}, "spec": {"providerID": null}}"#,
            want: Err("its shape is none import recognises"),
        },
    ]
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_kind_is_inferred_from_an_unambiguous_shape_and_refused_otherwise() {
    for s in shapes() {
        let rep = import_inputs(&[("f.json", s.object)]);
        let errors: Vec<String> = rep.errors.iter().map(ToString::to_string).collect();
        match s.want {
            Ok((kind, from)) => {
                assert!(errors.is_empty(), "{}: {errors:?}\n{}", s.name, rep.summary_text());
                assert_eq!(rep.imported_line(), format!("imported 1 {kind}"), "{}", s.name);
                let note = format!("inferred kind {kind} for 1 object without a kind (from {from})");
                assert!(rep.notes.contains(&note), "{}: no note {note:?} in {:?}", s.name, rep.notes);
                // The same object with its kind and apiVersion imports the same scenario, and
                // says nothing about inferring.
                let mut v: Value = serde_json::from_str(s.object).expect("json");
                let api_version = crate::load::kind_entries()
                    .find(|e| e.1 == kind)
                    .map(|e| e.0)
                    .expect("a kind the loader reads");
                v["kind"] = kind.into();
                v["apiVersion"] = api_version.into();
                let given = import_inputs(&[("f.json", &v.to_string())]);
                assert_eq!(given.scenario_text, rep.scenario_text, "{}", s.name);
                assert!(!given.notes.iter().any(|n| n.contains("inferred")), "{}", s.name);
            }
            Err(message) => {
                assert_eq!(rep.imported_line(), "imported nothing", "{}", s.name);
                assert_eq!(errors.len(), 1, "{}: {errors:?}", s.name);
                assert!(errors[0].contains(message), "{}: {:?} lacks {message:?}", s.name, errors[0]);
                assert!(!rep.notes.iter().any(|n| n.contains("inferred")), "{}", s.name);
            }
        }
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_kind_given_is_never_second_guessed() {
    // A Node with a field a Pod has keeps its kind (the loader judges the field).
    let rep = import_str(r#"{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "spec": {"podCIDR": "10.0.0.0/24"}}"#);
    assert_eq!(rep.imported_line(), "imported 1 Node");
    assert!(!rep.notes.iter().any(|n| n.contains("inferred")), "{:?}", rep.notes);
    // Items of a typed list take the list's kind whatever their shape.
    let rep = import_str(
        r#"{"apiVersion": "v1", "kind": "PodList", "items": [{"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}]}"#,
    );
    assert_eq!(rep.imported_line(), "imported 1 Pod");
    assert!(!rep.notes.iter().any(|n| n.contains("inferred")), "{:?}", rep.notes);
}

const INSIGHTS: &[(&str, &str)] = &[
    (
        "config/node/master-0.json",
        include_str!("testdata/insights/config/node/master-0.json"),
    ),
    (
        "config/node/worker-a.json",
        include_str!("testdata/insights/config/node/worker-a.json"),
    ),
    (
        "config/pod/shop/checkout-6f7d9c8b5-x2kqp.json",
        include_str!("testdata/insights/config/pod/shop/checkout-6f7d9c8b5-x2kqp.json"),
    ),
    (
        "config/pod/openshift-dns/pods.json",
        include_str!("testdata/insights/config/pod/openshift-dns/pods.json"),
    ),
];

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn an_insights_operator_archive_imports_objects_one_per_file_and_lists_without_kinds() {
    let rep = import_inputs(INSIGHTS);
    let errors: Vec<String> = rep.errors.iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(rep.imported_line(), "imported 2 Nodes, 3 Pods", "{}", rep.summary_text());
    for note in [
        "inferred kind Node for 2 objects without a kind (from status.nodeInfo, status.daemonEndpoints, status.allocatable, spec.providerID, spec.taints)",
        "inferred kind Pod for 3 objects without a kind (from spec.containers, status.containerStatuses, status.qosClass)",
    ] {
        assert!(rep.notes.iter().any(|n| n == note), "no {note:?} in {:#?}", rep.notes);
    }
    // Positions name each file, and each item of the list without a kind.
    let sc = crate::load_str(&rep.scenario_text, "imported.yaml").expect("loads");
    assert_eq!(sc.nodes.len(), 2);
    let checkout = sc.pods.iter().find(|p| p.metadata.name == "checkout-6f7d9c8b5-x2kqp").expect("pod");
    assert_eq!(checkout.metadata.namespace.as_deref(), Some("shop"));
    assert_eq!(checkout.spec.node_name.as_deref(), Some("worker-a.lab.example.com"));
    let mut engine = Engine::new(sc, EngineOptions::default());
    engine.run();
    // A pod of the list is placed on its own line and item.
    let bad = INSIGHTS[3].1.replacen("\"50m\"", "\"lots\"", 1);
    let rep = import_inputs(&[("pods.json", &bad)]);
    let errors: Vec<String> = rep.errors.iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("pods.json:4 (item 0): Pod openshift-dns/dns-default-k7w2q:"),
        "{errors:?}"
    );
    assert_eq!(rep.imported_line(), "imported 1 Pod");
}
