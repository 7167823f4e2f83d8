//! The cluster view's actions as timeline steps. An action (cordon a node, delete a pod, lift a
//! gate, …) becomes one or more steps of plain block-style YAML, put into the scenario's
//! Timeline document at the playhead's logical time, in `at` order, without touching the rest
//! of the user's text. Text handling only: the engine reads and validates the steps.

use crate::scenario::Parts;
pub use crate::timeline_text::{insert_steps, step_lines, StepLine, TIMELINE_HEADER};
use schedlab_view::words::{ObjectRef, Taint, TaintEffect};
use schedlab_view::yaml::to_yaml_in_order as to_yaml;
use serde_json::{json, Map, Value};

// ---------------------------------------------------------------------------------------------
// Actions.

/// A taint the user typed (`key=value:Effect` or `key:Effect`, as kubectl writes one). The
/// node's own taints come from the engine as data (`NodeLive::taints`) and are never read back
/// from text.
pub fn parse_taint(s: &str) -> Option<Taint> {
    let (kv, effect) = s.trim().rsplit_once(':')?;
    let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
    let effect = TaintEffect::from_api(effect.trim())?;
    if key.trim().is_empty() {
        return None;
    }
    Some(Taint {
        key: key.trim().to_string(),
        value: value.trim().to_string(),
        effect,
    })
}

/// A taint as a Node's `spec.taints` writes it.
fn taint_json(t: &Taint) -> Value {
    let mut m = Map::new();
    m.insert("key".into(), json!(t.key));
    if !t.value.is_empty() {
        m.insert("value".into(), json!(t.value));
    }
    m.insert("effect".into(), json!(t.effect.as_str()));
    Value::Object(m)
}

/// Something the user does to the cluster at the playhead.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    DeleteNode(String),
    /// Cordon (true) or uncordon (false).
    Cordon(String, bool),
    /// Cordon, then delete these pods (namespace, name): `kubectl drain` without the pods it
    /// leaves (DaemonSet pods).
    Drain(String, Vec<(String, String)>),
    /// The node's whole new list of taints (a merge patch replaces a list whole).
    SetTaints(String, Vec<Taint>),
    /// Add or change (Some) or remove (None) a label.
    Label(String, String, Option<String>),
    /// Create this object (a copy of a node).
    Create(Value),
    DeletePod(String, String),
    /// The gates a pod keeps (none: all lifted).
    SetGates(String, String, Vec<String>),
    /// kind, namespace, name, replicas.
    Scale(String, String, String, i64),
}

fn target(kind: &str, namespace: &str, name: &str) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), json!(kind));
    if kind != "Node" && namespace != "default" && !namespace.is_empty() {
        m.insert("namespace".into(), json!(namespace));
    }
    m.insert("name".into(), json!(name));
    Value::Object(m)
}

fn step(at: &str, verb: &str, body: Value, merge: Option<Value>) -> Value {
    let mut m = Map::new();
    m.insert("at".into(), json!(at));
    m.insert(verb.into(), body);
    if let Some(p) = merge {
        m.insert("merge".into(), p);
    }
    Value::Object(m)
}

impl Action {
    /// The steps, at `at` (a Go duration), as `- at: …` items.
    pub fn steps(&self, at: &str) -> String {
        let node_patch = |n: &str, merge: Value| step(at, "patch", target("Node", "", n), Some(merge));
        let items: Vec<Value> = match self {
            Action::DeleteNode(n) => vec![step(at, "delete", target("Node", "", n), None)],
            Action::Cordon(n, on) => vec![node_patch(n, json!({"spec": {"unschedulable": on}}))],
            Action::Drain(n, pods) => {
                let mut v = vec![node_patch(n, json!({"spec": {"unschedulable": true}}))];
                v.extend(pods.iter().map(|(ns, p)| step(at, "delete", target("Pod", ns, p), None)));
                v
            }
            Action::SetTaints(n, taints) => {
                let list = if taints.is_empty() {
                    Value::Null
                } else {
                    Value::Array(taints.iter().map(taint_json).collect())
                };
                vec![node_patch(n, json!({"spec": {"taints": list}}))]
            }
            Action::Label(n, k, v) => {
                let mut labels = Map::new();
                labels.insert(k.clone(), v.as_ref().map(|v| json!(v)).unwrap_or(Value::Null));
                vec![node_patch(n, json!({"metadata": {"labels": labels}}))]
            }
            Action::Create(obj) => vec![step(at, "create", obj.clone(), None)],
            Action::DeletePod(ns, p) => vec![step(at, "delete", target("Pod", ns, p), None)],
            Action::SetGates(ns, p, keep) => {
                let gates = if keep.is_empty() {
                    Value::Null
                } else {
                    Value::Array(keep.iter().map(|g| json!({"name": g})).collect())
                };
                vec![step(
                    at,
                    "patch",
                    target("Pod", ns, p),
                    Some(json!({"spec": {"schedulingGates": gates}})),
                )]
            }
            Action::Scale(kind, ns, name, replicas) => {
                vec![step(
                    at,
                    "patch",
                    target(kind, ns, name),
                    Some(json!({"spec": {"replicas": replicas}})),
                )]
            }
        };
        to_yaml(&Value::Array(items))
    }

