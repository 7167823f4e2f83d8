//! Cluster events: what changed in the simulated cluster, used to move pods between the queue's
//! pools through each plugin's queueing hints.

use super::PodInfo;
use serde::Serialize;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum EventResource {
    /// Any pod (plugins register this; it matches assigned and unscheduled pod events).
    Pod,
    /// A pod bound to a node (events the scheduler raises).
    AssignedPod,
    /// A pod not yet bound.
    UnscheduledPod,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    CSINode,
    CSIDriver,
    VolumeAttachment,
    CSIStorageCapacity,
    StorageClass,
    ResourceClaim,
    ResourceSlice,
    DeviceClass,
    WildCard,
}

impl EventResource {
    /// Upstream's resource name (`storage.k8s.io/CSINode`, `*` for the wildcard, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            EventResource::Pod => "Pod",
            EventResource::AssignedPod => "AssignedPod",
            EventResource::UnscheduledPod => "UnschedulablePod",
            EventResource::Node => "Node",
            EventResource::PersistentVolume => "PersistentVolume",
            EventResource::PersistentVolumeClaim => "PersistentVolumeClaim",
            EventResource::CSINode => "storage.k8s.io/CSINode",
            EventResource::CSIDriver => "storage.k8s.io/CSIDriver",
            EventResource::VolumeAttachment => "storage.k8s.io/VolumeAttachment",
            EventResource::CSIStorageCapacity => "storage.k8s.io/CSIStorageCapacity",
            EventResource::StorageClass => "storage.k8s.io/StorageClass",
            EventResource::ResourceClaim => "resource.k8s.io/ResourceClaim",
            EventResource::ResourceSlice => "resource.k8s.io/ResourceSlice",
            EventResource::DeviceClass => "resource.k8s.io/DeviceClass",
            EventResource::WildCard => "*",
        }
    }
}

/// A bit set of actions (upstream ActionType).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct ActionType(pub u32);

impl ActionType {
    pub const NONE: ActionType = ActionType(0);
    pub const ADD: ActionType = ActionType(1 << 0);
    pub const DELETE: ActionType = ActionType(1 << 1);
    pub const UPDATE_NODE_ALLOCATABLE: ActionType = ActionType(1 << 2);
    pub const UPDATE_NODE_LABEL: ActionType = ActionType(1 << 3);
    pub const UPDATE_NODE_TAINT: ActionType = ActionType(1 << 4);
    pub const UPDATE_NODE_CONDITION: ActionType = ActionType(1 << 5);
    pub const UPDATE_NODE_ANNOTATION: ActionType = ActionType(1 << 6);
    pub const UPDATE_POD_LABEL: ActionType = ActionType(1 << 7);
    pub const UPDATE_POD_SCALE_DOWN: ActionType = ActionType(1 << 8);
    pub const UPDATE_POD_TOLERATION: ActionType = ActionType(1 << 9);
    pub const UPDATE_POD_SCHEDULING_GATES_ELIMINATED: ActionType = ActionType(1 << 10);
    pub const UPDATE_POD_GENERATED_RESOURCE_CLAIM: ActionType = ActionType(1 << 11);
    pub const ALL: ActionType = ActionType((1 << 12) - 1);
    pub const UPDATE: ActionType = ActionType(((1 << 12) - 1) & !0b11);

