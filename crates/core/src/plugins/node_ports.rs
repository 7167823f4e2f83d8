//! NodePorts (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct NodePorts;

impl Plugin for NodePorts {
    fn name(&self) -> PluginName {
        PluginName::NodePorts
    }
}
