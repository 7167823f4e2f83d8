//! VolumeZone: the zone and region labels of the PersistentVolumes bound to a pod's claims
//! must match the node's labels.

use crate::api::PersistentVolume;
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, PreFilterResult, Status};
use crate::plugins::volume_util::{label_zones_to_set, not_found, pvc_class, LABEL_BETA_REGION, LABEL_BETA_ZONE, LABEL_REGION, LABEL_ZONE};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use std::collections::BTreeSet;
use std::sync::Arc;

pub const ERR_REASON_CONFLICT: &str = "node(s) had no available volume zone";

/// The labels checked, in upstream's order.
const TOPOLOGY_LABELS: [&str; 4] = [LABEL_BETA_ZONE, LABEL_BETA_REGION, LABEL_ZONE, LABEL_REGION];

pub struct VolumeZone;

/// One topology label of a bound volume and the zones (or regions) it allows.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PvTopology {
    key: &'static str,
    values: BTreeSet<String>,
}

#[derive(Clone, Debug, Default)]
struct StateData {
    topologies: Arc<Vec<PvTopology>>,
}

fn ga_label(key: &str) -> &str {
    match key {
        LABEL_BETA_REGION => LABEL_REGION,
        LABEL_BETA_ZONE => LABEL_ZONE,
        k => k,
    }
}

fn pv_topologies(pv: &PersistentVolume) -> Vec<PvTopology> {
    let mut out = Vec::new();
    for key in TOPOLOGY_LABELS {
        if let Some(v) = pv.metadata.labels.get(key) {
            // A value with an empty zone entry is ignored.
            if let Some(values) = label_zones_to_set(v) {
                out.push(PvTopology { key, values });
            }
        }
    }
    out
}

/// The topologies of the volumes bound to the pod's claims (upstream getPVbyPod).
fn topologies_for_pod(cx: &Ctx, pod: &PodInfo) -> Result<Vec<PvTopology>, Status> {
    let mut out = Vec::new();
    for (_, pv) in bound_volumes(cx, pod)? {
        out.extend(pv_topologies(pv));
    }
    Ok(out)
}

/// The volumes bound to the pod's claims, with the claims' names; claims waiting for their
/// first consumer have none yet.
fn bound_volumes<'a>(cx: &Ctx<'a>, pod: &'a PodInfo) -> Result<Vec<(&'a str, &'a PersistentVolume)>, Status> {
    let mut out = Vec::new();
    for v in &pod.pod.spec.volumes {
        let Some(c) = &v.persistent_volume_claim else { continue };
        if c.claim_name.is_empty() {
            return Err(Status::unresolvable("PersistentVolumeClaim had no name"));
        }
        let Some(pvc) = cx.cluster.pvc(pod.namespace(), &c.claim_name) else {
            return Err(Status::unresolvable(not_found("persistentvolumeclaim", &c.claim_name)));
        };
        let pv_name = pvc.spec.volume_name.as_deref().unwrap_or("");
        if pv_name.is_empty() {
            let class_name = pvc_class(pvc);
            if class_name.is_empty() {
                return Err(Status::unresolvable("PersistentVolumeClaim had no pv name and storageClass name"));
            }
            let Some(class) = cx.cluster.storage_classes.get(class_name) else {
                return Err(Status::unresolvable(not_found("storageclass.storage.k8s.io", class_name)));
            };
            match class.volume_binding_mode.as_deref() {
                None => {
                    return Err(Status::unresolvable(format!(
                        "VolumeBindingMode not set for StorageClass {class_name:?}"
                    )))
                }
                // Unbound claims that wait for a consumer have no zone yet.
                Some("WaitForFirstConsumer") => continue,
                Some(_) => return Err(Status::unresolvable("PersistentVolume had no name")),
            }
        }
        let Some(pv) = cx.cluster.pvs.get(pv_name) else {
            return Err(Status::unresolvable(not_found("persistentvolume", pv_name)));
        };
        out.push((c.claim_name.as_str(), pv.as_ref()));
    }
    Ok(out)
}

/// The node's value for a volume topology label (the GA label stands in for a beta one), and
/// whether the volume allows it.
fn topology_matches<'n>(t: &PvTopology, labels: &'n crate::api::Labels) -> (Option<&'n String>, bool) {
    let v = labels.get(t.key).or_else(|| labels.get(ga_label(t.key)));
    (v, v.is_some_and(|v| t.values.contains(v)))
}

/// One topology label of one bound volume checked on a node, for the playground's
/// explanations.
#[derive(Clone, Debug)]
struct VolumeTopologyView {
    pub claim: String,
    pub volume: String,
    pub key: &'static str,
    /// The zones (or regions) the volume allows.
    pub values: Vec<String>,
    /// The node's value (None: the node lacks the label).
    pub node_value: Option<String>,
    pub matches: bool,
}

