//! Loading a scenario: one multi-document YAML (or JSON) file, `kind: List` documents
//! included, into typed objects; then the apiserver's defaulting, validation and admission as
//! the conformance README describes. Every problem found is reported (one object's errors do
//! not stop the others), each with file, line, column, object and field, worded like kubectl.

pub(crate) mod defaults;
mod dra;
mod error;
pub(crate) mod lesson;
mod timeline;
pub(crate) mod validate;
pub(crate) mod workloads;
pub(crate) mod yaml;

#[cfg(test)]
pub(crate) mod strict_path_tests;
#[cfg(test)]
mod tests;

use crate::apimachinery::json;
pub use crate::apimachinery::FieldPath;
pub(crate) use dra::template_claim;
pub use error::{ErrorReason, LoadError, LoadErrors, MAX_ERRORS};

use crate::api::{self, ObjectMeta};
use crate::cluster::Cluster;
use crate::config::SchedulerConfig;
use crate::version::Features;
use defaults::PodOrigin;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::sync::Arc;
use validate::Ctx;
use yaml::{Pos, Seg, Val, YNode};

/// Everything a scenario declares, defaulted and admitted, in document order.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    /// Shared, not copied, with the engines that run the scenario (and with a session's copy).
    pub nodes: Vec<Arc<api::Node>>,
    /// Every pod (running and pending), in document order; shared as the nodes.
    pub pods: Vec<Arc<api::Pod>>,
    /// Document index of each pod (parallel to `pods`).
    pub pod_docs: Vec<usize>,
    /// Namespaces, PriorityClasses, volumes, storage, PDBs.
    pub cluster: Cluster,
    pub config: SchedulerConfig,
    /// Whether the scenario carried a KubeSchedulerConfiguration.
    pub has_config: bool,
    /// Number of objects in the scenario (the KubeSchedulerConfiguration aside). Objects are
    /// numbered in file order from 0, each item of a `kind: List` counting as one; empty or
    /// comment-only documents do not count. An object's number is its "document index": its
    /// creation time (and a running pod's start time) is 2025-01-01T00:00:00Z plus that many
    /// seconds.
    pub documents: usize,
    /// How many pods at the end of `pods` the controllers created (0 for a loaded file).
    pub created_pods: usize,
    /// The Timeline document's steps, when the scenario has one (see `crate::timeline`).
    pub timeline: Option<crate::timeline::Timeline>,
    /// The Lesson document, when the scenario has one (see `crate::lesson`; the engine never
    /// reads it).
    pub lesson: Option<lesson::Lesson>,
}

impl Scenario {
    /// The Kubernetes version and feature gates the scenario was loaded for.
    pub fn features(&self) -> &Features {
        &self.config.features
    }
}

/// Inputs larger than this are refused before parsing.
pub const MAX_INPUT_BYTES: usize = 64 * 1024 * 1024;

/// Parses and loads a scenario given as bytes (checked to be UTF-8). `file` names the input
/// in error messages.
pub fn load_bytes(bytes: &[u8], file: &str) -> Result<Scenario, LoadErrors> {
    load_bytes_for(bytes, file, &Features::default())
}

/// `load_bytes` for a given Kubernetes version and feature gates.
pub fn load_bytes_for(bytes: &[u8], file: &str, features: &Features) -> Result<Scenario, LoadErrors> {
    match std::str::from_utf8(bytes) {
        Ok(text) => load_str_for(text, file, features),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
            let mut errs = LoadErrors::new(file);
            errs.push(
                LoadError::at(
                    line,
                    column,
                    format!(
                        "error converting YAML to JSON: yaml: invalid UTF-8: byte 0x{:02x} (the file must be UTF-8 text)",
                        bytes[e.valid_up_to()]
                    ),
                )
                .with_reason(ErrorReason::Syntax),
            );
            Err(errs)
        }
    }
}

/// Parses and loads a scenario for the newest supported Kubernetes version with its default
/// feature gates. `file` names the input in error messages.
pub fn load_str(text: &str, file: &str) -> Result<Scenario, LoadErrors> {
    load_str_for(text, file, &Features::default())
}

