//! NodeAffinity (not implemented yet).

use crate::config::NodeAffinityArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct NodeAffinity {
    #[allow(dead_code)]
    args: NodeAffinityArgs,
}

impl NodeAffinity {
    pub fn new(args: &NodeAffinityArgs) -> NodeAffinity {
        NodeAffinity { args: args.clone() }
    }
}

impl Plugin for NodeAffinity {
    fn name(&self) -> PluginName {
        PluginName::NodeAffinity
    }
}
