//! NodeVolumeLimits (CSILimits): a node's CSINode caps how many volumes of each CSI driver it
//! can attach; the pod's new volumes plus those already used by the node's pods must fit.
//! In-tree volumes count under their CSI driver where the scheduler treats them as migrated.

use crate::api::{self, PersistentVolumeClaim, Pod};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, PreFilterResult, Status};
use crate::plugins::volume_util::{
    claim_of_volume, limits_migration_on, namespace_of, not_found, pvc_class, translate_inline, translate_pv, volume_is_for_pod,
    InTreePlugin,
};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use std::collections::{BTreeMap, HashMap};

pub const ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED: &str = "node(s) exceed max volume count";

/// Stands in for upstream's random per-process prefix of the handles given to claims that
/// are not bound yet (so they never collide with real volume handles).
const UNBOUND_HANDLE_PREFIX: &str = "schedlab0unbound0claim0handle000";

pub struct CsiLimits;

/// Why a pod's volumes could not be listed.
enum CountError {
    /// The claim does not exist (the pod cannot be scheduled until it does).
    NotFound(String),
    Other(String),
}

/// The CSI driver and volume handle a claim's volume is counted under, if any.
fn csi_info_for_claim(cx: &Ctx, csi_node: Option<&api::CsiNode>, pvc: &PersistentVolumeClaim) -> Option<(String, String)> {
    let pv_name = pvc.spec.volume_name.as_deref().unwrap_or("");
    if pv_name.is_empty() {
        return csi_info_from_class(cx, csi_node, pvc);
    }
    let Some(pv) = cx.cluster.pvs.get(pv_name) else {
        return csi_info_from_class(cx, csi_node, pvc);
    };
    if let Some(csi) = &pv.spec.csi {
        return Some((csi.driver.clone(), csi.volume_handle.clone()));
    }
    let plugin = InTreePlugin::of_pv(pv)?;
    if !limits_migration_on(plugin, csi_node) {
        return None;
    }
    let t = translate_pv(pv).ok()?;
    Some((t.csi.driver, t.csi.handle))
}

/// An unbound (or dangling) claim counts under its class's provisioner with a handle unique to
/// the claim.
fn csi_info_from_class(cx: &Ctx, csi_node: Option<&api::CsiNode>, pvc: &PersistentVolumeClaim) -> Option<(String, String)> {
    let class_name = pvc_class(pvc);
    if class_name.is_empty() {
        return None;
    }
    let class = cx.cluster.storage_classes.get(class_name)?;
    let handle = format!("{UNBOUND_HANDLE_PREFIX}-{}/{}", namespace_of(&pvc.metadata), pvc.metadata.name);
    if let Some(plugin) = InTreePlugin::by_name(&class.provisioner) {
        if !limits_migration_on(plugin, csi_node) {
            return None;
        }
        return Some((plugin.csi_driver().to_string(), handle));
    }
    Some((class.provisioner.clone(), handle))
}

/// Adds the pod's attachable volumes to `out` (unique name -> driver). For the pod being
/// scheduled (`new_pod`) a missing claim is an error; for running pods it is skipped.
fn attachable_volumes(
    cx: &Ctx,
    pod: &Pod,
    csi_node: Option<&api::CsiNode>,
    new_pod: bool,
    out: &mut HashMap<String, String>,
) -> Result<(), CountError> {
    let ns = namespace_of(&pod.metadata);
    for v in &pod.spec.volumes {
        let Some((claim_name, ephemeral)) = claim_of_volume(pod, v) else {
            // Inline volume: counted only when it is a migrated in-tree volume.
            let Some(plugin) = InTreePlugin::of_inline(v) else { continue };
            if !limits_migration_on(plugin, csi_node) {
                continue;
            }
            match translate_inline(v) {
                Ok(Some(src)) => {
                    out.insert(format!("{}/{}", src.driver, src.handle), src.driver);
                }
                Ok(None) => {}
                Err(e) => {
                    return Err(CountError::Other(format!("converting volume({}) from inline to csi: {e}", v.name)));
                }
            }
            continue;
        };
        if claim_name.is_empty() {
            return Err(CountError::Other("PersistentVolumeClaim had no name".into()));
        }
        let Some(pvc) = cx.cluster.pvc(ns, &claim_name) else {
            if new_pod {
                return Err(CountError::NotFound(format!(
                    "looking up PVC {ns}/{claim_name}: {}",
                    not_found("persistentvolumeclaim", &claim_name)
                )));
            }
            continue;
        };
        if ephemeral {
            volume_is_for_pod(pod, pvc).map_err(CountError::Other)?;
        }
        let Some((driver, handle)) = csi_info_for_claim(cx, csi_node, pvc) else {
            continue;
        };
        if driver.is_empty() || handle.is_empty() {
            continue;
        }
        out.insert(format!("{driver}/{handle}"), driver);
    }
    Ok(())
}

