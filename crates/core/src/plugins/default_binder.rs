//! DefaultBinder: binds the pod to the node (the engine applies the binding).

use crate::cluster::Cluster;
use crate::framework::{CycleState, Plugin, PodInfo, Status};
use crate::plugins::PluginName;

pub struct DefaultBinder;

impl Plugin for DefaultBinder {
    fn name(&self) -> PluginName {
        PluginName::DefaultBinder
    }
    fn bind(&self, _cluster: &mut Cluster, _state: &mut CycleState, _pod: &PodInfo, _node: &str) -> Status {
        Status::success()
    }
}
