//! Scheduler configuration: the effective (defaulted, validated, expanded) form the engine runs.
//!
//! `plugins` here is upstream's v1 `Plugins` shape (multiPoint plus one set per extension
//! point). `merge_plugins` applies the v1 defaulting (default plugins merged with the user's),
//! and `expand` does what the framework does at start-up: resolve each extension point's
//! ordered plugin list, including multiPoint expansion, and the score weights.
//!
//! Plugin args are not listed here: each plugin with an args kind declares it beside itself
//! (`plugins/<name>/args.rs`) and hands its codec to its descriptor; the pipeline
//! (`decode`, `validate`, `effective`) iterates the registry's codecs (`args` is the toolkit).

pub mod decode;
mod effective;
pub mod validate;
pub mod yaml;

pub use crate::apimachinery::golang::GoDuration;
pub use crate::framework::args::PluginArgs;
pub use crate::framework::args_codec::{default_resource_spec, ArgsCodec, ResourceSpec, UtilizationShapePoint, V1Kind};
pub use crate::framework::config_error::{ConfigError, FrameworkError};

pub use crate::framework::profile::{ExpandedPlugins, Profile};
use crate::plugins::IN_TREE;
pub use crate::vocabulary::{ExtensionPoint, PluginName, PluginRef, PluginSetCfg, PluginsCfg};
use serde::Serialize;
use std::collections::BTreeMap;

pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";

/// The v1.34 default plugins, in upstream's multiPoint order (not the registry's), with their
/// score weights. DynamicResources is on by default and sits before DefaultPreemption.
pub fn default_plugins() -> PluginsCfg {
    use PluginName as P;
    const DEFAULTS: &[(PluginName, Option<i32>)] = &[
        (P::SchedulingGates, None),
        (P::PrioritySort, None),
        (P::NodeUnschedulable, None),
        (P::NodeName, None),
        (P::TaintToleration, Some(3)),
        (P::NodeAffinity, Some(2)),
        (P::NodePorts, None),
        (P::NodeResourcesFit, Some(1)),
        (P::VolumeRestrictions, None),
        (P::NodeVolumeLimits, None),
        (P::VolumeBinding, None),
        (P::VolumeZone, None),
        (P::PodTopologySpread, Some(2)),
        (P::InterPodAffinity, Some(2)),
        (P::DynamicResources, None),
        (P::DefaultPreemption, None),
        (P::NodeResourcesBalancedAllocation, Some(1)),
        (P::ImageLocality, Some(1)),
        (P::DefaultBinder, None),
    ];
    PluginsCfg {
        multi_point: PluginSetCfg {
            enabled: DEFAULTS.iter().map(|&(n, w)| PluginRef::new(n.as_str(), w)).collect(),
            disabled: vec![],
        },
        ..Default::default()
    }
}

fn merge_set(def: &PluginSetCfg, custom: &PluginSetCfg) -> PluginSetCfg {
    let mut disabled: Vec<String> = custom.disabled.clone();
    disabled.extend(def.disabled.iter().cloned());
    let all_disabled = disabled.iter().any(|d| d == "*");
    let mut replaced = vec![false; custom.enabled.len()];
    let mut enabled = Vec::new();
    if !all_disabled {
        for d in &def.enabled {
            if disabled.contains(&d.name) {
                continue;
            }
            if let Some(i) = custom.enabled.iter().rposition(|c| c.name == d.name) {
                replaced[i] = true;
                enabled.push(custom.enabled[i].clone());
            } else {
                enabled.push(d.clone());
            }
        }
    }
    for (i, c) in custom.enabled.iter().enumerate() {
        if !replaced[i] {
            enabled.push(c.clone());
        }
    }
    PluginSetCfg { enabled, disabled }
}

/// v1 defaulting of a profile's plugins: the defaults merged with the user's configuration.
pub fn merge_plugins(custom: Option<&PluginsCfg>) -> PluginsCfg {
    let mut def = default_plugins();
    let Some(custom) = custom else { return def };
    let mut custom = custom.clone();
    for (d, c) in def.sets_mut().into_iter().zip(custom.sets_mut()) {
        *d = merge_set(d, c);
    }
    def
}

