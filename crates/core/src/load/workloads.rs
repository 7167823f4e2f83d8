//! Loading Services and workload objects (ReplicationControllers, ReplicaSets, StatefulSets,
//! Deployments, DaemonSets, Jobs): the kinds, their apiserver defaults, and where each joins
//! the scenario. The loader hands every kind of `KINDS` to `Loader::workload`.

use super::defaults::{default_pod_spec, stamp};
use super::yaml::YNode;
use super::{validate, KindEntry, Loader};
use crate::api::{self, IntOrString, LabelSelector, PodTemplateSpec};
use crate::cluster::Workloads;

pub(super) const KINDS: [KindEntry; 7] = [
    ("v1", "Service", "services", true),
    ("v1", "ReplicationController", "replicationcontrollers", true),
    ("apps/v1", "ReplicaSet", "replicasets.apps", true),
    ("apps/v1", "StatefulSet", "statefulsets.apps", true),
    ("apps/v1", "Deployment", "deployments.apps", true),
    ("apps/v1", "DaemonSet", "daemonsets.apps", true),
    ("batch/v1", "Job", "jobs.batch", true),
];

impl Loader<'_> {
    /// Admits one object of a kind of `KINDS` into `Cluster::workloads`.
    pub(super) fn workload(&mut self, node: &YNode, entry: &KindEntry, doc: usize) {
        match entry.1 {
            "Service" => {
                if let Some(o) = self.admit(node, entry, doc, default_service, validate::validate_service) {
                    self.sc.cluster.workloads.services.push(o);
                }
            }
            "ReplicationController" => {
                if let Some(o) = self.admit(node, entry, doc, default_rc, validate::validate_replication_controller) {
                    self.sc.cluster.workloads.replication_controllers.push(o);
                }
            }
            "ReplicaSet" => {
                if let Some(o) = self.admit(node, entry, doc, default_replica_set, validate::validate_replica_set) {
                    self.sc.cluster.workloads.replica_sets.push(o);
                }
            }
            "StatefulSet" => {
                if let Some(o) = self.admit(node, entry, doc, default_stateful_set, validate::validate_stateful_set) {
                    self.sc.cluster.workloads.stateful_sets.push(o);
                }
            }
            "Deployment" => {
                if let Some(o) = self.admit(node, entry, doc, default_deployment, validate::validate_deployment) {
                    self.sc.cluster.workloads.deployments.push(o);
                }
            }
            "DaemonSet" => {
                if let Some(o) = self.admit(node, entry, doc, default_daemon_set, validate::validate_daemon_set) {
                    self.sc.cluster.workloads.daemon_sets.push(o);
                }
            }
            "Job" => {
                if let Some(o) = self.admit(node, entry, doc, default_job, validate::validate_job) {
                    self.sc.cluster.workloads.jobs.push(o);
                }
            }
            _ => unreachable!("every kind of workloads::KINDS is handled"),
        }
    }
}

/// The namespaces workload objects live in (they exist in the simulated cluster).
pub(super) fn namespaces(w: &Workloads) -> impl Iterator<Item = String> + '_ {
    let metas = w
        .services
        .iter()
        .map(|o| &o.metadata)
        .chain(w.replication_controllers.iter().map(|o| &o.metadata))
        .chain(w.replica_sets.iter().map(|o| &o.metadata))
        .chain(w.stateful_sets.iter().map(|o| &o.metadata))
        .chain(w.deployments.iter().map(|o| &o.metadata))
        .chain(w.daemon_sets.iter().map(|o| &o.metadata))
        .chain(w.jobs.iter().map(|o| &o.metadata));
    metas.filter_map(|m| m.namespace.clone())
}

/// A pod template's spec defaults (as the apiserver applies them inside a workload object).
pub(crate) fn default_template(t: &mut PodTemplateSpec) {
    let mut pod = api::Pod {
        spec: std::mem::take(&mut t.spec),
        ..Default::default()
    };
    default_pod_spec(&mut pod);
    t.spec = pod.spec;
}

fn default_service(s: &mut api::Service, doc: usize) {
    stamp(&mut s.metadata, "Service", true, doc);
    let spec = &mut s.spec;
    let ty = spec.type_.get_or_insert_with(|| "ClusterIP".into()).clone();
    if ty != "ExternalName" {
        spec.session_affinity.get_or_insert_with(|| "None".into());
        spec.internal_traffic_policy.get_or_insert_with(|| "Cluster".into());
    }
    for p in &mut spec.ports {
        p.protocol.get_or_insert_with(|| "TCP".into());
        if p.target_port.is_none() {
            p.target_port = Some(IntOrString::Int(i64::from(p.port)));
        }
    }
}

