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
pub use schedlab_view::yaml;

pub use crate::apimachinery::golang::GoDuration;
pub use crate::framework::args::PluginArgs;
pub use crate::framework::args_codec::{default_resource_spec, ArgsCodec, ResourceSpec, UtilizationShapePoint, V1Kind};
pub use crate::framework::config_error::{ConfigError, FrameworkError};

pub use crate::framework::profile::{ExpandedPlugins, Profile};
use crate::plugins::IN_TREE;
pub use crate::version::Features;
pub use crate::vocabulary::{ExtensionPoint, PluginName, PluginRef, PluginSetCfg, PluginsCfg};
use serde::Serialize;
use std::collections::BTreeMap;

pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";

/// The default plugins of the run's version, in upstream's multiPoint order (not the
/// registry's), with their score weights (`version::Release::default_plugins`).
pub fn default_plugins(features: &Features) -> PluginsCfg {
    PluginsCfg {
        multi_point: PluginSetCfg {
            enabled: features
                .default_plugins()
                .iter()
                .map(|&(n, w)| PluginRef::new(n.as_str(), w))
                .collect(),
            disabled: vec![],
        },
        ..Default::default()
    }
}

/// Whether the run's version of `name` implements `point` (its descriptor says the code
/// does; the version's table says which points an older version's plugin lacks).
pub fn implements(features: &Features, name: PluginName, point: ExtensionPoint) -> bool {
    IN_TREE.get(name).implements(point) && features.has_point(name, point)
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
pub fn merge_plugins(custom: Option<&PluginsCfg>, features: &Features) -> PluginsCfg {
    let mut def = default_plugins(features);
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
pub fn expand(
    profile: &str,
    cfg: &PluginsCfg,
    features: &Features,
) -> Result<(ExpandedPlugins, BTreeMap<PluginName, i32>), FrameworkError> {
    let mut out = ExpandedPlugins::default();
    // The explicit per-extension-point lists.
    for point in ExtensionPoint::FRAMEWORK_ORDER {
        let slot = out.slot(point);
        for (index, p) in cfg.set(point).enabled.iter().enumerate() {
            let name = lookup(&p.name, point, false, index)?;
            if !implements(features, name, point) {
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
                if !implements(features, name, point) || set.disabled.iter().any(|d| d == &p.name) {
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
        if !implements(features, name, ExtensionPoint::Score) || weights.contains_key(&name) {
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
    pub fn new(
        scheduler_name: &str,
        custom: Option<&PluginsCfg>,
        args: PluginArgs,
        pct: Option<i32>,
        features: &Features,
    ) -> Result<Profile, FrameworkError> {
        Profile::from_merged(scheduler_name, merge_plugins(custom, features), args, pct, features)
    }

    /// A profile from an already merged plugins configuration.
    pub fn from_merged(
        scheduler_name: &str,
        plugins_config: PluginsCfg,
        args: PluginArgs,
        pct: Option<i32>,
        features: &Features,
    ) -> Result<Profile, FrameworkError> {
        let (plugins, weights) = expand(scheduler_name, &plugins_config, features)?;
        Ok(Profile {
            scheduler_name: scheduler_name.to_string(),
            percentage_of_nodes_to_score: pct,
            plugins_config,
            plugins,
            weights,
            args,
            extra_plugin_args: BTreeMap::new(),
            features: features.clone(),
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
pub type SchedulerConfig = SchedulerConfigOf<Profile>;

/// A KubeSchedulerConfiguration's fields, with its profiles as `P`: resolved `Profile`s (the
/// effective `SchedulerConfig`), or the v1-defaulted profiles decoding hands to validation
/// (`decode::Defaulted`). One list of the fields for both stages.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchedulerConfigOf<P> {
    pub parallelism: i32,
    pub leader_election: LeaderElectionConfig,
    pub client_connection: ClientConnectionConfig,
    pub enable_profiling: bool,
    pub enable_contention_profiling: bool,
    /// Global percentageOfNodesToScore; 0 means adaptive.
    pub percentage_of_nodes_to_score: i32,
    pub pod_initial_backoff_seconds: i64,
    pub pod_max_backoff_seconds: i64,
    pub profiles: Vec<P>,
    pub extenders: Vec<ExtenderConfig>,
    pub delay_cache_until_active: bool,
    /// The version and feature gates the configuration was decoded for (not a field of the
    /// KubeSchedulerConfiguration: kube-scheduler's release and its `--feature-gates` flag).
    #[serde(skip)]
    pub features: Features,
}

impl<P> SchedulerConfigOf<P> {
    /// The same configuration with other profiles (each stage's form of them).
    pub(crate) fn with_profiles<Q>(self, profiles: Vec<Q>) -> SchedulerConfigOf<Q> {
        SchedulerConfigOf {
            parallelism: self.parallelism,
            leader_election: self.leader_election,
            client_connection: self.client_connection,
            enable_profiling: self.enable_profiling,
            enable_contention_profiling: self.enable_contention_profiling,
            percentage_of_nodes_to_score: self.percentage_of_nodes_to_score,
            pod_initial_backoff_seconds: self.pod_initial_backoff_seconds,
            pod_max_backoff_seconds: self.pod_max_backoff_seconds,
            profiles,
            extenders: self.extenders,
            delay_cache_until_active: self.delay_cache_until_active,
            features: self.features,
        }
    }
}

impl Default for SchedulerConfig {
    /// The newest version's defaults.
    fn default() -> Self {
        SchedulerConfig::defaults(&Features::default())
    }
}

impl SchedulerConfig {
    /// The schedlab extensions some profile enables (`PluginName::is_schedlab_extension`):
    /// plugins a real kube-scheduler does not have.
    pub fn schedlab_extensions(&self) -> Vec<PluginName> {
        let mut v: Vec<PluginName> = self
            .profiles
            .iter()
            .flat_map(|p| p.needed_plugins())
            .filter(|p| p.is_schedlab_extension())
            .collect();
        crate::sort::sort(&mut v);
        v.dedup();
        v
    }

    /// YAML comment lines saying which enabled plugins are schedlab extensions and what a
    /// real kube-scheduler needs instead (none when no profile enables one).
    pub fn extension_note(&self) -> String {
        self.schedlab_extensions()
            .iter()
            .map(|p| {
                format!(
                    "# {p} is a schedlab extension, not a kube-scheduler plugin: a real kube-scheduler\n\
                     # would need it as a Go plugin compiled into it (docs/cel-plugin.md); an export\n\
                     # of this configuration for a real cluster leaves it out.\n"
                )
            })
            .collect()
    }

    /// The effective configuration of a scenario without one, for a version and its gates.
    pub fn defaults(features: &Features) -> Self {
        SchedulerConfig {
            parallelism: 16,
            leader_election: LeaderElectionConfig::default(),
            client_connection: ClientConnectionConfig::default(),
            enable_profiling: true,
            enable_contention_profiling: true,
            percentage_of_nodes_to_score: 0,
            pod_initial_backoff_seconds: 1,
            pod_max_backoff_seconds: 10,
            profiles: vec![
                Profile::new(DEFAULT_SCHEDULER_NAME, None, PluginArgs::default(), None, features).expect("default profile is valid")
            ],
            extenders: vec![],
            delay_cache_until_active: false,
            features: features.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a profile enabling a schedlab extension gets the note.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn extension_note_names_the_extensions_enabled() {
        let cel = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n\
                   - schedulerName: a\n- schedulerName: b\n  plugins:\n    score:\n      enabled: [{name: schedlab.dev/CEL}]\n";
        let cases: &[(&str, &[PluginName])] = &[("", &[]), (cel, &[PluginName::Cel])];
        for (config, want) in cases {
            let text = format!("{config}---\napiVersion: v1\nkind: Node\nmetadata: {{name: n}}\n");
            let sc = crate::load_str(&text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(sc.config.schedlab_extensions(), *want);
            let note = sc.config.extension_note();
            assert_eq!(note.is_empty(), want.is_empty(), "{note}");
            assert!(want.iter().all(|p| note.starts_with(&format!("# {p} is a schedlab extension"))), "{note}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn default_plugins_name_every_plugin_once() {
        let d = default_plugins(&Features::new(crate::version::KubeVersion::V1_34));
        let mut got: Vec<&str> = d.multi_point.enabled.iter().map(|p| p.name.as_str()).collect();
        got.sort_unstable();
        // Every in-tree plugin of v1.34 is a default one (the tests' own plugin and schedlab's
        // extensions are not).
        let mut all: Vec<&str> = PluginName::ALL
            .iter()
            .filter(|n| **n != PluginName::TestOnlyLabel && !n.is_schedlab_extension())
            .map(|n| n.as_str())
            .collect();
        all.sort_unstable();
        assert_eq!(got, all);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn default_profile_expansion() {
        let v134 = Features::new(crate::version::KubeVersion::V1_34);
        let p = Profile::new("default-scheduler", None, PluginArgs::default(), None, &v134).unwrap();
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

    /// kubernetes#134711: from v1.35 DynamicResources is a Score plugin, weight 2 in the
    /// default profile; a v1.34 profile cannot enable it at Score.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn dynamic_resources_scores_from_v1_35_kubernetes_134711() {
        use crate::version::KubeVersion;
        let explicit = PluginsCfg {
            score: PluginSetCfg {
                enabled: vec![PluginRef::new("DynamicResources", Some(4))],
                disabled: vec![],
            },
            ..Default::default()
        };
        let cases = [
            (KubeVersion::V1_34, None, Ok(None)),
            (KubeVersion::V1_35, None, Ok(Some(2))),
            (KubeVersion::V1_35, Some(&explicit), Ok(Some(4))),
            (KubeVersion::V1_34, Some(&explicit), Err(())),
        ];
        for (v, custom, want) in cases {
            let f = Features::new(v);
            let got = Profile::new("x", custom, PluginArgs::default(), None, &f)
                .map(|p| {
                    assert_eq!(
                        p.plugins.score.contains(&PluginName::DynamicResources),
                        p.weights.contains_key(&PluginName::DynamicResources)
                    );
                    p.weights.get(&PluginName::DynamicResources).copied()
                })
                .map_err(|e| {
                    assert!(
                        matches!(
                            e,
                            FrameworkError::NotExtend {
                                point: ExtensionPoint::Score,
                                ..
                            }
                        ),
                        "{v}: {e}"
                    )
                });
            assert_eq!(got, want, "{v}");
        }
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
        let p = Profile::new("x", Some(&custom), PluginArgs::default(), None, &Features::default()).unwrap();
        assert!(!p.plugins.score.contains(&PluginName::ImageLocality));
        assert_eq!(p.weights[&PluginName::NodeResourcesFit], 5);
        // Overridden plugins come first, in the order the user listed them.
        assert_eq!(p.plugins.score[0], PluginName::NodeResourcesFit);
    }
}

#[cfg(test)]
mod config_tests;
