//! Kubernetes object types at the edge of the engine.
//!
//! These mirror the JSON/YAML shape of the Kubernetes API objects a scenario may contain, decoded
//! strictly: every struct denies unknown fields, as `kubectl apply --validate=strict` would.
//! Fields the scheduler never reads are still declared (as opaque JSON values) so that real
//! `kubectl get -o yaml` output loads. The engine converts these into its own slimmer structures
//! (see `framework::PodInfo` / `framework::NodeInfo`).

mod core;
mod meta;
mod other;
pub mod resource;
pub mod sorted_map;
mod workloads;

pub use self::core::*;
pub use self::meta::*;
pub use self::other::*;
pub use self::workloads::*;
pub use sorted_map::SortedMap;

/// The well-known node labels of topology (`kubernetes.io/hostname`, the zone), which the
/// topology plugins default to and their explanations name.
pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";

/// An opaque value for fields the scheduler never reads.
pub type Opaque = serde_json::Value;
