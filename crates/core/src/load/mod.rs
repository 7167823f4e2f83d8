//! Loading a scenario: multi-document YAML (or JSON) into typed objects, then the apiserver's
//! defaulting and admission as the conformance README describes.

mod defaults;
mod error;

pub use error::{LoadError, LoadErrors};

use crate::api;
use crate::cluster::Cluster;
use crate::config::SchedulerConfig;
use serde::de::DeserializeOwned;
use serde_yaml::Value;

/// Everything a scenario declares, defaulted and admitted, in document order.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    pub nodes: Vec<api::Node>,
    /// Every pod (running and pending), in document order.
    pub pods: Vec<api::Pod>,
    /// Document index of each pod (parallel to `pods`).
    pub pod_docs: Vec<usize>,
    /// Namespaces, PriorityClasses, volumes, storage, PDBs.
    pub cluster: Cluster,
    pub config: SchedulerConfig,
    /// Whether the scenario carried a KubeSchedulerConfiguration.
    pub has_config: bool,
    /// Number of documents (objects) in the scenario.
    pub documents: usize,
}

/// Inputs larger than this are refused before parsing.
pub const MAX_INPUT_BYTES: usize = 64 * 1024 * 1024;

/// One object from the input with where it came from.
pub(crate) struct RawObject {
    pub value: Value,
    pub kind: String,
    pub api_version: String,
    pub doc: usize,
    /// 1-based line where the document starts (best effort).
    pub line: usize,
}

