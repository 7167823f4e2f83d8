//! The apiserver's defaulting and admission for scenario objects (see the conformance README):
//! per-object defaults applied right after decoding (before validation, as the apiserver
//! does), then the cluster-wide steps once every object is known: priority admission,
//! namespaces, volume binding status.

use super::{ErrorReason, LoadError, LoadErrors, Scenario};
use crate::api::{self, LabelSelector, LabelSelectorRequirement, ObjectMeta, PodAffinityTerm};
use std::collections::BTreeSet;
use std::sync::Arc;

const BUILTIN_NAMESPACES: [&str; 4] = ["default", "kube-system", "kube-public", "kube-node-lease"];
pub const SYSTEM_NODE_CRITICAL: i32 = 2_000_001_000;
pub const SYSTEM_CLUSTER_CRITICAL: i32 = 2_000_000_000;
const PREEMPT_LOWER: &str = "PreemptLowerPriority";
/// 2025-01-01T00:00:00Z in seconds since the Unix epoch: the time of document 0.
const BASE_TIME: i64 = 1_735_689_600;

/// `uid-<kind>-<namespace>-<name>`, the namespace part empty for cluster-scoped objects.
/// (Made for every object loaded: built in one allocation, without the formatter.)
pub(crate) fn uid(kind: &str, ns: &str, name: &str) -> String {
    let mut s = String::with_capacity(6 + kind.len() + ns.len() + name.len());
    s.push_str("uid-");
    if kind.is_ascii() {
        s.push_str(kind);
        s[4..].make_ascii_lowercase();
    } else {
        s.push_str(&kind.to_lowercase());
    }
    s.push('-');
    s.push_str(ns);
    s.push('-');
    s.push_str(name);
    s
}

/// 2025-01-01T00:00:00Z plus `doc` seconds, RFC 3339. (Made for every object loaded: written
/// digit by digit, without the formatter. The time is never before 1970, so no sign.)
pub(crate) fn timestamp(doc: usize) -> String {
    let t = BASE_TIME + doc as i64;
    let (days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let mut out = String::with_capacity(20);
    if y > 9999 {
        // Past four digits: as many as it takes (as the formatter pads), and rarely.
        out.push_str(&(y / 10_000).to_string());
    }
    let y = y % 10_000;
    // Two digits each, by constant divisors (multiplications, not divisions).
    let two = |out: &mut String, v: i64, then: char| {
        out.push(char::from(b'0' + (v / 10 % 10) as u8));
        out.push(char::from(b'0' + (v % 10) as u8));
        out.push(then);
    };
    out.push(char::from(b'0' + (y / 1000) as u8));
    out.push(char::from(b'0' + (y / 100 % 10) as u8));
    two(&mut out, y, '-');
    two(&mut out, m, '-');
    two(&mut out, d, 'T');
    two(&mut out, secs / 3600, ':');
    two(&mut out, secs / 60 % 60, ':');
    two(&mut out, secs % 60, 'Z');
    out
}

/// Identity the apiserver gives every created object: UID and creation time (anything the
/// file says there is replaced, as the apiserver replaces it); cluster-scoped objects lose any
/// namespace, namespaced ones default to `default`; ownerReferences without a uid get the
/// owner's UID under the same scheme.
pub(crate) fn stamp(meta: &mut ObjectMeta, kind: &str, namespaced: bool, doc: usize) {
    if namespaced {
        if meta.namespace.as_deref().is_none_or(str::is_empty) {
            meta.namespace = Some("default".into());
        }
    } else {
        meta.namespace = None;
    }
    meta.uid = Some(uid(kind, meta.namespace.as_deref().unwrap_or(""), &meta.name));
    meta.creation_timestamp = Some(Box::new(serde_json::Value::String(timestamp(doc))));
    default_owner_uids(meta);
}

fn requests_from_limits(r: &mut api::ResourceRequirements) {
    for (k, v) in &r.limits {
        r.requests.entry(k.clone()).or_insert(*v);
    }
}

/// The pull policy the apiserver picks: `Always` for `:latest` or untagged images.
fn image_pull_policy(image: &str) -> &'static str {
    if image.contains('@') {
        return "IfNotPresent";
    }
    let last = image.rsplit('/').next().unwrap_or(image);
    match last.rsplit_once(':') {
        Some((_, tag)) if tag != "latest" => "IfNotPresent",
        _ => "Always",
    }
}

