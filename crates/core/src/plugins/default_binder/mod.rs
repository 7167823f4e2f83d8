//! DefaultBinder: binds the pod to the node (the engine applies the binding).

use crate::cluster::Cluster;
use crate::framework::explain::Explainers;
use crate::framework::registry::Descriptor;
use crate::framework::{CycleState, Plugin, PodInfo, Status};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};

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
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::DefaultBinder,
    points: ExtensionPoints::of(&[Ep::Bind]),
    short: "DefaultBinder",
    args: None,
    new: |_, _| Box::new(DefaultBinder),
    explain: Explainers::NONE,
};
