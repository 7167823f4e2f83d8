//! The engine's working model: PodInfo (a pod with everything the plugins precompute) and
//! NodeInfo (a node with the pods on it and their aggregate requests), and the cluster events
//! that change it (`events`). Below the cluster, which holds them, and the framework, which
//! re-exports them (`framework::NodeInfo`, `framework::events`).

pub mod events;

use crate::api::{self, Labels, Pod, ResourceList};
use crate::labels::Selector;
use crate::quantity::Quantity;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

pub const RESOURCE_CPU: &str = "cpu";
pub const RESOURCE_MEMORY: &str = "memory";
pub const RESOURCE_PODS: &str = "pods";
pub const RESOURCE_EPHEMERAL_STORAGE: &str = "ephemeral-storage";

/// Extended resources, hugepages, prefixed native (`*kubernetes.io/`) and attachable-volume
/// resources: what upstream calls scalar resources.
pub fn is_scalar_resource_name(name: &str) -> bool {
    is_extended_resource_name(name)
        || name.starts_with("hugepages-")
        || name.contains("kubernetes.io/")
        || name.starts_with("attachable-volumes-")
}

/// A resource name outside the kubernetes.io/ namespace that, prefixed with `requests.`, is a
/// valid qualified name (upstream v1helper.IsExtendedResourceName).
pub fn is_extended_resource_name(name: &str) -> bool {
    // Unprefixed names and names in the kubernetes.io/ namespace are native.
    if !name.contains('/') || name.contains("kubernetes.io/") || name.starts_with("requests.") {
        return false;
    }
    let mut parts = name.split('/');
    let (Some(prefix), Some(local), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    // The quota form `requests.<prefix>` must be a DNS-1123 subdomain.
    let quota_prefix_len = "requests.".len() + prefix.len();
    if quota_prefix_len > 253 || !is_dns1123_subdomain_tail(prefix) {
        return false;
    }
    is_qualified_name_part(local)
}

/// Whether `requests.` followed by `s` is a DNS-1123 subdomain (`requests` itself is a valid
/// first label, so `s` must be a dot-separated list of valid labels).
fn is_dns1123_subdomain_tail(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// The name part of a qualified name: at most 63 characters, alphanumeric at both ends, with
/// `-`, `_` and `.` allowed inside.
fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// Aggregate compute resources in the units the scheduler uses (milli-cpu, bytes, counts).
/// `repr(C)`: the four amounts Filter and Score read come first, together, the scalars after,
/// out of line (40 bytes in all: `NodeInfo` holds three).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Resource {
    pub milli_cpu: i64,
    pub memory: i64,
    pub ephemeral_storage: i64,
    pub allowed_pod_number: i64,
    /// Scalar (extended, hugepages) resources, sorted by name.
    pub scalar: Scalars,
}

/// Scalar resources (extended, hugepages) with their amounts, sorted by name: a slice to read,
/// held behind one pointer, which is null while there are none (most nodes and pods), so that
/// a `Resource` keeps its four amounts and the pointer in 40 bytes.
#[derive(Clone, Debug, Default)]
#[allow(clippy::box_collection, reason = "the box is the point: one pointer in place of a Vec's three words")]
pub struct Scalars(Option<Box<Vec<(String, i64)>>>);

impl Scalars {
    /// Inserts `entry` at `at` (as `Vec::insert`).
    pub fn insert(&mut self, at: usize, entry: (String, i64)) {
        self.0.get_or_insert_with(Default::default).insert(at, entry);
    }
}

impl std::ops::Deref for Scalars {
    type Target = [(String, i64)];
    fn deref(&self) -> &[(String, i64)] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl std::ops::DerefMut for Scalars {
    fn deref_mut(&mut self) -> &mut [(String, i64)] {
        self.0.as_deref_mut().map_or(&mut [], Vec::as_mut_slice)
    }
}

impl<'a> IntoIterator for &'a Scalars {
    type Item = &'a (String, i64);
    type IntoIter = std::slice::Iter<'a, (String, i64)>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// As the entries (none held and an empty list held are the same).
impl PartialEq for Scalars {
    fn eq(&self, other: &Scalars) -> bool {
        **self == **other
    }
}

impl Eq for Scalars {}

impl Resource {
    pub fn from_list(rl: &ResourceList) -> Resource {
        let mut r = Resource::default();
        r.add_list(rl);
        r
    }
    pub fn add_list(&mut self, rl: &ResourceList) {
        for (name, q) in rl {
            match name.as_str() {
                RESOURCE_CPU => self.milli_cpu += q.milli_value(),
                RESOURCE_MEMORY => self.memory += q.value(),
                RESOURCE_PODS => self.allowed_pod_number += q.value(),
                RESOURCE_EPHEMERAL_STORAGE => self.ephemeral_storage += q.value(),
                n if is_scalar_resource_name(n) => self.add_scalar(n, q.value()),
                _ => {}
            }
        }
    }
    pub fn scalar(&self, name: &str) -> i64 {
        match self.scalar.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => self.scalar[i].1,
            Err(_) => 0,
        }
    }
    pub fn has_scalar(&self, name: &str) -> bool {
        self.scalar.binary_search_by(|(n, _)| n.as_str().cmp(name)).is_ok()
    }
    pub fn add_scalar(&mut self, name: &str, v: i64) {
        match self.scalar.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => self.scalar[i].1 += v,
            Err(i) => self.scalar.insert(i, (name.to_string(), v)),
        }
    }
    pub fn set_scalar(&mut self, name: &str, v: i64) {
        match self.scalar.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => self.scalar[i].1 = v,
            Err(i) => self.scalar.insert(i, (name.to_string(), v)),
        }
    }
    /// Adds (sign = 1) or subtracts (sign = -1) another resource.
    pub fn accumulate(&mut self, o: &Resource, sign: i64) {
        self.milli_cpu += sign * o.milli_cpu;
        self.memory += sign * o.memory;
        self.ephemeral_storage += sign * o.ephemeral_storage;
        self.allowed_pod_number += sign * o.allowed_pod_number;
        for (n, v) in &o.scalar {
            self.add_scalar(n, sign * v);
        }
    }
    /// The amount of a named resource in scheduler units.
    pub fn get(&self, name: &str) -> i64 {
        match name {
            RESOURCE_CPU => self.milli_cpu,
            RESOURCE_MEMORY => self.memory,
            RESOURCE_EPHEMERAL_STORAGE => self.ephemeral_storage,
            RESOURCE_PODS => self.allowed_pod_number,
            n => self.scalar(n),
        }
    }
}

