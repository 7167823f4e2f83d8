//! A cluster that changes over logical time: the `schedlab.dev/v1alpha1` `Timeline` document
//! (create / delete / patch steps at Go-duration times) and the `schedlab.dev/duration`
//! annotation (a pod finishes that long after it is bound). The rules are those of
//! `tests/conformance/timeline/README.md`.
//!
//! This module holds the data (`Timeline`, `Step`, `Change`), Go durations, and the merge
//! patches a step may apply; the loader reads and validates the document (`load/timeline.rs`).
//! Applying a change to a running engine is `Engine::apply_change`, which anything that changes
//! the cluster (a timeline step, later a controller) goes through.

pub mod duration;
pub mod patch;

use crate::api;
pub use duration::{format_go_duration, parse_go_duration};
pub use patch::{merge_patch, patch_node, patch_pod, patch_replicas};

pub const API_VERSION: &str = "schedlab.dev/v1alpha1";
pub const KIND: &str = "Timeline";
/// A pod with this annotation (a Go duration) finishes, Succeeded, that long after it is bound.
pub const DURATION_ANNOTATION: &str = "schedlab.dev/duration";
/// The period of upstream's flush of the unschedulable pool (flushUnschedulablePodsLeftover).
pub const FLUSH_PERIOD_NS: i64 = 30 * 1_000_000_000;
/// How long a pod may stay in the unschedulable pool before that flush retries it
/// (upstream's podMaxInUnschedulablePodsDuration default).
pub const MAX_UNSCHEDULABLE_NS: i64 = 5 * 60 * 1_000_000_000;

/// The steps of a scenario's Timeline, in list order (`at` never decreases).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Logical time since the scheduler started, ns.
    pub at_ns: i64,
    /// Where the step is in the file (1-based; 0 when unknown).
    pub line: usize,
    pub column: usize,
    pub change: Change,
}

/// One change to the cluster.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A whole object, defaulted and admitted like a document of the file.
    Create(Box<Object>),
    Delete(Target),
    /// An RFC 7386 merge patch (see `patch::patch_node` / `patch::patch_pod` for what it may
    /// change).
    Patch(Target, serde_json::Value),
}

impl Change {
    /// `create`, `delete` or `patch`.
    pub fn verb(&self) -> &'static str {
        match self {
            Change::Create(_) => "create",
            Change::Delete(_) => "delete",
            Change::Patch(..) => "patch",
        }
    }
    /// `Kind/name` or `Kind/namespace/name` of the object the change is about.
    pub fn object(&self) -> String {
        match self {
            Change::Create(o) => o.key(),
            Change::Delete(t) | Change::Patch(t, _) => t.key(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TargetKind {
    Node,
    Pod,
    /// Workloads a step may scale (`patch` of `spec.replicas` only).
    Deployment,
    ReplicaSet,
    StatefulSet,
}

impl TargetKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TargetKind::Node => "Node",
            TargetKind::Pod => "Pod",
            TargetKind::Deployment => "Deployment",
            TargetKind::ReplicaSet => "ReplicaSet",
            TargetKind::StatefulSet => "StatefulSet",
        }
    }
    /// Namespaced kinds (all but Node).
    pub fn namespaced(self) -> bool {
        self != TargetKind::Node
    }
}

/// The object a delete or patch names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub kind: TargetKind,
    /// `default` for pods when not given; empty for nodes.
    pub namespace: String,
    pub name: String,
}

impl Target {
    pub fn key(&self) -> String {
        match self.kind {
            TargetKind::Node => format!("Node/{}", self.name),
            k => format!("{}/{}/{}", k.as_str(), self.namespace, self.name),
        }
    }
    /// `namespace/name` for namespaced objects (the engine's pod key), the name for nodes.
    pub fn object_key(&self) -> String {
        match self.kind {
            TargetKind::Node => self.name.clone(),
            _ => format!("{}/{}", self.namespace, self.name),
        }
    }
}

/// An object a step creates.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    Node(api::Node),
    Pod(api::Pod),
    Namespace(api::Namespace),
    PriorityClass(api::PriorityClass),
    PersistentVolume(api::PersistentVolume),
    PersistentVolumeClaim(api::PersistentVolumeClaim),
    StorageClass(api::StorageClass),
    CsiNode(api::CsiNode),
    CsiDriver(api::CsiDriver),
    PodDisruptionBudget(api::PodDisruptionBudget),
}

impl Object {
    pub fn meta(&self) -> &api::ObjectMeta {
        match self {
            Object::Node(o) => &o.metadata,
            Object::Pod(o) => &o.metadata,
            Object::Namespace(o) => &o.metadata,
            Object::PriorityClass(o) => &o.metadata,
            Object::PersistentVolume(o) => &o.metadata,
            Object::PersistentVolumeClaim(o) => &o.metadata,
            Object::StorageClass(o) => &o.metadata,
            Object::CsiNode(o) => &o.metadata,
            Object::CsiDriver(o) => &o.metadata,
            Object::PodDisruptionBudget(o) => &o.metadata,
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Object::Node(_) => "Node",
            Object::Pod(_) => "Pod",
            Object::Namespace(_) => "Namespace",
            Object::PriorityClass(_) => "PriorityClass",
            Object::PersistentVolume(_) => "PersistentVolume",
            Object::PersistentVolumeClaim(_) => "PersistentVolumeClaim",
            Object::StorageClass(_) => "StorageClass",
            Object::CsiNode(_) => "CSINode",
            Object::CsiDriver(_) => "CSIDriver",
            Object::PodDisruptionBudget(_) => "PodDisruptionBudget",
        }
    }
    /// `Kind/name`, or `Kind/namespace/name` for namespaced objects.
    pub fn key(&self) -> String {
        let m = self.meta();
        match m.namespace.as_deref() {
            Some(ns) => format!("{}/{}/{}", self.kind(), ns, m.name),
            None => format!("{}/{}", self.kind(), m.name),
        }
    }
}

/// The duration a pod's `schedlab.dev/duration` annotation gives, ns (`None` without it).
pub fn pod_duration(pod: &api::Pod) -> Result<Option<i64>, String> {
    let Some(v) = pod.metadata.annotations.get(DURATION_ANNOTATION) else {
        return Ok(None);
    };
    let d = parse_go_duration(v)?;
    if d < 0 {
        return Err(format!("{DURATION_ANNOTATION}: must not be negative ({v:?})"));
    }
    Ok(Some(d))
}

/// Whether the annotation is set (valid or not): it switches the timeline rules on.
pub fn has_duration(pod: &api::Pod) -> bool {
    pod.metadata.annotations.contains_key(DURATION_ANNOTATION)
}

#[cfg(test)]
mod tests;
