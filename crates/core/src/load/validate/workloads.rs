//! Validation of Services and workload objects (after defaulting), as the apiserver does it on
//! create, for what the scheduler and the controllers read: names, selectors, the pod template
//! (its labels must match the selector; its pod spec is validated as a pod's), replica counts.

use super::*;
use crate::api::{DaemonSet, Deployment, Job, LabelSelector, PodTemplateSpec, ReplicaSet, ReplicationController, Service, StatefulSet};
use crate::labels::Selector;

const SERVICE_TYPES: [&str; 4] = ["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"];
const PROTOCOLS: [&str; 3] = ["TCP", "UDP", "SCTP"];

/// A label map as Go prints it in messages (`map[string]string{"app":"web"}`).
fn go_map(m: &crate::api::Labels) -> Bad {
    let inner: Vec<String> = m.iter().map(|(k, v)| format!("{k:?}:{v:?}")).collect();
    Bad::Json(format!("map[string]string{{{}}}", inner.join(", ")))
}

fn selector_json(s: &LabelSelector) -> Bad {
    Bad::Json(serde_json::to_string(s).unwrap_or_default())
}

fn non_negative(cx: &mut Ctx, v: Option<i64>, path: &FieldPath) {
    if let Some(v) = v.filter(|&v| v < 0) {
        cx.push(invalid(path, v, "must be greater than or equal to 0"));
    }
}

pub(crate) fn validate_service(cx: &mut Ctx, s: &Service) {
    validate_object_meta(cx, &s.metadata, true, NameRule::Label, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    if let Some(sel) = &s.spec.selector {
        validate_labels(cx, sel, &spec.child("selector"));
    }
    let ty = s.spec.type_.as_deref().unwrap_or("ClusterIP");
    if !SERVICE_TYPES.contains(&ty) {
        cx.push(not_supported(&spec.child("type"), ty, &SERVICE_TYPES));
    }
    let headless = s.spec.cluster_ip.as_deref() == Some("None");
    if s.spec.ports.is_empty() && ty != "ExternalName" && !headless {
        cx.push(required(&spec.child("ports"), ""));
    }
    for (i, p) in s.spec.ports.iter().enumerate() {
        let pp = spec.child("ports").index(i);
        if !(1..=65535).contains(&p.port) {
            cx.push(invalid(&pp.child("port"), p.port, &inclusive_range_error(1, 65535)));
        }
        if let Some(proto) = p.protocol.as_deref() {
            if !PROTOCOLS.contains(&proto) {
                cx.push(not_supported(&pp.child("protocol"), proto, &PROTOCOLS));
            }
        }
        if s.spec.ports.len() > 1 && p.name.as_deref().is_none_or(str::is_empty) {
            cx.push(required(&pp.child("name"), ""));
        }
    }
}

/// A template whose labels the workload's selector must select, with a pod spec valid as a
/// pod's. `restart_policies` are the pod restart policies the workload accepts.
fn validate_template(
    cx: &mut Ctx,
    t: &PodTemplateSpec,
    selector: Option<&Selector>,
    restart_policies: &[&str],
    workload: &str,
    path: &FieldPath,
) {
    let labels = path.child("metadata").child("labels");
    validate_labels(cx, &t.metadata.labels, &labels);
    validate_annotations(cx, &t.metadata.annotations, &path.child("metadata").child("annotations"));
    if let Some(sel) = selector {
        if !sel.is_nothing() && !sel.matches(&t.metadata.labels) {
            cx.push(invalid(
                &labels,
                go_map(&t.metadata.labels),
                "`selector` does not match template `labels`",
            ));
        }
    }
    let spec = path.child("spec");
    validate_pod_spec(cx, &t.spec, &spec);
    if let Some(rp) = t.spec.restart_policy.as_deref().filter(|r| !r.is_empty()) {
        if !restart_policies.contains(&rp) {
            cx.push(not_supported(&spec.child("restartPolicy"), rp, restart_policies));
        }
    }
    if workload != "Job" && t.spec.active_deadline_seconds.is_some() {
        cx.push(forbidden(
            &spec.child("activeDeadlineSeconds"),
            &format!("activeDeadlineSeconds in {workload} is not Supported"),
        ));
    }
}

/// A required, non-empty label selector; returns it compiled when it is valid.
fn validate_workload_selector(cx: &mut Ctx, sel: Option<&LabelSelector>, what: &str, path: &FieldPath) -> Option<Selector> {
    let Some(sel) = sel else {
        cx.push(required(path, ""));
        return None;
    };
    let before = cx.errs.len();
    validate_label_selector(cx, Some(sel), path);
    if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
        cx.push(invalid(path, selector_json(sel), &format!("empty selector is invalid for {what}")));
        return None;
    }
    if cx.errs.len() != before {
        return None;
    }
    Selector::from_label_selector(Some(sel)).ok()
}