pub(crate) fn default_pod(p: &mut api::Pod, doc: usize) {
    stamp(&mut p.metadata, "Pod", true, doc);
    default_pod_spec(p);
    merge_match_label_keys(p);
    if p.status.phase.as_deref().is_none_or(str::is_empty) {
        let running = p.spec.node_name.as_deref().is_some_and(|n| !n.is_empty());
        p.status.phase = Some(if running { "Running" } else { "Pending" }.into());
    }
    if p.status.phase.as_deref() == Some("Running") && p.spec.node_name.as_deref().is_some_and(|n| !n.is_empty()) {
        // Running pods started when their document was created: earlier documents are older.
        p.status.start_time = Some(Box::new(serde_json::Value::String(timestamp(doc))));
    }
}

/// An ownerReference without a uid gets the owner's UID under the UID scheme (the owner is
/// taken to live in the object's namespace).
fn default_owner_uids(meta: &mut ObjectMeta) {
    let ns = meta.namespace.clone().unwrap_or_default();
    for o in &mut meta.owner_references {
        if o.uid.is_empty() && !o.kind.is_empty() && !o.name.is_empty() {
            o.uid = uid(&o.kind, &ns, &o.name);
        }
    }
}

/// The defaults of a pod's spec (SetDefaults_PodSpec and the containers'), also applied to the
/// pod templates of workload objects.
pub(crate) fn default_pod_spec(p: &mut api::Pod) {
    let s = &mut p.spec;
    if s.scheduler_name.as_deref().is_none_or(str::is_empty) {
        s.scheduler_name = Some(crate::config::DEFAULT_SCHEDULER_NAME.into());
    }
    if s.restart_policy.as_deref().is_none_or(str::is_empty) {
        s.restart_policy = Some("Always".into());
    }
    if s.dns_policy.as_deref().is_none_or(str::is_empty) {
        s.dns_policy = Some("ClusterFirst".into());
    }
    s.termination_grace_period_seconds.get_or_insert(30);
    s.enable_service_links.get_or_insert(true);
    s.security_context.get_or_insert_with(|| Box::new(serde_json::json!({})));
    let host_network = s.host_network == Some(true);
    for c in s.containers.iter_mut().chain(s.init_containers.iter_mut()) {
        requests_from_limits(&mut c.resources);
        for port in &mut c.ports {
            if port.protocol.as_deref().is_none_or(str::is_empty) {
                port.protocol = Some("TCP".into());
            }
            if host_network && port.host_port.unwrap_or(0) == 0 {
                port.host_port = Some(port.container_port);
            }
        }
        if c.termination_message_path.as_deref().is_none_or(str::is_empty) {
            c.termination_message_path = Some("/dev/termination-log".into());
        }
        if c.termination_message_policy.as_deref().is_none_or(str::is_empty) {
            c.termination_message_policy = Some("File".into());
        }
        if c.image_pull_policy.as_deref().is_none_or(str::is_empty) {
            if let Some(img) = c.image.as_deref().filter(|i| !i.is_empty()) {
                c.image_pull_policy = Some(image_pull_policy(img).into());
            }
        }
    }
    default_pod_level_resources(p);
}

fn is_pod_level_resource(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with("hugepages-")
}

