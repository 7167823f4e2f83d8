//! SchedulingGates (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct SchedulingGates;

impl Plugin for SchedulingGates {
    fn name(&self) -> PluginName {
        PluginName::SchedulingGates
    }
}