    /// What the action does, for a message.
    pub fn describe(&self) -> String {
        match self {
            Action::DeleteNode(n) => format!("delete node {n}"),
            Action::Cordon(n, true) => format!("cordon {n}"),
            Action::Cordon(n, false) => format!("uncordon {n}"),
            Action::Drain(n, pods) => format!("drain {n} ({} deleted)", crate::fmt::count(pods.len(), "pod")),
            Action::SetTaints(n, _) => format!("change the taints of {n}"),
            Action::Label(n, k, Some(v)) => format!("label {n} {k}={v}"),
            Action::Label(n, k, None) => format!("remove label {k} from {n}"),
            Action::Create(o) => format!("create node {}", o["metadata"]["name"].as_str().unwrap_or("?")),
            Action::DeletePod(_, p) => format!("delete pod {p}"),
            Action::SetGates(_, p, keep) if keep.is_empty() => format!("lift the scheduling gates of {p}"),
            Action::SetGates(_, p, _) => format!("lift a scheduling gate of {p}"),
            Action::Scale(kind, _, name, r) => format!("scale {kind} {name} to {r}"),
        }
    }
}

/// Adds the action's steps at `at_ms` (logical milliseconds) to the scenario's Timeline.
pub fn apply(parts: &Parts, at_ms: i64, action: &Action) -> Result<String, String> {
    let at_ns = at_ms.saturating_mul(1_000_000);
    let at = schedlab_view::duration::format_go_duration(at_ns);
    insert_steps(&parts.timeline, at_ns, &action.steps(&at))
}

// ---------------------------------------------------------------------------------------------
// Reading the scenario's own objects (for a copy, or an owner).

/// The scenario's documents per part, parsed (as JSON) by the worker: the page has no YAML
/// parser (`Request::Documents`, `schedlab_core::view::documents`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Docs {
    pub nodes: Vec<Value>,
    pub pods: Vec<Value>,
    pub other: Vec<Value>,
    pub timeline: Vec<Value>,
}

impl Docs {
    /// The texts to ask the worker for, in the order `from_answer` takes them.
    pub fn texts(parts: &Parts) -> Vec<String> {
        vec![parts.nodes.clone(), parts.pods.clone(), parts.other.clone(), parts.timeline.clone()]
    }

    /// The worker's answer to a request for `texts`.
    pub fn from_answer(docs: Vec<Vec<Value>>) -> Docs {
        let mut it = docs.into_iter();
        Docs {
            nodes: it.next().unwrap_or_default(),
            pods: it.next().unwrap_or_default(),
            other: it.next().unwrap_or_default(),
            timeline: it.next().unwrap_or_default(),
        }
    }
}

/// An object of the scenario by kind and name: a document of the file, or one a timeline step
/// creates.
pub fn find_object(docs: &Docs, kind: &str, namespace: &str, name: &str) -> Option<Value> {
    let matches = |v: &Value| {
        v["kind"].as_str() == Some(kind)
            && v["metadata"]["name"].as_str() == Some(name)
            && (kind == "Node" || v["metadata"]["namespace"].as_str().unwrap_or("default") == namespace)
    };
    // Workloads sit in the Pods tab beside their pods; other kinds in Other.
    let found = match kind {
        "Node" => docs.nodes.iter().find(|v| matches(v)),
        "Pod" => docs.pods.iter().find(|v| matches(v)),
        _ => docs.pods.iter().chain(&docs.other).find(|v| matches(v)),
    };
    found.cloned().or_else(|| {
        docs.timeline
            .iter()
            .flat_map(|t| t["steps"].as_array().cloned().unwrap_or_default())
            .filter_map(|s| s.get("create").cloned())
            .find(matches)
    })
}

