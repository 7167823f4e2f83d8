//! The pieces of pods the controllers fill in: generated names, template hashes, the
//! DaemonSet controller's node affinity and tolerations, Job pods.

use crate::api::{self, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, OwnerReference, Toleration};
use crate::plugins::helper::{find_untolerated_taint, RequiredNodeAffinity};
use crate::rng::Rng;

pub const POD_TEMPLATE_HASH: &str = "pod-template-hash";
/// The field DaemonSet pods' node affinity selects on.
pub const DAEMONSET_NODE_FIELD: &str = "metadata.name";
pub const JOB_COMPLETION_INDEX: &str = "batch.kubernetes.io/job-completion-index";
pub const JOB_TRACKING_FINALIZER: &str = "batch.kubernetes.io/job-tracking";

/// The characters of generated names and hashes (no vowels, no look-alikes), as the apiserver
/// uses them.
const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
const RANDOM_LENGTH: usize = 5;
/// Longest prefix kept so that prefix + suffix is a valid name (63 characters).
const MAX_PREFIX: usize = 63 - RANDOM_LENGTH;

/// `prefix` (cut to 58 characters) and five characters drawn from `rng`.
pub fn generate_name(rng: &mut Rng, prefix: &str) -> String {
    let mut end = prefix.len().min(MAX_PREFIX);
    while !prefix.is_char_boundary(end) {
        end -= 1;
    }
    let mut name = prefix[..end].to_string();
    for _ in 0..RANDOM_LENGTH {
        name.push(ALPHANUMS[rng.below(ALPHANUMS.len() as u64) as usize] as char);
    }
    name
}

/// A deterministic hash of a pod template, encoded with the name alphabet: FNV-1a (32 bit)
/// over the template's JSON (and the collision count, when given), its decimal digits mapped
/// to the alphabet. Real clusters hash Go's printed form of the template, so the value differs
/// from theirs, but like theirs it depends only on the template.
pub fn pod_template_hash(t: &api::PodTemplateSpec, collision_count: Option<i32>) -> String {
    let mut json = serde_json::to_string(t).unwrap_or_default();
    if let Some(c) = collision_count {
        json.push_str(&c.to_string());
    }
    let h = json
        .bytes()
        .fold(0x811c_9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    h.to_string()
        .bytes()
        .map(|d| ALPHANUMS[d as usize % ALPHANUMS.len()] as char)
        .collect()
}

fn exists(key: &str, effect: &str) -> Toleration {
    Toleration {
        key: Some(key.into()),
        operator: Some("Exists".into()),
        value: None,
        effect: Some(effect.into()),
        toleration_seconds: None,
    }
}

/// The tolerations the DaemonSet controller gives its pods: not-ready and unreachable
/// (NoExecute); disk, memory and pid pressure and unschedulable (NoSchedule); and
/// network-unavailable (NoSchedule) for host-network pods.
pub fn daemon_tolerations(host_network: bool) -> Vec<Toleration> {
    let mut v = vec![
        exists("node.kubernetes.io/not-ready", "NoExecute"),
        exists("node.kubernetes.io/unreachable", "NoExecute"),
        exists("node.kubernetes.io/disk-pressure", "NoSchedule"),
        exists("node.kubernetes.io/memory-pressure", "NoSchedule"),
        exists("node.kubernetes.io/pid-pressure", "NoSchedule"),
        exists("node.kubernetes.io/unschedulable", "NoSchedule"),
    ];
    if host_network {
        v.push(exists("node.kubernetes.io/network-unavailable", "NoSchedule"));
    }
    v
}

/// Adds the DaemonSet tolerations the spec lacks; one with the same key, operator, value and
/// effect but other fields (tolerationSeconds) is replaced.
pub fn add_daemon_tolerations(spec: &mut api::PodSpec) {
    for t in daemon_tolerations(spec.host_network == Some(true)) {
        let same = |x: &Toleration| {
            x.key == t.key && x.operator.as_deref().unwrap_or("Equal") == "Exists" && x.value == t.value && x.effect == t.effect
        };
        match spec.tolerations.iter_mut().find(|x| same(x)) {
            Some(x) => *x = t,
            None => spec.tolerations.push(t),
        }
    }
}

/// Pins a DaemonSet pod to `node`: its required node affinity becomes the single term
/// `matchFields metadata.name In [node]` (other required terms are dropped: the controller has
/// already checked them; preferred terms stay).
pub fn replace_node_name_affinity(spec: &mut api::PodSpec, node: &str) {
    let term = NodeSelectorTerm {
        match_fields: vec![NodeSelectorRequirement {
            key: DAEMONSET_NODE_FIELD.into(),
            operator: "In".into(),
            values: vec![node.to_string()],
        }],
        ..Default::default()
    };
    let affinity = spec.affinity.get_or_insert_with(Default::default);
    let na = affinity.node_affinity.get_or_insert_with(NodeAffinity::default);
    na.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: vec![term],
    });
}