fn lookup(name: &str, point: ExtensionPoint, multi_point: bool, index: usize) -> Result<PluginName, FrameworkError> {
    PluginName::parse(name).ok_or_else(|| FrameworkError::NotExist {
        point,
        multi_point,
        index,
        name: name.to_string(),
    })
}

const MAX_TOTAL_SCORE: i64 = i64::MAX;
const MAX_NODE_SCORE: i64 = 100;

/// Resolves a (merged) plugins configuration into per-extension-point lists and score weights,
/// as the framework constructor does; the first problem is returned in kube-scheduler's words.
pub fn expand(profile: &str, cfg: &PluginsCfg) -> Result<(ExpandedPlugins, BTreeMap<PluginName, i32>), FrameworkError> {
    let mut out = ExpandedPlugins::default();
    // The explicit per-extension-point lists.
    for point in ExtensionPoint::FRAMEWORK_ORDER {
        let slot = out.slot(point);
        for (index, p) in cfg.set(point).enabled.iter().enumerate() {
            let name = lookup(&p.name, point, false, index)?;
            if !IN_TREE.get(name).implements(point) {
                return Err(FrameworkError::NotExtend {
                    point,
                    multi_point: false,
                    index,
                    name: p.name.clone(),
                });
            }
            if slot.contains(&name) {
                return Err(FrameworkError::AlreadyRegistered {
                    point,
                    multi_point: false,
                    index,
                    name: p.name.clone(),
                });
            }
            slot.push(name);
        }
    }
    // multiPoint expansion: per extension point, plugins also listed explicitly there keep
    // their explicit position first, then the multiPoint ones, then the other explicit ones.
    if !cfg.multi_point.enabled.is_empty() {
        for point in ExtensionPoint::FRAMEWORK_ORDER {
            let set = cfg.set(point);
            if set.disabled.iter().any(|d| d == "*") {
                continue;
            }
            let explicit: Vec<PluginName> = out.slot(point).clone();
            let mut multi: Vec<PluginName> = Vec::new();
            let mut overrides: Vec<PluginName> = Vec::new();
            for (index, p) in cfg.multi_point.enabled.iter().enumerate() {
                let name = lookup(&p.name, point, true, index)?;
                if !IN_TREE.get(name).implements(point) || set.disabled.iter().any(|d| d == &p.name) {
                    continue;
                }
                if explicit.contains(&name) {
                    if !overrides.contains(&name) {
                        overrides.push(name);
                    }
                    continue;
                }
                if multi.contains(&name) {
                    return Err(FrameworkError::AlreadyRegistered {
                        point,
                        multi_point: true,
                        index,
                        name: p.name.clone(),
                    });
                }
                multi.push(name);
            }
            let mut list: Vec<PluginName> = explicit.iter().copied().filter(|n| overrides.contains(n)).collect();
            list.extend(multi);
            list.extend(explicit.iter().copied().filter(|n| !overrides.contains(n)));
            *out.slot(point) = list;
        }
    }
    if out.queue_sort.len() != 1 {
        return Err(FrameworkError::QueueSortCount {
            profile: profile.to_string(),
            got: out.queue_sort.len(),
        });
    }
    if out.bind.is_empty() {
        return Err(FrameworkError::NoBind {
            profile: profile.to_string(),
        });
    }
    // Score weights: the score-specific configuration first, then multiPoint; an unset or zero
    // weight counts as 1.
    let mut weights: BTreeMap<PluginName, i32> = BTreeMap::new();
    let mut total: i64 = 0;
    for p in cfg.score.enabled.iter().chain(cfg.multi_point.enabled.iter()) {
        let Some(name) = PluginName::parse(&p.name) else { continue };
        if !IN_TREE.get(name).implements(ExtensionPoint::Score) || weights.contains_key(&name) {
            continue;
        }
        let w = match p.weight {
            Some(0) | None => 1,
            Some(w) => w,
        };
        weights.insert(name, w);
        // Go's int64 arithmetic wraps: after a negative weight, MAX_TOTAL_SCORE - total wraps
        // to a negative number and the next plugin reports the overflow.
        if (w as i64) * MAX_NODE_SCORE > MAX_TOTAL_SCORE.wrapping_sub(total) {
            return Err(FrameworkError::ScoreOverflow);
        }
        total = total.wrapping_add(w as i64 * MAX_NODE_SCORE);
    }
    for p in &out.score {
        if weights.get(p).copied().unwrap_or(0) == 0 {
            return Err(FrameworkError::NoWeight {
                name: p.as_str().to_string(),
            });
        }
    }
    Ok((out, weights))
}

