//! PodTopologySpread (not implemented yet).

use crate::config::PodTopologySpreadArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct PodTopologySpread {
    #[allow(dead_code)]
    args: PodTopologySpreadArgs,
}

impl PodTopologySpread {
    pub fn new(args: &PodTopologySpreadArgs) -> PodTopologySpread {
        PodTopologySpread { args: args.clone() }
    }
}

impl Plugin for PodTopologySpread {
    fn name(&self) -> PluginName {
        PluginName::PodTopologySpread
    }
}
