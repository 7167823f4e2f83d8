//! NodeUnschedulable (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct NodeUnschedulable;

impl Plugin for NodeUnschedulable {
    fn name(&self) -> PluginName {
        PluginName::NodeUnschedulable
    }
}
