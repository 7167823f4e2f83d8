//! VolumeBinding: a pod's bound claims must have volumes whose node affinity admits the node;
//! its unbound WaitForFirstConsumer claims must find an available matching volume there or be
//! dynamically provisionable there. The chosen bindings are assumed at Reserve and written at
//! PreBind, where the simulated PV controller and provisioner complete them at once.

pub mod args;

use crate::api::{self, ObjectReference, PersistentVolume, PersistentVolumeClaim, Pod};
use crate::cluster::Cluster;
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, PreFilterResult, Status};
use crate::labels::Selector;
use crate::plugins::volume_util::{
    claim_of_volume, is_delay_binding_mode, is_pvc_fully_bound, match_topology_selector_terms, namespace_of, not_found,
    plugin_migrated_on_node, pv_class, pvc_class, translate_pv, volume_is_for_pod, InTreePlugin, PvAffinity, ANN_BIND_COMPLETED,
    ANN_BOUND_BY_CONTROLLER, ANN_PROVISIONED_BY, ANN_SELECTED_NODE, NOT_SUPPORTED_PROVISIONER,
};
use crate::quantity::Quantity;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::VolumeBindingArgs;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const ERR_REASON_BIND_CONFLICT: &str = "node(s) didn't find available persistent volumes to bind";
pub const ERR_REASON_NODE_CONFLICT: &str = "node(s) didn't match PersistentVolume's node affinity";
pub const ERR_REASON_NOT_ENOUGH_SPACE: &str = "node(s) did not have enough free storage";
pub const ERR_REASON_PV_NOT_EXIST: &str = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
pub const ERR_UNBOUND_IMMEDIATE: &str = "pod has unbound immediate PersistentVolumeClaims";

pub struct VolumeBinding {
    #[allow(dead_code)]
    args: VolumeBindingArgs,
}

impl VolumeBinding {
    pub fn new(args: &VolumeBindingArgs) -> VolumeBinding {
        VolumeBinding { args: args.clone() }
    }
}

fn storage_of(rl: &api::ResourceList) -> Quantity {
    rl.get("storage").copied().unwrap_or(Quantity::ZERO)
}

fn claim_key(pvc: &PersistentVolumeClaim) -> String {
    format!("{}/{}", namespace_of(&pvc.metadata), pvc.metadata.name)
}

/// A bound claim and what its volume's node affinity requires.
#[derive(Debug)]
struct BoundClaim {
    /// The claim's name.
    claim: String,
    /// None: the claim names a volume that does not exist.
    pv: Option<Arc<PersistentVolume>>,
    affinity: PvAffinity,
    /// For a migratable in-tree volume: its plugin and the node affinity after translation to
    /// CSI (used on nodes whose CSINode lists the plugin as migrated).
    migrated: Option<(InTreePlugin, Result<PvAffinity, String>)>,
}

impl BoundClaim {
    /// The node affinity checked on a node with this CSINode: the translated one when the
    /// node treats the volume's in-tree plugin as migrated.
    fn node_affinity(&self, csi_node: Option<&api::CsiNode>) -> Result<&PvAffinity, String> {
        match &self.migrated {
            Some((plugin, translated)) if plugin_migrated_on_node(*plugin, csi_node) => translated.as_ref().map_err(Clone::clone),
            _ => Ok(&self.affinity),
        }
    }
}

/// An unbound claim that waits for its first consumer.
#[derive(Debug)]
struct DelayClaim {
    pvc: Arc<PersistentVolumeClaim>,
    request: Quantity,
    /// The claim's volume selector (None: no selector).
    selector: Result<Option<Selector>, String>,
}

/// A volume of the storage class of some delayed claim.
#[derive(Debug)]
struct CandidatePv {
    pv: Arc<PersistentVolume>,
    capacity: Quantity,
    affinity: PvAffinity,
}

/// The pod's claims as PreFilter sorted them (upstream PodVolumeClaims).
#[derive(Debug, Default)]
struct PodVolumeClaims {
    bound: Vec<BoundClaim>,
    /// In the pod's volume order.
    delayed: Vec<DelayClaim>,
    /// Indices into `delayed`, by increasing requested size (stable).
    delayed_by_size: Vec<usize>,
    /// Storage class -> its volumes, by name.
    class_pvs: BTreeMap<String, Vec<CandidatePv>>,
}

/// The volumes to bind and the claims to provision on one node.
#[derive(Clone, Debug, Default)]
struct PodVolumes {
    /// (volume, claim): the volume already carries its new claimRef once assumed.
    static_bindings: Vec<(Arc<PersistentVolume>, Arc<PersistentVolumeClaim>)>,
    /// Claims to provision (carrying the selected-node annotation once assumed).
    dynamic_provisions: Vec<Arc<PersistentVolumeClaim>>,
}

#[derive(Clone, Debug, Default)]
struct StateData {
    /// None when the pod uses no claims (PreFilter skipped).
    claims: Option<Arc<PodVolumeClaims>>,
    all_bound: bool,
    /// What Reserve assumed for the chosen node.
    assumed: Option<(String, PodVolumes)>,
}

/// Upstream podHasPVCs: whether the pod uses claims, and the first reason it cannot proceed.
fn pod_has_pvcs(cx: &Ctx, pod: &Pod) -> Result<bool, String> {
    let ns = namespace_of(&pod.metadata);
    let mut has = false;
    for v in &pod.spec.volumes {
        let Some((name, ephemeral)) = claim_of_volume(pod, v) else {
            continue;
        };
        has = true;
        let Some(pvc) = cx.cluster.pvc(ns, &name) else {
            if ephemeral {
                return Err(format!(
                    "waiting for ephemeral volume controller to create the persistentvolumeclaim {name:?}"
                ));
            }
            return Err(not_found("persistentvolumeclaim", &name));
        };
        if pvc.status.phase.as_deref() == Some("Lost") {
            return Err(format!(
                "persistentvolumeclaim {:?} bound to non-existent persistentvolume {:?}",
                pvc.metadata.name,
                pvc.spec.volume_name.as_deref().unwrap_or("")
            ));
        }
        if pvc.metadata.deletion_timestamp.is_some() {
            return Err(format!("persistentvolumeclaim {:?} is being deleted", pvc.metadata.name));
        }
        if ephemeral {
            volume_is_for_pod(pod, pvc)?;
        }
    }
    Ok(has)
}

