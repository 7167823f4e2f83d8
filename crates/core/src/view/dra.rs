//! Dynamic Resource Allocation in the views: the devices the cluster offers (per slice, pool and
//! the nodes that can use them) and the claims (allocation, reservations) at any stop, replayed
//! from the trace's `Claim` events. Only present when the scenario has DRA objects.

use crate::dra::allocator::{slice_matches_node, NodeRef};
use crate::dra::claim_state;
use crate::engine::Engine;
use schedlab_view::view::{ClaimLive, ClaimModel, DeviceModel, DraModel};
use std::collections::BTreeMap;

/// Building the DRA model (the type is `schedlab-view`'s).
pub(super) trait BuildDra: Sized {
    /// None when the scenario has no DRA objects.
    fn build(e: &Engine) -> Option<Self>;
}

impl BuildDra for DraModel {
    fn build(e: &Engine) -> Option<DraModel> {
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
    crate::sort::map_of(e.cluster.dra.claims.iter().map(|(k, c)| {
        let (devices, reserved_for) = claim_state(c);
        (
            k.clone(),
            ClaimLive {
                key: k.clone(),
                devices,
                reserved_for,
            },
        )
    }))
}
