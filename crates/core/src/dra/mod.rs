//! Dynamic Resource Allocation: the resource.k8s.io objects of the simulated cluster, the CEL
//! device selectors (`cel`), and the structured allocator (`allocator`). The scheduler plugin
//! that uses them is `plugins::dynamic_resources`; the claim life cycle that follows a pod's
//! deletion (the resourceclaim controller's and the garbage collector's work) is
//! `Cluster::release_claims`.

pub mod allocator;
pub mod cel;

use crate::api::resource::{DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice, CLAIM_FINALIZER};
use crate::cluster::Cluster;
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource};
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

/// The trace's record of a claim write.
pub fn claim_trace_event(old: Option<&ResourceClaim>, new: Option<&ResourceClaim>) -> crate::trace::TraceEvent {
    let c = new.or(old).expect("a claim event carries a claim");
    let (devices, reserved_for) = match new {
        Some(c) => claim_state(c),
        None => (Vec::new(), Vec::new()),
    };
    crate::trace::TraceEvent::Claim {
        claim: claim_key(c),
        devices,
        reserved_for,
        deleted: new.is_none(),
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

impl Cluster {
    /// Replaces a claim and records the update event.
    pub fn update_claim(&mut self, new: ResourceClaim) {
        let key = claim_key(&new);
        let new = Arc::new(new);
        let old = self.dra.claims.insert(key, new.clone());
        self.pending_events.push((
            ClusterEvent::new(
                EventResource::ResourceClaim,
                if old.is_some() { ActionType::UPDATE } else { ActionType::ADD },
            ),
            EventObject::ResourceClaim { old, new: Some(new) },
        ));
    }

    /// Deletes a claim and records the event.
    pub fn delete_claim(&mut self, key: &str) {
        if let Some(old) = self.dra.claims.remove(key) {
            self.pending_events.push((
                ClusterEvent::new(EventResource::ResourceClaim, ActionType::DELETE),
                EventObject::ResourceClaim { old: Some(old), new: None },
            ));
        }
    }

    /// Deallocates a claim (DynamicResources' PostFilter): allocation and reservations cleared.
    pub fn deallocate_claim(&mut self, key: &str) {
        if let Some(c) = self.dra.claims.get(key) {
            let mut c = (**c).clone();
            c.status.allocation = None;
            c.status.reserved_for.clear();
            c.status.devices = None;
            self.update_claim(c);
        }
    }

    /// What follows a pod's deletion for its claims: the pod leaves every `reservedFor`; a
    /// claim left with no consumer is deallocated and loses its finalizer; a claim the pod
    /// controls is then deleted. Events are recorded in `pending_events`.
    pub fn release_claims(&mut self, namespace: &str, pod_name: &str, pod_uid: &str) {
        let keys: Vec<String> = self
            .dra
            .claims
            .iter()
            .filter(|(_, c)| c.metadata.namespace.as_deref().unwrap_or("default") == namespace)
            .filter(|(_, c)| c.status.reserved_for.iter().any(|r| r.uid == pod_uid) || controlled_by(c, pod_name, pod_uid, namespace))
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let claim = self.dra.claims[&key].clone();
            if claim.status.reserved_for.iter().any(|r| r.uid == pod_uid) {
                let mut c = (*claim).clone();
                c.status.reserved_for.retain(|r| r.uid != pod_uid);
                if c.status.reserved_for.is_empty() && c.status.allocation.is_some() {
                    c.status.allocation = None;
                    c.status.devices = None;
                    if let Some(f) = &mut c.metadata.finalizers {
                        f.retain(|f| f != CLAIM_FINALIZER);
                        if f.is_empty() {
                            c.metadata.finalizers = None;
                        }
                    }
                }
                self.update_claim(c);
            }
            let claim = self.dra.claims[&key].clone();
            if controlled_by(&claim, pod_name, pod_uid, namespace) && claim.status.reserved_for.is_empty() {
                self.delete_claim(&key);
            }
        }
    }
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
