//! Reading and validating a Timeline document. Validation knows the file's objects and what
//! earlier steps did to them (never what the run will do): each step must be well formed, at a
//! time no earlier than the step before, and name an object that exists at that point; a
//! patch may only touch the fields the timeline allows. Every problem is reported with the
//! step's position; nothing runs when there is one.

use super::yaml::{Val, YNode};
use super::{ErrorReason, LoadError};
use crate::api;
use crate::timeline::{parse_go_duration, patch_node, patch_pod, patch_replicas, Change, Object, Step, Target, TargetKind, Timeline};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What the loader provides while a timeline is read.
pub(crate) trait Host {
    /// Decodes, defaults, validates and admits the object of a `create` (as a document numbered
    /// `doc`); reports its errors itself and returns `None` when it is refused.
    fn admit(&mut self, node: &YNode, doc: usize) -> Option<Object>;
    fn error(&mut self, e: LoadError);
}

/// The objects the file declares, as validation starts.
#[derive(Default)]
pub(crate) struct Known {
    pub nodes: BTreeMap<String, api::Node>,
    /// By `namespace/name`.
    pub pods: BTreeMap<String, api::Pod>,
    /// `Kind/name` or `Kind/namespace/name` of the file's objects of other kinds.
    pub others: BTreeSet<String>,
}

const STEP_FIELDS: [&str; 5] = ["at", "create", "delete", "patch", "merge"];
const TARGET_FIELDS: [&str; 3] = ["kind", "name", "namespace"];

struct Reader<'h> {
    host: &'h mut dyn Host,
    failed: bool,
}

impl Reader<'_> {
    fn err(&mut self, node: &YNode, field: String, reason: ErrorReason, message: String) {
        // No object name: the message reads `Timeline steps[2].at: ...`.
        let mut e = LoadError::at(node.pos.line, node.pos.column, message).with_reason(reason);
        e.field = Some(format!("Timeline {field}"));
        self.host.error(e);
        self.failed = true;
    }
}

fn json_of(n: &YNode) -> Value {
    // Unlike `YNode::to_value`, nulls are kept: in a merge patch they delete.
    match &n.val {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Int(i) => Value::from(*i),
        Val::UInt(u) => Value::from(*u),
        Val::Float(f) => serde_json::Number::from_f64(*f).map(Value::Number).unwrap_or(Value::Null),
        Val::Str(s) => Value::String(s.to_string()),
        Val::Seq(items) => Value::Array(items.iter().map(json_of).collect()),
        Val::Map(es) => Value::Object(es.iter().map(|e| (e.key.to_string(), json_of(&e.value))).collect()),
    }
}

/// Reads the Timeline document `doc`. `documents` is the number of objects in the file: a
/// step's created object is numbered `documents + step index`.
pub(crate) fn read(doc: &YNode, documents: usize, known: Known, host: &mut dyn Host) -> Option<Timeline> {
    let mut r = Reader { host, failed: false };
    let Val::Map(entries) = &doc.val else { return None };
    for e in entries {
        if !matches!(&*e.key, "apiVersion" | "kind" | "steps") {
            let mut le = LoadError::at(
                e.key_pos.line,
                e.key_pos.column,
                format!("Timeline cannot be handled: strict decoding error: unknown field {:?} (a Timeline holds only apiVersion, kind and steps)", e.key),
            )
            .with_reason(ErrorReason::Decode);
            le.object = Some("Timeline".into());
            r.host.error(le);
            r.failed = true;
        }
    }
    let items: &[YNode] = match doc.get("steps").map(|s| &s.val) {
        None | Some(Val::Null) => &[],
        Some(Val::Seq(items)) => items,
        Some(_) => {
            let n = doc.get("steps").expect("matched");
            r.err(n, "steps".into(), ErrorReason::Decode, "steps must be a list of steps".into());
            &[]
        }
    };
    let mut st = State::new(known);
    let mut steps = Vec::new();
    let mut last_at: Option<(i64, String)> = None;
    for (i, item) in items.iter().enumerate() {
        let path = format!("steps[{i}]");
        if let Some(step) = read_step(&mut r, item, &path, documents + i, &mut st, &mut last_at) {
            steps.push(step);
        }
    }
    if r.failed {
        return None;
    }
    Some(Timeline { steps })
}