/// Parses and loads a scenario for a Kubernetes version and its feature gates (the
/// configuration's defaults and fields depend on them, and the engine reads them from the
/// scenario's configuration: `Scenario::features`).
pub fn load_str_for(text: &str, file: &str, features: &Features) -> Result<Scenario, LoadErrors> {
    let mut errs = LoadErrors::new(file);
    if text.len() > MAX_INPUT_BYTES {
        errs.push(
            LoadError::at(
                0,
                0,
                format!("input is too large ({} bytes; the limit is {MAX_INPUT_BYTES})", text.len()),
            )
            .with_reason(ErrorReason::Syntax),
        );
        return Err(errs);
    }
    let mut ld = Loader {
        errs: &mut errs,
        sc: Scenario {
            config: SchedulerConfig::defaults(features),
            ..Scenario::default()
        },
        origins: Vec::new(),
        next_doc: 0,
        seen: HashMap::new(),
        config: None,
        timeline: None,
        lesson_line: None,
    };
    // Each document is loaded as soon as it is read (and its tree dropped before the next).
    // The duplicate-name check's map is sized for one object per `---` piece: growing it
    // rehashes every name held (cold in the cache), which cost more than the checks.
    let pieces = yaml::pieces(text);
    ld.seen.reserve(pieces.len());
    let syntax = yaml::each_document_of(text, pieces, |d| ld.document(&d));
    // The syntax errors come first, as when every document was read before any was loaded.
    let syntax = syntax.into_iter().map(|e| {
        LoadError::at(e.pos.line, e.pos.column, format!("error converting YAML to JSON: {}", e.message))
            .with_reason(ErrorReason::Syntax)
    });
    ld.errs.errors.splice(0..0, syntax);
    ld.sc.documents = ld.next_doc;
    if let Some(node) = ld.config.take() {
        ld.sc.has_config = true;
        match crate::config::decode::decode_json(&node.to_json(), features) {
            Ok(c) => ld.sc.config = c,
            Err(list) => {
                for ce in list {
                    ld.errs.push(config_error(&node, &ce));
                }
            }
        }
    }
    // Admission runs even when other objects failed, so that its errors are reported too.
    defaults::apply(&mut ld.sc, &ld.origins, ld.errs);
    dra::apply(&mut ld.sc, &ld.origins, ld.errs);
    // The timeline last: its steps see the file's objects as admitted.
    if let Some(doc) = ld.timeline.take() {
        ld.read_timeline(&doc);
    }
    let sc = std::mem::take(&mut ld.sc);
    drop(ld);
    if !errs.is_empty() {
        errs.finish();
        return Err(errs);
    }
    Ok(sc)
}

/// The kinds a scenario may hold: (apiVersion, kind, resource name in messages, namespaced).
/// A kind a scenario may hold: apiVersion, kind, resource (as errors name it), namespaced.
pub(crate) type KindEntry = (&'static str, &'static str, &'static str, bool);

const KINDS: [KindEntry; 15] = [
    ("v1", "Node", "nodes", false),
    ("v1", "Pod", "pods", true),
    ("v1", "Namespace", "namespaces", false),
    ("v1", "PersistentVolume", "persistentvolumes", false),
    ("v1", "PersistentVolumeClaim", "persistentvolumeclaims", true),
    ("scheduling.k8s.io/v1", "PriorityClass", "priorityclasses.scheduling.k8s.io", false),
    ("storage.k8s.io/v1", "StorageClass", "storageclasses.storage.k8s.io", false),
    ("storage.k8s.io/v1", "CSINode", "csinodes.storage.k8s.io", false),
    ("storage.k8s.io/v1", "CSIDriver", "csidrivers.storage.k8s.io", false),
    ("policy/v1", "PodDisruptionBudget", "poddisruptionbudgets.policy", true),
    ("policy/v1beta1", "PodDisruptionBudget", "poddisruptionbudgets.policy", true),
    ("resource.k8s.io/v1", "DeviceClass", "deviceclasses.resource.k8s.io", false),
    ("resource.k8s.io/v1", "ResourceSlice", "resourceslices.resource.k8s.io", false),
    ("resource.k8s.io/v1", "ResourceClaim", "resourceclaims.resource.k8s.io", true),
    (
        "resource.k8s.io/v1",
        "ResourceClaimTemplate",
        "resourceclaimtemplates.resource.k8s.io",
        true,
    ),
];

/// The entry of every kind a scenario may hold: the core kinds, then each group of kinds that
/// has its own loader module (which `Loader::object` hands them to).
pub(crate) fn kind_entries() -> impl Iterator<Item = &'static KindEntry> {
    KINDS.iter().chain(workloads::KINDS.iter())
}
const CONFIG: (&str, &str) = ("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration");

fn json_type(n: &YNode) -> &'static str {
    match n.val {
        Val::Null => "null",
        Val::Bool(_) => "bool",
        Val::Int(_) | Val::UInt(_) | Val::Float(_) => "number",
        Val::Str(_) => "string",
        Val::Seq(_) => "array",
        Val::Map(_) => "object",
    }
}