/// Pod-level resources (PodLevelResources, on in v1.34): when limits are given, hugepage
/// limits default to the containers' total and requests to the containers' total or else to
/// the pod-level limit.
fn default_pod_level_resources(p: &mut api::Pod) {
    let Some(r) = &p.spec.resources else { return };
    if r.limits.is_empty() && r.requests.is_empty() {
        return;
    }
    let mut bare = api::Pod::default();
    bare.spec.containers = p.spec.containers.clone();
    bare.spec.init_containers = p.spec.init_containers.clone();
    let aggr_reqs = crate::framework::pod_requests(&bare, None);
    // Aggregate limits: the same rule applied to limits.
    for c in bare.spec.containers.iter_mut().chain(bare.spec.init_containers.iter_mut()) {
        c.resources.requests = c.resources.limits.clone();
    }
    let aggr_lims = crate::framework::pod_requests(&bare, None);
    let r = p.spec.resources.as_mut().expect("checked above");
    for (k, v) in &aggr_lims {
        if k.starts_with("hugepages-") && !r.requests.contains_key(k) {
            r.limits.entry(k.clone()).or_insert(*v);
        }
    }
    if r.limits.is_empty() {
        return;
    }
    for (k, v) in &aggr_reqs {
        if is_pod_level_resource(k) && super::validate::is_overcommit_allowed(k) && !r.requests.contains_key(k) {
            r.requests.insert(k.clone(), *v);
        }
    }
    for (k, v) in r.limits.clone() {
        if is_pod_level_resource(&k) {
            r.requests.entry(k).or_insert(v);
        }
    }
}

/// What the apiserver does on pod creation with matchLabelKeys / mismatchLabelKeys: each key
/// the pod has becomes an `In` (or `NotIn`) requirement of the term's labelSelector (pod
/// (anti-)affinity, and topology spread constraints with v1.34's selector merge).
fn merge_match_label_keys(p: &mut api::Pod) {
    // Read beside the spec's selectors, which are written: disjoint fields, no copy.
    let labels = &p.metadata.labels;
    let add = |sel: &mut LabelSelector, keys: &[String], op: &str| {
        for k in keys {
            if let Some(v) = labels.get(k) {
                sel.match_expressions.push(LabelSelectorRequirement {
                    key: k.clone(),
                    operator: op.into(),
                    values: vec![v.clone()],
                });
            }
        }
    };
    let term = |t: &mut PodAffinityTerm| {
        if t.match_label_keys.is_empty() && t.mismatch_label_keys.is_empty() {
            return;
        }
        if let Some(sel) = t.label_selector.as_mut() {
            add(sel, &t.match_label_keys, "In");
            add(sel, &t.mismatch_label_keys, "NotIn");
        }
    };
    if let Some(a) = p.spec.affinity.as_mut() {
        for pa in [a.pod_affinity.as_mut(), a.pod_anti_affinity.as_mut()].into_iter().flatten() {
            pa.required_during_scheduling_ignored_during_execution.iter_mut().for_each(term);
            pa.preferred_during_scheduling_ignored_during_execution
                .iter_mut()
                .for_each(|w| term(&mut w.pod_affinity_term));
        }
    }
    for c in &mut p.spec.topology_spread_constraints {
        if let Some(sel) = c.label_selector.as_mut() {
            add(sel, &c.match_label_keys, "In");
        }
    }
}

pub(super) fn default_node(n: &mut api::Node, doc: usize) {
    stamp(&mut n.metadata, "Node", false, doc);
    if n.status.allocatable.is_empty() {
        n.status.allocatable = n.status.capacity.clone();
    }
}

pub(super) fn default_namespace(ns: &mut api::Namespace, doc: usize) {
    stamp(&mut ns.metadata, "Namespace", false, doc);
    if !ns.metadata.name.is_empty() {
        ns.metadata
            .labels
            .insert("kubernetes.io/metadata.name".into(), ns.metadata.name.clone());
    }
}

pub(super) fn default_priority_class(pc: &mut api::PriorityClass, doc: usize) {
    stamp(&mut pc.metadata, "PriorityClass", false, doc);
    if pc.preemption_policy.is_none() {
        pc.preemption_policy = Some(PREEMPT_LOWER.into());
    }
}

pub(super) fn default_pv(pv: &mut api::PersistentVolume, doc: usize) {
    stamp(&mut pv.metadata, "PersistentVolume", false, doc);
    if pv.spec.persistent_volume_reclaim_policy.as_deref().is_none_or(str::is_empty) {
        pv.spec.persistent_volume_reclaim_policy = Some("Retain".into());
    }
    pv.spec.volume_mode.get_or_insert_with(|| "Filesystem".into());
}

