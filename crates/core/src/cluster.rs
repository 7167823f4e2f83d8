//! The simulated cluster's state: API objects other than nodes and pods (the "listers"), the
//! node snapshot the plugins read, and the nominator (pods nominated to nodes by preemption).

use crate::api::resource::{ResourceClaim, CLAIM_FINALIZER};
use crate::api::{self, Labels};
use crate::dra::{claim_key, controlled_by};
use crate::model::events::{ActionType, ClusterEvent, EventObject, EventResource};
use crate::model::{ImageStateSummary, NodeInfo, PodInfo};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// API objects the plugins look up by name. Keys of namespaced objects are `namespace/name`.
#[derive(Clone, Debug, Default)]
pub struct Cluster {
    pub namespaces: BTreeMap<String, api::Namespace>,
    pub priority_classes: BTreeMap<String, api::PriorityClass>,
    pub pvcs: BTreeMap<String, Arc<api::PersistentVolumeClaim>>,
    pub pvs: BTreeMap<String, Arc<api::PersistentVolume>>,
    pub storage_classes: BTreeMap<String, api::StorageClass>,
    pub csi_nodes: BTreeMap<String, api::CsiNode>,
    pub csi_drivers: BTreeMap<String, api::CsiDriver>,
    pub pdbs: Vec<api::PodDisruptionBudget>,
    /// Services and workload controllers (ReplicaSets, Deployments, Jobs…).
    pub workloads: Workloads,
    /// DeviceClasses, ResourceSlices, ResourceClaims and templates (DRA).
    pub dra: crate::dra::DraObjects,
    /// Events raised by writes during a binding cycle (drained by the engine).
    pub pending_events: Vec<(ClusterEvent, EventObject)>,
}

impl Cluster {
    pub fn namespace_labels(&self, ns: &str) -> Option<&Labels> {
        self.namespaces.get(ns).map(|n| &n.metadata.labels)
    }
    pub fn pvc(&self, namespace: &str, name: &str) -> Option<&Arc<api::PersistentVolumeClaim>> {
        self.pvcs.get(&format!("{namespace}/{name}"))
    }
    /// Replaces a claim and records the update event.
    pub fn update_pvc(&mut self, new: api::PersistentVolumeClaim) {
        let key = format!("{}/{}", new.metadata.namespace.as_deref().unwrap_or("default"), new.metadata.name);
        let new = Arc::new(new);
        let old = self.pvcs.insert(key, new.clone());
        self.pending_events.push((
            ClusterEvent::new(
                EventResource::PersistentVolumeClaim,
                if old.is_some() { ActionType::UPDATE } else { ActionType::ADD },
            ),
            EventObject::PersistentVolumeClaim { old, new: Some(new) },
        ));
    }
    /// Replaces (or creates) a volume and records the event.
    pub fn update_pv(&mut self, new: api::PersistentVolume) {
        let new = Arc::new(new);
        let old = self.pvs.insert(new.metadata.name.clone(), new.clone());
        self.pending_events.push((
            ClusterEvent::new(
                EventResource::PersistentVolume,
                if old.is_some() { ActionType::UPDATE } else { ActionType::ADD },
            ),
            EventObject::PersistentVolume { old, new: Some(new) },
        ));
    }
}

/// The workload objects of a scenario, each kind in creation (document) order. The scheduler
/// reads Services, ReplicationControllers, ReplicaSets and StatefulSets (PodTopologySpread's
/// default selector); the controllers read them all. Namespaced objects carry their namespace.
#[derive(Clone, Debug, Default)]
pub struct Workloads {
    pub services: Vec<api::Service>,
    pub replication_controllers: Vec<api::ReplicationController>,
    pub replica_sets: Vec<api::ReplicaSet>,
    pub stateful_sets: Vec<api::StatefulSet>,
    pub deployments: Vec<api::Deployment>,
    pub daemon_sets: Vec<api::DaemonSet>,
    pub jobs: Vec<api::Job>,
}