fn str_at<'a>(n: &'a YNode, key: &str) -> Option<&'a str> {
    n.get(key).and_then(YNode::as_str)
}

struct Loader<'e> {
    errs: &'e mut LoadErrors,
    sc: Scenario,
    origins: Vec<PodOrigin>,
    next_doc: usize,
    /// (kind, namespace, name) of each object (`seen_key`), with where its name is.
    seen: HashMap<Vec<u8>, Pos>,
    config: Option<YNode<'static>>,
    /// The Timeline document, read once the file's objects are known.
    timeline: Option<YNode<'static>>,
    /// The line of the Lesson document (there may be one).
    lesson_line: Option<usize>,
}

impl Loader<'_> {
    fn error(&mut self, pos: Pos, reason: ErrorReason, object: Option<String>, doc: Option<usize>, message: String) {
        let mut e = LoadError::at(pos.line, pos.column, message).with_reason(reason);
        e.object = object;
        e.document = doc;
        self.errs.push(e);
    }

    fn document(&mut self, node: &YNode) {
        // JSON has no infinities or NaN: kubectl's YAML-to-JSON conversion refuses them.
        if let Some((pos, f)) = node.non_finite() {
            let go = if f.is_nan() {
                "NaN"
            } else if f > 0.0 {
                "+Inf"
            } else {
                "-Inf"
            };
            let msg = format!("error converting YAML to JSON: json: unsupported value: {go}");
            self.error(pos, ErrorReason::Syntax, None, None, msg);
            return;
        }
        if !matches!(node.val, Val::Map(_)) {
            let msg = format!(
                "unable to decode document: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                json_type(node)
            );
            self.error(node.pos, ErrorReason::Syntax, None, None, msg);
            return;
        }
        let kind = str_at(node, "kind").unwrap_or("");
        let list_of = kind
            .strip_suffix("List")
            .and_then(|k| kind_entries().find(|(av, kk, _, _)| *kk == k && Some(*av) == str_at(node, "apiVersion")));
        if kind == "List" || list_of.is_some() {
            self.list(node, list_of.map(|(av, k, _, _)| (*av, *k)));
        } else {
            self.object(node, None);
        }
    }

    /// A `kind: List` (as `kubectl get -o yaml` prints) or a typed list such as `PodList`
    /// (whose items may leave out kind and apiVersion).
    fn list(&mut self, node: &YNode, item_kind: Option<(&str, &str)>) {
        let Val::Map(entries) = &node.val else { return };
        for e in entries {
            if !matches!(&*e.key, "apiVersion" | "kind" | "items" | "metadata") {
                let msg = format!("List cannot be handled: strict decoding error: unknown field {:?}", e.key);
                self.error(e.key_pos, ErrorReason::Decode, None, None, msg);
            }
        }
        match node.get("items").map(|i| &i.val) {
            None | Some(Val::Null) => {}
            Some(Val::Seq(items)) => {
                for item in items {
                    self.object(item, item_kind);
                }
            }
            Some(_) => {
                let n = node.get("items").expect("matched");
                let msg = format!(
                    "List cannot be handled: json: cannot unmarshal {} into Go struct field List.items of type []runtime.RawExtension",
                    json_type(n)
                );
                self.error(n.pos, ErrorReason::Decode, None, None, msg);
            }
        }
    }

    fn object(&mut self, node: &YNode, default_kind: Option<(&str, &str)>) {
        if !matches!(node.val, Val::Map(_)) {
            let msg = format!(
                "unable to decode object: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                json_type(node)
            );
            self.error(node.pos, ErrorReason::Syntax, None, None, msg);
            return;
        }
        let api_version = str_at(node, "apiVersion").or(default_kind.map(|d| d.0)).unwrap_or("");
        let kind = str_at(node, "kind").or(default_kind.map(|d| d.1)).unwrap_or("");
        let name = node.get("metadata").and_then(|m| str_at(m, "name")).unwrap_or("");
        if api_version.is_empty() || kind.is_empty() {
            let missing = match (api_version.is_empty(), kind.is_empty()) {
                (true, true) => "[apiVersion not set, kind not set]",
                (true, false) => "apiVersion not set",
                _ => "kind not set",
            };
            let object = (!kind.is_empty()).then(|| format!("{kind}/{name}"));
            self.error(
                node.pos,
                ErrorReason::Kind,
                object,
                None,
                format!("error validating data: {missing}"),
            );
            return;
        }
        if (api_version, kind) == (crate::timeline::API_VERSION, crate::timeline::KIND) {
            if let Some(first) = &self.timeline {
                let msg = format!("at most one Timeline may be given (the first is at line {})", first.pos.line);
                self.error(node.pos, ErrorReason::Rejected, Some(kind.to_string()), None, msg);
            } else {
                self.timeline = Some(node.clone().into_owned());
            }
            return;
        }
        if (api_version, kind) == (lesson::API_VERSION, lesson::KIND) {
            if let Some(first) = self.lesson_line {
                let msg = format!("at most one Lesson may be given (the first is at line {first})");
                self.error(node.pos, ErrorReason::Rejected, Some(kind.to_string()), None, msg);
            } else {
                self.lesson_line = Some(node.pos.line);
                self.sc.lesson = lesson::read(node, self.errs);
            }
            return;
        }
        if (api_version, kind) == CONFIG {
            let pos = node.pos;
            if let Some(first) = &self.config {
                let msg = format!(
                    "at most one KubeSchedulerConfiguration may be given (the first is at line {})",
                    first.pos.line
                );
                self.error(pos, ErrorReason::Rejected, Some(kind.to_string()), None, msg);
            } else {
                self.config = Some(node.clone().into_owned());
            }
            return;
        }
        let doc = self.next_doc;
        self.next_doc += 1;
        let Some(entry) = kind_entries().find(|(av, k, _, _)| *av == api_version && *k == kind) else {
            let pos = node.get("kind").map(|_| node.locate(&[Seg::Key("kind")])).unwrap_or(node.pos);
            let msg = format!(
                "no matches for kind {kind:?} in version {api_version:?} (a scenario may hold: {})",
                kinds_list()
            );
            self.error(pos, ErrorReason::Kind, Some(format!("{kind}/{name}")), Some(doc), msg);
            return;
        };
        if workloads::KINDS.contains(entry) {
            self.workload(node, entry, doc);
            return;
        }
        match kind {
            "Pod" => {
                if let Some(p) = self.admit(node, entry, doc, defaults::default_pod, validate::validate_pod) {
                    let at = |k: &str| {
                        node.get("spec")
                            .and_then(|s| s.get(k))
                            .map(|_| pair(node.locate(&[Seg::Key("spec"), Seg::Key(k)])))
                    };
                    if let Err(m) = crate::timeline::pod_duration(&p) {
                        let key = crate::timeline::DURATION_ANNOTATION;
                        let pos = node.locate(&[Seg::Key("metadata"), Seg::Key("annotations"), Seg::Key(key)]);
                        let mut e = LoadError::at(pos.line, pos.column, m).with_reason(ErrorReason::Invalid);
                        e.object = Some(format!("Pod/{}", p.metadata.name));
                        e.field = Some(format!("metadata.annotations[{key}]"));
                        e.document = Some(doc);
                        self.errs.push(e);
                    }
                    self.origins.push(PodOrigin {
                        doc,
                        root: pair(node.pos),
                        priority_class_name: at("priorityClassName"),
                        priority: at("priority"),
                        preemption_policy: at("preemptionPolicy"),
                    });
                    self.sc.pods.push(Arc::new(p));
                    self.sc.pod_docs.push(doc);
                }
            }
            "Node" => {
                if let Some(n) = self.admit(node, entry, doc, defaults::default_node, validate::validate_node) {
                    self.sc.nodes.push(Arc::new(n));
                }
            }
            "Namespace" => {
                if let Some(ns) = self.admit(node, entry, doc, defaults::default_namespace, validate::validate_namespace) {
                    self.sc.cluster.namespaces.insert(ns.metadata.name.clone(), ns);
                }
            }
            "PriorityClass" => {
                if let Some(pc) = self.admit(
                    node,
                    entry,
                    doc,
                    defaults::default_priority_class,
                    validate::validate_priority_class,
                ) {
                    self.sc.cluster.priority_classes.insert(pc.metadata.name.clone(), pc);
                }
            }
            "PersistentVolume" => {
                if let Some(pv) = self.admit(node, entry, doc, defaults::default_pv, validate::validate_pv) {
                    self.sc.cluster.pvs.insert(pv.metadata.name.clone(), pv.into());
                }
            }
            "PersistentVolumeClaim" => {
                if let Some(pvc) = self.admit(node, entry, doc, defaults::default_pvc, validate::validate_pvc) {
                    let key = format!("{}/{}", pvc.metadata.namespace.as_deref().unwrap_or("default"), pvc.metadata.name);
                    self.sc.cluster.pvcs.insert(key, pvc.into());
                }
            }
            "StorageClass" => {
                if let Some(s) = self.admit(node, entry, doc, defaults::default_storage_class, validate::validate_storage_class) {
                    self.sc.cluster.storage_classes.insert(s.metadata.name.clone(), s);
                }
            }
            "CSINode" => {
                if let Some(s) = self.admit(node, entry, doc, defaults::default_csi_node, validate::validate_csi_node) {
                    self.sc.cluster.csi_nodes.insert(s.metadata.name.clone(), s);
                }
            }
            "CSIDriver" => {
                if let Some(s) = self.admit(node, entry, doc, defaults::default_csi_driver, validate::validate_csi_driver) {
                    self.sc.cluster.csi_drivers.insert(s.metadata.name.clone(), s);
                }
            }
            "PodDisruptionBudget" => {
                if let Some(mut s) = self.admit(node, entry, doc, defaults::default_pdb, validate::validate_pdb) {
                    if api_version == "policy/v1beta1" {
                        defaults::convert_pdb_v1beta1(&mut s);
                    }
                    self.sc.cluster.pdbs.push(s);
                }
            }
            "DeviceClass" | "ResourceSlice" | "ResourceClaim" | "ResourceClaimTemplate" => self.dra_object(node, entry, doc),
            _ => unreachable!("every kind of KINDS is handled"),
        }
    }

    /// Decodes, defaults and validates one object of a kind of `KINDS`; returns it, with its
    /// apiVersion and kind, when it joins the scenario.
    fn admit<T: Admitted>(
        &mut self,
        node: &YNode,
        &(api_version, kind, resource, namespaced): &KindEntry,
        doc: usize,
        default: fn(&mut T, usize),
        validate: fn(&mut Ctx, &T),
    ) -> Option<T> {
        let mut obj = self.decode::<T>(node, kind, api_version, doc)?;
        default(&mut obj, doc);
        let mut c = Ctx::new(Some(node));
        validate(&mut c, &obj);
        if !self.accept(node, kind, resource, namespaced, obj.meta(), doc, c) {
            return None;
        }
        obj.set_type(api_version, kind);
        Some(obj)
    }

    /// Decodes strictly; on failure reports where and why.
    fn decode<T: DeserializeOwned + PartialEq + std::fmt::Debug>(&mut self, node: &YNode, kind: &str, api_version: &str, doc: usize) -> Option<T> {
        // Straight from the tree, which reads as the JSON value `to_json` would build.
        let got = T::deserialize(json::Strict::new(node));
        #[cfg(test)]
        {
            strict_path_tests::same_as_path_to_error(&got, serde_path_to_error::deserialize(json::Strict::new(node)));
            strict_path_tests::same_as_through_json(&got, T::deserialize(json::Strict::new(node.to_json())));
        }
        match got {
            Ok(v) => Some(v),
            Err(e) => {
                let name = node.get("metadata").and_then(|m| str_at(m, "name")).unwrap_or("");
                let mut le = decode_error(node, kind, api_version, e);
                le.object = Some(format!("{kind}/{name}"));
                le.document = Some(doc);
                self.errs.push(le);
                None
            }
        }
    }

    /// Reports the object's validation errors and checks that its name is not taken; returns
    /// whether the object joins the scenario (an invalid one still does, so that later checks
    /// do not report it missing).
    #[allow(clippy::too_many_arguments)]
    fn accept(
        &mut self,
        node: &YNode,
        kind: &'static str,
        resource: &str,
        namespaced: bool,
        meta: &ObjectMeta,
        doc: usize,
        cx: Ctx,
    ) -> bool {
        let object = || format!("{kind}/{}", meta.name);
        for fe in cx.errs {
            let at = fe.at.as_ref().unwrap_or(&fe.path);
            let pos = node.locate(&validate::segs(at));
            let mut e = LoadError::at(pos.line, pos.column, fe.body).with_reason(fe.reason);
            e.object = Some(object());
            e.field = Some(fe.path.render());
            e.document = Some(doc);
            self.errs.push(e);
        }
        if meta.name.is_empty() {
            return true;
        }
        let ns = if namespaced { meta.namespace.as_deref().unwrap_or_default() } else { "" };
        let name_pos = node.locate(&[Seg::Key("metadata"), Seg::Key("name")]);
        match self.seen.entry(seen_key(kind, ns, &meta.name)) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let msg = format!("{resource} {:?} already exists (first defined at line {})", meta.name, first.get().line);
                let mut e = LoadError::at(name_pos.line, name_pos.column, msg).with_reason(ErrorReason::Rejected);
                e.object = Some(object());
                e.field = Some("metadata.name".into());
                e.document = Some(doc);
                self.errs.push(e);
                false
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(name_pos);
                true
            }
        }
    }
}

