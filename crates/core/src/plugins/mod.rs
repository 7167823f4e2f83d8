//! The in-tree plugins: one module each, one typed name enum, one registry.

use crate::config::PluginArgs;
use crate::framework::Plugin;
use serde::{Serialize, Serializer};
use std::fmt;

pub mod default_binder;
pub mod default_preemption;
pub mod dynamic_resources;
pub mod helper;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources_balanced_allocation;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod node_volume_limits;
pub mod pod_topology_spread;
pub mod priority_sort;
pub mod resource_allocation;
pub mod scheduling_gates;
pub mod taint_toleration;
pub mod volume_binding;
pub mod volume_restrictions;
pub mod volume_util;
pub mod volume_zone;

/// Every in-tree plugin of kube-scheduler v1.34.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PluginName {
    PrioritySort,
    SchedulingGates,
    NodeUnschedulable,
    NodeName,
    TaintToleration,
    NodeAffinity,
    NodePorts,
    NodeResourcesFit,
    VolumeRestrictions,
    NodeVolumeLimits,
    VolumeBinding,
    VolumeZone,
    PodTopologySpread,
    InterPodAffinity,
    DefaultPreemption,
    NodeResourcesBalancedAllocation,
    ImageLocality,
    DefaultBinder,
    DynamicResources,
}

/// Extension points, as bits.
pub mod ep {
    pub const PRE_ENQUEUE: u16 = 1 << 0;
    pub const QUEUE_SORT: u16 = 1 << 1;
    pub const PRE_FILTER: u16 = 1 << 2;
    pub const FILTER: u16 = 1 << 3;
    pub const POST_FILTER: u16 = 1 << 4;
    pub const PRE_SCORE: u16 = 1 << 5;
    pub const SCORE: u16 = 1 << 6;
    pub const RESERVE: u16 = 1 << 7;
    pub const PERMIT: u16 = 1 << 8;
    pub const PRE_BIND: u16 = 1 << 9;
    pub const BIND: u16 = 1 << 10;
    pub const POST_BIND: u16 = 1 << 11;
    /// Implements EnqueueExtensions (queueing hints).
    pub const ENQUEUE_EXT: u16 = 1 << 12;
}

impl PluginName {
    pub const ALL: [PluginName; 19] = [
        PluginName::PrioritySort,
        PluginName::SchedulingGates,
        PluginName::NodeUnschedulable,
        PluginName::NodeName,
        PluginName::TaintToleration,
        PluginName::NodeAffinity,
        PluginName::NodePorts,
        PluginName::NodeResourcesFit,
        PluginName::VolumeRestrictions,
        PluginName::NodeVolumeLimits,
        PluginName::VolumeBinding,
        PluginName::VolumeZone,
        PluginName::PodTopologySpread,
        PluginName::InterPodAffinity,
        PluginName::DefaultPreemption,
        PluginName::NodeResourcesBalancedAllocation,
        PluginName::ImageLocality,
        PluginName::DefaultBinder,
        PluginName::DynamicResources,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PluginName::PrioritySort => "PrioritySort",
            PluginName::SchedulingGates => "SchedulingGates",
            PluginName::NodeUnschedulable => "NodeUnschedulable",
            PluginName::NodeName => "NodeName",
            PluginName::TaintToleration => "TaintToleration",
            PluginName::NodeAffinity => "NodeAffinity",
            PluginName::NodePorts => "NodePorts",
            PluginName::NodeResourcesFit => "NodeResourcesFit",
            PluginName::VolumeRestrictions => "VolumeRestrictions",
            PluginName::NodeVolumeLimits => "NodeVolumeLimits",
            PluginName::VolumeBinding => "VolumeBinding",
            PluginName::VolumeZone => "VolumeZone",
            PluginName::PodTopologySpread => "PodTopologySpread",
            PluginName::InterPodAffinity => "InterPodAffinity",
            PluginName::DefaultPreemption => "DefaultPreemption",
            PluginName::NodeResourcesBalancedAllocation => "NodeResourcesBalancedAllocation",
            PluginName::ImageLocality => "ImageLocality",
            PluginName::DefaultBinder => "DefaultBinder",
            PluginName::DynamicResources => "DynamicResources",
        }
    }

    pub fn parse(s: &str) -> Option<PluginName> {
        PluginName::ALL.iter().copied().find(|p| p.as_str() == s)
    }

    /// The extension points this plugin implements (upstream's interface assertions).
    pub fn extension_points(self) -> u16 {
        use ep::*;
        match self {
            PluginName::PrioritySort => QUEUE_SORT,
            PluginName::SchedulingGates => PRE_ENQUEUE | ENQUEUE_EXT,
            PluginName::NodeUnschedulable => FILTER | ENQUEUE_EXT,
            PluginName::NodeName => FILTER | ENQUEUE_EXT,
            PluginName::TaintToleration => FILTER | PRE_SCORE | SCORE | ENQUEUE_EXT,
            PluginName::NodeAffinity => PRE_FILTER | FILTER | PRE_SCORE | SCORE | ENQUEUE_EXT,
            PluginName::NodePorts => PRE_FILTER | FILTER | ENQUEUE_EXT,
            PluginName::NodeResourcesFit => PRE_FILTER | FILTER | PRE_SCORE | SCORE | ENQUEUE_EXT,
            PluginName::VolumeRestrictions => PRE_FILTER | FILTER | ENQUEUE_EXT,
            PluginName::NodeVolumeLimits => PRE_FILTER | FILTER | ENQUEUE_EXT,
            PluginName::VolumeBinding => PRE_FILTER | FILTER | RESERVE | PRE_BIND | PRE_SCORE | SCORE | ENQUEUE_EXT,
            PluginName::VolumeZone => PRE_FILTER | FILTER | ENQUEUE_EXT,
            PluginName::PodTopologySpread => PRE_FILTER | FILTER | PRE_SCORE | SCORE | ENQUEUE_EXT,
            PluginName::InterPodAffinity => PRE_FILTER | FILTER | PRE_SCORE | SCORE | ENQUEUE_EXT,
            PluginName::DefaultPreemption => POST_FILTER | PRE_ENQUEUE | ENQUEUE_EXT,
            PluginName::NodeResourcesBalancedAllocation => PRE_SCORE | SCORE,
            PluginName::ImageLocality => SCORE,
            PluginName::DefaultBinder => BIND,
            PluginName::DynamicResources => PRE_ENQUEUE | PRE_FILTER | FILTER | POST_FILTER | RESERVE | PRE_BIND | ENQUEUE_EXT,
        }
    }

    pub fn implements(self, point: u16) -> bool {
        self.extension_points() & point != 0
    }
}