/// Upstream GetPodVolumeClaims: bound claims, unbound delayed claims (with the volumes of
/// their classes), and whether any unbound claim binds immediately.
fn pod_volume_claims(cx: &Ctx, pod: &Pod) -> Result<(PodVolumeClaims, bool), String> {
    let ns = namespace_of(&pod.metadata);
    let mut out = PodVolumeClaims::default();
    let mut unbound_immediate = false;
    for v in &pod.spec.volumes {
        let Some((name, ephemeral)) = claim_of_volume(pod, v) else {
            continue;
        };
        let Some(pvc) = cx.cluster.pvc(ns, &name) else {
            return Err(format!(
                "error getting PVC \"{ns}/{name}\": could not find v1.PersistentVolumeClaim \"{ns}/{name}\""
            ));
        };
        if ephemeral {
            volume_is_for_pod(pod, pvc)?;
        }
        if is_pvc_fully_bound(pvc) {
            let pv_name = pvc.spec.volume_name.as_deref().unwrap_or("");
            let pv = cx.cluster.pvs.get(pv_name).cloned();
            let affinity = pv.as_deref().map(PvAffinity::from_pv).unwrap_or_default();
            let migrated = pv.as_deref().and_then(|pv| {
                let plugin = InTreePlugin::of_pv(pv)?;
                if !plugin.migration_on() {
                    return None;
                }
                let translated = translate_pv(pv)
                    .map(|t| PvAffinity::of(t.node_affinity.as_ref()))
                    .map_err(|e| format!("could not translate pv: {e}"));
                Some((plugin, translated))
            });
            out.bound.push(BoundClaim {
                claim: pvc.metadata.name.clone(),
                pv,
                affinity,
                migrated,
            });
        } else if is_delay_binding_mode(cx.cluster, pvc) && pvc.spec.volume_name.as_deref().unwrap_or("").is_empty() {
            let selector = match &pvc.spec.selector {
                None => Ok(None),
                Some(s) => Selector::from_label_selector(Some(s))
                    .map(Some)
                    .map_err(|e| format!("error creating internal label selector for claim: {}: {e}", claim_key(pvc))),
            };
            out.delayed.push(DelayClaim {
                pvc: pvc.clone(),
                request: storage_of(&pvc.spec.resources.requests),
                selector,
            });
        } else {
            // Prebound claims count as immediate ones: the PV controller should bind them.
            unbound_immediate = true;
        }
    }
    let mut order: Vec<usize> = (0..out.delayed.len()).collect();
    crate::sort::sort_by(&mut order, |&a, &b| out.delayed[a].request.cmp(&out.delayed[b].request));
    out.delayed_by_size = order;
    for d in &out.delayed {
        let class = pvc_class(&d.pvc);
        if out.class_pvs.contains_key(class) {
            continue;
        }
        let pvs = cx
            .cluster
            .pvs
            .values()
            .filter(|pv| pv_class(pv) == class)
            .map(|pv| CandidatePv {
                pv: pv.clone(),
                capacity: storage_of(&pv.spec.capacity),
                affinity: PvAffinity::from_pv(pv),
            })
            .collect();
        out.class_pvs.insert(class.to_string(), pvs);
    }
    Ok((out, unbound_immediate))
}

/// Whether the volume is pre-bound or bound to the claim (name, namespace and, when set, UID).
fn is_volume_bound_to_claim(pv: &PersistentVolume, pvc: &PersistentVolumeClaim) -> bool {
    let Some(r) = &pv.spec.claim_ref else { return false };
    if r.name.as_deref().unwrap_or("") != pvc.metadata.name || r.namespace.as_deref().unwrap_or("") != namespace_of(&pvc.metadata) {
        return false;
    }
    let uid = r.uid.as_deref().unwrap_or("");
    uid.is_empty() || Some(uid) == pvc.metadata.uid.as_deref()
}

fn access_modes_ok(pvc: &PersistentVolumeClaim, pv: &PersistentVolume) -> bool {
    pvc.spec.access_modes.iter().all(|m| pv.spec.access_modes.contains(m))
}

fn volume_mode(m: &Option<String>) -> &str {
    m.as_deref().unwrap_or("Filesystem")
}

/// Upstream volume.FindMatchingVolume on the scheduler path: the volume pre-bound to the claim
/// if any (None when it does not fit the node), else the smallest available matching one.
fn find_matching_volume<'a>(
    claim: &DelayClaim,
    pvs: &'a [CandidatePv],
    labels: &api::Labels,
    excluded: &[&str],
) -> Result<Option<&'a CandidatePv>, String> {
    let pvc = &claim.pvc;
    let selector = claim.selector.as_ref().map_err(Clone::clone)?;
    let requested_class = pvc_class(pvc);
    let claim_vac = pvc.spec.volume_attributes_class_name.as_deref().unwrap_or("");
    let mut smallest: Option<&CandidatePv> = None;
    for c in pvs {
        let pv = &c.pv;
        if excluded.contains(&pv.metadata.name.as_str()) {
            continue;
        }
        if pv.spec.claim_ref.is_some() && !is_volume_bound_to_claim(pv, pvc) {
            continue;
        }
        if c.capacity < claim.request {
            continue;
        }
        if volume_mode(&pvc.spec.volume_mode) != volume_mode(&pv.spec.volume_mode) {
            continue;
        }
        if claim_vac != pv.spec.volume_attributes_class_name.as_deref().unwrap_or("") {
            continue;
        }
        if pv.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let affinity_ok = c.affinity.matches(labels);
        if is_volume_bound_to_claim(pv, pvc) {
            return Ok(affinity_ok.then_some(c));
        }
        if pv.status.phase.as_deref() != Some("Available") {
            continue;
        }
        if selector.as_ref().is_some_and(|s| !s.matches(&pv.metadata.labels)) {
            continue;
        }
        if pv_class(pv) != requested_class || !affinity_ok || !access_modes_ok(pvc, pv) {
            continue;
        }
        if smallest.is_none_or(|s| s.capacity > c.capacity) {
            smallest = Some(c);
        }
    }
    Ok(smallest)
}

