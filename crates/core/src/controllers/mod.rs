//! Workload controllers: the parts of kube-controller-manager that create pods. Deployments
//! create ReplicaSets; ReplicationControllers, ReplicaSets, StatefulSets, DaemonSets and Jobs
//! create pods from their templates, named, labelled and owned as the real controllers do.
//!
//! This module sits beside the scheduler, never inside it: it reads and extends a `Scenario`
//! (the simulated API objects) before the engine sees it, and the engine never calls it. Like
//! the rest of core it does no IO and reads no clock; the random name suffixes the apiserver
//! would draw come from a stream of the scenario's seed, so a scenario and seed always create
//! the same pods.
//!
//! `reconcile` compares what each workload asks for with the pods that exist and creates the
//! missing ones; it can be called again whenever pods finish or are deleted (a later timeline),
//! and then only makes up the difference.

#[cfg(test)]
mod live_tests;
mod pods;
#[cfg(test)]
mod tests;

pub use pods::{daemon_tolerations, generate_name, pod_template_hash, DAEMONSET_NODE_FIELD, POD_TEMPLATE_HASH};

use std::sync::Arc;
use crate::api::{self, ObjectMeta, OwnerReference};
use crate::load::Scenario;
use crate::rng::Rng;
use schedlab_view::words::{ObjectKind, ObjectRef};
use std::collections::HashSet;

/// Mixed into the seed so that the controllers' stream differs from the scheduler's tie-breaks.
const STREAM: u64 = 0x636f_6e74_726f_6c73; // "controls"

/// What one reconciliation did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Pods created, as `namespace/name`, in creation order.
    pub pods: Vec<String>,
    /// ReplicaSets created for Deployments, as `namespace/name`.
    pub replica_sets: Vec<String>,
    /// PersistentVolumeClaims created from StatefulSet volumeClaimTemplates, as
    /// `namespace/name`.
    pub claims: Vec<String>,
    /// Pods that could not be created (e.g. a template naming a missing PriorityClass), each
    /// with the controller and the reason, worded like a FailedCreate event.
    pub failed: Vec<String>,
    /// The controller that created each pod of `pods` (kind and name), in the same order.
    #[serde(default)]
    pub owners: Vec<ObjectRef>,
    /// Pods a controller deletes (only while the cluster runs, see `Controllers::react`), as
    /// (`namespace/name`, the controller), in deletion order.
    #[serde(default)]
    pub deleted: Vec<(String, ObjectRef)>,
}

/// The controllers' state between reconciliations: the name stream.
#[derive(Clone, Debug)]
pub struct Controllers {
    rng: Rng,
}

impl Controllers {
    pub fn new(seed: u64) -> Controllers {
        Controllers {
            rng: Rng::new(seed ^ STREAM),
        }
    }

    /// Runs every controller once over the scenario: Deployments first (their ReplicaSets are
    /// created or scaled), then ReplicationControllers, ReplicaSets, StatefulSets, DaemonSets
    /// and Jobs, each kind in creation order. New objects are appended to the scenario (pods
    /// after its pods, in creation order, pending) and created one second apart after its last
    /// object.
    pub fn reconcile(&mut self, sc: &mut Scenario) -> Report {
        self.pass(sc, &HashSet::new(), false)
    }

    /// Runs every controller once over a running cluster (`sc` holds its nodes, its pods that
    /// were not deleted, with their phase, and the objects): like `reconcile`, and also what a
    /// controller does to pods that exist but should not — a ReplicaSet, ReplicationController
    /// or StatefulSet above its replicas deletes pods, a DaemonSet deletes a pod whose node is
    /// gone. `gone` holds deleted pods' (namespace, name): generated names avoid them, and a
    /// StatefulSet may create its pod of that name again. Deletions are reported, not applied.
    pub fn react(&mut self, sc: &mut Scenario, gone: &HashSet<(String, String)>) -> Report {
        self.pass(sc, gone, true)
    }

    fn pass(&mut self, sc: &mut Scenario, gone: &HashSet<(String, String)>, live: bool) -> Report {
        let mut r = Reconciler {
            sc,
            rng: &mut self.rng,
            report: Report::default(),
            taken: HashSet::new(),
            present: HashSet::new(),
            live,
        };
        r.present = r.sc.pods.iter().map(|p| key(&p.metadata)).collect();
        r.taken = r.present.iter().chain(gone).cloned().collect();
        r.deployments();
        r.replication_controllers();
        r.replica_sets();
        r.stateful_sets();
        r.daemon_sets();
        r.jobs();
        r.template_claims();
        r.report
    }
}