/// Building a profile: the configuration's side of `framework::Profile`.
impl Profile {
    /// A profile from the user's plugins (merged with the defaults) and already defaulted args.
    pub fn new(scheduler_name: &str, custom: Option<&PluginsCfg>, args: PluginArgs, pct: Option<i32>) -> Result<Profile, FrameworkError> {
        Profile::from_merged(scheduler_name, merge_plugins(custom), args, pct)
    }

    /// A profile from an already merged plugins configuration.
    pub fn from_merged(
        scheduler_name: &str,
        plugins_config: PluginsCfg,
        args: PluginArgs,
        pct: Option<i32>,
    ) -> Result<Profile, FrameworkError> {
        let (plugins, weights) = expand(scheduler_name, &plugins_config)?;
        Ok(Profile {
            scheduler_name: scheduler_name.to_string(),
            percentage_of_nodes_to_score: pct,
            plugins_config,
            plugins,
            weights,
            args,
            extra_plugin_args: BTreeMap::new(),
        })
    }
}

/// componentbaseconfig.LeaderElectionConfiguration (defaulted).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeaderElectionConfig {
    pub leader_elect: bool,
    pub lease_duration: GoDuration,
    pub renew_deadline: GoDuration,
    pub retry_period: GoDuration,
    pub resource_lock: String,
    pub resource_name: String,
    pub resource_namespace: String,
}

impl Default for LeaderElectionConfig {
    fn default() -> Self {
        LeaderElectionConfig {
            leader_elect: true,
            lease_duration: GoDuration::from_secs(15),
            renew_deadline: GoDuration::from_secs(10),
            retry_period: GoDuration::from_secs(2),
            resource_lock: "leases".into(),
            resource_name: "kube-scheduler".into(),
            resource_namespace: "kube-system".into(),
        }
    }
}

/// componentbaseconfig.ClientConnectionConfiguration (defaulted).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientConnectionConfig {
    pub kubeconfig: String,
    pub accept_content_types: String,
    pub content_type: String,
    pub qps: f32,
    pub burst: i32,
}

impl Default for ClientConnectionConfig {
    fn default() -> Self {
        ClientConnectionConfig {
            kubeconfig: String::new(),
            accept_content_types: String::new(),
            content_type: "application/vnd.kubernetes.protobuf".into(),
            qps: 50.0,
            burst: 100,
        }
    }
}

