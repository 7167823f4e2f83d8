//! DynamicResources (DRA): a pod's ResourceClaims must exist (PreEnqueue) and be allocatable
//! on the node (Filter, with the structured allocator of `crate::dra::allocator`); an allocated
//! claim pins the pod to its allocation's nodes. Reserve keeps the chosen node's allocation;
//! PreBind writes it into the claims (finalizer, `status.allocation`) and adds the pod to their
//! `reservedFor`. PostFilter deallocates an allocated claim that is not available on some node
//! and reserved by no other pod (the engine applies it, see `take_deallocation`). From v1.35
//! it also scores (the rank of the prioritized-list subrequest allocated); a v1.34 profile
//! does not run it at Score (`version::Release::missing_points`).

pub mod args;

use crate::api::resource::{AllocationResult, ResourceClaim, ResourceClaimConsumerReference, CLAIM_FINALIZER};
use crate::api::{Pod, PodResourceClaim};
use crate::dra::allocator::{Allocation, NodeRef};
use crate::dra::cel::{CelEnv, DeviceValue};
use crate::dra::{claim_key, DeviceId};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::runtime::Framework;
use crate::framework::{
    Code, Ctx, CycleState, NodeInfo, NodeScore, NodeToStatus, Plugin, PodInfo, PostFilterResult, PreFilterResult, Status, MAX_NODE_SCORE,
};
use crate::labels::CompiledNodeSelector;
use crate::plugins::helper::default_normalize_score;
use crate::plugins::volume_util::namespace_of;
use crate::rng::Rng;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::DynamicResourcesArgs;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

pub struct DynamicResources {
    #[allow(dead_code)]
    args: DynamicResourcesArgs,
    /// Compiled CEL expressions, kept across cycles (Kubernetes keeps an LRU cache of them).
    cel: RefCell<CelEnv>,
}

impl DynamicResources {
    pub fn new(args: &DynamicResourcesArgs) -> DynamicResources {
        DynamicResources {
            args: args.clone(),
            cel: RefCell::new(CelEnv::new()),
        }
    }
}

/// What Filter found, shared by every copy of the cycle state (Kubernetes shares one object).
#[derive(Default)]
struct Found {
    /// Indices of allocated claims that were not available on some node.
    unavailable: BTreeSet<usize>,
    /// The allocation found on each node that passed, for the claims to allocate.
    node_allocations: HashMap<String, Vec<AllocationResult>>,
    /// Reserve's pick: the allocation of each claim to allocate, by claim index.
    chosen: BTreeMap<usize, AllocationResult>,
    /// Devices converted for CEL, shared by the nodes of the cycle.
    device_values: HashMap<DeviceId, Result<DeviceValue, String>>,
    /// A claim PostFilter asks to deallocate (`namespace/name`).
    deallocate: Option<String>,
}

/// The per-cycle state.
#[derive(Clone, Default)]
struct StateData {
    /// The pod's claims, in the order of `spec.resourceClaims` (none for entries deliberately
    /// without a claim).
    claims: Vec<Arc<ResourceClaim>>,
    /// For allocated claims: the nodes the allocation is available on (None = all).
    available_on: Vec<Option<CompiledNodeSelector>>,
    /// Devices busy at PreFilter (when some claim is to be allocated).
    allocated: Option<Rc<HashSet<DeviceId>>>,
    found: Rc<RefCell<Found>>,
}

impl StateData {
    fn to_allocate(&self) -> impl Iterator<Item = (usize, &Arc<ResourceClaim>)> {
        self.claims.iter().enumerate().filter(|(_, c)| c.status.allocation.is_none())
    }
}

/// The name of the ResourceClaim a pod claim refers to (resourceclaim.Name): the named claim,
/// or the one generated from a template as recorded in the pod's status (None when none was
/// generated on purpose); the flag says the claim must be owned by the pod.
fn claim_name(pod: &Pod, c: &PodResourceClaim) -> Result<Option<(String, bool)>, String> {
    let ns = namespace_of(&pod.metadata);
    let name = &pod.metadata.name;
    if let Some(n) = &c.resource_claim_name {
        return Ok(Some((n.clone(), false)));
    }
    if c.resource_claim_template_name.is_some() {
        let statuses = pod
            .status
            .resource_claim_statuses
            .as_ref()
            .and_then(|v| v.as_array())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for s in statuses {
            if s.get("name").and_then(|n| n.as_str()) == Some(c.name.as_str()) {
                return Ok(s.get("resourceClaimName").and_then(|n| n.as_str()).map(|n| (n.to_string(), true)));
            }
        }
        return Err(format!("pod \"{ns}/{name}\": ResourceClaim not created yet"));
    }
    Err(format!(
        "pod \"{ns}/{name}\", spec.resourceClaim {:?}: none of the supported fields are set",
        c.name
    ))
}

