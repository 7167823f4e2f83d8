//! DefaultPreemption (not implemented yet).

use crate::config::DefaultPreemptionArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct DefaultPreemption {
    #[allow(dead_code)]
    args: DefaultPreemptionArgs,
}

impl DefaultPreemption {
    pub fn new(args: &DefaultPreemptionArgs) -> DefaultPreemption {
        DefaultPreemption { args: args.clone() }
    }
}

impl Plugin for DefaultPreemption {
    fn name(&self) -> PluginName {
        PluginName::DefaultPreemption
    }
}
