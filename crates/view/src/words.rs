//! The closed sets of words the engine writes and the page reads, as data: the reasons of the
//! Kubernetes events a run records, what caused a cluster change and what it did, the objects a
//! change is about (kind, namespace, name), a finished pod's phase, and taints (key, value,
//! effect). The engine's trace serializes them as it always wrote them (`"FailedScheduling"`,
//! `"create"`, `"Node/node-a"`), and the page matches on them, never on their text: the text of
//! each word is written here once (`as_str`, `Display`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The reason of a Kubernetes event a run records (`kubectl get events`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventReason {
    /// The pod was bound.
    Scheduled,
    /// The attempt failed (a Warning).
    FailedScheduling,
    /// The pod was a preemption's victim.
    Preempted,
}

impl EventReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EventReason::Scheduled => "Scheduled",
            EventReason::FailedScheduling => "FailedScheduling",
            EventReason::Preempted => "Preempted",
        }
    }

    /// `Warning` rather than `Normal` (`kubectl get events`' TYPE column).
    pub fn is_warning(self) -> bool {
        self == EventReason::FailedScheduling
    }
}

impl fmt::Display for EventReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// What caused a cluster change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ChangeCause {
    /// A timeline step.
    Step,
    /// A pod's `schedlab.dev/duration` ran out.
    Finish,
    /// The 30-second flush of pods unschedulable for more than 5 minutes.
    Flush,
    /// Applied by a caller of `Engine::apply_change` outside the timeline.
    Api,
    /// A workload controller reacting to the cluster (controllers on): a pod created or
    /// deleted; the change's `by` names the controller.
    Controller,
}

/// What a cluster change did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ChangeAction {
    Create,
    Delete,
    Patch,
    /// A pod finished (its duration ran out).
    Finish,
    /// The periodic flush of the unschedulable pool.
    Flush,
}

impl ChangeAction {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeAction::Create => "create",
            ChangeAction::Delete => "delete",
            ChangeAction::Patch => "patch",
            ChangeAction::Finish => "finish",
            ChangeAction::Flush => "flush",
        }
    }
}

impl fmt::Display for ChangeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The phase of a pod that finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FinishedPhase {
    Succeeded,
    Failed,
}

impl FinishedPhase {
    pub fn as_str(self) -> &'static str {
        match self {
            FinishedPhase::Succeeded => "Succeeded",
            FinishedPhase::Failed => "Failed",
        }
    }
}

impl fmt::Display for FinishedPhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The kind of an object a change is about, or of a pod's controller.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Node,
    Pod,
    Namespace,
    PriorityClass,
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    CsiNode,
    CsiDriver,
    PodDisruptionBudget,
    Deployment,
    ReplicaSet,
    ReplicationController,
    StatefulSet,
    DaemonSet,
    Job,
    /// A kind none of the above (an owner reference may name any kind).
    Other(String),
}

impl ObjectKind {
    /// Every kind but `Other`.
    pub const KNOWN: [ObjectKind; 16] = [
        ObjectKind::Node,
        ObjectKind::Pod,
        ObjectKind::Namespace,
        ObjectKind::PriorityClass,
        ObjectKind::PersistentVolume,
        ObjectKind::PersistentVolumeClaim,
        ObjectKind::StorageClass,
        ObjectKind::CsiNode,
        ObjectKind::CsiDriver,
        ObjectKind::PodDisruptionBudget,
        ObjectKind::Deployment,
        ObjectKind::ReplicaSet,
        ObjectKind::ReplicationController,
        ObjectKind::StatefulSet,
        ObjectKind::DaemonSet,
        ObjectKind::Job,
    ];

    /// The kind as the API writes it (`CSINode`, `ReplicaSet`).
    pub fn as_str(&self) -> &str {
        match self {
            ObjectKind::Node => "Node",
            ObjectKind::Pod => "Pod",
            ObjectKind::Namespace => "Namespace",
            ObjectKind::PriorityClass => "PriorityClass",
            ObjectKind::PersistentVolume => "PersistentVolume",
            ObjectKind::PersistentVolumeClaim => "PersistentVolumeClaim",
            ObjectKind::StorageClass => "StorageClass",
            ObjectKind::CsiNode => "CSINode",
            ObjectKind::CsiDriver => "CSIDriver",
            ObjectKind::PodDisruptionBudget => "PodDisruptionBudget",
            ObjectKind::Deployment => "Deployment",
            ObjectKind::ReplicaSet => "ReplicaSet",
            ObjectKind::ReplicationController => "ReplicationController",
            ObjectKind::StatefulSet => "StatefulSet",
            ObjectKind::DaemonSet => "DaemonSet",
            ObjectKind::Job => "Job",
            ObjectKind::Other(k) => k,
        }
    }