/// Explains Filter on `node`: each bound volume's topology labels against the node's; the
/// flag says whether the node has any topology label at all (without one, it accepts any
/// volume). Err carries the status when the pod's volumes cannot be looked up.
fn explain_filter(cx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Result<(Vec<VolumeTopologyView>, bool), Status> {
    let labels = node.labels();
    let mut out = Vec::new();
    for (claim, pv) in bound_volumes(cx, pod)? {
        for t in pv_topologies(pv) {
            let (v, ok) = topology_matches(&t, labels);
            out.push(VolumeTopologyView {
                claim: claim.to_string(),
                volume: pv.metadata.name.clone(),
                key: t.key,
                values: t.values.iter().cloned().collect(),
                node_value: v.cloned(),
                matches: ok,
            });
        }
    }
    Ok((out, TOPOLOGY_LABELS.iter().any(|k| labels.contains_key(*k))))
}

fn pod_uses_claim(pod: &PodInfo, ns: &str, name: &str) -> bool {
    pod.namespace() == ns
        && pod
            .pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
            .any(|c| c.claim_name == name)
}

impl Plugin for VolumeZone {
    fn name(&self) -> PluginName {
        PluginName::VolumeZone
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::hinted(EventResource::StorageClass, ActionType::ADD),
            ClusterEventWithHint::unhinted(EventResource::Node, ActionType::ADD.union(ActionType::UPDATE_NODE_LABEL)),
            ClusterEventWithHint::hinted(EventResource::PersistentVolumeClaim, ActionType::ADD.union(ActionType::UPDATE)),
            ClusterEventWithHint::hinted(EventResource::PersistentVolume, ActionType::ADD.union(ActionType::UPDATE)),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, _event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::PersistentVolumeClaim { new: Some(pvc), .. } => {
                let ns = crate::plugins::volume_util::namespace_of(&pvc.metadata);
                Ok(if pod_uses_claim(pod, ns, &pvc.metadata.name) {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                })
            }
            EventObject::PersistentVolume { old, new: Some(new) } => {
                let Some(old) = old else { return Ok(QueueingHint::Queue) };
                Ok(if pv_topologies(old) != pv_topologies(new) {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                })
            }
            // A StorageClass event: the object model carries no StorageClass, so assume the
            // new class may help.
            _ => Ok(QueueingHint::Queue),
        }
    }

    fn pre_filter(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        let topologies = match topologies_for_pod(cx, pod) {
            Ok(t) => t,
            Err(s) => return (None, s),
        };
        if topologies.is_empty() {
            return (None, Status::skip());
        }
        state.write(
            PluginName::VolumeZone,
            StateData {
                topologies: Arc::new(topologies),
            },
        );
        (None, Status::success())
    }

    fn filter(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if pod.pod.spec.volumes.is_empty() {
            return Status::success();
        }
        let computed;
        let topologies: &[PvTopology] = match state.read::<StateData>(PluginName::VolumeZone) {
            Some(s) => &s.topologies,
            None => {
                computed = match topologies_for_pod(cx, pod) {
                    Ok(t) => t,
                    Err(s) => return s,
                };
                &computed
            }
        };
        let labels = node.labels();
        if !TOPOLOGY_LABELS.iter().any(|k| labels.contains_key(*k)) {
            // A node without topology labels (a single-zone cluster) accepts any volume.
            return Status::success();
        }
        for t in topologies {
            if !topology_matches(t, labels).1 {
                return Status::unresolvable(ERR_REASON_CONFLICT);
            }
        }
        Status::success()
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::VolumeZone,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::EnqueueExtensions]),
    short: "VolZone",
    args: None,
    new: |_, _| Box::new(VolumeZone),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{PersistentVolumeClaim, StorageClass};
    use crate::framework::Code;
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    fn pv(name: &str, labels: &[(&str, &str)]) -> Arc<PersistentVolume> {
        let mut pv = PersistentVolume::default();
        pv.metadata.name = name.into();
        pv.metadata.labels = labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Arc::new(pv)
    }
    fn pvc(name: &str, volume: &str, class: &str) -> Arc<PersistentVolumeClaim> {
        let mut c = PersistentVolumeClaim::default();
        c.metadata.name = name.into();
        c.metadata.namespace = Some("default".into());
        c.spec.volume_name = (!volume.is_empty()).then(|| volume.to_string());
        c.spec.storage_class_name = (!class.is_empty()).then(|| class.to_string());
        Arc::new(c)
    }
    fn class(name: &str, mode: &str) -> StorageClass {
        let mut c = StorageClass::default();
        c.metadata.name = name.into();
        c.volume_binding_mode = Some(mode.into());
        c
    }

    fn env() -> Env {
        let mut env = Env::new(
            vec![
                MakeNode::new("a").label(LABEL_ZONE, "zone-a").label(LABEL_REGION, "r1").obj(),
                MakeNode::new("b").label(LABEL_ZONE, "zone-b").label(LABEL_REGION, "r1").obj(),
                MakeNode::new("beta").label(LABEL_BETA_ZONE, "zone-b").obj(),
                MakeNode::new("plain").obj(),
            ],
            vec![],
        );
        let c = &mut env.cluster;
        c.pvs.insert("pv-b".into(), pv("pv-b", &[(LABEL_ZONE, "zone-b")]));
        c.pvs.insert("pv-beta-b".into(), pv("pv-beta-b", &[(LABEL_BETA_ZONE, "zone-b")]));
        c.pvs.insert("pv-multi".into(), pv("pv-multi", &[(LABEL_ZONE, "zone-a__zone-b")]));
        c.pvs
            .insert("pv-r1".into(), pv("pv-r1", &[(LABEL_REGION, "r1"), (LABEL_ZONE, "zone-a")]));
        c.pvs.insert("pv-none".into(), pv("pv-none", &[]));
        c.pvcs.insert("default/b".into(), pvc("b", "pv-b", ""));
        c.pvcs.insert("default/beta-b".into(), pvc("beta-b", "pv-beta-b", ""));
        c.pvcs.insert("default/multi".into(), pvc("multi", "pv-multi", ""));
        c.pvcs.insert("default/r1".into(), pvc("r1", "pv-r1", ""));
        c.pvcs.insert("default/none".into(), pvc("none", "pv-none", ""));
        c.pvcs.insert("default/wffc".into(), pvc("wffc", "", "wffc"));
        c.pvcs.insert("default/imm".into(), pvc("imm", "", "imm"));
        c.pvcs.insert("default/noclass".into(), pvc("noclass", "", ""));
        c.pvcs.insert("default/lost".into(), pvc("lost", "gone", ""));
        c.storage_classes.insert("wffc".into(), class("wffc", "WaitForFirstConsumer"));
        c.storage_classes.insert("imm".into(), class("imm", "Immediate"));
        env
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_table() {
        let env = env();
        let pl = VolumeZone;
        // (claim, node, expected code)
        let cases = [
            ("b", "a", Code::UnschedulableAndUnresolvable),
            ("b", "b", Code::Success),
            ("b", "beta", Code::UnschedulableAndUnresolvable),
            ("b", "plain", Code::Success),
            ("beta-b", "beta", Code::Success),
            ("beta-b", "b", Code::Success),
            ("beta-b", "a", Code::UnschedulableAndUnresolvable),
            ("multi", "a", Code::Success),
            ("multi", "b", Code::Success),
            ("r1", "a", Code::Success),
            ("r1", "b", Code::UnschedulableAndUnresolvable),
        ];
        for (claim, node, want) in cases {
            let pod = MakePod::new("p").pvc(claim).info();
            let mut state = CycleState::new();
            let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod);
            assert!(s.is_success(), "{claim}: {s:?}");
            let s = pl.filter(&env.cx(), &state, &pod, env.node(node));
            assert_eq!(s.code, want, "{claim} on {node}");
            if want != Code::Success {
                assert_eq!(s.message(), ERR_REASON_CONFLICT);
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_filter_table() {
        let env = env();
        let pl = VolumeZone;
        let cases = [
            ("none", Code::Skip, ""),
            ("wffc", Code::Skip, ""),
            ("imm", Code::UnschedulableAndUnresolvable, "PersistentVolume had no name"),
            (
                "noclass",
                Code::UnschedulableAndUnresolvable,
                "PersistentVolumeClaim had no pv name and storageClass name",
            ),
            ("lost", Code::UnschedulableAndUnresolvable, "persistentvolume \"gone\" not found"),
            (
                "nope",
                Code::UnschedulableAndUnresolvable,
                "persistentvolumeclaim \"nope\" not found",
            ),
        ];
        for (claim, code, msg) in cases {
            let pod = MakePod::new("p").pvc(claim).info();
            let mut state = CycleState::new();
            let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod);
            assert_eq!(s.code, code, "{claim}");
            assert_eq!(s.message(), msg, "{claim}");
        }
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &MakePod::new("p").info()).1.is_skip());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn hints() {
        let env = env();
        let pl = VolumeZone;
        let pod = MakePod::new("p").pvc("b").info();
        let ev = ClusterEvent::new(EventResource::PersistentVolume, ActionType::UPDATE);
        let upd = |o: Arc<PersistentVolume>, n: Arc<PersistentVolume>| EventObject::PersistentVolume {
            old: Some(o),
            new: Some(n),
        };
        let same = upd(pv("x", &[(LABEL_ZONE, "a")]), pv("x", &[(LABEL_ZONE, "a")]));
        let moved = upd(pv("x", &[(LABEL_ZONE, "a")]), pv("x", &[(LABEL_ZONE, "b")]));
        assert_eq!(pl.queueing_hint(&env.cx(), &pod, ev, &same).unwrap(), QueueingHint::Skip);
        assert_eq!(pl.queueing_hint(&env.cx(), &pod, ev, &moved).unwrap(), QueueingHint::Queue);
        let pvc_ev = ClusterEvent::new(EventResource::PersistentVolumeClaim, ActionType::UPDATE);
        let claim = |n: &str| EventObject::PersistentVolumeClaim {
            old: None,
            new: Some(pvc(n, "", "")),
        };
        assert_eq!(pl.queueing_hint(&env.cx(), &pod, pvc_ev, &claim("b")).unwrap(), QueueingHint::Queue);
        assert_eq!(pl.queueing_hint(&env.cx(), &pod, pvc_ev, &claim("c")).unwrap(), QueueingHint::Skip);
    }
}
