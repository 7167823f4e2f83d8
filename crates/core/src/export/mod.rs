//! Back to a real cluster (`schedlab export`, the page's Export menu): the scenario's scheduler
//! configuration as a file kube-scheduler takes with `--config`, and its objects as manifests
//! `kubectl apply` takes. Pure: a loaded scenario (and its text) in, YAML text out, with YAML
//! comments saying what was left out and why. Rules in docs/export.md.

#[cfg(test)]
mod tests;

use crate::load::Scenario;
use crate::plugins::IN_TREE;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The scenario's effective KubeSchedulerConfiguration (v1) as kube-scheduler of the run's
/// version accepts it: what `schedlab config` prints, less the schedlab extensions (plugins a
/// real kube-scheduler lacks), each named in a comment. A scenario without a configuration
/// gets the version's defaults, which it ran with, and the header says so.
pub fn config_yaml(sc: &Scenario) -> String {
    let version = sc.features().version();
    let mut json = sc.config.to_effective_json();
    let left_out = drop_extensions(&mut json);
    let mut out = format!("# kube-scheduler v{version}'s configuration (schedlab export): kube-scheduler --config FILE\n");
    if !sc.has_config {
        out.push_str(&format!(
            "# The scenario has no KubeSchedulerConfiguration: these are v{version}'s defaults, which it ran with.\n"
        ));
    }
    for (profile, plugin) in &left_out {
        out.push_str(&format!(
            "# Left out of profile {profile}: {plugin}, a schedlab extension (a real kube-scheduler needs it compiled in as a Go plugin).\n"
        ));
    }
    out.push_str(&schedlab_view::yaml::to_yaml(&json));
    out
}

/// Removes the schedlab extensions from every profile's plugin sets and pluginConfig; returns
/// (profile, plugin) for each one removed.
fn drop_extensions(config: &mut Value) -> Vec<(String, String)> {
    let mut removed = BTreeSet::new();
    let is_ext = |v: &Value| v.get("name").and_then(Value::as_str).is_some_and(|n| IN_TREE.is_schedlab_extension(n));
    for profile in config.get_mut("profiles").and_then(Value::as_array_mut).into_iter().flatten() {
        let name = profile.get("schedulerName").and_then(Value::as_str).unwrap_or_default().to_string();
        let mut here = Vec::new();
        if let Some(points) = profile.get_mut("plugins").and_then(Value::as_object_mut) {
            for set in points.values_mut().filter_map(Value::as_object_mut) {
                for list in set.values_mut().filter_map(Value::as_array_mut) {
                    here.extend(list.iter().filter(|e| is_ext(e)).filter_map(|e| e["name"].as_str().map(str::to_string)));
                    list.retain(|e| !is_ext(e));
                }
                set.retain(|_, list| list.as_array().is_none_or(|l| !l.is_empty()));
            }
        }
        if let Some(pc) = profile.get_mut("pluginConfig").and_then(Value::as_array_mut) {
            here.extend(pc.iter().filter(|e| is_ext(e)).filter_map(|e| e["name"].as_str().map(str::to_string)));
            pc.retain(|e| !is_ext(e));
            if pc.is_empty() {
                profile.as_object_mut().map(|p| p.remove("pluginConfig"));
            }
        }
        removed.extend(here.into_iter().map(|p| (name.clone(), p)));
    }
    removed.into_iter().collect()
}

/// What `manifests` writes besides the objects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ManifestOptions {
    /// Mark every node as a KWOK fake node (the annotations KWOK manages nodes by).
    pub kwok: bool,
}

/// The annotation KWOK's `--manage-nodes-with-annotation-selector` default selects by.
pub const KWOK_NODE_ANNOTATION: (&str, &str) = ("kwok.x-k8s.io/node", "fake");
/// Nodes' object TTL for the kubelet's cache, as KWOK's own node examples set it.
pub const KWOK_TTL_ANNOTATION: (&str, &str) = ("node.alpha.kubernetes.io/ttl", "0");

