//! DefaultBinder: binds the pod to the node (the engine applies the binding).

use crate::cluster::Cluster;
use crate::framework::{CycleState, Plugin, PodInfo, Status};
use crate::vocabulary::PluginName;

pub struct DefaultBinder;

impl Plugin for DefaultBinder {
    fn name(&self) -> PluginName {
        PluginName::DefaultBinder
    }
    fn bind(&self, _cluster: &mut Cluster, _state: &mut CycleState, _pod: &PodInfo, _node: &str) -> Status {
        Status::success()
    }
}

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: crate::framework::registry::Descriptor = crate::framework::registry::Descriptor {
    name: crate::vocabulary::PluginName::DefaultBinder,
    points: crate::vocabulary::ExtensionPoints::of(&[crate::vocabulary::ExtensionPoint::Bind]),
    short: "DefaultBinder",
    new: |_| Box::new(DefaultBinder),
};