pub(crate) fn default_pvc(pvc: &mut api::PersistentVolumeClaim, doc: usize) {
    stamp(&mut pvc.metadata, "PersistentVolumeClaim", true, doc);
    pvc.spec.volume_mode.get_or_insert_with(|| "Filesystem".into());
}

pub(super) fn default_storage_class(s: &mut api::StorageClass, doc: usize) {
    stamp(&mut s.metadata, "StorageClass", false, doc);
    if s.reclaim_policy.as_deref().is_none_or(str::is_empty) {
        s.reclaim_policy = Some("Delete".into());
    }
    s.volume_binding_mode.get_or_insert_with(|| "Immediate".into());
}

pub(super) fn default_csi_node(n: &mut api::CsiNode, doc: usize) {
    stamp(&mut n.metadata, "CSINode", false, doc);
}

pub(super) fn default_csi_driver(d: &mut api::CsiDriver, doc: usize) {
    stamp(&mut d.metadata, "CSIDriver", false, doc);
    let s = &mut d.spec;
    s.attach_required.get_or_insert(true);
    s.pod_info_on_mount.get_or_insert(false);
    s.storage_capacity.get_or_insert(false);
    s.requires_republish.get_or_insert(false);
    s.se_linux_mount.get_or_insert(false);
    s.fs_group_policy.get_or_insert_with(|| "ReadWriteOnceWithFSType".into());
    s.volume_lifecycle_modes.get_or_insert_with(|| vec!["Persistent".into()]);
}

pub(super) fn default_pdb(pdb: &mut api::PodDisruptionBudget, doc: usize) {
    stamp(&mut pdb.metadata, "PodDisruptionBudget", true, doc);
}

/// A policy/v1beta1 PodDisruptionBudget as the apiserver stores it: served back as policy/v1,
/// where an empty selector would select every pod, while in v1beta1 it selects none. The
/// apiserver keeps the v1beta1 meaning with a requirement no pod satisfies in practice.
pub(super) fn convert_pdb_v1beta1(pdb: &mut api::PodDisruptionBudget) {
    if let Some(sel) = pdb.spec.selector.as_mut() {
        if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
            sel.match_expressions.push(LabelSelectorRequirement {
                key: "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match".into(),
                operator: "Exists".into(),
                values: Vec::new(),
            });
        }
    }
    pdb.api_version = "policy/v1".into();
}

/// The built-in PriorityClasses, as the apiserver creates them.
fn system_class(name: &str, value: i32) -> api::PriorityClass {
    let mut pc = api::PriorityClass {
        api_version: "scheduling.k8s.io/v1".into(),
        kind: "PriorityClass".into(),
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        value,
        description: Some("Used for system critical pods that must not be moved from their current node.".into()),
        ..Default::default()
    };
    default_priority_class(&mut pc, 0);
    pc
}

/// Where a pod's fields are in the file, for admission errors.
#[derive(Clone, Debug, Default)]
pub(super) struct PodOrigin {
    pub doc: usize,
    pub root: (usize, usize),
    pub priority_class_name: Option<(usize, usize)>,
    pub priority: Option<(usize, usize)>,
    pub preemption_policy: Option<(usize, usize)>,
}

fn forbidden(pod: &api::Pod, o: &PodOrigin, at: Option<(usize, usize)>, field: &str, why: String) -> LoadError {
    let (line, column) = at.unwrap_or(o.root);
    let mut e = LoadError::at(line, column, format!("pods {:?} is forbidden: {why}", pod.metadata.name)).with_reason(ErrorReason::Rejected);
    e.object = Some(format!("Pod/{}", pod.metadata.name));
    e.field = Some(field.into());
    e.document = Some(o.doc);
    e
}