fn in_ns<'a, T>(objs: &'a [T], meta: impl Fn(&T) -> &api::ObjectMeta, ns: &str, name: &str) -> Option<&'a T> {
    objs.iter().find(|o| {
        let m = meta(o);
        m.name == name && m.namespace.as_deref().unwrap_or("default") == ns
    })
}

impl Workloads {
    pub fn is_empty(&self) -> bool {
        self.services.is_empty()
            && self.replication_controllers.is_empty()
            && self.replica_sets.is_empty()
            && self.stateful_sets.is_empty()
            && self.deployments.is_empty()
            && self.daemon_sets.is_empty()
            && self.jobs.is_empty()
    }
    /// The Services of namespace `ns`.
    pub fn services_in<'a>(&'a self, ns: &'a str) -> impl Iterator<Item = &'a api::Service> + 'a {
        self.services
            .iter()
            .filter(move |s| s.metadata.namespace.as_deref().unwrap_or("default") == ns)
    }
    pub fn replication_controller(&self, ns: &str, name: &str) -> Option<&api::ReplicationController> {
        in_ns(&self.replication_controllers, |o| &o.metadata, ns, name)
    }
    pub fn replica_set(&self, ns: &str, name: &str) -> Option<&api::ReplicaSet> {
        in_ns(&self.replica_sets, |o| &o.metadata, ns, name)
    }
    pub fn stateful_set(&self, ns: &str, name: &str) -> Option<&api::StatefulSet> {
        in_ns(&self.stateful_sets, |o| &o.metadata, ns, name)
    }
}

/// The nodes as the scheduler sees them, in upstream's zone-interleaved order.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// The nodes in visiting order (read them with `nodes()`; change them with the methods
    /// below, which keep `index`, the image summaries and the affinity counts in step).
    nodes: Vec<NodeInfo>,
    index: HashMap<String, usize>,
    /// Pods with (anti-)affinity on all nodes, and with required anti-affinity: kept by
    /// `add_pod`/`remove_pod` so plugins can skip whole-cluster scans when there are none.
    num_pods_with_affinity: usize,
    num_pods_with_required_anti_affinity: usize,
    /// The nodes in the order the informer added them (a node whose zone changes moves to the
    /// end, as it leaves one zone of upstream's node tree and joins another).
    added: Vec<Arc<api::Node>>,
    /// The scheduler cache's record of every image name: kept up to date as nodes come, change
    /// and go. A node's `image_states` are a copy of these counts, taken only when `update`
    /// runs after that node changed (see `update`).
    images: HashMap<String, CachedImage>,
    /// Nodes with images that changed (node object or pods) since the last `update`.
    changed: BTreeSet<String>,
}

/// One image name in the scheduler cache: the size reported by the node that created the entry
/// (it stays while any node still has the image), and the nodes having it.
#[derive(Clone, Debug)]
struct CachedImage {
    size: i64,
    nodes: BTreeSet<String>,
}

/// The zone key of a node: region and zone labels (beta labels first, as upstream).
pub fn zone_key(labels: &Labels) -> String {
    let zone = labels
        .get("failure-domain.beta.kubernetes.io/zone")
        .or_else(|| labels.get("topology.kubernetes.io/zone"))
        .map(String::as_str)
        .unwrap_or("");
    let region = labels
        .get("failure-domain.beta.kubernetes.io/region")
        .or_else(|| labels.get("topology.kubernetes.io/region"))
        .map(String::as_str)
        .unwrap_or("");
    if region.is_empty() && zone.is_empty() {
        return String::new();
    }
    format!("{region}:\x00:{zone}")
}

