//! Each controller's pods: names, labels, owners, the DaemonSet's affinity and tolerations,
//! Job parallelism and indexes, StatefulSet ordinals, and existing pods counted.

use super::*;
use crate::load::load_str;

const NODES: &str = "
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: '8', memory: 16Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b}}
spec:
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status: {capacity: {cpu: '8', memory: 16Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {kubernetes.io/hostname: node-c, disk: ssd}}
spec:
  unschedulable: true
  taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}]
status: {capacity: {cpu: '8', memory: 16Gi, pods: '110'}}
";

const TEMPLATE: &str = "
    metadata: {labels: {app: web}, annotations: {note: kept}}
    spec:
      containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: 100m}}}]";

fn scenario(objects: &str) -> Scenario {
    let text = format!("{NODES}---\n{objects}");
    load_str(&text, "t.yaml").unwrap_or_else(|e| panic!("{e}"))
}

/// The created pods: (name, labels, controller reference), after a run with seed 1.
fn created(sc: &Scenario) -> Vec<&api::Pod> {
    sc.pods[sc.pods.len() - sc.created_pods..].iter().map(|p| &**p).collect()
}

fn owner(p: &api::Pod) -> (String, String, String, String) {
    let o = p
        .metadata
        .owner_references
        .iter()
        .find(|o| o.controller == Some(true))
        .expect("controller ref");
    assert_eq!(o.block_owner_deletion, Some(true), "{}", p.metadata.name);
    (o.api_version.clone(), o.kind.clone(), o.name.clone(), o.uid.clone())
}

/// `prefix` followed by five characters of the name alphabet.
fn is_generated(name: &str, prefix: &str) -> bool {
    name.len() == prefix.len() + 5
        && name.starts_with(prefix)
        && name[prefix.len()..].bytes().all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b))
}

fn rs(name: &str, replicas: i32) -> String {
    format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: {name}}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n  template:{TEMPLATE}\n"
    )
}

