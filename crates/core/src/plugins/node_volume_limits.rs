//! NodeVolumeLimits (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct CsiLimits;

impl Plugin for CsiLimits {
    fn name(&self) -> PluginName {
        PluginName::NodeVolumeLimits
    }
}