/// A pod's requests as the scheduler accounts them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodResource {
    pub resource: Resource,
    /// CPU request with the 100m default applied where nothing is requested.
    pub non0_cpu: i64,
    /// Memory request with the 200Mi default applied where nothing is requested.
    pub non0_mem: i64,
}

/// `into += from` for one resource: absent stays absent unless `from` has it.
fn add_one(into: &mut Option<Quantity>, from: Option<Quantity>) {
    if let Some(v) = from {
        *into = Some(into.unwrap_or(Quantity::ZERO).saturating_add(v));
    }
}

/// `into = max(into, from)` for one resource; absent stays absent unless `from` has it.
fn max_one(into: &mut Option<Quantity>, from: Option<Quantity>) {
    if let Some(v) = from {
        *into = Some(match *into {
            Some(e) if e >= v => e,
            _ => v,
        });
    }
}

fn is_supported_pod_level_resource(name: &str) -> bool {
    name == RESOURCE_CPU || name == RESOURCE_MEMORY || name.starts_with("hugepages-")
}

/// Whether pod-level `spec.resources.requests` names cpu, memory or hugepages.
pub fn pod_level_requests_set(pod: &Pod) -> bool {
    pod_level_requests(pod).is_some()
}

/// The pod-level `spec.resources.requests`, when they name cpu, memory or hugepages (and so
/// take precedence over the containers' sums for those).
fn pod_level_requests(pod: &Pod) -> Option<&ResourceList> {
    let r = &pod.spec.resources.as_ref()?.requests;
    r.keys().any(|k| is_supported_pod_level_resource(k)).then_some(r)
}

/// The effective requests of a pod (component-helpers PodRequests): app containers summed,
/// sidecars (restartable init containers) added, the largest init-container step as a floor,
/// pod-level requests taking precedence for cpu/memory/hugepages, plus overhead.
/// `non_missing` adds defaults to containers that do not request a resource.
pub fn pod_requests(pod: &Pod, non_missing: Option<&ResourceList>) -> ResourceList {
    pod_requests_with(pod, non_missing, false)
}

/// `pod_requests` with upstream's `SkipPodLevelResources` option: when `skip_pod_level` is set,
/// pod-level `spec.resources.requests` are ignored and only the containers count.
///
/// Every step is decided per resource name, so the list is `pod_request_one` for each name
/// the pod (or `non_missing`) mentions.
pub fn pod_requests_with(pod: &Pod, non_missing: Option<&ResourceList>, skip_pod_level: bool) -> ResourceList {
    let pod_level = pod_level_requests(pod).filter(|_| !skip_pod_level);
    let mut out = ResourceList::new();
    let mut add = |name: &String| {
        if !out.contains_key(name) {
            let default = non_missing.and_then(|nm| nm.get(name).copied());
            if let Some(q) = pod_request_one(pod, name, default, pod_level) {
                out.insert(name.clone(), q);
            }
        }
    };
    for c in pod.spec.containers.iter().chain(&pod.spec.init_containers) {
        c.resources.requests.keys().for_each(&mut add);
    }
    non_missing.into_iter().flat_map(|nm| nm.keys()).for_each(&mut add);
    pod_level.into_iter().flat_map(|r| r.keys()).for_each(&mut add);
    pod.spec.overhead.iter().flat_map(|o| o.keys()).for_each(&mut add);
    out
}