/// The key of `Loader::seen`: kind, namespace and name in one buffer, hashed at once (three
/// strings cost the hasher six writes). 0xFF, which UTF-8 never holds, parts them.
fn seen_key(kind: &str, ns: &str, name: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(kind.len() + ns.len() + name.len() + 2);
    k.extend_from_slice(kind.as_bytes());
    k.push(0xFF);
    k.extend_from_slice(ns.as_bytes());
    k.push(0xFF);
    k.extend_from_slice(name.as_bytes());
    k
}

/// `Kind/namespace/name` of the workloads a timeline step may scale.
fn workload_keys(w: &crate::cluster::Workloads) -> Vec<String> {
    let key = |kind: &str, m: &crate::api::ObjectMeta| format!("{kind}/{}/{}", m.namespace.as_deref().unwrap_or("default"), m.name);
    (w.deployments.iter().map(|d| key("Deployment", &d.metadata)))
        .chain(w.replica_sets.iter().map(|d| key("ReplicaSet", &d.metadata)))
        .chain(w.stateful_sets.iter().map(|d| key("StatefulSet", &d.metadata)))
        .collect()
}

/// Reading the Timeline document (see `load/timeline.rs`): the loader admits each created
/// object as it would a document of the file, numbered after the file's objects.
impl Loader<'_> {
    fn read_timeline(&mut self, doc: &YNode) {
        use timeline::Known;
        let mut known = Known::default();
        for n in &self.sc.nodes {
            known.nodes.insert(n.metadata.name.clone(), (**n).clone());
        }
        for p in &self.sc.pods {
            let ns = p.metadata.namespace.as_deref().unwrap_or("default");
            known.pods.insert(format!("{ns}/{}", p.metadata.name), (**p).clone());
        }
        let c = &self.sc.cluster;
        let others = (c.namespaces.keys().map(|n| format!("Namespace/{n}")))
            .chain(c.priority_classes.keys().map(|n| format!("PriorityClass/{n}")))
            .chain(c.pvs.keys().map(|n| format!("PersistentVolume/{n}")))
            .chain(c.pvcs.keys().map(|k| format!("PersistentVolumeClaim/{k}")))
            .chain(c.storage_classes.keys().map(|n| format!("StorageClass/{n}")))
            .chain(c.csi_nodes.keys().map(|n| format!("CSINode/{n}")))
            .chain(c.csi_drivers.keys().map(|n| format!("CSIDriver/{n}")))
            .chain(workload_keys(&c.workloads))
            .chain(c.pdbs.iter().map(|p| {
                format!(
                    "PodDisruptionBudget/{}/{}",
                    p.metadata.namespace.as_deref().unwrap_or("default"),
                    p.metadata.name
                )
            }));
        known.others.extend(others);
        let documents = self.sc.documents;
        let mut host = TimelineHost { ld: self, classes: None };
        let tl = timeline::read(doc, documents, known, &mut host);
        // Namespaces that timeline objects name exist from the start.
        if let Some(tl) = &tl {
            for s in &tl.steps {
                if let crate::timeline::Change::Create(o) = &s.change {
                    if let Some(ns) = o.meta().namespace.as_deref() {
                        defaults::ensure_namespace(&mut self.sc.cluster, ns);
                    }
                }
            }
        }
        self.sc.timeline = tl;
    }
}