fn pod(name: &str, owner_kind: Option<(&str, &str, &str)>, node: Option<&str>, phase: Option<&str>) -> String {
    let mut s = format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  labels: {{app: web}}\n");
    if let Some((av, kind, owner)) = owner_kind {
        s.push_str(&format!(
            "  ownerReferences: [{{apiVersion: {av}, kind: {kind}, name: {owner}, controller: true}}]\n"
        ));
    }
    s.push_str("spec:\n  containers: [{name: c, image: nginx:1.27}]\n");
    if let Some(n) = node {
        s.push_str(&format!("  nodeName: {n}\n"));
    }
    if let Some(p) = phase {
        s.push_str(&format!("status: {{phase: {p}}}\n"));
    }
    s
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn replica_set_pods_count_existing_owned_active_pods() {
    let owned = Some(("apps/v1", "ReplicaSet", "web"));
    // (case, objects, pods the ReplicaSet should create)
    let cases: Vec<(&str, String, usize)> = vec![
        ("none yet", rs("web", 3), 3),
        (
            "running and pending owned pods count",
            [rs("web", 3), pod("a", owned, Some("node-a"), None), pod("b", owned, None, None)].join("---\n"),
            1,
        ),
        (
            "finished pods do not count",
            [
                rs("web", 2),
                pod("a", owned, Some("node-a"), Some("Failed")),
                pod("b", owned, Some("node-a"), Some("Succeeded")),
            ]
            .join("---\n"),
            2,
        ),
        (
            "matching pods of no owner do not count",
            [rs("web", 2), pod("a", None, Some("node-a"), None)].join("---\n"),
            2,
        ),
        (
            "another owner's pods do not count",
            [rs("web", 2), pod("a", Some(("apps/v1", "ReplicaSet", "other")), None, None)].join("---\n"),
            2,
        ),
        (
            "more pods than replicas: none created",
            [rs("web", 1), pod("a", owned, None, None), pod("b", owned, None, None)].join("---\n"),
            0,
        ),
        ("zero replicas", rs("web", 0), 0),
    ];
    for (name, objects, want) in cases {
        let mut sc = scenario(&objects);
        let file_pods = sc.pods.len();
        let report = run(&mut sc, 1);
        assert_eq!(sc.created_pods, want, "{name}");
        assert_eq!(sc.pods.len(), file_pods + want, "{name}");
        assert_eq!(sc.pod_docs.len(), sc.pods.len(), "{name}");
        assert_eq!(report.pods.len(), want, "{name}");
        for p in created(&sc) {
            assert!(is_generated(&p.metadata.name, "web-"), "{name}: {}", p.metadata.name);
            assert_eq!(
                report.pods.iter().filter(|k| **k == format!("default/{}", p.metadata.name)).count(),
                1
            );
            assert_eq!(p.metadata.labels.get("app").map(String::as_str), Some("web"), "{name}");
            assert_eq!(p.metadata.annotations.get("note").map(String::as_str), Some("kept"), "{name}");
            assert_eq!(
                owner(p),
                (
                    "apps/v1".into(),
                    "ReplicaSet".into(),
                    "web".into(),
                    "uid-replicaset-default-web".into()
                ),
                "{name}"
            );
            assert_eq!(p.metadata.uid, Some(format!("uid-pod-default-{}", p.metadata.name)), "{name}");
            assert_eq!(p.status.phase.as_deref(), Some("Pending"), "{name}");
            assert_eq!(p.spec.node_name, None, "{name}");
            assert_eq!(p.spec.scheduler_name.as_deref(), Some("default-scheduler"), "{name}");
            assert_eq!(p.spec.priority, Some(0), "{name}");
        }
        // Created objects follow the file's, one document each.
        let docs: Vec<usize> = sc.pod_docs[file_pods..].to_vec();
        assert!(docs.windows(2).all(|w| w[1] == w[0] + 1), "{name}: {docs:?}");
        assert_eq!(sc.documents, docs.last().map_or(sc.documents, |d| d + 1), "{name}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn names_come_from_the_seed() {
    let names = |seed| {
        let mut sc = scenario(&rs("web", 4));
        run(&mut sc, seed);
        created(&sc).iter().map(|p| p.metadata.name.clone()).collect::<Vec<_>>()
    };
    assert_eq!(names(1), names(1));
    assert_ne!(names(1), names(2));
    let n = names(1);
    let unique: HashSet<&String> = n.iter().collect();
    assert_eq!(unique.len(), n.len(), "{n:?}");
    // A long owner name is cut so that the pod name stays within 63 characters.
    let long = "a".repeat(70);
    let mut sc = scenario(&rs(&long[..62], 1));
    run(&mut sc, 1);
    let name = &created(&sc)[0].metadata.name;
    assert_eq!(name.len(), 63);
    assert!(is_generated(name, &long[..58]), "{name}");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn deployment_creates_a_replica_set_with_the_template_hash() {
    let deploy = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: 3\n  selector: {{matchLabels: {{app: web}}}}\n  template:{TEMPLATE}\n"
    );
    let mut sc = scenario(&deploy);
    let report = run(&mut sc, 1);
    let rs = sc.cluster.workloads.replica_sets.last().expect("a ReplicaSet").clone();
    let hash = rs.metadata.labels.get(POD_TEMPLATE_HASH).expect("hash label").clone();
    assert_eq!(rs.metadata.name, format!("web-{hash}"));
    assert_eq!(report.replica_sets, vec![format!("default/web-{hash}")]);
    assert_eq!(hash, pod_template_hash(&sc.cluster.workloads.deployments[0].spec.template, None));
    assert!(hash.bytes().all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b)), "{hash}");
    assert_eq!(rs.spec.selector.as_ref().unwrap().match_labels.get(POD_TEMPLATE_HASH), Some(&hash));
    assert_eq!(rs.spec.replicas, Some(3));
    assert_eq!(rs.metadata.uid, Some(format!("uid-replicaset-default-web-{hash}")));
    assert_eq!(
        rs.metadata.annotations.get("deployment.kubernetes.io/revision").map(String::as_str),
        Some("1")
    );
    let o = &rs.metadata.owner_references[0];
    assert_eq!(
        (o.kind.as_str(), o.name.as_str(), o.uid.as_str(), o.controller),
        ("Deployment", "web", "uid-deployment-default-web", Some(true))
    );
    let pods = created(&sc);
    assert_eq!(pods.len(), 3);
    for p in pods {
        assert!(is_generated(&p.metadata.name, &format!("web-{hash}-")), "{}", p.metadata.name);
        assert_eq!(p.metadata.labels.get(POD_TEMPLATE_HASH), Some(&hash));
        assert_eq!(p.metadata.labels.get("app").map(String::as_str), Some("web"));
        assert_eq!(owner(p).1, "ReplicaSet");
        assert_eq!(owner(p).2, format!("web-{hash}"));
    }
    // Reconciling again creates nothing more.
    let mut again = Controllers::new(1);
    assert_eq!(again.reconcile(&mut sc), Report::default());

    // A Deployment that already controls a ReplicaSet scales it instead of making another.
    let owned_rs = format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-abc12\n  ownerReferences: [{{apiVersion: apps/v1, kind: Deployment, name: web, controller: true}}]\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: web}}}}\n  template:{TEMPLATE}\n"
    );
    let existing = pod("web-abc12-xyz", Some(("apps/v1", "ReplicaSet", "web-abc12")), Some("node-a"), None);
    let mut sc = scenario(&[deploy, owned_rs, existing].join("---\n"));
    let report = run(&mut sc, 1);
    assert!(report.replica_sets.is_empty());
    assert_eq!(sc.cluster.workloads.replica_sets.len(), 1);
    assert_eq!(sc.cluster.workloads.replica_sets[0].spec.replicas, Some(3));
    assert_eq!(sc.created_pods, 2);
    assert!(created(&sc).iter().all(|p| is_generated(&p.metadata.name, "web-abc12-")));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn replication_controller_pods() {
    let rc = "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: legacy, namespace: team}\nspec:\n  replicas: 2\n  template:\n    metadata: {labels: {app: legacy}}\n    spec:\n      containers: [{name: c, image: nginx:1.27}]\n";
    let mut sc = scenario(rc);
    run(&mut sc, 1);
    let rc = &sc.cluster.workloads.replication_controllers[0];
    assert_eq!(
        rc.spec.selector.get("app").map(String::as_str),
        Some("legacy"),
        "selector defaults to the template labels"
    );
    let pods = created(&sc);
    assert_eq!(pods.len(), 2);
    for p in pods {
        assert!(is_generated(&p.metadata.name, "legacy-"));
        assert_eq!(p.metadata.namespace.as_deref(), Some("team"));
        assert_eq!(
            owner(p),
            (
                "v1".into(),
                "ReplicationController".into(),
                "legacy".into(),
                "uid-replicationcontroller-team-legacy".into()
            )
        );
    }
    assert!(sc.cluster.namespaces.contains_key("team"));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn stateful_set_ordinals() {
    let ss = |extra: &str| {
        format!(
            "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: db}}\nspec:\n  replicas: 3\n  serviceName: db-headless\n{extra}  selector: {{matchLabels: {{app: web}}}}\n  template:{TEMPLATE}\n"
        )
    };
    let owned = Some(("apps/v1", "StatefulSet", "db"));
    // (case, objects, names created)
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("from 0", ss(""), vec!["db-0", "db-1", "db-2"]),
        (
            "an existing ordinal is kept",
            [ss(""), pod("db-1", owned, Some("node-a"), None)].join("---\n"),
            vec!["db-0", "db-2"],
        ),
        ("ordinals.start", ss("  ordinals: {start: 5}\n"), vec!["db-5", "db-6", "db-7"]),
    ];
    for (name, objects, want) in cases {
        let mut sc = scenario(&objects);
        run(&mut sc, 1);
        let pods = created(&sc);
        let got: Vec<&str> = pods.iter().map(|p| p.metadata.name.as_str()).collect();
        assert_eq!(got, want, "{name}");
        for p in pods {
            let n = &p.metadata.name;
            let ordinal = n.rsplit('-').next().unwrap();
            assert_eq!(p.metadata.labels.get("statefulset.kubernetes.io/pod-name"), Some(n), "{name}");
            assert_eq!(
                p.metadata.labels.get("apps.kubernetes.io/pod-index").map(String::as_str),
                Some(ordinal),
                "{name}"
            );
            assert!(
                p.metadata
                    .labels
                    .get("controller-revision-hash")
                    .is_some_and(|h| h.starts_with("db-")),
                "{name}"
            );
            assert_eq!(p.spec.hostname.as_ref(), Some(n), "{name}");
            assert_eq!(p.spec.subdomain.as_deref(), Some("db-headless"), "{name}");
            assert_eq!(owner(p).1, "StatefulSet", "{name}");
            assert_eq!(p.metadata.generate_name, None, "{name}");
        }
    }
}