/// Namespaces every cluster has.
const BUILT_IN_NAMESPACES: [&str; 4] = ["default", "kube-system", "kube-public", "kube-node-lease"];
/// Metadata a server sets and a client may not create with (or that names another object's
/// identity: owner references point to uids a new cluster does not have, so its garbage
/// collector would delete the pod).
const SERVER_METADATA: [&str; 9] = [
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "managedFields",
    "selfLink",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "ownerReferences",
];
/// Annotation prefixes only schedlab reads.
const SCHEDLAB_PREFIXES: [&str; 2] = ["schedlab.dev/", "schedlab.io/"];

/// The scenario's objects (`text`, loaded as `sc`) as multi-document YAML for `kubectl apply
/// -f`: the schedlab documents (Lesson, Timeline), the KubeSchedulerConfiguration (exported
/// on its own) and schedlab-only fields left out; Namespaces the objects use and
/// PriorityClasses first (the apiserver refuses a pod whose namespace or class does not exist
/// yet), then the other objects in the file's order. Pods the scenario started bound keep
/// their `spec.nodeName` (they are the cluster's starting state); the others have none, so
/// the real scheduler places them. Finished pods (Succeeded, Failed) are left out.
pub fn manifests(text: &str, sc: &Scenario, opts: ManifestOptions) -> String {
    let mut notes: BTreeSet<String> = BTreeSet::new();
    let mut first = Vec::new();
    let mut rest = Vec::new();
    let mut namespaces_used = BTreeSet::new();
    let mut namespaces_declared = BTreeSet::new();
    for mut doc in objects(text) {
        let (api_version, kind) = (
            doc.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_string(),
            doc.get("kind").and_then(Value::as_str).unwrap_or_default().to_string(),
        );
        if (api_version.as_str(), kind.as_str()) == (crate::timeline::API_VERSION, crate::timeline::KIND) {
            notes.insert("the Timeline (schedlab's own: its steps change the cluster while the engine runs; replay them by hand)".into());
            continue;
        }
        if (api_version.as_str(), kind.as_str()) == (crate::load::lesson::API_VERSION, crate::load::lesson::KIND) {
            notes.insert("the Lesson (schedlab's own)".into());
            continue;
        }
        if kind == "KubeSchedulerConfiguration" {
            notes.insert("the KubeSchedulerConfiguration (kube-scheduler reads it from --config: schedlab export --what config)".into());
            continue;
        }
        if !crate::load::kind_entries().any(|(av, k, _, _)| *av == api_version && *k == kind) {
            continue;
        }
        if kind == "Pod" {
            let phase = doc.pointer("/status/phase").and_then(Value::as_str).unwrap_or_default();
            if matches!(phase, "Succeeded" | "Failed") {
                notes.insert("finished pods (Succeeded or Failed: they hold no resources)".into());
                continue;
            }
        }
        clean(&mut doc, &kind, &mut notes);
        if kind == "Node" && opts.kwok {
            let meta = object_at(&mut doc, "metadata");
            let ann = object_at_map(meta, "annotations");
            for (k, v) in [KWOK_NODE_ANNOTATION, KWOK_TTL_ANNOTATION] {
                ann.insert(k.into(), Value::String(v.into()));
            }
        }
        let name = doc.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
        let namespaced = crate::load::kind_entries().any(|(av, k, _, ns)| *av == api_version && *k == kind && *ns);
        if namespaced {
            let ns = doc.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("default");
            namespaces_used.insert(ns.to_string());
        }
        match kind.as_str() {
            "Namespace" => {
                namespaces_declared.insert(name);
                first.push(doc);
            }
            "PriorityClass" => first.push(doc),
            _ => rest.push(doc),
        }
    }
    let version = sc.features().version();
    let mut out = format!(
        "# The scenario's objects for kubectl apply -f (schedlab export, Kubernetes v{version}).\n\
         # Pods the scenario started bound keep spec.nodeName; the others are left to the scheduler.\n"
    );
    if opts.kwok {
        out.push_str(
            "# Nodes are KWOK fake nodes: annotated kwok.x-k8s.io/node=fake (KWOK's node selector) and\n\
             # node.alpha.kubernetes.io/ttl=0, not tainted (a taint would change the scheduling replayed).\n",
        );
    }
    for n in &notes {
        out.push_str(&format!("# Left out: {n}.\n"));
    }
    let implied: Vec<String> = namespaces_used
        .into_iter()
        .filter(|n| !BUILT_IN_NAMESPACES.contains(&n.as_str()) && !namespaces_declared.contains(n))
        .collect();
    let mut docs: Vec<Value> = implied
        .iter()
        .map(|n| serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n}}))
        .collect();
    docs.extend(first);
    docs.extend(rest);
    for d in &docs {
        out.push_str("---\n");
        out.push_str(&schedlab_view::yaml::to_yaml_in_order(d));
    }
    out
}

