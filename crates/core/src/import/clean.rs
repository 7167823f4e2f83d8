//! Cleaning one object read from a cluster: which kinds and versions join the scenario, what
//! of their metadata and status is kept, and fitting the object to what the loader accepts
//! (fields it does not know are removed and noted).

use serde_json::{Map, Value};

/// Versions of supported kinds that the apiserver stores as another version, mapped to the
/// version the scenario holds: (apiVersion, kind, scenario apiVersion). The workload kinds of
/// `extensions/v1beta1` and `apps/v1beta1`/`v1beta2` default a missing `spec.selector` to the
/// template's labels (as those versions did); PodDisruptionBudget `policy/v1beta1` is
/// converted as the apiserver converts it.
pub(super) const OLD_VERSIONS: &[(&str, &str, &str)] = &[
    ("extensions/v1beta1", "Deployment", "apps/v1"),
    ("extensions/v1beta1", "DaemonSet", "apps/v1"),
    ("extensions/v1beta1", "ReplicaSet", "apps/v1"),
    ("apps/v1beta1", "Deployment", "apps/v1"),
    ("apps/v1beta1", "StatefulSet", "apps/v1"),
    ("apps/v1beta2", "Deployment", "apps/v1"),
    ("apps/v1beta2", "DaemonSet", "apps/v1"),
    ("apps/v1beta2", "ReplicaSet", "apps/v1"),
    ("apps/v1beta2", "StatefulSet", "apps/v1"),
    ("policy/v1beta1", "PodDisruptionBudget", "policy/v1"),
    ("scheduling.k8s.io/v1beta1", "PriorityClass", "scheduling.k8s.io/v1"),
    ("scheduling.k8s.io/v1alpha1", "PriorityClass", "scheduling.k8s.io/v1"),
    ("storage.k8s.io/v1beta1", "StorageClass", "storage.k8s.io/v1"),
    ("storage.k8s.io/v1beta1", "CSINode", "storage.k8s.io/v1"),
    ("storage.k8s.io/v1beta1", "CSIDriver", "storage.k8s.io/v1"),
];

/// Kinds whose status the scheduler and the controllers never read (dropped whole). Other
/// kinds keep the status subset below, or all of it (to the loader's liking) when not listed.
const STATUS_DROPPED: &[&str] = &[
    "Namespace",
    "Service",
    "ReplicationController",
    "ReplicaSet",
    "StatefulSet",
    "Deployment",
    "DaemonSet",
    "Job",
];

/// Annotations kept: the ones the simulated volume binding and controllers read, and ours.
/// Every other annotation is dropped (the scheduler reads none).
const KEPT_ANNOTATIONS: &[&str] = &[
    "pv.kubernetes.io/",
    "volume.kubernetes.io/",
    "volume.beta.kubernetes.io/",
    "storage.alpha.kubernetes.io/",
    "deployment.kubernetes.io/",
    "schedlab.io/",
];

/// Counters of what cleaning removed.
#[derive(Default)]
pub(super) struct Stripped {
    pub annotations: usize,
}

fn take_str(m: &Map<String, Value>, k: &str) -> Option<String> {
    m.get(k).and_then(Value::as_str).map(str::to_string)
}

/// The metadata the scenario keeps: identity, labels, the annotations listed above, owner
/// references (without the cluster's UIDs) and a deletion in progress.
pub(super) fn clean_meta(meta: Option<&Value>, stripped: &mut Stripped) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(Value::Object(m)) = meta else { return out };
    for k in ["name", "generateName", "namespace"] {
        if let Some(v) = m.get(k).filter(|v| !v.is_null()) {
            if k == "generateName" && m.get("name").and_then(Value::as_str).is_some_and(|n| !n.is_empty()) {
                continue;
            }
            out.insert(k.into(), v.clone());
        }
    }
    if let Some(Value::Object(l)) = m.get("labels") {
        if !l.is_empty() {
            out.insert("labels".into(), Value::Object(l.clone()));
        }
    }
    if let Some(Value::Object(a)) = m.get("annotations") {
        let mut kept = Map::new();
        for (k, v) in a {
            if KEPT_ANNOTATIONS.iter().any(|p| k.starts_with(p)) {
                kept.insert(k.clone(), v.clone());
            } else {
                stripped.annotations += 1;
            }
        }
        if !kept.is_empty() {
            out.insert("annotations".into(), Value::Object(kept));
        }
    }
    if let Some(refs) = m
        .get("ownerReferences")
        .and_then(|v| each_object(v, |r| pick(r, &["apiVersion", "kind", "name", "controller"], |_| true)))
    {
        out.insert("ownerReferences".into(), refs);
    }
    out.extend(pick(m, &["deletionTimestamp", "deletionGracePeriodSeconds"], |v| !v.is_null()));
    out
}

/// The fields `keys` of `from` (in that order) whose value passes `keep`.
fn pick(from: &Map<String, Value>, keys: &[&str], keep: impl Fn(&Value) -> bool) -> Map<String, Value> {
    keys.iter()
        .filter_map(|&k| from.get(k).filter(|v| keep(v)).map(|v| (k.to_string(), v.clone())))
        .collect()
}