struct TimelineHost<'l, 'e> {
    ld: &'l mut Loader<'e>,
    /// The file's PriorityClasses plus those created by earlier steps (for priority admission).
    classes: Option<std::collections::BTreeMap<String, api::PriorityClass>>,
}

impl timeline::Host for TimelineHost<'_, '_> {
    fn admit(&mut self, node: &YNode, doc: usize) -> Option<crate::timeline::Object> {
        use crate::timeline::Object;
        let ld = &mut *self.ld;
        // Admit into an empty scenario, then take out what joined it. Names are checked by
        // the timeline itself (a node may be created again after its deletion).
        let saved_sc = std::mem::take(&mut ld.sc);
        let saved_seen = std::mem::take(&mut ld.seen);
        let saved_next = ld.next_doc;
        let n_origins = ld.origins.len();
        let n_errors = ld.errs.errors.len();
        ld.next_doc = doc;
        ld.object(node, None);
        let mut got = std::mem::replace(&mut ld.sc, saved_sc);
        ld.seen = saved_seen;
        ld.next_doc = saved_next;
        let origin = ld.origins.drain(n_origins..).next();
        if ld.errs.errors.len() > n_errors {
            return None;
        }
        let classes = self.classes.get_or_insert_with(|| ld.sc.cluster.priority_classes.clone());
        let c = &mut got.cluster;
        if let Some(p) = got.pods.pop() {
            let mut p = Arc::unwrap_or_clone(p);
            let o = origin.unwrap_or_default();
            if !defaults::admit_priority_at(&mut p, &o, classes, ld.errs) {
                return None;
            }
            return Some(Object::Pod(p));
        }
        if let Some(n) = got.nodes.pop() {
            return Some(Object::Node(Arc::unwrap_or_clone(n)));
        }
        if let Some((_, pc)) = c.priority_classes.pop_first() {
            classes.insert(pc.metadata.name.clone(), pc.clone());
            return Some(Object::PriorityClass(pc));
        }
        if let Some((_, ns)) = c.namespaces.pop_first() {
            return Some(Object::Namespace(ns));
        }
        if let Some((_, pv)) = c.pvs.pop_first() {
            return Some(Object::PersistentVolume((*pv).clone()));
        }
        if let Some((_, pvc)) = c.pvcs.pop_first() {
            return Some(Object::PersistentVolumeClaim((*pvc).clone()));
        }
        if let Some((_, s)) = c.storage_classes.pop_first() {
            return Some(Object::StorageClass(s));
        }
        if let Some((_, s)) = c.csi_nodes.pop_first() {
            return Some(Object::CsiNode(s));
        }
        if let Some((_, s)) = c.csi_drivers.pop_first() {
            return Some(Object::CsiDriver(s));
        }
        c.pdbs.pop().map(Object::PodDisruptionBudget)
    }
    fn error(&mut self, e: LoadError) {
        self.ld.errs.push(e);
    }
}