/// `pod_requests_with(pod, ..)[name]` for one resource: app containers summed, sidecars added,
/// the largest init step as a floor, a pod-level request (cpu, memory, hugepages) replacing
/// the sum, overhead added. `default` stands in for a container that does not request `name`
/// (`non_missing`'s entry for it); `pod_level` is `pod_level_requests(pod)` unless pod-level
/// requests are skipped. `None` when nothing names it.
fn pod_request_one(pod: &Pod, name: &str, default: Option<Quantity>, pod_level: Option<&ResourceList>) -> Option<Quantity> {
    let of = |reqs: &ResourceList| reqs.get(name).copied().or(default);
    let mut reqs = None;
    for c in &pod.spec.containers {
        add_one(&mut reqs, of(&c.resources.requests));
    }
    let mut restartable = None;
    let mut init_reqs = None;
    for c in &pod.spec.init_containers {
        let creqs = of(&c.resources.requests);
        if c.restart_policy.as_deref() == Some("Always") {
            add_one(&mut reqs, creqs);
            add_one(&mut restartable, creqs);
            max_one(&mut init_reqs, restartable);
        } else {
            let mut tmp = None;
            add_one(&mut tmp, creqs);
            add_one(&mut tmp, restartable);
            max_one(&mut init_reqs, tmp);
        }
    }
    max_one(&mut reqs, init_reqs);
    if let Some(v) = pod_level.filter(|_| is_supported_pod_level_resource(name)).and_then(|r| r.get(name)) {
        reqs = Some(*v);
    }
    if let Some(o) = &pod.spec.overhead {
        add_one(&mut reqs, o.get(name).copied());
    }
    reqs
}

/// The scheduler's accounting of a pod (upstream PodInfo.CalculateResource).
pub fn calculate_resource(pod: &Pod) -> PodResource {
    let requests = pod_requests(pod, None);
    let pod_level = pod_level_requests(pod);
    // The requests again with the defaults for containers that ask for no cpu or memory
    // (upstream passes them as NonMissingContainerRequests; with pod-level requests, only for
    // a resource those leave out). Only cpu and memory are read, so only they are summed.
    let cpu_default = (pod_level.is_none() || !requests.contains_key(RESOURCE_CPU)).then(|| Quantity::from_milli(DEFAULT_MILLI_CPU_REQUEST));
    let mem_default = (pod_level.is_none() || !requests.contains_key(RESOURCE_MEMORY)).then(|| Quantity::from_value(DEFAULT_MEMORY_REQUEST));
    let non0_cpu = pod_request_one(pod, RESOURCE_CPU, cpu_default, pod_level);
    let non0_mem = pod_request_one(pod, RESOURCE_MEMORY, mem_default, pod_level);
    PodResource {
        resource: Resource::from_list(&requests),
        non0_cpu: non0_cpu.map(|q| q.milli_value()).unwrap_or(0),
        non0_mem: non0_mem.map(|q| q.value()).unwrap_or(0),
    }
}

/// A processed pod (anti-)affinity term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffinityTerm {
    pub namespaces: Vec<String>,
    pub selector: Selector,
    pub topology_key: String,
    pub namespace_selector: Selector,
}