/// The text's objects in order, a `…List`'s items in its place (given the list's kind and
/// apiVersion when they leave them out); documents that do not parse or are empty are skipped.
fn objects(text: &str) -> Vec<Value> {
    let (read, _) = crate::load::yaml::read_documents(text);
    let mut docs = Vec::new();
    for v in read.iter().map(|d| d.to_json()) {
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        match v.get("items").and_then(Value::as_array) {
            Some(items) if kind.ends_with("List") => {
                let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty());
                for item in items {
                    let mut item = item.clone();
                    if let (Some(k), Some(m)) = (item_kind, item.as_object_mut()) {
                        m.entry("kind").or_insert_with(|| Value::String(k.into()));
                        if let Some(av) = v.get("apiVersion") {
                            m.entry("apiVersion").or_insert_with(|| av.clone());
                        }
                    }
                    docs.push(item);
                }
            }
            _ if v.is_object() => docs.push(v),
            _ => {}
        }
    }
    docs
}

/// Leaves out what a client may not create with and what only schedlab reads.
fn clean(doc: &mut Value, kind: &str, notes: &mut BTreeSet<String>) {
    let Some(obj) = doc.as_object_mut() else { return };
    if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        clean_metadata(meta, notes);
    }
    if kind == "Pod" && obj.remove("status").is_some() {
        notes.insert("pods' status (the apiserver and the kubelet set it)".into());
    }
    // A workload's pod template carries metadata too.
    if let Some(meta) = obj.get_mut("spec").and_then(|s| s.pointer_mut("/template/metadata")).and_then(Value::as_object_mut) {
        clean_metadata(meta, notes);
    }
}

fn clean_metadata(meta: &mut Map<String, Value>, notes: &mut BTreeSet<String>) {
    for key in SERVER_METADATA {
        if meta.remove(key).is_some() {
            let why = if key == "ownerReferences" {
                "metadata.ownerReferences (they name uids a new cluster does not have: its garbage collector would delete the object; controllers adopt their pods again by selector)".to_string()
            } else {
                format!("metadata.{key} (the apiserver sets it)")
            };
            notes.insert(why);
        }
    }
    if let Some(ann) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
        let before = ann.len();
        ann.retain(|k, _| !SCHEDLAB_PREFIXES.iter().any(|p| k.starts_with(p)));
        if ann.len() != before {
            notes.insert("schedlab.dev/ annotations (schedlab's own, such as a pod's run time schedlab.dev/duration)".into());
        }
        if ann.is_empty() {
            meta.remove("annotations");
        }
    }
}

fn object_at<'a>(doc: &'a mut Value, key: &str) -> &'a mut Map<String, Value> {
    let obj = doc.as_object_mut().expect("an object");
    object_at_map(obj, key)
}

fn object_at_map<'a>(obj: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    let v = obj.entry(key).or_insert_with(|| Value::Object(Map::new()));
    if !v.is_object() {
        *v = Value::Object(Map::new());
    }
    v.as_object_mut().expect("made an object")
}