/// The cluster-wide steps, once every object is decoded, defaulted and valid.
pub(super) fn apply(sc: &mut Scenario, origins: &[PodOrigin], errs: &mut LoadErrors) {
    for (name, value) in [
        ("system-node-critical", SYSTEM_NODE_CRITICAL),
        ("system-cluster-critical", SYSTEM_CLUSTER_CRITICAL),
    ] {
        sc.cluster
            .priority_classes
            .entry(name.to_string())
            .or_insert_with(|| system_class(name, value));
    }
    // Priority admission.
    for (p, o) in sc.pods.iter_mut().zip(origins) {
        admit_priority_at(Arc::make_mut(p), o, &sc.cluster.priority_classes, errs);
    }

    bind_claims(sc);

    // Namespaces: built-ins, declared, referenced; each labelled with its name.
    // Thousands of pods name a handful of namespaces: each copied once.
    let mut referenced: BTreeSet<String> = BTreeSet::new();
    let pods = sc.pods.iter().map(|p| &p.metadata);
    let pvcs = sc.cluster.pvcs.values().map(|p| &p.metadata);
    let pdbs = sc.cluster.pdbs.iter().map(|p| &p.metadata);
    for ns in pods.chain(pvcs).chain(pdbs).filter_map(|m| m.namespace.as_deref()) {
        if !referenced.contains(ns) {
            referenced.insert(ns.to_string());
        }
    }
    referenced.extend(super::workloads::namespaces(&sc.cluster.workloads));
    for n in BUILTIN_NAMESPACES.iter().map(|s| s.to_string()).chain(referenced) {
        ensure_namespace(&mut sc.cluster, &n);
    }
}

/// Creates the namespace (labelled with its name, created at time 0) unless it exists.
pub(super) fn ensure_namespace(cluster: &mut crate::cluster::Cluster, n: &str) {
    cluster.namespaces.entry(n.to_string()).or_insert_with(|| {
        let mut ns = api::Namespace {
            api_version: "v1".into(),
            kind: "Namespace".into(),
            metadata: ObjectMeta {
                name: n.to_string(),
                ..Default::default()
            },
            ..Default::default()
        };
        default_namespace(&mut ns, 0);
        ns
    });
}

/// Priority admission of a document's pod: refusals are reported at the pod's field. Returns
/// whether the pod was admitted.
pub(super) fn admit_priority_at(
    p: &mut api::Pod,
    o: &PodOrigin,
    classes: &std::collections::BTreeMap<String, api::PriorityClass>,
    errs: &mut LoadErrors,
) -> bool {
    match admit_priority(p, classes) {
        Ok(()) => true,
        Err((field, why)) => {
            let at = match field {
                "spec.priorityClassName" => o.priority_class_name,
                "spec.priority" => o.priority,
                _ => o.preemption_policy,
            };
            errs.push(forbidden(p, o, at, field, why));
            false
        }
    }
}

/// The Priority admission plugin on pod creation: `priorityClassName` (or the global default
/// class, the lowest value if several claim it) sets `spec.priority` and
/// `spec.preemptionPolicy`. Refusals give the field and the apiserver's reason.
pub(crate) fn admit_priority(
    p: &mut api::Pod,
    classes: &std::collections::BTreeMap<String, api::PriorityClass>,
) -> Result<(), (&'static str, String)> {
    let (class, value, policy) = match p.spec.priority_class_name.as_deref().filter(|s| !s.is_empty()) {
        Some(name) => match classes.get(name) {
            Some(pc) => (name.to_string(), pc.value, pc.preemption_policy.clone()),
            None => {
                return Err(("spec.priorityClassName", format!("no PriorityClass with name {name} was found")));
            }
        },
        None => match classes.values().filter(|pc| pc.global_default).min_by_key(|pc| pc.value) {
            Some(pc) => (pc.metadata.name.clone(), pc.value, pc.preemption_policy.clone()),
            None => {
                // No class applies. The real admission plugin would refuse an explicit
                // priority other than 0 here; the simulated cluster keeps what the pod says
                // (0 and PreemptLowerPriority when it says nothing).
                p.spec.priority.get_or_insert(0);
                p.spec.preemption_policy.get_or_insert_with(|| PREEMPT_LOWER.to_string());
                return Ok(());
            }
        },
    };
    if let Some(given) = p.spec.priority.filter(|&g| g != value) {
        let why = format!(
            "the integer value of priority ({given}) must not be provided in pod spec; priority admission controller computed {value} from the given PriorityClass name"
        );
        return Err(("spec.priority", why));
    }
    if let (Some(given), Some(computed)) = (p.spec.preemption_policy.as_deref(), policy.as_deref()) {
        if given != computed {
            let why = format!(
                "the string value of PreemptionPolicy ({given}) must not be provided in pod spec; priority admission controller computed {computed} from the given PriorityClass name"
            );
            return Err(("spec.preemptionPolicy", why));
        }
    }
    if !class.is_empty() {
        p.spec.priority_class_name = Some(class);
    }
    p.spec.priority = Some(value);
    if policy.is_some() {
        p.spec.preemption_policy = policy;
    }
    Ok(())
}

