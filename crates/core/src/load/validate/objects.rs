//! Validation of the objects other than pods: Node, Namespace, PriorityClass, PersistentVolume,
//! PersistentVolumeClaim, StorageClass, CSINode, CSIDriver, PodDisruptionBudget.

use super::pod::{validate_preemption_policy, validate_taint_effect};
use super::*;
use crate::api::{
    CsiDriver, CsiNode, IntOrString, Namespace, Node, PersistentVolume, PersistentVolumeClaim, PodDisruptionBudget, PriorityClass,
    StorageClass,
};
use std::collections::HashSet;

pub(crate) fn validate_node(cx: &mut Ctx, n: &Node) {
    validate_object_meta(cx, &n.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    let taints = FieldPath::new("spec").child("taints");
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    for (i, t) in n.spec.taints.iter().enumerate() {
        let p = taints.index(i);
        validate_label_name(cx, &t.key, &p.child("key"));
        let value = t.value.as_deref().unwrap_or("");
        let msgs = is_valid_label_value(value);
        if !msgs.is_empty() {
            cx.push(invalid(&p.child("value"), value, &msgs.join(";")));
        }
        validate_taint_effect(cx, &t.effect, &p.child("effect"));
        if !seen.insert((t.effect.as_str(), t.key.as_str())) {
            let shown = serde_json::json!({"Key": t.key, "Value": value, "Effect": t.effect, "TimeAdded": t.time_added});
            let mut e = duplicate(&p, Bad::Json(shown.to_string()));
            e.body.push_str(": taints must be unique by key and effect pair");
            cx.push(e);
        }
    }
    for (field, list) in [("capacity", &n.status.capacity), ("allocatable", &n.status.allocatable)] {
        for (k, q) in list {
            validate_resource_quantity_value(cx, k, *q, &FieldPath::new("status").child(field).key(k));
        }
    }
}

pub(crate) fn validate_namespace(cx: &mut Ctx, ns: &Namespace) {
    validate_object_meta(cx, &ns.metadata, false, NameRule::Label, &FieldPath::new("metadata"));
}

/// Values above this are reserved for the system classes.
pub(crate) const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;

pub(crate) fn validate_priority_class(cx: &mut Ctx, pc: &PriorityClass) {
    validate_object_meta(cx, &pc.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    let name = pc.metadata.name.as_str();
    if name.starts_with("system-") {
        let known = [
            ("system-node-critical", super::super::defaults::SYSTEM_NODE_CRITICAL),
            ("system-cluster-critical", super::super::defaults::SYSTEM_CLUSTER_CRITICAL),
        ];
        let problem = match known.iter().find(|(n, _)| *n == name) {
            Some((n, v)) if *v != pc.value => Some(format!("value of {n} PriorityClass must be {v}")),
            Some((n, _)) if pc.global_default => Some(format!("globalDefault of {n} PriorityClass must be false")),
            Some(_) => None,
            None => Some(format!("{name} is not a known system priority class")),
        };
        if let Some(p) = problem {
            cx.push(forbidden(
                &FieldPath::new("metadata").child("name"),
                &format!("priority class names with 'system-' prefix are reserved for system use only. error: {p}"),
            ));
        }
    } else if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
        cx.push(forbidden(
            &FieldPath::new("value"),
            &format!("maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"),
        ));
    }
    if let Some(pp) = pc.preemption_policy.as_deref() {
        validate_preemption_policy(cx, pp, &FieldPath::new("preemptionPolicy"));
    }
}

const ACCESS_MODES: [&str; 4] = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];

fn validate_access_modes(cx: &mut Ctx, modes: &[String], path: &FieldPath) {
    let (mut rwop, mut other) = (false, false);
    for (i, m) in modes.iter().enumerate() {
        if !ACCESS_MODES.contains(&m.as_str()) {
            cx.push(not_supported(path, m, &ACCESS_MODES).pointing_at(path.index(i)));
        } else if m == "ReadWriteOncePod" {
            rwop = true;
        } else {
            other = true;
        }
    }
    if rwop && other {
        cx.push(forbidden(path, "may not use ReadWriteOncePod with other access modes"));
    }
}