pub(crate) fn validate_replication_controller(cx: &mut Ctx, rc: &ReplicationController) {
    validate_object_meta(cx, &rc.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    non_negative(cx, rc.spec.replicas.map(i64::from), &spec.child("replicas"));
    non_negative(cx, rc.spec.min_ready_seconds.map(i64::from), &spec.child("minReadySeconds"));
    if rc.spec.selector.is_empty() {
        cx.push(required(&spec.child("selector"), ""));
    } else {
        validate_labels(cx, &rc.spec.selector, &spec.child("selector"));
    }
    match &rc.spec.template {
        None => cx.push(required(&spec.child("template"), "")),
        Some(t) => {
            let sel = (!rc.spec.selector.is_empty()).then(|| Selector::from_map(&rc.spec.selector));
            validate_template(cx, t, sel.as_ref(), &["Always"], "ReplicationController", &spec.child("template"));
        }
    }
}

pub(crate) fn validate_replica_set(cx: &mut Ctx, rs: &ReplicaSet) {
    validate_object_meta(cx, &rs.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    non_negative(cx, rs.spec.replicas.map(i64::from), &spec.child("replicas"));
    non_negative(cx, rs.spec.min_ready_seconds.map(i64::from), &spec.child("minReadySeconds"));
    let sel = validate_workload_selector(cx, rs.spec.selector.as_ref(), "deployment", &spec.child("selector"));
    validate_template(
        cx,
        &rs.spec.template,
        sel.as_ref(),
        &["Always"],
        "ReplicaSet",
        &spec.child("template"),
    );
}

pub(crate) fn validate_stateful_set(cx: &mut Ctx, ss: &StatefulSet) {
    validate_object_meta(cx, &ss.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    non_negative(cx, ss.spec.replicas.map(i64::from), &spec.child("replicas"));
    non_negative(cx, ss.spec.min_ready_seconds.map(i64::from), &spec.child("minReadySeconds"));
    if let Some(p) = ss.spec.pod_management_policy.as_deref() {
        if !matches!(p, "OrderedReady" | "Parallel") {
            cx.push(not_supported(&spec.child("podManagementPolicy"), p, &["OrderedReady", "Parallel"]));
        }
    }
    if let Some(o) = &ss.spec.ordinals {
        non_negative(cx, Some(i64::from(o.start)), &spec.child("ordinals").child("start"));
    }
    let sel = validate_workload_selector(cx, ss.spec.selector.as_ref(), "statefulset", &spec.child("selector"));
    validate_template(
        cx,
        &ss.spec.template,
        sel.as_ref(),
        &["Always"],
        "StatefulSet",
        &spec.child("template"),
    );
}

pub(crate) fn validate_deployment(cx: &mut Ctx, d: &Deployment) {
    validate_object_meta(cx, &d.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    non_negative(cx, d.spec.replicas.map(i64::from), &spec.child("replicas"));
    non_negative(cx, d.spec.min_ready_seconds.map(i64::from), &spec.child("minReadySeconds"));
    let sel = validate_workload_selector(cx, d.spec.selector.as_ref(), "deployment", &spec.child("selector"));
    validate_template(
        cx,
        &d.spec.template,
        sel.as_ref(),
        &["Always"],
        "Deployment",
        &spec.child("template"),
    );
}

pub(crate) fn validate_daemon_set(cx: &mut Ctx, d: &DaemonSet) {
    validate_object_meta(cx, &d.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    non_negative(cx, d.spec.min_ready_seconds.map(i64::from), &spec.child("minReadySeconds"));
    let sel = validate_workload_selector(cx, d.spec.selector.as_ref(), "daemonset", &spec.child("selector"));
    validate_template(
        cx,
        &d.spec.template,
        sel.as_ref(),
        &["Always"],
        "DaemonSet",
        &spec.child("template"),
    );
}

pub(crate) fn validate_job(cx: &mut Ctx, j: &Job) {
    validate_object_meta(cx, &j.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    non_negative(cx, j.spec.parallelism.map(i64::from), &spec.child("parallelism"));
    non_negative(cx, j.spec.completions.map(i64::from), &spec.child("completions"));
    non_negative(cx, j.spec.backoff_limit.map(i64::from), &spec.child("backoffLimit"));
    non_negative(cx, j.spec.active_deadline_seconds, &spec.child("activeDeadlineSeconds"));
    if let Some(m) = j.spec.completion_mode.as_deref() {
        if !matches!(m, "NonIndexed" | "Indexed") {
            cx.push(not_supported(&spec.child("completionMode"), m, &["NonIndexed", "Indexed"]));
        } else if m == "Indexed" && j.spec.completions.is_none() {
            cx.push(required(&spec.child("completions"), "when completion mode is Indexed"));
        }
    }
    let sel = validate_workload_selector(cx, j.spec.selector.as_ref(), "job", &spec.child("selector"));
    validate_template(
        cx,
        &j.spec.template,
        sel.as_ref(),
        &["OnFailure", "Never"],
        "Job",
        &spec.child("template"),
    );
}