/// The objects the loader admits: their metadata, and the type fields it sets.
trait Admitted: DeserializeOwned + PartialEq + std::fmt::Debug {
    fn meta(&self) -> &ObjectMeta;
    fn set_type(&mut self, api_version: &str, kind: &str);
}

/// Nearly always the document said it already: no new string then.
fn set_unless_equal(field: &mut String, value: &str) {
    if field != value {
        value.clone_into(field);
    }
}

macro_rules! admitted {
    ($($t:ty),*) => {$(
        impl Admitted for $t {
            fn meta(&self) -> &ObjectMeta {
                &self.metadata
            }
            fn set_type(&mut self, api_version: &str, kind: &str) {
                set_unless_equal(&mut self.api_version, api_version);
                set_unless_equal(&mut self.kind, kind);
            }
        }
    )*};
}

admitted!(
    api::Node,
    api::Pod,
    api::Namespace,
    api::PersistentVolume,
    api::PersistentVolumeClaim,
    api::PriorityClass,
    api::StorageClass,
    api::CsiNode,
    api::CsiDriver,
    api::PodDisruptionBudget,
    api::resource::DeviceClass,
    api::resource::ResourceSlice,
    api::resource::ResourceClaim,
    api::resource::ResourceClaimTemplate
);

fn pair(p: Pos) -> (usize, usize) {
    (p.line, p.column)
}