/// A copy of node `name` for "Add a node like this": named `<name>-copy` (or `-copy-2`, … when
/// taken by one of `taken` or anywhere in the scenario's text), its hostname label following
/// the name, without the identity fields the API sets.
pub fn copy_node(parts: &Parts, docs: &Docs, name: &str, taken: &[String]) -> Option<Value> {
    let mut obj = find_object(docs, "Node", "", name)?;
    let all = format!("{}\n{}", parts.nodes, parts.timeline);
    let used = |n: &str| {
        taken.iter().any(|t| t == n)
            || all.contains(&format!("name: {n}\n"))
            || all.contains(&format!("name: {n},"))
            || all.contains(&format!("name: {n}}}"))
    };
    let base = format!("{name}-copy");
    let new = std::iter::once(base.clone())
        .chain((2..).map(|i| format!("{base}-{i}")))
        .find(|n| !used(n))?;
    let meta = obj.get_mut("metadata")?.as_object_mut()?;
    meta.insert("name".into(), json!(new));
    for k in ["uid", "resourceVersion", "creationTimestamp"] {
        meta.remove(k);
    }
    if let Some(Value::Object(labels)) = meta.get_mut("labels") {
        if labels.contains_key("kubernetes.io/hostname") {
            labels.insert("kubernetes.io/hostname".into(), json!(new));
        }
    }
    Some(obj)
}

// ---------------------------------------------------------------------------------------------
// Drain, as `kubectl drain` decides it.

/// A pod on the node to drain, as the page knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrainPod {
    pub namespace: String,
    pub name: String,
    /// The controller that created it in the run, if one did.
    pub created_by: Option<ObjectRef>,
}

/// What draining does to one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrainFate {
    /// Evicted; its controller makes a replacement (`by`: `Kind name`).
    Replaced { by: String },
    /// Evicted, and nothing makes it again (why).
    Gone(String),
    /// Left on the node (why): a DaemonSet's pod, as `--ignore-daemonsets`.
    Ignored(String),
    /// Not evicted, and the drain stops at the cordon (why): a pod no controller owns, which
    /// kubectl drain deletes only with `--force`.
    Refused(String),
}

/// A drain before it happens: each pod of the node and its fate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrainPlan {
    pub node: String,
    pub force: bool,
    pub pods: Vec<(DrainPod, DrainFate)>,
}

/// Workload kinds whose controller (when the controllers are on) makes a deleted pod again.
const REPLACING: &[&str] = &["ReplicaSet", "ReplicationController", "StatefulSet", "Job"];

/// The pod's controlling owner (kind, name): the controller that created it in the run, or the
/// `controller: true` owner reference of its document.
fn controller_of(docs: &Docs, pod: &DrainPod) -> Option<(String, String)> {
    if let Some(by) = &pod.created_by {
        return Some((by.kind.as_str().to_string(), by.name.clone()));
    }
    let doc = find_object(docs, "Pod", &pod.namespace, &pod.name)?;
    doc["metadata"]["ownerReferences"]
        .as_array()?
        .iter()
        .find(|r| r["controller"] == true)
        .and_then(|r| Some((r["kind"].as_str()?.to_string(), r["name"].as_str()?.to_string())))
}

/// Decides each pod's fate as `kubectl drain --ignore-daemonsets` (plus `--force` when `force`)
/// would, and whether it comes back: DaemonSet pods stay; pods without a controller are refused
/// (deleted for good with force); the others are evicted, and come back only when the workload
/// controllers are on and their owner is a workload of the scenario that replaces pods.
pub fn drain_plan(docs: &Docs, node: &str, pods: &[DrainPod], controllers: bool, force: bool) -> DrainPlan {
    let fate = |p: &DrainPod| -> DrainFate {
        let Some((kind, name)) = controller_of(docs, p) else {
            return if force {
                DrainFate::Gone("no controller owns it: deleted for good (Force)".into())
            } else {
                DrainFate::Refused("no controller owns it".into())
            };
        };
        if kind == "DaemonSet" {
            return DrainFate::Ignored(format!("DaemonSet {name}"));
        }
        let in_scenario = p.created_by.is_some() || find_object(docs, &kind, &p.namespace, &name).is_some();
        if !REPLACING.contains(&kind.as_str()) {
            DrainFate::Gone(format!("its owner {kind} {name} is not a workload the simulator runs"))
        } else if !in_scenario {
            DrainFate::Gone(format!("its owner {kind} {name} is not in the scenario"))
        } else if !controllers {
            DrainFate::Gone("the workload controllers are off: nothing replaces it".into())
        } else {
            DrainFate::Replaced {
                by: format!("{kind} {name}"),
            }
        }
    };
    DrainPlan {
        node: node.to_string(),
        force,
        pods: pods.iter().map(|p| (p.clone(), fate(p))).collect(),
    }
}