    /// The kind the API calls `kind` (an owner reference's, an object's `kind:`).
    pub fn from_api(kind: &str) -> ObjectKind {
        ObjectKind::KNOWN
            .into_iter()
            .find(|k| k.as_str() == kind)
            .unwrap_or_else(|| ObjectKind::Other(kind.to_string()))
    }
}

impl fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl Serialize for ObjectKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ObjectKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(ObjectKind::from_api(&String::deserialize(d)?))
    }
}

/// An object of the cluster: its kind, its namespace when it has one, its name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectRef {
    pub kind: ObjectKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    pub fn new(kind: ObjectKind, namespace: Option<String>, name: impl Into<String>) -> ObjectRef {
        ObjectRef {
            kind,
            namespace,
            name: name.into(),
        }
    }

    /// Serializes as its text (`Kind/name`, `Kind/namespace/name`), as the trace writes it.
    pub fn serialize_text<S: Serializer, R: AsRef<ObjectRef>>(r: &Option<R>, s: S) -> Result<S::Ok, S::Error> {
        match r {
            Some(r) => s.collect_str(r.as_ref()),
            None => s.serialize_none(),
        }
    }
}

impl AsRef<ObjectRef> for ObjectRef {
    fn as_ref(&self) -> &ObjectRef {
        self
    }
}

/// `Kind/name`, or `Kind/namespace/name`.
impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{}/{}", self.kind, ns, self.name),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// A taint's effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaintEffect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
}

impl TaintEffect {
    pub const ALL: [TaintEffect; 3] = [TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule, TaintEffect::NoExecute];

    pub fn as_str(self) -> &'static str {
        match self {
            TaintEffect::NoSchedule => "NoSchedule",
            TaintEffect::PreferNoSchedule => "PreferNoSchedule",
            TaintEffect::NoExecute => "NoExecute",
        }
    }

    /// The effect the API calls `effect` (`None` for anything else).
    pub fn from_api(effect: &str) -> Option<TaintEffect> {
        TaintEffect::ALL.into_iter().find(|e| e.as_str() == effect)
    }
}

impl fmt::Display for TaintEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// A node's taint.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    pub key: String,
    /// Empty when the taint has no value.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    pub effect: TaintEffect,
}

/// `key=value:Effect`, or `key:Effect` without a value (as kubectl writes a taint).
impl fmt::Display for Taint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}:{}", self.key, self.effect)
        } else {
            write!(f, "{}={}:{}", self.key, self.value, self.effect)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_serialize_as_the_trace_writes_them() {
        fn j<T: Serialize>(v: T) -> String {
            serde_json::to_string(&v).unwrap()
        }
        assert_eq!(j(EventReason::FailedScheduling), "\"FailedScheduling\"");
        assert_eq!(j(ChangeCause::Controller), "\"controller\"");
        assert_eq!(j(ChangeAction::Flush), "\"flush\"");
        assert_eq!(j(FinishedPhase::Failed), "\"Failed\"");
        assert_eq!(j(ObjectKind::CsiNode), "\"CSINode\"");
        let node = ObjectRef::new(ObjectKind::Node, None, "node-a");
        let pod = ObjectRef::new(ObjectKind::Pod, Some("default".into()), "web-1");
        assert_eq!(node.to_string(), "Node/node-a");
        assert_eq!(pod.to_string(), "Pod/default/web-1");
        #[derive(Serialize)]
        struct T {
            #[serde(serialize_with = "ObjectRef::serialize_text")]
            object: Option<ObjectRef>,
            #[serde(serialize_with = "ObjectRef::serialize_text")]
            boxed: Option<Box<ObjectRef>>,
        }
        let t = T {
            object: Some(pod.clone()),
            boxed: Some(Box::new(node.clone())),
        };
        assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"object":"Pod/default/web-1","boxed":"Node/node-a"}"#);
        // The page receives it as data.
        let back: ObjectRef = serde_json::from_str(&serde_json::to_string(&pod).unwrap()).unwrap();
        assert_eq!(back, pod);
        assert_eq!(ObjectKind::from_api("Widget"), ObjectKind::Other("Widget".into()));
        assert_eq!(ObjectKind::from_api("ReplicaSet"), ObjectKind::ReplicaSet);
    }

    #[test]
    fn taints_read_as_kubectl_writes_them() {
        let t = Taint {
            key: "dedicated".into(),
            value: "lab".into(),
            effect: TaintEffect::NoSchedule,
        };
        assert_eq!(t.to_string(), "dedicated=lab:NoSchedule");
        let bare = Taint {
            value: String::new(),
            effect: TaintEffect::from_api("NoExecute").unwrap(),
            ..t
        };
        assert_eq!(bare.to_string(), "dedicated:NoExecute");
        assert_eq!(TaintEffect::from_api("Sometimes"), None);
    }
}
