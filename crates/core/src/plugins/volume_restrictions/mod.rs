//! VolumeRestrictions: inline disks that cannot be shared between pods on one node (GCE PD,
//! AWS EBS, iSCSI, Ceph RBD) and claims with the ReadWriteOncePod access mode that another
//! scheduled pod already uses.

use crate::api::{Pod, Volume};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{CycleState, NodeInfo, Plugin, PodInfo, PreFilterResult, Status};
use crate::plugins::volume_util::not_found;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use std::sync::Arc;

pub const ERR_REASON_DISK_CONFLICT: &str = "node(s) had no available disk";
pub const ERR_REASON_RWOP_CONFLICT: &str =
    "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod";

pub struct VolumeRestrictions;

/// What PreFilter found: the pod's ReadWriteOncePod claims (by name) and how many scheduled
/// pods reference them.
#[derive(Clone, Debug, Default)]
struct PreFilterState {
    rwop_claims: Arc<Vec<String>>,
    conflicting_ref_count: i64,
}

impl PreFilterState {
    fn refs_of(&self, pod: &Pod) -> i64 {
        pod.spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
            .filter(|c| self.rwop_claims.contains(&c.claim_name))
            .count() as i64
    }
}

fn needs_restrictions_check(v: &Volume) -> bool {
    v.gce_persistent_disk.is_some() || v.aws_elastic_block_store.is_some() || v.rbd.is_some() || v.iscsi.is_some()
}

fn have_overlap(a: &[String], b: &[String]) -> bool {
    a.iter().any(|x| b.contains(x))
}

/// Whether `v` conflicts with a volume of the existing pod.
fn is_volume_conflict(v: &Volume, existing: &Pod) -> bool {
    for ev in &existing.spec.volumes {
        if let (Some(d), Some(e)) = (&v.gce_persistent_disk, &ev.gce_persistent_disk) {
            let both_ro = d.read_only.unwrap_or(false) && e.read_only.unwrap_or(false);
            if d.pd_name == e.pd_name && !both_ro {
                return true;
            }
        }
        if let (Some(d), Some(e)) = (&v.aws_elastic_block_store, &ev.aws_elastic_block_store) {
            if d.volume_id == e.volume_id {
                return true;
            }
        }
        if let (Some(d), Some(e)) = (&v.iscsi, &ev.iscsi) {
            let both_ro = d.read_only.unwrap_or(false) && e.read_only.unwrap_or(false);
            if d.iqn == e.iqn && !both_ro {
                return true;
            }
        }
        if let (Some(d), Some(e)) = (&v.rbd, &ev.rbd) {
            let both_ro = d.read_only.unwrap_or(false) && e.read_only.unwrap_or(false);
            // The apiserver defaults an unset pool to "rbd".
            let pool = |p: &Option<String>| p.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| "rbd".into());
            if have_overlap(&d.monitors, &e.monitors) && pool(&d.pool) == pool(&e.pool) && d.image == e.image && !both_ro {
                return true;
            }
        }
    }
    false
}

/// Whether placing the pod next to the node's pods keeps its inline disks conflict-free.
fn satisfy_volume_conflicts<'a>(pod: &Pod, existing: impl Iterator<Item = &'a Pod> + Clone) -> bool {
    for v in pod.spec.volumes.iter().filter(|v| needs_restrictions_check(v)) {
        if existing.clone().any(|ep| is_volume_conflict(v, ep)) {
            return false;
        }
    }
    true
}

/// The numbers behind Filter's verdict on one node, for the playground's explanations.
#[derive(Clone, Debug, Default)]
struct RestrictionsView {
    /// The pod's inline disks that may not be shared (volume names).
    pub inline_disks: Vec<String>,
    /// (the pod's volume, the pod on the node holding the same disk).
    pub disk_conflicts: Vec<(String, String)>,
    /// The pod's ReadWriteOncePod claims.
    pub rwop_claims: Vec<String>,
    /// How many of them scheduled pods already use (from PreFilter's state).
    pub rwop_in_use: i64,
    /// (claim, the pod using it, its node), found by looking through the nodes.
    pub rwop_users: Vec<(String, String, String)>,
}