/// Whether a DaemonSet with this template runs a pod on `node`: the template's nodeName (if
/// any) names it, its nodeSelector and required node affinity match it, and every NoSchedule /
/// NoExecute taint of the node is tolerated (with the tolerations the controller adds).
pub fn daemon_should_run(t: &api::PodTemplateSpec, node: &api::Node) -> bool {
    if t.spec
        .node_name
        .as_deref()
        .is_some_and(|n| !n.is_empty() && n != node.metadata.name)
    {
        return false;
    }
    let pod = api::Pod {
        spec: t.spec.clone(),
        ..Default::default()
    };
    if !RequiredNodeAffinity::of(&pod).matches(node) {
        return false;
    }
    let mut tolerations = t.spec.tolerations.clone();
    tolerations.extend(daemon_tolerations(t.spec.host_network == Some(true)));
    find_untolerated_taint(&node.spec.taints, &tolerations, |taint| {
        taint.effect == "NoSchedule" || taint.effect == "NoExecute"
    })
    .is_none()
}

/// The node a DaemonSet pod is for: its nodeName, else the node its required affinity pins it
/// to (`matchFields metadata.name In [node]`).
pub fn daemon_pod_node(p: &api::Pod) -> Option<String> {
    if let Some(n) = p.spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        return Some(n.to_string());
    }
    let terms = &p
        .spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?
        .node_selector_terms;
    terms
        .iter()
        .flat_map(|t| &t.match_fields)
        .find_map(|r| (r.key == DAEMONSET_NODE_FIELD && r.operator == "In" && r.values.len() == 1).then(|| r.values[0].clone()))
}

/// The completion index of an Indexed Job's pod.
pub fn completion_index(p: &api::Pod) -> Option<usize> {
    p.metadata
        .annotations
        .get(JOB_COMPLETION_INDEX)
        .or_else(|| p.metadata.labels.get(JOB_COMPLETION_INDEX))
        .and_then(|v| v.parse().ok())
}

/// A Job's pod (before naming): the template, the job-tracking finalizer, and for Indexed
/// Jobs the completion index (annotation and label), the name prefix `<job>-<index>-` and the
/// hostname `<job>-<index>`.
pub fn job_pod(job: &api::Job, ns: &str, owner: OwnerReference, index: Option<usize>) -> api::Pod {
    let mut pod = super::pod_from_template(&job.spec.template, ns, owner);
    pod.metadata
        .finalizers
        .get_or_insert_with(Vec::new)
        .push(JOB_TRACKING_FINALIZER.into());
    if let Some(i) = index {
        pod.metadata.annotations.insert(JOB_COMPLETION_INDEX.into(), i.to_string());
        pod.metadata.labels.insert(JOB_COMPLETION_INDEX.into(), i.to_string());
        pod.metadata.generate_name = Some(format!("{}-{i}-", job.metadata.name));
        pod.spec.hostname = Some(format!("{}-{i}", job.metadata.name));
    }
    pod
}