/// A scheduler extender. The simulator does not call extenders; they are decoded, validated
/// and printed back, and their `ignoredByScheduler` resources reach NodeResourcesFit.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtenderConfig {
    pub url_prefix: String,
    pub filter_verb: String,
    pub preempt_verb: String,
    pub prioritize_verb: String,
    pub weight: i64,
    pub bind_verb: String,
    #[serde(rename = "enableHTTPS")]
    pub enable_https: bool,
    pub tls_config: Option<ExtenderTlsConfig>,
    pub http_timeout: GoDuration,
    pub node_cache_capable: bool,
    pub managed_resources: Vec<ExtenderManagedResource>,
    pub ignorable: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtenderTlsConfig {
    pub insecure: bool,
    pub server_name: String,
    pub cert_file: String,
    pub key_file: String,
    #[serde(rename = "caFile")]
    pub ca_file: String,
    /// Base64, as written in the configuration.
    pub cert_data: String,
    pub key_data: String,
    #[serde(rename = "caData")]
    pub ca_data: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtenderManagedResource {
    pub name: String,
    pub ignored_by_scheduler: bool,
}

/// The effective scheduler configuration: kube-scheduler's defaulted, validated
/// KubeSchedulerConfiguration with each profile's framework resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchedulerConfig {
    pub parallelism: i32,
    pub leader_election: LeaderElectionConfig,
    pub client_connection: ClientConnectionConfig,
    pub enable_profiling: bool,
    pub enable_contention_profiling: bool,
    /// Global percentageOfNodesToScore; 0 means adaptive.
    pub percentage_of_nodes_to_score: i32,
    pub pod_initial_backoff_seconds: i64,
    pub pod_max_backoff_seconds: i64,
    pub profiles: Vec<Profile>,
    pub extenders: Vec<ExtenderConfig>,
    pub delay_cache_until_active: bool,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        SchedulerConfig {
            parallelism: 16,
            leader_election: LeaderElectionConfig::default(),
            client_connection: ClientConnectionConfig::default(),
            enable_profiling: true,
            enable_contention_profiling: true,
            percentage_of_nodes_to_score: 0,
            pod_initial_backoff_seconds: 1,
            pod_max_backoff_seconds: 10,
            profiles: vec![Profile::new(DEFAULT_SCHEDULER_NAME, None, PluginArgs::default(), None).expect("default profile is valid")],
            extenders: vec![],
            delay_cache_until_active: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn default_plugins_name_every_plugin_once() {
        let d = default_plugins();
        let mut got: Vec<&str> = d.multi_point.enabled.iter().map(|p| p.name.as_str()).collect();
        got.sort_unstable();
        // Every in-tree plugin of v1.34 is a default one (the tests' own plugin is not).
        let mut all: Vec<&str> = PluginName::ALL
            .iter()
            .filter(|n| **n != PluginName::TestOnlyLabel)
            .map(|n| n.as_str())
            .collect();
        all.sort_unstable();
        assert_eq!(got, all);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn default_profile_expansion() {
        let p = Profile::new("default-scheduler", None, PluginArgs::default(), None).unwrap();
        let names = |v: &[PluginName]| v.iter().map(|p| p.as_str()).collect::<Vec<_>>();
        assert_eq!(names(&p.plugins.queue_sort), ["PrioritySort"]);
        assert_eq!(
            names(&p.plugins.pre_enqueue),
            ["SchedulingGates", "DynamicResources", "DefaultPreemption"]
        );
        assert_eq!(
            names(&p.plugins.filter),
            [
                "NodeUnschedulable",
                "NodeName",
                "TaintToleration",
                "NodeAffinity",
                "NodePorts",
                "NodeResourcesFit",
                "VolumeRestrictions",
                "NodeVolumeLimits",
                "VolumeBinding",
                "VolumeZone",
                "PodTopologySpread",
                "InterPodAffinity",
                "DynamicResources"
            ]
        );
        assert_eq!(names(&p.plugins.post_filter), ["DynamicResources", "DefaultPreemption"]);
        assert_eq!(
            names(&p.plugins.score),
            [
                "TaintToleration",
                "NodeAffinity",
                "NodeResourcesFit",
                "VolumeBinding",
                "PodTopologySpread",
                "InterPodAffinity",
                "NodeResourcesBalancedAllocation",
                "ImageLocality"
            ]
        );
        assert_eq!(p.weights[&PluginName::TaintToleration], 3);
        assert_eq!(p.weights[&PluginName::VolumeBinding], 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn disable_score_plugin_and_reweight() {
        let custom = PluginsCfg {
            score: PluginSetCfg {
                enabled: vec![PluginRef::new("NodeResourcesFit", Some(5))],
                disabled: vec!["ImageLocality".into()],
            },
            ..Default::default()
        };
        let p = Profile::new("x", Some(&custom), PluginArgs::default(), None).unwrap();
        assert!(!p.plugins.score.contains(&PluginName::ImageLocality));
        assert_eq!(p.weights[&PluginName::NodeResourcesFit], 5);
        // Overridden plugins come first, in the order the user listed them.
        assert_eq!(p.plugins.score[0], PluginName::NodeResourcesFit);
    }
}

#[cfg(test)]
mod config_tests;