impl DrainPlan {
    /// Whether some pod stops the drain (without force).
    pub fn refused(&self) -> bool {
        self.pods.iter().any(|(_, f)| matches!(f, DrainFate::Refused(_)))
    }

    /// The pods with this fate (by the fate's kind).
    pub fn with(&self, pick: fn(&DrainFate) -> bool) -> Vec<&(DrainPod, DrainFate)> {
        self.pods.iter().filter(|(_, f)| pick(f)).collect()
    }

    /// What to do: cordon, then delete every evicted pod; only the cordon when a pod refuses
    /// (kubectl drain cordons, then stops with an error).
    pub fn action(&self) -> Action {
        if self.refused() {
            return Action::Cordon(self.node.clone(), true);
        }
        Action::Drain(
            self.node.clone(),
            self.pods
                .iter()
                .filter(|(_, f)| matches!(f, DrainFate::Replaced { .. } | DrainFate::Gone(_)))
                .map(|(p, _)| (p.namespace.clone(), p.name.clone()))
                .collect(),
        )
    }
}

/// A workload a step may scale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// Its replicas at the given time: the file's, or the last scale step's at or before it.
    pub replicas: i64,
}

/// The scenario's Deployments, ReplicaSets and StatefulSets, with their replicas at `at_ms`.
pub fn workloads(docs: &Docs, at_ms: i64) -> Vec<Workload> {
    // Workloads sit in the Pods tab (older scenarios may hold them in Other).
    let mut out: Vec<Workload> = docs
        .pods
        .iter()
        .chain(&docs.other)
        .filter(|v| matches!(v["kind"].as_str(), Some("Deployment" | "ReplicaSet" | "StatefulSet")))
        .filter_map(|v| {
            Some(Workload {
                kind: v["kind"].as_str()?.to_string(),
                namespace: v["metadata"]["namespace"].as_str().unwrap_or("default").to_string(),
                name: v["metadata"]["name"].as_str()?.to_string(),
                replicas: v["spec"]["replicas"].as_i64().unwrap_or(1),
            })
        })
        .collect();
    let steps = docs
        .timeline
        .iter()
        .flat_map(|t| t["steps"].as_array().cloned().unwrap_or_default());
    for s in steps {
        let at = s["at"].as_str().and_then(|a| schedlab_view::duration::parse_go_duration(a).ok());
        let (Some(at), Some(r)) = (at, s["merge"]["spec"]["replicas"].as_i64()) else {
            continue;
        };
        if at / 1_000_000 > at_ms {
            continue;
        }
        let t = &s["patch"];
        let ns = t["namespace"].as_str().unwrap_or("default");
        if let Some(w) = out
            .iter_mut()
            .find(|w| Some(w.kind.as_str()) == t["kind"].as_str() && Some(w.name.as_str()) == t["name"].as_str() && w.namespace == ns)
        {
            w.replicas = r;
        }
    }
    out
}