/// Orders nodes as upstream's node tree lists them: zones in order of first appearance, then
/// one node from each zone in turn.
pub fn node_tree_order(nodes: &[Arc<api::Node>]) -> Vec<usize> {
    let mut zones: Vec<String> = Vec::new();
    let mut tree: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        let z = zone_key(&n.metadata.labels);
        let e = tree.entry(z.clone()).or_default();
        if e.is_empty() {
            zones.push(z);
        }
        e.push(i);
    }
    let mut out = Vec::with_capacity(nodes.len());
    let mut k = 0;
    while out.len() < nodes.len() {
        for z in &zones {
            if let Some(&i) = tree[z].get(k) {
                out.push(i);
            }
        }
        k += 1;
    }
    out
}

impl Snapshot {
    /// Builds the snapshot from nodes in declaration order, as the first cycle sees them: every
    /// node added, then the node infos copied (image counts over all nodes).
    pub fn new(nodes: Vec<Arc<api::Node>>) -> Snapshot {
        let order = node_tree_order(&nodes);
        let mut s = Snapshot {
            nodes: Vec::with_capacity(nodes.len()),
            index: HashMap::with_capacity(nodes.len()),
            num_pods_with_affinity: 0,
            num_pods_with_required_anti_affinity: 0,
            added: Vec::new(),
            images: HashMap::new(),
            changed: BTreeSet::new(),
        };
        for n in &nodes {
            s.add_node_images(n);
        }
        for i in order {
            let mut ni = NodeInfo::new(nodes[i].clone());
            ni.set_image_states(s.image_states_of(&nodes[i]));
            s.index.insert(ni.name().to_string(), s.nodes.len());
            s.nodes.push(ni);
        }
        s.added = nodes;
        s
    }

    /// Adds a node (the cluster changed): it joins its zone of the node tree, and the visiting
    /// order is recomputed as upstream's cache does. The cache's image counts change at once;
    /// the node infos see them at the next `update`.
    pub fn add_node(&mut self, node: Arc<api::Node>) {
        let ni = NodeInfo::new(node.clone());
        self.add_node_images(&node);
        self.mark_changed(&node);
        self.added.push(node);
        self.rebuild(Some(ni));
    }

    /// Replaces a node's object, keeping its pods. Returns the old object.
    pub fn update_node(&mut self, node: Arc<api::Node>) -> Option<Arc<api::Node>> {
        let i = self.position(node.metadata.name.as_str())?;
        let old = self.nodes[i].node.clone();
        self.nodes[i].set_node(node.clone());
        // As upstream's cache: the old object's images leave the records, the new one's join.
        self.remove_node_images(&old);
        self.add_node_images(&node);
        self.mark_changed(&old);
        self.mark_changed(&node);
        let k = self.added.iter().position(|n| n.metadata.name == node.metadata.name)?;
        if zone_key(&old.metadata.labels) != zone_key(&node.metadata.labels) {
            self.added.remove(k);
            self.added.push(node);
        } else {
            self.added[k] = node;
        }
        self.rebuild(None);
        Some(old)
    }

    /// Removes a node (its pods should have been removed first; any left go with it). Its images
    /// leave the cache's records; the other nodes having them keep the counts they last copied
    /// until they change themselves.
    pub fn remove_node(&mut self, name: &str) -> Option<NodeInfo> {
        let i = self.position(name)?;
        for p in self.nodes[i].pods.clone() {
            self.remove_pod(i, &p.key);
        }
        let node = self.nodes[i].node.clone();
        self.remove_node_images(&node);
        self.changed.remove(name);
        self.added.retain(|n| n.metadata.name != name);
        let ni = self.nodes.remove(i);
        self.rebuild(None);
        Some(ni)
    }

    /// Upstream's UpdateSnapshot at the start of a scheduling cycle, for image summaries: each
    /// node changed since the last call (a pod added or removed, its object replaced, new)
    /// copies the cache's current counts of its images; every other node keeps the counts it
    /// copied last, even if nodes with the same images were added or deleted since.
    pub fn update(&mut self) {
        for name in std::mem::take(&mut self.changed) {
            let Some(&i) = self.index.get(&name) else { continue };
            let states = self.image_states_of(&self.nodes[i].node);
            self.nodes[i].set_image_states(states);
        }
    }

