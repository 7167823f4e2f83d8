//! The in-tree plugins: one folder each (`<name>/mod.rs` declares its `DESCRIPTOR`), helpers
//! several of them share, and the registry that lists them all.

pub(crate) mod explain_util;
pub mod helper;
pub mod registry;
pub mod resource_allocation;
pub mod volume_util;

/// Declares each plugin's module and lists its descriptor in `IN_TREE`, in the order given
/// (which must be `PluginName`'s: `registry`'s tests check it).
macro_rules! in_tree {
    ($($(#[$attr:meta])* $module:ident,)*) => {
        $($(#[$attr])* pub mod $module;)*

        /// The in-tree registry: one descriptor per plugin, at its name's index. The only list
        /// of every plugin; configuration, framework, queue, views and the page's labels
        /// iterate it.
        pub static IN_TREE: crate::framework::registry::Registry =
            crate::framework::registry::Registry(&[$($(#[$attr])* &$module::DESCRIPTOR,)*]);
    };
}

// The one list of plugin folders; a new plugin adds its line here, at its name's place in
// `vocabulary::PluginName` (see "How to add a plugin" in ARCHITECTURE.md).
in_tree! {
    priority_sort,
    scheduling_gates,
    node_unschedulable,
    node_name,
    taint_toleration,
    node_affinity,
    node_ports,
    node_resources_fit,
    volume_restrictions,
    node_volume_limits,
    volume_binding,
    volume_zone,
    pod_topology_spread,
    inter_pod_affinity,
    default_preemption,
    node_resources_balanced_allocation,
    image_locality,
    default_binder,
    dynamic_resources,
    cel,
    #[cfg(test)]
    test_only_label,
}

/// Fixture builders for plugin tests (in the spirit of upstream's `MakePod().Name(..)`).
#[cfg(test)]
pub mod testing;
