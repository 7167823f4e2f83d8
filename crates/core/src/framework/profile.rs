//! One scheduling profile as the framework runs it: each extension point's plugins in order,
//! the score weights and the plugins' args. `config` builds it (`Profile::new`, multiPoint
//! expansion); the framework only reads it.

use super::args::PluginArgs;
use crate::vocabulary::{point_field, ExtensionPoint, PluginName, PluginsCfg};
use serde::Serialize;
use std::collections::BTreeMap;

/// Each extension point's plugins, in the order they run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpandedPlugins {
    pub pre_enqueue: Vec<PluginName>,
    pub queue_sort: Vec<PluginName>,
    pub pre_filter: Vec<PluginName>,
    pub filter: Vec<PluginName>,
    pub post_filter: Vec<PluginName>,
    pub pre_score: Vec<PluginName>,
    pub score: Vec<PluginName>,
    pub reserve: Vec<PluginName>,
    pub permit: Vec<PluginName>,
    pub pre_bind: Vec<PluginName>,
    pub bind: Vec<PluginName>,
    pub post_bind: Vec<PluginName>,
}

impl ExpandedPlugins {
    pub(crate) fn slot(&mut self, point: ExtensionPoint) -> &mut Vec<PluginName> {
        point_field!(point, &mut self)
    }
    /// The plugins of one extension point, in the order they run.
    pub fn list(&self, point: ExtensionPoint) -> &[PluginName] {
        point_field!(point, &self)
    }

    /// Every plugin used anywhere, in first-use order.
    pub fn all(&self) -> Vec<PluginName> {
        let mut out: Vec<PluginName> = Vec::new();
        for l in ExtensionPoint::CONFIGURABLE.map(|point| self.list(point)) {
            for p in l {
                if !out.contains(p) {
                    out.push(*p);
                }
            }
        }
        out
    }
}

/// One scheduling profile, ready to run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub scheduler_name: String,
    pub percentage_of_nodes_to_score: Option<i32>,
    /// The merged (defaulted) plugin configuration, as kube-scheduler would print it.
    pub plugins_config: PluginsCfg,
    pub plugins: ExpandedPlugins,
    pub weights: BTreeMap<PluginName, i32>,
    pub args: PluginArgs,
    /// `pluginConfig` args of plugins without an args kind, kept as given (printed back in the
    /// effective configuration when the plugin is used).
    pub extra_plugin_args: BTreeMap<String, serde_json::Value>,
}

impl Profile {
    /// Every in-tree plugin the profile instantiates (enabled at any extension point or in
    /// multiPoint, even where expansion then leaves it out), in name order. Each one registers
    /// its cluster events, whether or not it runs at any extension point.
    pub fn needed_plugins(&self) -> Vec<PluginName> {
        self.plugins_config
            .enabled_names()
            .iter()
            .filter_map(|n| PluginName::parse(n))
            .collect()
    }
}
