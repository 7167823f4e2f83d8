//! The apiserver's defaulting and admission for scenario objects (see the conformance README).

use super::{LoadError, LoadErrors, Scenario};
use crate::api;
use std::collections::BTreeSet;

const BUILTIN_NAMESPACES: [&str; 4] = ["default", "kube-system", "kube-public", "kube-node-lease"];
pub const SYSTEM_NODE_CRITICAL: i32 = 2_000_001_000;
pub const SYSTEM_CLUSTER_CRITICAL: i32 = 2_000_000_000;

fn meta_uid(kind: &str, ns: &str, name: &str) -> String {
    format!("uid-{}-{}-{}", kind.to_lowercase(), ns, name)
}

pub(super) fn apply(sc: &mut Scenario, errs: &mut LoadErrors) {
    // PriorityClasses that always exist.
    for (name, value) in [
        ("system-node-critical", SYSTEM_NODE_CRITICAL),
        ("system-cluster-critical", SYSTEM_CLUSTER_CRITICAL),
    ] {
        sc.cluster
            .priority_classes
            .entry(name.to_string())
            .or_insert_with(|| api::PriorityClass {
                api_version: "scheduling.k8s.io/v1".into(),
                kind: "PriorityClass".into(),
                metadata: api::ObjectMeta {
                    name: name.into(),
                    ..Default::default()
                },
                value,
                ..Default::default()
            });
    }
    for pc in sc.cluster.priority_classes.values_mut() {
        if pc.preemption_policy.is_none() {
            pc.preemption_policy = Some("PreemptLowerPriority".into());
        }
        pc.metadata
            .uid
            .get_or_insert_with(|| meta_uid("PriorityClass", "", &pc.metadata.name));
    }
    // The global default class: the lowest value if several claim it.
    let global_default = sc
        .cluster
        .priority_classes
        .values()
        .filter(|pc| pc.global_default)
        .min_by_key(|pc| pc.value)
        .map(|pc| (pc.value, pc.preemption_policy.clone()));

    // Nodes: allocatable defaults to capacity.
    for n in &mut sc.nodes {
        for (k, v) in n.status.capacity.clone() {
            n.status.allocatable.entry(k).or_insert(v);
        }
        n.metadata.uid.get_or_insert_with(|| meta_uid("Node", "", &n.metadata.name));
    }

    let mut referenced: BTreeSet<String> = BTreeSet::new();
    for (i, p) in sc.pods.iter_mut().enumerate() {
        let ns = p.metadata.namespace.get_or_insert_with(|| "default".into()).clone();
        referenced.insert(ns.clone());
        p.metadata.uid.get_or_insert_with(|| meta_uid("Pod", &ns, &p.metadata.name));
        if p.spec.scheduler_name.as_deref().is_none_or(str::is_empty) {
            p.spec.scheduler_name = Some(crate::config::DEFAULT_SCHEDULER_NAME.into());
        }
        // Requests default to limits, per container.
        for c in p.spec.containers.iter_mut().chain(p.spec.init_containers.iter_mut()) {
            for (k, v) in c.resources.limits.clone() {
                c.resources.requests.entry(k).or_insert(v);
            }
            // hostNetwork pods: hostPort defaults to containerPort.
            for port in &mut c.ports {
                if p.spec.host_network == Some(true) && port.host_port.unwrap_or(0) == 0 {
                    port.host_port = Some(port.container_port);
                }
                if port.protocol.is_none() {
                    port.protocol = Some("TCP".into());
                }
            }
        }
        if let Some(r) = &mut p.spec.resources {
            for (k, v) in r.limits.clone() {
                r.requests.entry(k).or_insert(v);
            }
        }
        // Priority admission.
        match p.spec.priority_class_name.as_deref().filter(|s| !s.is_empty()) {
            Some(name) => match sc.cluster.priority_classes.get(name) {
                Some(pc) => {
                    p.spec.priority = Some(pc.value);
                    if p.spec.preemption_policy.is_none() {
                        p.spec.preemption_policy = pc.preemption_policy.clone();
                    }
                }
                None => {
                    let mut e = LoadError::at(0, 0, format!("no PriorityClass with name {name} was found"));
                    e.object = Some(format!("Pod/{}", p.metadata.name));
                    e.field = Some("spec.priorityClassName".into());
                    errs.push(e);
                }
            },
            None => {
                if let Some((v, policy)) = &global_default {
                    p.spec.priority = Some(*v);
                    if p.spec.preemption_policy.is_none() {
                        p.spec.preemption_policy = policy.clone();
                    }
                } else if p.spec.priority.is_none() {
                    p.spec.priority = Some(0);
                }
            }
        }
        if p.spec.preemption_policy.is_none() {
            p.spec.preemption_policy = Some("PreemptLowerPriority".into());
        }
        let _ = i;
    }
    for pvc in sc.cluster.pvcs.values() {
        referenced.insert(pvc.metadata.namespace.clone().unwrap_or_else(|| "default".into()));
    }
    volume_defaults(&mut sc.cluster);
    for pdb in &mut sc.cluster.pdbs {
        let ns = pdb.metadata.namespace.get_or_insert_with(|| "default".into()).clone();
        referenced.insert(ns);
    }
    // Namespaces: built-ins, declared, referenced; each labelled with its name.
    for n in BUILTIN_NAMESPACES.iter().map(|s| s.to_string()).chain(referenced) {
        sc.cluster.namespaces.entry(n.clone()).or_insert_with(|| api::Namespace {
            api_version: "v1".into(),
            kind: "Namespace".into(),
            metadata: api::ObjectMeta {
                name: n.clone(),
                ..Default::default()
            },
            ..Default::default()
        });
    }
    for ns in sc.cluster.namespaces.values_mut() {
        ns.metadata
            .labels
            .insert("kubernetes.io/metadata.name".into(), ns.metadata.name.clone());
        ns.metadata.uid.get_or_insert_with(|| meta_uid("Namespace", "", &ns.metadata.name));
    }
}

