//! The in-tree plugins: one folder each (`<name>/mod.rs` declares its `DESCRIPTOR`), helpers
//! several of them share, and the registry that lists them all.

pub mod default_binder;
pub mod default_preemption;
pub mod dynamic_resources;
pub(crate) mod explain_util;
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
pub mod registry;
pub mod resource_allocation;
pub mod scheduling_gates;
pub mod taint_toleration;
pub mod volume_binding;
pub mod volume_restrictions;
pub mod volume_util;
pub mod volume_zone;

pub use registry::IN_TREE;

/// Fixture builders for plugin tests (in the spirit of upstream's `MakePod().Name(..)`).
#[cfg(test)]
pub mod testing;