/// The objects as the steps read so far leave them.
struct State {
    nodes: BTreeMap<String, api::Node>,
    pods: BTreeMap<String, api::Pod>,
    /// Every pod name ever used (a pod name is used once).
    pod_names: BTreeSet<String>,
    others: BTreeSet<String>,
    /// Object key -> line of the step that deleted it.
    deleted: BTreeMap<String, usize>,
}

impl State {
    fn new(k: Known) -> State {
        State {
            pod_names: crate::sort::set_of(k.pods.keys().cloned()),
            nodes: k.nodes,
            pods: k.pods,
            others: k.others,
            deleted: BTreeMap::new(),
        }
    }
}

fn read_step(r: &mut Reader, item: &YNode, path: &str, doc: usize, st: &mut State, last_at: &mut Option<(i64, String)>) -> Option<Step> {
    let Val::Map(entries) = &item.val else {
        r.err(
            item,
            path.into(),
            ErrorReason::Decode,
            "a step must be an object with at and one of create, delete or patch".into(),
        );
        return None;
    };
    let mut ok = true;
    for e in entries {
        if !STEP_FIELDS.contains(&&*e.key) {
            r.err(
                item,
                format!("{path}.{}", e.key),
                ErrorReason::Decode,
                format!(
                    "unknown field {:?} (a step holds at and one of create, delete or patch; merge goes with patch)",
                    e.key
                ),
            );
            ok = false;
        }
    }
    // at
    let at_ns = match item.get("at") {
        None => {
            r.err(
                item,
                format!("{path}.at"),
                ErrorReason::Invalid,
                "Required value: the step's time, a Go duration such as 30s".into(),
            );
            None
        }
        Some(n) => match n.as_str() {
            None => {
                r.err(
                    item,
                    format!("{path}.at"),
                    ErrorReason::Invalid,
                    "must be a Go duration string such as 30s or 1m30s".into(),
                );
                None
            }
            Some(s) => match parse_go_duration(s) {
                Err(m) => {
                    r.err(item, format!("{path}.at"), ErrorReason::Invalid, m);
                    None
                }
                Ok(ns) if ns < 0 => {
                    r.err(
                        item,
                        format!("{path}.at"),
                        ErrorReason::Invalid,
                        format!("must not be negative ({s})"),
                    );
                    None
                }
                Ok(ns) => {
                    if let Some((prev, prev_s)) = last_at.as_ref().filter(|(p, _)| ns < *p) {
                        let _ = prev;
                        r.err(
                            item,
                            format!("{path}.at"),
                            ErrorReason::Invalid,
                            format!("{s} is earlier than the previous step's {prev_s}: steps are listed in time order"),
                        );
                    } else {
                        *last_at = Some((ns, s.to_string()));
                    }
                    Some(ns)
                }
            },
        },
    };
    let given: Vec<&str> = ["create", "delete", "patch"]
        .into_iter()
        .filter(|k| item.get(k).is_some())
        .collect();
    if given.len() != 1 {
        let msg = if given.is_empty() {
            "a step needs one of create, delete or patch".to_string()
        } else {
            format!("a step takes exactly one of create, delete or patch, not {}", given.join(" and "))
        };
        r.err(item, path.into(), ErrorReason::Invalid, msg);
        return None;
    }
    if item.get("merge").is_some() && given[0] != "patch" {
        r.err(
            item,
            format!("{path}.merge"),
            ErrorReason::Invalid,
            "merge goes with patch only".into(),
        );
        ok = false;
    }
    let line = item.pos.line;
    let change = match given[0] {
        "create" => {
            let n = item.get("create").expect("given");
            if !matches!(n.val, Val::Map(_)) {
                r.err(
                    item,
                    format!("{path}.create"),
                    ErrorReason::Decode,
                    "create takes one whole object".into(),
                );
                return None;
            }
            let kind = n.get("kind").and_then(YNode::as_str).unwrap_or("");
            if matches!(kind, "Timeline" | "KubeSchedulerConfiguration" | "Lesson" | "List") || kind.ends_with("List") {
                r.err(
                    item,
                    format!("{path}.create.kind"),
                    ErrorReason::Kind,
                    format!("a step cannot create a {kind}"),
                );
                return None;
            }
            let obj = r.host.admit(n, doc)?;
            check_create(r, item, path, &obj, st, line)?;
            Change::Create(Box::new(obj))
        }
        "delete" => {
            let t = read_target(r, item, "delete", path)?;
            if !matches!(t.kind, TargetKind::Node | TargetKind::Pod) {
                r.err(
                    item,
                    format!("{path}.delete.kind"),
                    ErrorReason::Invalid,
                    format!("Unsupported value: {:?}: delete takes a Pod or a Node", t.kind.as_str()),
                );
                return None;
            }
            check_exists(r, item, path, "delete", &t, st)?;
            match t.kind {
                TargetKind::Node => {
                    st.nodes.remove(&t.name);
                }
                _ => {
                    st.pods.remove(&t.object_key());
                }
            }
            st.deleted.insert(t.key(), line);
            Change::Delete(t)
        }
        _ => {
            let t = read_target(r, item, "patch", path)?;
            let Some(m) = item.get("merge") else {
                r.err(
                    item,
                    format!("{path}.merge"),
                    ErrorReason::Invalid,
                    "Required value: patch needs merge, an RFC 7386 merge patch".into(),
                );
                return None;
            };
            let merge = json_of(m);
            check_exists(r, item, path, "patch", &t, st)?;
            let result = match t.kind {
                TargetKind::Node => {
                    let cur = &st.nodes[&t.name];
                    patch_node(cur, &merge).and_then(|n| {
                        validate(&n, super::validate::validate_node)?;
                        Ok(Patched::Node(Box::new(n)))
                    })
                }
                TargetKind::Pod => {
                    let cur = &st.pods[&t.object_key()];
                    patch_pod(cur, &merge).and_then(|p| {
                        validate(&p, super::validate::validate_pod)?;
                        Ok(Patched::Pod(Box::new(p)))
                    })
                }
                k => patch_replicas(&merge, k.as_str()).map(|_| Patched::Workload),
            };
            match result {
                Err(m) => {
                    r.err(item, format!("{path}.merge"), ErrorReason::Invalid, m);
                    return None;
                }
                Ok(Patched::Node(n)) => {
                    st.nodes.insert(t.name.clone(), *n);
                }
                Ok(Patched::Pod(p)) => {
                    st.pods.insert(t.object_key(), *p);
                }
                Ok(Patched::Workload) => {}
            }
            Change::Patch(t, merge)
        }
    };
    if !ok {
        return None;
    }
    Some(Step {
        at_ns: at_ns?,
        line,
        column: item.pos.column,
        change,
    })
}