impl AffinityTerm {
    pub fn from_api(pod: &Pod, t: &api::PodAffinityTerm) -> Result<AffinityTerm, String> {
        let namespaces = if t.namespaces.is_empty() && t.namespace_selector.is_none() {
            vec![pod.metadata.namespace.clone().unwrap_or_else(|| "default".into())]
        } else {
            t.namespaces.clone()
        };
        Ok(AffinityTerm {
            namespaces,
            selector: Selector::from_label_selector(t.label_selector.as_ref())?,
            topology_key: t.topology_key.clone(),
            namespace_selector: Selector::from_label_selector(t.namespace_selector.as_ref())?,
        })
    }
    /// Whether `pod` (with its namespace's labels) is selected by this term.
    pub fn matches(&self, pod: &PodInfo, ns_labels: Option<&Labels>) -> bool {
        let ns_ok = self.namespaces.iter().any(|n| n == pod.namespace()) || ns_labels.is_some_and(|l| self.namespace_selector.matches(l));
        ns_ok && self.selector.matches(pod.labels())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedAffinityTerm {
    pub term: AffinityTerm,
    pub weight: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostPort {
    pub ip: String,
    pub protocol: String,
    pub port: i32,
}

/// A pod together with what the scheduler derives from it once.
#[derive(Clone, Debug)]
pub struct PodInfo {
    pub pod: Arc<Pod>,
    /// `namespace/name`
    pub key: String,
    pub uid: String,
    /// Position of the pod's document in the scenario (stable identity and ordering).
    pub index: usize,
    pub priority: i32,
    pub resource: PodResource,
    pub required_affinity_terms: Vec<AffinityTerm>,
    pub required_anti_affinity_terms: Vec<AffinityTerm>,
    pub preferred_affinity_terms: Vec<WeightedAffinityTerm>,
    pub preferred_anti_affinity_terms: Vec<WeightedAffinityTerm>,
    /// Host ports the pod's containers ask for (hostPort > 0), with defaults applied.
    pub host_ports: Vec<HostPort>,
    /// Logical start time in nanoseconds (running pods only), for preemption ordering.
    pub start_time: Option<i64>,
    /// Any term failed to parse (the pod then fails InterPodAffinity's PreFilter).
    pub affinity_parse_error: Option<String>,
    /// The node the scheduler bound the pod to during the run. Binding sets this rather than
    /// `pod.spec.nodeName`, so that the pod object stays shared with the scenario (a copy of
    /// the whole pod per binding otherwise); `node_name` reads it first.
    pub bound_node: Option<String>,
}

impl PodInfo {
    pub fn new(pod: Pod, index: usize) -> PodInfo {
        PodInfo::shared(Arc::new(pod), index)
    }

    /// `new` for a pod shared with the scenario it came from: the pod is not copied.
    pub fn shared(pod: Arc<Pod>, index: usize) -> PodInfo {
        let ns = pod.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        let key = format!("{}/{}", ns, pod.metadata.name);
        let uid = pod
            .metadata
            .uid
            .clone()
            .unwrap_or_else(|| format!("uid-pod-{}-{}", ns, pod.metadata.name));
        let mut err = None;
        let mut terms = |ts: &[api::PodAffinityTerm]| -> Vec<AffinityTerm> {
            ts.iter()
                .filter_map(|t| match AffinityTerm::from_api(&pod, t) {
                    Ok(t) => Some(t),
                    Err(e) => {
                        err.get_or_insert(e);
                        None
                    }
                })
                .collect()
        };
        let aff = pod.spec.affinity.as_ref();
        let pa = aff.and_then(|a| a.pod_affinity.as_ref());
        let paa = aff.and_then(|a| a.pod_anti_affinity.as_ref());
        let required_affinity_terms = pa
            .map(|p| terms(&p.required_during_scheduling_ignored_during_execution))
            .unwrap_or_default();
        let required_anti_affinity_terms = paa
            .map(|p| terms(&p.required_during_scheduling_ignored_during_execution))
            .unwrap_or_default();
        let mut weighted = |ts: &[api::WeightedPodAffinityTerm]| -> Vec<WeightedAffinityTerm> {
            ts.iter()
                .filter_map(|t| match AffinityTerm::from_api(&pod, &t.pod_affinity_term) {
                    Ok(term) => Some(WeightedAffinityTerm { term, weight: t.weight }),
                    Err(e) => {
                        err.get_or_insert(e);
                        None
                    }
                })
                .collect()
        };
        let preferred_affinity_terms = pa
            .map(|p| weighted(&p.preferred_during_scheduling_ignored_during_execution))
            .unwrap_or_default();
        let preferred_anti_affinity_terms = paa
            .map(|p| weighted(&p.preferred_during_scheduling_ignored_during_execution))
            .unwrap_or_default();
        let host_ports = host_ports(&pod);
        PodInfo {
            priority: pod.spec.priority.unwrap_or(0),
            resource: calculate_resource(&pod),
            key,
            uid,
            index,
            required_affinity_terms,
            required_anti_affinity_terms,
            preferred_affinity_terms,
            preferred_anti_affinity_terms,
            host_ports,
            start_time: None,
            affinity_parse_error: err,
            bound_node: None,
            pod,
        }
    }
    pub fn name(&self) -> &str {
        &self.pod.metadata.name
    }
    pub fn namespace(&self) -> &str {
        self.pod.metadata.namespace.as_deref().unwrap_or("default")
    }
    pub fn labels(&self) -> &Labels {
        &self.pod.metadata.labels
    }
    /// The node the pod is bound to: where the scheduler bound it during the run, else the
    /// pod's own `spec.nodeName`.
    pub fn node_name(&self) -> Option<&str> {
        self.bound_node
            .as_deref()
            .or(self.pod.spec.node_name.as_deref())
            .filter(|s| !s.is_empty())
    }
    pub fn nominated_node_name(&self) -> Option<&str> {
        self.pod.status.nominated_node_name.as_deref().filter(|s| !s.is_empty())
    }
    pub fn scheduler_name(&self) -> &str {
        self.pod.spec.scheduler_name.as_deref().unwrap_or("default-scheduler")
    }
    pub fn preemption_policy_never(&self) -> bool {
        self.pod.spec.preemption_policy.as_deref() == Some("Never")
    }
    pub fn has_affinity(&self) -> bool {
        self.pod
            .spec
            .affinity
            .as_ref()
            .is_some_and(|a| a.pod_affinity.is_some() || a.pod_anti_affinity.is_some())
    }
    pub fn has_required_anti_affinity(&self) -> bool {
        self.pod
            .spec
            .affinity
            .as_ref()
            .and_then(|a| a.pod_anti_affinity.as_ref())
            .is_some_and(|p| !p.required_during_scheduling_ignored_during_execution.is_empty())
    }
}

/// Host ports requested by a pod (upstream util.GetHostPorts): those of restartable init
/// containers (sidecars, which run for the pod's whole life) first, then the app containers'.
fn host_ports(pod: &Pod) -> Vec<HostPort> {
    let mut out = Vec::new();
    let sidecars = pod
        .spec
        .init_containers
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"));
    for c in sidecars.chain(&pod.spec.containers) {
        for p in &c.ports {
            let hp = p.host_port.unwrap_or(0);
            if hp <= 0 {
                continue;
            }
            out.push(HostPort {
                ip: p.host_ip.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| "0.0.0.0".into()),
                protocol: p.protocol.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| "TCP".into()),
                port: hp,
            });
        }
    }
    out
}

/// Host ports in use on a node, by IP.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostPortInfo {
    /// ip -> (protocol, port) -> times added (a removal drops the entry whatever the count)
    pub by_ip: BTreeMap<String, BTreeMap<(String, i32), u32>>,
}