fn default_rc(rc: &mut api::ReplicationController, doc: usize) {
    stamp(&mut rc.metadata, "ReplicationController", true, doc);
    rc.spec.replicas.get_or_insert(1);
    if let Some(t) = rc.spec.template.as_mut() {
        if rc.spec.selector.is_empty() {
            rc.spec.selector = t.metadata.labels.clone();
        }
        if rc.metadata.labels.is_empty() {
            rc.metadata.labels = t.metadata.labels.clone();
        }
        default_template(t);
    }
}

fn default_replica_set(rs: &mut api::ReplicaSet, doc: usize) {
    stamp(&mut rs.metadata, "ReplicaSet", true, doc);
    rs.spec.replicas.get_or_insert(1);
    default_template(&mut rs.spec.template);
}

fn default_stateful_set(ss: &mut api::StatefulSet, doc: usize) {
    stamp(&mut ss.metadata, "StatefulSet", true, doc);
    let s = &mut ss.spec;
    s.replicas.get_or_insert(1);
    s.pod_management_policy.get_or_insert_with(|| "OrderedReady".into());
    s.revision_history_limit.get_or_insert(10);
    s.update_strategy
        .get_or_insert_with(|| serde_json::json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}));
    s.persistent_volume_claim_retention_policy
        .get_or_insert_with(|| serde_json::json!({"whenDeleted": "Retain", "whenScaled": "Retain"}));
    default_template(&mut s.template);
}

fn default_deployment(d: &mut api::Deployment, doc: usize) {
    stamp(&mut d.metadata, "Deployment", true, doc);
    let s = &mut d.spec;
    s.replicas.get_or_insert(1);
    s.revision_history_limit.get_or_insert(10);
    s.progress_deadline_seconds.get_or_insert(600);
    s.strategy
        .get_or_insert_with(|| serde_json::json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}));
    default_template(&mut s.template);
}

fn default_daemon_set(d: &mut api::DaemonSet, doc: usize) {
    stamp(&mut d.metadata, "DaemonSet", true, doc);
    let s = &mut d.spec;
    s.revision_history_limit.get_or_insert(10);
    s.update_strategy
        .get_or_insert_with(|| serde_json::json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}}));
    default_template(&mut s.template);
}

/// Label keys the apiserver gives a Job's selector and pod template (unless
/// `manualSelector: true`).
pub const JOB_CONTROLLER_UID_LABEL: &str = "batch.kubernetes.io/controller-uid";
pub const JOB_NAME_LABEL: &str = "batch.kubernetes.io/job-name";

fn default_job(j: &mut api::Job, doc: usize) {
    stamp(&mut j.metadata, "Job", true, doc);
    let s = &mut j.spec;
    match (s.completions, s.parallelism) {
        (None, None) => {
            s.completions = Some(1);
            s.parallelism = Some(1);
        }
        (_, None) => s.parallelism = Some(1),
        _ => {}
    }
    s.backoff_limit.get_or_insert(6);
    s.completion_mode.get_or_insert_with(|| "NonIndexed".into());
    s.suspend.get_or_insert(false);
    s.manual_selector.get_or_insert(false);
    s.pod_replacement_policy.get_or_insert_with(|| "TerminatingOrFailed".into());
    // The job strategy generates the selector from the Job's UID and labels the template.
    if s.manual_selector != Some(true) {
        let uid = j.metadata.uid.clone().unwrap_or_default();
        let labels = &mut s.template.metadata.labels;
        labels.insert(JOB_CONTROLLER_UID_LABEL.into(), uid.clone());
        labels.insert(JOB_NAME_LABEL.into(), j.metadata.name.clone());
        labels.insert("controller-uid".into(), uid.clone());
        labels.insert("job-name".into(), j.metadata.name.clone());
        if s.selector.is_none() {
            let mut sel = LabelSelector::default();
            sel.match_labels.insert(JOB_CONTROLLER_UID_LABEL.into(), uid);
            s.selector = Some(sel);
        }
    }
    // A Job's pods have no default restart policy: keep what the template says.
    let restart = s.template.spec.restart_policy.clone();
    default_template(&mut s.template);
    s.template.spec.restart_policy = restart;
}

macro_rules! admitted_workloads {
    ($($t:ty),*) => {$(
        impl super::Admitted for $t {
            fn meta(&self) -> &api::ObjectMeta {
                &self.metadata
            }
            fn set_type(&mut self, api_version: &str, kind: &str) {
                self.api_version = api_version.into();
                self.kind = kind.into();
            }
        }
    )*};
}

admitted_workloads!(
    api::Service,
    api::ReplicationController,
    api::ReplicaSet,
    api::StatefulSet,
    api::Deployment,
    api::DaemonSet,
    api::Job
);