/// Upstream FindPodVolumes for one node: the bindings and provisionings that would work there,
/// or the reasons it cannot.
fn find_pod_volumes(cx: &Ctx, claims: &PodVolumeClaims, node: &api::Node) -> Result<(PodVolumes, Vec<&'static str>), String> {
    let mut pv_out = PodVolumes::default();
    let mut unbound_ok = true;
    let mut bound_ok = true;
    let mut enough_storage = true;
    let mut pvs_found = true;
    let labels = &node.metadata.labels;
    let node_name = node.metadata.name.as_str();

    let reasons = |bound_ok: bool, unbound_ok: bool, enough: bool, found: bool| {
        let mut r = Vec::new();
        if !bound_ok {
            r.push(ERR_REASON_NODE_CONFLICT);
        }
        if !unbound_ok {
            r.push(ERR_REASON_BIND_CONFLICT);
        }
        if !enough {
            r.push(ERR_REASON_NOT_ENOUGH_SPACE);
        }
        if !found {
            r.push(ERR_REASON_PV_NOT_EXIST);
        }
        r
    };

    if !claims.bound.is_empty() {
        let csi_node = cx.cluster.csi_nodes.get(node_name);
        for b in &claims.bound {
            if b.pv.is_none() {
                pvs_found = false;
                break;
            }
            if !b.node_affinity(csi_node)?.matches(labels) {
                bound_ok = false;
                break;
            }
        }
    }

    if !claims.delayed.is_empty() {
        let mut to_provision: Vec<&DelayClaim> = Vec::new();
        let mut selected_elsewhere = false;
        for d in &claims.delayed {
            if let Some(sel) = d.pvc.metadata.annotations.get(ANN_SELECTED_NODE) {
                if sel != node_name {
                    selected_elsewhere = true;
                    break;
                }
                to_provision.push(d);
            }
        }
        if selected_elsewhere {
            return Ok((pv_out, reasons(bound_ok, false, enough_storage, pvs_found)));
        }
        let to_match: Vec<&DelayClaim> = claims
            .delayed_by_size
            .iter()
            .map(|&i| &claims.delayed[i])
            .filter(|d| !d.pvc.metadata.annotations.contains_key(ANN_SELECTED_NODE))
            .collect();
        if !to_match.is_empty() {
            let mut chosen: Vec<&str> = Vec::new();
            unbound_ok = true;
            for d in to_match {
                let pvs = claims.class_pvs.get(pvc_class(&d.pvc)).map(Vec::as_slice).unwrap_or(&[]);
                match find_matching_volume(d, pvs, labels, &chosen)? {
                    Some(c) => {
                        chosen.push(&c.pv.metadata.name);
                        pv_out.static_bindings.push((c.pv.clone(), d.pvc.clone()));
                    }
                    None => {
                        to_provision.push(d);
                        unbound_ok = false;
                    }
                }
            }
        }
        if !to_provision.is_empty() {
            let (ok, enough, provisions) = check_volume_provisions(cx.cluster, &to_provision, labels)?;
            unbound_ok = ok;
            enough_storage = enough;
            pv_out.dynamic_provisions = provisions;
        }
    }
    Ok((pv_out, reasons(bound_ok, unbound_ok, enough_storage, pvs_found)))
}

/// A claim of the pod as Filter sees it on one node, for the playground's explanations.
#[derive(Clone, Debug)]
enum ClaimView {
    /// A bound claim: its volume (None: missing) and whether the volume's node affinity
    /// allows the node.
    Bound {
        claim: String,
        volume: Option<Arc<PersistentVolume>>,
        node_ok: bool,
    },
    /// A claim waiting for its first consumer: the volume it would bind here, or whether it
    /// would be provisioned here.
    Delayed {
        claim: Arc<PersistentVolumeClaim>,
        binds_to: Option<String>,
        provisioned: bool,
    },
}

/// The pod's claims on one node and the reasons Filter gives (none: it passes).
#[derive(Clone, Debug)]
struct BindingView {
    pub claims: Vec<ClaimView>,
    pub reasons: Vec<&'static str>,
}

/// Explains Filter on `node` from PreFilter's state (None when PreFilter did not look at
/// claims; Err when Filter errs).
fn explain_filter(cx: &Ctx, state: &CycleState, node: &NodeInfo) -> Option<Result<BindingView, String>> {
    let claims = state.read::<StateData>(PluginName::VolumeBinding)?.claims.as_ref()?;
    let explain = || -> Result<BindingView, String> {
        let (volumes, reasons) = find_pod_volumes(cx, claims, &node.node)?;
        let csi_node = cx.cluster.csi_nodes.get(node.name());
        let mut out = Vec::new();
        for b in &claims.bound {
            let node_ok = match &b.pv {
                Some(_) => b.node_affinity(csi_node)?.matches(node.labels()),
                None => false,
            };
            out.push(ClaimView::Bound {
                claim: b.claim.clone(),
                volume: b.pv.clone(),
                node_ok,
            });
        }
        for d in &claims.delayed {
            let name = &d.pvc.metadata.name;
            out.push(ClaimView::Delayed {
                claim: d.pvc.clone(),
                binds_to: volumes
                    .static_bindings
                    .iter()
                    .find(|(_, c)| &c.metadata.name == name)
                    .map(|(pv, _)| pv.metadata.name.clone()),
                provisioned: volumes.dynamic_provisions.iter().any(|c| &c.metadata.name == name),
            });
        }
        Ok(BindingView { claims: out, reasons })
    };
    Some(explain())
}

