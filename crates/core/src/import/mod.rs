//! Importing a real cluster: turns what `kubectl get -o yaml|json` and `kubectl cluster-info
//! dump` write into a clean scenario the loader accepts, with a report of what was skipped,
//! converted, stripped and found worth a warning. Like the rest of core it does no IO: the
//! caller hands in the texts. The rules are in docs/import.md.

mod clean;
mod emit;
mod infer;
mod read;

#[cfg(test)]
mod tests;

use crate::load::{self, ErrorReason};
use clean::Stripped;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashSet};

use schedlab_view::import::count;
pub use schedlab_view::import::{plural, ImportReport, Issue, KindCount, Where};

/// Imports one text (`input` names it in positions).
pub fn import_str(text: &str) -> ImportReport {
    import_inputs(&[("input", text)])
}

/// `import_str`, or `None` in a build without CEL (the `cel` feature off) when the input holds
/// a CEL expression: whether the loader accepts it is the full engine's to say
/// (`load::ErrorReason::NeedsCel`). Always `Some` in a build with CEL.
pub fn try_import_str(text: &str) -> Option<ImportReport> {
    let mut needs_cel = false;
    let rep = import_checked(&[("input", text)], &mut needs_cel);
    (!needs_cel).then_some(rep)
}

/// An object on its way into the scenario.
struct Obj {
    kind: String,
    /// The namespace (`default` when a namespaced object has none); empty when cluster-scoped.
    namespace: String,
    name: String,
    value: Map<String, Value>,
    at: Where,
    /// The cluster's creation time, for ordering pods.
    created: String,
}

impl Obj {
    fn label(&self) -> String {
        label(&self.kind, &self.namespace, &self.name)
    }
}

fn label(kind: &str, ns: &str, name: &str) -> String {
    if ns.is_empty() {
        format!("{kind} {name}")
    } else {
        format!("{kind} {ns}/{name}")
    }
}

const CONFIG: (&str, &str) = ("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration");

/// Kinds in the order the scenario lists them (objects others refer to first; pods last).
/// Kinds not listed come after the PodDisruptionBudgets, in input order.
const ORDER: &[&str] = &[
    "Namespace",
    "PriorityClass",
    "StorageClass",
    "CSIDriver",
    "CSINode",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Service",
    "Deployment",
    "ReplicaSet",
    "StatefulSet",
    "DaemonSet",
    "ReplicationController",
    "Job",
    "PodDisruptionBudget",
];

fn rank(kind: &str) -> usize {
    match kind {
        "Node" => ORDER.len() + 1,
        "Pod" => ORDER.len() + 2,
        k => ORDER.iter().position(|o| *o == k).unwrap_or(ORDER.len()),
    }
}

/// Node conditions and the NoSchedule taint the node lifecycle controller gives a node in
/// that condition: (condition type, status, taint key, how the warning words it).
const CONDITION_TAINTS: &[(&str, &str, &str, &str)] = &[
    ("Ready", "False", "node.kubernetes.io/not-ready", "is NotReady"),
    (
        "Ready",
        "Unknown",
        "node.kubernetes.io/unreachable",
        "is NotReady (its kubelet stopped reporting: Ready is Unknown)",
    ),
    ("MemoryPressure", "True", "node.kubernetes.io/memory-pressure", "has MemoryPressure"),
    ("DiskPressure", "True", "node.kubernetes.io/disk-pressure", "has DiskPressure"),
    ("PIDPressure", "True", "node.kubernetes.io/pid-pressure", "has PIDPressure"),
    (
        "NetworkUnavailable",
        "True",
        "node.kubernetes.io/network-unavailable",
        "has NetworkUnavailable",
    ),
];

/// Deprecated node labels and their stable names.
const BETA_LABELS: &[(&str, &str)] = &[
    ("beta.kubernetes.io/arch", "kubernetes.io/arch"),
    ("beta.kubernetes.io/os", "kubernetes.io/os"),
    ("failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"),
    ("failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"),
    ("beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type"),
];

const MAX_MESSAGE: usize = 300;

fn clip(s: &str) -> String {
    let s = s.trim();
    if s.chars().count() <= MAX_MESSAGE {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX_MESSAGE).collect();
    out.push('…');
    out
}

/// Imports several texts as one cluster: (name, text) each.
pub fn import_inputs(inputs: &[(&str, &str)]) -> ImportReport {
    import_checked(inputs, &mut false)
}