/// The pod's ResourceClaims (foreachPodResourceClaim): each must exist, not be being deleted,
/// and, when generated from a template, be owned by the pod.
fn pod_resource_claims(cx: &Ctx, pod: &Pod) -> Result<Vec<Arc<ResourceClaim>>, String> {
    let ns = namespace_of(&pod.metadata);
    let mut out = Vec::new();
    for c in &pod.spec.resource_claims {
        let Some((name, must_own)) = claim_name(pod, c)? else { continue };
        let Some(claim) = cx.cluster.dra.claim(ns, &name) else {
            return Err(format!("could not find ResourceClaim \"{ns}/{name}\""));
        };
        if claim.metadata.deletion_timestamp.is_some() {
            return Err(format!("resourceclaim {name:?} is being deleted"));
        }
        if must_own {
            let uid = pod.metadata.uid.as_deref().unwrap_or("");
            if !crate::dra::controlled_by(claim, &pod.metadata.name, uid, ns) {
                return Err(format!(
                    "ResourceClaim {ns}/{name} was not created for pod {ns}/{} (pod is not owner)",
                    pod.metadata.name
                ));
            }
        }
        out.push(claim.clone());
    }
    Ok(out)
}

fn reserved_for(claim: &ResourceClaim, uid: &str) -> bool {
    claim.status.reserved_for.iter().any(|r| r.uid == uid)
}

/// What PostFilter asked to deallocate this cycle (the engine performs the write).
pub fn take_deallocation(state: &CycleState) -> Option<String> {
    state
        .read::<StateData>(PluginName::DynamicResources)
        .and_then(|s| s.found.borrow_mut().deallocate.take())
}

/// Why a node failed DynamicResources' Filter, for explanations: per claim, whether its
/// allocation pins it elsewhere; and for the claims to allocate, what the allocator says.
pub struct FilterView {
    pub claims: Vec<ClaimView>,
    /// The allocator's answer on this node: devices per claim to allocate (claim key, devices),
    /// or its error, or None when nothing had to be allocated.
    pub allocation: Option<Result<Option<Vec<ClaimDevices>>, String>>,
}

/// A claim (`namespace/name`) and devices.
pub type ClaimDevices = (String, Vec<DeviceId>);

pub struct ClaimView {
    pub key: String,
    /// Devices of an allocated claim.
    pub allocated: Option<Vec<DeviceId>>,
    /// For an allocated claim: whether its allocation is usable on this node.
    pub available_here: bool,
    pub reserved_for: Vec<String>,
}

impl DynamicResources {
    /// The Filter's reasoning on one node (for explanations), recomputed from the cluster.
    pub fn filter_view(&self, cx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Result<FilterView, String> {
        let claims = pod_resource_claims(cx, &pod.pod)?;
        let mut views = Vec::new();
        let mut to_allocate = Vec::new();
        for c in &claims {
            let (allocated, available_here) = match &c.status.allocation {
                Some(a) => (
                    Some(
                        a.devices
                            .results
                            .iter()
                            .map(|r| DeviceId::new(&r.driver, &r.pool, &r.device))
                            .collect(),
                    ),
                    a.node_selector
                        .as_ref()
                        .is_none_or(|ns| CompiledNodeSelector::compile(ns).matches(node.name(), node.labels())),
                ),
                None => {
                    to_allocate.push(c.as_ref());
                    (None, true)
                }
            };
            views.push(ClaimView {
                key: claim_key(c),
                allocated,
                available_here,
                reserved_for: c.status.reserved_for.iter().map(|r| r.name.clone()).collect(),
            });
        }
        let allocation = (!to_allocate.is_empty()).then(|| {
            let allocated = cx.cluster.dra.allocated_devices();
            let mut device_values = HashMap::new();
            let mut cel = self.cel.borrow_mut();
            let mut a = Allocation {
                cel: &mut cel,
                classes: &cx.cluster.dra.classes,
                slices: &cx.cluster.dra.slices,
                allocated: &allocated,
                device_values: &mut device_values,
            };
            let n = NodeRef {
                name: node.name(),
                labels: node.labels(),
            };
            a.allocate(&n, &to_allocate).map(|r| {
                r.map(|results| {
                    to_allocate
                        .iter()
                        .zip(results)
                        .map(|(c, r)| {
                            (
                                claim_key(c),
                                r.devices
                                    .results
                                    .iter()
                                    .map(|d| DeviceId::new(&d.driver, &d.pool, &d.device))
                                    .collect(),
                            )
                        })
                        .collect()
                })
            })
        });
        Ok(FilterView { claims: views, allocation })
    }
}

impl Plugin for DynamicResources {
    fn name(&self) -> PluginName {
        PluginName::DynamicResources
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        let add_update = ActionType::ADD.union(ActionType::UPDATE);
        vec![
            ClusterEventWithHint::unhinted(
                EventResource::Node,
                ActionType::ADD
                    .union(ActionType::UPDATE_NODE_LABEL)
                    .union(ActionType::UPDATE_NODE_ALLOCATABLE),
            ),
            ClusterEventWithHint::hinted(EventResource::ResourceClaim, add_update),
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::UPDATE_POD_GENERATED_RESOURCE_CLAIM),
            ClusterEventWithHint::unhinted(EventResource::DeviceClass, add_update),
            ClusterEventWithHint::unhinted(EventResource::ResourceSlice, add_update),
        ]
    }

