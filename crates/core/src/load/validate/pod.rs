//! Pod validation (after defaulting), as the apiserver does it on create.

use super::*;
use crate::api::{Affinity, Container, Pod, PodAffinityTerm, PodSpec, ResourceRequirements, Toleration};
use std::collections::{BTreeSet, HashSet};

pub(crate) fn validate_pod(cx: &mut Ctx, pod: &Pod) {
    let meta = FieldPath::new("metadata");
    let spec_path = FieldPath::new("spec");
    validate_object_meta(cx, &pod.metadata, true, NameRule::Subdomain, &meta);
    validate_pod_spec(cx, &pod.spec, &spec_path);
    if pod
        .spec
        .ephemeral_containers
        .as_ref()
        .is_some_and(|v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
    {
        cx.push(forbidden(&spec_path.child("ephemeralContainers"), "cannot be set on create"));
    }
    if pod.spec.node_name.as_deref().is_some_and(|n| !n.is_empty()) && !pod.spec.scheduling_gates.is_empty() {
        cx.push(forbidden(
            &spec_path.child("nodeName"),
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
}

pub(crate) fn validate_pod_spec(cx: &mut Ctx, spec: &PodSpec, path: &FieldPath) {
    if spec.termination_grace_period_seconds.is_none() {
        cx.push(required(&path.child("terminationGracePeriodSeconds"), ""));
    }
    // Volumes: names.
    let mut vol_names = HashSet::new();
    for (i, v) in spec.volumes.iter().enumerate() {
        let p = path.child("volumes").index(i).child("name");
        if v.name.is_empty() {
            cx.push(required(&p, ""));
        } else {
            for m in is_dns1123_label(&v.name) {
                cx.push(invalid(&p, &v.name, &m));
            }
            if !vol_names.insert(v.name.as_str()) {
                cx.push(duplicate(&p, &v.name));
            }
        }
        if let Some(pvc) = &v.persistent_volume_claim {
            if pvc.claim_name.is_empty() {
                cx.push(required(
                    &path.child("volumes").index(i).child("persistentVolumeClaim").child("claimName"),
                    "",
                ));
            }
        }
    }
    let claim_names: BTreeSet<&str> = crate::sort::set_of(spec.resource_claims.iter().map(|c| c.name.as_str()));
    for (i, c) in spec.resource_claims.iter().enumerate() {
        let p = path.child("resourceClaims").index(i);
        if c.name.is_empty() {
            cx.push(required(&p.child("name"), ""));
        } else {
            for m in is_dns1123_label(&c.name) {
                cx.push(invalid(&p.child("name"), &c.name, &m));
            }
        }
        match (&c.resource_claim_name, &c.resource_claim_template_name) {
            (Some(_), Some(_)) => cx.push(invalid(
                &p,
                Bad::Json(String::from("{...}")),
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
            )),
            (None, None) => cx.push(invalid(
                &p,
                Bad::Json(String::from("{...}")),
                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
            )),
            _ => {}
        }
    }

    // Containers.
    let containers = path.child("containers");
    if spec.containers.is_empty() {
        cx.push(required(&containers, ""));
    }
    let mut names: HashSet<&str> = HashSet::new();
    for (i, c) in spec.containers.iter().enumerate() {
        let p = containers.index(i);
        validate_container_common(cx, c, &claim_names, &p);
        if !names.insert(c.name.as_str()) {
            cx.push(duplicate(&p.child("name"), &c.name));
        }
        if c.restart_policy.is_some() {
            cx.push(forbidden(&p.child("restartPolicy"), "may not be set for non-init containers"));
        }
    }
    check_host_port_conflicts(cx, spec.containers.iter().enumerate(), &containers);
    let inits = path.child("initContainers");
    for (i, c) in spec.init_containers.iter().enumerate() {
        let p = inits.index(i);
        validate_container_common(cx, c, &claim_names, &p);
        let always = c.restart_policy.as_deref() == Some("Always");
        if let Some(rp) = c.restart_policy.as_deref() {
            if rp != "Always" {
                cx.push(not_supported(&p.child("restartPolicy"), rp, &["Always"]));
            }
        }
        if names.contains(c.name.as_str()) {
            cx.push(duplicate(&p.child("name"), &c.name));
        } else if !c.name.is_empty() {
            names.insert(c.name.as_str());
        }
        check_host_port_conflicts(cx, std::iter::once((i, c)), &inits);
        if !always {
            for (field, set) in [
                ("lifecycle", c.lifecycle.is_some()),
                ("livenessProbe", c.liveness_probe.is_some()),
                ("readinessProbe", c.readiness_probe.is_some()),
                ("startupProbe", c.startup_probe.is_some()),
            ] {
                if set {
                    cx.push(forbidden(
                        &p.child(field),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
    }

    // Pod-level resources.
    if let Some(r) = &spec.resources {
        validate_pod_resources(cx, spec, r, &claim_names, &path.child("resources"));
    }

    // hostNetwork: host ports must equal container ports.
    if spec.host_network == Some(true) {
        for (i, c) in spec.containers.iter().enumerate() {
            for (j, port) in c.ports.iter().enumerate() {
                if port.host_port.unwrap_or(0) != port.container_port {
                    cx.push(invalid(
                        &containers.index(i).child("ports").index(j).child("hostPort"),
                        port.host_port.unwrap_or(0),
                        "must match `containerPort` when `hostNetwork` is true",
                    ));
                }
            }
        }
    }

    match spec.restart_policy.as_deref().unwrap_or("") {
        "Always" | "OnFailure" | "Never" => {}
        "" => cx.push(required(&path.child("restartPolicy"), "")),
        rp => cx.push(not_supported(&path.child("restartPolicy"), rp, &["Always", "OnFailure", "Never"])),
    }
    match spec.dns_policy.as_deref().unwrap_or("") {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => {}
        "" => cx.push(required(&path.child("dnsPolicy"), "")),
        p => cx.push(not_supported(
            &path.child("dnsPolicy"),
            p,
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )),
    }
    validate_labels(cx, &spec.node_selector, &path.child("nodeSelector"));
    if let Some(a) = &spec.affinity {
        validate_affinity(cx, a, &path.child("affinity"));
    }
    // Scheduling gates: qualified names, no duplicates.
    let mut seen = HashSet::new();
    for (i, g) in spec.scheduling_gates.iter().enumerate() {
        let p = path.child("schedulingGates").index(i);
        validate_label_name(cx, &g.name, &p);
        if !seen.insert(g.name.as_str()) {
            cx.push(duplicate(&p, &g.name));
        }
    }
    validate_topology_spread(cx, spec, &path.child("topologySpreadConstraints"));

    if let Some(sa) = spec.service_account_name.as_deref().filter(|s| !s.is_empty()) {
        for m in is_dns1123_subdomain(sa) {
            cx.push(invalid(&path.child("serviceAccountName"), sa, &m));
        }
    }
    if let Some(n) = spec.node_name.as_deref().filter(|s| !s.is_empty()) {
        for m in is_dns1123_subdomain(n) {
            cx.push(invalid(&path.child("nodeName"), n, &m));
        }
    }
    if let Some(v) = spec.active_deadline_seconds {
        if !(1..=i32::MAX as i64).contains(&v) {
            cx.push(invalid(
                &path.child("activeDeadlineSeconds"),
                v,
                &inclusive_range_error(1, i32::MAX as i64),
            ));
        }
    }
    for (field, v) in [("hostname", &spec.hostname), ("subdomain", &spec.subdomain)] {
        if let Some(v) = v.as_deref().filter(|s| !s.is_empty()) {
            for m in is_dns1123_label(v) {
                cx.push(invalid(&path.child(field), v, &m));
            }
        }
    }
    validate_tolerations(cx, &spec.tolerations, &path.child("tolerations"));
    if let Some(pc) = spec.priority_class_name.as_deref().filter(|s| !s.is_empty()) {
        for m in is_dns1123_subdomain(pc) {
            cx.push(invalid(&path.child("priorityClassName"), pc, &m));
        }
    }
    if let Some(rc) = spec.runtime_class_name.as_deref() {
        for m in is_dns1123_subdomain(rc) {
            cx.push(invalid(&path.child("runtimeClassName"), rc, &m));
        }
    }
    if let Some(pp) = spec.preemption_policy.as_deref() {
        validate_preemption_policy(cx, pp, &path.child("preemptionPolicy"));
    }
    if let Some(o) = &spec.overhead {
        let rr = ResourceRequirements {
            limits: o.clone(),
            ..Default::default()
        };
        validate_resource_requirements(cx, &rr, &BTreeSet::new(), false, &path.child("overhead"));
    }
}

pub(crate) fn validate_preemption_policy(cx: &mut Ctx, pp: &str, path: &FieldPath) {
    match pp {
        "PreemptLowerPriority" | "Never" => {}
        "" => cx.push(required(path, "")),
        p => cx.push(not_supported(path, p, &["PreemptLowerPriority", "Never"])),
    }
}

fn validate_container_common(cx: &mut Ctx, c: &Container, claims: &BTreeSet<&str>, path: &FieldPath) {
    let name = path.child("name");
    if c.name.is_empty() {
        cx.push(required(&name, ""));
    } else {
        for m in is_dns1123_label(&c.name) {
            cx.push(invalid(&name, &c.name, &m));
        }
    }
    if c.image.as_deref().unwrap_or("").is_empty() {
        cx.push(required(&path.child("image"), ""));
    }
    match c.termination_message_policy.as_deref().unwrap_or("") {
        "File" | "FallbackToLogsOnError" => {}
        "" => cx.push(required(&path.child("terminationMessagePolicy"), "")),
        p => cx.push(not_supported(
            &path.child("terminationMessagePolicy"),
            p,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    // Ports.
    let mut port_names = HashSet::new();
    for (i, port) in c.ports.iter().enumerate() {
        let p = path.child("ports").index(i);
        if let Some(n) = port.name.as_deref().filter(|s| !s.is_empty()) {
            let msgs = is_valid_port_name(n);
            if !msgs.is_empty() {
                for m in msgs {
                    cx.push(invalid(&p.child("name"), n, &m));
                }
            } else if !port_names.insert(n) {
                cx.push(duplicate(&p.child("name"), n));
            }
        }
        if port.container_port == 0 {
            cx.push(required(&p.child("containerPort"), ""));
        } else if !(1..=65535).contains(&port.container_port) {
            cx.push(invalid(
                &p.child("containerPort"),
                port.container_port,
                &inclusive_range_error(1, 65535),
            ));
        }
        if let Some(hp) = port.host_port.filter(|&h| h != 0) {
            if !(1..=65535).contains(&hp) {
                cx.push(invalid(&p.child("hostPort"), hp, &inclusive_range_error(1, 65535)));
            }
        }
        match port.protocol.as_deref().unwrap_or("") {
            "TCP" | "UDP" | "SCTP" => {}
            "" => cx.push(required(&p.child("protocol"), "")),
            pr => cx.push(not_supported(&p.child("protocol"), pr, &["SCTP", "TCP", "UDP"])),
        }
    }
    if let Some(pp) = c.image_pull_policy.as_deref() {
        if !matches!(pp, "Always" | "Never" | "IfNotPresent") {
            if pp.is_empty() {
                cx.push(required(&path.child("imagePullPolicy"), ""));
            } else {
                cx.push(not_supported(
                    &path.child("imagePullPolicy"),
                    pp,
                    &["Always", "IfNotPresent", "Never"],
                ));
            }
        }
    }
    validate_resource_requirements(cx, &c.resources, claims, false, &path.child("resources"));
}

/// Host ports must be unique per protocol and host IP.
fn check_host_port_conflicts<'a>(cx: &mut Ctx, containers: impl Iterator<Item = (usize, &'a Container)>, path: &FieldPath) {
    let mut seen = HashSet::new();
    for (ci, c) in containers {
        for (pi, port) in c.ports.iter().enumerate() {
            let hp = port.host_port.unwrap_or(0);
            if hp == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{}",
                port.protocol.as_deref().unwrap_or(""),
                port.host_ip.as_deref().unwrap_or(""),
                hp
            );
            if !seen.insert(key.clone()) {
                cx.push(duplicate(&path.index(ci).child("ports").index(pi).child("hostPort"), key));
            }
        }
    }
}

/// Resource names and quantities; requests within limits. `pod_level` selects the rules for
/// `spec.resources` names (cpu, memory, hugepages) instead of the containers' (which pod
/// overhead uses too).
fn validate_resource_requirements(cx: &mut Ctx, r: &ResourceRequirements, claims: &BTreeSet<&str>, pod_level: bool, path: &FieldPath) {
    let check_name = |cx: &mut Ctx, name: &str, p: &FieldPath| {
        if !pod_level {
            validate_container_resource_name(cx, name, p);
        } else if validate_resource_name(cx, name, p) && !(name == "cpu" || name == "memory" || is_huge_page(name)) {
            cx.push(not_supported(p, name, &["cpu", "hugepages-", "memory"]));
        }
    };
    let lim_path = path.child("limits");
    let req_path = path.child("requests");
    let (mut lim_cpu_mem, mut req_cpu_mem, mut lim_huge, mut req_huge) = (false, false, false, false);
    for (name, q) in &r.limits {
        let p = lim_path.key(name);
        check_name(cx, name, &p);
        validate_resource_quantity_value(cx, name, *q, &p);
        lim_huge |= is_huge_page(name);
        lim_cpu_mem |= name == "cpu" || name == "memory";
    }
    for (name, q) in &r.requests {
        let p = req_path.key(name);
        check_name(cx, name, &p);
        validate_resource_quantity_value(cx, name, *q, &p);
        match r.limits.get(name) {
            Some(l) => {
                if q != l && !is_overcommit_allowed(name) {
                    let (qs, ls) = (cx.qty(*q, &p), cx.qty(*l, &lim_path.key(name)));
                    cx.push(invalid(&req_path, qs, &format!("must be equal to {name} limit of {ls}")).pointing_at(p.clone()));
                } else if q > l {
                    let (qs, ls) = (cx.qty(*q, &p), cx.qty(*l, &lim_path.key(name)));
                    cx.push(invalid(&req_path, qs, &format!("must be less than or equal to {name} limit of {ls}")).pointing_at(p.clone()));
                }
            }
            None => {
                if !is_overcommit_allowed(name) {
                    cx.push(required(&lim_path, "Limit must be set for non overcommitable resources").pointing_at(p.clone()));
                }
            }
        }
        req_huge |= is_huge_page(name);
        req_cpu_mem |= name == "cpu" || name == "memory";
    }
    if !lim_cpu_mem && !req_cpu_mem && (req_huge || lim_huge) {
        cx.push(forbidden(path, "HugePages require cpu or memory"));
    }
    if !pod_level {
        validate_claim_refs(cx, r, claims, &path.child("claims"));
    }
}

fn validate_claim_refs(cx: &mut Ctx, r: &ResourceRequirements, claims: &BTreeSet<&str>, path: &FieldPath) {
    let Some(list) = r.claims.as_ref().and_then(|v| v.as_array()) else {
        return;
    };
    let mut seen = HashSet::new();
    for (i, c) in list.iter().enumerate() {
        let name = c.get("name").and_then(|n| n.as_str()).unwrap_or("");
        let p = path.index(i);
        if name.is_empty() {
            cx.push(required(&p, ""));
            continue;
        }
        let req = c.get("request").and_then(|n| n.as_str()).unwrap_or("");
        let key = if req.is_empty() {
            name.to_string()
        } else {
            format!("{name}/{req}")
        };
        if !seen.insert(key.clone()) {
            cx.push(duplicate(&p, key));
        }
        if !claims.contains(name) {
            let detail = if claims.is_empty() {
                "must be one of the names in pod.spec.resourceClaims which is empty".to_string()
            } else {
                format!(
                    "must be one of the names in pod.spec.resourceClaims: {}",
                    claims.iter().copied().collect::<Vec<_>>().join(", ")
                )
            };
            cx.push(not_found(&p, name, &detail));
        }
    }
}

fn validate_pod_resources(cx: &mut Ctx, spec: &PodSpec, r: &ResourceRequirements, claims: &BTreeSet<&str>, path: &FieldPath) {
    if spec.os.as_ref().and_then(|o| o.get("name")).and_then(|n| n.as_str()) == Some("windows") {
        cx.push(forbidden(path, "may not be set for a windows pod"));
        return;
    }
    if r.claims.is_some() {
        cx.push(forbidden(&path.child("claims"), "claims may not be set for Resources at pod-level"));
    }
    validate_resource_requirements(cx, r, claims, true, path);
    // Aggregate container requests must fit in the pod-level requests; container limits in the
    // pod-level limits.
    let mut bare = crate::api::Pod::default();
    bare.spec.containers = spec.containers.clone();
    bare.spec.init_containers = spec.init_containers.clone();
    let aggr = crate::framework::pod_requests(&bare, None);
    for (name, total) in &aggr {
        if let Some(pod_req) = r.requests.get(name) {
            if total > pod_req {
                let p = path.child("requests").key(name);
                let (ps, ts) = (cx.qty(*pod_req, &p), canonical_quantity(*total, None));
                cx.push(invalid(
                    &p,
                    ps,
                    &format!("must be greater than or equal to aggregate container requests of {ts}"),
                ));
            }
        }
    }
    for (i, c) in spec.containers.iter().enumerate() {
        for (name, lim) in &c.resources.limits {
            if let Some(pod_lim) = r.limits.get(name) {
                if lim > pod_lim {
                    let cp = FieldPath::new("spec")
                        .child("containers")
                        .index(i)
                        .child("resources")
                        .child("limits")
                        .key(name);
                    let shown_path = path.child("containers").index(i).key(name).child("limits");
                    let (ls, ps) = (cx.qty(*lim, &cp), cx.qty(*pod_lim, &path.child("limits").key(name)));
                    cx.push(invalid(&shown_path, ls, &format!("must be less than or equal to pod limits of {ps}")).pointing_at(cp));
                }
            }
        }
    }
}

pub(crate) fn validate_tolerations(cx: &mut Ctx, tolerations: &[Toleration], path: &FieldPath) {
    for (i, t) in tolerations.iter().enumerate() {
        let p = path.index(i);
        let key = t.key.as_deref().unwrap_or("");
        let op = t.operator.as_deref().unwrap_or("");
        let value = t.value.as_deref().unwrap_or("");
        let effect = t.effect.as_deref().unwrap_or("");
        if !key.is_empty() {
            validate_label_name(cx, key, &p.child("key"));
        }
        if key.is_empty() && op != "Exists" {
            cx.push(invalid(
                &p.child("operator"),
                op,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && effect != "NoExecute" {
            cx.push(invalid(
                &p.child("effect"),
                effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match op {
            "Equal" | "" => {
                let msgs = is_valid_label_value(value);
                if !msgs.is_empty() {
                    cx.push(invalid(&p.child("operator"), value, &msgs.join(";")).pointing_at(p.child("value")));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    cx.push(invalid(
                        &p.child("operator"),
                        value,
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            _ => cx.push(not_supported(&p.child("operator"), op, &["Equal", "Exists"])),
        }
        if !effect.is_empty() {
            validate_taint_effect(cx, effect, &p.child("effect"));
        }
    }
}

pub(crate) fn validate_taint_effect(cx: &mut Ctx, effect: &str, path: &FieldPath) {
    match effect {
        "NoSchedule" | "PreferNoSchedule" | "NoExecute" => {}
        "" => cx.push(required(path, "")),
        e => cx.push(not_supported(path, e, &["NoSchedule", "PreferNoSchedule", "NoExecute"])),
    }
}

fn validate_affinity(cx: &mut Ctx, a: &Affinity, path: &FieldPath) {
    if let Some(na) = &a.node_affinity {
        let p = path.child("nodeAffinity");
        if let Some(req) = &na.required_during_scheduling_ignored_during_execution {
            validate_node_selector(cx, req, &p.child("requiredDuringSchedulingIgnoredDuringExecution"));
        }
        for (i, t) in na.preferred_during_scheduling_ignored_during_execution.iter().enumerate() {
            let tp = p.child("preferredDuringSchedulingIgnoredDuringExecution").index(i);
            if !(1..=100).contains(&t.weight) {
                cx.push(invalid(&tp.child("weight"), t.weight, "must be in the range 1-100"));
            }
            // Invalid label values are allowed in preferences.
            validate_node_selector_term(cx, &t.preference, false, &tp.child("preference"));
        }
    }
    for (field, pa) in [("podAffinity", &a.pod_affinity), ("podAntiAffinity", &a.pod_anti_affinity)] {
        let Some(pa) = pa else { continue };
        let p = path.child(field);
        for (i, t) in pa.required_during_scheduling_ignored_during_execution.iter().enumerate() {
            validate_pod_affinity_term(cx, t, &p.child("requiredDuringSchedulingIgnoredDuringExecution").index(i));
        }
        for (i, w) in pa.preferred_during_scheduling_ignored_during_execution.iter().enumerate() {
            let wp = p.child("preferredDuringSchedulingIgnoredDuringExecution").index(i);
            if !(1..=100).contains(&w.weight) {
                cx.push(invalid(&wp.child("weight"), w.weight, "must be in the range 1-100"));
            }
            validate_pod_affinity_term(cx, &w.pod_affinity_term, &wp.child("podAffinityTerm"));
        }
    }
}

fn validate_pod_affinity_term(cx: &mut Ctx, t: &PodAffinityTerm, path: &FieldPath) {
    validate_label_selector(cx, t.label_selector.as_ref(), &path.child("labelSelector"));
    validate_label_selector(cx, t.namespace_selector.as_ref(), &path.child("namespaceSelector"));
    for (i, ns) in t.namespaces.iter().enumerate() {
        for m in is_dns1123_label(ns) {
            cx.push(invalid(&path.child("namespace"), ns, &m).pointing_at(path.child("namespaces").index(i)));
        }
    }
    validate_match_label_keys(cx, path, &t.match_label_keys, &t.mismatch_label_keys, t.label_selector.as_ref());
    if t.topology_key.is_empty() {
        cx.push(required(&path.child("topologyKey"), "can not be empty"));
    }
    validate_label_name(cx, &t.topology_key, &path.child("topologyKey"));
}

/// matchLabelKeys / mismatchLabelKeys: label names, only with a labelSelector, not in both
/// lists, and (checked on the selector after the apiserver merged the keys into it) a key may
/// not also be written in the selector.
fn validate_match_label_keys(
    cx: &mut Ctx,
    path: &FieldPath,
    match_keys: &[String],
    mismatch_keys: &[String],
    sel: Option<&crate::api::LabelSelector>,
) {
    for (list, field) in [(match_keys, "matchLabelKeys"), (mismatch_keys, "mismatchLabelKeys")] {
        if list.is_empty() {
            continue;
        }
        if sel.is_none() {
            cx.push(forbidden(&path.child(field), "must not be specified when labelSelector is not set"));
            continue;
        }
        for (i, k) in list.iter().enumerate() {
            validate_label_name(cx, k, &path.child(field).index(i));
        }
    }
    if let Some(sel) = sel {
        let mut seen: HashSet<&str> = sel.match_labels.keys().map(String::as_str).collect();
        for e in &sel.match_expressions {
            if let Some(i) = match_keys.iter().rposition(|k| *k == e.key) {
                if seen.contains(e.key.as_str()) {
                    // Kubernetes names the index without the list's name here.
                    cx.push(
                        invalid(&path.index(i), &e.key, "exists in both matchLabelKeys and labelSelector")
                            .pointing_at(path.child("matchLabelKeys").index(i)),
                    );
                }
            }
            seen.insert(e.key.as_str());
        }
    }
    for (i, k) in match_keys.iter().enumerate() {
        if mismatch_keys.contains(k) {
            cx.push(invalid(
                &path.child("matchLabelKeys").index(i),
                k,
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
}

fn validate_topology_spread(cx: &mut Ctx, spec: &PodSpec, path: &FieldPath) {
    let cs = &spec.topology_spread_constraints;
    for (i, c) in cs.iter().enumerate() {
        let p = path.index(i);
        if c.max_skew <= 0 {
            cx.push(invalid(&p.child("maxSkew"), c.max_skew, "must be greater than zero"));
        }
        if c.topology_key.is_empty() {
            cx.push(required(&p.child("topologyKey"), "can not be empty"));
        }
        if !matches!(c.when_unsatisfiable.as_str(), "DoNotSchedule" | "ScheduleAnyway") {
            cx.push(not_supported(
                &p.child("whenUnsatisfiable"),
                c.when_unsatisfiable.as_str(),
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
        if cs[i + 1..]
            .iter()
            .any(|o| o.topology_key == c.topology_key && o.when_unsatisfiable == c.when_unsatisfiable)
        {
            cx.push(duplicate(
                &p.child("{topologyKey, whenUnsatisfiable}"),
                format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable),
            ));
        }
        if let Some(md) = c.min_domains {
            if md <= 0 {
                cx.push(invalid(&p.child("minDomains"), md, "must be greater than zero"));
            }
            if c.when_unsatisfiable != "DoNotSchedule" {
                cx.push(invalid(
                    &p.child("minDomains"),
                    md,
                    &format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {}",
                        c.when_unsatisfiable
                    ),
                ));
            }
        }
        for (field, v) in [
            ("nodeAffinityPolicy", &c.node_affinity_policy),
            ("nodeTaintsPolicy", &c.node_taints_policy),
        ] {
            if let Some(v) = v.as_deref() {
                if !matches!(v, "Honor" | "Ignore") {
                    cx.push(not_supported(&p.child(field), v, &["Honor", "Ignore"]));
                }
            }
        }
        validate_match_label_keys(cx, &p, &c.match_label_keys, &[], c.label_selector.as_ref());
        validate_label_selector(cx, c.label_selector.as_ref(), &p.child("labelSelector"));
    }
}
