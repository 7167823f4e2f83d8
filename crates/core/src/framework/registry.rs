//! What the framework knows of a plugin: its descriptor. The framework is handed a registry of
//! descriptors (the in-tree one is `plugins::registry::IN_TREE`) and builds, orders and asks
//! plugins only through it; it imports no plugin.

use super::args::PluginArgs;
use super::args_codec::ArgsCodec;
use super::explain::Explainers;
use super::interface::Plugin;
use crate::version::Features;
use crate::vocabulary::{ExtensionPoint, ExtensionPoints, PluginName};

/// Everything the rest of the code needs to know about one plugin, declared beside it
/// (`plugins/<name>/mod.rs`, `DESCRIPTOR`).
pub struct Descriptor {
    pub name: PluginName,
    /// The extension points (and EnqueueExtensions) it implements: the interfaces upstream's
    /// plugin asserts. Checked against the methods the plugin overrides by the architecture
    /// test `extension_points_match_the_methods_each_plugin_overrides`.
    pub points: ExtensionPoints,
    /// A short column header for the page's tables ("Fit", "Taints").
    pub short: &'static str,
    /// Its args kind, when it has one: what the configuration decodes, defaults, validates,
    /// converts (into this plugin's slot of `PluginArgs`) and prints for it. The framework
    /// only carries it.
    pub args: Option<&'static ArgsCodec>,
    /// Builds an instance from the profile's (defaulted, validated) args and the run's
    /// version and gates; a plugin with args reads its own slot
    /// (`args.get_or_default::<FooArgs>()`), a plugin whose behaviour differs between versions
    /// reads its switch from the `Features` (never the version itself).
    pub new: fn(&PluginArgs, &Features) -> Box<dyn Plugin>,
    /// What the plugin says about its cells of the page's filter matrix and score table
    /// (`plugins/<name>/explain.rs`; see `framework::explain`).
    pub explain: Explainers,
}

impl Descriptor {
    pub fn implements(&self, point: ExtensionPoint) -> bool {
        self.points.contains(point)
    }
}

/// Descriptors indexed by `PluginName as usize` (checked by `Registry::new`'s test).
pub struct Registry(pub &'static [&'static Descriptor]);

impl Registry {
    pub fn get(&self, name: PluginName) -> &'static Descriptor {
        self.0[name as usize]
    }
    /// The descriptor of a name as written in a configuration.
    pub fn find(&self, name: &str) -> Option<&'static Descriptor> {
        PluginName::parse(name).map(|n| self.get(n))
    }
    /// Whether the plugin named so in a configuration is a schedlab extension a real
    /// kube-scheduler lacks (`vocabulary::SCHEDLAB_EXTENSIONS`); false for unknown names.
    pub fn is_schedlab_extension(&self, name: &str) -> bool {
        PluginName::parse(name).is_some_and(PluginName::is_schedlab_extension)
    }
    pub fn iter(&self) -> impl Iterator<Item = &'static Descriptor> + '_ {
        self.0.iter().copied()
    }
}