/// The workload to scale for a pod: its controlling owner when that is a Deployment,
/// ReplicaSet or StatefulSet of the scenario, and a ReplicaSet's own Deployment when it has one
/// (scaling the ReplicaSet under a Deployment would be undone by it). `created_by` is the
/// controller that made the pod.
pub fn owner_workload(docs: &Docs, namespace: &str, pod: &str, created_by: Option<&ObjectRef>, at_ms: i64) -> Option<Workload> {
    let all = workloads(docs, at_ms);
    let controller = |v: &Value| -> Option<(String, String)> {
        v["metadata"]["ownerReferences"]
            .as_array()?
            .iter()
            .find(|r| r["controller"] == true)
            .and_then(|r| Some((r["kind"].as_str()?.to_string(), r["name"].as_str()?.to_string())))
    };
    let (mut kind, mut name) = match created_by {
        Some(by) => (by.kind.as_str().to_string(), by.name.clone()),
        None => controller(&find_object(docs, "Pod", namespace, pod)?)?,
    };
    if kind == "ReplicaSet" {
        match find_object(docs, "ReplicaSet", namespace, &name) {
            Some(rs) => {
                if let Some((k, n)) = controller(&rs).filter(|(k, _)| k == "Deployment") {
                    (kind, name) = (k, n);
                }
            }
            // Made by a Deployment's controller (not in the file): `<deployment>-<hash>`.
            None => {
                if let Some(d) = all
                    .iter()
                    .find(|w| w.kind == "Deployment" && w.namespace == namespace && name.strip_prefix(&format!("{}-", w.name)).is_some())
                {
                    (kind, name) = (d.kind.clone(), d.name.clone());
                }
            }
        }
    }
    all.into_iter()
        .find(|w| w.kind == kind && w.name == name && w.namespace == namespace)
}