impl fmt::Display for PluginName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for PluginName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A small set of plugin names (a bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PluginSet(u32);

impl PluginSet {
    pub fn insert(&mut self, p: PluginName) {
        self.0 |= 1 << (p as u32);
    }
    pub fn remove(&mut self, p: PluginName) {
        self.0 &= !(1 << (p as u32));
    }
    pub fn contains(&self, p: PluginName) -> bool {
        self.0 & (1 << (p as u32)) != 0
    }
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
    pub fn clear(&mut self) {
        self.0 = 0;
    }
    pub fn union(self, o: PluginSet) -> PluginSet {
        PluginSet(self.0 | o.0)
    }
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }
    /// Members in name order (as upstream's sorted sets print).
    pub fn sorted_names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.iter().map(|p| p.as_str()).collect();
        v.sort_unstable();
        v
    }
    pub fn iter(&self) -> impl Iterator<Item = PluginName> + '_ {
        PluginName::ALL.iter().copied().filter(move |p| self.contains(*p))
    }
}

impl Serialize for PluginSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.sorted_names())
    }
}

/// The registry: builds a plugin instance from its name and the profile's arguments.
pub fn new_plugin(name: PluginName, args: &PluginArgs) -> Box<dyn Plugin> {
    match name {
        PluginName::PrioritySort => Box::new(priority_sort::PrioritySort),
        PluginName::SchedulingGates => Box::new(scheduling_gates::SchedulingGates),
        PluginName::NodeUnschedulable => Box::new(node_unschedulable::NodeUnschedulable),
        PluginName::NodeName => Box::new(node_name::NodeName),
        PluginName::TaintToleration => Box::new(taint_toleration::TaintToleration),
        PluginName::NodeAffinity => Box::new(node_affinity::NodeAffinity::new(&args.node_affinity)),
        PluginName::NodePorts => Box::new(node_ports::NodePorts),
        PluginName::NodeResourcesFit => Box::new(node_resources_fit::Fit::new(&args.node_resources_fit)),
        PluginName::VolumeRestrictions => Box::new(volume_restrictions::VolumeRestrictions),
        PluginName::NodeVolumeLimits => Box::new(node_volume_limits::CsiLimits),
        PluginName::VolumeBinding => Box::new(volume_binding::VolumeBinding::new(&args.volume_binding)),
        PluginName::VolumeZone => Box::new(volume_zone::VolumeZone),
        PluginName::PodTopologySpread => Box::new(pod_topology_spread::PodTopologySpread::new(&args.pod_topology_spread)),
        PluginName::InterPodAffinity => Box::new(inter_pod_affinity::InterPodAffinity::new(&args.inter_pod_affinity)),
        PluginName::DefaultPreemption => Box::new(default_preemption::DefaultPreemption::new(&args.default_preemption)),
        PluginName::NodeResourcesBalancedAllocation => Box::new(node_resources_balanced_allocation::BalancedAllocation::new(
            &args.node_resources_balanced_allocation,
        )),
        PluginName::ImageLocality => Box::new(image_locality::ImageLocality),
        PluginName::DefaultBinder => Box::new(default_binder::DefaultBinder),
        PluginName::DynamicResources => Box::new(dynamic_resources::DynamicResources::new(&args.dynamic_resources)),
    }
}

/// Fixture builders for plugin tests (in the spirit of upstream's `MakePod().Name(..)`).
#[cfg(test)]
pub mod testing;