/// A list of objects, each reduced by `f` (non-objects dropped); `None` when nothing is left.
fn each_object(v: &Value, f: impl Fn(&Map<String, Value>) -> Map<String, Value>) -> Option<Value> {
    let list: Vec<Value> = v
        .as_array()?
        .iter()
        .filter_map(Value::as_object)
        .map(|o| Value::Object(f(o)))
        .collect();
    (!list.is_empty()).then_some(Value::Array(list))
}

/// `{type, status, reason, message}` of each condition (times dropped).
fn compact_conditions(v: &Value) -> Option<Value> {
    each_object(v, |c| {
        pick(c, &["type", "status", "reason", "message"], |x| {
            !x.is_null() && x.as_str() != Some("")
        })
    })
}

/// A container's status reduced to its name, readiness, restarts and state (waiting with
/// its reason, running, or terminated with its reason and exit code).
fn compact_container_statuses(v: &Value) -> Option<Value> {
    each_object(v, |c| {
        let mut o = pick(c, &["name", "ready", "restartCount"], |_| true);
        if let Some(Value::Object(state)) = c.get("state") {
            let mut s = Map::new();
            for (which, keep) in [
                ("waiting", &["reason", "message"][..]),
                ("running", &[][..]),
                ("terminated", &["reason", "exitCode", "message"][..]),
            ] {
                if let Some(Value::Object(inner)) = state.get(which) {
                    s.insert(which.into(), Value::Object(pick(inner, keep, |x| !x.is_null())));
                }
            }
            o.insert("state".into(), Value::Object(s));
        }
        o
    })
}

/// The part of an object's status the scenario keeps.
pub(super) fn clean_status(kind: &str, status: Option<&Value>) -> Option<Value> {
    let Some(Value::Object(s)) = status else { return None };
    if STATUS_DROPPED.contains(&kind) {
        return None;
    }
    let pick = |keys: &[&str]| pick(s, keys, |v| !v.is_null());
    let out = match kind {
        "Pod" => {
            let mut o = pick(&["phase", "reason", "message", "nominatedNodeName"]);
            if let Some(c) = s.get("conditions").and_then(compact_conditions) {
                o.insert("conditions".into(), c);
            }
            for k in ["initContainerStatuses", "containerStatuses"] {
                if let Some(c) = s.get(k).and_then(compact_container_statuses) {
                    o.insert(k.into(), c);
                }
            }
            o
        }
        "Node" => {
            let mut o = pick(&["capacity", "allocatable"]);
            if let Some(c) = s.get("conditions").and_then(compact_conditions) {
                o.insert("conditions".into(), c);
            }
            if let Some(i) = s.get("images").filter(|i| i.as_array().is_some_and(|a| !a.is_empty())) {
                o.insert("images".into(), i.clone());
            }
            o
        }
        "PersistentVolume" => pick(&["phase"]),
        "PersistentVolumeClaim" => pick(&["phase", "accessModes", "capacity"]),
        "PodDisruptionBudget" => pick(&[
            "disruptionsAllowed",
            "currentHealthy",
            "desiredHealthy",
            "expectedPods",
            "disruptedPods",
        ]),
        _ => s.clone(),
    };
    (!out.is_empty()).then_some(Value::Object(out))
}

/// Version conversions that change content: an old workload without a selector selects its
/// template's labels; a `policy/v1beta1` PDB's empty selector selects nothing (as the
/// apiserver stores it in v1).
pub(super) fn convert(from: &str, kind: &str, obj: &mut Map<String, Value>) {
    let Some(Value::Object(spec)) = obj.get_mut("spec") else { return };
    if kind == "PodDisruptionBudget" {
        if let Some(Value::Object(sel)) = spec.get_mut("selector") {
            let empty = |k: &str| {
                sel.get(k)
                    .is_none_or(|v| v.is_null() || v.as_array().is_some_and(Vec::is_empty) || v.as_object().is_some_and(Map::is_empty))
            };
            if empty("matchLabels") && empty("matchExpressions") {
                sel.insert(
                    "matchExpressions".into(),
                    serde_json::json!([{"key": "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match", "operator": "Exists"}]),
                );
            }
        }
        return;
    }
    if from.starts_with("extensions/") || from.starts_with("apps/v1beta") {
        let has_selector = spec.get("selector").is_some_and(|s| !s.is_null());
        if !has_selector {
            let labels = spec
                .get("template")
                .and_then(|t| t.get("metadata"))
                .and_then(|m| m.get("labels"))
                .cloned();
            if let Some(Value::Object(l)) = labels {
                spec.insert("selector".into(), serde_json::json!({ "matchLabels": l }));
            }
        }
    }
}