/// One line per step for the scrubber's markers: `verb Kind/name`, in list order (from the
/// Timeline tab's documents; a step that does not read gets `step n`).
pub fn step_titles(timeline: &[Value]) -> Vec<String> {
    let steps: Vec<Value> = timeline
        .iter()
        .find(|d| d["kind"] == "Timeline")
        .and_then(|d| d["steps"].as_array().cloned())
        .unwrap_or_default();
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (verb, obj) = if let Some(c) = s.get("create") {
                ("create", c)
            } else if let Some(t) = s.get("delete") {
                ("delete", t)
            } else if let Some(t) = s.get("patch") {
                ("patch", t)
            } else {
                return format!("step {}", i + 1);
            };
            let name = obj.get("name").or_else(|| obj.get("metadata").and_then(|m| m.get("name")));
            format!(
                "{verb} {}/{}",
                obj["kind"].as_str().unwrap_or("?"),
                name.and_then(Value::as_str).unwrap_or("?")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{join, split};
    use schedlab_view::words::ObjectKind;

    const BASE: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n  labels:\n    kubernetes.io/hostname: node-1\nstatus:\n  capacity: {cpu: '4', memory: 8Gi, pods: '110'}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team}\nspec:\n  schedulingGates: [{name: a}, {name: b}]\n  containers: [{name: c, image: i}]\n";

    /// The documents as the worker parses them (`Request::Documents`).
    fn docs(parts: &Parts) -> Docs {
        Docs::from_answer(Docs::texts(parts).iter().map(|t| schedlab_core::view::documents(t)).collect())
    }

    fn loads(parts: &Parts) {
        let (text, _) = join(parts);
        schedlab_core::load_str(&text, "t").unwrap_or_else(|e| panic!("{e}\n{text}"));
    }

    /// What the user types reads as the taint kubectl would write; the node's own taints come
    /// as data and show as that same text.
    #[test]
    fn typed_taints_read_as_kubectl_writes_them() {
        let t = parse_taint(" dedicated = lab : NoSchedule ").unwrap();
        assert_eq!(
            (t.key.as_str(), t.value.as_str(), t.effect),
            ("dedicated", "lab", TaintEffect::NoSchedule)
        );
        assert_eq!(t.to_string(), "dedicated=lab:NoSchedule");
        let bare = parse_taint("gpu:NoExecute").unwrap();
        assert_eq!((bare.value.as_str(), bare.to_string()), ("", "gpu:NoExecute".to_string()));
        assert_eq!(parse_taint("gpu=1:Sometimes"), None);
        assert_eq!(parse_taint("=1:NoSchedule"), None);
        assert_eq!(parse_taint("no-effect"), None);
        assert_eq!(taint_json(&bare), json!({"key": "gpu", "effect": "NoExecute"}));
        assert_eq!(taint_json(&t), json!({"key": "dedicated", "value": "lab", "effect": "NoSchedule"}));
    }

    #[test]
    fn the_first_action_makes_the_timeline_and_each_action_loads() {
        let mut parts = split(BASE);
        let copy = copy_node(&parts, &docs(&parts), "node-1", &[]).unwrap();
        assert_eq!(copy["metadata"]["name"], "node-1-copy");
        assert_eq!(copy["metadata"]["labels"]["kubernetes.io/hostname"], "node-1-copy");
        let actions = [
            Action::Cordon("node-1".into(), true),
            Action::Create(copy),
            Action::SetTaints("node-1".into(), vec![parse_taint("dedicated=lab:NoSchedule").unwrap()]),
            Action::Label("node-1".into(), "disk".into(), Some("ssd".into())),
            Action::SetGates("team".into(), "p".into(), vec!["b".into()]),
            Action::SetGates("team".into(), "p".into(), vec![]),
            Action::SetTaints("node-1".into(), vec![]),
            Action::Label("node-1".into(), "disk".into(), None),
            Action::Cordon("node-1".into(), false),
            Action::DeletePod("team".into(), "p".into()),
            Action::DeleteNode("node-1".into()),
        ];
        for (i, a) in actions.iter().enumerate() {
            parts.timeline = apply(&parts, 1500 * i as i64, a).unwrap();
            loads(&parts);
        }
        assert!(parts.timeline.starts_with(TIMELINE_HEADER), "{}", parts.timeline);
        assert!(
            parts
                .timeline
                .contains("- at: 1.5s\n  create:\n    apiVersion: v1\n    kind: Node\n    metadata:\n      name: node-1-copy\n"),
            "{}",
            parts.timeline
        );
        assert!(
            parts
                .timeline
                .contains("- at: 0s\n  patch:\n    kind: Node\n    name: node-1\n  merge:\n    spec:\n      unschedulable: true\n"),
            "{}",
            parts.timeline
        );
        assert!(
            parts.timeline.contains(
                "  patch:\n    kind: Pod\n    namespace: team\n    name: p\n  merge:\n    spec:\n      schedulingGates:\n      - name: b\n"
            ),
            "{}",
            parts.timeline
        );
        assert!(
            parts.timeline.contains("      capacity:\n        cpu: \"4\"\n"),
            "{}",
            parts.timeline
        );
        assert_eq!(step_lines(&parts.timeline).len(), actions.len());
        assert_eq!(parts.doc_count(crate::scenario::Part::Timeline), actions.len());
        assert_eq!(step_titles(&docs(&parts).timeline)[1], "create Node/node-1-copy");
        // Drain: cordon, then one delete per pod, all at the same time.
        let mut parts = split(BASE);
        parts.timeline = apply(&parts, 60_000, &Action::Drain("node-1".into(), vec![("team".into(), "p".into())])).unwrap();
        loads(&parts);
        assert_eq!(step_titles(&docs(&parts).timeline), ["patch Node/node-1", "delete Pod/p"]);
        assert!(
            parts
                .timeline
                .contains("- at: 1m0s\n  delete:\n    kind: Pod\n    namespace: team\n    name: p\n"),
            "{}",
            parts.timeline
        );
    }

    #[test]
    fn steps_go_in_time_order_and_keep_the_users_text() {
        let tl = "# my plan\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n  - at: 1s   # first\n    delete: {kind: Pod, name: a}\n\n  # the big one\n  - at: 1m\n    delete: {kind: Pod, name: b}\n";
        let lines = step_lines(tl);
        assert_eq!(
            lines.iter().map(|s| s.at_ns).collect::<Vec<_>>(),
            [Some(1_000_000_000), Some(60_000_000_000)]
        );
        let item = "- at: 1s\n  delete:\n    kind: Pod\n    name: c\n";
        let out = insert_steps(tl, 1_000_000_000, item).unwrap();
        assert_eq!(
            out,
            "# my plan\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n  - at: 1s   # first\n    delete: {kind: Pod, name: a}\n  - at: 1s\n    delete:\n      kind: Pod\n      name: c\n\n  # the big one\n  - at: 1m\n    delete: {kind: Pod, name: b}\n"
        );
        // Later than every step: at the end.
        let out = insert_steps(tl, 90_000_000_000, item).unwrap();
        assert!(
            out.ends_with("name: b}\n  - at: 1s\n    delete:\n      kind: Pod\n      name: c\n"),
            "{out}"
        );
        // Earlier than every step: before the first.
        let out = insert_steps(tl, 0, item).unwrap();
        assert!(
            out.contains("steps:\n  - at: 1s\n    delete:\n      kind: Pod\n      name: c\n  - at: 1s   # first"),
            "{out}"
        );
        // An empty list, a flow list.
        let out = insert_steps("apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps: []\n", 0, item).unwrap();
        assert_eq!(out, format!("{TIMELINE_HEADER}{item}"));
        assert!(insert_steps("kind: Timeline\nsteps: [{at: 1s, delete: {kind: Pod, name: a}}]\n", 0, item).is_err());
        // `at` on a line of its own, steps at column 0, another key after the list.
        let tl2 = "kind: Timeline\nsteps:\n- delete: {kind: Pod, name: a}\n  at: 2s\napiVersion: schedlab.dev/v1alpha1\n";
        assert_eq!(step_lines(tl2)[0].at_ns, Some(2_000_000_000));
        let out = insert_steps(tl2, 3_000_000_000, item).unwrap();
        assert!(out.contains("  at: 2s\n- at: 1s\n  delete:"), "{out}");
    }

    #[test]
    fn yaml_quotes_what_would_read_as_something_else() {
        let v = json!({"a": "4", "b": "true", "c": "16Gi", "d": "", "e": "x: y", "f": [], "g": {}, "h": [["x"]], "i": 1});
        assert_eq!(
            to_yaml(&v),
            "a: \"4\"\nb: \"true\"\nc: 16Gi\nd: \"\"\ne: 'x: y'\nf: []\ng: {}\nh:\n- - x\ni: 1\n"
        );
    }

    /// The drain preset without its timeline, plus a pod no controller owns and one whose
    /// ReplicaSet is not in the scenario, both on node-a.
    fn drain_parts() -> Parts {
        let preset = crate::scenario::PRESETS.iter().find(|p| p.id == "drain").expect("drain preset");
        let extra = "\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: scratch}\nspec:\n  nodeName: node-a\n  containers: [{name: c, image: busybox}]\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: legacy-7c9f-x1\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: legacy-7c9f, controller: true}]\nspec:\n  nodeName: node-a\n  containers: [{name: c, image: busybox}]\n";
        let mut parts = split(&format!("{}{extra}", preset.text()));
        parts.timeline = String::new();
        parts
    }

    fn session(parts: &Parts, controllers: bool) -> schedlab_core::view::Session {
        let (text, _) = join(parts);
        let sc = schedlab_core::load_str(&text, "t").unwrap_or_else(|e| panic!("{e}\n{text}"));
        schedlab_core::view::Session::with_options(sc, schedlab_core::view::SessionOptions { seed: 1, controllers }, &mut |_| {})
    }

    /// The pods running on `node` at the end of the run, as the page hands them to the plan.
    fn pods_on(s: &mut schedlab_core::view::Session, node: &str) -> Vec<DrainPod> {
        let summary = s.summary();
        let frame = s.frame(summary.stops - 1, false);
        let i = summary.model.nodes.iter().position(|n| n.name == node).expect("node");
        frame.nodes[i]
            .pods
            .iter()
            .map(|&p| &summary.model.pods[p as usize])
            .map(|p| DrainPod {
                namespace: p.namespace.clone(),
                name: p.name.clone(),
                created_by: p.created_by.clone(),
            })
            .collect()
    }

    fn fate_word(f: &DrainFate) -> &'static str {
        match f {
            DrainFate::Replaced { .. } => "replaced",
            DrainFate::Gone(_) => "gone",
            DrainFate::Ignored(_) => "ignored",
            DrainFate::Refused(_) => "refused",
        }
    }

    #[test]
    fn drain_decides_as_kubectl_drain_and_says_what_comes_back() {
        // (controllers, force, the fate of each pod on node-a by name prefix)
        type Case<'a> = (bool, bool, &'a [(&'a str, &'a str)]);
        let cases: &[Case] = &[
            (
                true,
                false,
                &[
                    ("web-6d4cf56db6-a1", "replaced"),
                    ("web-6d4cf56db6-a2", "replaced"),
                    ("scratch", "refused"),
                    ("legacy-7c9f-x1", "gone"),
                    ("log-agent-", "ignored"),
                ],
            ),
            (
                true,
                true,
                &[
                    ("web-6d4cf56db6-a1", "replaced"),
                    ("web-6d4cf56db6-a2", "replaced"),
                    ("scratch", "gone"),
                    ("legacy-7c9f-x1", "gone"),
                    ("log-agent-", "ignored"),
                ],
            ),
            (
                false,
                true,
                &[
                    ("web-6d4cf56db6-a1", "gone"),
                    ("web-6d4cf56db6-a2", "gone"),
                    ("scratch", "gone"),
                    ("legacy-7c9f-x1", "gone"),
                ],
            ),
        ];
        for &(controllers, force, want) in cases {
            let what = format!("controllers {controllers}, force {force}");
            let mut parts = drain_parts();
            let mut before = session(&parts, controllers);
            let on_a = pods_on(&mut before, "node-a");
            let plan = drain_plan(&docs(&parts), "node-a", &on_a, controllers, force);
            let got: Vec<(String, &str)> = plan.pods.iter().map(|(p, f)| (p.name.clone(), fate_word(f))).collect();
            assert_eq!(got.len(), want.len(), "{what}: {got:?}");
            for (prefix, fate) in want {
                assert!(
                    got.iter().any(|(n, f)| n.starts_with(prefix) && f == fate),
                    "{what}: {prefix} should be {fate}: {got:?}"
                );
            }
            assert_eq!(plan.refused(), !force, "{what}");
            // The steps load, and the run does what the plan said.
            parts.timeline = apply(&parts, 30_000, &plan.action()).unwrap();
            loads(&parts);
            let mut after = session(&parts, controllers);
            let summary = after.summary();
            let still: Vec<String> = pods_on(&mut after, "node-a").into_iter().map(|p| p.name).collect();
            let mut replaced = 0;
            for (p, f) in &plan.pods {
                let evicted = matches!(f, DrainFate::Replaced { .. } | DrainFate::Gone(_)) && !plan.refused();
                assert_eq!(still.contains(&p.name), !evicted, "{what}: {} on node-a: {still:?}", p.name);
                replaced += usize::from(evicted && matches!(f, DrainFate::Replaced { .. }));
            }
            // Replacements: the ReplicaSet's new pods, made at the drain; none for the others.
            let new: Vec<String> = summary
                .model
                .pods
                .iter()
                .filter(|p| p.created_at_ms.is_some_and(|t| t >= 30_000))
                .map(|p| p.created_by.as_ref().map(ToString::to_string).unwrap_or_default())
                .collect();
            assert_eq!(new.len(), replaced, "{what}: {new:?}");
            assert!(new.iter().all(|c| *c == "ReplicaSet/web-6d4cf56db6"), "{what}: {new:?}");
            if plan.refused() {
                assert_eq!(plan.action(), Action::Cordon("node-a".into(), true));
            }
        }
    }

    #[test]
    fn workloads_scale_and_daemonset_pods() {
        let mut parts = split("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: a, image: i}]}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: agent\n  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, controller: true, uid: u}]\nspec: {containers: [{name: a, image: i}]}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n}\n");
        let pod = |name: &str, by: Option<&str>| DrainPod {
            namespace: "default".into(),
            name: name.into(),
            created_by: by.map(|b| {
                let (kind, name) = b.split_once('/').unwrap();
                ObjectRef::new(ObjectKind::from_api(kind), None, name)
            }),
        };
        let plan = drain_plan(
            &docs(&parts),
            "n",
            &[
                pod("agent", None),
                pod("x", Some("DaemonSet/log")),
                pod("y", Some("ReplicaSet/web-1")),
            ],
            true,
            false,
        );
        let fates: Vec<&str> = plan.pods.iter().map(|(_, f)| fate_word(f)).collect();
        assert_eq!(fates, ["ignored", "ignored", "replaced"]);
        assert_eq!(workloads(&docs(&parts), 0)[0].replicas, 4);
        parts.timeline = apply(&parts, 2000, &Action::Scale("Deployment".into(), "default".into(), "web".into(), 6)).unwrap();
        loads(&parts);
        assert_eq!(workloads(&docs(&parts), 1999)[0].replicas, 4);
        assert_eq!(workloads(&docs(&parts), 2000)[0].replicas, 6);
        assert!(
            parts.timeline.contains("merge:\n    spec:\n      replicas: 6\n"),
            "{}",
            parts.timeline
        );
        let w = owner_workload(
            &docs(&parts),
            "default",
            "x",
            Some(&ObjectRef::new(ObjectKind::ReplicaSet, None, "web-5f7c9")),
            2000,
        )
        .unwrap();
        assert_eq!((w.kind.as_str(), w.name.as_str(), w.replicas), ("Deployment", "web", 6));
        assert_eq!(owner_workload(&docs(&parts), "default", "agent", None, 0), None);
    }
}