fn kinds_list() -> String {
    let mut s: Vec<String> = kind_entries().map(|(av, k, _, _)| format!("{av} {k}")).collect();
    s.push(format!("{} {}", CONFIG.0, CONFIG.1));
    s.join(", ")
}

/// A configuration error, placed at its field: the key of a field that should not be there (or
/// whose value is missing), the value of one that is wrong; when the path leaves the document
/// (a defaulted field), the deepest node on it.
fn config_error(node: &YNode, ce: &crate::config::ConfigError) -> LoadError {
    let path = ce.path();
    let pos = node.locate_at(&validate::segs(&path), ce.about_value());
    let reason = if ce.needs_cel() {
        ErrorReason::NeedsCel
    } else if ce.is_decoding() {
        ErrorReason::Decode
    } else {
        ErrorReason::Rejected
    };
    let mut e = LoadError::at(pos.line, pos.column, format!("KubeSchedulerConfiguration: {ce}")).with_reason(reason);
    e.object = Some("KubeSchedulerConfiguration".into());
    e.field = (!path.is_root()).then(|| path.render());
    e
}

/// Go's name for what serde expected.
fn go_type(expected: &str) -> String {
    match expected {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" => {
            let (sign, bits) = expected.split_at(1);
            format!("{}int{bits}", if sign == "u" { "u" } else { "" })
        }
        "f32" | "f64" => format!("float{}", &expected[1..]),
        "a string" => "string".into(),
        "a boolean" => "bool".into(),
        "a sequence" => "array".into(),
        "a map" => "map[string]string".into(),
        e if e.starts_with("struct ") => "object".into(),
        e if e.starts_with("a quantity") => "resource.Quantity".into(),
        e => e.trim_start_matches("a ").trim_start_matches("an ").to_string(),
    }
}