    /// Notes that a node changed, if it has images (only they have counts to refresh).
    fn mark_changed(&mut self, node: &api::Node) {
        if !node.status.images.is_empty() && !self.changed.contains(&node.metadata.name) {
            self.changed.insert(node.metadata.name.clone());
        }
    }

    /// Records the node in the cache's entries of its images, creating those missing (with the
    /// size this node reports).
    fn add_node_images(&mut self, node: &api::Node) {
        for img in &node.status.images {
            for name in &img.names {
                self.images
                    .entry(name.clone())
                    .or_insert_with(|| CachedImage {
                        size: img.size_bytes,
                        nodes: BTreeSet::new(),
                    })
                    .nodes
                    .insert(node.metadata.name.clone());
            }
        }
    }

    /// Takes the node out of the cache's entries of its images; an entry no node has is dropped.
    fn remove_node_images(&mut self, node: &api::Node) {
        for img in &node.status.images {
            for name in &img.names {
                if let Some(e) = self.images.get_mut(name) {
                    e.nodes.remove(&node.metadata.name);
                    if e.nodes.is_empty() {
                        self.images.remove(name);
                    }
                }
            }
        }
    }

    /// The node's image summaries as a node info copies them now: for each name it reports,
    /// the cache entry's size and number of nodes.
    fn image_states_of(&self, node: &api::Node) -> Arc<HashMap<String, ImageStateSummary>> {
        let mut m = HashMap::new();
        for img in &node.status.images {
            for name in &img.names {
                if let Some(e) = self.images.get(name) {
                    m.entry(name.clone()).or_insert(ImageStateSummary {
                        size: e.size,
                        num_nodes: e.nodes.len(),
                    });
                }
            }
        }
        Arc::new(m)
    }

    /// Recomputes the visiting order (upstream's node tree) from the nodes in add order; `extra`
    /// is a node info not yet in `nodes`.
    fn rebuild(&mut self, extra: Option<NodeInfo>) {
        let mut by_name: HashMap<String, NodeInfo> = std::mem::take(&mut self.nodes)
            .into_iter()
            .map(|ni| (ni.name().to_string(), ni))
            .collect();
        if let Some(ni) = extra {
            by_name.insert(ni.name().to_string(), ni);
        }
        let order = node_tree_order(&self.added);
        self.index.clear();
        for i in order {
            let name = self.added[i].metadata.name.as_str();
            let Some(ni) = by_name.remove(name) else { continue };
            self.index.insert(name.to_string(), self.nodes.len());
            self.nodes.push(ni);
        }
    }

    /// Places a pod on the node at `idx` (always use this rather than the NodeInfo directly).
    pub fn add_pod(&mut self, idx: usize, pod: Arc<PodInfo>) {
        self.num_pods_with_affinity += pod.has_affinity() as usize;
        self.num_pods_with_required_anti_affinity += pod.has_required_anti_affinity() as usize;
        self.nodes[idx].add_pod(pod);
        let node = Arc::clone(&self.nodes[idx].node);
        self.mark_changed(&node);
    }

    /// Removes the pod with this key from the node at `idx`.
    pub fn remove_pod(&mut self, idx: usize, key: &str) -> Option<Arc<PodInfo>> {
        let p = self.nodes[idx].remove_pod(key)?;
        let node = Arc::clone(&self.nodes[idx].node);
        self.mark_changed(&node);
        self.num_pods_with_affinity -= p.has_affinity() as usize;
        self.num_pods_with_required_anti_affinity -= p.has_required_anti_affinity() as usize;
        Some(p)
    }

