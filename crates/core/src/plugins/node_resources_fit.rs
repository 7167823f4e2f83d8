//! NodeResourcesFit (not implemented yet).

use crate::config::NodeResourcesFitArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct Fit {
    #[allow(dead_code)]
    args: NodeResourcesFitArgs,
}

impl Fit {
    pub fn new(args: &NodeResourcesFitArgs) -> Fit {
        Fit { args: args.clone() }
    }
}

impl Plugin for Fit {
    fn name(&self) -> PluginName {
        PluginName::NodeResourcesFit
    }
}