/// Upstream checkVolumeProvisions: (provisioning possible, enough storage, the claims).
fn check_volume_provisions(
    cluster: &Cluster,
    claims: &[&DelayClaim],
    labels: &api::Labels,
) -> Result<(bool, bool, Vec<Arc<PersistentVolumeClaim>>), String> {
    let mut out = Vec::with_capacity(claims.len());
    for d in claims {
        let class_name = pvc_class(&d.pvc);
        if class_name.is_empty() {
            return Err(format!("no class for claim {:?}", claim_key(&d.pvc)));
        }
        let Some(class) = cluster.storage_classes.get(class_name) else {
            return Err(format!("failed to find storage class {class_name:?}"));
        };
        let provisioner = class.provisioner.as_str();
        if provisioner.is_empty() || provisioner == NOT_SUPPORTED_PROVISIONER {
            return Ok((false, true, Vec::new()));
        }
        if !match_topology_selector_terms(&class.allowed_topologies, labels) {
            return Ok((false, true, Vec::new()));
        }
        // Storage capacity tracking: only CSI drivers that opt in are checked, and the
        // simulated cluster has no CSIStorageCapacity objects, so none of them has room.
        let has_request = d.pvc.spec.resources.requests.contains_key("storage");
        let tracks_capacity = cluster
            .csi_drivers
            .get(provisioner)
            .is_some_and(|drv| drv.spec.storage_capacity == Some(true));
        if has_request && tracks_capacity {
            return Ok((true, false, Vec::new()));
        }
        out.push(d.pvc.clone());
    }
    Ok((true, true, out))
}

/// Whether every claim the pod uses is fully bound (upstream arePodVolumesBound).
fn pod_volumes_bound(cluster: &Cluster, pod: &Pod) -> bool {
    let ns = namespace_of(&pod.metadata);
    pod.spec.volumes.iter().all(|v| match claim_of_volume(pod, v) {
        None => true,
        Some((name, ephemeral)) => cluster
            .pvc(ns, &name)
            .is_some_and(|pvc| is_pvc_fully_bound(pvc) && (!ephemeral || volume_is_for_pod(pod, pvc).is_ok())),
    })
}

/// A reference to a claim, as the volume's claimRef records it.
fn claim_ref(pvc: &PersistentVolumeClaim) -> ObjectReference {
    ObjectReference {
        kind: Some("PersistentVolumeClaim".into()),
        namespace: Some(namespace_of(&pvc.metadata).to_string()),
        name: Some(pvc.metadata.name.clone()),
        uid: pvc.metadata.uid.clone(),
        api_version: Some("v1".into()),
        ..Default::default()
    }
}

/// Upstream GetBindVolumeToClaim: the volume with its claimRef set to the claim.
fn bind_volume_to_claim(pv: &PersistentVolume, pvc: &PersistentVolumeClaim) -> PersistentVolume {
    let mut out = pv.clone();
    let set_by_controller = !is_volume_bound_to_claim(pv, pvc);
    let r = pv.spec.claim_ref.as_ref();
    let same = r.is_some_and(|r| {
        r.name.as_deref() == Some(pvc.metadata.name.as_str())
            && r.namespace.as_deref() == Some(namespace_of(&pvc.metadata))
            && r.uid.as_deref().unwrap_or("") == pvc.metadata.uid.as_deref().unwrap_or("")
    });
    if !same {
        out.spec.claim_ref = Some(claim_ref(pvc));
    }
    if set_by_controller {
        out.metadata
            .annotations
            .entry(ANN_BOUND_BY_CONTROLLER.into())
            .or_insert_with(|| "yes".into());
    }
    out
}

/// The claim bound to the volume, as the PV controller leaves it.
fn bound_claim(pvc: &PersistentVolumeClaim, pv: &PersistentVolume) -> PersistentVolumeClaim {
    let mut c = pvc.clone();
    c.spec.volume_name = Some(pv.metadata.name.clone());
    c.metadata.annotations.insert(ANN_BOUND_BY_CONTROLLER.into(), "yes".into());
    c.metadata.annotations.insert(ANN_BIND_COMPLETED.into(), "yes".into());
    c.status.phase = Some("Bound".into());
    c.status.access_modes = pv.spec.access_modes.clone();
    c.status.capacity = pv.spec.capacity.clone();
    c
}

/// The volume a provisioner creates for a claim: no node affinity, a CSI source of the
/// class's provisioner (in-tree provisioner names map to their CSI drivers).
fn provisioned_volume(cluster: &Cluster, pvc: &PersistentVolumeClaim) -> PersistentVolume {
    let class_name = pvc_class(pvc);
    let class = cluster.storage_classes.get(class_name);
    let provisioner = class.map(|c| c.provisioner.clone()).unwrap_or_default();
    let uid = pvc
        .metadata
        .uid
        .clone()
        .unwrap_or_else(|| format!("uid-persistentvolumeclaim-{}", claim_key(pvc).replace('/', "-")));
    let name = format!("pvc-{uid}");
    let mut pv = PersistentVolume {
        api_version: "v1".into(),
        kind: "PersistentVolume".into(),
        ..Default::default()
    };
    pv.metadata.name = name.clone();
    pv.metadata.uid = Some(format!("uid-persistentvolume--{name}"));
    pv.metadata.annotations.insert(ANN_PROVISIONED_BY.into(), provisioner.clone());
    if let Some(q) = pvc.spec.resources.requests.get("storage") {
        pv.spec.capacity.insert("storage".into(), *q);
    }
    pv.spec.access_modes = pvc.spec.access_modes.clone();
    pv.spec.claim_ref = Some(claim_ref(pvc));
    pv.spec.persistent_volume_reclaim_policy = Some(class.and_then(|c| c.reclaim_policy.clone()).unwrap_or_else(|| "Delete".into()));
    pv.spec.storage_class_name = Some(class_name.to_string());
    pv.spec.volume_mode = Some(volume_mode(&pvc.spec.volume_mode).to_string());
    pv.spec.mount_options = class.and_then(|c| c.mount_options.clone());
    let driver = InTreePlugin::by_name(&provisioner)
        .map(|p| p.csi_driver().to_string())
        .unwrap_or(provisioner);
    pv.spec.csi = Some(api::CsiPersistentVolumeSource {
        driver,
        volume_handle: name,
        ..Default::default()
    });
    pv.status.phase = Some("Bound".into());
    pv
}