    /// Whether any node runs a pod with pod affinity or anti-affinity.
    pub fn has_pods_with_affinity(&self) -> bool {
        let fast = self.num_pods_with_affinity > 0;
        debug_assert_eq!(
            fast,
            self.nodes.iter().any(|n| !n.pods_with_affinity.is_empty()),
            "snapshot mutated behind add_pod/remove_pod"
        );
        fast
    }

    /// Whether any node runs a pod with required anti-affinity.
    pub fn has_pods_with_required_anti_affinity(&self) -> bool {
        let fast = self.num_pods_with_required_anti_affinity > 0;
        debug_assert_eq!(
            fast,
            self.nodes.iter().any(|n| !n.pods_with_required_anti_affinity.is_empty()),
            "snapshot mutated behind add_pod/remove_pod"
        );
        fast
    }
    pub fn get(&self, name: &str) -> Option<&NodeInfo> {
        self.index.get(name).map(|&i| &self.nodes[i])
    }
    /// The nodes in visiting order (upstream's node tree).
    pub fn nodes(&self) -> &[NodeInfo] {
        &self.nodes
    }
    /// A node to edit in a unit test. Outside tests, pods go through `add_pod`/`remove_pod`,
    /// which keep the affinity counts.
    #[cfg(test)]
    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut NodeInfo> {
        let i = *self.index.get(name)?;
        Some(&mut self.nodes[i])
    }
    pub fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// Pods nominated to run on nodes (by preemption), in nomination order.
#[derive(Clone, Debug, Default)]
pub struct Nominator {
    by_node: BTreeMap<String, Vec<Arc<PodInfo>>>,
}

impl Nominator {
    pub fn pods_for_node(&self, node: &str) -> &[Arc<PodInfo>] {
        self.by_node.get(node).map(Vec::as_slice).unwrap_or(&[])
    }
    pub fn add(&mut self, pod: Arc<PodInfo>, node: &str) {
        self.remove(&pod.key);
        self.by_node.entry(node.to_string()).or_default().push(pod);
    }
    pub fn remove(&mut self, key: &str) {
        self.by_node.retain(|_, v| {
            v.retain(|p| p.key != key);
            !v.is_empty()
        });
    }
    pub fn is_empty(&self) -> bool {
        self.by_node.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Vec<Arc<PodInfo>>)> {
        self.by_node.iter()
    }
}

// ---------------------------------------------------------------------------------------------
// Claim writes (resource.k8s.io), each recorded as an event.

impl Cluster {
    /// Replaces a claim and records the update event.
    pub fn update_claim(&mut self, new: ResourceClaim) {
        let key = claim_key(&new);
        let new = Arc::new(new);
        let old = self.dra.claims.insert(key, new.clone());
        self.pending_events.push((
            ClusterEvent::new(
                EventResource::ResourceClaim,
                if old.is_some() { ActionType::UPDATE } else { ActionType::ADD },
            ),
            EventObject::ResourceClaim { old, new: Some(new) },
        ));
    }

    /// Deletes a claim and records the event.
    pub fn delete_claim(&mut self, key: &str) {
        if let Some(old) = self.dra.claims.remove(key) {
            self.pending_events.push((
                ClusterEvent::new(EventResource::ResourceClaim, ActionType::DELETE),
                EventObject::ResourceClaim { old: Some(old), new: None },
            ));
        }
    }

    /// Deallocates a claim (DynamicResources' PostFilter): allocation and reservations cleared.
    pub fn deallocate_claim(&mut self, key: &str) {
        if let Some(c) = self.dra.claims.get(key) {
            let mut c = (**c).clone();
            c.status.allocation = None;
            c.status.reserved_for.clear();
            c.status.devices = None;
            self.update_claim(c);
        }
    }