fn validate_class_name(cx: &mut Ctx, name: Option<&str>, path: &FieldPath) {
    if let Some(n) = name.filter(|n| !n.is_empty()) {
        for m in is_dns1123_subdomain(n) {
            cx.push(invalid(path, n, &m));
        }
    }
}

fn validate_volume_mode(cx: &mut Ctx, mode: Option<&str>, path: &FieldPath) {
    if let Some(m) = mode {
        if !matches!(m, "Block" | "Filesystem") {
            cx.push(not_supported(path, m, &["Block", "Filesystem"]));
        }
    }
}

pub(crate) fn validate_csi_driver_name(cx: &mut Ctx, name: &str, path: &FieldPath) {
    if name.is_empty() {
        cx.push(required(path, ""));
    }
    if name.len() > 63 {
        cx.push(too_long(path, 63));
    }
    for m in is_dns1123_subdomain(&name.to_lowercase()) {
        cx.push(invalid(path, name, &m));
    }
}

pub(crate) fn validate_pv(cx: &mut Ctx, pv: &PersistentVolume) {
    validate_object_meta(cx, &pv.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    let s = &pv.spec;
    if s.access_modes.is_empty() {
        cx.push(required(&spec.child("accessModes"), ""));
    }
    validate_access_modes(cx, &s.access_modes, &spec.child("accessModes"));
    let cap = spec.child("capacity");
    if s.capacity.is_empty() {
        cx.push(required(&cap, ""));
    }
    if !s.capacity.contains_key("storage") || s.capacity.len() > 1 {
        let shown: BTreeMap<&String, String> = crate::sort::map_of(s.capacity.iter().map(|(k, q)| (k, cx.qty(*q, &cap.key(k)))));
        cx.push(not_supported(
            &cap,
            Bad::Json(serde_json::to_string(&shown).unwrap_or_default()),
            &["storage"],
        ));
    }
    for (k, q) in &s.capacity {
        let p = cap.key(k);
        if q.value() < 0 {
            cx.push(invalid(&p, q.value(), "must be a valid resource quantity"));
        }
        if q.nanos() <= 0 {
            let shown = cx.qty(*q, &p);
            cx.push(invalid(&p, shown, "must be greater than zero"));
        }
    }
    if let Some(rp) = s.persistent_volume_reclaim_policy.as_deref().filter(|r| !r.is_empty()) {
        if !matches!(rp, "Delete" | "Recycle" | "Retain") {
            cx.push(not_supported(
                &spec.child("persistentVolumeReclaimPolicy"),
                rp,
                &["Delete", "Recycle", "Retain"],
            ));
        }
    }
    if let Some(na) = &s.node_affinity {
        let p = spec.child("nodeAffinity");
        match &na.required {
            Some(req) => validate_node_selector(cx, req, &p.child("required")),
            None => cx.push(required(&p.child("required"), "must specify required node constraints")),
        }
    }
    // Exactly one volume source.
    let sources: [(&str, bool); 18] = [
        ("hostPath", s.host_path.is_some()),
        ("gcePersistentDisk", s.gce_persistent_disk.is_some()),
        ("awsElasticBlockStore", s.aws_elastic_block_store.is_some()),
        ("glusterfs", s.glusterfs.is_some()),
        ("nfs", s.nfs.is_some()),
        ("rbd", s.rbd.is_some()),
        ("iscsi", s.iscsi.is_some()),
        ("cephfs", s.cephfs.is_some()),
        ("cinder", s.cinder.is_some()),
        ("fc", s.fc.is_some()),
        ("flexVolume", s.flex_volume.is_some()),
        ("azureFile", s.azure_file.is_some()),
        ("vsphereVolume", s.vsphere_volume.is_some()),
        ("azureDisk", s.azure_disk.is_some()),
        ("portworxVolume", s.portworx_volume.is_some()),
        ("local", s.local.is_some()),
        ("csi", s.csi.is_some()),
        ("", false),
    ];
    let mut n = 0;
    for (name, set) in sources {
        if !set {
            continue;
        }
        if n > 0 {
            cx.push(forbidden(&spec.child(name), "may not specify more than 1 volume type"));
        }
        n += 1;
    }
    if n == 0 {
        cx.push(required(&spec, "must specify a volume type"));
    }
    if let Some(csi) = &s.csi {
        let p = spec.child("csi");
        validate_csi_driver_name(cx, &csi.driver, &p.child("driver"));
        if csi.volume_handle.is_empty() {
            cx.push(required(&p.child("volumeHandle"), ""));
        }
    }
    for (field, v) in [("local", &s.local), ("hostPath", &s.host_path)] {
        if let Some(v) = v {
            if v.get("path").and_then(|p| p.as_str()).unwrap_or("").is_empty() {
                cx.push(required(&spec.child(field).child("path"), ""));
            }
        }
    }
    validate_class_name(cx, s.storage_class_name.as_deref(), &spec.child("storageClassName"));
    validate_volume_mode(cx, s.volume_mode.as_deref(), &spec.child("volumeMode"));
}

pub(crate) fn validate_pvc(cx: &mut Ctx, pvc: &PersistentVolumeClaim) {
    validate_object_meta(cx, &pvc.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    let s = &pvc.spec;
    if s.access_modes.is_empty() {
        cx.push(required(&spec.child("accessModes"), "at least 1 access mode is required"));
    }
    validate_label_selector(cx, s.selector.as_ref(), &spec.child("selector"));
    validate_access_modes(cx, &s.access_modes, &spec.child("accessModes"));
    let shown = spec.child("resources").key("storage");
    let at = spec.child("resources").child("requests").child("storage");
    match s.resources.requests.get("storage") {
        None => cx.push(required(&shown, "").pointing_at(spec.child("resources"))),
        Some(q) if q.nanos() <= 0 => {
            let v = cx.qty(*q, &at);
            cx.push(invalid(&shown, v, "must be greater than zero").pointing_at(at));
        }
        Some(_) => {}
    }
    validate_class_name(cx, s.storage_class_name.as_deref(), &spec.child("storageClassName"));
    validate_volume_mode(cx, s.volume_mode.as_deref(), &spec.child("volumeMode"));
}

pub(crate) fn validate_storage_class(cx: &mut Ctx, sc: &StorageClass) {
    validate_object_meta(cx, &sc.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    let p = FieldPath::new("provisioner");
    if sc.provisioner.is_empty() {
        cx.push(required(&p, &sc.provisioner));
    } else {
        if sc.provisioner.len() > 63 {
            cx.push(too_long(&p, 63));
        }
        for m in is_qualified_name(&sc.provisioner.to_lowercase()) {
            cx.push(invalid(&p, &sc.provisioner, &m));
        }
    }
    if let Some(rp) = sc.reclaim_policy.as_deref().filter(|r| !r.is_empty()) {
        if !matches!(rp, "Delete" | "Retain") {
            cx.push(not_supported(&FieldPath::new("reclaimPolicy"), rp, &["Delete", "Retain"]));
        }
    }
    match sc.volume_binding_mode.as_deref() {
        None => cx.push(required(&FieldPath::new("volumeBindingMode"), "")),
        Some("Immediate" | "WaitForFirstConsumer") => {}
        Some(m) => cx.push(not_supported(
            &FieldPath::new("volumeBindingMode"),
            m,
            &["Immediate", "WaitForFirstConsumer"],
        )),
    }
    let at = FieldPath::new("allowedTopologies");
    for (i, t) in sc.allowed_topologies.iter().enumerate() {
        let tp = at.index(i);
        if t.match_label_expressions.is_empty() {
            cx.push(required(&tp, "must contain at least one requirement"));
        }
        let mut keys = HashSet::new();
        for (j, r) in t.match_label_expressions.iter().enumerate() {
            let rp = tp.child("matchLabelExpressions").index(j);
            if r.values.is_empty() {
                cx.push(required(&rp.child("values"), ""));
            }
            let mut vals = HashSet::new();
            for (k, v) in r.values.iter().enumerate() {
                if !vals.insert(v.as_str()) {
                    cx.push(duplicate(&rp.child("values").index(k), v));
                }
            }
            validate_label_name(cx, &r.key, &rp.child("key"));
            if !keys.insert(r.key.as_str()) {
                cx.push(duplicate(&rp.child("key"), &r.key));
            }
        }
    }
}

pub(crate) fn validate_csi_node(cx: &mut Ctx, n: &CsiNode) {
    validate_object_meta(cx, &n.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    let drivers = FieldPath::new("spec").child("drivers");
    let mut names = HashSet::new();
    for (i, d) in n.spec.drivers.iter().enumerate() {
        let p = drivers.index(i);
        validate_csi_driver_name(cx, &d.name, &p.child("name"));
        if d.node_id.is_empty() {
            cx.push(required(&p.child("nodeID"), ""));
        } else if d.node_id.len() > 192 {
            cx.push(too_long(&p.child("nodeID"), 192));
        }
        if let Some(c) = d.allocatable.as_ref().and_then(|a| a.count) {
            if c < 0 {
                cx.push(invalid(
                    &p.child("allocatable").child("count"),
                    c,
                    "must be greater than or equal to 0",
                ));
            }
        }
        let mut keys = HashSet::new();
        for (j, k) in d.topology_keys.iter().enumerate() {
            let kp = p.child("topologyKeys").index(j);
            if k.is_empty() {
                cx.push(required(&kp, k));
            }
            if !keys.insert(k.as_str()) {
                cx.push(duplicate(&kp, k));
            }
            for m in is_qualified_name(k) {
                cx.push(invalid(&kp, k, &m));
            }
        }
        if !names.insert(d.name.as_str()) {
            cx.push(duplicate(&p.child("name"), &d.name));
        }
    }
}

pub(crate) fn validate_csi_driver(cx: &mut Ctx, d: &CsiDriver) {
    validate_object_meta(cx, &d.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    let before = cx.errs.len();
    validate_csi_driver_name(cx, &d.metadata.name, &FieldPath::new("name"));
    for e in &mut cx.errs[before..] {
        e.at = Some(FieldPath::new("metadata").child("name"));
    }
    let spec = FieldPath::new("spec");
    if let Some(modes) = &d.spec.volume_lifecycle_modes {
        for (i, m) in modes.iter().enumerate() {
            if !matches!(m.as_str(), "Persistent" | "Ephemeral") {
                cx.push(not_supported(
                    &spec.child("volumeLifecycleModes").index(i),
                    m,
                    &["Ephemeral", "Persistent"],
                ));
            }
        }
    }
    if let Some(p) = d.spec.fs_group_policy.as_deref() {
        if !matches!(p, "ReadWriteOnceWithFSType" | "File" | "None") {
            cx.push(not_supported(
                &spec.child("fsGroupPolicy"),
                p,
                &["File", "None", "ReadWriteOnceWithFSType"],
            ));
        }
    }
}

fn int_or_percent(cx: &mut Ctx, v: &IntOrString, path: &FieldPath) {
    match v {
        IntOrString::String(s) => {
            let ok = s.len() > 1 && s.ends_with('%') && s[..s.len() - 1].bytes().all(|c| c.is_ascii_digit());
            if !ok {
                cx.push(invalid(
                    path,
                    s.as_str(),
                    &regex_error(
                        "a valid percent string must be a numeric string followed by an ending '%'",
                        "[0-9]+%",
                        &["1%", "93%"],
                    ),
                ));
            } else if s[..s.len() - 1].parse::<u64>().map_or(true, |p| p > 100) {
                cx.push(invalid(path, s.as_str(), "must not be greater than 100%"));
            }
        }
        IntOrString::Int(i) => {
            if *i < 0 {
                cx.push(invalid(path, *i, "must be greater than or equal to 0"));
            }
        }
    }
}

pub(crate) fn validate_pdb(cx: &mut Ctx, pdb: &PodDisruptionBudget) {
    validate_object_meta(cx, &pdb.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    let s = &pdb.spec;
    if s.min_available.is_some() && s.max_unavailable.is_some() {
        cx.push(invalid(
            &spec,
            Bad::Json(serde_json::to_string(s).unwrap_or_default()),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    if let Some(v) = &s.min_available {
        int_or_percent(cx, v, &spec.child("minAvailable"));
    }
    if let Some(v) = &s.max_unavailable {
        int_or_percent(cx, v, &spec.child("maxUnavailable"));
    }
    validate_label_selector(cx, s.selector.as_ref(), &spec.child("selector"));
    if let Some(p) = s.unhealthy_pod_eviction_policy.as_deref() {
        if !matches!(p, "IfHealthyBudget" | "AlwaysAllow") {
            cx.push(not_supported(
                &spec.child("unhealthyPodEvictionPolicy"),
                p,
                &["AlwaysAllow", "IfHealthyBudget"],
            ));
        }
    }
}