    /// Upstream's name of the action (`Add`, `UpdateNodeTaint`, `Update`, `All`); other
    /// combinations are listed with `|`.
    pub fn name(self) -> String {
        let mut out = String::new();
        self.push_name(&mut out);
        out
    }
    /// `name`, appended to `out` (no other allocation: a label is made for every queue move).
    fn push_name(self, out: &mut String) {
        const NAMES: [&str; 12] = [
            "Add",
            "Delete",
            "UpdateNodeAllocatable",
            "UpdateNodeLabel",
            "UpdateNodeTaint",
            "UpdateNodeCondition",
            "UpdateNodeAnnotation",
            "UpdatePodLabel",
            "UpdatePodScaleDown",
            "UpdatePodToleration",
            "UpdatePodSchedulingGatesEliminated",
            "UpdatePodGeneratedResourceClaim",
        ];
        match self {
            ActionType::ALL => out.push_str("All"),
            ActionType::UPDATE => out.push_str("Update"),
            ActionType::NONE => {}
            _ => {
                let mut first = true;
                for (i, name) in NAMES.iter().enumerate() {
                    if self.0 & (1 << i) != 0 {
                        if !first {
                            out.push('|');
                        }
                        out.push_str(name);
                        first = false;
                    }
                }
            }
        }
    }
    pub const fn union(self, o: ActionType) -> ActionType {
        ActionType(self.0 | o.0)
    }
    pub const fn intersects(self, o: ActionType) -> bool {
        self.0 & o.0 != 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ClusterEvent {
    pub resource: EventResource,
    pub action: ActionType,
}

impl ClusterEvent {
    pub const fn new(resource: EventResource, action: ActionType) -> ClusterEvent {
        ClusterEvent { resource, action }
    }
    pub fn is_wildcard(&self) -> bool {
        self.resource == EventResource::WildCard && self.action == ActionType::ALL
    }
    /// Whether a registered event `self` matches an incoming event (upstream
    /// MatchClusterEvents): the registered wildcard matches everything; otherwise the resources
    /// must match and the incoming action must be covered by the registered one, so a general
    /// `Update` does not reach plugins that registered only a specific `UpdatePodXYZ`.
    pub fn matches(&self, incoming: &ClusterEvent) -> bool {
        if self.is_wildcard() {
            return true;
        }
        let res_ok = self.resource == EventResource::WildCard
            || self.resource == incoming.resource
            || (self.resource == EventResource::Pod
                && matches!(incoming.resource, EventResource::AssignedPod | EventResource::UnscheduledPod));
        res_ok && self.action.intersects(incoming.action) && incoming.action.0 <= self.action.0
    }
    /// The event's name as upstream logs it (e.g. `AssignedPodDelete`, `NodeAdd`).
    pub fn label(&self) -> String {
        let resource = self.resource.as_str();
        let mut out = String::with_capacity(resource.len() + 36);
        out.push_str(resource);
        self.action.push_name(&mut out);
        out
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClusterEventWithHint {
    pub event: ClusterEvent,
    /// Whether the plugin's `queueing_hint` should be consulted (otherwise: always Queue).
    pub has_hint: bool,
}

impl ClusterEventWithHint {
    /// An event the plugin's `queueing_hint` judges.
    pub const fn hinted(resource: EventResource, action: ActionType) -> ClusterEventWithHint {
        ClusterEventWithHint {
            event: ClusterEvent::new(resource, action),
            has_hint: true,
        }
    }
    /// An event that always queues the pod (no hint).
    pub const fn unhinted(resource: EventResource, action: ActionType) -> ClusterEventWithHint {
        ClusterEventWithHint {
            event: ClusterEvent::new(resource, action),
            has_hint: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum QueueingHint {
    Skip,
    Queue,
}

/// The objects an event is about (old and new versions where it applies).
#[derive(Clone, Debug)]
pub enum EventObject {
    Pod {
        old: Option<Arc<PodInfo>>,
        new: Option<Arc<PodInfo>>,
    },
    Node {
        old: Option<Arc<crate::api::Node>>,
        new: Option<Arc<crate::api::Node>>,
    },
    PersistentVolumeClaim {
        old: Option<Arc<crate::api::PersistentVolumeClaim>>,
        new: Option<Arc<crate::api::PersistentVolumeClaim>>,
    },
    PersistentVolume {
        old: Option<Arc<crate::api::PersistentVolume>>,
        new: Option<Arc<crate::api::PersistentVolume>>,
    },
    ResourceClaim {
        old: Option<Arc<crate::api::resource::ResourceClaim>>,
        new: Option<Arc<crate::api::resource::ResourceClaim>>,
    },
    None,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Event labels as upstream logs them; a combination of actions lists them with `|`.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn labels() {
        for (resource, action, label) in [
            (EventResource::UnscheduledPod, ActionType::ADD, "UnschedulablePodAdd"),
            (EventResource::AssignedPod, ActionType::DELETE, "AssignedPodDelete"),
            (EventResource::Node, ActionType::UPDATE_NODE_TAINT, "NodeUpdateNodeTaint"),
            (EventResource::Node, ActionType::UPDATE, "NodeUpdate"),
            (EventResource::Node, ActionType::ALL, "NodeAll"),
            (EventResource::Node, ActionType::NONE, "Node"),
            (
                EventResource::Node,
                ActionType::ADD.union(ActionType::UPDATE_NODE_LABEL).union(ActionType::UPDATE_NODE_TAINT),
                "NodeAdd|UpdateNodeLabel|UpdateNodeTaint",
            ),
        ] {
            assert_eq!(ClusterEvent::new(resource, action).label(), label);
        }
        assert_eq!(ActionType::UPDATE_POD_GENERATED_RESOURCE_CLAIM.name(), "UpdatePodGeneratedResourceClaim");
    }
}
