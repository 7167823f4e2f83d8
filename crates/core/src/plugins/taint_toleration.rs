//! TaintToleration (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct TaintToleration;

impl Plugin for TaintToleration {
    fn name(&self) -> PluginName {
        PluginName::TaintToleration
    }
}