fn pvc_event_names(pod: &Pod) -> impl Iterator<Item = String> + '_ {
    pod.spec.volumes.iter().filter_map(|v| claim_of_volume(pod, v)).map(|(n, _)| n)
}

impl Plugin for VolumeBinding {
    fn name(&self) -> PluginName {
        PluginName::VolumeBinding
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        let add_update = ActionType::ADD.union(ActionType::UPDATE);
        vec![
            ClusterEventWithHint::hinted(EventResource::StorageClass, add_update),
            ClusterEventWithHint::hinted(EventResource::PersistentVolumeClaim, add_update),
            ClusterEventWithHint::unhinted(EventResource::PersistentVolume, add_update),
            ClusterEventWithHint::unhinted(EventResource::Node, ActionType::ADD.union(ActionType::UPDATE_NODE_LABEL)),
            ClusterEventWithHint::hinted(EventResource::CSINode, add_update),
            ClusterEventWithHint::hinted(EventResource::CSIDriver, ActionType::UPDATE),
            ClusterEventWithHint::hinted(EventResource::CSIStorageCapacity, add_update),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, _event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::PersistentVolumeClaim { new: Some(pvc), .. } => {
                if namespace_of(&pvc.metadata) != pod.namespace() {
                    return Ok(QueueingHint::Skip);
                }
                let used = pvc_event_names(&pod.pod).any(|n| n == pvc.metadata.name);
                Ok(if used { QueueingHint::Queue } else { QueueingHint::Skip })
            }
            // StorageClass, CSINode, CSIDriver and CSIStorageCapacity objects are not carried
            // by events here; treat the change as possibly helpful.
            _ => Ok(QueueingHint::Queue),
        }
    }

    fn pre_filter(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        match pod_has_pvcs(cx, &pod.pod) {
            Err(e) => return (None, Status::unresolvable(e)),
            Ok(false) => {
                state.write(PluginName::VolumeBinding, StateData::default());
                return (None, Status::skip());
            }
            Ok(true) => {}
        }
        let (claims, unbound_immediate) = match pod_volume_claims(cx, &pod.pod) {
            Ok(c) => c,
            Err(e) => return (None, Status::error(e)),
        };
        if unbound_immediate {
            return (None, Status::unresolvable(ERR_UNBOUND_IMMEDIATE));
        }
        state.write(
            PluginName::VolumeBinding,
            StateData {
                claims: Some(Arc::new(claims)),
                ..Default::default()
            },
        );
        (None, Status::success())
    }

    fn filter(&self, cx: &Ctx, state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.read::<StateData>(PluginName::VolumeBinding) else {
            return Status::error("not found");
        };
        let Some(claims) = &s.claims else { return Status::success() };
        match find_pod_volumes(cx, claims, &node.node) {
            Err(e) => Status::error(e),
            Ok((_, reasons)) if !reasons.is_empty() => Status::with_reasons(
                crate::framework::Code::UnschedulableAndUnresolvable,
                reasons.into_iter().map(Into::into).collect(),
            ),
            Ok(_) => Status::success(),
        }
    }

    fn pre_score(&self, _cx: &Ctx, _state: &mut CycleState, _pod: &PodInfo, _nodes: &[&NodeInfo]) -> Status {
        // Scoring needs the StorageCapacityScoring feature, which is off in v1.34.
        Status::skip()
    }

    fn score(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, _node: &NodeInfo) -> Result<i64, Status> {
        Ok(0)
    }

    fn reserve(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        let Some(s) = state.read::<StateData>(PluginName::VolumeBinding) else {
            return Status::error("not found");
        };
        let Some(claims) = s.claims.clone() else {
            if let Some(s) = state.read_mut::<StateData>(PluginName::VolumeBinding) {
                s.all_bound = true;
            }
            return Status::success();
        };
        // Filter passed on this node; recompute what it found there.
        let Some(ni) = cx.snapshot.get(node) else {
            return Status::error(format!("no pod volume found for node {node:?}"));
        };
        let volumes = match find_pod_volumes(cx, &claims, &ni.node) {
            Ok((v, _)) => v,
            Err(e) => return Status::error(e),
        };
        let all_bound = pod_volumes_bound(cx.cluster, &pod.pod);
        let assumed = if all_bound {
            None
        } else {
            let static_bindings = volumes
                .static_bindings
                .iter()
                .map(|(pv, pvc)| (Arc::new(bind_volume_to_claim(pv, pvc)), pvc.clone()))
                .collect();
            let dynamic_provisions = volumes
                .dynamic_provisions
                .iter()
                .map(|pvc| {
                    let mut c = (**pvc).clone();
                    c.metadata.annotations.insert(ANN_SELECTED_NODE.into(), node.to_string());
                    Arc::new(c)
                })
                .collect();
            Some((
                node.to_string(),
                PodVolumes {
                    static_bindings,
                    dynamic_provisions,
                },
            ))
        };
        if let Some(s) = state.read_mut::<StateData>(PluginName::VolumeBinding) {
            s.all_bound = all_bound;
            s.assumed = assumed;
        }
        Status::success()
    }

    fn unreserve(&self, _cx: &Ctx, state: &mut CycleState, _pod: &PodInfo, node: &str) {
        if let Some(s) = state.read_mut::<StateData>(PluginName::VolumeBinding) {
            if s.assumed.as_ref().is_some_and(|(n, _)| n == node) {
                s.assumed = None;
            }
        }
    }

    fn pre_bind_pre_flight(&self, state: &CycleState, _pod: &PodInfo, node: &str) -> Status {
        let Some(s) = state.read::<StateData>(PluginName::VolumeBinding) else {
            return Status::error("not found");
        };
        if s.all_bound {
            return Status::skip();
        }
        if s.assumed.as_ref().is_none_or(|(n, _)| n != node) {
            return Status::error(format!("no pod volume found for node {node:?}"));
        }
        Status::success()
    }

