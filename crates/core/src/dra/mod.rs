//! Dynamic Resource Allocation: the resource.k8s.io objects of the simulated cluster, the CEL
//! device selectors (`cel`), and the structured allocator (`allocator`). The scheduler plugin
//! that uses them is `plugins::dynamic_resources`; the claim life cycle that follows a pod's
//! deletion (the resourceclaim controller's and the garbage collector's work) is
//! `Cluster::release_claims` (in `cluster.rs`, with the cluster's other claim writes).

pub mod allocator;
#[cfg(feature = "cel")]
pub mod cel;
/// Without the `cel` feature: the same API, evaluating nothing (scenarios with CEL are refused
/// when loaded).
#[cfg(not(feature = "cel"))]
#[path = "cel_off.rs"]
pub mod cel;

use crate::api::resource::{DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::sync::Arc;

/// A device: driver, pool and device name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeviceId {
    pub driver: String,
    pub pool: String,
    pub device: String,
}

impl DeviceId {
    pub fn new(driver: &str, pool: &str, device: &str) -> DeviceId {
        DeviceId {
            driver: driver.into(),
            pool: pool.into(),
            device: device.into(),
        }
    }
}

impl fmt::Display for DeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.driver, self.pool, self.device)
    }
}

/// The resource.k8s.io objects of the cluster.
#[derive(Clone, Debug, Default)]
pub struct DraObjects {
    /// DeviceClasses by name.
    pub classes: BTreeMap<String, Arc<DeviceClass>>,
    /// ResourceSlices in creation order (the allocator's device order).
    pub slices: Vec<Arc<ResourceSlice>>,
    /// ResourceClaimTemplates by `namespace/name`.
    pub templates: BTreeMap<String, Arc<ResourceClaimTemplate>>,
    /// ResourceClaims by `namespace/name`.
    pub claims: BTreeMap<String, Arc<ResourceClaim>>,
    /// Whether the run reports claims: the scenario declares a claim or a template, or a pod
    /// has resource claims.
    pub reported: bool,
}

/// `namespace/name` of a namespaced object.
pub fn claim_key(c: &ResourceClaim) -> String {
    format!("{}/{}", c.metadata.namespace.as_deref().unwrap_or("default"), c.metadata.name)
}

impl DraObjects {
    pub fn claim(&self, namespace: &str, name: &str) -> Option<&Arc<ResourceClaim>> {
        self.claims.get(&format!("{namespace}/{name}"))
    }

    /// Devices allocated to some claim, admin-access allocations aside: the busy devices.
    pub fn allocated_devices(&self) -> HashSet<DeviceId> {
        let mut out = HashSet::new();
        for c in self.claims.values() {
            if let Some(a) = &c.status.allocation {
                for r in &a.devices.results {
                    if r.admin_access == Some(true) {
                        continue;
                    }
                    out.insert(DeviceId::new(&r.driver, &r.pool, &r.device));
                }
            }
        }
        out
    }

    /// The conformance output's `claims`: every existing claim by `namespace/name`, with its
    /// allocated devices (in result order) and the pods it is reserved for.
    pub fn claims_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        for (k, c) in &self.claims {
            let ns = c.metadata.namespace.as_deref().unwrap_or("default");
            let allocated: Vec<serde_json::Value> = c
                .status
                .allocation
                .iter()
                .flat_map(|a| a.devices.results.iter())
                .map(|r| serde_json::json!({"driver": r.driver, "pool": r.pool, "device": r.device}))
                .collect();
            let reserved: Vec<String> = c.status.reserved_for.iter().map(|r| format!("{ns}/{}", r.name)).collect();
            m.insert(k.clone(), serde_json::json!({"allocated": allocated, "reservedFor": reserved}));
        }
        serde_json::Value::Object(m)
    }

    /// The claim (key) holding each allocated device, admin access included.
    pub fn device_owners(&self) -> BTreeMap<DeviceId, Vec<String>> {
        let mut out: BTreeMap<DeviceId, Vec<String>> = BTreeMap::new();
        for (k, c) in &self.claims {
            if let Some(a) = &c.status.allocation {
                for r in &a.devices.results {
                    out.entry(DeviceId::new(&r.driver, &r.pool, &r.device)).or_default().push(k.clone());
                }
            }
        }
        out
    }
}

/// A claim's devices (`driver/pool/device`) and the names of the pods it is reserved for.
pub fn claim_state(c: &ResourceClaim) -> (Vec<String>, Vec<String>) {
    let devices = c
        .status
        .allocation
        .iter()
        .flat_map(|a| a.devices.results.iter())
        .map(|r| format!("{}/{}/{}", r.driver, r.pool, r.device))
        .collect();
    (devices, c.status.reserved_for.iter().map(|r| r.name.clone()).collect())
}

/// Whether the claim's controller reference names the pod (by uid; a reference without one by
/// the uid the pod's name would have).
pub fn controlled_by(c: &ResourceClaim, pod_name: &str, pod_uid: &str, namespace: &str) -> bool {
    c.metadata.owner_references.iter().any(|o| {
        o.controller == Some(true)
            && o.kind == "Pod"
            && o.api_version == "v1"
            && o.name == pod_name
            && if o.uid.is_empty() {
                format!("uid-pod-{namespace}-{pod_name}") == pod_uid
            } else {
                o.uid == pod_uid
            }
    })
}
