//! VolumeRestrictions (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct VolumeRestrictions;

impl Plugin for VolumeRestrictions {
    fn name(&self) -> PluginName {
        PluginName::VolumeRestrictions
    }
}