    fn queueing_hint(&self, cx: &Ctx, pod: &PodInfo, _event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::Pod { new: Some(modified), .. } => {
                if modified.uid != pod.uid {
                    return Ok(QueueingHint::Skip);
                }
                Ok(match pod_resource_claims(cx, &modified.pod) {
                    Ok(_) => QueueingHint::Queue,
                    Err(_) => QueueingHint::Skip,
                })
            }
            EventObject::ResourceClaim { old, new: Some(modified) } => {
                let claims = match pod_resource_claims(cx, &pod.pod) {
                    Ok(c) => c,
                    Err(_) => return Ok(QueueingHint::Skip),
                };
                let uses = claims.iter().any(|c| c.metadata.uid == modified.metadata.uid);
                if old.as_ref().is_some_and(|o| o.status.allocation.is_some()) && modified.status.allocation.is_none() {
                    // A deallocation may have freed devices for anyone.
                    return Ok(QueueingHint::Queue);
                }
                if !uses {
                    return Ok(QueueingHint::Skip);
                }
                match old {
                    None => Ok(QueueingHint::Queue),
                    Some(o) if o.status == modified.status => Ok(QueueingHint::Skip),
                    Some(_) => Ok(QueueingHint::Queue),
                }
            }
            _ => Ok(QueueingHint::Queue),
        }
    }

    fn pre_enqueue(&self, cx: &Ctx, pod: &PodInfo) -> Status {
        match pod_resource_claims(cx, &pod.pod) {
            Ok(_) => Status::success(),
            Err(e) => Status::unresolvable(e),
        }
    }

    fn pre_filter(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        // The state is written before anything can fail, so later extension points find it.
        state.write(PluginName::DynamicResources, StateData::default());
        let claims = match pod_resource_claims(cx, &pod.pod) {
            Ok(c) => c,
            Err(e) => return (None, Status::unresolvable(e)),
        };
        if claims.is_empty() {
            return (None, Status::skip());
        }
        let mut s = StateData::default();
        let mut to_allocate = 0;
        for c in &claims {
            let mut available_on = None;
            match &c.status.allocation {
                Some(a) => {
                    if let Some(ns) = &a.node_selector {
                        available_on = Some(CompiledNodeSelector::compile(ns));
                    }
                }
                None => {
                    to_allocate += 1;
                    for r in &c.spec.devices.requests {
                        let classes: Vec<(String, &str)> = match (&r.exactly, r.first_available.is_empty()) {
                            (Some(ex), true) => vec![(r.name.clone(), ex.device_class_name.as_str())],
                            (None, false) => r
                                .first_available
                                .iter()
                                .map(|s| (format!("{}/{}", r.name, s.name), s.device_class_name.as_str()))
                                .collect(),
                            _ => {
                                let msg = format!(
                                    "resource claim {}/{}, request {}: unknown request type",
                                    namespace_of(&c.metadata),
                                    c.metadata.name,
                                    r.name
                                );
                                return (None, Status::unresolvable(msg));
                            }
                        };
                        for (req, class) in classes {
                            if class.is_empty() {
                                return (None, Status::error(format!("request {req}: unsupported request type")));
                            }
                            if !cx.cluster.dra.classes.contains_key(class) {
                                return (
                                    None,
                                    Status::unresolvable(format!("request {req}: device class {class} does not exist")),
                                );
                            }
                        }
                    }
                }
            }
            s.available_on.push(available_on);
        }
        if to_allocate > 0 {
            s.allocated = Some(Rc::new(cx.cluster.dra.allocated_devices()));
        }
        s.claims = claims;
        state.write(PluginName::DynamicResources, s);
        (None, Status::success())
    }

    fn filter(&self, cx: &Ctx, state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.read::<StateData>(PluginName::DynamicResources) else {
            return Status::error("not found");
        };
        if s.claims.is_empty() {
            return Status::success();
        }
        let mut unavailable = Vec::new();
        for (i, sel) in s.available_on.iter().enumerate() {
            if let Some(sel) = sel {
                if !sel.matches(node.name(), node.labels()) {
                    unavailable.push(i);
                }
            }
        }
        let mut allocations = None;
        if let Some(allocated) = &s.allocated {
            let claims: Vec<&ResourceClaim> = s.to_allocate().map(|(_, c)| c.as_ref()).collect();
            let mut found = s.found.borrow_mut();
            let mut cel = self.cel.borrow_mut();
            let mut a = Allocation {
                cel: &mut cel,
                classes: &cx.cluster.dra.classes,
                slices: &cx.cluster.dra.slices,
                allocated,
                device_values: &mut found.device_values,
            };
            let n = NodeRef {
                name: node.name(),
                labels: node.labels(),
            };
            match a.allocate(&n, &claims) {
                Err(e) => return Status::error(e),
                Ok(None) => return Status::unresolvable("cannot allocate all claims"),
                Ok(Some(r)) => allocations = Some(r),
            }
        }
        let mut found = s.found.borrow_mut();
        if !unavailable.is_empty() {
            found.unavailable.extend(unavailable);
            return Status::unresolvable("resourceclaim not available on the node");
        }
        if let Some(r) = allocations {
            found.node_allocations.insert(node.name().to_string(), r);
        }
        Status::success()
    }

    fn post_filter(
        &self,
        _cx: &Ctx,
        _fw: &Framework,
        state: &CycleState,
        pod: &PodInfo,
        _statuses: &NodeToStatus,
        _rng: &mut Rng,
    ) -> (Option<PostFilterResult>, Status) {
        let Some(s) = state.read::<StateData>(PluginName::DynamicResources) else {
            // PreFilter never ran (an earlier PreFilter plugin rejected the pod outright).
            return (None, Status::error("not found"));
        };
        if s.claims.is_empty() {
            return (None, Status::new(Code::Unschedulable, "no new claims to deallocate"));
        }
        // Kubernetes picks one at random (Go map order); the lowest index here.
        let mut found = s.found.borrow_mut();
        let pick = found.unavailable.iter().copied().find(|&i| {
            let c = &s.claims[i];
            c.status.reserved_for.is_empty() || (c.status.reserved_for.len() == 1 && c.status.reserved_for[0].uid == pod.uid)
        });
        if let Some(i) = pick {
            found.deallocate = Some(claim_key(&s.claims[i]));
            return (None, Status::new(Code::Unschedulable, "deallocation of ResourceClaim completed"));
        }
        (None, Status::new(Code::Unschedulable, "still not schedulable"))
    }

    /// A DynamicResources plugin scores from v1.35 on (kubernetes#134711; an older version's
    /// profile never has it at Score): each claim's prioritized-list requests score by the rank
    /// of the subrequest the node's allocation picked, then the scores are normalized to 0–100.
    /// A pod without claims, or with none to allocate, scores 0 everywhere.
    fn score(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let Some(s) = state.read::<StateData>(PluginName::DynamicResources) else {
            return Err(Status::error("not found"));
        };
        if s.claims.is_empty() {
            return Ok(0);
        }
        let found = s.found.borrow();
        let Some(results) = found.node_allocations.get(node.name()) else {
            return Ok(0);
        };
        subrequest_rank_score(&s.claims, results).map_err(Status::error)
    }

    fn score_nodes(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut Vec<i64>) -> Result<(), Status> {
        // The common pod, without claims, scores 0 everywhere: its state is read once.
        if state.read::<StateData>(PluginName::DynamicResources).is_some_and(|s| s.claims.is_empty()) {
            out.extend(nodes.iter().map(|_| 0));
            return Ok(());
        }
        for n in nodes {
            out.push(self.score(cx, state, pod, n)?);
        }
        Ok(())
    }

    fn has_normalize_score(&self) -> bool {
        true
    }

    fn normalize_score(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        default_normalize_score(MAX_NODE_SCORE, false, scores);
        Status::success()
    }

    fn reserve(&self, _cx: &Ctx, state: &mut CycleState, _pod: &PodInfo, node: &str) -> Status {
        let Some(s) = state.read::<StateData>(PluginName::DynamicResources) else {
            return Status::error("not found");
        };
        let to_allocate: Vec<usize> = s.to_allocate().map(|(i, _)| i).collect();
        if to_allocate.is_empty() {
            return Status::success();
        }
        let mut found = s.found.borrow_mut();
        let Some(results) = found.node_allocations.get(node).cloned() else {
            return Status::error("claim allocation not found for node");
        };
        if results.len() != to_allocate.len() {
            return Status::error(format!(
                "internal error, have {} allocations, {} claims to allocate, want {} claims",
                results.len(),
                to_allocate.len(),
                to_allocate.len()
            ));
        }
        found.chosen = crate::sort::map_of(to_allocate.into_iter().zip(results));
        Status::success()
    }

    fn unreserve(&self, _cx: &Ctx, state: &mut CycleState, _pod: &PodInfo, _node: &str) {
        // Allocations are only written at PreBind, and a failed PreBind leaves the claims as
        // they were: forgetting Reserve's pick is all there is to undo.
        if let Some(s) = state.read::<StateData>(PluginName::DynamicResources) {
            s.found.borrow_mut().chosen.clear();
        }
    }

    fn pre_bind_pre_flight(&self, state: &CycleState, _pod: &PodInfo, _node: &str) -> Status {
        match state.read::<StateData>(PluginName::DynamicResources) {
            None => Status::error("not found"),
            Some(s) if s.claims.is_empty() => Status::skip(),
            Some(_) => Status::success(),
        }
    }

    fn pre_bind(&self, cluster: &mut crate::cluster::Cluster, state: &mut CycleState, pod: &PodInfo, _node: &str) -> Status {
        let Some(s) = state.read::<StateData>(PluginName::DynamicResources) else {
            return Status::error("not found");
        };
        let chosen = s.found.borrow().chosen.clone();
        for (i, claim) in s.claims.iter().enumerate() {
            if reserved_for(claim, &pod.uid) {
                continue;
            }
            let key = claim_key(claim);
            // The claim as it is now (another pod may have reserved it since PreFilter).
            let Some(current) = cluster.dra.claims.get(&key).cloned() else {
                return Status::error(format!("claim {key} got deleted in the meantime"));
            };
            let mut c = (*current).clone();
            if let Some(a) = chosen.get(&i) {
                if c.status.allocation.is_some() {
                    return Status::error(format!("claim {key} got allocated elsewhere in the meantime"));
                }
                let f = c.metadata.finalizers.get_or_insert_with(Vec::new);
                if !f.iter().any(|f| f == CLAIM_FINALIZER) {
                    f.push(CLAIM_FINALIZER.into());
                    // The finalizer is a separate update, as in Kubernetes.
                    cluster.update_claim(c.clone());
                }
                c.status.allocation = Some(a.clone());
            }
            c.status.reserved_for.push(ResourceClaimConsumerReference {
                api_group: None,
                resource: "pods".into(),
                name: pod.name().to_string(),
                uid: pod.uid.clone(),
            });
            cluster.update_claim(c);
        }
        Status::success()
    }
}