/// `import_inputs`, noting in `needs_cel` a load refused for CEL this build cannot evaluate.
fn import_checked(inputs: &[(&str, &str)], needs_cel: &mut bool) -> ImportReport {
    let mut rep = ImportReport::default();
    let mut stripped = Stripped::default();
    let mut skipped: Vec<KindCount> = Vec::new();
    let mut converted: BTreeMap<String, usize> = BTreeMap::new();
    let mut log_sections = 0;
    let mut text_lines = 0;
    let mut objects: Vec<Obj> = Vec::new();
    let mut config: Option<(Map<String, Value>, Where)> = None;
    // Kinds inferred from the shape of objects without one: (kind, objects, the fields that
    // told it, in the order first seen).
    let mut inferred: Vec<(&'static str, usize, Vec<String>)> = Vec::new();

    // 1. Read every input and keep the objects of kinds the scenario holds.
    for (file, text) in inputs {
        if text.len() > load::MAX_INPUT_BYTES {
            rep.errors.push(Issue {
                at: Some(Where {
                    file: file.to_string(),
                    line: 0,
                    item: None,
                }),
                object: None,
                message: format!("input is too large ({} bytes; the limit is {})", text.len(), load::MAX_INPUT_BYTES),
            });
            continue;
        }
        let r = read::read(text, file);
        rep.errors.extend(r.errors);
        log_sections += r.log_sections;
        text_lines += r.text_lines;
        for raw in r.objects {
            let Value::Object(m) = raw.value else {
                rep.errors.push(Issue {
                    at: Some(raw.at),
                    object: None,
                    message: format!("not an object but {}", json_type(&raw.value)),
                });
                continue;
            };
            let given = |k: &str| m.get(k).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
            let mut api_version = given("apiVersion")
                .or_else(|| raw.list_kind.as_ref().map(|l| l.0.clone()))
                .unwrap_or_default();
            let mut kind = given("kind")
                .or_else(|| raw.list_kind.as_ref().map(|l| l.1.clone()))
                .unwrap_or_default();
            let name = clean::meta_str(&m, "name").unwrap_or_default();
            if kind.is_empty() {
                // Saved without a kind (insights-operator and the like): its shape may tell.
                match infer::infer(&m) {
                    infer::Inferred::Kind {
                        kind: k,
                        api_version: av,
                        from,
                    } => {
                        kind = k.to_string();
                        if api_version.is_empty() {
                            api_version = av.to_string();
                        }
                        match inferred.iter_mut().find(|g| g.0 == k) {
                            Some(g) => {
                                g.1 += 1;
                                for f in from {
                                    if !g.2.contains(&f) {
                                        g.2.push(f);
                                    }
                                }
                            }
                            None => inferred.push((k, 1, from)),
                        }
                    }
                    other => {
                        rep.errors.push(Issue {
                            at: Some(raw.at),
                            object: (!name.is_empty()).then(|| name.clone()),
                            message: infer::refusal(&other),
                        });
                        continue;
                    }
                }
            }
            if (api_version.as_str(), kind.as_str()) == CONFIG {
                if config.is_none() {
                    config = Some((m, raw.at));
                } else {
                    rep.errors.push(Issue {
                        at: Some(raw.at),
                        object: Some(kind),
                        message: "only the first KubeSchedulerConfiguration is kept".into(),
                    });
                }
                continue;
            }
            let entry = load::kind_entries().find(|(av, k, _, _)| *av == api_version && *k == kind);
            let old = clean::OLD_VERSIONS.iter().find(|(av, k, _)| *av == api_version && *k == kind);
            let (target, namespaced) = match (entry, old) {
                (Some(&(av, _, _, ns)), _) if av != "policy/v1beta1" => (av.to_string(), ns),
                (_, Some(&(_, _, to))) => {
                    let ns = load::kind_entries()
                        .find(|(av, k, _, _)| *av == to && *k == kind)
                        .is_some_and(|e| e.3);
                    (to.to_string(), ns)
                }
                _ => {
                    let known: Vec<&str> = load::kind_entries()
                        .filter(|(_, k, _, _)| *k == kind)
                        .map(|(av, _, _, _)| *av)
                        .chain(clean::OLD_VERSIONS.iter().filter(|(_, k, _)| *k == kind).map(|(av, _, _)| *av))
                        .collect();
                    if known.is_empty() {
                        match skipped.iter_mut().find(|k| k.kind == kind) {
                            Some(k) => k.count += 1,
                            None => skipped.push(KindCount { kind, count: 1 }),
                        }
                    } else {
                        let shown = if api_version.is_empty() {
                            "(none)".to_string()
                        } else {
                            api_version.clone()
                        };
                        rep.errors.push(Issue {
                            at: Some(raw.at),
                            object: Some(label(&kind, "", &name)),
                            message: format!(
                                "{kind} in version {shown} cannot be imported (known versions: {})",
                                known.join(", ")
                            ),
                        });
                    }
                    continue;
                }
            };
            let mut m = m;
            if target != api_version {
                clean::convert(&api_version, &kind, &mut m);
                *converted.entry(format!("{kind} {api_version} → {target}")).or_default() += 1;
            }
            let created = m
                .get("metadata")
                .and_then(|md| md.get("creationTimestamp"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if kind == "Job" {
                clean::clean_job(&mut m);
            }
            let meta = clean::clean_meta(m.get("metadata"), &mut stripped);
            let status = clean::clean_status(&kind, m.get("status"));
            let value = clean::assemble(&target, &kind, meta, m, status);
            let namespace = if namespaced {
                clean::meta_str(&value, "namespace")
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "default".into())
            } else {
                String::new()
            };
            objects.push(Obj {
                kind,
                namespace,
                name,
                value,
                at: raw.at,
                created,
            });
        }
    }

    // 2. The same object twice (overlapping inputs): the first is kept.
    let mut seen: HashSet<(String, String, String)> = HashSet::new();
    let mut duplicates = 0;
    objects.retain(|o| {
        if o.name.is_empty() {
            return true;
        }
        let fresh = seen.insert((o.kind.clone(), o.namespace.clone(), o.name.clone()));
        duplicates += usize::from(!fresh);
        fresh
    });

    // 3. Priority: pods that name a PriorityClass get their priority from it again (as
    //    admission gives it); a class the input lacks is made from the pod's priority.
    let mut made_classes = Vec::new();
    priority(&mut objects, &mut made_classes);

    // 4. Fit each object to what the loader accepts: fields it does not know are removed.
    let mut ignored: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    objects.retain_mut(|o| match fit(o, &mut ignored, needs_cel) {
        Ok(()) => true,
        Err(message) => {
            rep.errors.push(Issue {
                at: Some(o.at.clone()),
                object: Some(o.label()),
                message,
            });
            false
        }
    });

    // 5. The cluster's state: nodes' conditions (and the taints they imply), pods' phases and
    //    container states, pods on nodes the input lacks.
    let mut tainted = 0;
    for o in objects.iter_mut().filter(|o| o.kind == "Node") {
        node_state(o, &mut rep.warnings, &mut tainted);
    }
    let nodes: HashSet<String> = objects.iter().filter(|o| o.kind == "Node").map(|o| o.name.clone()).collect();
    let mut finished = 0;
    for o in objects.iter().filter(|o| o.kind == "Pod") {
        pod_state(o, &nodes, &mut rep.warnings, &mut finished);
    }
    let beta_dropped = drop_beta_labels(&mut objects);

    // 6. Order: kinds others refer to first, nodes, then pods by their creation time (the
    //    scenario's document order is its creation order and its queue order).
    crate::sort::sort_by(&mut objects, |a, b| {
        let (ra, rb) = (rank(&a.kind), rank(&b.kind));
        ra.cmp(&rb).then_with(|| {
            if a.kind == "Pod" && b.kind == "Pod" {
                a.created.cmp(&b.created)
            } else {
                std::cmp::Ordering::Equal
            }
        })
    });

    // 7. The whole scenario must load: objects the loader still refuses (cross-object checks)
    //    are taken out with their reason.
    let mut text = String::new();
    for _ in 0..8 {
        text = emit(&objects, config.as_ref().map(|c| &c.0));
        if objects.is_empty() && config.is_none() {
            text.clear();
            break;
        }
        match load::load_str(&text, "import") {
            Ok(_) => break,
            Err(errs) if errs.needs_cel() => {
                *needs_cel = true;
                break;
            }
            Err(errs) => {
                let mut bad: BTreeMap<usize, String> = BTreeMap::new();
                let mut other = false;
                for e in &errs.errors {
                    match e.document {
                        Some(d) if d < objects.len() => {
                            bad.entry(d).or_insert_with(|| describe(e));
                        }
                        _ => {
                            if e.object.as_deref() == Some("KubeSchedulerConfiguration") {
                                if let Some((_, at)) = config.take() {
                                    rep.errors.push(Issue {
                                        at: Some(at),
                                        object: Some("KubeSchedulerConfiguration".into()),
                                        message: describe(e),
                                    });
                                }
                            } else {
                                other = true;
                                rep.errors.push(Issue {
                                    at: None,
                                    object: e.object.clone(),
                                    message: describe(e),
                                });
                            }
                        }
                    }
                }
                if bad.is_empty() && (other || config.is_some()) {
                    break;
                }
                for (d, message) in bad.into_iter().rev() {
                    let o = objects.remove(d);
                    rep.errors.push(Issue {
                        at: Some(o.at.clone()),
                        object: Some(o.label()),
                        message,
                    });
                }
            }
        }
    }
    rep.scenario_text = text;

    // 8. The report.
    for o in &objects {
        match rep.imported.iter_mut().find(|k| k.kind == o.kind) {
            Some(k) => k.count += 1,
            None => rep.imported.push(KindCount {
                kind: o.kind.clone(),
                count: 1,
            }),
        }
    }
    rep.skipped = skipped;
    for (kind, n, from) in &inferred {
        rep.notes.push(format!(
            "inferred kind {kind} for {} without a kind (from {})",
            count(*n, "object"),
            from.join(", ")
        ));
    }
    for (what, n) in converted {
        rep.notes.push(format!("converted {n} × {what}"));
    }
    for (kind, fields) in &ignored {
        let list: Vec<&str> = fields.iter().map(String::as_str).collect();
        rep.notes
            .push(format!("{kind}: ignored fields the simulator does not model: {}", list.join(", ")));
    }
    for (name, value, from) in made_classes {
        rep.notes.push(format!(
            "made PriorityClass {name} (value {value}) from the priority of {from}: the input does not include it"
        ));
    }
    if tainted > 0 {
        rep.notes.push(format!(
            "added the NoSchedule taint that the node lifecycle controller gives a node in its condition to {}",
            count(tainted, "Node")
        ));
    }
    if finished > 0 {
        rep.notes.push(format!(
            "kept {} as Succeeded/Failed (the scheduler ignores them)",
            count(finished, "Pod")
        ));
    }
    if beta_dropped > 0 {
        rep.notes.push(format!(
            "dropped {} that repeat a stable label with the same value (no object refers to them)",
            count(beta_dropped, "deprecated beta node label")
        ));
    }
    if duplicates > 0 {
        rep.notes
            .push(format!("{} given twice: the first kept", count(duplicates, "object")));
    }
    if stripped.annotations > 0 {
        rep.notes.push(format!(
            "dropped {} the scheduler does not read (kubectl.kubernetes.io/last-applied-configuration and the like)",
            count(stripped.annotations, "annotation")
        ));
    }
    if log_sections > 0 {
        rep.notes.push(format!(
            "left out the logs of {} (cluster-info dump)",
            count(log_sections, "container")
        ));
    }
    if text_lines > 0 {
        rep.notes
            .push(format!("left out {} of text between the documents", count(text_lines, "line")));
    }
    if !objects.is_empty() {
        rep.notes.push(
            "stripped what the scheduler does not read: uid, resourceVersion, creationTimestamp, generation, managedFields, finalizers, the status of workloads and Services; pods keep phase, conditions and container states, nodes their capacity, conditions and images".into(),
        );
    }
    rep
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A loader error as one line, without the loader's own position (the object's is given).
fn describe(e: &load::LoadError) -> String {
    match (e.reason, e.field.as_deref()) {
        (ErrorReason::Invalid, Some(f)) if !f.is_empty() => format!("{f}: {}", e.message),
        _ => e.message.clone(),
    }
}

fn pod_spec(o: &mut Obj) -> Option<&mut Map<String, Value>> {
    o.value.get_mut("spec").and_then(Value::as_object_mut)
}

/// Pods naming a PriorityClass lose `priority` and `preemptionPolicy` (admission sets them
/// from the class again); a class missing from the input is made from the first such pod.
fn priority(objects: &mut Vec<Obj>, made: &mut Vec<(String, i64, String)>) {
    let mut classes: HashSet<String> = ["system-node-critical", "system-cluster-critical"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    classes.extend(objects.iter().filter(|o| o.kind == "PriorityClass").map(|o| o.name.clone()));
    let mut new = Vec::new();
    for o in objects.iter_mut().filter(|o| o.kind == "Pod") {
        let label = o.label();
        let at = o.at.clone();
        let Some(spec) = pod_spec(o) else { continue };
        let Some(class) = spec
            .get("priorityClassName")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
        else {
            continue;
        };
        let value = spec.remove("priority").and_then(|v| v.as_i64()).unwrap_or(0);
        let policy = spec.remove("preemptionPolicy");
        if classes.insert(class.clone()) {
            let mut v = serde_json::json!({
                "apiVersion": "scheduling.k8s.io/v1",
                "kind": "PriorityClass",
                "metadata": {"name": class},
                "value": value,
            });
            if let Some(p) = policy.filter(|p| p.as_str().is_some_and(|s| !s.is_empty())) {
                v["preemptionPolicy"] = p;
            }
            new.push(Obj {
                kind: "PriorityClass".into(),
                namespace: String::new(),
                name: class.clone(),
                value: v.as_object().cloned().unwrap_or_default(),
                at,
                created: String::new(),
            });
            made.push((class, value, label));
        }
    }
    objects.extend(new);
}

/// Makes the object acceptable to the loader: loads it alone and removes each field the
/// loader does not know (noting it per kind). Errors of other kinds refuse the object; errors
/// that depend on other objects are left to the whole scenario's check.
fn fit(o: &mut Obj, ignored: &mut BTreeMap<String, BTreeSet<String>>, needs_cel: &mut bool) -> Result<(), String> {
    for _ in 0..200 {
        let text = emit::document(&o.value);
        let Err(errs) = load::load_str(&text, "import") else {
            return Ok(());
        };
        let mut removed = false;
        if errs.needs_cel() {
            // Only the full engine can say whether it loads (`try_import_str`).
            *needs_cel = true;
            return Ok(());
        }
        for e in &errs.errors {
            match e.reason {
                ErrorReason::Rejected | ErrorReason::NeedsCel => {}
                ErrorReason::Decode if e.message.contains("strict decoding error: unknown field") => {
                    let field = e.field.as_deref().unwrap_or("");
                    if !field.is_empty() && clean::remove_path(&mut o.value, field) {
                        ignored.entry(o.kind.clone()).or_default().insert(clean::generic_path(field));
                        removed = true;
                    } else {
                        return Err(describe(e));
                    }
                }
                _ => return Err(describe(e)),
            }
        }
        if !removed {
            return Ok(());
        }
    }
    Err("too many fields the simulator does not know".into())
}

fn conditions(status: Option<&Value>) -> Vec<&Map<String, Value>> {
    status
        .and_then(|s| s.get("conditions"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_object).collect())
        .unwrap_or_default()
}

fn s<'a>(m: &'a Map<String, Value>, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

/// Warns about a node's conditions and gives it the NoSchedule taints they imply.
fn node_state(o: &mut Obj, warnings: &mut Vec<Issue>, tainted: &mut usize) {
    let name = o.name.clone();
    let conds: Vec<(String, String, String)> = conditions(o.value.get("status"))
        .into_iter()
        .map(|c| {
            let why = match (s(c, "reason"), s(c, "message")) {
                ("", "") => String::new(),
                (r, "") => format!(" ({r})"),
                ("", m) => format!(" ({})", clip(m)),
                (r, m) => format!(" ({r}: {})", clip(m)),
            };
            (s(c, "type").to_string(), s(c, "status").to_string(), why)
        })
        .collect();
    let taints: Vec<String> = o
        .value
        .get("spec")
        .and_then(|sp| sp.get("taints"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|t| t.get("key").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut added = false;
    for (ty, st, why) in &conds {
        let Some(&(_, _, key, words)) = CONDITION_TAINTS.iter().find(|(t, v, _, _)| t == ty && v == st) else {
            continue;
        };
        let message = if taints.iter().any(|t| t == key) {
            format!("node {name} {words}{why}; it has the {key} taint")
        } else {
            let spec = o.value.entry("spec").or_insert_with(|| Value::Object(Map::new()));
            if let Some(spec) = spec.as_object_mut() {
                let list = spec.entry("taints").or_insert_with(|| Value::Array(Vec::new()));
                if let Some(list) = list.as_array_mut() {
                    list.push(serde_json::json!({"key": key, "effect": "NoSchedule"}));
                    added = true;
                }
            }
            format!("node {name} {words}{why} — a real cluster would taint it {key}:NoSchedule; import added the taint")
        };
        warnings.push(Issue {
            at: Some(o.at.clone()),
            object: Some(o.label()),
            message,
        });
    }
    if o.value.get("spec").and_then(|sp| sp.get("unschedulable")).and_then(Value::as_bool) == Some(true) {
        warnings.push(Issue {
            at: Some(o.at.clone()),
            object: Some(o.label()),
            message: format!("node {name} is cordoned (SchedulingDisabled)"),
        });
    }
    *tainted += usize::from(added);
}

/// Warns about a pod whose real state is worth knowing.
fn pod_state(o: &Obj, nodes: &HashSet<String>, warnings: &mut Vec<Issue>, finished: &mut usize) {
    let status = o.value.get("status").and_then(Value::as_object);
    let empty = Map::new();
    let st = status.unwrap_or(&empty);
    let node = o
        .value
        .get("spec")
        .and_then(|sp| sp.get("nodeName"))
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty());
    let phase = match s(st, "phase") {
        "" if node.is_some() => "Running",
        "" => "Pending",
        p => p,
    };
    let mut say = |message: String| {
        warnings.push(Issue {
            at: Some(o.at.clone()),
            object: Some(o.label()),
            message,
        })
    };
    let problem = clean::container_problem(st).map(|(c, reason, msg)| {
        if msg.is_empty() {
            format!("{reason} (container {c})")
        } else {
            format!("{reason} (container {c}: {})", clip(&msg))
        }
    });
    match (phase, node) {
        ("Succeeded" | "Failed", _) => {
            *finished += 1;
            if phase == "Failed" {
                let why = match (s(st, "reason"), s(st, "message")) {
                    ("", "") => problem.clone().map(|p| format!(": {p}")).unwrap_or_default(),
                    (r, m) => format!(": {r} {}", clip(m)).trim_end().to_string(),
                };
                say(format!("Failed{why} (kept; the scheduler ignores it)"));
            }
        }
        (_, Some(n)) => {
            if let Some(p) = &problem {
                say(format!("{phase} on {n} but {p}"));
            } else if phase == "Pending" {
                say(format!("Pending on {n}: bound, its containers not started yet"));
            }
        }
        (_, None) => {
            let sched = conditions(o.value.get("status"))
                .into_iter()
                .find(|c| s(c, "type") == "PodScheduled");
            if let Some(c) = sched.filter(|c| s(c, "status") == "False") {
                let reason = s(c, "reason");
                let msg = s(c, "message");
                say(format!(
                    "Pending ({}){}",
                    if reason.is_empty() { "not scheduled" } else { reason },
                    if msg.is_empty() {
                        String::new()
                    } else {
                        format!(": the cluster's scheduler said: {}", clip(msg))
                    }
                ));
            }
        }
    }
    if let Some(n) = node {
        if !nodes.contains(n) && !matches!(phase, "Succeeded" | "Failed") {
            say(format!(
                "bound to node {n}, which is not in the input: it takes no node's room and counts for no spreading or affinity"
            ));
        }
    }
    if o.value.get("metadata").and_then(|m| m.get("deletionTimestamp")).is_some() {
        say("Terminating (it has a deletionTimestamp)".into());
    }
}

/// Drops a node's deprecated beta labels that repeat a stable label with the same value when
/// no other object mentions the beta key (a selector, an affinity, a volume's labels).
fn drop_beta_labels(objects: &mut [Obj]) -> usize {
    let others: String = objects
        .iter()
        .filter(|o| o.kind != "Node")
        .map(|o| serde_json::to_string(&o.value).unwrap_or_default())
        .collect();
    let unused: Vec<(&str, &str)> = BETA_LABELS.iter().copied().filter(|(beta, _)| !others.contains(beta)).collect();
    let mut n = 0;
    for o in objects.iter_mut().filter(|o| o.kind == "Node") {
        let Some(Value::Object(labels)) = o.value.get_mut("metadata").and_then(|m| m.get_mut("labels")) else {
            continue;
        };
        for (beta, stable) in &unused {
            if labels.get(*beta).is_some() && labels.get(*beta) == labels.get(*stable) {
                labels.remove(*beta);
                n += 1;
            }
        }
    }
    n
}

/// The scenario text: each object a document, the KubeSchedulerConfiguration last.
fn emit(objects: &[Obj], config: Option<&Map<String, Value>>) -> String {
    let mut out = String::new();
    for v in objects.iter().map(|o| &o.value).chain(config) {
        out.push_str("---\n");
        out.push_str(&emit::document(v));
    }
    out
}
