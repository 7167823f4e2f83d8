//! Plugin arguments of every in-tree plugin, as the engine uses them: already defaulted.
//! (Decoding from KubeSchedulerConfiguration `pluginConfig`, defaulting and validation live in
//! `config::decode`/`config::validate`; `Default` is the v1 default of each kind.)

use crate::api::{NodeAffinity, TopologySpreadConstraint};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSpec {
    pub name: String,
    pub weight: i64,
}

pub fn default_resource_spec() -> Vec<ResourceSpec> {
    vec![
        ResourceSpec {
            name: "cpu".into(),
            weight: 1,
        },
        ResourceSpec {
            name: "memory".into(),
            weight: 1,
        },
    ]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct UtilizationShapePoint {
    pub utilization: i32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ScoringStrategyType {
    LeastAllocated,
    MostAllocated,
    RequestedToCapacityRatio,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoringStrategy {
    #[serde(rename = "type")]
    pub kind: ScoringStrategyType,
    pub resources: Vec<ResourceSpec>,
    /// Only for RequestedToCapacityRatio.
    pub shape: Vec<UtilizationShapePoint>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeResourcesFitArgs {
    pub ignored_resources: Vec<String>,
    pub ignored_resource_groups: Vec<String>,
    pub scoring_strategy: ScoringStrategy,
}

impl Default for NodeResourcesFitArgs {
    fn default() -> Self {
        NodeResourcesFitArgs {
            ignored_resources: vec![],
            ignored_resource_groups: vec![],
            scoring_strategy: ScoringStrategy {
                kind: ScoringStrategyType::LeastAllocated,
                resources: default_resource_spec(),
                shape: vec![],
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeResourcesBalancedAllocationArgs {
    pub resources: Vec<ResourceSpec>,
}

impl Default for NodeResourcesBalancedAllocationArgs {
    fn default() -> Self {
        NodeResourcesBalancedAllocationArgs {
            resources: default_resource_spec(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefaultPreemptionArgs {
    pub min_candidate_nodes_percentage: i32,
    pub min_candidate_nodes_absolute: i32,
}

impl Default for DefaultPreemptionArgs {
    fn default() -> Self {
        DefaultPreemptionArgs {
            min_candidate_nodes_percentage: 10,
            min_candidate_nodes_absolute: 100,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InterPodAffinityArgs {
    pub hard_pod_affinity_weight: i32,
    pub ignore_preferred_terms_of_existing_pods: bool,
}

impl Default for InterPodAffinityArgs {
    fn default() -> Self {
        InterPodAffinityArgs {
            hard_pod_affinity_weight: 1,
            ignore_preferred_terms_of_existing_pods: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DefaultingType {
    System,
    List,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTopologySpreadArgs {
    pub default_constraints: Vec<TopologySpreadConstraint>,
    pub defaulting_type: DefaultingType,
}

impl Default for PodTopologySpreadArgs {
    fn default() -> Self {
        PodTopologySpreadArgs {
            default_constraints: vec![],
            defaulting_type: DefaultingType::System,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeBindingArgs {
    pub bind_timeout_seconds: i64,
    /// StorageCapacityScoring is off by default in v1.34, so this stays empty unless configured.
    pub shape: Vec<UtilizationShapePoint>,
}

impl Default for VolumeBindingArgs {
    fn default() -> Self {
        VolumeBindingArgs {
            bind_timeout_seconds: 600,
            shape: vec![],
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeAffinityArgs {
    pub added_affinity: Option<NodeAffinity>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DynamicResourcesArgs {
    /// Filter timeout in seconds (DRASchedulerFilterTimeout is on by default: 10 s); `None`
    /// or zero means no timeout.
    pub filter_timeout_seconds: Option<f64>,
}

impl Default for DynamicResourcesArgs {
    fn default() -> Self {
        DynamicResourcesArgs {
            filter_timeout_seconds: Some(10.0),
        }
    }
}

/// The arguments of every plugin in one profile.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct PluginArgs {
    pub default_preemption: DefaultPreemptionArgs,
    pub inter_pod_affinity: InterPodAffinityArgs,
    pub node_affinity: NodeAffinityArgs,
    pub node_resources_balanced_allocation: NodeResourcesBalancedAllocationArgs,
    pub node_resources_fit: NodeResourcesFitArgs,
    pub pod_topology_spread: PodTopologySpreadArgs,
    pub volume_binding: VolumeBindingArgs,
    pub dynamic_resources: DynamicResourcesArgs,
}
