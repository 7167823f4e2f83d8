//! ImageLocality (not implemented yet).

use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct ImageLocality;

impl Plugin for ImageLocality {
    fn name(&self) -> PluginName {
        PluginName::ImageLocality
    }
}