/// A Job whose selector the apiserver generated (not `manualSelector`) loses it and the
/// labels it put on the template: they name the cluster's UID, and the loader generates them
/// again from the scenario's.
pub(super) fn clean_job(obj: &mut Map<String, Value>) {
    let Some(Value::Object(spec)) = obj.get_mut("spec") else { return };
    if spec.get("manualSelector").and_then(Value::as_bool) == Some(true) {
        return;
    }
    spec.remove("selector");
    if let Some(Value::Object(labels)) = spec
        .get_mut("template")
        .and_then(|t| t.get_mut("metadata"))
        .and_then(|m| m.get_mut("labels"))
    {
        for k in [
            "batch.kubernetes.io/controller-uid",
            "batch.kubernetes.io/job-name",
            "controller-uid",
            "job-name",
        ] {
            labels.remove(k);
        }
    }
}

/// The object as the scenario holds it: apiVersion, kind, metadata, spec, the other fields in
/// their order, then status.
pub(super) fn assemble(
    api_version: &str,
    kind: &str,
    meta: Map<String, Value>,
    mut rest: Map<String, Value>,
    status: Option<Value>,
) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("apiVersion".into(), Value::String(api_version.into()));
    o.insert("kind".into(), Value::String(kind.into()));
    o.insert("metadata".into(), Value::Object(meta));
    if let Some(spec) = rest.remove("spec") {
        o.insert("spec".into(), spec);
    }
    for (k, v) in rest {
        if !matches!(k.as_str(), "apiVersion" | "kind" | "metadata" | "status") && !v.is_null() {
            o.insert(k, v);
        }
    }
    if let Some(s) = status {
        o.insert("status".into(), s);
    }
    for v in o.values_mut() {
        drop_nulls(v);
    }
    o
}

/// Removes null mapping values everywhere (in the API's JSON a null field is an unset one).
fn drop_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(drop_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// One step of a field path such as `spec.containers[0].foo`.
enum Step {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, mut idx) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            steps.push(Step::Key(key.to_string()));
        }
        while let Some(rest) = idx.strip_prefix('[') {
            let Some(end) = rest.find(']') else { break };
            match rest[..end].parse() {
                Ok(i) => steps.push(Step::Index(i)),
                Err(_) => steps.push(Step::Key(rest[..end].to_string())),
            }
            idx = &rest[end + 1..];
        }
    }
    steps
}

/// Removes the field at `path`; false when the path does not lead to it.
pub(super) fn remove_path(obj: &mut Map<String, Value>, path: &str) -> bool {
    let steps = parse_path(path);
    let Some((Step::Key(last), parents)) = steps.split_last() else {
        return false;
    };
    let mut cur: &mut Value = match parents.first() {
        Some(Step::Key(k)) => match obj.get_mut(k) {
            Some(v) => v,
            None => return false,
        },
        Some(Step::Index(_)) => return false,
        None => return obj.remove(last).is_some(),
    };
    for s in &parents[1..] {
        cur = match (s, cur) {
            (Step::Key(k), Value::Object(m)) => match m.get_mut(k) {
                Some(v) => v,
                None => return false,
            },
            (Step::Index(i), Value::Array(a)) => match a.get_mut(*i) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    match cur {
        Value::Object(m) => m.remove(last).is_some(),
        _ => false,
    }
}

/// A field path with its list indexes left out (`spec.containers[].foo`), for notes.
pub(super) fn generic_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut skipping = false;
    for c in path.chars() {
        match c {
            '[' => {
                skipping = true;
                out.push_str("[]");
            }
            ']' => skipping = false,
            _ if skipping => {}
            _ => out.push(c),
        }
    }
    out
}

/// The reason and message of a pod's first container that is not running as it should, with
/// the container's name: waiting (but not merely starting) or terminated with an error.
pub(super) fn container_problem(status: &Map<String, Value>) -> Option<(String, String, String)> {
    for (key, init) in [("initContainerStatuses", true), ("containerStatuses", false)] {
        let Some(Value::Array(list)) = status.get(key) else { continue };
        for c in list {
            let name = c.get("name").and_then(Value::as_str).unwrap_or("");
            let state = c.get("state");
            if let Some(w) = state.and_then(|s| s.get("waiting")) {
                let reason = w.get("reason").and_then(Value::as_str).unwrap_or("Waiting");
                if matches!(reason, "ContainerCreating" | "PodInitializing") {
                    continue;
                }
                let msg = w.get("message").and_then(Value::as_str).unwrap_or("");
                let reason = if init { format!("Init:{reason}") } else { reason.to_string() };
                return Some((name.to_string(), reason, msg.to_string()));
            }
            if let Some(t) = state.and_then(|s| s.get("terminated")) {
                let code = t.get("exitCode").and_then(Value::as_i64).unwrap_or(0);
                if code != 0 && !init {
                    let reason = t.get("reason").and_then(Value::as_str).unwrap_or("Error");
                    let msg = t.get("message").and_then(Value::as_str).unwrap_or("");
                    return Some((name.to_string(), format!("{reason} (exit code {code})"), msg.to_string()));
                }
            }
        }
    }
    None
}

pub(super) fn meta_str(obj: &Map<String, Value>, key: &str) -> Option<String> {
    obj.get("metadata").and_then(Value::as_object).and_then(|m| take_str(m, key))
}
