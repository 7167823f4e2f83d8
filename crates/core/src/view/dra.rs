//! Dynamic Resource Allocation in the views: the devices the cluster offers (per slice, pool and
//! the nodes that can use them) and the claims (allocation, reservations) at any stop, replayed
//! from the trace's `Claim` events. Only present when the scenario has DRA objects.

use crate::dra::allocator::{slice_matches_node, NodeRef};
use crate::dra::claim_state;
use crate::engine::Engine;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One device a ResourceSlice publishes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceModel {
    pub slice: String,
    pub driver: String,
    pub pool: String,
    pub device: String,
    /// `driver/pool/device`, as claims name their devices.
    pub id: String,
    /// Nodes (trace header indices) that can use it: one for a node-local slice, several for a
    /// node selector, all for `allNodes`.
    pub nodes: Vec<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_nodes: bool,
    /// Attributes and capacities as `name=value`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<String>,
}

/// A claim as declared or generated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimModel {
    /// `namespace/name`.
    pub key: String,
    /// Requests as `name: class ×count` (or `All`), subrequests listed in order.
    pub requests: Vec<String>,
    /// The pod (trace header index) that controls it: generated from its template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DraModel {
    pub devices: Vec<DeviceModel>,
    pub claims: Vec<ClaimModel>,
    /// The device classes by name.
    pub classes: Vec<String>,
}

/// A claim at one stop.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimLive {
    pub key: String,
    /// Allocated devices (`driver/pool/device`), empty when unallocated.
    pub devices: Vec<String>,
    /// Names of the pods it is reserved for.
    pub reserved_for: Vec<String>,
}

impl DraModel {
    /// None when the scenario has no DRA objects.
    pub fn build(e: &Engine) -> Option<DraModel> {
        let dra = &e.cluster.dra;
        if !dra.reported && dra.slices.is_empty() && dra.classes.is_empty() {
            return None;
        }
        let mut devices = Vec::new();
        for s in &dra.slices {
            let nodes: Vec<u32> = e
                .snapshot
                .nodes()
                .iter()
                .enumerate()
                .filter(|(_, n)| {
                    slice_matches_node(
                        s,
                        &NodeRef {
                            name: n.name(),
                            labels: n.labels(),
                        },
                    )
                })
                .map(|(i, _)| i as u32)
                .collect();
            for d in &s.spec.devices {
                let mut attributes: Vec<String> = d
                    .attributes
                    .iter()
                    .map(|(k, a)| {
                        let v = a
                            .int
                            .map(|i| i.to_string())
                            .or_else(|| a.bool.map(|b| b.to_string()))
                            .or_else(|| a.string.clone())
                            .or_else(|| a.version.clone())
                            .unwrap_or_default();
                        format!("{k}={v}")
                    })
                    .collect();
                attributes.extend(d.capacity.iter().map(|(k, c)| format!("{k}={}", c.value)));
                devices.push(DeviceModel {
                    slice: s.metadata.name.clone(),
                    driver: s.spec.driver.clone(),
                    pool: s.spec.pool.name.clone(),
                    device: d.name.clone(),
                    id: format!("{}/{}/{}", s.spec.driver, s.spec.pool.name, d.name),
                    nodes: nodes.clone(),
                    all_nodes: s.spec.all_nodes == Some(true),
                    attributes,
                });
            }
        }
        let claims = dra
            .claims
            .iter()
            .map(|(k, c)| {
                let requests = c
                    .spec
                    .devices
                    .requests
                    .iter()
                    .map(|r| match &r.exactly {
                        Some(ex) => format!(
                            "{}: {}",
                            r.name,
                            amount(&ex.device_class_name, ex.allocation_mode.as_deref(), ex.count)
                        ),
                        None => format!(
                            "{}: first of {}",
                            r.name,
                            r.first_available
                                .iter()
                                .map(|s| format!(
                                    "{} ({})",
                                    s.name,
                                    amount(&s.device_class_name, s.allocation_mode.as_deref(), s.count)
                                ))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    })
                    .collect();
                let owner = c
                    .metadata
                    .owner_references
                    .iter()
                    .find(|o| o.controller == Some(true) && o.kind == "Pod")
                    .and_then(|o| e.pod_by_key(&format!("{}/{}", c.metadata.namespace.as_deref().unwrap_or("default"), o.name)))
                    .map(|i| i as u32);
                ClaimModel {
                    key: k.clone(),
                    requests,
                    owner,
                }
            })
            .collect();
        Some(DraModel {
            devices,
            claims,
            classes: dra.classes.keys().cloned().collect(),
        })
    }
}

fn amount(class: &str, mode: Option<&str>, count: Option<i64>) -> String {
    match mode {
        Some("All") => format!("all of {class}"),
        _ => format!("{class} ×{}", count.unwrap_or(1)),
    }
}

/// The claims before the first cycle.
pub fn initial_claims(e: &Engine) -> BTreeMap<String, ClaimLive> {
    e.cluster
        .dra
        .claims
        .iter()
        .map(|(k, c)| {
            let (devices, reserved_for) = claim_state(c);
            (
                k.clone(),
                ClaimLive {
                    key: k.clone(),
                    devices,
                    reserved_for,
                },
            )
        })
        .collect()
}