/// Whether the pod has a volume this plugin may count.
fn has_countable_volume(pod: &Pod) -> bool {
    pod.spec
        .volumes
        .iter()
        .any(|v| v.persistent_volume_claim.is_some() || v.ephemeral.is_some() || InTreePlugin::of_inline(v).is_some())
}

/// What Filter counts on one node, per CSI driver.
#[derive(Clone, Debug, PartialEq, Eq)]
enum VolumeCounts {
    /// The pod has no volume counted against a limit.
    NoNewVolumes,
    /// The node's CSINode sets no limit (the counts are the pod's new volumes).
    NoLimits { new: BTreeMap<String, i64> },
    /// Limits, volumes already attached for the node's pods, and the pod's volumes not yet
    /// attached there.
    Counted {
        limits: BTreeMap<String, i64>,
        attached: BTreeMap<String, i64>,
        new: BTreeMap<String, i64>,
    },
}

/// Counts the volumes Filter compares with the node's limits (Err: the status Filter returns
/// when the volumes cannot be listed).
fn volume_counts(cx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Result<VolumeCounts, Status> {
    if pod.pod.spec.volumes.is_empty() {
        return Ok(VolumeCounts::NoNewVolumes);
    }
    let csi_node = cx.cluster.csi_nodes.get(node.name());
    let mut new_volumes: HashMap<String, String> = HashMap::new();
    if let Err(e) = attachable_volumes(cx, &pod.pod, csi_node, true, &mut new_volumes) {
        return Err(match e {
            CountError::NotFound(m) => Status::unresolvable(m),
            CountError::Other(m) => Status::error(m),
        });
    }
    if new_volumes.is_empty() {
        return Ok(VolumeCounts::NoNewVolumes);
    }
    let per_driver = |volumes: &HashMap<String, String>| {
        let mut m: BTreeMap<String, i64> = BTreeMap::new();
        for driver in volumes.values() {
            *m.entry(driver.clone()).or_insert(0) += 1;
        }
        m
    };
    // Per-driver limits from the CSINode; a driver without a count is unlimited.
    let limits: BTreeMap<String, i64> = csi_node
        .map(|cn| crate::sort::map_of(cn.spec.drivers.iter().filter_map(|d| Some((d.name.clone(), d.allocatable.as_ref()?.count? as i64)))))
        .unwrap_or_default();
    if limits.is_empty() {
        return Ok(VolumeCounts::NoLimits {
            new: per_driver(&new_volumes),
        });
    }
    let mut attached: HashMap<String, String> = HashMap::new();
    for p in &node.pods {
        if let Err(e) = attachable_volumes(cx, &p.pod, csi_node, false, &mut attached) {
            let (CountError::NotFound(m) | CountError::Other(m)) = e;
            return Err(Status::error(m));
        }
    }
    // A volume already attached for another pod is not counted again.
    for unique in attached.keys() {
        new_volumes.remove(unique);
    }
    // VolumeAttachment objects are not part of the simulated cluster.
    Ok(VolumeCounts::Counted {
        limits,
        attached: per_driver(&attached),
        new: per_driver(&new_volumes),
    })
}

impl Plugin for CsiLimits {
    fn name(&self) -> PluginName {
        PluginName::NodeVolumeLimits
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::unhinted(EventResource::CSINode, ActionType::ADD),
            ClusterEventWithHint::hinted(EventResource::CSINode, ActionType::UPDATE),
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::DELETE),
            ClusterEventWithHint::hinted(EventResource::PersistentVolumeClaim, ActionType::ADD),
            ClusterEventWithHint::hinted(EventResource::VolumeAttachment, ActionType::DELETE),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::Pod { old, new } if event.action.intersects(ActionType::DELETE) => {
                let Some(deleted) = old.as_ref().or(new.as_ref()) else {
                    return Err("unexpected objects in isSchedulableAfterPodDeleted".into());
                };
                let d = &deleted.pod;
                if d.spec.volumes.is_empty() {
                    return Ok(QueueingHint::Skip);
                }
                if deleted.node_name().is_none() && deleted.nominated_node_name().is_none() {
                    return Ok(QueueingHint::Skip);
                }
                let relevant = d
                    .spec
                    .volumes
                    .iter()
                    .any(|v| v.persistent_volume_claim.is_some() || v.ephemeral.is_some() || InTreePlugin::of_inline(v).is_some());
                Ok(if relevant { QueueingHint::Queue } else { QueueingHint::Skip })
            }
            EventObject::PersistentVolumeClaim { new: Some(pvc), .. } => {
                if namespace_of(&pvc.metadata) != pod.namespace() {
                    return Ok(QueueingHint::Skip);
                }
                let wanted = pod
                    .pod
                    .spec
                    .volumes
                    .iter()
                    .filter_map(|v| claim_of_volume(&pod.pod, v))
                    .any(|(name, _)| name == pvc.metadata.name);
                Ok(if wanted { QueueingHint::Queue } else { QueueingHint::Skip })
            }
            // CSINode and VolumeAttachment objects are not carried by events here.
            _ => Ok(QueueingHint::Queue),
        }
    }

    fn pre_filter(&self, _cx: &Ctx, _state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        if has_countable_volume(&pod.pod) {
            return (None, Status::success());
        }
        (None, Status::skip())
    }

    fn filter(&self, cx: &Ctx, _state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        match volume_counts(cx, pod, node) {
            Err(s) => s,
            Ok(VolumeCounts::Counted { limits, attached, new }) => {
                for (driver, count) in new {
                    if let Some(&max) = limits.get(driver.as_str()) {
                        if attached.get(driver.as_str()).copied().unwrap_or(0) + count > max {
                            return Status::unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
                        }
                    }
                }
                Status::success()
            }
            Ok(_) => Status::success(),
        }
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::NodeVolumeLimits,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::EnqueueExtensions]),
    short: "VolLimits",
    args: None,
    new: |_, _| Box::new(CsiLimits),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        AwsElasticBlockStoreVolumeSource, CsiNode, CsiNodeDriver, CsiPersistentVolumeSource, PersistentVolume, StorageClass, Volume,
        VolumeNodeResources,
    };
    use crate::framework::Code;
    use crate::plugins::testing::{pre_filter_then_filter, Env, MakeNode, MakePod};
    use std::sync::Arc;

    const DRIVER: &str = "ebs.csi.example.com";

    fn csi_node(node: &str, drivers: &[(&str, Option<i32>)], migrated: &str) -> CsiNode {
        let mut cn = CsiNode::default();
        cn.metadata.name = node.into();
        if !migrated.is_empty() {
            cn.metadata
                .annotations
                .insert(crate::plugins::volume_util::ANN_MIGRATED_PLUGINS.into(), migrated.into());
        }
        cn.spec.drivers = drivers
            .iter()
            .map(|(d, c)| CsiNodeDriver {
                name: d.to_string(),
                node_id: node.into(),
                topology_keys: vec![],
                allocatable: c.map(|c| VolumeNodeResources { count: Some(c) }),
            })
            .collect();
        cn
    }
    fn csi_pv(name: &str, driver: &str) -> Arc<PersistentVolume> {
        let mut pv = PersistentVolume::default();
        pv.metadata.name = name.into();
        pv.spec.csi = Some(CsiPersistentVolumeSource {
            driver: driver.into(),
            volume_handle: format!("h-{name}"),
            ..Default::default()
        });
        Arc::new(pv)
    }
    fn ebs_pv(name: &str) -> Arc<PersistentVolume> {
        let mut pv = PersistentVolume::default();
        pv.metadata.name = name.into();
        pv.spec.aws_elastic_block_store = Some(AwsElasticBlockStoreVolumeSource {
            volume_id: format!("vol-{name}"),
            ..Default::default()
        });
        Arc::new(pv)
    }
    fn pvc(name: &str, pv: &str, class: &str) -> Arc<PersistentVolumeClaim> {
        let mut c = PersistentVolumeClaim::default();
        c.metadata.name = name.into();
        c.metadata.namespace = Some("default".into());
        c.spec.volume_name = (!pv.is_empty()).then(|| pv.to_string());
        c.spec.storage_class_name = (!class.is_empty()).then(|| class.to_string());
        Arc::new(c)
    }
    fn ebs_inline(id: &str) -> Volume {
        Volume {
            name: id.into(),
            aws_elastic_block_store: Some(AwsElasticBlockStoreVolumeSource {
                volume_id: id.into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// node n1 with existing pods using c1 and shared; claims c1..c3, shared, unbound (class
    /// csi), ebs (in-tree PV).
    fn env(limit: Option<i32>, extra_existing: Vec<Pod>) -> Env {
        let mut pods = vec![
            MakePod::new("e1").pvc("c1").node("n1").obj(),
            MakePod::new("e2").pvc("shared").node("n1").obj(),
        ];
        pods.extend(extra_existing);
        let mut env = Env::new(vec![MakeNode::new("n1").obj(), MakeNode::new("n2").obj()], pods);
        let c = &mut env.cluster;
        for n in ["c1", "c2", "c3", "shared"] {
            c.pvs.insert(format!("{n}-pv"), csi_pv(&format!("{n}-pv"), DRIVER));
            c.pvcs.insert(format!("default/{n}"), pvc(n, &format!("{n}-pv"), ""));
        }
        c.pvs.insert("other-pv".into(), csi_pv("other-pv", "other.csi"));
        c.pvcs.insert("default/other".into(), pvc("other", "other-pv", ""));
        c.pvcs.insert("default/unbound".into(), pvc("unbound", "", "csi"));
        c.pvs.insert("ebs-pv".into(), ebs_pv("ebs-pv"));
        c.pvcs.insert("default/ebs".into(), pvc("ebs", "ebs-pv", ""));
        let mut sc = StorageClass::default();
        sc.metadata.name = "csi".into();
        sc.provisioner = DRIVER.into();
        c.storage_classes.insert("csi".into(), sc);
        c.csi_nodes
            .insert("n1".into(), csi_node("n1", &[(DRIVER, limit), ("ebs.csi.aws.com", Some(1))], ""));
        env
    }

    fn run(env: &Env, pod: &PodInfo, node: &str) -> Status {
        pre_filter_then_filter(&CsiLimits, env, pod, node)
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn limits_table() {
        let cases: Vec<(&str, Option<i32>, MakePod, &str, Code)> = vec![
            (
                "third volume exceeds 2",
                Some(2),
                MakePod::new("p").pvc("c2"),
                "n1",
                Code::Unschedulable,
            ),
            ("fits under 3", Some(3), MakePod::new("p").pvc("c2"), "n1", Code::Success),
            (
                "shared volume counted once",
                Some(2),
                MakePod::new("p").pvc("shared"),
                "n1",
                Code::Success,
            ),
            (
                "two new volumes exceed 3",
                Some(3),
                MakePod::new("p").pvc("c2").pvc("c3"),
                "n1",
                Code::Unschedulable,
            ),
            (
                "no limit for driver",
                None,
                MakePod::new("p").pvc("c2").pvc("c3"),
                "n1",
                Code::Success,
            ),
            (
                "other driver unlimited",
                Some(2),
                MakePod::new("p").pvc("other"),
                "n1",
                Code::Success,
            ),
            ("no CSINode", Some(0), MakePod::new("p").pvc("c2"), "n2", Code::Success),
            (
                "unbound claim counts by class",
                Some(2),
                MakePod::new("p").pvc("unbound"),
                "n1",
                Code::Unschedulable,
            ),
            (
                "missing claim",
                Some(2),
                MakePod::new("p").pvc("nope"),
                "n1",
                Code::UnschedulableAndUnresolvable,
            ),
        ];
        for (name, limit, pod, node, want) in cases {
            let env = env(limit, vec![]);
            let s = run(&env, &pod.info(), node);
            assert_eq!(s.code, want, "{name}: {s:?}");
            if want == Code::Unschedulable {
                assert_eq!(s.message(), ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, "{name}");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn migrated_in_tree_volumes() {
        // The AWS EBS limit on n1 is 1: an existing inline EBS disk fills it.
        let mut existing = MakePod::new("e3").node("n1");
        existing.pod.spec.volumes.push(ebs_inline("vol-a"));
        let env = env(Some(10), vec![existing.obj()]);
        let mut pod = MakePod::new("p");
        pod.pod.spec.volumes.push(ebs_inline("vol-b"));
        assert_eq!(run(&env, &pod.clone().info(), "n1").code, Code::Unschedulable);
        // The same disk again is already attached.
        let mut same = MakePod::new("p");
        same.pod.spec.volumes.push(ebs_inline("vol-a"));
        assert!(run(&env, &same.info(), "n1").is_success());
        // An in-tree EBS PV counts under the EBS CSI driver too.
        assert_eq!(run(&env, &MakePod::new("p").pvc("ebs").info(), "n1").code, Code::Unschedulable);
        // Without a CSINode nothing is migrated, so nothing is counted.
        assert!(run(&env, &pod.info(), "n2").is_success());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_filter_skips_pods_without_volumes() {
        let env = env(Some(1), vec![]);
        let mut state = CycleState::new();
        assert!(CsiLimits.pre_filter(&env.cx(), &mut state, &MakePod::new("p").info()).1.is_skip());
        let mut emptydir = MakePod::new("p");
        emptydir.pod.spec.volumes.push(Volume {
            name: "tmp".into(),
            empty_dir: Some(Box::new(serde_json::json!({}))),
            ..Default::default()
        });
        assert!(CsiLimits.pre_filter(&env.cx(), &mut state, &emptydir.info()).1.is_skip());
        assert!(CsiLimits
            .pre_filter(&env.cx(), &mut state, &MakePod::new("p").pvc("c1").info())
            .1
            .is_success());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn hints() {
        let env = env(Some(1), vec![]);
        let pod = MakePod::new("p").pvc("c2").info();
        let ev = ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE);
        let del = |p: Pod| EventObject::Pod {
            old: Some(Arc::new(PodInfo::new(p, 1))),
            new: None,
        };
        let h = |o: &EventObject| CsiLimits.queueing_hint(&env.cx(), &pod, ev, o).unwrap();
        assert_eq!(h(&del(MakePod::new("d").pvc("x").node("n1").obj())), QueueingHint::Queue);
        assert_eq!(h(&del(MakePod::new("d").node("n1").obj())), QueueingHint::Skip);
        assert_eq!(h(&del(MakePod::new("d").pvc("x").obj())), QueueingHint::Skip);
        let pvc_ev = ClusterEvent::new(EventResource::PersistentVolumeClaim, ActionType::ADD);
        let add = |n: &str| EventObject::PersistentVolumeClaim {
            old: None,
            new: Some(pvc(n, "", "")),
        };
        assert_eq!(
            CsiLimits.queueing_hint(&env.cx(), &pod, pvc_ev, &add("c2")).unwrap(),
            QueueingHint::Queue
        );
        assert_eq!(
            CsiLimits.queueing_hint(&env.cx(), &pod, pvc_ev, &add("c9")).unwrap(),
            QueueingHint::Skip
        );
    }
}