enum Patched {
    Node(Box<api::Node>),
    Pod(Box<api::Pod>),
    /// A workload's replicas (checked; nothing to keep).
    Workload,
}

/// Runs an object validation on a patched object; the first error is the reason.
fn validate<T>(obj: &T, f: fn(&mut super::validate::Ctx, &T)) -> Result<(), String> {
    let mut cx = super::validate::Ctx::new(None);
    f(&mut cx, obj);
    match cx.errs.first() {
        None => Ok(()),
        Some(fe) => Err(format!("{}: {}", fe.path.render(), fe.body)),
    }
}

fn read_target(r: &mut Reader, item: &YNode, verb: &str, path: &str) -> Option<Target> {
    let n = item.get(verb).expect("given");
    let Val::Map(entries) = &n.val else {
        r.err(
            item,
            format!("{path}.{verb}"),
            ErrorReason::Decode,
            format!("{verb} takes {{kind, name, namespace}}"),
        );
        return None;
    };
    let mut ok = true;
    for e in entries {
        if !TARGET_FIELDS.contains(&&*e.key) {
            r.err(
                item,
                format!("{path}.{verb}.{}", e.key),
                ErrorReason::Decode,
                format!("unknown field {:?} ({verb} takes kind, name and namespace)", e.key),
            );
            ok = false;
        }
    }
    let kind = n.get("kind").and_then(YNode::as_str).unwrap_or("");
    let kind = match kind {
        "Pod" => TargetKind::Pod,
        "Node" => TargetKind::Node,
        "Deployment" if verb == "patch" => TargetKind::Deployment,
        "ReplicaSet" if verb == "patch" => TargetKind::ReplicaSet,
        "StatefulSet" if verb == "patch" => TargetKind::StatefulSet,
        "" => {
            r.err(
                item,
                format!("{path}.{verb}.kind"),
                ErrorReason::Invalid,
                "Required value: Pod or Node".into(),
            );
            return None;
        }
        k => {
            r.err(
                item,
                format!("{path}.{verb}.kind"),
                ErrorReason::Invalid,
                if verb == "patch" {
                    format!(
                        "Unsupported value: {k:?}: patch takes a Pod, a Node, or a Deployment, ReplicaSet or StatefulSet (spec.replicas)"
                    )
                } else {
                    format!("Unsupported value: {k:?}: {verb} takes a Pod or a Node")
                },
            );
            return None;
        }
    };
    let name = n.get("name").and_then(YNode::as_str).unwrap_or("").to_string();
    if name.is_empty() {
        r.err(item, format!("{path}.{verb}.name"), ErrorReason::Invalid, "Required value".into());
        return None;
    }
    let ns = n.get("namespace").and_then(YNode::as_str).filter(|s| !s.is_empty());
    let namespace = match kind {
        TargetKind::Node => {
            if ns.is_some() {
                r.err(
                    item,
                    format!("{path}.{verb}.namespace"),
                    ErrorReason::Invalid,
                    "a Node has no namespace".into(),
                );
                return None;
            }
            String::new()
        }
        _ => ns.unwrap_or("default").to_string(),
    };
    ok.then_some(Target { kind, namespace, name })
}