fn ds(extra_spec: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: agent}}\nspec:\n  selector: {{matchLabels: {{app: agent}}}}\n  template:\n    metadata: {{labels: {{app: agent}}}}\n    spec:\n      containers: [{{name: c, image: agent:1}}]\n{extra_spec}"
    )
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn daemon_set_pods_per_node() {
    let owned_on = |name: &str, node: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  labels: {{app: agent}}\n  ownerReferences: [{{apiVersion: apps/v1, kind: DaemonSet, name: agent, controller: true}}]\nspec:\n  containers: [{{name: c, image: agent:1}}]\n  nodeName: {node}\n"
        )
    };
    // (case, objects, nodes that get a new pod)
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("untolerated taint skipped, unschedulable tolerated", ds(""), vec!["node-a", "node-c"]),
        (
            "template toleration",
            ds("      tolerations: [{key: dedicated, operator: Exists}]\n"),
            vec!["node-a", "node-b", "node-c"],
        ),
        ("nodeSelector", ds("      nodeSelector: {disk: ssd}\n"), vec!["node-c"]),
        (
            "required node affinity",
            ds("      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: DoesNotExist}]}]}}}\n"),
            vec!["node-a"],
        ),
        ("a node with the daemon's pod gets none", [ds(""), owned_on("agent-old", "node-a")].join("---\n"), vec!["node-c"]),
    ];
    for (name, objects, want) in cases {
        let mut sc = scenario(&objects);
        run(&mut sc, 1);
        let pods = created(&sc);
        let nodes: Vec<String> = pods.iter().map(|p| pods::daemon_pod_node(p).expect("pinned")).collect();
        assert_eq!(nodes, want, "{name}");
        for (p, node) in pods.iter().zip(&nodes) {
            assert!(is_generated(&p.metadata.name, "agent-"), "{name}");
            assert_eq!(p.spec.node_name, None, "{name}: the scheduler places daemon pods");
            let req = p.spec.affinity.as_ref().unwrap().node_affinity.as_ref().unwrap();
            let terms = &req
                .required_during_scheduling_ignored_during_execution
                .as_ref()
                .unwrap()
                .node_selector_terms;
            assert_eq!(terms.len(), 1, "{name}");
            assert!(terms[0].match_expressions.is_empty(), "{name}");
            assert_eq!(
                terms[0].match_fields,
                vec![api::NodeSelectorRequirement {
                    key: "metadata.name".into(),
                    operator: "In".into(),
                    values: vec![node.clone()],
                }],
                "{name}"
            );
            for t in daemon_tolerations(false) {
                assert!(p.spec.tolerations.contains(&t), "{name}: {t:?}");
            }
            assert_eq!(
                p.metadata.labels.get("pod-template-generation").map(String::as_str),
                Some("1"),
                "{name}"
            );
            assert!(p.metadata.labels.contains_key("controller-revision-hash"), "{name}");
            assert_eq!(owner(p).1, "DaemonSet", "{name}");
        }
    }
    // Host-network daemons also tolerate an unavailable network.
    let keys = |host_network| {
        daemon_tolerations(host_network)
            .into_iter()
            .filter_map(|t| t.key)
            .collect::<Vec<_>>()
    };
    assert!(!keys(false).contains(&"node.kubernetes.io/network-unavailable".to_string()));
    assert!(keys(true).contains(&"node.kubernetes.io/network-unavailable".to_string()));
    assert_eq!(keys(false).len(), 6);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn daemon_set_pods_are_scheduled_to_their_nodes() {
    let mut sc = scenario(&ds(""));
    run(&mut sc, 1);
    let mut e = crate::Engine::new(sc, crate::EngineOptions::default());
    e.run();
    let placed: Vec<(String, Option<String>)> = e.pods.iter().map(|p| (p.info.name().to_string(), p.node.clone())).collect();
    assert_eq!(placed.len(), 2);
    assert_eq!(placed[0].1.as_deref(), Some("node-a"), "{placed:?}");
    assert_eq!(
        placed[1].1.as_deref(),
        Some("node-c"),
        "{placed:?}: the cordoned node's taint is tolerated"
    );
}

