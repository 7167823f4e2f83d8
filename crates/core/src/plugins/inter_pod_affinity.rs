//! InterPodAffinity (not implemented yet).

use crate::config::InterPodAffinityArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct InterPodAffinity {
    #[allow(dead_code)]
    args: InterPodAffinityArgs,
}

impl InterPodAffinity {
    pub fn new(args: &InterPodAffinityArgs) -> InterPodAffinity {
        InterPodAffinity { args: args.clone() }
    }
}

impl Plugin for InterPodAffinity {
    fn name(&self) -> PluginName {
        PluginName::InterPodAffinity
    }
}