/// Explains Filter on `node` (None when PreFilter skipped the plugin). `node` may carry
/// nominated pods the snapshot's copy does not.
fn explain_filter(cx: &crate::framework::Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Option<RestrictionsView> {
    let s = state.read::<PreFilterState>(PluginName::VolumeRestrictions)?;
    let mut out = RestrictionsView {
        rwop_claims: s.rwop_claims.to_vec(),
        rwop_in_use: s.conflicting_ref_count,
        ..Default::default()
    };
    for v in pod.pod.spec.volumes.iter().filter(|v| needs_restrictions_check(v)) {
        out.inline_disks.push(v.name.clone());
        for p in node.pods.iter().filter(|p| is_volume_conflict(v, &p.pod)) {
            out.disk_conflicts.push((v.name.clone(), p.key.clone()));
        }
    }
    let nodes = cx.snapshot.nodes().iter().map(|n| if n.name() == node.name() { node } else { n });
    for n in nodes {
        for p in n.pods.iter().filter(|p| p.namespace() == pod.namespace() && p.uid != pod.uid) {
            for c in p.pod.spec.volumes.iter().filter_map(|v| v.persistent_volume_claim.as_ref()) {
                if s.rwop_claims.contains(&c.claim_name) {
                    out.rwop_users.push((c.claim_name.clone(), p.key.clone(), n.name().to_string()));
                }
            }
        }
    }
    Some(out)
}

impl Plugin for VolumeRestrictions {
    fn name(&self) -> PluginName {
        PluginName::VolumeRestrictions
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::DELETE),
            ClusterEventWithHint::unhinted(EventResource::Node, ActionType::ADD),
            ClusterEventWithHint::hinted(EventResource::PersistentVolumeClaim, ActionType::ADD),
        ]
    }

    fn queueing_hint(
        &self,
        _cx: &crate::framework::Ctx,
        pod: &PodInfo,
        event: ClusterEvent,
        obj: &EventObject,
    ) -> Result<QueueingHint, String> {
        match (event.resource, obj) {
            (EventResource::PersistentVolumeClaim, EventObject::PersistentVolumeClaim { new: Some(pvc), .. }) => {
                if crate::plugins::volume_util::namespace_of(&pvc.metadata) != pod.namespace() {
                    return Ok(QueueingHint::Skip);
                }
                let used = pod
                    .pod
                    .spec
                    .volumes
                    .iter()
                    .filter_map(|v| v.persistent_volume_claim.as_ref())
                    .any(|c| c.claim_name == pvc.metadata.name);
                Ok(if used { QueueingHint::Queue } else { QueueingHint::Skip })
            }
            (EventResource::Pod | EventResource::AssignedPod | EventResource::UnscheduledPod, EventObject::Pod { old, new }) => {
                let Some(deleted) = old.as_ref().or(new.as_ref()) else {
                    return Err("unexpected objects in isSchedulableAfterPodDeleted".into());
                };
                if deleted.namespace() != pod.namespace() {
                    return Ok(QueueingHint::Skip);
                }
                if !satisfy_volume_conflicts(&pod.pod, std::iter::once(&*deleted.pod)) {
                    return Ok(QueueingHint::Queue);
                }
                let claims: Vec<&str> = pod
                    .pod
                    .spec
                    .volumes
                    .iter()
                    .filter_map(|v| v.persistent_volume_claim.as_ref())
                    .map(|c| c.claim_name.as_str())
                    .collect();
                let shares = deleted
                    .pod
                    .spec
                    .volumes
                    .iter()
                    .filter_map(|v| v.persistent_volume_claim.as_ref())
                    .any(|c| claims.contains(&c.claim_name.as_str()));
                Ok(if shares { QueueingHint::Queue } else { QueueingHint::Skip })
            }
            _ => Ok(QueueingHint::Queue),
        }
    }

    fn pre_filter(&self, cx: &crate::framework::Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        let needs_check = pod.pod.spec.volumes.iter().any(needs_restrictions_check);
        let ns = pod.namespace();
        let mut rwop: Vec<String> = Vec::new();
        for v in &pod.pod.spec.volumes {
            let Some(c) = &v.persistent_volume_claim else { continue };
            let Some(pvc) = cx.cluster.pvc(ns, &c.claim_name) else {
                return (None, Status::unresolvable(not_found("persistentvolumeclaim", &c.claim_name)));
            };
            if pvc.spec.access_modes.iter().any(|m| m == "ReadWriteOncePod") && !rwop.contains(&pvc.metadata.name) {
                rwop.push(pvc.metadata.name.clone());
            }
        }
        let mut conflicting = 0i64;
        for name in &rwop {
            let key = format!("{ns}/{name}");
            if cx.snapshot.nodes().iter().any(|n| n.pvc_ref_counts.contains_key(&key)) {
                conflicting += 1;
            }
        }
        if !needs_check && conflicting == 0 {
            return (None, Status::skip());
        }
        state.write(
            PluginName::VolumeRestrictions,
            PreFilterState {
                rwop_claims: Arc::new(rwop),
                conflicting_ref_count: conflicting,
            },
        );
        (None, Status::success())
    }

    fn has_pre_filter_extensions(&self) -> bool {
        true
    }

    fn add_pod(
        &self,
        _cx: &crate::framework::Ctx,
        state: &mut CycleState,
        _pod: &PodInfo,
        to_add: &Arc<PodInfo>,
        _node: &NodeInfo,
    ) -> Status {
        let Some(s) = state.read_mut::<PreFilterState>(PluginName::VolumeRestrictions) else {
            return Status::error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
        };
        s.conflicting_ref_count += s.refs_of(&to_add.pod);
        Status::success()
    }

    fn remove_pod(
        &self,
        _cx: &crate::framework::Ctx,
        state: &mut CycleState,
        _pod: &PodInfo,
        to_remove: &Arc<PodInfo>,
        _node: &NodeInfo,
    ) -> Status {
        let Some(s) = state.read_mut::<PreFilterState>(PluginName::VolumeRestrictions) else {
            return Status::error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
        };
        s.conflicting_ref_count -= s.refs_of(&to_remove.pod);
        Status::success()
    }

    fn filter(&self, _cx: &crate::framework::Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if !satisfy_volume_conflicts(&pod.pod, node.pods.iter().map(|p| &*p.pod)) {
            return Status::unschedulable(ERR_REASON_DISK_CONFLICT);
        }
        let Some(s) = state.read::<PreFilterState>(PluginName::VolumeRestrictions) else {
            return Status::error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
        };
        if s.conflicting_ref_count > 0 {
            return Status::unschedulable(ERR_REASON_RWOP_CONFLICT);
        }
        Status::success()
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::VolumeRestrictions,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::EnqueueExtensions]),
    short: "VolRestr",
    args: None,
    new: |_, _| Box::new(VolumeRestrictions),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        AwsElasticBlockStoreVolumeSource, GcePersistentDiskVolumeSource, IscsiVolumeSource, PersistentVolumeClaim, RbdVolumeSource,
    };
    use crate::framework::Code;
    use crate::plugins::testing::{pre_filter_then_filter, Env, MakeNode, MakePod};

    fn gce(name: &str, ro: bool) -> Volume {
        Volume {
            name: "v".into(),
            gce_persistent_disk: Some(GcePersistentDiskVolumeSource {
                pd_name: name.into(),
                read_only: Some(ro),
                ..Default::default()
            }),
            ..Default::default()
        }
    }
    fn ebs(id: &str) -> Volume {
        Volume {
            name: "v".into(),
            aws_elastic_block_store: Some(AwsElasticBlockStoreVolumeSource {
                volume_id: id.into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }
    fn iscsi(iqn: &str, ro: bool) -> Volume {
        Volume {
            name: "v".into(),
            iscsi: Some(IscsiVolumeSource {
                target_portal: "127.0.0.1:3260".into(),
                iqn: iqn.into(),
                lun: 0,
                read_only: Some(ro),
                ..Default::default()
            }),
            ..Default::default()
        }
    }
    fn rbd(mons: &[&str], pool: &str, image: &str, ro: bool) -> Volume {
        Volume {
            name: "v".into(),
            rbd: Some(RbdVolumeSource {
                monitors: mons.iter().map(|s| s.to_string()).collect(),
                image: image.into(),
                pool: Some(pool.into()),
                read_only: Some(ro),
                ..Default::default()
            }),
            ..Default::default()
        }
    }
    fn with_vol(name: &str, v: Volume) -> MakePod {
        let mut p = MakePod::new(name);
        p.pod.spec.volumes.push(v);
        p
    }
    fn pvc(name: &str, modes: &[&str]) -> Arc<PersistentVolumeClaim> {
        let mut c = PersistentVolumeClaim::default();
        c.metadata.name = name.into();
        c.metadata.namespace = Some("default".into());
        c.spec.access_modes = modes.iter().map(|s| s.to_string()).collect();
        Arc::new(c)
    }

    fn run(env: &Env, pod: &PodInfo, node: &str) -> Status {
        pre_filter_then_filter(&VolumeRestrictions, env, pod, node)
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn disk_conflicts() {
        let cases: Vec<(&str, Volume, Volume, bool)> = vec![
            ("gce same disk rw", gce("d", false), gce("d", false), false),
            ("gce same disk both ro", gce("d", true), gce("d", true), true),
            ("gce same disk one ro", gce("d", true), gce("d", false), false),
            ("gce other disk", gce("d", false), gce("e", false), true),
            ("ebs same id", ebs("vol-1"), ebs("vol-1"), false),
            ("ebs other id", ebs("vol-1"), ebs("vol-2"), true),
            ("iscsi same iqn", iscsi("iqn.a", false), iscsi("iqn.a", false), false),
            ("iscsi same iqn ro", iscsi("iqn.a", true), iscsi("iqn.a", true), true),
            ("iscsi other iqn", iscsi("iqn.a", false), iscsi("iqn.b", false), true),
            (
                "rbd overlap",
                rbd(&["m1", "m2"], "p", "i", false),
                rbd(&["m2"], "p", "i", false),
                false,
            ),
            ("rbd no overlap", rbd(&["m1"], "p", "i", false), rbd(&["m2"], "p", "i", false), true),
            (
                "rbd other image",
                rbd(&["m1"], "p", "i", false),
                rbd(&["m1"], "p", "j", false),
                true,
            ),
            ("rbd ro", rbd(&["m1"], "p", "i", true), rbd(&["m1"], "p", "i", true), true),
            ("different kinds", gce("d", false), ebs("d"), true),
        ];
        for (name, new, existing, want_ok) in cases {
            let env = Env::new(
                vec![MakeNode::new("n1").obj()],
                vec![with_vol("existing", existing).node("n1").obj()],
            );
            let pod = with_vol("new", new).info();
            let s = run(&env, &pod, "n1");
            assert_eq!(s.is_success(), want_ok, "{name}: {s:?}");
            if !want_ok {
                assert_eq!(s.code, Code::Unschedulable, "{name}");
                assert_eq!(s.message(), ERR_REASON_DISK_CONFLICT, "{name}");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_filter_skips_and_missing_claims() {
        let mut env = Env::new(vec![MakeNode::new("n1").obj()], vec![]);
        env.cluster.pvcs.insert("default/rwo".into(), pvc("rwo", &["ReadWriteOnce"]));
        let pl = VolumeRestrictions;
        let cases = [
            ("no volumes", MakePod::new("p").info(), Code::Skip, ""),
            ("unused rwo claim", MakePod::new("p").pvc("rwo").info(), Code::Skip, ""),
            (
                "missing claim",
                MakePod::new("p").pvc("nope").info(),
                Code::UnschedulableAndUnresolvable,
                "persistentvolumeclaim \"nope\" not found",
            ),
            ("inline disk", with_vol("p", gce("d", false)).info(), Code::Success, ""),
        ];
        for (name, pod, code, msg) in cases {
            let mut state = CycleState::new();
            let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod);
            assert_eq!(s.code, code, "{name}");
            assert_eq!(s.message(), msg, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn read_write_once_pod() {
        let mut env = Env::new(
            vec![MakeNode::new("n1").obj(), MakeNode::new("n2").obj()],
            vec![MakePod::new("owner").pvc("state").node("n1").obj()],
        );
        env.cluster.pvcs.insert("default/state".into(), pvc("state", &["ReadWriteOncePod"]));
        env.cluster.pvcs.insert("default/free".into(), pvc("free", &["ReadWriteOncePod"]));
        let pl = VolumeRestrictions;
        // In use anywhere: every node is rejected.
        let pod = MakePod::new("p").pvc("state").info();
        for n in ["n1", "n2"] {
            let s = run(&env, &pod, n);
            assert_eq!(s.code, Code::Unschedulable, "{n}");
            assert_eq!(s.message(), ERR_REASON_RWOP_CONFLICT);
        }
        // Unused RWOP claim: PreFilter skips.
        let free = MakePod::new("q").pvc("free").info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &free).1.is_skip());

        // Removing the owner (as preemption does) clears the conflict; adding it back restores it.
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &pod).1.is_success());
        let owner = env.node("n1").pods[0].clone();
        assert!(pl.remove_pod(&env.cx(), &mut state, &pod, &owner, env.node("n1")).is_success());
        assert!(pl.filter(&env.cx(), &state, &pod, env.node("n2")).is_success());
        assert!(pl.add_pod(&env.cx(), &mut state, &pod, &owner, env.node("n1")).is_success());
        assert!(!pl.filter(&env.cx(), &state, &pod, env.node("n2")).is_success());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn hints() {
        let env = Env::new(vec![MakeNode::new("n1").obj()], vec![]);
        let pl = VolumeRestrictions;
        let pod = with_vol("p", gce("d", false)).pvc("data").info();
        let del = |p: Pod| EventObject::Pod {
            old: Some(Arc::new(PodInfo::new(p, 1))),
            new: None,
        };
        let ev = ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE);
        let cases = [
            (
                "same disk",
                del(with_vol("o", gce("d", false)).node("n1").obj()),
                QueueingHint::Queue,
            ),
            (
                "same claim",
                del(MakePod::new("o").pvc("data").node("n1").obj()),
                QueueingHint::Queue,
            ),
            (
                "unrelated",
                del(MakePod::new("o").pvc("other").node("n1").obj()),
                QueueingHint::Skip,
            ),
            (
                "other namespace",
                del(MakePod::new("o").namespace("x").pvc("data").node("n1").obj()),
                QueueingHint::Skip,
            ),
        ];
        for (name, obj, want) in cases {
            assert_eq!(pl.queueing_hint(&env.cx(), &pod, ev, &obj).unwrap(), want, "{name}");
        }
        let pvc_ev = ClusterEvent::new(EventResource::PersistentVolumeClaim, ActionType::ADD);
        let add = |c: Arc<PersistentVolumeClaim>| EventObject::PersistentVolumeClaim { old: None, new: Some(c) };
        assert_eq!(
            pl.queueing_hint(&env.cx(), &pod, pvc_ev, &add(pvc("data", &[]))).unwrap(),
            QueueingHint::Queue
        );
        assert_eq!(
            pl.queueing_hint(&env.cx(), &pod, pvc_ev, &add(pvc("other", &[]))).unwrap(),
            QueueingHint::Skip
        );
    }
}
