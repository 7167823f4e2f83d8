//! NodeResourcesBalancedAllocation (not implemented yet).

use crate::config::NodeResourcesBalancedAllocationArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct BalancedAllocation {
    #[allow(dead_code)]
    args: NodeResourcesBalancedAllocationArgs,
}

impl BalancedAllocation {
    pub fn new(args: &NodeResourcesBalancedAllocationArgs) -> BalancedAllocation {
        BalancedAllocation { args: args.clone() }
    }
}

impl Plugin for BalancedAllocation {
    fn name(&self) -> PluginName {
        PluginName::NodeResourcesBalancedAllocation
    }
}