/// Volume objects as the simulated cluster holds them (conformance README, "Volumes"): a PVC
/// naming a volume is bound (phase, the PV controller's bind-completed annotation, status from
/// the volume), and a volume it names that has no claimRef gets one; a PV without a claimRef is
/// Available, one with a claimRef is Bound.
fn bind_claims(sc: &mut Scenario) {
    for pvc in sc.cluster.pvcs.values_mut() {
        let claim = Arc::make_mut(pvc);
        let Some(vol) = claim.spec.volume_name.clone().filter(|v| !v.is_empty()) else {
            if claim.status.phase.as_deref().is_none_or(str::is_empty) {
                claim.status.phase = Some("Pending".into());
            }
            continue;
        };
        if claim.status.phase.as_deref().is_none_or(str::is_empty) {
            claim.status.phase = Some("Bound".into());
        }
        claim
            .metadata
            .annotations
            .entry("pv.kubernetes.io/bind-completed".into())
            .or_insert_with(|| "yes".into());
        let Some(pv) = sc.cluster.pvs.get_mut(&vol) else { continue };
        if claim.status.access_modes.is_empty() {
            claim.status.access_modes = pv.spec.access_modes.clone();
        }
        if claim.status.capacity.is_empty() {
            claim.status.capacity = pv.spec.capacity.clone();
        }
        if pv.spec.claim_ref.is_none() {
            Arc::make_mut(pv).spec.claim_ref = Some(api::ObjectReference {
                kind: Some("PersistentVolumeClaim".into()),
                api_version: Some("v1".into()),
                namespace: claim.metadata.namespace.clone(),
                name: Some(claim.metadata.name.clone()),
                uid: claim.metadata.uid.clone(),
                ..Default::default()
            });
        }
    }
    for pv in sc.cluster.pvs.values_mut() {
        if pv.status.phase.as_deref().is_none_or(str::is_empty) {
            let phase = if pv.spec.claim_ref.is_some() { "Bound" } else { "Available" };
            Arc::make_mut(pv).status.phase = Some(phase.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn timestamps() {
        assert_eq!(timestamp(0), "2025-01-01T00:00:00Z");
        assert_eq!(timestamp(61), "2025-01-01T00:01:01Z");
        assert_eq!(timestamp(86_400 * 31 + 3_600), "2025-02-01T01:00:00Z");
        assert_eq!(timestamp(86_400 * 365), "2026-01-01T00:00:00Z");
        assert_eq!(timestamp(86_400 * (365 + 31 + 28)), "2026-03-01T00:00:00Z");
        assert_eq!(timestamp(86_400 * 3 + 23 * 3_600 + 59 * 60 + 58), "2025-01-04T23:59:58Z");
        // Far past the years of four digits: as the formatter pads them (where a document
        // index can be that large: not with wasm32's 32-bit usize).
        if let Ok(doc) = usize::try_from(86_400_u64 * 365 * 8_000) {
            assert_eq!(timestamp(doc), "10019-09-10T00:00:00Z");
        }
        assert_eq!(uid("Pod", "default", "web-1"), "uid-pod-default-web-1");
        assert_eq!(uid("ResourceClaim", "", "gpu"), "uid-resourceclaim--gpu");
        assert_eq!(uid("Ünit", "a", "b"), "uid-ünit-a-b");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pull_policy() {
        for (img, want) in [
            ("nginx", "Always"),
            ("nginx:latest", "Always"),
            ("nginx:1.27", "IfNotPresent"),
            ("registry:5000/app", "Always"),
            ("registry:5000/app:v1", "IfNotPresent"),
            ("app@sha256:abc", "IfNotPresent"),
        ] {
            assert_eq!(image_pull_policy(img), want, "{img}");
        }
    }
}