    /// What follows a pod's deletion for its claims: the pod leaves every `reservedFor`; a
    /// claim left with no consumer is deallocated and loses its finalizer; a claim the pod
    /// controls is then deleted. Events are recorded in `pending_events`.
    pub fn release_claims(&mut self, namespace: &str, pod_name: &str, pod_uid: &str) {
        let keys: Vec<String> = self
            .dra
            .claims
            .iter()
            .filter(|(_, c)| c.metadata.namespace.as_deref().unwrap_or("default") == namespace)
            .filter(|(_, c)| c.status.reserved_for.iter().any(|r| r.uid == pod_uid) || controlled_by(c, pod_name, pod_uid, namespace))
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let claim = self.dra.claims[&key].clone();
            if claim.status.reserved_for.iter().any(|r| r.uid == pod_uid) {
                let mut c = (*claim).clone();
                c.status.reserved_for.retain(|r| r.uid != pod_uid);
                if c.status.reserved_for.is_empty() && c.status.allocation.is_some() {
                    c.status.allocation = None;
                    c.status.devices = None;
                    if let Some(f) = &mut c.metadata.finalizers {
                        f.retain(|f| f != CLAIM_FINALIZER);
                        if f.is_empty() {
                            c.metadata.finalizers = None;
                        }
                    }
                }
                self.update_claim(c);
            }
            let claim = self.dra.claims[&key].clone();
            if controlled_by(&claim, pod_name, pod_uid, namespace) && claim.status.reserved_for.is_empty() {
                self.delete_claim(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Affinity, PodAffinity, PodAffinityTerm};
    use crate::plugins::testing::{MakeNode, MakePod};

    fn node(name: &str, zone: Option<&str>) -> Arc<api::Node> {
        let n = MakeNode::new(name);
        Arc::new(match zone {
            Some(z) => n.label("topology.kubernetes.io/zone", z).obj(),
            None => n.obj(),
        })
    }

    fn names(s: &Snapshot) -> Vec<&str> {
        s.nodes().iter().map(|n| n.name()).collect()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn nodes_are_visited_one_zone_at_a_time() {
        // (nodes with their zones in declaration order, expected visiting order)
        type Case = (Vec<(&'static str, Option<&'static str>)>, Vec<&'static str>);
        let cases: Vec<Case> = vec![
            (vec![("a", None), ("b", None), ("c", None)], vec!["a", "b", "c"]),
            (
                vec![
                    ("a1", Some("a")),
                    ("a2", Some("a")),
                    ("b1", Some("b")),
                    ("c1", Some("c")),
                    ("b2", Some("b")),
                ],
                vec!["a1", "b1", "c1", "a2", "b2"],
            ),
            // Zones come in order of first appearance; the zoneless nodes form one zone.
            (
                vec![("x", None), ("b1", Some("b")), ("a1", Some("a")), ("y", None)],
                vec!["x", "b1", "a1", "y"],
            ),
            (
                vec![("a1", Some("a")), ("a2", Some("a")), ("a3", Some("a")), ("b1", Some("b"))],
                vec!["a1", "b1", "a2", "a3"],
            ),
        ];
        for (nodes, want) in cases {
            let s = Snapshot::new(nodes.iter().map(|&(n, z)| node(n, z)).collect());
            assert_eq!(names(&s), want);
            for (i, n) in want.iter().enumerate() {
                assert_eq!(s.position(n), Some(i), "index of {n}");
                assert_eq!(s.get(n).map(|x| x.name()), Some(*n));
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn nodes_added_updated_and_removed_keep_the_zone_order() {
        let mut s = Snapshot::new(vec![node("a1", Some("a")), node("b1", Some("b")), node("a2", Some("a"))]);
        assert_eq!(names(&s), ["a1", "b1", "a2"]);
        s.add_node(node("b2", Some("b")));
        assert_eq!(names(&s), ["a1", "b1", "a2", "b2"]);
        // a1 moves to zone b: it leaves zone a and joins the end of zone b.
        let old = s.update_node(node("a1", Some("b"))).unwrap();
        assert_eq!(zone_key(&old.metadata.labels), zone_key(&node("x", Some("a")).metadata.labels));
        assert_eq!(names(&s), ["b1", "a2", "b2", "a1"]);
        // A label change within the zone keeps the place.
        let relabelled = Arc::new(MakeNode::new("b2").label("topology.kubernetes.io/zone", "b").label("k", "v").obj());
        s.update_node(relabelled);
        assert_eq!(names(&s), ["b1", "a2", "b2", "a1"]);
        assert!(s.remove_node("b1").is_some());
        assert_eq!(names(&s), ["a2", "b2", "a1"]);
        assert_eq!(s.position("b1"), None);
        assert_eq!(s.position("a1"), Some(2));
        assert!(s.remove_node("nope").is_none());
        assert!(s.update_node(node("nope", None)).is_none());
    }

    /// One change to the snapshot in `image_counts_follow_upstreams_cache_and_snapshot`.
    enum Op {
        AddNode(&'static str, &'static [(&'static str, i64)]),
        RemoveNode(&'static str),
        /// A pod placed on the node (its generation changes).
        AddPod(&'static str),
        /// A label added to the node (an update of its object).
        Relabel(&'static str),
        /// The start of a scheduling cycle (UpdateSnapshot).
        Update,
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn image_counts_follow_upstreams_cache_and_snapshot() {
        use Op::*;
        const APP: &[(&str, i64)] = &[("app:1", 100)];
        const APP_BIG: &[(&str, i64)] = &[("app:1", 900)];
        let with = |name: &'static str, images: &[(&str, i64)]| {
            let mut n = MakeNode::new(name);
            for &(img, size) in images {
                n = n.image(img, size);
            }
            Arc::new(n.obj())
        };
        /// A node's summary of an image as ImageLocality reads it: (size, number of nodes), or
        /// None when the node has no entry for the image.
        type Summary = Option<(i64, usize)>;
        struct Case {
            name: &'static str,
            nodes: Vec<(&'static str, &'static [(&'static str, i64)])>,
            ops: Vec<Op>,
            /// (node, image, its summary on that node).
            want: Vec<(&'static str, &'static str, Summary)>,
        }
        let three = || vec![("a", APP), ("b", APP), ("c", APP)];
        let cases = vec![
            Case {
                name: "the first snapshot counts every node",
                nodes: three(),
                ops: vec![],
                want: vec![("a", "app:1", Some((100, 3))), ("c", "app:1", Some((100, 3)))],
            },
            Case {
                name: "a node deleted: the others keep their counts until they change",
                nodes: three(),
                ops: vec![RemoveNode("a"), Update],
                want: vec![("b", "app:1", Some((100, 3))), ("c", "app:1", Some((100, 3)))],
            },
            Case {
                name: "a node deleted: a node that changed since copies the new count",
                nodes: three(),
                ops: vec![RemoveNode("a"), AddPod("b"), Relabel("c"), Update],
                want: vec![("b", "app:1", Some((100, 2))), ("c", "app:1", Some((100, 2)))],
            },
            Case {
                name: "the copy is taken at the cycle's start, not when the node changed",
                nodes: three(),
                ops: vec![AddPod("b"), RemoveNode("a"), Update],
                want: vec![("b", "app:1", Some((100, 2))), ("c", "app:1", Some((100, 3)))],
            },
            Case {
                name: "a copy taken before the deletion stays",
                nodes: three(),
                ops: vec![AddPod("b"), Update, RemoveNode("a"), Update],
                want: vec![("b", "app:1", Some((100, 3)))],
            },
            Case {
                name: "a node added: it counts itself, the others are not told",
                nodes: three(),
                ops: vec![AddNode("d", APP), Update],
                want: vec![("d", "app:1", Some((100, 4))), ("a", "app:1", Some((100, 3)))],
            },
            Case {
                name: "the size is the one of the node that created the entry, while any has it",
                nodes: vec![("a", APP), ("b", APP_BIG)],
                ops: vec![RemoveNode("a"), AddPod("b"), AddNode("c", APP), Update],
                want: vec![("b", "app:1", Some((100, 2))), ("c", "app:1", Some((100, 2)))],
            },
            Case {
                name: "an entry no node has is dropped; the next node to report it sets its size",
                nodes: vec![("a", APP)],
                ops: vec![RemoveNode("a"), AddNode("b", APP_BIG), Update],
                want: vec![("b", "app:1", Some((900, 1)))],
            },
            Case {
                name: "a node without the image has no entry for it",
                nodes: vec![("a", APP), ("b", &[])],
                ops: vec![AddPod("b"), Update],
                want: vec![("b", "app:1", None)],
            },
        ];
        for c in cases {
            let mut s = Snapshot::new(c.nodes.iter().map(|&(n, imgs)| with(n, imgs)).collect());
            for (k, op) in c.ops.iter().enumerate() {
                match *op {
                    AddNode(n, imgs) => s.add_node(with(n, imgs)),
                    RemoveNode(n) => {
                        s.remove_node(n).expect("node exists");
                    }
                    AddPod(n) => {
                        let pod = Arc::new(MakePod::new(&format!("p{k}")).node(n).info());
                        s.add_pod(s.position(n).expect("node exists"), pod);
                    }
                    Relabel(n) => {
                        let mut node = (*s.get(n).expect("node exists").node).clone();
                        node.metadata.labels.insert("k".into(), format!("{k}"));
                        s.update_node(Arc::new(node));
                    }
                    Update => s.update(),
                }
            }
            for (node, image, want) in c.want {
                let got = s
                    .get(node)
                    .expect("node exists")
                    .image_states
                    .get(image)
                    .map(|st| (st.size, st.num_nodes));
                assert_eq!(got, want, "{}: {node} {image}", c.name);
            }
        }
    }

    fn with_anti_affinity(p: MakePod, required: bool) -> MakePod {
        let terms = if required {
            vec![PodAffinityTerm {
                topology_key: "kubernetes.io/hostname".into(),
                ..Default::default()
            }]
        } else {
            vec![]
        };
        p.affinity(Affinity {
            pod_anti_affinity: Some(PodAffinity {
                required_during_scheduling_ignored_during_execution: terms,
                ..Default::default()
            }),
            ..Default::default()
        })
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pods_added_and_removed_keep_the_affinity_counts() {
        let mut s = Snapshot::new(vec![node("n1", None), node("n2", None)]);
        let plain = Arc::new(MakePod::new("plain").node("n1").info());
        let soft = Arc::new(with_anti_affinity(MakePod::new("soft").node("n1"), false).info());
        let hard = Arc::new(with_anti_affinity(MakePod::new("hard").node("n2"), true).info());
        let counts = |s: &Snapshot| (s.has_pods_with_affinity(), s.has_pods_with_required_anti_affinity());
        assert_eq!(counts(&s), (false, false));
        s.add_pod(0, plain.clone());
        assert_eq!(counts(&s), (false, false));
        s.add_pod(0, soft.clone());
        assert_eq!(counts(&s), (true, false));
        s.add_pod(1, hard.clone());
        assert_eq!(counts(&s), (true, true));
        assert_eq!(s.nodes()[0].pods.len(), 2);
        // Removing returns the pod; removing an absent key changes nothing.
        assert_eq!(s.remove_pod(0, &soft.key).map(|p| p.key.clone()), Some(soft.key.clone()));
        assert!(s.remove_pod(0, &soft.key).is_none());
        assert_eq!(counts(&s), (true, true), "hard is still on n2");
        // Removing a node removes its pods with it, counts included.
        s.remove_node("n2");
        assert_eq!(counts(&s), (false, false));
        assert_eq!(
            s.nodes()[0].pods.iter().map(|p| p.key.as_str()).collect::<Vec<_>>(),
            [plain.key.as_str()]
        );
    }
}
