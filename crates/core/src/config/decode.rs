//! Strict decoding of a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration, then the v1
//! defaulting and validation kube-scheduler applies.

use super::*;
use crate::api::{NodeAffinity, TopologySpreadConstraint};
use serde::Deserialize;
use serde_yaml::Value;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1Config {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    parallelism: Option<i32>,
    leader_election: Option<serde_json::Value>,
    client_connection: Option<serde_json::Value>,
    health_bind_address: Option<String>,
    metrics_bind_address: Option<String>,
    enable_profiling: Option<bool>,
    enable_contention_profiling: Option<bool>,
    percentage_of_nodes_to_score: Option<i32>,
    pod_initial_backoff_seconds: Option<i64>,
    pod_max_backoff_seconds: Option<i64>,
    #[serde(default)]
    profiles: Vec<V1Profile>,
    extenders: Option<Vec<serde_json::Value>>,
    delay_cache_until_active: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1Profile {
    scheduler_name: Option<String>,
    percentage_of_nodes_to_score: Option<i32>,
    plugins: Option<V1Plugins>,
    #[serde(default)]
    plugin_config: Vec<V1PluginConfig>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1Plugins {
    #[serde(default)]
    pre_enqueue: V1PluginSet,
    #[serde(default)]
    queue_sort: V1PluginSet,
    #[serde(default)]
    pre_filter: V1PluginSet,
    #[serde(default)]
    filter: V1PluginSet,
    #[serde(default)]
    post_filter: V1PluginSet,
    #[serde(default)]
    pre_score: V1PluginSet,
    #[serde(default)]
    score: V1PluginSet,
    #[serde(default)]
    reserve: V1PluginSet,
    #[serde(default)]
    permit: V1PluginSet,
    #[serde(default)]
    pre_bind: V1PluginSet,
    #[serde(default)]
    bind: V1PluginSet,
    #[serde(default)]
    post_bind: V1PluginSet,
    #[serde(default)]
    multi_point: V1PluginSet,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1PluginSet {
    #[serde(default)]
    enabled: Vec<V1Plugin>,
    #[serde(default)]
    disabled: Vec<V1Plugin>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1Plugin {
    name: String,
    weight: Option<i32>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1PluginConfig {
    name: String,
    #[serde(default)]
    args: Value,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1ResourceSpec {
    name: String,
    #[serde(default)]
    weight: i64,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1Shape {
    utilization: i32,
    score: i32,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1FitArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    ignored_resources: Vec<String>,
    #[serde(default)]
    ignored_resource_groups: Vec<String>,
    scoring_strategy: Option<V1ScoringStrategy>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1ScoringStrategy {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    resources: Vec<V1ResourceSpec>,
    requested_to_capacity_ratio: Option<V1Rtcr>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1Rtcr {
    #[serde(default)]
    shape: Vec<V1Shape>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1BalancedArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    resources: Vec<V1ResourceSpec>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1PreemptionArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    min_candidate_nodes_percentage: Option<i32>,
    min_candidate_nodes_absolute: Option<i32>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1InterPodAffinityArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    hard_pod_affinity_weight: Option<i32>,
    #[serde(default)]
    ignore_preferred_terms_of_existing_pods: bool,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1SpreadArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    default_constraints: Vec<TopologySpreadConstraint>,
    #[serde(default)]
    defaulting_type: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1VolumeBindingArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    bind_timeout_seconds: Option<i64>,
    #[serde(default)]
    shape: Vec<V1Shape>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1NodeAffinityArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    added_affinity: Option<NodeAffinity>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct V1DynamicResourcesArgs {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    filter_timeout: Option<String>,
}

fn strict<T: serde::de::DeserializeOwned + Default>(v: &Value, what: &str) -> Result<T, String> {
    if v.is_null() {
        return Ok(T::default());
    }
    serde_path_to_error::deserialize::<_, T>(v.clone()).map_err(|e| {
        let p = e.path().to_string();
        if p.is_empty() || p == "." {
            format!("{what}: strict decoding error: {}", e.inner())
        } else {
            format!("{what}.{p}: strict decoding error: {}", e.inner())
        }
    })
}

fn set(s: V1PluginSet) -> PluginSetCfg {
    PluginSetCfg {
        enabled: s
            .enabled
            .into_iter()
            .map(|p| PluginRef {
                name: p.name,
                weight: p.weight,
            })
            .collect(),
        disabled: s.disabled.into_iter().map(|p| p.name).collect(),
    }
}

fn resources(v: Vec<V1ResourceSpec>) -> Vec<ResourceSpec> {
    v.into_iter()
        .map(|r| ResourceSpec {
            name: r.name,
            weight: if r.weight == 0 { 1 } else { r.weight },
        })
        .collect()
}

fn shape(v: Vec<V1Shape>) -> Vec<UtilizationShapePoint> {
    v.into_iter()
        .map(|s| UtilizationShapePoint {
            utilization: s.utilization,
            score: s.score,
        })
        .collect()
}

/// Decodes, defaults and validates a configuration document.
pub fn decode_value(v: &Value) -> Result<SchedulerConfig, Vec<String>> {
    let mut errs = Vec::new();
    let raw: V1Config = match strict(v, "KubeSchedulerConfiguration") {
        Ok(c) => c,
        Err(e) => return Err(vec![e]),
    };
    let _ = (&raw.api_version, &raw.kind);
    let mut cfg = SchedulerConfig {
        percentage_of_nodes_to_score: raw.percentage_of_nodes_to_score.unwrap_or(0),
        pod_initial_backoff_seconds: raw.pod_initial_backoff_seconds.unwrap_or(1),
        pod_max_backoff_seconds: raw.pod_max_backoff_seconds.unwrap_or(10),
        profiles: vec![],
    };
    let mut profiles = raw.profiles;
    if profiles.is_empty() {
        profiles.push(V1Profile::default());
    }
    for (i, p) in profiles.into_iter().enumerate() {
        let name = p.scheduler_name.clone().unwrap_or_else(|| DEFAULT_SCHEDULER_NAME.to_string());
        let mut args = PluginArgs::default();
        for pc in p.plugin_config {
            let what = format!("profiles[{i}].pluginConfig[{}].args", pc.name);
            let r: Result<(), String> = (|| {
                match pc.name.as_str() {
                    "NodeResourcesFit" => {
                        let a: V1FitArgs = strict(&pc.args, &what)?;
                        let mut out = NodeResourcesFitArgs {
                            ignored_resources: a.ignored_resources,
                            ignored_resource_groups: a.ignored_resource_groups,
                            ..Default::default()
                        };
                        if let Some(s) = a.scoring_strategy {
                            out.scoring_strategy.kind = match s.kind.as_str() {
                                "" | "LeastAllocated" => ScoringStrategyType::LeastAllocated,
                                "MostAllocated" => ScoringStrategyType::MostAllocated,
                                "RequestedToCapacityRatio" => ScoringStrategyType::RequestedToCapacityRatio,
                                other => return Err(format!("{what}.scoringStrategy.type: Unsupported value: {other:?}")),
                            };
                            if !s.resources.is_empty() {
                                out.scoring_strategy.resources = resources(s.resources);
                            }
                            if let Some(r) = s.requested_to_capacity_ratio {
                                out.scoring_strategy.shape = shape(r.shape);
                            }
                        }
                        args.node_resources_fit = out;
                    }
                    "NodeResourcesBalancedAllocation" => {
                        let a: V1BalancedArgs = strict(&pc.args, &what)?;
                        if !a.resources.is_empty() {
                            args.node_resources_balanced_allocation.resources = resources(a.resources);
                        }
                    }
                    "DefaultPreemption" => {
                        let a: V1PreemptionArgs = strict(&pc.args, &what)?;
                        if let Some(x) = a.min_candidate_nodes_percentage {
                            args.default_preemption.min_candidate_nodes_percentage = x;
                        }
                        if let Some(x) = a.min_candidate_nodes_absolute {
                            args.default_preemption.min_candidate_nodes_absolute = x;
                        }
                    }
                    "InterPodAffinity" => {
                        let a: V1InterPodAffinityArgs = strict(&pc.args, &what)?;
                        if let Some(x) = a.hard_pod_affinity_weight {
                            args.inter_pod_affinity.hard_pod_affinity_weight = x;
                        }
                        args.inter_pod_affinity.ignore_preferred_terms_of_existing_pods = a.ignore_preferred_terms_of_existing_pods;
                    }
                    "PodTopologySpread" => {
                        let a: V1SpreadArgs = strict(&pc.args, &what)?;
                        args.pod_topology_spread.default_constraints = a.default_constraints;
                        args.pod_topology_spread.defaulting_type = match a.defaulting_type.as_str() {
                            "" | "System" => DefaultingType::System,
                            "List" => DefaultingType::List,
                            other => return Err(format!("{what}.defaultingType: Unsupported value: {other:?}")),
                        };
                    }
                    "VolumeBinding" => {
                        let a: V1VolumeBindingArgs = strict(&pc.args, &what)?;
                        if let Some(x) = a.bind_timeout_seconds {
                            args.volume_binding.bind_timeout_seconds = x;
                        }
                        args.volume_binding.shape = shape(a.shape);
                    }
                    "NodeAffinity" => {
                        let a: V1NodeAffinityArgs = strict(&pc.args, &what)?;
                        args.node_affinity.added_affinity = a.added_affinity;
                    }
                    "DynamicResources" => {
                        let _a: V1DynamicResourcesArgs = strict(&pc.args, &what)?;
                    }
                    other => {
                        if PluginName::parse(other).is_none() {
                            return Err(format!("profiles[{i}].pluginConfig[{other}]: plugin {other:?} does not exist"));
                        }
                    }
                }
                Ok(())
            })();
            if let Err(e) = r {
                errs.push(e);
            }
        }
        let custom = p.plugins.map(|pl| PluginsCfg {
            pre_enqueue: set(pl.pre_enqueue),
            queue_sort: set(pl.queue_sort),
            pre_filter: set(pl.pre_filter),
            filter: set(pl.filter),
            post_filter: set(pl.post_filter),
            pre_score: set(pl.pre_score),
            score: set(pl.score),
            reserve: set(pl.reserve),
            permit: set(pl.permit),
            pre_bind: set(pl.pre_bind),
            bind: set(pl.bind),
            post_bind: set(pl.post_bind),
            multi_point: set(pl.multi_point),
        });
        match Profile::new(&name, custom.as_ref(), args, p.percentage_of_nodes_to_score) {
            Ok(pr) => cfg.profiles.push(pr),
            Err(e) => errs.push(format!("profiles[{i}]: {e}")),
        }
    }
    if errs.is_empty() {
        Ok(cfg)
    } else {
        Err(errs)
    }
}