    fn pre_bind(&self, cluster: &mut Cluster, state: &mut CycleState, _pod: &PodInfo, node: &str) -> Status {
        let Some(s) = state.read::<StateData>(PluginName::VolumeBinding) else {
            return Status::error("not found");
        };
        if s.all_bound {
            return Status::success();
        }
        let Some((_, volumes)) = s.assumed.as_ref().filter(|(n, _)| n == node) else {
            return Status::error(format!("no pod volume found for node {node:?}"));
        };
        let volumes = volumes.clone();
        for (pv, pvc) in &volumes.static_bindings {
            // The binding the scheduler writes, completed by the PV controller.
            let mut pv = (**pv).clone();
            pv.status.phase = Some("Bound".into());
            let current = cluster.pvc(namespace_of(&pvc.metadata), &pvc.metadata.name).cloned();
            let claim = bound_claim(current.as_deref().unwrap_or(pvc), &pv);
            cluster.update_pv(pv);
            cluster.update_pvc(claim);
        }
        for pvc in &volumes.dynamic_provisions {
            // The selected node triggers provisioning; the new volume is bound to the claim.
            cluster.update_pvc((**pvc).clone());
            let pv = provisioned_volume(cluster, pvc);
            let claim = bound_claim(pvc, &pv);
            cluster.update_pv(pv);
            cluster.update_pvc(claim);
        }
        Status::success()
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::VolumeBinding,
    points: ExtensionPoints::of(&[
        Ep::PreFilter,
        Ep::Filter,
        Ep::PreScore,
        Ep::Score,
        Ep::Reserve,
        Ep::PreBind,
        Ep::EnqueueExtensions,
    ]),
    short: "VolBind",
    args: Some(&args::CODEC),
    new: |args, _| Box::new(VolumeBinding::new(&args.get_or_default::<VolumeBindingArgs>())),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        CsiDriver, EphemeralVolumeSource, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, OwnerReference,
        PersistentVolumeClaimTemplate, StorageClass, TopologySelectorLabelRequirement, TopologySelectorTerm, Volume, VolumeNodeAffinity,
    };
    use crate::framework::{Code, Reason};
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    const ZONE: &str = "topology.kubernetes.io/zone";

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }
    fn zone_affinity(zone: &str) -> VolumeNodeAffinity {
        VolumeNodeAffinity {
            required: Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_expressions: vec![NodeSelectorRequirement {
                        key: ZONE.into(),
                        operator: "In".into(),
                        values: vec![zone.into()],
                    }],
                    match_fields: vec![],
                }],
            }),
        }
    }
    fn pv(name: &str, class: &str, size: &str, zone: &str) -> PersistentVolume {
        let mut pv = PersistentVolume::default();
        pv.metadata.name = name.into();
        pv.spec.storage_class_name = Some(class.into());
        pv.spec.capacity.insert("storage".into(), q(size));
        pv.spec.access_modes = vec!["ReadWriteOnce".into()];
        if !zone.is_empty() {
            pv.spec.node_affinity = Some(zone_affinity(zone));
        }
        pv.status.phase = Some("Available".into());
        pv
    }
    fn pvc(name: &str, class: &str, size: &str) -> PersistentVolumeClaim {
        let mut c = PersistentVolumeClaim::default();
        c.metadata.name = name.into();
        c.metadata.namespace = Some("default".into());
        c.metadata.uid = Some(format!("uid-persistentvolumeclaim-default-{name}"));
        c.spec.storage_class_name = Some(class.into());
        c.spec.access_modes = vec!["ReadWriteOnce".into()];
        c.spec.resources.requests.insert("storage".into(), q(size));
        c
    }
    fn bound(mut c: PersistentVolumeClaim, pv: &str) -> PersistentVolumeClaim {
        c.spec.volume_name = Some(pv.into());
        c.metadata.annotations.insert(ANN_BIND_COMPLETED.into(), "yes".into());
        c
    }
    fn class(name: &str, mode: &str, provisioner: &str) -> StorageClass {
        let mut c = StorageClass::default();
        c.metadata.name = name.into();
        c.volume_binding_mode = Some(mode.into());
        c.provisioner = provisioner.into();
        c
    }

    fn env() -> Env {
        let mut env = Env::new(
            vec![
                MakeNode::new("node-a").label(ZONE, "zone-a").obj(),
                MakeNode::new("node-b").label(ZONE, "zone-b").obj(),
            ],
            vec![],
        );
        let c = &mut env.cluster;
        for sc in [
            class("wffc", "WaitForFirstConsumer", NOT_SUPPORTED_PROVISIONER),
            class("dyn", "WaitForFirstConsumer", "csi.example.com"),
            class("imm", "Immediate", "csi.example.com"),
        ] {
            c.storage_classes.insert(sc.metadata.name.clone(), sc);
        }
        let mut topo = class("dyn-b", "WaitForFirstConsumer", "csi.example.com");
        topo.allowed_topologies = vec![TopologySelectorTerm {
            match_label_expressions: vec![TopologySelectorLabelRequirement {
                key: ZONE.into(),
                values: vec!["zone-b".into()],
            }],
        }];
        c.storage_classes.insert("dyn-b".into(), topo);
        c.storage_classes
            .insert("cap".into(), class("cap", "WaitForFirstConsumer", "capacity.csi.example.com"));
        let mut drv = CsiDriver::default();
        drv.metadata.name = "capacity.csi.example.com".into();
        drv.spec.storage_capacity = Some(true);
        c.csi_drivers.insert(drv.metadata.name.clone(), drv);
        for p in [
            pv("pv-a-small", "wffc", "5Gi", "zone-a"),
            pv("pv-b-large", "wffc", "100Gi", "zone-b"),
            pv("pv-b-mid", "wffc", "30Gi", "zone-b"),
            {
                let mut p = pv("bound-pv", "wffc", "10Gi", "zone-a");
                p.status.phase = Some("Bound".into());
                p
            },
        ] {
            c.pvs.insert(p.metadata.name.clone(), Arc::new(p));
        }
        for claim in [
            pvc("scratch", "wffc", "20Gi"),
            pvc("huge", "wffc", "500Gi"),
            pvc("small", "wffc", "1Gi"),
            pvc("dyn", "dyn", "1Gi"),
            pvc("dyn-b", "dyn-b", "1Gi"),
            pvc("cap", "cap", "1Gi"),
            pvc("imm", "imm", "1Gi"),
            pvc("noclass", "", "1Gi"),
            bound(pvc("data", "wffc", "10Gi"), "bound-pv"),
            bound(pvc("dangling", "wffc", "10Gi"), "missing-pv"),
        ] {
            c.pvcs.insert(format!("default/{}", claim.metadata.name), Arc::new(claim));
        }
        env
    }

    fn filter_on(env: &Env, pod: &PodInfo, node: &str) -> Status {
        let pl = VolumeBinding::new(&VolumeBindingArgs::default());
        let mut state = CycleState::new();
        let (_, s) = pl.pre_filter(&env.cx(), &mut state, pod);
        if !s.is_success() {
            return s;
        }
        pl.filter(&env.cx(), &state, pod, env.node(node))
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_filter_table() {
        let env = env();
        let pl = VolumeBinding::new(&VolumeBindingArgs::default());
        let cases = [
            ("no claims", MakePod::new("p"), Code::Skip, ""),
            (
                "missing",
                MakePod::new("p").pvc("nope"),
                Code::UnschedulableAndUnresolvable,
                "persistentvolumeclaim \"nope\" not found",
            ),
            (
                "immediate unbound",
                MakePod::new("p").pvc("imm"),
                Code::UnschedulableAndUnresolvable,
                ERR_UNBOUND_IMMEDIATE,
            ),
            (
                "no class is immediate",
                MakePod::new("p").pvc("noclass"),
                Code::UnschedulableAndUnresolvable,
                ERR_UNBOUND_IMMEDIATE,
            ),
            ("bound", MakePod::new("p").pvc("data"), Code::Success, ""),
            ("delayed", MakePod::new("p").pvc("scratch"), Code::Success, ""),
        ];
        for (name, pod, code, msg) in cases {
            let mut state = CycleState::new();
            let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod.info());
            assert_eq!(s.code, code, "{name}");
            assert_eq!(s.message(), msg, "{name}");
            // Skip still leaves state behind for Reserve.
            if code == Code::Skip {
                assert!(state.read::<StateData>(PluginName::VolumeBinding).is_some());
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_table() {
        let env = env();
        let cases = [
            ("bound pv zone-a on a", MakePod::new("p").pvc("data"), "node-a", vec![]),
            (
                "bound pv zone-a on b",
                MakePod::new("p").pvc("data"),
                "node-b",
                vec![ERR_REASON_NODE_CONFLICT],
            ),
            (
                "dangling claim",
                MakePod::new("p").pvc("dangling"),
                "node-a",
                vec![ERR_REASON_PV_NOT_EXIST],
            ),
            (
                "20Gi only fits zone-b",
                MakePod::new("p").pvc("scratch"),
                "node-a",
                vec![ERR_REASON_BIND_CONFLICT],
            ),
            ("20Gi on b", MakePod::new("p").pvc("scratch"), "node-b", vec![]),
            (
                "500Gi nowhere",
                MakePod::new("p").pvc("huge"),
                "node-b",
                vec![ERR_REASON_BIND_CONFLICT],
            ),
            ("small fits a", MakePod::new("p").pvc("small"), "node-a", vec![]),
            (
                "two claims need two volumes",
                MakePod::new("p").pvc("scratch").pvc("small"),
                "node-b",
                vec![],
            ),
            ("provisioning anywhere", MakePod::new("p").pvc("dyn"), "node-a", vec![]),
            (
                "allowed topology b on a",
                MakePod::new("p").pvc("dyn-b"),
                "node-a",
                vec![ERR_REASON_BIND_CONFLICT],
            ),
            ("allowed topology b on b", MakePod::new("p").pvc("dyn-b"), "node-b", vec![]),
            (
                "capacity tracked, none known",
                MakePod::new("p").pvc("cap"),
                "node-a",
                vec![ERR_REASON_NOT_ENOUGH_SPACE],
            ),
            (
                "bound conflict and bind conflict",
                MakePod::new("p").pvc("data").pvc("huge"),
                "node-b",
                vec![ERR_REASON_NODE_CONFLICT, ERR_REASON_BIND_CONFLICT],
            ),
        ];
        for (name, pod, node, want) in cases {
            let s = filter_on(&env, &pod.info(), node);
            if want.is_empty() {
                assert!(s.is_success(), "{name}: {s:?}");
            } else {
                assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
                assert_eq!(s.reasons[..], want.iter().map(|r| Reason::from(*r)).collect::<Vec<_>>()[..], "{name}");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn matching_prefers_smallest_and_prebound() {
        let mut env = env();
        // A pre-bound volume wins over a smaller one.
        let mut pre = pv("pv-b-pre", "wffc", "200Gi", "zone-b");
        pre.spec.claim_ref = Some(ObjectReference {
            name: Some("scratch".into()),
            namespace: Some("default".into()),
            ..Default::default()
        });
        let claims = |env: &Env| pod_volume_claims(&env.cx(), &MakePod::new("p").pvc("scratch").obj()).unwrap().0;
        let pick = |env: &Env, claims: &PodVolumeClaims| {
            let node = env.node("node-b").node.clone();
            let (v, r) = find_pod_volumes(&env.cx(), claims, &node).unwrap();
            assert!(r.is_empty());
            v.static_bindings[0].0.metadata.name.clone()
        };
        assert_eq!(pick(&env, &claims(&env)), "pv-b-mid");
        env.cluster.pvs.insert("pv-b-pre".into(), Arc::new(pre));
        assert_eq!(pick(&env, &claims(&env)), "pv-b-pre");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn reserve_and_pre_bind_write_bindings() {
        let mut env = env();
        let pl = VolumeBinding::new(&VolumeBindingArgs::default());
        let pod = MakePod::new("p").pvc("scratch").pvc("dyn").info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &pod).1.is_success());
        assert!(pl.filter(&env.cx(), &state, &pod, env.node("node-b")).is_success());
        assert!(pl.reserve(&env.cx(), &mut state, &pod, "node-b").is_success());
        assert!(!state.read::<StateData>(PluginName::VolumeBinding).unwrap().all_bound);
        assert!(pl.pre_bind(&mut env.cluster, &mut state, &pod, "node-b").is_success());
        let c = &env.cluster;
        let scratch = c.pvc("default", "scratch").unwrap();
        assert_eq!(scratch.spec.volume_name.as_deref(), Some("pv-b-mid"));
        assert!(is_pvc_fully_bound(scratch));
        let pv = &c.pvs["pv-b-mid"];
        assert_eq!(pv.spec.claim_ref.as_ref().unwrap().name.as_deref(), Some("scratch"));
        assert_eq!(pv.status.phase.as_deref(), Some("Bound"));
        let dynamic = c.pvc("default", "dyn").unwrap();
        assert_eq!(
            dynamic.metadata.annotations.get(ANN_SELECTED_NODE).map(String::as_str),
            Some("node-b")
        );
        let new_pv = &c.pvs[dynamic.spec.volume_name.as_deref().unwrap()];
        assert!(new_pv.spec.node_affinity.is_none());
        assert_eq!(new_pv.spec.csi.as_ref().unwrap().driver, "csi.example.com");
        // PV update, PVC update, then for provisioning: PVC update, PV add, PVC update.
        let kinds: Vec<(EventResource, ActionType)> = c.pending_events.iter().map(|(e, _)| (e.resource, e.action)).collect();
        assert_eq!(
            kinds,
            vec![
                (EventResource::PersistentVolume, ActionType::UPDATE),
                (EventResource::PersistentVolumeClaim, ActionType::UPDATE),
                (EventResource::PersistentVolumeClaim, ActionType::UPDATE),
                (EventResource::PersistentVolume, ActionType::ADD),
                (EventResource::PersistentVolumeClaim, ActionType::UPDATE),
            ]
        );
        // Now both claims are bound: a second pod using them needs no binding.
        let pod2 = MakePod::new("q").pvc("scratch").pvc("dyn").info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &pod2).1.is_success());
        assert!(pl.filter(&env.cx(), &state, &pod2, env.node("node-b")).is_success());
        assert!(pl.reserve(&env.cx(), &mut state, &pod2, "node-b").is_success());
        assert!(state.read::<StateData>(PluginName::VolumeBinding).unwrap().all_bound);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn unreserve_drops_assumptions() {
        let env = env();
        let pl = VolumeBinding::new(&VolumeBindingArgs::default());
        let pod = MakePod::new("p").pvc("scratch").info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &pod).1.is_success());
        assert!(pl.reserve(&env.cx(), &mut state, &pod, "node-b").is_success());
        pl.unreserve(&env.cx(), &mut state, &pod, "node-b");
        let mut cluster = env.cluster.clone();
        let s = pl.pre_bind(&mut cluster, &mut state, &pod, "node-b");
        assert_eq!(s.code, Code::Error);
        assert!(cluster.pending_events.is_empty());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn ephemeral_volumes() {
        let mut env = env();
        let pl = VolumeBinding::new(&VolumeBindingArgs::default());
        let mut pod = MakePod::new("web");
        pod.pod.spec.volumes.push(Volume {
            name: "cache".into(),
            ephemeral: Some(EphemeralVolumeSource {
                volume_claim_template: Some(PersistentVolumeClaimTemplate::default()),
            }),
            ..Default::default()
        });
        let pod = pod.info();
        let mut state = CycleState::new();
        let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod);
        assert_eq!(
            s.message(),
            "waiting for ephemeral volume controller to create the persistentvolumeclaim \"web-cache\""
        );
        let mut claim = pvc("web-cache", "dyn", "1Gi");
        env.cluster.pvcs.insert("default/web-cache".into(), Arc::new(claim.clone()));
        let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod);
        assert_eq!(
            s.message(),
            "PVC default/web-cache was not created for pod default/web (pod is not owner)"
        );
        claim.metadata.owner_references.push(OwnerReference {
            api_version: "v1".into(),
            kind: "Pod".into(),
            name: "web".into(),
            uid: "uid-pod-default-web".into(),
            controller: Some(true),
            block_owner_deletion: None,
        });
        env.cluster.pvcs.insert("default/web-cache".into(), Arc::new(claim));
        assert!(pl.pre_filter(&env.cx(), &mut state, &pod).1.is_success());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_score_is_skipped() {
        let env = env();
        let pl = VolumeBinding::new(&VolumeBindingArgs::default());
        let mut state = CycleState::new();
        assert!(pl.pre_score(&env.cx(), &mut state, &MakePod::new("p").info(), &[]).is_skip());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn hints() {
        let env = env();
        let pl = VolumeBinding::new(&VolumeBindingArgs::default());
        let pod = MakePod::new("p").pvc("scratch").info();
        let ev = ClusterEvent::new(EventResource::PersistentVolumeClaim, ActionType::UPDATE);
        let obj = |n: &str, ns: &str| {
            let mut c = pvc(n, "wffc", "1Gi");
            c.metadata.namespace = Some(ns.into());
            EventObject::PersistentVolumeClaim {
                old: None,
                new: Some(Arc::new(c)),
            }
        };
        assert_eq!(
            pl.queueing_hint(&env.cx(), &pod, ev, &obj("scratch", "default")).unwrap(),
            QueueingHint::Queue
        );
        assert_eq!(
            pl.queueing_hint(&env.cx(), &pod, ev, &obj("other", "default")).unwrap(),
            QueueingHint::Skip
        );
        assert_eq!(
            pl.queueing_hint(&env.cx(), &pod, ev, &obj("scratch", "x")).unwrap(),
            QueueingHint::Skip
        );
    }
}