fn job(spec: &str) -> String {
    format!(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: train}}\nspec:\n{spec}  template:\n    metadata: {{labels: {{app: train}}}}\n    spec:\n      restartPolicy: Never\n      containers: [{{name: c, image: trainer:1}}]\n"
    )
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn job_parallelism_and_completions() {
    let owned = |name: &str, phase: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  labels: {{app: train}}\n  ownerReferences: [{{apiVersion: batch/v1, kind: Job, name: train, controller: true}}]\nspec:\n  restartPolicy: Never\n  containers: [{{name: c, image: trainer:1}}]\n  nodeName: node-a\nstatus: {{phase: {phase}}}\n"
        )
    };
    // (case, objects, pods created)
    let cases: Vec<(&str, String, usize)> = vec![
        ("defaults: one pod", job(""), 1),
        ("parallelism below completions", job("  parallelism: 2\n  completions: 5\n"), 2),
        ("completions below parallelism", job("  parallelism: 4\n  completions: 3\n"), 3),
        ("work queue", job("  parallelism: 3\n"), 3),
        ("suspended", job("  parallelism: 3\n  suspend: true\n"), 0),
        (
            "succeeded pods reduce what is left",
            [
                job("  parallelism: 3\n  completions: 5\n"),
                owned("t1", "Succeeded"),
                owned("t2", "Succeeded"),
                owned("t3", "Succeeded"),
                owned("t4", "Succeeded"),
            ]
            .join("---\n"),
            1,
        ),
        (
            "running pods count toward parallelism",
            [job("  parallelism: 3\n  completions: 5\n"), owned("t1", "Running")].join("---\n"),
            2,
        ),
        (
            "work queue with a success starts nothing",
            [job("  parallelism: 3\n"), owned("t1", "Succeeded")].join("---\n"),
            0,
        ),
    ];
    for (name, objects, want) in cases {
        let mut sc = scenario(&objects);
        run(&mut sc, 1);
        let pods = created(&sc);
        assert_eq!(pods.len(), want, "{name}");
        for p in pods {
            assert!(is_generated(&p.metadata.name, "train-"), "{name}: {}", p.metadata.name);
            let l = &p.metadata.labels;
            assert_eq!(l.get("batch.kubernetes.io/job-name").map(String::as_str), Some("train"), "{name}");
            assert_eq!(l.get("job-name").map(String::as_str), Some("train"), "{name}");
            assert_eq!(
                l.get("batch.kubernetes.io/controller-uid").map(String::as_str),
                Some("uid-job-default-train"),
                "{name}"
            );
            assert_eq!(l.get("app").map(String::as_str), Some("train"), "{name}");
            assert_eq!(
                p.metadata.finalizers.as_deref(),
                Some(&["batch.kubernetes.io/job-tracking".to_string()][..]),
                "{name}"
            );
            assert_eq!(
                owner(p),
                ("batch/v1".into(), "Job".into(), "train".into(), "uid-job-default-train".into()),
                "{name}"
            );
            assert_eq!(p.spec.restart_policy.as_deref(), Some("Never"), "{name}");
        }
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn indexed_job_pods() {
    let mut sc = scenario(&job("  parallelism: 2\n  completions: 3\n  completionMode: Indexed\n"));
    run(&mut sc, 1);
    let pods = created(&sc);
    assert_eq!(pods.len(), 2);
    for (i, p) in pods.iter().enumerate() {
        assert!(is_generated(&p.metadata.name, &format!("train-{i}-")), "{}", p.metadata.name);
        assert_eq!(p.metadata.annotations.get(pods::JOB_COMPLETION_INDEX), Some(&i.to_string()));
        assert_eq!(p.metadata.labels.get(pods::JOB_COMPLETION_INDEX), Some(&i.to_string()));
        assert_eq!(p.spec.hostname, Some(format!("train-{i}")));
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pods_that_admission_refuses_are_reported_not_created() {
    let objects = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      priorityClassName: missing\n      containers: [{name: c, image: nginx:1.27}]\n".to_string();
    let mut sc = scenario(&objects);
    let report = run(&mut sc, 1);
    assert_eq!(sc.created_pods, 0);
    assert_eq!(report.failed.len(), 2);
    assert!(
        report.failed[0].starts_with("ReplicaSet/web: Error creating: pods \"web-"),
        "{}",
        report.failed[0]
    );
    assert!(
        report.failed[0].ends_with("is forbidden: no PriorityClass with name missing was found"),
        "{}",
        report.failed[0]
    );

    // With a class, created pods get its priority.
    let objects = format!(
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: high}}\nvalue: 1000\n---\n{}",
        objects.replace("missing", "high")
    );
    let mut sc = scenario(&objects);
    run(&mut sc, 1);
    assert!(created(&sc).iter().all(|p| p.spec.priority == Some(1000)));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn workloads_are_inert_without_controllers() {
    let objects = [
        format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  selector: {{matchLabels: {{app: web}}}}\n  template:{TEMPLATE}\n"),
        ds(""),
        job(""),
        rs("plain", 2),
    ]
    .join("---\n");
    let sc = scenario(&objects);
    assert_eq!(sc.created_pods, 0);
    assert!(sc.pods.is_empty());
    let w = &sc.cluster.workloads;
    assert_eq!(
        (w.deployments.len(), w.daemon_sets.len(), w.jobs.len(), w.replica_sets.len()),
        (1, 1, 1, 1)
    );
    let mut e = crate::Engine::new(sc, crate::EngineOptions::default());
    assert_eq!(e.run(), 0);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn stateful_set_claims_from_templates() {
    let objects = format!(
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data-db-1}}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {{requests: {{storage: 5Gi}}}}\n---
apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: db}}\nspec:\n  replicas: 2\n  selector: {{matchLabels: {{app: web}}}}\n  template:{TEMPLATE}
  volumeClaimTemplates:
  - metadata: {{name: data, labels: {{tier: storage}}}}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {{requests: {{storage: 1Gi}}}}
"
    );
    let mut sc = scenario(&objects);
    let report = run(&mut sc, 1);
    assert_eq!(
        report.claims,
        vec!["default/data-db-0".to_string()],
        "an existing claim is used as it is"
    );
    let claim = &sc.cluster.pvcs["default/data-db-0"];
    assert_eq!(claim.metadata.uid.as_deref(), Some("uid-persistentvolumeclaim-default-data-db-0"));
    assert_eq!(claim.metadata.labels.get("tier").map(String::as_str), Some("storage"));
    assert_eq!(claim.metadata.labels.get("app").map(String::as_str), Some("web"));
    assert_eq!(claim.status.phase.as_deref(), Some("Pending"));
    for (p, want) in created(&sc).iter().zip(["data-db-0", "data-db-1"]) {
        let v = p.spec.volumes.iter().find(|v| v.name == "data").expect("the template's volume");
        assert_eq!(v.persistent_volume_claim.as_ref().map(|c| c.claim_name.as_str()), Some(want));
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn created_pods_get_their_template_claims() {
    let objects = [
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {}\n".to_string(),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: one-gpu}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly: {deviceClassName: gpu}\n".to_string(),
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\nspec:\n  parallelism: 2\n  template:\n    metadata: {labels: {app: train}}\n    spec:\n      restartPolicy: Never\n      resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}, {name: missing, resourceClaimTemplateName: nope}]\n      containers: [{name: c, image: trainer:1}]\n".to_string(),
    ]
    .join("---\n");
    let mut sc = scenario(&objects);
    let report = run(&mut sc, 1);
    let pods: Vec<String> = created(&sc).iter().map(|p| p.metadata.name.clone()).collect();
    assert_eq!(pods.len(), 2);
    for p in &pods {
        let c = sc
            .cluster
            .dra
            .claims
            .get(&format!("default/{p}-gpu"))
            .unwrap_or_else(|| panic!("{p}: {:?}", sc.cluster.dra.claims.keys()));
        assert_eq!(c.metadata.owner_references[0].name, *p);
        assert_eq!(c.metadata.owner_references[0].kind, "Pod");
    }
    // The missing template is reported, once per pod.
    assert_eq!(
        report.failed.iter().filter(|f| f.contains("\"nope\" not found")).count(),
        2,
        "{:?}",
        report.failed
    );
}
