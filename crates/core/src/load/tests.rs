//! Table-driven tests of loading: error positions and texts, defaulting and admission, and
//! hostile or mangled input (which must be refused quickly, never crash or hang).

use super::*;

fn load(text: &str) -> Scenario {
    load_str(text, "f.yaml").unwrap_or_else(|e| panic!("{e}"))
}

fn errors(text: &str) -> LoadErrors {
    match load_str(text, "f.yaml") {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(e) => e,
    }
}

const NODE: &str = "apiVersion: v1
kind: Node
metadata:
  name: node-a
status:
  capacity:
    cpu: '4'
    memory: 8Gi
    pods: '110'
";

/// A pod document whose spec lines (indented by two) are given.
fn pod(name: &str, spec: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n{spec}")
}

const C: &str = "  containers:\n  - name: app\n    image: nginx\n";

/// Expected errors: (line, column, field, reason, rendered explanation).
type ExpectedErrors<'a> = Vec<(usize, usize, &'a str, ErrorReason, &'a str)>;

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn error_table() {
    // (input, expected errors)
    let cases: Vec<(String, ExpectedErrors)> = vec![
        (
            pod("web", &format!("  foo: 1\n{C}")),
            vec![(6, 3, "spec.foo", ErrorReason::Decode, "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.foo\"")],
        ),
        (
            pod("web", "  containers:\n  - image: nginx\n"),
            vec![(7, 5, "spec.containers[0].name", ErrorReason::Invalid, "The Pod \"web\" is invalid: spec.containers[0].name: Required value")],
        ),
        (
            pod("web", "  containers:\n  - name: app\n"),
            vec![(7, 5, "spec.containers[0].image", ErrorReason::Invalid, "The Pod \"web\" is invalid: spec.containers[0].image: Required value")],
        ),
        (
            pod("web", &format!("  priority: high\n{C}")),
            vec![(
                6,
                3,
                "spec.priority",
                ErrorReason::Decode,
                "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field spec.priority of type int32",
            )],
        ),
        (
            pod("web", &format!("  priority: 3000000000\n{C}")),
            vec![(
                6,
                3,
                "spec.priority",
                ErrorReason::Decode,
                "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number 3000000000 into Go struct field spec.priority of type int32",
            )],
        ),
        (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n".to_string(),
            vec![
                (1, 1, "spec.selector", ErrorReason::Invalid, "The Deployment \"d\" is invalid: spec.selector: Required value"),
                (1, 1, "spec.template.spec.containers", ErrorReason::Invalid, "spec.template.spec.containers: Required value"),
            ],
        ),
        (
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n".to_string(),
            vec![(2, 1, "", ErrorReason::Kind, "no matches for kind \"ConfigMap\" in version \"v1\"")],
        ),
        (
            "metadata:\n  name: x\n".to_string(),
            vec![(1, 1, "", ErrorReason::Kind, "error validating data: [apiVersion not set, kind not set]")],
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {a: [b\n".to_string(),
            vec![(5, 17, "", ErrorReason::Syntax, "error converting YAML to JSON: yaml: line 5:")],
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  name: web2\nspec:\n".to_string() + C,
            vec![(5, 3, "", ErrorReason::Syntax, "key \"name\" already set in map")],
        ),
        (
            pod("Web_1", C),
            vec![(4, 3, "metadata.name", ErrorReason::Invalid, "The Pod \"Web_1\" is invalid: metadata.name: Invalid value: \"Web_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")],
        ),
        (
            format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    ok: yes-it-is\n    'bad key': v\nspec:\n{C}"),
            vec![(7, 5, "metadata.labels", ErrorReason::Invalid, "metadata.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters")],
        ),
        (
            pod("web", "  containers:\n  - name: app\n    image: nginx\n    resources:\n      limits:\n        cpu: 500m\n      requests:\n        cpu: '1'\n"),
            vec![(13, 9, "spec.containers[0].resources.requests", ErrorReason::Invalid, "spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m")],
        ),
        (
            pod("web", "  containers:\n  - name: app\n    image: nginx\n    resources:\n      requests:\n        memory: -1Gi\n"),
            vec![(11, 9, "spec.containers[0].resources.requests[memory]", ErrorReason::Invalid, "spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0")],
        ),
        (
            pod("web", "  containers:\n  - name: app\n    image: nginx\n  - name: app\n    image: busybox\n"),
            vec![(9, 5, "spec.containers[1].name", ErrorReason::Invalid, "spec.containers[1].name: Duplicate value: \"app\"")],
        ),
        (
            pod("web", "  containers:\n  - name: app\n    image: nginx\n    ports:\n    - containerPort: 70000\n      protocol: HTTP\n"),
            vec![
                (10, 7, "spec.containers[0].ports[0].containerPort", ErrorReason::Invalid, "Invalid value: 70000: must be between 1 and 65535, inclusive"),
                (11, 7, "spec.containers[0].ports[0].protocol", ErrorReason::Invalid, "Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\""),
            ],
        ),
        (
            pod("web", &format!("{C}  tolerations:\n  - operator: Equal\n    value: x\n    effect: NoRun\n")),
            vec![
                (10, 5, "spec.tolerations[0].operator", ErrorReason::Invalid, "Invalid value: \"Equal\": operator must be Exists when `key` is empty"),
                (12, 5, "spec.tolerations[0].effect", ErrorReason::Invalid, "Unsupported value: \"NoRun\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""),
            ],
        ),
        (
            pod(
                "web",
                &format!("{C}  topologySpreadConstraints:\n  - maxSkew: 0\n    topologyKey: zone\n    whenUnsatisfiable: ScheduleAnyway\n    minDomains: 2\n"),
            ),
            vec![
                (10, 5, "spec.topologySpreadConstraints[0].maxSkew", ErrorReason::Invalid, "Invalid value: 0: must be greater than zero"),
                (13, 5, "spec.topologySpreadConstraints[0].minDomains", ErrorReason::Invalid, "Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"),
            ],
        ),
        (
            pod(
                "web",
                &format!(
                    "{C}  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - key: zone\n            operator: Within\n            values: [a]\n"
                ),
            ),
            vec![(15, 13, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator", ErrorReason::Invalid, "Invalid value: \"Within\": not a valid selector operator")],
        ),
        (
            pod("web", &format!("{C}  schedulingGates:\n  - name: gate\n  - name: gate\n")),
            vec![(11, 5, "spec.schedulingGates[1]", ErrorReason::Invalid, "spec.schedulingGates[1]: Duplicate value: \"gate\"")],
        ),
        (
            pod("web", &format!("{C}  priorityClassName: nope\n")),
            vec![(9, 3, "spec.priorityClassName", ErrorReason::Rejected, "pods \"web\" is forbidden: no PriorityClass with name nope was found")],
        ),
        (
            format!(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: high}}\nvalue: 1000\n---\n{}",
                pod("web", &format!("{C}  priorityClassName: high\n  priority: 7\n"))
            ),
            vec![(15, 3, "spec.priority", ErrorReason::Rejected, "pods \"web\" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name")],
        ),
        (
            format!(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: high}}\nvalue: 1000\n---\n{}",
                pod("web", &format!("{C}  priorityClassName: high\n  preemptionPolicy: Never\n"))
            ),
            vec![(15, 3, "spec.preemptionPolicy", ErrorReason::Rejected, "the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name")],
        ),
        (
            format!("{}---\n{}", pod("web", C), pod("web", C)),
            vec![(13, 3, "metadata.name", ErrorReason::Rejected, "pods \"web\" already exists (first defined at line 4)")],
        ),
        (
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\nspec:\n  taints:\n  - key: a\n    effect: NoSchedule\n  - key: a\n    effect: NoSchedule\n  - key: b\n".to_string(),
            vec![
                (9, 5, "spec.taints[1]", ErrorReason::Invalid, "taints must be unique by key and effect pair"),
                (11, 5, "spec.taints[2].effect", ErrorReason::Invalid, "spec.taints[2].effect: Required value"),
            ],
        ),
        (
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: huge\nvalue: 2000000000\n".to_string(),
            vec![(5, 1, "value", ErrorReason::Invalid, "value: Forbidden: maximum allowed value of a user defined priority is 1000000000")],
        ),
        (
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\nspec:\n  accessModes: [ReadWriteOncePod, ReadWriteOnce]\n".to_string(),
            vec![
                (5, 1, "spec.resources[storage]", ErrorReason::Invalid, "spec.resources[storage]: Required value"),
                (6, 3, "spec.accessModes", ErrorReason::Invalid, "Forbidden: may not use ReadWriteOncePod with other access modes"),
            ],
        ),
        (
            "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\nspec:\n  minAvailable: 150%\n".to_string(),
            vec![(6, 3, "spec.minAvailable", ErrorReason::Invalid, "Invalid value: \"150%\": must not be greater than 100%")],
        ),
        (
            "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: s\nvolumeBindingMode: Later\n".to_string(),
            vec![
                (1, 1, "provisioner", ErrorReason::Invalid, "provisioner: Required value"),
                (5, 1, "volumeBindingMode", ErrorReason::Invalid, "Unsupported value: \"Later\": supported values: \"Immediate\", \"WaitForFirstConsumer\""),
            ],
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let got = errors(text);
        let shown = got.to_string();
        assert_eq!(got.errors.len(), want.len(), "case {i}: {shown}");
        for (e, (line, col, field, reason, text)) in got.errors.iter().zip(want) {
            assert_eq!((e.line, e.column), (*line, *col), "case {i}: {shown}");
            assert_eq!(e.field.as_deref().unwrap_or(""), *field, "case {i}: {shown}");
            assert_eq!(e.reason, *reason, "case {i}: {shown}");
            assert!(
                e.to_string().contains(text),
                "case {i}: {:?} does not contain {:?}",
                e.to_string(),
                text
            );
        }
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn rendering_is_kubectl_like() {
    let text = format!(
        "{}---\n{}",
        pod("web", &format!("  foo: 1\n{C}")),
        pod("db", "  containers:\n  - image: pg\n")
    );
    let e = errors(&text);
    assert_eq!(
        e.to_string(),
        "error: f.yaml:6:3: Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.foo\"\n\
         error: f.yaml:17:5: The Pod \"db\" is invalid: spec.containers[0].name: Required value"
    );
    // Errors carry the object and its index.
    assert_eq!(e.errors[1].object.as_deref(), Some("Pod/db"));
    assert_eq!(e.errors[1].document, Some(1));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn every_invalid_object_is_reported() {
    let mut text = String::new();
    for i in 0..5 {
        text.push_str(&pod(&format!("p{i}"), "  containers:\n  - name: Bad_Name\n    image: x\n"));
        text.push_str("---\n");
    }
    text.push_str("apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec: {containers: [{name: c, image: i}], bogus: 1}\n");
    let e = errors(&text);
    assert_eq!(e.errors.len(), 6, "{e}");
    assert!(e.errors.windows(2).all(|w| w[0].line < w[1].line), "{e}");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn defaulting_table() {
    let text = format!(
        "# a comment-only document does not count\n---\n{NODE}---
apiVersion: v1
kind: Node
metadata: {{name: node-b}}
status:
  capacity: {{cpu: '8', memory: 16Gi}}
  allocatable: {{cpu: '7'}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: low-default}}
value: 10
globalDefault: true
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: high}}
value: 1000
preemptionPolicy: Never
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {{name: running, namespace: team-a, labels: {{app: web}}}}
  spec:
    nodeName: node-a
    containers:
    - name: app
      image: nginx:1.27
      resources:
        limits: {{cpu: 500m, memory: 1Gi}}
      ports:
      - containerPort: 80
- apiVersion: v1
  kind: Pod
  metadata: {{name: pending, labels: {{app: web, tier: fe}}}}
  spec:
    priorityClassName: high
    hostNetwork: true
    containers:
    - name: app
      image: nginx
      ports:
      - containerPort: 8080
    affinity:
      podAntiAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: {{matchLabels: {{app: web}}}}
          topologyKey: kubernetes.io/hostname
          matchLabelKeys: [tier]
---
apiVersion: v1
kind: PersistentVolume
metadata: {{name: pv-1}}
spec:
  capacity: {{storage: 10Gi}}
  accessModes: [ReadWriteOnce]
  csi: {{driver: ebs.csi.aws.com, volumeHandle: v1}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {{name: pv-2}}
spec:
  capacity: {{storage: 10Gi}}
  accessModes: [ReadWriteOnce]
  hostPath: {{path: /data}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {{name: data}}
spec:
  accessModes: [ReadWriteOnce]
  resources: {{requests: {{storage: 5Gi}}}}
  volumeName: pv-1
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: pdb, namespace: team-b}}
spec: {{minAvailable: 1, selector: {{matchLabels: {{app: web}}}}}}
"
    );
    let sc = load(&text);
    // Objects: 2 nodes, 2 classes, 2 list items, 2 PVs, 1 PVC, 1 PDB.
    assert_eq!(sc.documents, 10);
    assert_eq!(sc.pod_docs, vec![4, 5]);

    let a = &sc.nodes[0];
    assert_eq!(a.status.allocatable, a.status.capacity, "allocatable defaults to capacity");
    assert_eq!(a.metadata.uid.as_deref(), Some("uid-node--node-a"));
    assert_eq!(a.metadata.creation_timestamp, Some(Box::new(serde_json::json!("2025-01-01T00:00:00Z"))));
    let b = &sc.nodes[1];
    assert_eq!(b.status.allocatable.len(), 1, "a given allocatable is kept as is");

    let running = &sc.pods[0];
    assert_eq!(running.metadata.namespace.as_deref(), Some("team-a"));
    assert_eq!(running.metadata.uid.as_deref(), Some("uid-pod-team-a-running"));
    assert_eq!(running.spec.scheduler_name.as_deref(), Some("default-scheduler"));
    let c = &running.spec.containers[0];
    assert_eq!(c.resources.requests, c.resources.limits, "requests default to limits");
    assert_eq!(c.ports[0].protocol.as_deref(), Some("TCP"));
    assert_eq!(c.ports[0].host_port, None);
    assert_eq!(c.image_pull_policy.as_deref(), Some("IfNotPresent"));
    assert_eq!(running.status.phase.as_deref(), Some("Running"));
    assert_eq!(running.status.start_time, Some(Box::new(serde_json::json!("2025-01-01T00:00:04Z"))));
    assert_eq!(running.spec.priority, Some(10), "the global default class applies");
    assert_eq!(running.spec.priority_class_name.as_deref(), Some("low-default"));
    assert_eq!(running.spec.preemption_policy.as_deref(), Some("PreemptLowerPriority"));

    let pending = &sc.pods[1];
    assert_eq!(pending.metadata.namespace.as_deref(), Some("default"));
    assert_eq!(pending.spec.priority, Some(1000));
    assert_eq!(pending.spec.preemption_policy.as_deref(), Some("Never"));
    assert_eq!(pending.status.phase.as_deref(), Some("Pending"));
    assert_eq!(pending.status.start_time, None);
    assert_eq!(
        pending.spec.containers[0].ports[0].host_port,
        Some(8080),
        "hostNetwork: hostPort = containerPort"
    );
    assert_eq!(pending.spec.containers[0].image_pull_policy.as_deref(), Some("Always"));
    let term = &pending
        .spec
        .affinity
        .as_ref()
        .unwrap()
        .pod_anti_affinity
        .as_ref()
        .unwrap()
        .required_during_scheduling_ignored_during_execution[0];
    let exprs = &term.label_selector.as_ref().unwrap().match_expressions;
    assert_eq!(exprs.len(), 1, "matchLabelKeys merged into the selector");
    assert_eq!(
        (exprs[0].key.as_str(), exprs[0].operator.as_str(), exprs[0].values.clone()),
        ("tier", "In", vec!["fe".to_string()])
    );

    // System classes always exist.
    assert_eq!(sc.cluster.priority_classes["system-node-critical"].value, 2_000_001_000);
    assert_eq!(sc.cluster.priority_classes["system-cluster-critical"].value, 2_000_000_000);
    assert_eq!(
        sc.cluster.priority_classes["high"].metadata.creation_timestamp,
        Some(Box::new(serde_json::json!("2025-01-01T00:00:03Z")))
    );

    // Namespaces: built-ins, referenced (team-a by a pod, team-b by a PDB); labelled.
    let names: Vec<&str> = sc.cluster.namespaces.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        vec!["default", "kube-node-lease", "kube-public", "kube-system", "team-a", "team-b"]
    );
    for ns in sc.cluster.namespaces.values() {
        assert_eq!(ns.metadata.labels.get("kubernetes.io/metadata.name"), Some(&ns.metadata.name));
    }

    // Volumes: the named PV is bound to the claim; the other is Available.
    let pv1 = &sc.cluster.pvs["pv-1"];
    assert_eq!(pv1.status.phase.as_deref(), Some("Bound"));
    assert_eq!(pv1.spec.claim_ref.as_ref().and_then(|r| r.name.as_deref()), Some("data"));
    assert_eq!(pv1.spec.persistent_volume_reclaim_policy.as_deref(), Some("Retain"));
    assert_eq!(sc.cluster.pvs["pv-2"].status.phase.as_deref(), Some("Available"));
    let pvc = &sc.cluster.pvcs["default/data"];
    assert_eq!(pvc.status.phase.as_deref(), Some("Bound"));
    assert_eq!(
        pvc.metadata.annotations.get("pv.kubernetes.io/bind-completed").map(String::as_str),
        Some("yes")
    );
    assert_eq!(pvc.status.capacity.get("storage"), pv1.spec.capacity.get("storage"));
    assert_eq!(pvc.metadata.uid.as_deref(), Some("uid-persistentvolumeclaim-default-data"));
    assert_eq!(sc.cluster.pdbs[0].metadata.namespace.as_deref(), Some("team-b"));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn no_global_default_means_priority_zero() {
    let sc = load(&pod("p", C));
    assert_eq!(sc.pods[0].spec.priority, Some(0));
    assert_eq!(sc.pods[0].spec.preemption_policy.as_deref(), Some("PreemptLowerPriority"));
    assert_eq!(sc.documents, 1);
    // Without any class, what the pod says is kept.
    let sc = load(&pod("p", &format!("{C}  priority: 500\n  preemptionPolicy: Never\n")));
    assert_eq!(sc.pods[0].spec.priority, Some(500));
    assert_eq!(sc.pods[0].spec.preemption_policy.as_deref(), Some("Never"));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn typed_lists_and_json() {
    // A PodList as the API returns it: items without kind/apiVersion.
    let sc = load("apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: a}\n  spec: {containers: [{name: c, image: i}]}\n");
    assert_eq!(sc.pods.len(), 1);
    let sc = load(r#"{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}]}"#);
    assert_eq!(sc.nodes.len(), 1);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn config_is_decoded_and_not_counted() {
    let text = format!(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n---\n{}",
        pod("p", C)
    );
    let sc = load(&text);
    assert!(sc.has_config);
    assert_eq!(sc.pod_docs, vec![0]);
    let twice = format!("{text}---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
    let e = errors(&twice);
    assert!(e.to_string().contains("at most one KubeSchedulerConfiguration"), "{e}");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn non_utf8_is_refused_with_its_position() {
    let e = load_bytes(b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: \xff\xfe\n", "f.yaml").unwrap_err();
    assert_eq!((e.errors[0].line, e.errors[0].column), (4, 9));
    assert!(e.to_string().contains("invalid UTF-8"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Hostile and mangled input

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Loads, and when the scenario loads, schedules it to the end; a panic fails the test.
fn exercise(text: &str) {
    if let Ok(sc) = load_str(text, "fuzz.yaml") {
        let mut e = crate::Engine::new(
            sc,
            crate::EngineOptions {
                seed: 1,
                detail: crate::trace::Detail::None,
            },
        );
        e.run();
    }
}

/// Hostile input must be refused (with an error, not a crash or an answer). A hang shows as
/// the test never finishing; how long a refusal takes is the benchmark's business, not a test's.
fn refused(what: &str, text: &str) {
    let r = load_str(text, "h.yaml");
    let errs = r.err().unwrap_or_else(|| panic!("{what}: hostile input was accepted"));
    assert!(!errs.to_string().is_empty(), "{what}: refused without a reason");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn hostile_inputs_fail_fast() {
    // Billion laughs.
    let mut bomb = String::from("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..10u8 {
        let (p, n) = ((b'a' + i - 1) as char, (b'a' + i) as char);
        bomb.push_str(&format!("    {n}: &{n} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"));
    }
    refused("alias bomb", &bomb);
    // Deep nesting, flow and block.
    refused("deep flow", &format!("a: {}", "[".repeat(1_000_000)));
    refused("deep flow maps", &format!("a: {}", "{a: ".repeat(200_000)));
    let block: String = (0..5_000).map(|i| format!("{}- \n", " ".repeat(i))).collect();
    refused("deep block", &block);
    // Huge values.
    let big = "9".repeat(1_000_000);
    refused("huge number", &pod("p", &format!("  priority: {big}\n{C}")));
    refused(
        "huge quantity",
        &pod(
            "p",
            &format!("  containers:\n  - name: c\n    image: i\n    resources: {{requests: {{cpu: '{big}'}}}}\n"),
        ),
    );
    refused(
        "huge exponent",
        &pod(
            "p",
            "  containers:\n  - name: c\n    image: i\n    resources: {requests: {cpu: 1e999999999999}}\n",
        ),
    );
    let long = "a".repeat(5_000_000);
    refused("huge name", &pod(&long, C));
    refused(
        "huge label",
        &format!("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels: {{k: {long}}}\n"),
    );
    refused("many annotations", &{
        let mut s = String::from("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  annotations:\n");
        for i in 0..40_000 {
            s.push_str(&format!("    k{i}: '{}'\n", "v".repeat(10)));
        }
        s
    });
    // NUL bytes and control characters.
    refused("nul", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"a\\0b\"\n\0\0\0");
    refused("controls", "\u{1}\u{2}\u{7f}: [\u{0}]");
    refused("too large", &" ".repeat(MAX_INPUT_BYTES + 1));
    // Many small errors: capped.
    let many: String = (0..5_000)
        .map(|i| format!("---\napiVersion: v1\nkind: Foo\nmetadata: {{name: f{i}}}\n"))
        .collect();
    let e = load_str(&many, "m.yaml").unwrap_err();
    assert_eq!(e.errors.len(), MAX_ERRORS + 1);
}

const CORPUS: &[&str] = &[
    include_str!("../../../../tests/conformance/scenarios/preemption-victims-several-priorities.yaml"),
    include_str!("../../../../tests/conformance/scenarios/spread-default-constraints-list.yaml"),
    include_str!("../../../../tests/conformance/scenarios/volume-zone-and-rwop.yaml"),
    include_str!("../../../../tests/conformance/scenarios/interpod-affinity-zone-required.yaml"),
    include_str!("../../../../tests/conformance/scenarios/queue-scheduling-gates.yaml"),
    include_str!("../../../../tests/conformance/scenarios/nodeports-hostport-conflicts.yaml"),
    include_str!("../../../../tests/conformance/scenarios/preemption-pdb-steers-node.yaml"),
];

/// Pieces that change YAML structure or Kubernetes meaning when dropped in.
const TOKENS: &[&str] = &[
    ":",
    "- ",
    "\n",
    "  ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "&x ",
    "*x",
    "!!str ",
    "!!int ",
    "'",
    "\"",
    "#",
    "|\n",
    ">\n",
    "\t",
    "---\n",
    "<<: ",
    "~",
    "null",
    "yes",
    "0x",
    "1e9",
    "-1",
    "999999999999",
    "0",
    ".5",
    "Gi",
    "m",
    "\0",
    "\u{fffd}",
    "é",
    "%",
    "@",
    "`",
    "key: value\n",
    "nodeName: node-a\n",
    "priorityClassName: p\n",
    "operator: In\n",
    "effect: NoSchedule\n",
    "maxSkew: 0\n",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(s.len() + 1);
        match rng.below(5) {
            0 => {
                // Delete a run.
                let end = (at + 1 + rng.below(20)).min(s.len());
                s.drain(at.min(end)..end);
            }
            1 => {
                // Duplicate a run.
                let end = (at + 1 + rng.below(200)).min(s.len());
                let piece: Vec<char> = s[at.min(end)..end].to_vec();
                let to = rng.below(s.len() + 1);
                s.splice(to..to, piece);
            }
            2 => {
                // Replace one character with a random byte's character.
                if at < s.len() {
                    s[at] = (rng.below(128) as u8) as char;
                }
            }
            _ => {
                let tok: Vec<char> = rng.pick(TOKENS).chars().collect();
                s.splice(at..at, tok);
            }
        }
    }
    s.into_iter().collect()
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn mutated_corpus_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..400 {
        let base = CORPUS[round % CORPUS.len()];
        let text = mutate(&mut rng, base);
        exercise(&text);
    }
    // Byte-level mutations, through the bytes entry point (non-UTF-8 included).
    for round in 0..300 {
        let mut b = CORPUS[round % CORPUS.len()].as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(b.len());
            b[at] = rng.next() as u8;
        }
        if let Ok(sc) = load_bytes(&b, "fuzz.yaml") {
            let mut e = crate::Engine::new(
                sc,
                crate::EngineOptions {
                    seed: 2,
                    detail: crate::trace::Detail::None,
                },
            );
            e.run();
        }
    }
}

/// Random YAML built from Kubernetes-ish fields: exercises decoding and validation paths.
fn random_value(rng: &mut Rng, depth: usize, out: &mut String, indent: usize) {
    const KEYS: &[&str] = &[
        "name",
        "namespace",
        "labels",
        "spec",
        "containers",
        "image",
        "resources",
        "requests",
        "limits",
        "cpu",
        "memory",
        "nodeName",
        "tolerations",
        "key",
        "operator",
        "value",
        "effect",
        "affinity",
        "nodeAffinity",
        "podAffinity",
        "topologySpreadConstraints",
        "maxSkew",
        "topologyKey",
        "whenUnsatisfiable",
        "minDomains",
        "labelSelector",
        "matchLabels",
        "matchExpressions",
        "values",
        "ports",
        "containerPort",
        "hostPort",
        "protocol",
        "priority",
        "priorityClassName",
        "schedulingGates",
        "capacity",
        "allocatable",
        "taints",
        "status",
        "phase",
        "x",
    ];
    const SCALARS: &[&str] = &[
        "a",
        "web",
        "''",
        "0",
        "1",
        "-3",
        "100m",
        "1Gi",
        "1e3",
        "true",
        "no",
        "~",
        "In",
        "Exists",
        "NoSchedule",
        "DoNotSchedule",
        "TCP",
        "kubernetes.io/hostname",
        "[]",
        "{}",
        "\"\"",
        "99999999999999999999",
        "Bad Value",
        "a/b/c",
    ];
    let pad = " ".repeat(indent);
    match if depth > 5 { 2 } else { rng.below(3) } {
        0 => {
            for _ in 0..1 + rng.below(4) {
                out.push_str(&format!("\n{pad}{}:", rng.pick(KEYS)));
                random_value(rng, depth + 1, out, indent + 2);
            }
        }
        1 => {
            for _ in 0..1 + rng.below(3) {
                out.push_str(&format!("\n{pad}-"));
                random_value(rng, depth + 1, out, indent + 2);
            }
        }
        _ => {
            out.push(' ');
            let s: &str = SCALARS[rng.below(SCALARS.len())];
            out.push_str(s);
        }
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn random_objects_never_panic() {
    let mut rng = Rng(42);
    let kinds = [
        ("v1", "Pod"),
        ("v1", "Node"),
        ("v1", "Namespace"),
        ("v1", "PersistentVolume"),
        ("v1", "PersistentVolumeClaim"),
        ("scheduling.k8s.io/v1", "PriorityClass"),
        ("storage.k8s.io/v1", "StorageClass"),
        ("storage.k8s.io/v1", "CSINode"),
        ("policy/v1", "PodDisruptionBudget"),
        ("v1", "List"),
    ];
    for _ in 0..400 {
        let mut text = String::new();
        for _ in 0..1 + rng.below(3) {
            let (av, k) = rng.pick(&kinds);
            text.push_str(&format!("---\napiVersion: {av}\nkind: {k}\nmetadata:\n  name: o{}", rng.below(3)));
            let mut body = String::new();
            random_value(&mut rng, 1, &mut body, 2);
            text.push_str(&format!("\nspec:{body}\n"));
        }
        exercise(&text);
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn crlf_and_bom_read_the_same() {
    for base in CORPUS {
        let crlf = format!("\u{feff}{}", base.replace('\n', "\r\n"));
        let (a, b) = (load(base), load(&crlf));
        assert_eq!(a.pods, b.pods);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.documents, b.documents);
    }
    // Positions stay right with CRLF.
    let e = errors(&pod("web", &format!("  foo: 1\n{C}")).replace('\n', "\r\n"));
    assert_eq!((e.errors[0].line, e.errors[0].column), (6, 3));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pod_level_resources() {
    let sc = load(&pod(
        "p",
        "  resources:\n    limits: {cpu: '2', memory: 2Gi}\n  containers:\n  - name: a\n    image: i\n    resources: {requests: {cpu: 500m}}\n",
    ));
    let r = sc.pods[0].spec.resources.as_ref().unwrap();
    assert_eq!(
        r.requests["cpu"],
        crate::quantity::Quantity::parse("500m").unwrap(),
        "from the containers"
    );
    assert_eq!(
        r.requests["memory"],
        crate::quantity::Quantity::parse("2Gi").unwrap(),
        "from the pod limit"
    );
    let e = errors(&pod(
        "p",
        "  resources:\n    requests: {cpu: 100m, nvidia.com/gpu: 1}\n  containers:\n  - name: a\n    image: i\n    resources: {requests: {cpu: 500m}}\n",
    ));
    let shown = e.to_string();
    assert!(
        shown.contains(
            "spec.resources.requests[cpu]: Invalid value: \"100m\": must be greater than or equal to aggregate container requests of 500m"
        ),
        "{shown}"
    );
    assert!(shown.contains("spec.resources.requests[nvidia.com/gpu]: Unsupported value: \"nvidia.com/gpu\": supported values: \"cpu\", \"hugepages-\", \"memory\""), "{shown}");
    assert!(shown.contains("Limit must be set for non overcommitable resources"), "{shown}");
    assert_eq!(e.errors.len(), 3, "{shown}");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn extended_resources_need_equal_limits() {
    let e = errors(&pod(
        "p",
        "  containers:\n  - name: a\n    image: i\n    resources: {requests: {example.com/foo: 2}}\n",
    ));
    assert!(
        e.to_string()
            .contains("spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"),
        "{e}"
    );
    let e = errors(&pod(
        "p",
        "  containers:\n  - name: a\n    image: i\n    resources: {requests: {example.com/foo: 500m}, limits: {example.com/foo: 500m}}\n",
    ));
    assert!(e.to_string().contains("must be an integer"), "{e}");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn huge_keys_make_short_messages() {
    let key = "k".repeat(1_000_000);
    let e = errors(&pod("p", &format!("  {key}: 1\n{C}")));
    assert!(e.to_string().len() < 2_000, "{}", e.to_string().len());
    let e = errors(&format!("{key}: 1\n{key}: 2\n"));
    assert!(e.to_string().len() < 2_000, "{}", e.to_string().len());
}

const TPL: &str = "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: nginx}]\n";

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn workload_defaults_and_identities() {
    let sc = load(&format!(
        "apiVersion: v1\nkind: Service\nmetadata: {{name: web}}\nspec:\n  selector: {{app: web}}\n  ports: [{{port: 80}}]\n---
apiVersion: v1\nkind: Service\nmetadata: {{name: ext}}\nspec:\n  ports: [{{port: 5432}}]\n---
apiVersion: v1\nkind: ReplicationController\nmetadata: {{name: rc, namespace: team}}\nspec:\n{TPL}---
apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: rs}}\nspec:\n  selector: {{matchLabels: {{app: web}}}}\n{TPL}---
apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: ss}}\nspec:\n  selector: {{matchLabels: {{app: web}}}}\n{TPL}---
apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: rs, controller: true}}]\nspec:\n{C}"
    ));
    let w = &sc.cluster.workloads;
    let svc = &w.services[0];
    assert_eq!(svc.metadata.uid.as_deref(), Some("uid-service-default-web"));
    assert_eq!(svc.spec.type_.as_deref(), Some("ClusterIP"));
    assert_eq!(svc.spec.ports[0].protocol.as_deref(), Some("TCP"));
    assert_eq!(w.services[1].spec.selector, None, "a Service without a selector selects nothing");
    let rc = &w.replication_controllers[0];
    assert_eq!(rc.metadata.uid.as_deref(), Some("uid-replicationcontroller-team-rc"));
    assert_eq!(rc.spec.replicas, Some(1));
    assert_eq!(rc.spec.selector.get("app").map(String::as_str), Some("web"));
    assert_eq!(rc.metadata.labels.get("app").map(String::as_str), Some("web"));
    let tpl = &rc.spec.template.as_ref().unwrap().spec;
    assert_eq!(tpl.restart_policy.as_deref(), Some("Always"));
    assert_eq!(tpl.termination_grace_period_seconds, Some(30));
    assert_eq!(w.replica_sets[0].spec.replicas, Some(1));
    assert_eq!(w.replica_sets[0].metadata.uid.as_deref(), Some("uid-replicaset-default-rs"));
    assert_eq!(w.stateful_sets[0].spec.replicas, Some(1));
    assert_eq!(w.stateful_sets[0].spec.pod_management_policy.as_deref(), Some("OrderedReady"));
    assert!(sc.cluster.namespaces.contains_key("team"));
    // An ownerReference without a uid gets the owner's under the UID scheme.
    assert_eq!(sc.pods[0].metadata.owner_references[0].uid, "uid-replicaset-default-rs");
    // Objects of a typed list take the list's kind.
    let sc = load("apiVersion: apps/v1\nkind: ReplicaSetList\nitems:\n- metadata: {name: a}\n  spec:\n    selector: {matchLabels: {app: web}}\n    template:\n      metadata: {labels: {app: web}}\n      spec:\n        containers: [{name: c, image: nginx}]\n");
    assert_eq!(sc.cluster.workloads.replica_sets[0].kind, "ReplicaSet");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn workload_validation() {
    let rs = |spec: &str| format!("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: rs}}\nspec:\n{spec}");
    // (case, input, expected fields and texts)
    type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);
    let cases: Vec<Case> = vec![
        ("missing selector", rs(TPL), vec![("spec.selector", "spec.selector: Required value")]),
        (
            "empty selector",
            rs(&format!("  selector: {{}}\n{TPL}")),
            vec![("spec.selector", "empty selector is invalid for deployment")],
        ),
        (
            "selector must select the template",
            rs(&format!("  selector: {{matchLabels: {{app: other}}}}\n{TPL}")),
            vec![(
                "spec.template.metadata.labels",
                "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`",
            )],
        ),
        (
            "negative replicas",
            rs(&format!("  replicas: -1\n  selector: {{matchLabels: {{app: web}}}}\n{TPL}")),
            vec![("spec.replicas", "spec.replicas: Invalid value: -1: must be greater than or equal to 0")],
        ),
        (
            "restart policy",
            rs("  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: nginx}]\n"),
            vec![("spec.template.spec.restartPolicy", "Unsupported value: \"Never\": supported values: \"Always\"")],
        ),
        (
            "unknown field",
            rs(&format!("  replica: 2\n{TPL}")),
            vec![("spec.replica", "ReplicaSet in version \"v1\" cannot be handled as a ReplicaSet: strict decoding error: unknown field \"spec.replica\"")],
        ),
        (
            "service type",
            "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  type: Magic\n  ports: [{port: 80}]\n".to_string(),
            vec![("spec.type", "Unsupported value: \"Magic\"")],
        ),
        (
            "job restart policy",
            "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n      restartPolicy: Always\n      containers: [{name: c, image: nginx}]\n".to_string(),
            vec![("spec.template.spec.restartPolicy", "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\"")],
        ),
    ];
    for (name, text, want) in cases {
        let got = errors(&text);
        let shown = got.to_string();
        assert_eq!(got.errors.len(), want.len(), "{name}: {shown}");
        for (e, (field, msg)) in got.errors.iter().zip(&want) {
            assert_eq!(e.field.as_deref().unwrap_or(""), *field, "{name}: {shown}");
            assert!(e.to_string().contains(msg), "{name}: {shown}");
        }
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pdb_v1beta1_is_stored_as_v1() {
    let sc = load(
        "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: a}\nspec:\n  minAvailable: 1\n  selector: {}\n---
apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: web}}\n",
    );
    let (a, b) = (&sc.cluster.pdbs[0], &sc.cluster.pdbs[1]);
    assert_eq!(a.api_version, "policy/v1");
    let labels = crate::api::Labels::from([("app".to_string(), "web".to_string())]);
    let sel = |p: &crate::api::PodDisruptionBudget| crate::labels::Selector::from_label_selector(p.spec.selector.as_ref()).unwrap();
    assert!(!sel(a).matches(&labels), "an empty v1beta1 selector matches no pod");
    assert!(sel(b).matches(&labels));
}

/// An error as placed: line, column, reason, text.
type Placed = (usize, usize, ErrorReason, String);

/// Configuration errors are placed at their field: the key of a field that should not be there
/// or lacks a value, the value of a wrong one, the deepest node on the path when the field was
/// left out (defaulted).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn config_errors_are_placed_at_their_field() {
    const HEAD: &str = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
    let init = "KubeSchedulerConfiguration: initializing profiles: creating profile for scheduler name default-scheduler: ";
    // (what, the document after its first two lines, expected (line, column, reason, text)).
    let cases: Vec<(&str, &str, Vec<Placed>)> = vec![
        (
            "unknown top-level field",
            "parallelism: 8\nfoo: 1\n",
            vec![(4, 1, ErrorReason::Decode, "KubeSchedulerConfiguration: strict decoding error: unknown field \"foo\"".into())],
        ),
        (
            "unknown field inside a profile",
            "profiles:\n- schedulerName: a\n  wieght: 2\n",
            vec![(
                5,
                3,
                ErrorReason::Decode,
                "KubeSchedulerConfiguration: strict decoding error: unknown field \"profiles[0].wieght\"".into(),
            )],
        ),
        (
            "unknown field inside plugin args",
            "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        typo: 1\n",
            vec![(
                8,
                9,
                ErrorReason::Decode,
                "KubeSchedulerConfiguration: strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin NodeResourcesFit: strict decoding error: unknown field \"scoringStrategy.typo\"".into(),
            )],
        ),
        (
            "bad plugin name in plugins.filter.enabled[2]",
            "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: NodeName\n      - name: NodePorts\n      - name: Foo\n",
            vec![(9, 15, ErrorReason::Rejected, format!("{init}FilterPlugin \"Foo\" does not exist"))],
        ),
        (
            "bad plugin name in multiPoint",
            "profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: NodeName\n      - name: Foo\n",
            vec![(8, 15, ErrorReason::Rejected, format!("{init}PreFilterPlugin \"Foo\" does not exist"))],
        ),
        (
            "invalid args value",
            "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n      hardPodAffinityWeight: 101\n",
            vec![(
                7,
                30,
                ErrorReason::Rejected,
                "KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]".into(),
            )],
        ),
        (
            "NodeResourcesFit refusing its args when built",
            "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: Fancy\n",
            vec![(
                8,
                15,
                ErrorReason::Rejected,
                format!("{init}initializing plugin \"NodeResourcesFit\": scoringStrategy.type: Unsupported value: \"Fancy\": supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\""),
            )],
        ),
        (
            "wrong type",
            "parallelism: many\n",
            vec![(
                3,
                14,
                ErrorReason::Decode,
                "KubeSchedulerConfiguration: error decoding KubeSchedulerConfiguration: parallelism: invalid type: string \"many\", expected i32".into(),
            )],
        ),
        (
            "wrong type inside plugin args",
            "profiles:\n- pluginConfig:\n  - name: DynamicResources\n    args:\n      filterTimeout: 10\n",
            vec![(
                7,
                22,
                ErrorReason::Decode,
                "KubeSchedulerConfiguration: decoding .profiles[0].pluginConfig[0]: decoding args for plugin DynamicResources: json: cannot unmarshal number into Go value of type string".into(),
            )],
        ),
        (
            "an array for a struct (Go refuses it; serde_json's Value would fill the fields)",
            "leaderElection: [true]\n",
            vec![(
                3,
                17,
                ErrorReason::Decode,
                "KubeSchedulerConfiguration: error decoding KubeSchedulerConfiguration: leaderElection: invalid type: sequence, expected struct V1LeaderElection".into(),
            )],
        ),
        (
            "duplicate profile name",
            "profiles:\n- schedulerName: a\n- schedulerName: a\n",
            vec![(
                5,
                18,
                ErrorReason::Rejected,
                "KubeSchedulerConfiguration: profiles[1].schedulerName: Duplicate value: {}".into(),
            )],
        ),
        (
            "a defaulted field: the deepest node on its path",
            "leaderElection:\n  renewDeadline: 20s\n",
            vec![(
                3,
                1,
                ErrorReason::Rejected,
                "KubeSchedulerConfiguration: leaderElection.leaseDuration: Invalid value: \"20s\": LeaseDuration must be greater than RenewDeadline".into(),
            )],
        ),
        (
            "several errors, each at its own field",
            "foo: 1\nprofiles:\n- schedulerName: a\n  bar: 2\n",
            vec![
                (3, 1, ErrorReason::Decode, "KubeSchedulerConfiguration: strict decoding error: unknown field \"foo\"".into()),
                (
                    6,
                    3,
                    ErrorReason::Decode,
                    "KubeSchedulerConfiguration: strict decoding error: unknown field \"profiles[0].bar\"".into(),
                ),
            ],
        ),
    ];
    for (what, body, want) in cases {
        let e = errors(&format!("{HEAD}{body}"));
        let got: Vec<Placed> = e.errors.iter().map(|e| (e.line, e.column, e.reason, e.to_string())).collect();
        assert_eq!(got, want, "{what}");
        for x in &e.errors {
            assert_eq!(x.object.as_deref(), Some("KubeSchedulerConfiguration"), "{what}");
        }
    }
    // The document line the CLI prints.
    let e = errors(&format!("{HEAD}parallelism: 8\nfoo: 1\n"));
    assert_eq!(
        e.to_string(),
        "error: f.yaml:4:1: KubeSchedulerConfiguration: strict decoding error: unknown field \"foo\""
    );
    assert_eq!(e.errors[0].field.as_deref(), Some("foo"));
}

/// JSON has no infinities or NaN: a document holding one is refused at it, as kubectl's
/// YAML-to-JSON conversion refuses it.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn non_finite_numbers_are_refused() {
    let e = errors(&format!("{NODE}---\n{}", pod("p", &format!("  priority: .inf\n{C}"))));
    let got: Vec<(usize, usize, &str)> = e.errors.iter().map(|e| (e.line, e.column, e.message.as_str())).collect();
    assert_eq!(got, [(16, 13, "error converting YAML to JSON: json: unsupported value: +Inf")]);
}

/// An array where an object is expected is refused, as Go's decoder refuses it (serde_json's
/// `Value` would fill the struct's fields in order).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn an_array_is_not_an_object() {
    let e = errors("apiVersion: v1\nkind: Pod\nmetadata: [a, b]\nspec:\n  containers: [{name: a, image: b}]\n");
    assert_eq!(
        e.to_string(),
        "error: f.yaml:3:1: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field metadata of type object"
    );
}