/// Runs the controllers once over a freshly loaded scenario (see `Controllers::reconcile`).
pub fn run(sc: &mut Scenario, seed: u64) -> Report {
    Controllers::new(seed).reconcile(sc)
}

fn key(m: &ObjectMeta) -> (String, String) {
    (m.namespace.clone().unwrap_or_else(|| "default".into()), m.name.clone())
}

fn ns_of(m: &ObjectMeta) -> &str {
    m.namespace.as_deref().unwrap_or("default")
}

/// A controller reference to `owner` (controller and blockOwnerDeletion set, as the
/// controllers set them).
fn controller_ref(api_version: &str, kind: &str, owner: &ObjectMeta) -> OwnerReference {
    OwnerReference {
        api_version: api_version.into(),
        kind: kind.into(),
        name: owner.name.clone(),
        uid: owner.uid.clone().unwrap_or_default(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// Whether `pod` is controlled by the object (`kind`, `meta`): its controller reference names
/// that kind and name in the pod's namespace (a uid, when both have one, must agree).
fn controlled_by(pod: &ObjectMeta, kind: &str, owner: &ObjectMeta) -> bool {
    if ns_of(pod) != ns_of(owner) {
        return false;
    }
    pod.owner_references.iter().find(|o| o.controller == Some(true)).is_some_and(|o| {
        o.kind == kind && o.name == owner.name && (o.uid.is_empty() || owner.uid.as_deref().is_none_or(|u| u.is_empty() || u == o.uid))
    })
}

/// Pods that count as existing replicas: not Succeeded, not Failed, not being deleted.
fn is_active(p: &api::Pod) -> bool {
    !matches!(p.status.phase.as_deref(), Some("Succeeded") | Some("Failed")) && p.metadata.deletion_timestamp.is_none()
}

struct Reconciler<'a> {
    sc: &'a mut Scenario,
    rng: &'a mut Rng,
    report: Report,
    /// (namespace, name) of every pod, deleted ones included (names generated avoid them).
    taken: HashSet<(String, String)>,
    /// (namespace, name) of the pods that exist.
    present: HashSet<(String, String)>,
    /// The cluster runs: controllers also delete pods (see `Controllers::react`).
    live: bool,
}

impl Reconciler<'_> {
    /// The resourceclaim controller's part: the pods created in this pass get the claims their
    /// `resourceClaimTemplateName` entries ask for, as the loader makes them for the scenario's
    /// own pods (`<pod>-<entry>`, owned by the pod, recorded in the pod's claim statuses). A
    /// missing template or a name clash leaves the pod waiting for its claim, with the reason in
    /// `failed`.
    fn template_claims(&mut self) {
        let created: HashSet<String> = self.report.pods.iter().cloned().collect();
        let dra = &mut self.sc.cluster.dra;
        for p in self.sc.pods.iter_mut() {
            let ns = ns_of(&p.metadata).to_string();
            if !created.contains(&format!("{ns}/{}", p.metadata.name)) {
                continue;
            }
            let mut statuses = Vec::new();
            for entry in &p.spec.resource_claims {
                let Some(tname) = &entry.resource_claim_template_name else {
                    continue;
                };
                let Some(t) = dra.templates.get(&format!("{ns}/{tname}")).cloned() else {
                    self.report.failed.push(format!(
                        "ResourceClaim for pod {ns}/{}: resourceclaimtemplate.resource.k8s.io {tname:?} not found",
                        p.metadata.name
                    ));
                    continue;
                };
                let claim = crate::load::template_claim(p, &ns, &entry.name, &t);
                let key = crate::dra::claim_key(&claim);
                if dra.claims.contains_key(&key) {
                    self.report.failed.push(format!(
                        "ResourceClaim {key} for pod {ns}/{}: a claim of that name exists",
                        p.metadata.name
                    ));
                    continue;
                }
                statuses.push(serde_json::json!({"name": entry.name, "resourceClaimName": claim.metadata.name}));
                dra.claims.insert(key, std::sync::Arc::new(claim));
                dra.reported = true;
            }
            if !statuses.is_empty() {
                Arc::make_mut(p).status.resource_claim_statuses = Some(Box::new(serde_json::Value::Array(statuses)));
            }
        }
    }

    /// Active pods controlled by (`kind`, `owner`).
    fn owned_active(&self, kind: &str, owner: &ObjectMeta) -> Vec<usize> {
        (0..self.sc.pods.len())
            .filter(|&i| {
                let p = &self.sc.pods[i];
                is_active(p) && controlled_by(&p.metadata, kind, owner)
            })
            .collect()
    }

    /// While the cluster runs, a replica controller with more active pods than `want` deletes
    /// the surplus, in the order upstream's ReplicaSet controller ranks pods for deletion
    /// (`ActivePodsWithRanks`, with the cluster's simplifications: every running pod is ready,
    /// nothing restarts): pods not yet on a node first, then pods sharing their node with more
    /// pods of the same owner, then the newest.
    fn scale_down(&mut self, have: &[usize], want: usize, what: &ObjectRef) {
        if !self.live || have.len() <= want {
            return;
        }
        let node_of = |i: usize| self.sc.pods[i].spec.node_name.clone().filter(|n| !n.is_empty());
        let mut per_node: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for &i in have {
            if let Some(n) = node_of(i) {
                *per_node.entry(n).or_default() += 1;
            }
        }
        // Pods are listed in creation order (the file's, then those created since).
        let mut ranked: Vec<(bool, std::cmp::Reverse<usize>, std::cmp::Reverse<usize>)> = have
            .iter()
            .map(|&i| {
                let node = node_of(i);
                let colocated = node.as_ref().map_or(0, |n| per_node[n]);
                (node.is_some(), std::cmp::Reverse(colocated), std::cmp::Reverse(i))
            })
            .collect();
        crate::sort::sort(&mut ranked);
        for r in ranked.into_iter().take(have.len() - want) {
            let k = key(&self.sc.pods[r.2 .0].metadata);
            self.report.deleted.push((format!("{}/{}", k.0, k.1), what.clone()));
        }
    }

    /// The next object's document index (created objects follow the file's).
    fn next_doc(&mut self) -> usize {
        let d = self.sc.documents;
        self.sc.documents += 1;
        d
    }

    /// A free name `prefix` + five random characters, as the apiserver's generateName does.
    fn generate_name(&mut self, ns: &str, prefix: &str) -> String {
        loop {
            let name = generate_name(self.rng, prefix);
            if !self.taken.contains(&(ns.to_string(), name.clone())) {
                return name;
            }
        }
    }

    /// Creates a pod (apiserver defaulting and priority admission included) and appends it.
    fn create_pod(&mut self, mut pod: api::Pod, owner: &ObjectRef) {
        let doc = self.next_doc();
        crate::load::defaults::default_pod(&mut pod, doc);
        if let Err((_, why)) = crate::load::defaults::admit_priority(&mut pod, &self.sc.cluster.priority_classes) {
            self.report
                .failed
                .push(format!("{owner}: Error creating: pods {:?} is forbidden: {why}", pod.metadata.name));
            return;
        }
        pod.api_version = "v1".into();
        pod.kind = "Pod".into();
        let k = key(&pod.metadata);
        self.report.pods.push(format!("{}/{}", k.0, k.1));
        self.report.owners.push(owner.clone());
        self.taken.insert(k.clone());
        self.present.insert(k);
        self.sc.pods.push(Arc::new(pod));
        self.sc.pod_docs.push(doc);
        self.sc.created_pods += 1;
    }

    /// Creates a StatefulSet pod's claim from a volumeClaimTemplate unless it exists: the
    /// template's spec, its labels plus the set's matchLabels, in the set's namespace.
    fn create_claim(&mut self, t: &api::PersistentVolumeClaim, ss: &api::StatefulSet, name: &str) {
        let ns = ns_of(&ss.metadata).to_string();
        let key = format!("{ns}/{name}");
        if self.sc.cluster.pvcs.contains_key(&key) {
            return;
        }
        let mut labels = t.metadata.labels.clone();
        if let Some(sel) = &ss.spec.selector {
            labels.extend(sel.match_labels.clone());
        }
        let mut claim = api::PersistentVolumeClaim {
            api_version: "v1".into(),
            kind: "PersistentVolumeClaim".into(),
            metadata: ObjectMeta {
                name: name.to_string(),
                namespace: Some(ns),
                labels,
                annotations: t.metadata.annotations.clone(),
                ..Default::default()
            },
            spec: t.spec.clone(),
            status: Default::default(),
        };
        let doc = self.next_doc();
        crate::load::defaults::default_pvc(&mut claim, doc);
        claim.status.phase = Some("Pending".into());
        self.report.claims.push(key.clone());
        self.sc.cluster.pvcs.insert(key, std::sync::Arc::new(claim));
    }

    /// Creates `n` pods from a ReplicaSet-like template with generated names.
    fn create_replicas(&mut self, n: usize, template: &api::PodTemplateSpec, owner: OwnerReference, ns: &str) {
        let what = ObjectRef::new(ObjectKind::from_api(&owner.kind), None, owner.name.clone());
        for _ in 0..n {
            let mut pod = pod_from_template(template, ns, owner.clone());
            let prefix = pod.metadata.generate_name.clone().unwrap_or_default();
            pod.metadata.name = self.generate_name(ns, &prefix);
            self.create_pod(pod, &what);
        }
    }

    fn deployments(&mut self) {
        for i in 0..self.sc.cluster.workloads.deployments.len() {
            let d = self.sc.cluster.workloads.deployments[i].clone();
            let replicas = d.spec.replicas.unwrap_or(1);
            let ns = ns_of(&d.metadata).to_string();
            // The Deployment's current ReplicaSet: the newest revision it controls.
            let owned = self
                .sc
                .cluster
                .workloads
                .replica_sets
                .iter()
                .enumerate()
                .filter(|(_, rs)| controlled_by(&rs.metadata, "Deployment", &d.metadata))
                .max_by_key(|(j, rs)| (revision(&rs.metadata), *j))
                .map(|(j, _)| j);
            if let Some(j) = owned {
                // Scaled to the Deployment's replicas (older revisions are left as they are).
                self.sc.cluster.workloads.replica_sets[j].spec.replicas = Some(replicas);
                continue;
            }
            let doc = self.next_doc();
            let rs = replica_set_for(&d, doc);
            self.report.replica_sets.push(format!("{ns}/{}", rs.metadata.name));
            self.sc.cluster.workloads.replica_sets.push(rs);
        }
    }

    fn replication_controllers(&mut self) {
        for i in 0..self.sc.cluster.workloads.replication_controllers.len() {
            let rc = self.sc.cluster.workloads.replication_controllers[i].clone();
            let Some(t) = &rc.spec.template else { continue };
            let want = rc.spec.replicas.unwrap_or(1).max(0) as usize;
            let have = self.owned_active("ReplicationController", &rc.metadata);
            self.scale_down(&have, want, &ObjectRef::new(ObjectKind::ReplicationController, None, rc.metadata.name.clone()));
            let owner = controller_ref("v1", "ReplicationController", &rc.metadata);
            self.create_replicas(want.saturating_sub(have.len()), t, owner, ns_of(&rc.metadata));
        }
    }

    fn replica_sets(&mut self) {
        for i in 0..self.sc.cluster.workloads.replica_sets.len() {
            let rs = self.sc.cluster.workloads.replica_sets[i].clone();
            let want = rs.spec.replicas.unwrap_or(1).max(0) as usize;
            let have = self.owned_active("ReplicaSet", &rs.metadata);
            self.scale_down(&have, want, &ObjectRef::new(ObjectKind::ReplicaSet, None, rs.metadata.name.clone()));
            let owner = controller_ref("apps/v1", "ReplicaSet", &rs.metadata);
            self.create_replicas(want.saturating_sub(have.len()), &rs.spec.template, owner, ns_of(&rs.metadata));
        }
    }

    fn stateful_sets(&mut self) {
        for i in 0..self.sc.cluster.workloads.stateful_sets.len() {
            let ss = self.sc.cluster.workloads.stateful_sets[i].clone();
            let ns = ns_of(&ss.metadata).to_string();
            let start = ss.spec.ordinals.as_ref().map_or(0, |o| o.start.max(0)) as i64;
            let replicas = ss.spec.replicas.unwrap_or(1).max(0) as i64;
            let revision = format!("{}-{}", ss.metadata.name, pod_template_hash(&ss.spec.template, None));
            let what = ObjectRef::new(ObjectKind::StatefulSet, None, ss.metadata.name.clone());
            if self.live {
                // Scaled down: the highest ordinals go first.
                let mut extra: Vec<(i64, usize)> = self
                    .owned_active("StatefulSet", &ss.metadata)
                    .into_iter()
                    .filter_map(|i| {
                        let name = &self.sc.pods[i].metadata.name;
                        let ordinal: i64 = name.strip_prefix(&format!("{}-", ss.metadata.name))?.parse().ok()?;
                        (ordinal < start || ordinal >= start + replicas).then_some((ordinal, i))
                    })
                    .collect();
                crate::sort::sort_by_key(&mut extra, |&(o, _)| std::cmp::Reverse(o));
                for (_, i) in extra {
                    let k = key(&self.sc.pods[i].metadata);
                    self.report.deleted.push((format!("{}/{}", k.0, k.1), what.clone()));
                }
            }
            for ordinal in start..start + replicas {
                let name = format!("{}-{ordinal}", ss.metadata.name);
                // A pod of that name (whatever its state) holds the ordinal.
                if self.present.contains(&(ns.clone(), name.clone())) {
                    continue;
                }
                let owner = controller_ref("apps/v1", "StatefulSet", &ss.metadata);
                let mut pod = pod_from_template(&ss.spec.template, &ns, owner);
                pod.metadata.generate_name = None;
                pod.metadata.name = name.clone();
                let labels = &mut pod.metadata.labels;
                labels.insert("statefulset.kubernetes.io/pod-name".into(), name.clone());
                labels.insert("apps.kubernetes.io/pod-index".into(), ordinal.to_string());
                labels.insert("controller-revision-hash".into(), revision.clone());
                pod.spec.hostname = Some(name.clone());
                if let Some(svc) = ss.spec.service_name.as_deref().filter(|s| !s.is_empty()) {
                    pod.spec.subdomain = Some(svc.to_string());
                }
                for t in &ss.spec.volume_claim_templates {
                    let claim = format!("{}-{name}", t.metadata.name);
                    self.create_claim(t, &ss, &claim);
                    pod.spec.volumes.retain(|v| v.name != t.metadata.name);
                    pod.spec.volumes.push(api::Volume {
                        name: t.metadata.name.clone(),
                        persistent_volume_claim: Some(api::PersistentVolumeClaimVolumeSource {
                            claim_name: claim,
                            read_only: None,
                        }),
                        ..Default::default()
                    });
                }
                self.create_pod(pod, &what);
            }
        }
    }

    fn daemon_sets(&mut self) {
        for i in 0..self.sc.cluster.workloads.daemon_sets.len() {
            let ds = self.sc.cluster.workloads.daemon_sets[i].clone();
            let ns = ns_of(&ds.metadata).to_string();
            let hash = pod_template_hash(&ds.spec.template, None);
            let what = ObjectRef::new(ObjectKind::DaemonSet, None, ds.metadata.name.clone());
            let owned = self.owned_active("DaemonSet", &ds.metadata);
            if self.live {
                for &p in &owned {
                    let target = pods::daemon_pod_node(&self.sc.pods[p]);
                    let exists = |n: &str| self.sc.nodes.iter().any(|x| x.metadata.name == n);
                    if target.as_deref().is_some_and(|n| !exists(n)) {
                        let k = key(&self.sc.pods[p].metadata);
                        self.report.deleted.push((format!("{}/{}", k.0, k.1), what.clone()));
                    }
                }
            }
            for n in 0..self.sc.nodes.len() {
                let node = self.sc.nodes[n].clone();
                if !pods::daemon_should_run(&ds.spec.template, &node) {
                    continue;
                }
                let there = owned
                    .iter()
                    .any(|&p| pods::daemon_pod_node(&self.sc.pods[p]).as_deref() == Some(node.metadata.name.as_str()));
                if there {
                    continue;
                }
                let owner = controller_ref("apps/v1", "DaemonSet", &ds.metadata);
                let mut pod = pod_from_template(&ds.spec.template, &ns, owner);
                pod.metadata.labels.insert("controller-revision-hash".into(), hash.clone());
                pod.metadata.labels.insert("pod-template-generation".into(), "1".into());
                pods::add_daemon_tolerations(&mut pod.spec);
                pods::replace_node_name_affinity(&mut pod.spec, &node.metadata.name);
                let prefix = pod.metadata.generate_name.clone().unwrap_or_default();
                pod.metadata.name = self.generate_name(&ns, &prefix);
                self.create_pod(pod, &what);
            }
        }
    }

    fn jobs(&mut self) {
        for i in 0..self.sc.cluster.workloads.jobs.len() {
            let job = self.sc.cluster.workloads.jobs[i].clone();
            if job.spec.suspend == Some(true) {
                continue;
            }
            let ns = ns_of(&job.metadata).to_string();
            let what = ObjectRef::new(ObjectKind::Job, None, job.metadata.name.clone());
            let owned: Vec<&api::Pod> = self
                .sc
                .pods
                .iter()
                .filter(|p| controlled_by(&p.metadata, "Job", &job.metadata))
                .map(|p| &**p)
                .collect();
            let active: Vec<&api::Pod> = owned.iter().copied().filter(|p| is_active(p)).collect();
            let succeeded: Vec<&api::Pod> = owned
                .iter()
                .copied()
                .filter(|p| p.status.phase.as_deref() == Some("Succeeded"))
                .collect();
            let parallelism = job.spec.parallelism.unwrap_or(1).max(0) as usize;
            let indexed = job.spec.completion_mode.as_deref() == Some("Indexed");
            let owner = controller_ref("batch/v1", "Job", &job.metadata);
            if indexed {
                let completions = job.spec.completions.unwrap_or(0).max(0) as usize;
                let busy: HashSet<usize> = active.iter().chain(&succeeded).filter_map(|p| pods::completion_index(p)).collect();
                let room = parallelism.saturating_sub(active.len());
                let todo: Vec<usize> = (0..completions).filter(|x| !busy.contains(x)).take(room).collect();
                for index in todo {
                    let mut pod = pods::job_pod(&job, &ns, owner.clone(), Some(index));
                    let prefix = pod.metadata.generate_name.clone().unwrap_or_default();
                    pod.metadata.name = self.generate_name(&ns, &prefix);
                    self.create_pod(pod, &what);
                }
                continue;
            }
            let want_active = match job.spec.completions {
                Some(c) => parallelism.min((c.max(0) as usize).saturating_sub(succeeded.len())),
                // A work queue: once one pod succeeded, no new pod starts.
                None if !succeeded.is_empty() => 0,
                None => parallelism,
            };
            for _ in active.len()..want_active {
                let mut pod = pods::job_pod(&job, &ns, owner.clone(), None);
                let prefix = pod.metadata.generate_name.clone().unwrap_or_default();
                pod.metadata.name = self.generate_name(&ns, &prefix);
                self.create_pod(pod, &what);
            }
        }
    }
}

/// `deployment.kubernetes.io/revision` of a ReplicaSet (0 when absent).
fn revision(m: &ObjectMeta) -> i64 {
    m.annotations
        .get("deployment.kubernetes.io/revision")
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

/// The ReplicaSet a Deployment creates for its template: named `<deployment>-<hash>`, the
/// `pod-template-hash` label added to its labels, selector and template.
fn replica_set_for(d: &api::Deployment, doc: usize) -> api::ReplicaSet {
    let hash = pod_template_hash(&d.spec.template, None);
    let mut template = d.spec.template.clone();
    template.metadata.labels.insert(POD_TEMPLATE_HASH.into(), hash.clone());
    let mut selector = d.spec.selector.clone().unwrap_or_default();
    selector.match_labels.insert(POD_TEMPLATE_HASH.into(), hash.clone());
    let mut labels = d.spec.template.metadata.labels.clone();
    labels.insert(POD_TEMPLATE_HASH.into(), hash.clone());
    let replicas = d.spec.replicas.unwrap_or(1);
    let mut meta = ObjectMeta {
        name: format!("{}-{hash}", d.metadata.name),
        namespace: Some(ns_of(&d.metadata).to_string()),
        labels,
        owner_references: vec![controller_ref("apps/v1", "Deployment", &d.metadata)],
        ..Default::default()
    };
    meta.annotations.insert("deployment.kubernetes.io/revision".into(), "1".into());
    meta.annotations
        .insert("deployment.kubernetes.io/desired-replicas".into(), replicas.to_string());
    crate::load::defaults::stamp(&mut meta, "ReplicaSet", true, doc);
    api::ReplicaSet {
        api_version: "apps/v1".into(),
        kind: "ReplicaSet".into(),
        metadata: meta,
        spec: api::ReplicaSetSpec {
            replicas: Some(replicas),
            min_ready_seconds: d.spec.min_ready_seconds,
            selector: Some(selector),
            template,
        },
        status: None,
    }
}

/// A pod as a controller builds it from a template (before the apiserver's defaulting): the
/// template's labels, annotations, finalizers and spec, the owner's namespace, a controller
/// reference, and the name prefix `<owner>-`.
fn pod_from_template(t: &api::PodTemplateSpec, ns: &str, owner: OwnerReference) -> api::Pod {
    let prefix = format!("{}-", owner.name);
    api::Pod {
        metadata: ObjectMeta {
            generate_name: Some(prefix),
            namespace: Some(ns.to_string()),
            labels: t.metadata.labels.clone(),
            annotations: t.metadata.annotations.clone(),
            finalizers: t.metadata.finalizers.clone(),
            owner_references: vec![owner],
            ..Default::default()
        },
        spec: t.spec.clone(),
        ..Default::default()
    }
}