/// The most subrequests a prioritized-list request may have (resource.k8s.io/v1
/// FirstAvailableDeviceRequestMaxSize): the first subrequest is worth this much, each later one
/// one less.
const FIRST_AVAILABLE_MAX: i64 = 8;

/// The raw score of a node's allocation: for each claim, each `firstAvailable` request whose
/// subrequest at rank i (from 0) was allocated adds 8 − i. As upstream does, the claims are
/// numbered among all the pod's claims while the allocation results list only the claims that
/// were to be allocated; when there are fewer results than claims this is an error.
fn subrequest_rank_score(claims: &[Arc<ResourceClaim>], results: &[AllocationResult]) -> Result<i64, String> {
    let mut score = 0;
    for (i, claim) in claims.iter().enumerate() {
        let Some(result) = results.get(i) else {
            return Err(format!("number of allocations {} is smaller than number of claims", results.len()));
        };
        let picked: HashSet<&str> = result
            .devices
            .results
            .iter()
            .map(|r| r.request.as_str())
            .filter(|r| r.contains('/'))
            .collect();
        for req in claim.spec.devices.requests.iter().filter(|r| r.exactly.is_none()) {
            for (rank, sub) in req.first_available.iter().enumerate() {
                if picked.contains(format!("{}/{}", req.name, sub.name).as_str()) {
                    score += FIRST_AVAILABLE_MAX - rank as i64;
                }
            }
        }
    }
    Ok(score)
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::DynamicResources,
    points: ExtensionPoints::of(&[
        Ep::PreEnqueue,
        Ep::PreFilter,
        Ep::Filter,
        Ep::PostFilter,
        Ep::Score,
        Ep::Reserve,
        Ep::PreBind,
        Ep::EnqueueExtensions,
    ]),
    short: "DRA",
    args: Some(&args::CODEC),
    new: |args, _| Box::new(DynamicResources::new(&args.get_or_default::<DynamicResourcesArgs>())),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{PluginArgs, Profile};
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    /// kubernetes#134711 (v1.35): a node's raw DynamicResources score is, over the pod's
    /// claims, 8 − rank of each prioritized-list subrequest its allocation picked; exact
    /// requests add nothing; fewer allocation results than claims is an error, as upstream
    /// numbers the claims among all the pod's claims.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score_is_the_rank_of_the_allocated_subrequest_kubernetes_134711() {
        let claim = |requests: serde_json::Value| -> Arc<ResourceClaim> {
            Arc::new(
                serde_json::from_value(serde_json::json!({"metadata": {"name": "c"}, "spec": {"devices": {"requests": requests}}}))
                    .unwrap(),
            )
        };
        let result = |requests: &[&str]| -> AllocationResult {
            let results: Vec<_> = requests
                .iter()
                .map(|r| serde_json::json!({"request": r, "driver": "d", "pool": "p", "device": "x"}))
                .collect();
            serde_json::from_value(serde_json::json!({"devices": {"results": results}})).unwrap()
        };
        let prioritized = serde_json::json!([{"name": "gpu", "firstAvailable": [
            {"name": "big", "deviceClassName": "g"}, {"name": "pair", "deviceClassName": "g"}, {"name": "small", "deviceClassName": "g"}]}]);
        let exact = serde_json::json!([{"name": "nic", "exactly": {"deviceClassName": "n"}}]);
        type Case<'a> = (&'a str, Vec<Arc<ResourceClaim>>, Vec<AllocationResult>, Result<i64, &'a str>);
        let cases: Vec<Case> = vec![
            (
                "first subrequest",
                vec![claim(prioritized.clone())],
                vec![result(&["gpu/big"])],
                Ok(8),
            ),
            (
                "second subrequest",
                vec![claim(prioritized.clone())],
                vec![result(&["gpu/pair", "gpu/pair"])],
                Ok(7),
            ),
            (
                "third subrequest",
                vec![claim(prioritized.clone())],
                vec![result(&["gpu/small"])],
                Ok(6),
            ),
            ("exact request", vec![claim(exact.clone())], vec![result(&["nic"])], Ok(0)),
            (
                "two claims",
                vec![claim(prioritized.clone()), claim(prioritized.clone())],
                vec![result(&["gpu/big"]), result(&["gpu/small"])],
                Ok(14),
            ),
            (
                "fewer results than claims",
                vec![claim(exact.clone()), claim(prioritized.clone())],
                vec![result(&["gpu/big"])],
                Err("number of allocations 1 is smaller than number of claims"),
            ),
        ];
        for (what, claims, results, want) in cases {
            assert_eq!(subrequest_rank_score(&claims, &results), want.map_err(String::from), "{what}");
        }
        // Normalized to 0–100 over the scored nodes; all zero stays zero.
        let pl = DynamicResources::new(&DynamicResourcesArgs::default());
        let env = Env::new(vec![MakeNode::new("n").obj()], vec![]);
        let pod = MakePod::new("p").info();
        let norm = |raw: &[i64]| -> Vec<i64> {
            let mut s: Vec<NodeScore> = raw.iter().enumerate().map(|(node, &score)| NodeScore { node, score }).collect();
            assert!(pl.normalize_score(&env.cx(), &CycleState::new(), &pod, &mut s).is_success());
            s.iter().map(|s| s.score).collect()
        };
        assert_eq!(norm(&[8, 7, 6]), [100, 87, 75]);
        assert_eq!(norm(&[0, 0]), [0, 0]);
    }

    fn with_claims(claims: Vec<PodResourceClaim>, statuses: Option<serde_json::Value>) -> PodInfo {
        let mut p = MakePod::new("p");
        p.pod.spec.resource_claims = claims;
        p.pod.status.resource_claim_statuses = statuses.map(Box::new);
        p.info()
    }
    fn named(name: &str, claim: &str) -> PodResourceClaim {
        PodResourceClaim {
            name: name.into(),
            resource_claim_name: Some(claim.into()),
            resource_claim_template_name: None,
        }
    }
    fn templated(name: &str) -> PodResourceClaim {
        PodResourceClaim {
            name: name.into(),
            resource_claim_name: None,
            resource_claim_template_name: Some("tmpl".into()),
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_enqueue_table() {
        let env = Env::new(vec![MakeNode::new("n").obj()], vec![]);
        let pl = DynamicResources::new(&DynamicResourcesArgs::default());
        let cases = [
            ("no claims", with_claims(vec![], None), ""),
            (
                "named claim missing",
                with_claims(vec![named("gpu", "my-gpu")], None),
                "could not find ResourceClaim \"default/my-gpu\"",
            ),
            (
                "template not generated yet",
                with_claims(vec![templated("gpu")], None),
                "pod \"default/p\": ResourceClaim not created yet",
            ),
            (
                "template generated",
                with_claims(
                    vec![templated("gpu")],
                    Some(serde_json::json!([{"name": "gpu", "resourceClaimName": "p-gpu-x"}])),
                ),
                "could not find ResourceClaim \"default/p-gpu-x\"",
            ),
            (
                "template deliberately without claim",
                with_claims(vec![templated("gpu")], Some(serde_json::json!([{"name": "gpu"}]))),
                "",
            ),
            (
                "no source",
                with_claims(
                    vec![PodResourceClaim {
                        name: "gpu".into(),
                        ..Default::default()
                    }],
                    None,
                ),
                "pod \"default/p\", spec.resourceClaim \"gpu\": none of the supported fields are set",
            ),
        ];
        for (name, pod, msg) in cases {
            let s = pl.pre_enqueue(&env.cx(), &pod);
            if msg.is_empty() {
                assert!(s.is_success(), "{name}");
            } else {
                assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
                assert_eq!(s.message(), msg, "{name}");
            }
            let mut state = CycleState::new();
            let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod);
            assert_eq!(s.is_skip(), msg.is_empty(), "{name}");
            assert!(state.read::<StateData>(PluginName::DynamicResources).is_some(), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn post_filter_messages() {
        let env = Env::new(vec![MakeNode::new("n").obj()], vec![]);
        let pl = DynamicResources::new(&DynamicResourcesArgs::default());
        let profile = Profile::new(
            "default-scheduler",
            None,
            PluginArgs::default(),
            None,
            &crate::version::Features::new(crate::version::KubeVersion::V1_34),
        )
        .unwrap();
        let fw = Framework::new(profile, &crate::plugins::IN_TREE);
        let pod = MakePod::new("p").info();
        let mut rng = Rng::new(1);
        let statuses = NodeToStatus::default();

        let state = CycleState::new();
        let (_, s) = pl.post_filter(&env.cx(), &fw, &state, &pod, &statuses, &mut rng);
        assert_eq!((s.code, s.message()), (Code::Error, "not found".to_string()));

        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &pod).1.is_skip());
        let (_, s) = pl.post_filter(&env.cx(), &fw, &state, &pod, &statuses, &mut rng);
        assert_eq!(
            (s.code, s.message()),
            (Code::Unschedulable, "no new claims to deallocate".to_string())
        );
    }

    /// Filter, PostFilter and PreBind against claims in the cluster: node n-1 has one GPU.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_post_filter_and_pre_bind() {
        let mut env = Env::new(vec![MakeNode::new("n-1").obj(), MakeNode::new("n-2").obj()], vec![]);
        let dra = &mut env.cluster.dra;
        dra.classes.insert(
            "gpu".into(),
            Arc::new(
                crate::load::yaml::from_str("metadata: {name: gpu}\nspec: {selectors: [{cel: {expression: 'device.driver == \"g\"'}}]}")
                    .unwrap(),
            ),
        );
        dra.slices.push(Arc::new(
            crate::load::yaml::from_str(
                "metadata: {name: s}\nspec: {driver: g, nodeName: n-1, pool: {name: n-1, resourceSliceCount: 1}, devices: [{name: gpu-0}]}",
            )
            .unwrap(),
        ));
        let claim = |name: &str, allocated_on: Option<&str>, reserved: &[&str]| -> Arc<ResourceClaim> {
            let mut c: ResourceClaim = crate::load::yaml::from_str(&format!(
                "metadata: {{name: {name}, namespace: default, uid: uid-{name}}}\nspec: {{devices: {{requests: [{{name: r, exactly: {{deviceClassName: gpu, count: 1}}}}]}}}}"
            ))
            .unwrap();
            if let Some(n) = allocated_on {
                c.status.allocation = Some(crate::load::yaml::from_str(&format!(
                    "devices: {{results: [{{request: r, driver: g, pool: {n}, device: gpu-0}}]}}\nnodeSelector: {{nodeSelectorTerms: [{{matchFields: [{{key: metadata.name, operator: In, values: [{n}]}}]}}]}}"
                ))
                .unwrap());
            }
            c.status.reserved_for = reserved
                .iter()
                .map(|p| ResourceClaimConsumerReference {
                    api_group: None,
                    resource: "pods".into(),
                    name: p.to_string(),
                    uid: format!("uid-pod-default-{p}"),
                })
                .collect();
            Arc::new(c)
        };
        dra.claims.insert("default/fresh".into(), claim("fresh", None, &[]));
        dra.claims.insert("default/stale".into(), claim("stale", Some("n-2"), &[]));
        dra.claims.insert("default/held".into(), claim("held", Some("n-2"), &["other"]));
        let pl = DynamicResources::new(&DynamicResourcesArgs::default());
        let pod_with = |claim: &str| {
            let mut p = MakePod::new("p");
            p.pod.metadata.uid = Some("uid-pod-default-p".into());
            p.pod.spec.resource_claims = vec![named("c", claim)];
            p.info()
        };
        let profile = Profile::new(
            "default-scheduler",
            None,
            PluginArgs::default(),
            None,
            &crate::version::Features::new(crate::version::KubeVersion::V1_34),
        )
        .unwrap();
        let fw = Framework::new(profile, &crate::plugins::IN_TREE);
        let mut rng = Rng::new(1);
        // (claim, n-1 verdict, n-2 verdict, PostFilter message)
        let cases = [
            ("fresh", "", "cannot allocate all claims", "still not schedulable"),
            (
                "stale",
                "resourceclaim not available on the node",
                "",
                "deallocation of ResourceClaim completed",
            ),
            ("held", "resourceclaim not available on the node", "", "still not schedulable"),
        ];
        for (claim, n1, n2, post) in cases {
            let pod = pod_with(claim);
            let mut state = CycleState::new();
            assert!(pl.pre_filter(&env.cx(), &mut state, &pod).1.is_success(), "{claim}");
            for (node, want) in [("n-1", n1), ("n-2", n2)] {
                let s = pl.filter(&env.cx(), &state, &pod, env.node(node));
                if want.is_empty() {
                    assert!(s.is_success(), "{claim} on {node}: {}", s.message());
                } else {
                    assert_eq!(
                        (s.code, s.message()),
                        (Code::UnschedulableAndUnresolvable, want.to_string()),
                        "{claim} on {node}"
                    );
                }
            }
            let (_, s) = pl.post_filter(&env.cx(), &fw, &state, &pod, &NodeToStatus::default(), &mut rng);
            assert_eq!(s.message(), post, "{claim}");
            assert_eq!(take_deallocation(&state).is_some(), claim == "stale", "{claim}");
        }
        // Reserve then PreBind write the allocation, the finalizer and the reservation.
        let pod = pod_with("fresh");
        let mut state = CycleState::new();
        pl.pre_filter(&env.cx(), &mut state, &pod);
        assert!(pl.filter(&env.cx(), &state, &pod, env.node("n-1")).is_success());
        assert!(pl.reserve(&env.cx(), &mut state, &pod, "n-1").is_success());
        assert!(pl.pre_bind(&mut env.cluster, &mut state, &pod, "n-1").is_success());
        let c = &env.cluster.dra.claims["default/fresh"];
        assert_eq!(c.status.allocation.as_ref().unwrap().devices.results[0].device, "gpu-0");
        assert_eq!(c.status.reserved_for[0].uid, "uid-pod-default-p");
        assert_eq!(c.metadata.finalizers.as_deref(), Some(&[CLAIM_FINALIZER.to_string()][..]));
        // The finalizer update, then the status update.
        assert_eq!(env.cluster.pending_events.len(), 2);
    }
}