/// Parses and loads a scenario. `file` names the input in error messages.
pub fn load_str(text: &str, file: &str) -> Result<Scenario, LoadErrors> {
    let mut errs = LoadErrors::new(file);
    if text.len() > MAX_INPUT_BYTES {
        errs.push(LoadError::at(
            0,
            0,
            format!("input is too large ({} bytes; the limit is {MAX_INPUT_BYTES})", text.len()),
        ));
        return Err(errs);
    }
    let objects = match split_documents(text, &mut errs) {
        Some(o) => o,
        None => return Err(errs),
    };
    let mut sc = Scenario::default();
    let mut config_value: Option<(Value, usize)> = None;
    let mut doc_index = 0usize;
    for obj in objects {
        let idx = doc_index;
        doc_index += 1;
        let ctx = |e: String| LoadError::at(obj.line, 1, e);
        macro_rules! decode {
            ($t:ty) => {
                match decode_typed::<$t>(&obj.value) {
                    Ok(v) => v,
                    Err((path, msg)) => {
                        let mut e = ctx(format!(
                            "{} in version {:?} cannot be handled as a {}: {}",
                            obj.kind,
                            version_of(&obj.api_version),
                            obj.kind,
                            msg
                        ));
                        e.object = Some(format!("{}/{}", obj.kind, name_of(&obj.value)));
                        e.field = Some(path);
                        errs.push(e);
                        continue;
                    }
                }
            };
        }
        match (obj.api_version.as_str(), obj.kind.as_str()) {
            ("v1", "Node") => sc.nodes.push(decode!(api::Node)),
            ("v1", "Pod") => {
                sc.pods.push(decode!(api::Pod));
                sc.pod_docs.push(idx);
            }
            ("v1", "Namespace") => {
                let ns: api::Namespace = decode!(api::Namespace);
                sc.cluster.namespaces.insert(ns.metadata.name.clone(), ns);
            }
            ("scheduling.k8s.io/v1", "PriorityClass") => {
                let pc: api::PriorityClass = decode!(api::PriorityClass);
                sc.cluster.priority_classes.insert(pc.metadata.name.clone(), pc);
            }
            ("v1", "PersistentVolume") => {
                let pv: api::PersistentVolume = decode!(api::PersistentVolume);
                sc.cluster.pvs.insert(pv.metadata.name.clone(), pv.into());
            }
            ("v1", "PersistentVolumeClaim") => {
                let pvc: api::PersistentVolumeClaim = decode!(api::PersistentVolumeClaim);
                let key = format!("{}/{}", pvc.metadata.namespace.as_deref().unwrap_or("default"), pvc.metadata.name);
                sc.cluster.pvcs.insert(key, pvc.into());
            }
            ("storage.k8s.io/v1", "StorageClass") => {
                let s: api::StorageClass = decode!(api::StorageClass);
                sc.cluster.storage_classes.insert(s.metadata.name.clone(), s);
            }
            ("storage.k8s.io/v1", "CSINode") => {
                let s: api::CsiNode = decode!(api::CsiNode);
                sc.cluster.csi_nodes.insert(s.metadata.name.clone(), s);
            }
            ("storage.k8s.io/v1", "CSIDriver") => {
                let s: api::CsiDriver = decode!(api::CsiDriver);
                sc.cluster.csi_drivers.insert(s.metadata.name.clone(), s);
            }
            ("policy/v1", "PodDisruptionBudget") => sc.cluster.pdbs.push(decode!(api::PodDisruptionBudget)),
            ("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration") => {
                if config_value.is_some() {
                    errs.push(ctx("at most one KubeSchedulerConfiguration may be given".into()));
                    continue;
                }
                config_value = Some((obj.value.clone(), obj.line));
                doc_index -= 1;
            }
            (av, kind) => {
                errs.push(ctx(format!("no kind {kind:?} is registered for version {av:?} in this simulator")));
            }
        }
    }
    sc.documents = doc_index;
    if let Some((v, line)) = config_value {
        sc.has_config = true;
        match crate::config::decode::decode_value(&v) {
            Ok(c) => sc.config = c,
            Err(list) => {
                for m in list {
                    let mut e = LoadError::at(line, 1, m);
                    e.object = Some("KubeSchedulerConfiguration".into());
                    errs.push(e);
                }
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    defaults::apply(&mut sc, &mut errs);
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(sc)
}

fn version_of(api_version: &str) -> &str {
    api_version.rsplit('/').next().unwrap_or(api_version)
}

fn name_of(v: &Value) -> String {
    v.get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(|n| n.as_str())
        .unwrap_or("")
        .to_string()
}

/// Decodes a value into a typed object, reporting the field path of the first error.
fn decode_typed<T: DeserializeOwned>(v: &Value) -> Result<T, (String, String)> {
    serde_path_to_error::deserialize::<_, T>(v.clone()).map_err(|e| (e.path().to_string(), e.inner().to_string()))
}

/// Splits the input into objects, expanding `kind: List` documents.
fn split_documents(text: &str, errs: &mut LoadErrors) -> Option<Vec<RawObject>> {
    let mut out = Vec::new();
    let starts = document_start_lines(text);
    for (i, de) in serde_yaml::Deserializer::from_str(text).enumerate() {
        let line = starts.get(i).copied().unwrap_or(1);
        let value: Value = match serde::Deserialize::deserialize(de) {
            Ok(v) => v,
            Err(e) => {
                let (l, c) = e.location().map(|l| (l.line(), l.column())).unwrap_or((line, 1));
                errs.push(LoadError::at(l, c, format!("error converting YAML to JSON: {e}")));
                return None;
            }
        };
        if value.is_null() {
            continue;
        }
        let Some(map) = value.as_mapping() else {
            errs.push(LoadError::at(
                line,
                1,
                "each document must be a Kubernetes object (a mapping)".into(),
            ));
            continue;
        };
        let kind = map.get("kind").and_then(|k| k.as_str()).unwrap_or("").to_string();
        let api_version = map.get("apiVersion").and_then(|k| k.as_str()).unwrap_or("").to_string();
        if kind.is_empty() {
            errs.push(LoadError::at(line, 1, "Object 'Kind' is missing".into()));
            continue;
        }
        if api_version.is_empty() {
            errs.push(LoadError::at(line, 1, "Object 'apiVersion' is missing".into()));
            continue;
        }
        if kind == "List" {
            let items = map.get("items").and_then(|i| i.as_sequence()).cloned().unwrap_or_default();
            for item in items {
                let kind = item.get("kind").and_then(|k| k.as_str()).unwrap_or("").to_string();
                let api_version = item.get("apiVersion").and_then(|k| k.as_str()).unwrap_or("").to_string();
                out.push(RawObject {
                    value: item,
                    kind,
                    api_version,
                    doc: i,
                    line,
                });
            }
            continue;
        }
        out.push(RawObject {
            value,
            kind,
            api_version,
            doc: i,
            line,
        });
    }
    Some(out)
}

/// 1-based line numbers where each YAML document starts (after `---` separators).
fn document_start_lines(text: &str) -> Vec<usize> {
    let mut starts = vec![];
    let mut current: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_end();
        if t == "---" || t.starts_with("--- ") {
            if let Some(c) = current.take() {
                starts.push(c);
            }
            continue;
        }
        if current.is_none() && !t.trim().is_empty() && !t.trim_start().starts_with('#') {
            current = Some(i + 1);
        }
    }
    if let Some(c) = current {
        starts.push(c);
    }
    starts
}
