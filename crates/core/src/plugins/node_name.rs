//! NodeName (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct NodeName;

impl Plugin for NodeName {
    fn name(&self) -> PluginName {
        PluginName::NodeName
    }
}