/// Volume objects as the simulated cluster holds them (conformance README, "Volumes"): a PV
/// without a claimRef is Available, one with a claimRef is Bound; a PVC naming a volume is
/// bound (the PV controller's bind-completed annotation and phase); StorageClasses get the
/// apiserver's defaults (Immediate binding, Delete reclaim policy).
fn volume_defaults(cluster: &mut crate::cluster::Cluster) {
    for pv in cluster.pvs.values_mut() {
        let pv = std::sync::Arc::make_mut(pv);
        pv.metadata
            .uid
            .get_or_insert_with(|| meta_uid("PersistentVolume", "", &pv.metadata.name));
        if pv.status.phase.as_deref().is_none_or(str::is_empty) {
            pv.status.phase = Some(if pv.spec.claim_ref.is_some() { "Bound" } else { "Available" }.into());
        }
    }
    for pvc in cluster.pvcs.values_mut() {
        let pvc = std::sync::Arc::make_mut(pvc);
        let ns = pvc.metadata.namespace.get_or_insert_with(|| "default".into()).clone();
        pvc.metadata
            .uid
            .get_or_insert_with(|| meta_uid("PersistentVolumeClaim", &ns, &pvc.metadata.name));
        if pvc.spec.volume_name.as_deref().is_some_and(|v| !v.is_empty()) {
            pvc.metadata
                .annotations
                .entry("pv.kubernetes.io/bind-completed".into())
                .or_insert_with(|| "yes".into());
            if pvc.status.phase.as_deref().is_none_or(str::is_empty) {
                pvc.status.phase = Some("Bound".into());
            }
        } else if pvc.status.phase.as_deref().is_none_or(str::is_empty) {
            pvc.status.phase = Some("Pending".into());
        }
    }
    for class in cluster.storage_classes.values_mut() {
        class
            .metadata
            .uid
            .get_or_insert_with(|| meta_uid("StorageClass", "", &class.metadata.name));
        if class.volume_binding_mode.as_deref().is_none_or(str::is_empty) {
            class.volume_binding_mode = Some("Immediate".into());
        }
        if class.reclaim_policy.as_deref().is_none_or(str::is_empty) {
            class.reclaim_policy = Some("Delete".into());
        }
    }
}
