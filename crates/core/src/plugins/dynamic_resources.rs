//! DynamicResources (not implemented yet).

use crate::config::DynamicResourcesArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct DynamicResources {
    #[allow(dead_code)]
    args: DynamicResourcesArgs,
}

impl DynamicResources {
    pub fn new(args: &DynamicResourcesArgs) -> DynamicResources {
        DynamicResources { args: args.clone() }
    }
}

impl Plugin for DynamicResources {
    fn name(&self) -> PluginName {
        PluginName::DynamicResources
    }
}