fn check_exists(r: &mut Reader, item: &YNode, path: &str, verb: &str, t: &Target, st: &State) -> Option<()> {
    let exists = match t.kind {
        TargetKind::Node => st.nodes.contains_key(&t.name),
        TargetKind::Pod => st.pods.contains_key(&t.object_key()),
        _ => st.others.contains(&t.key()),
    };
    if exists {
        return Some(());
    }
    let what = match t.kind {
        TargetKind::Node => format!("Node {:?}", t.name),
        k => format!("{} {:?}", k.as_str(), t.object_key()),
    };
    let msg = match st.deleted.get(&t.key()) {
        Some(line) => format!("cannot {verb} {what}: the step at line {line} deleted it"),
        None => format!("cannot {verb} {what}: neither the file nor an earlier step creates it"),
    };
    r.err(item, format!("{path}.{verb}"), ErrorReason::Rejected, msg);
    None
}

fn check_create(r: &mut Reader, item: &YNode, path: &str, obj: &Object, st: &mut State, _line: usize) -> Option<()> {
    let m = obj.meta();
    let taken = match obj {
        Object::Node(n) => {
            if st.nodes.contains_key(&m.name) {
                Some(format!("nodes {:?} already exists", m.name))
            } else {
                st.nodes.insert(m.name.clone(), n.clone());
                st.deleted.remove(&obj.key());
                None
            }
        }
        Object::Pod(p) => {
            let key = format!("{}/{}", m.namespace.as_deref().unwrap_or("default"), m.name);
            if st.pod_names.contains(&key) {
                Some(format!("pods {:?} already exists (a pod name is used once)", m.name))
            } else {
                st.pod_names.insert(key.clone());
                st.pods.insert(key, p.clone());
                None
            }
        }
        _ => {
            if !st.others.insert(obj.key()) {
                Some(format!("{} already exists", obj.key()))
            } else {
                None
            }
        }
    };
    match taken {
        Some(msg) => {
            r.err(item, format!("{path}.create"), ErrorReason::Rejected, msg);
            None
        }
        None => Some(()),
    }
}