impl HostPortInfo {
    pub fn add(&mut self, hp: &HostPort) {
        *self
            .by_ip
            .entry(hp.ip.clone())
            .or_default()
            .entry((hp.protocol.clone(), hp.port))
            .or_insert(0) += 1;
    }
    /// Forgets the (ip, protocol, port) entry outright, whatever its count: upstream keeps a set,
    /// so removing one of two pods using the same port frees it.
    pub fn remove(&mut self, hp: &HostPort) {
        if let Some(m) = self.by_ip.get_mut(&hp.ip) {
            m.remove(&(hp.protocol.clone(), hp.port));
            if m.is_empty() {
                self.by_ip.remove(&hp.ip);
            }
        }
    }
    pub fn is_empty(&self) -> bool {
        self.by_ip.is_empty()
    }
    /// Whether `hp` conflicts: the wildcard IP conflicts with every IP for the same protocol/port.
    pub fn check_conflict(&self, hp: &HostPort) -> bool {
        let key = (hp.protocol.clone(), hp.port);
        if hp.ip == "0.0.0.0" {
            return self.by_ip.values().any(|m| m.contains_key(&key));
        }
        [hp.ip.as_str(), "0.0.0.0"]
            .iter()
            .any(|ip| self.by_ip.get(*ip).is_some_and(|m| m.contains_key(&key)))
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageStateSummary {
    pub size: i64,
    /// How many nodes have this image.
    pub num_nodes: usize,
}

/// A node with the pods placed on it.
///
/// Laid out hot fields first (`repr(C)` keeps the order) and aligned to a cache line:
/// filtering and scoring the common pod read only the first two cache lines of each node
/// (the flags, the pod count, the allocatable, requested and non-zero requested amounts),
/// visited in sequence. `hot_fields_fit_two_cache_lines` checks the offsets.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct NodeInfo {
    /// Copies of the node's hottest facts, so that filtering the common pod reads only this
    /// contiguous struct and not the node object (a cache miss per node otherwise).
    pub unschedulable: bool,
    pub has_images: bool,
    /// Whether `taints` is non-empty (the taints themselves are read only then).
    has_taints: bool,
    pub pods: Vec<Arc<PodInfo>>,
    pub allocatable: Resource,
    pub requested: Resource,
    pub non_zero_requested: Resource,
    taints: Arc<[api::Taint]>,
    pub node: Arc<api::Node>,
    pub used_ports: HostPortInfo,
    pub pods_with_affinity: Vec<Arc<PodInfo>>,
    pub pods_with_required_anti_affinity: Vec<Arc<PodInfo>>,
    /// Image name (as reported by the node) -> size and spread.
    pub image_states: Arc<HashMap<String, ImageStateSummary>>,
    /// `namespace/claim` -> number of pods on this node using it.
    pub pvc_ref_counts: BTreeMap<String, u32>,
}

impl NodeInfo {
    pub fn new(node: Arc<api::Node>) -> NodeInfo {
        let allocatable = Resource::from_list(&node.status.allocatable);
        let unschedulable = node.spec.unschedulable.unwrap_or(false);
        let taints: Arc<[api::Taint]> = node.spec.taints.clone().into();
        NodeInfo {
            unschedulable,
            has_taints: !taints.is_empty(),
            taints,
            has_images: false,
            node,
            pods: Vec::new(),
            pods_with_affinity: Vec::new(),
            pods_with_required_anti_affinity: Vec::new(),
            used_ports: HostPortInfo::default(),
            requested: Resource::default(),
            non_zero_requested: Resource::default(),
            allocatable,
            image_states: Arc::new(HashMap::new()),
            pvc_ref_counts: BTreeMap::new(),
        }
    }
    pub fn name(&self) -> &str {
        &self.node.metadata.name
    }
    /// Replaces the node object (an update), keeping the pods and what they use.
    pub fn set_node(&mut self, node: Arc<api::Node>) {
        self.allocatable = Resource::from_list(&node.status.allocatable);
        self.unschedulable = node.spec.unschedulable.unwrap_or(false);
        self.taints = node.spec.taints.clone().into();
        self.has_taints = !self.taints.is_empty();
        self.node = node;
    }
    /// The node's taints (as `spec.taints`).
    pub fn taints(&self) -> &[api::Taint] {
        &self.taints
    }
    /// Whether the node has any taint: read from the node's first cache line.
    #[inline]
    pub fn has_taints(&self) -> bool {
        self.has_taints
    }
    pub fn set_image_states(&mut self, states: Arc<HashMap<String, ImageStateSummary>>) {
        self.has_images = !states.is_empty();
        self.image_states = states;
    }
    pub fn labels(&self) -> &Labels {
        &self.node.metadata.labels
    }

