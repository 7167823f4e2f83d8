//! VolumeZone (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct VolumeZone;

impl Plugin for VolumeZone {
    fn name(&self) -> PluginName {
        PluginName::VolumeZone
    }
}
