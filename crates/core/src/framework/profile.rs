//! One scheduling profile as the framework runs it: each extension point's plugins in order,
//! the score weights and the plugins' args. `config` builds it (`Profile::new`, multiPoint
//! expansion); the framework only reads it.

use super::args::PluginArgs;
use crate::version::Features;
use crate::vocabulary::{ExtensionPoint, PluginName, PluginsCfg};
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
        match point {
            ExtensionPoint::PreEnqueue => &mut self.pre_enqueue,
            ExtensionPoint::QueueSort => &mut self.queue_sort,
            ExtensionPoint::PreFilter => &mut self.pre_filter,
            ExtensionPoint::Filter => &mut self.filter,
            ExtensionPoint::PostFilter => &mut self.post_filter,
            ExtensionPoint::PreScore => &mut self.pre_score,
            ExtensionPoint::Score => &mut self.score,
            ExtensionPoint::Reserve => &mut self.reserve,
            ExtensionPoint::Permit => &mut self.permit,
            ExtensionPoint::PreBind => &mut self.pre_bind,
            ExtensionPoint::Bind => &mut self.bind,
            ExtensionPoint::PostBind | ExtensionPoint::EnqueueExtensions => &mut self.post_bind,
        }
    }
    /// The plugins of one extension point, in the order they run.
    pub fn list(&self, point: ExtensionPoint) -> &[PluginName] {
        match point {
            ExtensionPoint::PreEnqueue => &self.pre_enqueue,
            ExtensionPoint::QueueSort => &self.queue_sort,
            ExtensionPoint::PreFilter => &self.pre_filter,
            ExtensionPoint::Filter => &self.filter,
            ExtensionPoint::PostFilter => &self.post_filter,
            ExtensionPoint::PreScore => &self.pre_score,
            ExtensionPoint::Score => &self.score,
            ExtensionPoint::Reserve => &self.reserve,
            ExtensionPoint::Permit => &self.permit,
            ExtensionPoint::PreBind => &self.pre_bind,
            ExtensionPoint::Bind => &self.bind,
            ExtensionPoint::PostBind | ExtensionPoint::EnqueueExtensions => &self.post_bind,
        }
    }

    /// Every plugin used anywhere, in first-use order.
    pub fn all(&self) -> Vec<PluginName> {
        let mut out: Vec<PluginName> = Vec::new();
        for l in [
            &self.pre_enqueue,
            &self.queue_sort,
            &self.pre_filter,
            &self.filter,
            &self.post_filter,
            &self.pre_score,
            &self.score,
            &self.reserve,
            &self.permit,
            &self.pre_bind,
            &self.bind,
            &self.post_bind,
        ] {
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
    /// The run's version and feature gates: handed to each plugin when it is built.
    #[serde(skip)]
    pub features: Features,
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