    pub fn add_pod(&mut self, p: Arc<PodInfo>) {
        if p.has_affinity() {
            self.pods_with_affinity.push(p.clone());
        }
        if p.has_required_anti_affinity() {
            self.pods_with_required_anti_affinity.push(p.clone());
        }
        self.update(&p, 1);
        self.pods.push(p);
    }

    /// Removes the pod with this key; returns it when it was there.
    pub fn remove_pod(&mut self, key: &str) -> Option<Arc<PodInfo>> {
        fn take(v: &mut Vec<Arc<PodInfo>>, key: &str) -> Option<Arc<PodInfo>> {
            let i = v.iter().position(|p| p.key == key)?;
            Some(v.swap_remove(i))
        }
        take(&mut self.pods_with_affinity, key);
        take(&mut self.pods_with_required_anti_affinity, key);
        let p = take(&mut self.pods, key)?;
        self.update(&p, -1);
        Some(p)
    }

    fn update(&mut self, p: &PodInfo, sign: i64) {
        let r = &p.resource;
        self.requested.milli_cpu += sign * r.resource.milli_cpu;
        self.requested.memory += sign * r.resource.memory;
        self.requested.ephemeral_storage += sign * r.resource.ephemeral_storage;
        for (n, v) in &r.resource.scalar {
            self.requested.add_scalar(n, sign * v);
        }
        self.non_zero_requested.milli_cpu += sign * r.non0_cpu;
        self.non_zero_requested.memory += sign * r.non0_mem;
        for hp in &p.host_ports {
            if sign > 0 {
                self.used_ports.add(hp);
            } else {
                self.used_ports.remove(hp);
            }
        }
        for v in &p.pod.spec.volumes {
            if let Some(pvc) = &v.persistent_volume_claim {
                let k = format!("{}/{}", p.namespace(), pvc.claim_name);
                if sign > 0 {
                    *self.pvc_ref_counts.entry(k).or_insert(0) += 1;
                } else if let Some(c) = self.pvc_ref_counts.get_mut(&k) {
                    *c -= 1;
                    if *c == 0 {
                        self.pvc_ref_counts.remove(&k);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Container, PodSpec, ResourceRequirements};

    fn rl(kv: &[(&str, &str)]) -> ResourceList {
        kv.iter().map(|(k, v)| (k.to_string(), Quantity::parse(v).unwrap())).collect()
    }
    fn container(req: &[(&str, &str)], restart: Option<&str>) -> Container {
        Container {
            resources: ResourceRequirements {
                requests: rl(req),
                ..Default::default()
            },
            restart_policy: restart.map(String::from),
            ..Default::default()
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn init_containers_and_sidecars() {
        // Sidecar 1 cpu then init 3 cpu: max(1+3, 1 + apps 1.5) = 4
        let pod = Pod {
            spec: PodSpec {
                containers: vec![container(&[("cpu", "1500m")], None)],
                init_containers: vec![container(&[("cpu", "1")], Some("Always")), container(&[("cpu", "3")], None)],
                ..Default::default()
            },
            ..Default::default()
        };
        let r = calculate_resource(&pod);
        assert_eq!(r.resource.milli_cpu, 4000);
        // The sidecar and the app container each get the 200Mi default.
        assert_eq!(r.non0_mem, 2 * DEFAULT_MEMORY_REQUEST);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn non_zero_defaults_per_container() {
        let pod = Pod {
            spec: PodSpec {
                containers: vec![container(&[("cpu", "1")], None), container(&[], None)],
                ..Default::default()
            },
            ..Default::default()
        };
        let r = calculate_resource(&pod);
        assert_eq!(r.resource.milli_cpu, 1000);
        assert_eq!(r.non0_cpu, 1100);
        assert_eq!(r.non0_mem, 2 * DEFAULT_MEMORY_REQUEST);
    }

    /// A pod's effective requests, as lists, over pods that exercise every step (app
    /// containers, sidecars, init containers, pod-level requests, overhead), without and with
    /// the non-zero defaults for containers that request no cpu or memory, and with pod-level
    /// requests skipped.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn requests_step_by_step() {
        let pod = |apps: Vec<Container>, inits: Vec<Container>, pod_level: &[(&str, &str)], overhead: &[(&str, &str)]| Pod {
            spec: PodSpec {
                containers: apps,
                init_containers: inits,
                resources: (!pod_level.is_empty()).then(|| Box::new(ResourceRequirements {
                    requests: rl(pod_level),
                    ..Default::default()
                })),
                overhead: (!overhead.is_empty()).then(|| rl(overhead)),
                ..Default::default()
            },
            ..Default::default()
        };
        let c = container;
        type Case<'a> = (Pod, &'a [(&'a str, &'a str)], &'a [(&'a str, &'a str)], &'a [(&'a str, &'a str)]);
        // (pod, requests, with the defaults, pod-level skipped)
        let cases: Vec<Case> = vec![
            (pod(vec![], vec![], &[], &[]), &[], &[], &[]),
            (pod(vec![c(&[("cpu", "1")], None)], vec![], &[], &[]), &[("cpu", "1")], &[("cpu", "1"), ("memory", "200Mi")], &[("cpu", "1")]),
            (
                pod(vec![c(&[("cpu", "1")], None), c(&[("memory", "1Gi")], None)], vec![], &[], &[]),
                &[("cpu", "1"), ("memory", "1Gi")],
                &[("cpu", "1100m"), ("memory", "1224Mi")],
                &[("cpu", "1"), ("memory", "1Gi")],
            ),
            // Sidecar 1 then init 3: max(apps 1.5 + sidecar 1, init 3 + sidecar 1) = 4.
            (
                pod(vec![c(&[("cpu", "1500m")], None)], vec![c(&[("cpu", "1")], Some("Always")), c(&[("cpu", "3")], None)], &[], &[]),
                &[("cpu", "4")],
                &[("cpu", "4"), ("memory", "400Mi")],
                &[("cpu", "4")],
            ),
            // The largest init step is the floor: memory 3Gi from the first init container,
            // cpu 2 (+ the sidecar's default 100m) from the last; overhead added on top.
            (
                pod(
                    vec![c(&[], None)],
                    vec![c(&[("memory", "3Gi")], None), c(&[], Some("Always")), c(&[("cpu", "2")], None)],
                    &[],
                    &[("cpu", "250m"), ("memory", "64Mi")],
                ),
                &[("cpu", "2250m"), ("memory", "3136Mi")],
                &[("cpu", "2350m"), ("memory", "3136Mi")],
                &[("cpu", "2250m"), ("memory", "3136Mi")],
            ),
            // Pod-level memory replaces the containers' memory; cpu still comes from them.
            (
                pod(vec![c(&[("cpu", "1")], None)], vec![], &[("memory", "2Gi")], &[]),
                &[("cpu", "1"), ("memory", "2Gi")],
                &[("cpu", "1"), ("memory", "2Gi")],
                &[("cpu", "1")],
            ),
            (
                pod(vec![c(&[("memory", "1Gi")], None)], vec![c(&[("cpu", "4")], None)], &[("cpu", "2"), ("memory", "4Gi")], &[("cpu", "10m")]),
                &[("cpu", "2010m"), ("memory", "4Gi")],
                &[("cpu", "2010m"), ("memory", "4Gi")],
                &[("cpu", "4010m"), ("memory", "1Gi")],
            ),
            (
                pod(vec![c(&[("example.com/gpu", "1")], None)], vec![], &[("hugepages-2Mi", "2Mi")], &[]),
                &[("example.com/gpu", "1"), ("hugepages-2Mi", "2Mi")],
                &[("cpu", "100m"), ("example.com/gpu", "1"), ("hugepages-2Mi", "2Mi"), ("memory", "200Mi")],
                &[("example.com/gpu", "1")],
            ),
        ];
        let defaults = rl(&[("cpu", "100m"), ("memory", "200Mi")]);
        for (i, (p, plain, with_defaults, skipped)) in cases.iter().enumerate() {
            assert_eq!(pod_requests(p, None), rl(plain), "pod {i}");
            assert_eq!(pod_requests(p, Some(&defaults)), rl(with_defaults), "pod {i}, defaults");
            assert_eq!(pod_requests_with(p, None, true), rl(skipped), "pod {i}, pod-level skipped");
            // What `calculate_resource` reads: the same sums, one resource at a time.
            let r = calculate_resource(p);
            let milli = |list: &ResourceList, k: &str| list.get(k).map(|q| q.milli_value()).unwrap_or(0);
            assert_eq!(r.resource.milli_cpu, milli(&rl(plain), "cpu"), "pod {i}");
            if !pod_level_requests_set(p) {
                let non_zero = pod_requests(p, Some(&defaults));
                assert_eq!(r.non0_cpu, milli(&non_zero, "cpu"), "pod {i}");
                assert_eq!(r.non0_mem, milli(&non_zero, "memory") / 1000, "pod {i}");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn resource_name_classes() {
        // (name, extended, scalar)
        for (name, ext, scalar) in [
            ("cpu", false, false),
            ("pods", false, false),
            ("example.com/gpu", true, true),
            ("example.com/GPU", true, true),
            ("Example.com/gpu", false, false),
            ("example.com/-gpu", false, false),
            ("a/b/c", false, false),
            ("/gpu", false, false),
            ("kubernetes.io/foo", false, true),
            ("example.kubernetes.io/foo", false, true),
            ("requests.example.com/gpu", false, false),
            ("hugepages-2Mi", false, true),
            ("attachable-volumes-csi-x", false, true),
        ] {
            assert_eq!(is_extended_resource_name(name), ext, "{name}");
            assert_eq!(is_scalar_resource_name(name), scalar, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn host_port_conflicts() {
        let hp = |ip: &str, protocol: &str, port| HostPort {
            ip: ip.into(),
            protocol: protocol.into(),
            port,
        };
        let mut u = HostPortInfo::default();
        u.add(&hp("0.0.0.0", "TCP", 80));
        assert!(u.check_conflict(&hp("10.0.0.1", "TCP", 80)));
        assert!(!u.check_conflict(&hp("10.0.0.1", "UDP", 80)));
        let mut v = HostPortInfo::default();
        v.add(&hp("10.0.0.1", "TCP", 80));
        assert!(v.check_conflict(&hp("0.0.0.0", "TCP", 80)));
        assert!(!v.check_conflict(&hp("10.0.0.2", "TCP", 80)));
    }
}

#[cfg(test)]
mod size_tests {
    /// The filter loop walks the contiguous `NodeInfo` array and every cycle appends trace
    /// events, so their sizes are part of the performance design (ARCHITECTURE, Performance).
    /// Bounds with some headroom over today's 64-bit sizes (NodeInfo 328, TraceEvent 160
    /// bytes): growing past them should be a decision, not an accident.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn hot_types_stay_small() {
        assert!(
            std::mem::size_of::<super::NodeInfo>() <= 384,
            "NodeInfo: {} bytes",
            std::mem::size_of::<super::NodeInfo>()
        );
        let ev = std::mem::size_of::<crate::trace::TraceEvent>();
        assert!(ev <= 192, "TraceEvent: {ev} bytes");
        // Every loaded object is fresh memory (a page fault per page): ObjectMeta 280 and Pod
        // 1240 bytes today, their rarely set fields boxed (api::ObjectMeta's comment).
        let meta = std::mem::size_of::<crate::api::ObjectMeta>();
        assert!(meta <= 320, "ObjectMeta: {meta} bytes");
        let pod = std::mem::size_of::<crate::api::Pod>();
        assert!(pod <= 1344, "Pod: {pod} bytes");
    }

    /// What Filter and Score read of every node for the common pod (the flags, the pod count,
    /// the allocatable amounts and pod number, the requested amounts, the non-zero requested
    /// cpu and memory) lies in the node's first two cache lines (NodeInfo is aligned to 64).
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn hot_fields_fit_two_cache_lines() {
        use super::{NodeInfo, Resource};
        use std::mem::offset_of;
        assert_eq!(std::mem::align_of::<NodeInfo>(), 64);
        assert_eq!(std::mem::size_of::<Resource>(), 40, "four amounts and one pointer");
        let ends = [
            ("unschedulable", offset_of!(NodeInfo, unschedulable) + 1),
            ("has_images", offset_of!(NodeInfo, has_images) + 1),
            ("has_taints", offset_of!(NodeInfo, has_taints) + 1),
            ("pods", offset_of!(NodeInfo, pods) + std::mem::size_of::<Vec<()>>()),
            ("allocatable", offset_of!(NodeInfo, allocatable) + offset_of!(Resource, scalar)),
            ("requested", offset_of!(NodeInfo, requested) + offset_of!(Resource, scalar)),
            (
                "non_zero_requested cpu and memory",
                offset_of!(NodeInfo, non_zero_requested) + offset_of!(Resource, memory) + 8,
            ),
        ];
        for (field, end) in ends {
            assert!(end <= 128, "{field} ends at byte {end}");
        }
    }
}