/// A decoding failure worded like the apiserver's (`Pod in version "v1" cannot be handled as
/// a Pod: ...`), placed at the offending key.
pub(crate) fn decode_error(node: &YNode, kind: &str, api_version: &str, e: json::Error) -> LoadError {
    use json::Segment;
    enum S {
        K(String),
        I(usize),
    }
    let mut segs = Vec::new();
    for s in e.path() {
        match s {
            Segment::Seq(index) => segs.push(S::I(*index)),
            Segment::Map(key) | Segment::Enum(key) => segs.push(S::K(key.clone())),
            Segment::Unknown => break,
        }
    }
    let mut shown = String::new();
    for s in &segs {
        match s {
            S::K(k) => {
                if !shown.is_empty() {
                    shown.push('.');
                }
                shown.push_str(k);
            }
            S::I(i) => shown.push_str(&format!("[{i}]")),
        }
    }
    if shown.len() > 512 {
        let mut end = 512;
        while !shown.is_char_boundary(end) {
            end -= 1;
        }
        shown.truncate(end);
        shown.push_str("...");
    }
    let ysegs: Vec<Seg> = segs
        .iter()
        .map(|s| match s {
            S::K(k) => Seg::Key(k),
            S::I(i) => Seg::Index(*i),
        })
        .collect();
    let pos = node.locate(&ysegs);
    // The value the error is about, when the path reaches it.
    let mut target = Some(node);
    for s in &ysegs {
        target = target.and_then(|n| match (s, &n.val) {
            (Seg::Key(k), Val::Map(es)) => es.iter().find(|e| e.key == *k).map(|e| &e.value),
            (Seg::Index(i), Val::Seq(items)) => items.get(*i),
            _ => None,
        });
    }
    let inner = e.into_inner().to_string();
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    let prefix = format!("{kind} in version {version:?} cannot be handled as a {kind}: ");
    if let Some(rest) = inner.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or("");
        let mut le = LoadError::at(pos.line, pos.column, "Required value".into()).with_reason(ErrorReason::Invalid);
        le.field = Some(if shown.is_empty() {
            field.to_string()
        } else {
            format!("{shown}.{field}")
        });
        return le;
    }
    let detail = if inner.starts_with("unknown field `") {
        format!("strict decoding error: unknown field {shown:?}")
    } else if let Some(rest) = inner
        .strip_prefix("invalid type: ")
        .or_else(|| inner.strip_prefix("invalid value: "))
    {
        let expected = rest.rsplit_once(", expected ").map(|(_, x)| x).unwrap_or("");
        let got = match target {
            Some(n) if inner.starts_with("invalid value") && json_type(n) == "number" => {
                let v = rest.split('`').nth(1).unwrap_or("");
                format!("number {v}")
            }
            Some(n) => json_type(n).to_string(),
            None => "value".into(),
        };
        format!(
            "json: cannot unmarshal {got} into Go struct field {shown} of type {}",
            go_type(expected)
        )
    } else if inner.contains("did not match any variant of untagged enum IntOrString") {
        let got = target.map(json_type).unwrap_or("value");
        format!("json: cannot unmarshal {got} into Go struct field {shown} of type intstr.IntOrString")
    } else if shown.is_empty() {
        inner
    } else {
        format!("{shown}: {inner}")
    };
    let mut le = LoadError::at(pos.line, pos.column, format!("{prefix}{detail}")).with_reason(ErrorReason::Decode);
    le.field = (!shown.is_empty()).then_some(shown);
    le
}

/// The documents of `text`, parsed, in order: a `…List`'s items take its place; documents that
/// do not parse are left out. Read by the loader's own YAML reader (the same scalar typing and
/// limits as a scenario's objects get).
pub fn documents(text: &str) -> Vec<serde_json::Value> {
    let (read, _) = crate::load::yaml::read_documents(text);
    let mut docs = Vec::new();
    for v in read.iter().map(|d| d.to_json()) {
        match v.get("items").and_then(serde_json::Value::as_array) {
            Some(items) if v["kind"].as_str().is_some_and(|k| k.ends_with("List")) => docs.extend(items.iter().cloned()),
            _ => docs.push(v),
        }
    }
    docs
}
