//! VolumeBinding (not implemented yet).

use crate::config::VolumeBindingArgs;
use crate::framework::Plugin;
use crate::plugins::PluginName;

pub struct VolumeBinding {
    #[allow(dead_code)]
    args: VolumeBindingArgs,
}

impl VolumeBinding {
    pub fn new(args: &VolumeBindingArgs) -> VolumeBinding {
        VolumeBinding { args: args.clone() }
    }
}

impl Plugin for VolumeBinding {
    fn name(&self) -> PluginName {
        PluginName::VolumeBinding
    }
}
