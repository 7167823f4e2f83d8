//! PodTopologySpread: hard (DoNotSchedule) constraints filter nodes by skew; soft
//! (ScheduleAnyway) constraints score nodes by how many matching pods their domains hold.
//! Pods without constraints of their own get the profile's default constraints, but only when
//! some Service / ReplicationController / ReplicaSet / StatefulSet selects them.

pub mod args;

use crate::api::{self, Labels, Node, TopologySpreadConstraint};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, NodeScore, Plugin, PodInfo, PreFilterResult, Status, MAX_NODE_SCORE};
use crate::labels::Selector;
use crate::plugins::helper::{find_untolerated_taint, PreStates, RequiredNodeAffinity};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::{DefaultingType, PodTopologySpreadArgs};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub const ERR_REASON_CONSTRAINTS_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints";
pub const ERR_REASON_NODE_LABEL_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints (missing required label)";

use crate::api::{LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE};
const DO_NOT_SCHEDULE: &str = "DoNotSchedule";
const SCHEDULE_ANYWAY: &str = "ScheduleAnyway";
const HONOR: &str = "Honor";

/// The constraints `defaultingType: System` stands for.
pub fn system_default_constraints() -> Vec<TopologySpreadConstraint> {
    vec![
        TopologySpreadConstraint {
            max_skew: 3,
            topology_key: LABEL_HOSTNAME.into(),
            when_unsatisfiable: SCHEDULE_ANYWAY.into(),
            ..Default::default()
        },
        TopologySpreadConstraint {
            max_skew: 5,
            topology_key: LABEL_TOPOLOGY_ZONE.into(),
            when_unsatisfiable: SCHEDULE_ANYWAY.into(),
            ..Default::default()
        },
    ]
}

/// The apiserver's handling of `matchLabelKeys` at pod creation (v1.34,
/// MatchLabelKeysInPodTopologySpreadSelectorMerge, beta and on): for each listed key the pod
/// carries, the constraint's label selector gains `key In (value)`. Constraints without a label
/// selector are left alone. The scheduler still merges the keys itself as well (for pods created
/// before the merge existed); both together select the same pods.
pub fn merge_match_label_keys(pod: &mut api::Pod) {
    let labels = &pod.metadata.labels;
    for c in &mut pod.spec.topology_spread_constraints {
        if c.match_label_keys.is_empty() {
            continue;
        }
        let Some(sel) = c.label_selector.as_mut() else { continue };
        for key in &c.match_label_keys {
            if let Some(v) = labels.get(key) {
                sel.match_expressions.push(api::LabelSelectorRequirement {
                    key: key.clone(),
                    operator: "In".into(),
                    values: vec![v.clone()],
                });
            }
        }
    }
}

/// A spread constraint with its selector compiled and its defaults applied.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Constraint {
    max_skew: i32,
    topology_key: String,
    selector: Selector,
    min_domains: i32,
    honor_node_affinity: bool,
    honor_node_taints: bool,
}

impl Constraint {
    /// Whether the node counts for this constraint under its nodeAffinityPolicy and
    /// nodeTaintsPolicy.
    fn includes_node(&self, pod: &PodInfo, node: &Node, affinity: &RequiredNodeAffinity) -> bool {
        if self.honor_node_affinity && !affinity.matches(node) {
            return false;
        }
        if self.honor_node_taints
            && find_untolerated_taint(&node.spec.taints, &pod.pod.spec.tolerations, |t| {
                t.effect == "NoSchedule" || t.effect == "NoExecute"
            })
            .is_some()
        {
            return false;
        }
        true
    }
}

/// Whether the node has every constraint's topology key.
fn node_has_all_keys(labels: &Labels, constraints: &[Constraint]) -> bool {
    constraints.iter().all(|c| labels.contains_key(&c.topology_key))
}

/// Pods in `ns`, not being deleted, matched by `selector`. An empty selector counts nothing.
fn count_matching_pods(pods: &[Arc<PodInfo>], selector: &Selector, ns: &str) -> i64 {
    if selector.is_everything() {
        return 0;
    }
    pods.iter()
        .filter(|p| p.pod.metadata.deletion_timestamp.is_none() && p.namespace() == ns && selector.matches(p.labels()))
        .count() as i64
}

/// Compiles the constraints with the given whenUnsatisfiable, merging `matchLabelKeys`.
fn compile_constraints(constraints: &[TopologySpreadConstraint], pod_labels: &Labels, action: &str) -> Result<Vec<Constraint>, String> {
    let mut out = Vec::new();
    for c in constraints.iter().filter(|c| c.when_unsatisfiable == action) {
        let mut selector = Selector::from_label_selector(c.label_selector.as_ref())?;
        if !c.match_label_keys.is_empty() {
            let values: Labels =
                c.match_label_keys.iter().filter_map(|k| pod_labels.get(k).map(|v| (k.clone(), v.clone()))).collect();
            if !values.is_empty() {
                if let Selector::Reqs(reqs) = selector {
                    let mut merged = Selector::from_map(&values);
                    for r in reqs {
                        merged.push(r);
                    }
                    selector = merged;
                }
            }
        }
        out.push(Constraint {
            max_skew: c.max_skew,
            topology_key: c.topology_key.clone(),
            selector,
            min_domains: c.min_domains.unwrap_or(1),
            honor_node_affinity: c.node_affinity_policy.as_deref().is_none_or(|p| p == HONOR),
            honor_node_taints: c.node_taints_policy.as_deref() == Some(HONOR),
        });
    }
    Ok(out)
}

/// The controller owning a pod, with the selector it uses.
#[derive(Clone, Debug)]
pub enum OwnerSelector {
    ReplicationController(Labels),
    ReplicaSet(Selector),
    StatefulSet(Selector),
}

/// The selectors of the workload objects that pick a pod: Services in its namespace whose
/// selector matches it, and its controller when that is a ReplicationController, ReplicaSet or
/// StatefulSet.
#[derive(Clone, Debug, Default)]
pub struct WorkloadSelectors {
    pub services: Vec<Labels>,
    pub owner: Option<OwnerSelector>,
}

/// The workload objects selecting `pod`: every Service of its namespace with a selector that
/// matches its labels (a Service without a selector selects nothing), and its controlling owner
/// when the reference is exactly v1 ReplicationController, apps/v1 ReplicaSet or apps/v1
/// StatefulSet and an object of that name exists in the pod's namespace (the uid is not
/// compared). Any other owner adds nothing.
pub fn workload_selectors(cx: &Ctx, pod: &PodInfo) -> WorkloadSelectors {
    let w = &cx.cluster.workloads;
    let ns = pod.namespace();
    let services = w
        .services_in(ns)
        .filter_map(|s| s.spec.selector.as_ref())
        .filter(|sel| Selector::from_map(sel).matches(pod.labels()))
        .cloned()
        .collect();
    let owner = pod
        .pod
        .metadata
        .owner_references
        .iter()
        .find(|o| o.controller == Some(true))
        .and_then(|o| match (o.api_version.as_str(), o.kind.as_str()) {
            ("v1", "ReplicationController") => w
                .replication_controller(ns, &o.name)
                .map(|rc| OwnerSelector::ReplicationController(rc.spec.selector.clone())),
            ("apps/v1", "ReplicaSet") => w
                .replica_set(ns, &o.name)
                .map(|rs| OwnerSelector::ReplicaSet(owner_selector(rs.spec.selector.as_ref()))),
            ("apps/v1", "StatefulSet") => w
                .stateful_set(ns, &o.name)
                .map(|ss| OwnerSelector::StatefulSet(owner_selector(ss.spec.selector.as_ref()))),
            _ => None,
        });
    WorkloadSelectors { services, owner }
}

/// A ReplicaSet's or StatefulSet's selector; one that cannot be compiled adds nothing.
fn owner_selector(sel: Option<&api::LabelSelector>) -> Selector {
    Selector::from_label_selector(sel).unwrap_or(Selector::Nothing)
}

/// The selector default constraints use for a pod (upstream helper.DefaultSelector).
fn default_selector(cx: &Ctx, pod: &PodInfo) -> Selector {
    compose_default_selector(workload_selectors(cx, pod))
}

/// The union of the selecting Services' selectors, plus the owning controller's: a
/// ReplicationController's map is merged in, a ReplicaSet's or StatefulSet's requirements added.
fn compose_default_selector(w: WorkloadSelectors) -> Selector {
    let mut set = Labels::new();
    for s in &w.services {
        set.extend(s.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    let mut selector = Selector::from_map(&set);
    match w.owner {
        None => {}
        Some(OwnerSelector::ReplicationController(m)) => {
            set.extend(m);
            selector = Selector::from_map(&set);
        }
        Some(OwnerSelector::ReplicaSet(other)) | Some(OwnerSelector::StatefulSet(other)) => {
            if let Selector::Reqs(reqs) = other {
                for r in reqs {
                    selector.push(r);
                }
            }
        }
    }
    selector
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Path {
    domain: u32,
    num: i32,
}

/// The two domains with the fewest matching pods (the first always holds the minimum; the
/// second is only guaranteed not to be smaller than the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CriticalPaths([Path; 2]);

/// Domain id of the empty topology value; also the value the paths start with.
const EMPTY_VALUE_DOMAIN: u32 = 0;
const NO_DOMAIN: u32 = u32::MAX;

impl CriticalPaths {
    fn new() -> CriticalPaths {
        let p = Path {
            domain: EMPTY_VALUE_DOMAIN,
            num: i32::MAX,
        };
        CriticalPaths([p, p])
    }
    fn update(&mut self, domain: u32, num: i32) {
        let p = &mut self.0;
        let i = if domain == p[0].domain {
            Some(0)
        } else if domain == p[1].domain {
            Some(1)
        } else {
            None
        };
        match i {
            Some(i) => {
                p[i].num = num;
                if p[0].num > p[1].num {
                    p.swap(0, 1);
                }
            }
            None => {
                if num < p[0].num {
                    p[1] = p[0];
                    p[0] = Path { domain, num };
                } else if num < p[1].num {
                    p[1] = Path { domain, num };
                }
            }
        }
    }
}

/// One hard constraint's domains. Topology values are interned per cycle: `node_domain` maps a
/// snapshot position to the domain of the node's value (NO_DOMAIN without the key).
#[derive(Clone, Debug)]
struct DomainCounts {
    node_domain: Arc<Vec<u32>>,
    counts: Vec<i32>,
    /// Whether the domain holds an eligible node (upstream: has an entry in the count map).
    present: Vec<bool>,
    num_present: usize,
    paths: CriticalPaths,
}

impl DomainCounts {
    fn add(&mut self, domain: u32, delta: i32) {
        let d = domain as usize;
        self.counts[d] += delta;
        if !self.present[d] {
            self.present[d] = true;
            self.num_present += 1;
        }
        self.paths.update(domain, self.counts[d]);
    }
    /// The global minimum used for skew: 0 while fewer than `min_domains` domains exist.
    fn min_match(&self, min_domains: i32) -> i32 {
        if (self.num_present as i64) < min_domains as i64 {
            0
        } else {
            self.paths.0[0].num
        }
    }
}

#[derive(Clone, Debug)]
struct PreFilterState {
    constraints: Arc<Vec<Constraint>>,
    domains: Vec<DomainCounts>,
    node_affinity: Arc<RequiredNodeAffinity>,
}

/// The domain of `node` (at snapshot position `pos`) for one constraint; for a node missing
/// from the snapshot, the domain of any snapshot node with the same value.
fn domain_of(cx: &Ctx, d: &DomainCounts, key: &str, node: &NodeInfo, pos: Option<usize>) -> u32 {
    if let Some(&id) = pos.and_then(|p| d.node_domain.get(p)) {
        return id;
    }
    let Some(v) = node.labels().get(key) else { return NO_DOMAIN };
    cx.snapshot
        .nodes()
        .iter()
        .enumerate()
        .find(|(_, n)| n.labels().get(key) == Some(v))
        .and_then(|(pos, _)| d.node_domain.get(pos).copied())
        .unwrap_or(NO_DOMAIN)
}

#[derive(Clone, Debug)]
struct PreScoreState {
    constraints: Vec<Constraint>,
    /// Scored nodes lacking some topology key (when all keys are required).
    ignored: HashSet<String>,
    /// Per constraint: topology value -> matching pods (empty for the hostname key, which is
    /// counted per node in Score).
    counts: Vec<HashMap<String, i64>>,
    weights: Vec<f64>,
}

pub struct PodTopologySpread {
    default_constraints: Vec<TopologySpreadConstraint>,
    system_defaulted: bool,
}

impl PodTopologySpread {
    pub fn new(args: &PodTopologySpreadArgs) -> PodTopologySpread {
        match args.defaulting_type {
            DefaultingType::System => PodTopologySpread {
                default_constraints: system_default_constraints(),
                system_defaulted: true,
            },
            DefaultingType::List => PodTopologySpread {
                default_constraints: args.default_constraints.clone(),
                system_defaulted: false,
            },
        }
    }

    /// Default constraints for a pod without its own: only when workload objects select it.
    fn default_constraints(&self, cx: &Ctx, pod: &PodInfo, action: &str) -> Result<Vec<Constraint>, String> {
        if !self.default_constraints.iter().any(|c| c.when_unsatisfiable == action) {
            return Ok(Vec::new());
        }
        self.default_constraints_with(default_selector(cx, pod), pod, action)
    }

    /// The default constraints with the given workload selector (none when it is empty).
    fn default_constraints_with(&self, selector: Selector, pod: &PodInfo, action: &str) -> Result<Vec<Constraint>, String> {
        if selector.is_everything() {
            return Ok(Vec::new());
        }
        let mut cs = compile_constraints(&self.default_constraints, pod.labels(), action)?;
        for c in &mut cs {
            c.selector = selector.clone();
        }
        Ok(cs)
    }

    /// The pod's hard constraints (its own, else the defaults).
    fn hard_constraints(&self, cx: &Ctx, pod: &PodInfo) -> Result<Vec<Constraint>, String> {
        let own = &pod.pod.spec.topology_spread_constraints;
        if !own.is_empty() {
            compile_constraints(own, pod.labels(), DO_NOT_SCHEDULE)
                .map_err(|e| format!("obtaining pod's hard topology spread constraints: {e}"))
        } else {
            self.default_constraints(cx, pod, DO_NOT_SCHEDULE)
                .map_err(|e| format!("setting default hard topology spread constraints: {e}"))
        }
    }

    fn soft_constraints(&self, cx: &Ctx, pod: &PodInfo) -> Result<Vec<Constraint>, String> {
        let own = &pod.pod.spec.topology_spread_constraints;
        if !own.is_empty() {
            compile_constraints(own, pod.labels(), SCHEDULE_ANYWAY)
                .map_err(|e| format!("obtaining pod's soft topology spread constraints: {e}"))
        } else {
            self.default_constraints(cx, pod, SCHEDULE_ANYWAY)
                .map_err(|e| format!("setting default soft topology spread constraints: {e}"))
        }
    }

    /// Counts matching pods per domain for every hard constraint.
    fn pre_filter_state(&self, cx: &Ctx, pod: &PodInfo, constraints: Vec<Constraint>) -> PreFilterState {
        let affinity = RequiredNodeAffinity::of(&pod.pod);
        let nodes = cx.snapshot.nodes();
        let mut domains = Vec::with_capacity(constraints.len());
        for c in &constraints {
            // Intern the values of every node with the key ("" is always domain 0).
            let mut ids: HashMap<&str, u32> = HashMap::new();
            ids.insert("", EMPTY_VALUE_DOMAIN);
            let node_domain: Vec<u32> = nodes
                .iter()
                .map(|n| match n.labels().get(&c.topology_key) {
                    Some(v) => {
                        let next = ids.len() as u32;
                        *ids.entry(v.as_str()).or_insert(next)
                    }
                    None => NO_DOMAIN,
                })
                .collect();
            domains.push(DomainCounts {
                node_domain: Arc::new(node_domain),
                counts: vec![0; ids.len()],
                present: vec![false; ids.len()],
                num_present: 0,
                paths: CriticalPaths::new(),
            });
        }
        for (pos, n) in nodes.iter().enumerate() {
            if !node_has_all_keys(n.labels(), &constraints) {
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                if !c.includes_node(pod, &n.node, &affinity) {
                    continue;
                }
                let d = &mut domains[i];
                let id = d.node_domain[pos] as usize;
                d.counts[id] += count_matching_pods(&n.pods, &c.selector, pod.namespace()) as i32;
                if !d.present[id] {
                    d.present[id] = true;
                    d.num_present += 1;
                }
            }
        }
        for d in &mut domains {
            for id in 0..d.counts.len() {
                if d.present[id] {
                    d.paths.update(id as u32, d.counts[id]);
                }
            }
        }
        PreFilterState {
            constraints: Arc::new(constraints),
            domains,
            node_affinity: Arc::new(affinity),
        }
    }

    /// Accounts for `other` being added to (delta 1) or removed from (delta -1) `node`.
    fn update_with_pod(cx: &Ctx, s: &mut PreFilterState, other: &PodInfo, pod: &PodInfo, node: &NodeInfo, delta: i32) {
        if other.namespace() != pod.namespace() || !node_has_all_keys(node.labels(), &s.constraints) {
            return;
        }
        let pos = cx.snapshot.position(node.name());
        for (i, c) in s.constraints.iter().enumerate() {
            if !c.selector.matches(other.labels()) || !c.includes_node(pod, &node.node, &s.node_affinity) {
                continue;
            }
            let id = domain_of(cx, &s.domains[i], &c.topology_key, node, pos);
            if id != NO_DOMAIN {
                s.domains[i].add(id, delta);
            }
        }
    }

    /// Queueing hint for a node added, updated or deleted (upstream isSchedulableAfterNodeChange).
    fn node_change_hint(&self, cx: &Ctx, pod: &PodInfo, old: Option<&Node>, new: Option<&Node>) -> Result<QueueingHint, String> {
        let constraints = self.hard_constraints(cx, pod)?;
        let old_matching = old.is_some_and(|n| node_has_all_keys(&n.metadata.labels, &constraints));
        let new_matching = new.is_some_and(|n| node_has_all_keys(&n.metadata.labels, &constraints));
        let hint = match (old, new) {
            (Some(o), Some(n)) => {
                let changed = old_matching != new_matching
                    || (new_matching
                        && (constraints
                            .iter()
                            .any(|c| o.metadata.labels.get(&c.topology_key) != n.metadata.labels.get(&c.topology_key))
                            || o.spec.taints != n.spec.taints));
                queue_if(changed)
            }
            (None, Some(_)) => queue_if(new_matching),
            (Some(_), None) => queue_if(old_matching),
            (None, None) => QueueingHint::Queue,
        };
        Ok(hint)
    }

    /// Queueing hint for a pod added, updated or deleted (upstream isSchedulableAfterPodChange).
    fn pod_change_hint(&self, cx: &Ctx, pod: &PodInfo, old: Option<&PodInfo>, new: Option<&PodInfo>) -> Result<QueueingHint, String> {
        // Only the pod itself, or pods bound to nodes in the same namespace, take part.
        let involved = |p: &PodInfo| p.uid == pod.uid || (p.node_name().is_some() && p.namespace() == pod.namespace());
        if new.is_some_and(|p| !involved(p)) || old.is_some_and(|p| !involved(p)) {
            return Ok(QueueingHint::Skip);
        }
        let constraints = self.hard_constraints(cx, pod)?;
        let any_matches = |labels: &Labels| constraints.iter().any(|c| c.selector.matches(labels));
        let hint = match (old, new) {
            (Some(o), Some(n)) => {
                if pod.uid == n.uid && n.pod.spec.tolerations != o.pod.spec.tolerations && constraints.iter().any(|c| c.honor_node_taints) {
                    // A new toleration may let tainted nodes count.
                    QueueingHint::Queue
                } else {
                    queue_if(
                        n.labels() != o.labels()
                            && constraints
                                .iter()
                                .any(|c| c.selector.matches(o.labels()) != c.selector.matches(n.labels())),
                    )
                }
            }
            (None, Some(n)) => queue_if(any_matches(n.labels())),
            (Some(o), None) => queue_if(any_matches(o.labels())),
            (None, None) => QueueingHint::Queue,
        };
        Ok(hint)
    }
}

/// One hard constraint checked on one node: the numbers its skew test uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SkewCheck {
    /// Matching pods in the node's domain.
    match_num: i64,
    /// 1 when the incoming pod matches the constraint's own selector.
    self_match: i64,
    /// The global minimum (0 while fewer than minDomains domains exist).
    min_match: i64,
    max_skew: i64,
}

impl SkewCheck {
    fn skew(&self) -> i64 {
        self.match_num + self.self_match - self.min_match
    }
    fn fits(&self) -> bool {
        self.skew() <= self.max_skew
    }
}

/// Checks hard constraint `i` on `node` (at snapshot position `pos`); None when the node lacks
/// the constraint's topology key.
fn check_constraint(cx: &Ctx, s: &PreFilterState, i: usize, pod: &PodInfo, node: &NodeInfo, pos: Option<usize>) -> Option<SkewCheck> {
    let c = &s.constraints[i];
    if !node.labels().contains_key(&c.topology_key) {
        return None;
    }
    let d = &s.domains[i];
    let id = domain_of(cx, d, &c.topology_key, node, pos);
    Some(SkewCheck {
        match_num: if id == NO_DOMAIN { 0 } else { d.counts[id as usize] as i64 },
        self_match: c.selector.matches(pod.labels()) as i64,
        min_match: d.min_match(c.min_domains) as i64,
        max_skew: c.max_skew as i64,
    })
}

/// Matching pods soft constraint `i` counts for a node whose topology value is `value`: the
/// node's own pods for the hostname key, the domain's total otherwise.
fn soft_count(s: &PreScoreState, i: usize, pod: &PodInfo, node: &NodeInfo, value: &str) -> i64 {
    let c = &s.constraints[i];
    if c.topology_key == LABEL_HOSTNAME {
        count_matching_pods(&node.pods, &c.selector, pod.namespace())
    } else {
        s.counts[i].get(value).copied().unwrap_or(0)
    }
}

/// A hard constraint's numbers on one node, for the playground's explanations.
#[derive(Clone, Debug)]
struct HardConstraintView {
    pub topology_key: String,
    pub max_skew: i32,
    pub min_domains: i32,
    pub selector: Selector,
    /// The domains that count (a node there passes the policies), by value, with their
    /// matching pods.
    pub domains: Vec<(String, i64)>,
    /// Nodes with every topology key that still do not count, each with whether the pod's
    /// node affinity leaves it out (otherwise a taint the pod does not tolerate does).
    pub excluded_nodes: Vec<(String, bool)>,
    /// Nodes lacking some constraint's topology key (they never count).
    pub nodes_missing_keys: usize,
    /// The node's value for the key; None: the node lacks the label (and is rejected).
    pub node_value: Option<String>,
    /// Matching pods in the node's domain, 1 when the incoming pod matches the selector itself,
    /// the global minimum used for the skew.
    pub match_num: i64,
    pub self_match: i64,
    pub min_match: i64,
    pub fits: bool,
}

/// The numbers behind Filter's verdict on `node`, one entry per hard constraint, read from the
/// cycle state PreFilter wrote (None when PreFilter skipped the plugin).
fn explain_filter(cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Option<Vec<HardConstraintView>> {
    let s = CycleData::pre_filter(state, PluginName::PodTopologySpread)?;
    let pos = cx.snapshot.position(node.name());
    let mut out = Vec::new();
    for (i, c) in s.constraints.iter().enumerate() {
        let d = &s.domains[i];
        // Domain ids back to their values, through any node in the domain.
        let mut values: Vec<Option<&str>> = vec![None; d.counts.len()];
        for (p, n) in cx.snapshot.nodes().iter().enumerate() {
            if let (Some(&id), Some(v)) = (d.node_domain.get(p), n.labels().get(&c.topology_key)) {
                if id != NO_DOMAIN {
                    values[id as usize].get_or_insert(v.as_str());
                }
            }
        }
        let mut domains: Vec<(String, i64)> = (0..d.counts.len())
            .filter(|&id| d.present[id])
            .map(|id| (values[id].unwrap_or("").to_string(), d.counts[id] as i64))
            .collect();
        crate::sort::sort(&mut domains);
        let mut excluded_nodes = Vec::new();
        let mut nodes_missing_keys = 0;
        for n in cx.snapshot.nodes() {
            if !node_has_all_keys(n.labels(), &s.constraints) {
                nodes_missing_keys += 1;
            } else if !c.includes_node(pod, &n.node, &s.node_affinity) {
                let by_affinity = c.honor_node_affinity && !s.node_affinity.matches(&n.node);
                excluded_nodes.push((n.name().to_string(), by_affinity));
            }
        }
        let check = check_constraint(cx, s, i, pod, node, pos);
        out.push(HardConstraintView {
            topology_key: c.topology_key.clone(),
            max_skew: c.max_skew,
            min_domains: c.min_domains,
            selector: c.selector.clone(),
            domains,
            excluded_nodes,
            nodes_missing_keys,
            node_value: node.labels().get(&c.topology_key).cloned(),
            match_num: check.map_or(0, |k| k.match_num),
            self_match: check.map_or(0, |k| k.self_match),
            min_match: check.map_or(d.min_match(c.min_domains) as i64, |k| k.min_match),
            fits: check.is_some_and(|k| k.fits()),
        });
    }
    Some(out)
}

/// A soft constraint's part of one node's raw score, for the playground's explanations.
#[derive(Clone, Debug)]
struct SoftConstraintView {
    pub topology_key: String,
    pub max_skew: i32,
    pub selector: Selector,
    /// Matching pods per domain of the feasible nodes, by value (empty for the hostname key,
    /// whose count is the node's own).
    pub domain_counts: Vec<(String, i64)>,
    /// The node's value for the key (None: the constraint adds nothing here).
    pub node_value: Option<String>,
    /// Matching pods counted for the node.
    pub count: i64,
    /// The topology's weight, ln(domains + 2), and the number of domains it was computed from
    /// (None when that number could not be recovered).
    pub weight: f64,
    pub domains: Option<usize>,
    /// count × weight + (maxSkew − 1).
    pub part: f64,
}

/// What PreScore decided, and the per-constraint parts of the node's raw score.
#[derive(Clone, Debug)]
struct SpreadScoreView {
    pub constraints: Vec<SoftConstraintView>,
    /// Scored nodes lacking a topology key: they score 0 and do not take part in normalizing.
    pub ignored_nodes: Vec<String>,
    /// The rounded sum of the parts (what Score returns; 0 for an ignored node).
    pub raw: i64,
}

/// The numbers behind Score on `node`, read from the cycle state PreScore wrote for
/// `scored_nodes` feasible nodes (None when PreScore skipped the plugin).
fn explain_score(state: &CycleState, pod: &PodInfo, node: &NodeInfo, scored_nodes: usize) -> Option<SpreadScoreView> {
    let s = CycleData::pre_score(state, PluginName::PodTopologySpread)?;
    let mut ignored_nodes: Vec<String> = s.ignored.iter().cloned().collect();
    crate::sort::sort(&mut ignored_nodes);
    let ignored = s.ignored.contains(node.name());
    let mut constraints = Vec::new();
    let mut sum = 0.0;
    for (i, c) in s.constraints.iter().enumerate() {
        let size = if c.topology_key == LABEL_HOSTNAME {
            scored_nodes.checked_sub(s.ignored.len())
        } else {
            Some(s.counts[i].len())
        };
        let node_value = node.labels().get(&c.topology_key).cloned();
        let count = match &node_value {
            Some(v) if !ignored => soft_count(s, i, pod, node, v),
            _ => 0,
        };
        let part = if node_value.is_some() && !ignored {
            score_for_count(count, c.max_skew, s.weights[i])
        } else {
            0.0
        };
        sum += part;
        constraints.push(SoftConstraintView {
            topology_key: c.topology_key.clone(),
            max_skew: c.max_skew,
            selector: c.selector.clone(),
            domain_counts: {
                let mut d: Vec<(String, i64)> = s.counts[i].iter().map(|(k, v)| (k.clone(), *v)).collect();
                crate::sort::sort(&mut d);
                d
            },
            node_value,
            count,
            weight: s.weights[i],
            domains: size.filter(|&n| topology_normalizing_weight(n) == s.weights[i]),
            part,
        });
    }
    Some(SpreadScoreView {
        constraints,
        ignored_nodes,
        raw: if ignored { 0 } else { sum.round() as i64 },
    })
}

fn queue_if(b: bool) -> QueueingHint {
    if b {
        QueueingHint::Queue
    } else {
        QueueingHint::Skip
    }
}

fn missing_pre_filter_state() -> Status {
    Status::error("reading \"PreFilterPodTopologySpread\" from cycleState: not found")
}

fn missing_pre_score_state() -> Status {
    Status::error("error reading \"PreScorePodTopologySpread\" from cycleState: not found")
}

/// ln(size + 2): the weight of a topology with `size` domains.
fn topology_normalizing_weight(size: usize) -> f64 {
    ((size + 2) as f64).ln()
}

fn score_for_count(cnt: i64, max_skew: i32, weight: f64) -> f64 {
    cnt as f64 * weight + (max_skew - 1) as f64
}

impl Plugin for PodTopologySpread {
    fn name(&self) -> PluginName {
        PluginName::PodTopologySpread
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::hinted(
                EventResource::Pod,
                ActionType::ADD
                    .union(ActionType::UPDATE_POD_LABEL)
                    .union(ActionType::UPDATE_POD_TOLERATION)
                    .union(ActionType::DELETE),
            ),
            ClusterEventWithHint::hinted(
                EventResource::Node,
                ActionType::ADD
                    .union(ActionType::DELETE)
                    .union(ActionType::UPDATE_NODE_LABEL)
                    .union(ActionType::UPDATE_NODE_TAINT),
            ),
        ]
    }

    fn queueing_hint(&self, cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::Pod { old, new } => self.pod_change_hint(cx, pod, old.as_deref(), new.as_deref()),
            EventObject::Node { old, new } => self.node_change_hint(cx, pod, old.as_deref(), new.as_deref()),
            _ => Err(format!("unexpected object for event {}", event.label())),
        }
    }

    fn pre_filter(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        let constraints = match self.hard_constraints(cx, pod) {
            Ok(c) => c,
            Err(e) => return (None, Status::error(format!("get constraints from pod: {e}"))),
        };
        if constraints.is_empty() {
            return (None, Status::skip());
        }
        let s = self.pre_filter_state(cx, pod, constraints);
        CycleData::slot(state, PluginName::PodTopologySpread).pre_filter = Some(s);
        (None, Status::success())
    }

    fn has_pre_filter_extensions(&self) -> bool {
        true
    }

    fn add_pod(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_add: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        let Some(s) = CycleData::pre_filter_mut(state, PluginName::PodTopologySpread) else {
            return missing_pre_filter_state();
        };
        Self::update_with_pod(cx, s, to_add, pod, node, 1);
        Status::success()
    }

    fn remove_pod(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_remove: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        let Some(s) = CycleData::pre_filter_mut(state, PluginName::PodTopologySpread) else {
            return missing_pre_filter_state();
        };
        Self::update_with_pod(cx, s, to_remove, pod, node, -1);
        Status::success()
    }

    fn filter(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = CycleData::pre_filter(state, PluginName::PodTopologySpread) else {
            return missing_pre_filter_state();
        };
        let pos = cx.snapshot.position(node.name());
        for i in 0..s.constraints.len() {
            match check_constraint(cx, s, i, pod, node, pos) {
                None => return Status::unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH),
                Some(k) if !k.fits() => return Status::unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH),
                Some(_) => {}
            }
        }
        Status::success()
    }

    fn pre_score(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, nodes: &[&NodeInfo]) -> Status {
        let all_nodes = cx.snapshot.nodes();
        if all_nodes.is_empty() {
            return Status::skip();
        }
        // Nodes must carry every key unless the constraints are the system defaults (so nodes
        // without a zone still get hostname spreading).
        let require_all = !pod.pod.spec.topology_spread_constraints.is_empty() || !self.system_defaulted;
        let constraints = match self.soft_constraints(cx, pod) {
            Ok(c) => c,
            Err(e) => return Status::error(format!("calculating preScoreState: {e}")),
        };
        if constraints.is_empty() {
            return Status::skip();
        }
        let mut ignored = HashSet::new();
        let mut counts: Vec<HashMap<String, i64>> = vec![HashMap::new(); constraints.len()];
        for n in nodes {
            if require_all && !node_has_all_keys(n.labels(), &constraints) {
                ignored.insert(n.name().to_string());
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                if c.topology_key == LABEL_HOSTNAME {
                    continue;
                }
                let v = n.labels().get(&c.topology_key).map(String::as_str).unwrap_or("");
                if !counts[i].contains_key(v) {
                    counts[i].insert(v.to_string(), 0);
                }
            }
        }
        let weights = constraints
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let size = if c.topology_key == LABEL_HOSTNAME {
                    nodes.len() - ignored.len()
                } else {
                    counts[i].len()
                };
                topology_normalizing_weight(size)
            })
            .collect();

        let affinity = RequiredNodeAffinity::of(&pod.pod);
        for n in all_nodes {
            if require_all && !node_has_all_keys(n.labels(), &constraints) {
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                if !c.includes_node(pod, &n.node, &affinity) {
                    continue;
                }
                let v = n.labels().get(&c.topology_key).map(String::as_str).unwrap_or("");
                // Only domains of scored nodes are counted here (never the hostname one).
                if let Some(cnt) = counts[i].get_mut(v) {
                    *cnt += count_matching_pods(&n.pods, &c.selector, pod.namespace());
                }
            }
        }
        CycleData::slot(state, PluginName::PodTopologySpread).pre_score = Some(Arc::new(PreScoreState {
            constraints,
            ignored,
            counts,
            weights,
        }));
        Status::success()
    }

    fn score(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let Some(s) = CycleData::pre_score(state, PluginName::PodTopologySpread) else {
            return Err(missing_pre_score_state());
        };
        if !s.ignored.is_empty() && s.ignored.contains(node.name()) {
            return Ok(0);
        }
        let labels = node.labels();
        let mut score = 0.0;
        for (i, c) in s.constraints.iter().enumerate() {
            let Some(v) = labels.get(&c.topology_key) else { continue };
            score += score_for_count(soft_count(s, i, pod, node, v), c.max_skew, s.weights[i]);
        }
        Ok(score.round() as i64)
    }

    fn has_normalize_score(&self) -> bool {
        true
    }

    fn normalize_score(&self, cx: &Ctx, state: &CycleState, _pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        let Some(s) = CycleData::pre_score(state, PluginName::PodTopologySpread) else {
            return missing_pre_score_state();
        };
        const INVALID_SCORE: i64 = -1;
        let mut min = i64::MAX;
        let mut max = 0;
        for ns in scores.iter_mut() {
            if !s.ignored.is_empty() && s.ignored.contains(cx.snapshot.nodes()[ns.node].name()) {
                ns.score = INVALID_SCORE;
                continue;
            }
            min = min.min(ns.score);
            max = max.max(ns.score);
        }
        for ns in scores.iter_mut() {
            if ns.score == INVALID_SCORE {
                ns.score = 0;
            } else if max == 0 {
                ns.score = MAX_NODE_SCORE;
            } else {
                ns.score = MAX_NODE_SCORE * (max + min - ns.score) / max;
            }
        }
        Status::success()
    }
}

/// What the plugin keeps in its cycle-state slot.
type CycleData = PreStates<PreFilterState, PreScoreState>;

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::PodTopologySpread,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::PreScore, Ep::Score, Ep::EnqueueExtensions]),
    short: "Spread",
    args: Some(&args::CODEC),
    new: |args, _| Box::new(PodTopologySpread::new(&args.get_or_default::<PodTopologySpreadArgs>())),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{LabelSelector, LabelSelectorRequirement};
    use crate::framework::Code;
    use crate::labels::{Op, Requirement};
    use crate::plugins::testing::{Env, MakeNode, MakePod};
    use std::collections::BTreeMap;

    const ZONE: &str = LABEL_TOPOLOGY_ZONE;

    fn labels(kv: &[(&str, &str)]) -> Labels {
        kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn tsc(key: &str, max_skew: i32, when: &str, sel: Option<&[(&str, &str)]>) -> TopologySpreadConstraint {
        TopologySpreadConstraint {
            max_skew,
            topology_key: key.into(),
            when_unsatisfiable: when.into(),
            label_selector: sel.map(|s| LabelSelector {
                match_labels: labels(s),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn hard(key: &str, max_skew: i32, sel: &[(&str, &str)]) -> TopologySpreadConstraint {
        tsc(key, max_skew, DO_NOT_SCHEDULE, Some(sel))
    }

    fn soft(key: &str, max_skew: i32, sel: &[(&str, &str)]) -> TopologySpreadConstraint {
        tsc(key, max_skew, SCHEDULE_ANYWAY, Some(sel))
    }

    fn zone_node(name: &str, zone: &str) -> MakeNode {
        MakeNode::new(name).label(ZONE, zone)
    }

    fn web(name: &str, node: &str) -> api::Pod {
        MakePod::new(name).label("app", "web").node(node).obj()
    }

    fn plugin() -> PodTopologySpread {
        PodTopologySpread::new(&PodTopologySpreadArgs::default())
    }

    /// PreFilter then Filter on every node, by node name.
    fn run_filter(pl: &PodTopologySpread, env: &Env, pod: &PodInfo) -> (Code, BTreeMap<String, Code>) {
        let cx = env.cx();
        let mut state = CycleState::new();
        let (_, s) = pl.pre_filter(&cx, &mut state, pod);
        if !s.is_success() {
            return (s.code, BTreeMap::new());
        }
        let out = env
            .snapshot
            .nodes()
            .iter()
            .map(|n| (n.name().to_string(), pl.filter(&cx, &state, pod, n).code))
            .collect();
        (s.code, out)
    }

    fn codes(kv: &[(&str, Code)]) -> BTreeMap<String, Code> {
        kv.iter().map(|(k, c)| (k.to_string(), *c)).collect()
    }

    const OK: Code = Code::Success;
    const SKEW: Code = Code::Unschedulable;
    const LABEL: Code = Code::UnschedulableAndUnresolvable;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_messages() {
        let env = Env::new(
            vec![zone_node("a", "za").obj(), zone_node("b", "zb").obj(), MakeNode::new("x").obj()],
            vec![web("w1", "a")],
        );
        let pl = plugin();
        let cx = env.cx();
        let pod = MakePod::new("p")
            .label("app", "web")
            .spread(hard(ZONE, 1, &[("app", "web")]))
            .info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_success());
        let s = pl.filter(&cx, &state, &pod, env.node("a"));
        assert_eq!(
            (s.code, s.message()),
            (Code::Unschedulable, ERR_REASON_CONSTRAINTS_NOT_MATCH.to_string())
        );
        let s = pl.filter(&cx, &state, &pod, env.node("x"));
        assert_eq!(
            (s.code, s.message()),
            (Code::UnschedulableAndUnresolvable, ERR_REASON_NODE_LABEL_NOT_MATCH.to_string())
        );
        assert!(pl.filter(&cx, &state, &pod, env.node("b")).is_success());
        assert_eq!(pl.filter(&cx, &CycleState::new(), &pod, env.node("b")).code, Code::Error);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_table() {
        let nodes = || {
            vec![
                zone_node("a1", "za").label("disk", "ssd").obj(),
                zone_node("a2", "za").label("disk", "ssd").obj(),
                zone_node("b1", "zb").label("disk", "ssd").obj(),
                zone_node("c1", "zc").taint("dedicated", "x", "NoSchedule").obj(),
                MakeNode::new("none").obj(),
            ]
        };
        let spread_pods = || vec![web("w1", "a1"), web("w2", "a2"), web("w3", "b1")];
        let mut with_policies = hard(ZONE, 1, &[("app", "web")]);
        with_policies.node_affinity_policy = Some("Ignore".into());
        let mut taints_honor = hard(ZONE, 1, &[("app", "web")]);
        taints_honor.node_taints_policy = Some("Honor".into());
        let mut min3 = hard(ZONE, 1, &[("app", "web")]);
        min3.min_domains = Some(3);
        let mut min4 = hard(ZONE, 2, &[("app", "web")]);
        min4.min_domains = Some(4);
        let mut by_version = hard(ZONE, 1, &[("app", "web")]);
        by_version.match_label_keys = vec!["version".into()];
        let mut terminating = web("t1", "b1");
        terminating.metadata.deletion_timestamp = Some(Box::new(serde_json::json!("2025-01-01T00:00:00Z")));

        type Case = (&'static str, Vec<api::Pod>, MakePod, Code, Vec<(&'static str, Code)>);
        let cases: Vec<Case> = vec![
            (
                "no constraints: skip",
                spread_pods(),
                MakePod::new("p").label("app", "web"),
                Code::Skip,
                vec![],
            ),
            (
                "soft constraints only: skip",
                spread_pods(),
                MakePod::new("p").label("app", "web").spread(soft(ZONE, 1, &[("app", "web")])),
                Code::Skip,
                vec![],
            ),
            (
                "zone skew: za=2 zb=1 zc=0",
                spread_pods(),
                MakePod::new("p").label("app", "web").spread(hard(ZONE, 1, &[("app", "web")])),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", SKEW), ("c1", OK), ("none", LABEL)],
            ),
            (
                "maxSkew 2",
                spread_pods(),
                MakePod::new("p").label("app", "web").spread(hard(ZONE, 2, &[("app", "web")])),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", OK), ("c1", OK), ("none", LABEL)],
            ),
            (
                "pod not matching its own selector",
                spread_pods(),
                MakePod::new("p").label("app", "db").spread(hard(ZONE, 1, &[("app", "web")])),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", OK), ("c1", OK), ("none", LABEL)],
            ),
            (
                // zc is no domain, so the minimum is zb's 1 (NodeAffinity rejects c1 itself).
                "nodeAffinityPolicy Honor (default): zc is outside the pod's node selector",
                spread_pods(),
                MakePod::new("p")
                    .label("app", "web")
                    .node_selector("disk", "ssd")
                    .spread(hard(ZONE, 1, &[("app", "web")])),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", OK), ("c1", OK), ("none", LABEL)],
            ),
            (
                "nodeAffinityPolicy Ignore: zc counts",
                spread_pods(),
                MakePod::new("p")
                    .label("app", "web")
                    .node_selector("disk", "ssd")
                    .spread(with_policies),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", SKEW), ("c1", OK), ("none", LABEL)],
            ),
            (
                "nodeTaintsPolicy Honor: the tainted zc does not count",
                spread_pods(),
                MakePod::new("p").label("app", "web").spread(taints_honor.clone()),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", OK), ("c1", OK), ("none", LABEL)],
            ),
            (
                "nodeTaintsPolicy Honor with a toleration: zc counts",
                spread_pods(),
                MakePod::new("p")
                    .label("app", "web")
                    .toleration("dedicated", "Exists", "", "NoSchedule")
                    .spread(taints_honor),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", SKEW), ("c1", OK), ("none", LABEL)],
            ),
            (
                "minDomains above the domain count: global minimum 0",
                vec![web("w1", "a1"), web("w2", "b1"), web("w3", "c1")],
                MakePod::new("p").label("app", "web").spread(min4),
                OK,
                // all domains hold 1: with minimum 0, 1+1-0 = 2 <= 2.
                vec![("a1", OK), ("a2", OK), ("b1", OK), ("c1", OK), ("none", LABEL)],
            ),
            (
                "minDomains satisfied: the real minimum",
                vec![web("w1", "a1"), web("w2", "b1")],
                MakePod::new("p").label("app", "web").spread(min3),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", SKEW), ("c1", OK), ("none", LABEL)],
            ),
            (
                "empty selector counts no pods",
                spread_pods(),
                MakePod::new("p").label("app", "web").spread(hard(ZONE, 1, &[])),
                OK,
                vec![("a1", OK), ("a2", OK), ("b1", OK), ("c1", OK), ("none", LABEL)],
            ),
            (
                "pods of other namespaces and terminating pods do not count",
                vec![
                    MakePod::new("o1").namespace("other").label("app", "web").node("a1").obj(),
                    MakePod::new("o2").namespace("other").label("app", "web").node("a2").obj(),
                    terminating,
                ],
                MakePod::new("p").label("app", "web").spread(hard(ZONE, 1, &[("app", "web")])),
                OK,
                vec![("a1", OK), ("a2", OK), ("b1", OK), ("c1", OK), ("none", LABEL)],
            ),
            (
                "matchLabelKeys narrow the selector to the pod's version",
                vec![
                    MakePod::new("v1a").label("app", "web").label("version", "v1").node("a1").obj(),
                    MakePod::new("v1b").label("app", "web").label("version", "v1").node("a2").obj(),
                    MakePod::new("v2").label("app", "web").label("version", "v2").node("b1").obj(),
                ],
                MakePod::new("p").label("app", "web").label("version", "v2").spread(by_version),
                OK,
                vec![("a1", OK), ("a2", OK), ("b1", SKEW), ("c1", OK), ("none", LABEL)],
            ),
            (
                "hostname and zone together",
                vec![web("w1", "a1"), web("w2", "b1")],
                MakePod::new("p")
                    .label("app", "web")
                    .spread(hard(ZONE, 1, &[("app", "web")]))
                    .spread(hard(LABEL_HOSTNAME, 1, &[("app", "web")])),
                OK,
                vec![("a1", SKEW), ("a2", SKEW), ("b1", SKEW), ("c1", OK), ("none", LABEL)],
            ),
        ];
        for (name, pods, pod, want_pre, want) in cases {
            let env = Env::new(nodes(), pods);
            let (pre, got) = run_filter(&plugin(), &env, &pod.info());
            assert_eq!(pre, want_pre, "{name}: prefilter");
            assert_eq!(got, codes(&want), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_outside_the_snapshot_uses_its_value() {
        let env = Env::new(
            vec![zone_node("a", "za").obj(), zone_node("b", "zb").obj()],
            vec![web("w1", "a"), web("w2", "a")],
        );
        let cx = env.cx();
        let pl = plugin();
        let pod = MakePod::new("p")
            .label("app", "web")
            .spread(hard(ZONE, 1, &[("app", "web")]))
            .info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_success());
        let ghost_a = zone_node("ghost", "za").info();
        let ghost_b = zone_node("ghost", "zb").info();
        let ghost_new = zone_node("ghost", "zz").info();
        assert_eq!(pl.filter(&cx, &state, &pod, &ghost_a).code, SKEW);
        assert_eq!(pl.filter(&cx, &state, &pod, &ghost_b).code, OK);
        assert_eq!(pl.filter(&cx, &state, &pod, &ghost_new).code, OK);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_score_keeps_the_pre_filter_state() {
        let env = Env::new(vec![zone_node("a", "za").obj(), zone_node("b", "zb").obj()], vec![web("w1", "a")]);
        let cx = env.cx();
        let pl = plugin();
        let pod = MakePod::new("p")
            .label("app", "web")
            .spread(hard(ZONE, 1, &[("app", "web")]))
            .spread(soft(LABEL_HOSTNAME, 1, &[("app", "web")]))
            .info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_success());
        let nodes: Vec<&NodeInfo> = env.snapshot.nodes().iter().collect();
        assert!(pl.pre_score(&cx, &mut state, &pod, &nodes).is_success());
        assert_eq!(pl.filter(&cx, &state, &pod, env.node("a")).code, SKEW);
        assert!(pl.score(&cx, &state, &pod, env.node("a")).is_ok());
        let nominated = MakePod::new("n").label("app", "web").node("b").arc();
        assert!(pl.add_pod(&cx, &mut state, &pod, &nominated, env.node("b")).is_success());
        assert_eq!(pl.filter(&cx, &state, &pod, env.node("a")).code, OK);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn critical_paths() {
        let mut p = CriticalPaths::new();
        for (d, n) in [(1, 3), (2, 1), (3, 2)] {
            p.update(d, n);
        }
        assert_eq!(p.0[0], Path { domain: 2, num: 1 });
        assert_eq!(p.0[1], Path { domain: 3, num: 2 });
        // The minimum grows: the second path takes over.
        p.update(2, 5);
        assert_eq!(p.0[0], Path { domain: 3, num: 2 });
        // A domain outside the paths drops below the minimum.
        p.update(1, 0);
        assert_eq!((p.0[0], p.0[1]), (Path { domain: 1, num: 0 }, Path { domain: 3, num: 2 }));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn add_and_remove_pod() {
        let env = Env::new(
            vec![zone_node("a", "za").obj(), zone_node("b", "zb").obj()],
            vec![web("w1", "a"), web("w2", "a"), web("w3", "b")],
        );
        let cx = env.cx();
        let pl = plugin();
        let pod = MakePod::new("p")
            .label("app", "web")
            .spread(hard(ZONE, 1, &[("app", "web")]))
            .info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_success());
        let filter =
            |state: &CycleState| -> Vec<Code> { ["a", "b"].iter().map(|n| pl.filter(&cx, state, &pod, env.node(n)).code).collect() };
        assert_eq!(filter(&state), vec![SKEW, OK]);

        // Preemption's what-if: removing a web pod from za balances the zones.
        let victim = Arc::clone(&env.node("a").pods[0]);
        let mut what_if = state.clone();
        assert!(pl.remove_pod(&cx, &mut what_if, &pod, &victim, env.node("a")).is_success());
        assert_eq!(filter(&what_if), vec![OK, OK]);
        assert!(pl.remove_pod(&cx, &mut what_if, &pod, &victim, env.node("a")).is_success());
        assert_eq!(filter(&what_if), vec![OK, SKEW]);
        // The original state is untouched.
        assert_eq!(filter(&state), vec![SKEW, OK]);

        // A nominated pod added to zb.
        let nominated = MakePod::new("n").label("app", "web").node("b").arc();
        assert!(pl.add_pod(&cx, &mut state, &pod, &nominated, env.node("b")).is_success());
        assert_eq!(filter(&state), vec![OK, OK]);
        // Pods of another namespace or not matching are ignored.
        let other_ns = MakePod::new("o").namespace("x").label("app", "web").node("b").arc();
        let other = MakePod::new("o").label("app", "db").node("b").arc();
        assert!(pl.add_pod(&cx, &mut state, &pod, &other_ns, env.node("b")).is_success());
        assert!(pl.add_pod(&cx, &mut state, &pod, &other, env.node("b")).is_success());
        assert_eq!(filter(&state), vec![OK, OK]);
    }

    /// PreScore, Score and NormalizeScore: raw and normalized scores by node name, or None when
    /// PreScore skipped.
    fn run_score(pl: &PodTopologySpread, env: &Env, pod: &PodInfo, feasible: &[&str]) -> Option<(Vec<i64>, Vec<i64>)> {
        let cx = env.cx();
        let mut state = CycleState::new();
        let nodes: Vec<&NodeInfo> = feasible.iter().map(|n| env.node(n)).collect();
        let s = pl.pre_score(&cx, &mut state, pod, &nodes);
        if s.is_skip() {
            return None;
        }
        assert!(s.is_success(), "{s:?}");
        let mut scores: Vec<NodeScore> = nodes
            .iter()
            .map(|n| NodeScore {
                node: env.snapshot.position(n.name()).unwrap(),
                score: pl.score(&cx, &state, pod, n).unwrap(),
            })
            .collect();
        let by_name = |scores: &[NodeScore]| -> Vec<i64> {
            let m: BTreeMap<&str, i64> = scores.iter().map(|s| (env.snapshot.nodes()[s.node].name(), s.score)).collect();
            m.into_values().collect()
        };
        let raw = by_name(&scores);
        assert!(pl.normalize_score(&cx, &state, pod, &mut scores).is_success());
        Some((raw, by_name(&scores)))
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score_table() {
        let nodes = || {
            vec![
                zone_node("a", "za").obj(),
                zone_node("b", "zb").obj(),
                // The taint only matters under nodeTaintsPolicy Honor.
                zone_node("c", "zc").taint("k", "", "NoSchedule").obj(),
                MakeNode::new("x").obj(),
            ]
        };
        let cache = |name: &str, node: &str| MakePod::new(name).label("app", "cache").node(node).obj();
        let list_args = PodTopologySpreadArgs {
            default_constraints: vec![soft(ZONE, 1, &[])],
            defaulting_type: DefaultingType::List,
        };
        let mut honor = soft(ZONE, 1, &[("app", "cache")]);
        honor.node_taints_policy = Some("Honor".into());
        type Case = (
            &'static str,
            PodTopologySpreadArgs,
            Vec<api::Pod>,
            MakePod,
            Vec<&'static str>,
            Option<(Vec<i64>, Vec<i64>)>,
        );
        let cases: Vec<Case> = vec![
            (
                "zone spreading: za=2 zb=0 zc=1, weight ln(5)",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a"), cache("c2", "a"), cache("c3", "c")],
                MakePod::new("p").label("app", "cache").spread(soft(ZONE, 1, &[("app", "cache")])),
                vec!["a", "b", "c"],
                Some((vec![3, 0, 2], vec![0, 100, 33])),
            ),
            (
                "a node without the key is ignored and scores 0; it also counts for nothing",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a"), cache("c2", "x"), cache("c3", "c")],
                MakePod::new("p").label("app", "cache").spread(soft(ZONE, 1, &[("app", "cache")])),
                vec!["a", "b", "c", "x"],
                // weight ln(3+2); a and c hold 1 each: round(1.609) = 2.
                Some((vec![2, 0, 2, 0], vec![0, 100, 0, 0])),
            ),
            (
                "maxSkew adds maxSkew-1 to every counted node",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a")],
                MakePod::new("p").label("app", "cache").spread(soft(ZONE, 3, &[("app", "cache")])),
                vec!["a", "b"],
                // weight ln(2+2) = 1.386: a = 1.386 + 2 = 3.39 -> 3; b = 2. (3+2-s)/3.
                Some((vec![3, 2], vec![66, 100])),
            ),
            (
                "domains of infeasible nodes are not counted",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a"), cache("c2", "a")],
                MakePod::new("p").label("app", "cache").spread(soft(ZONE, 1, &[("app", "cache")])),
                vec!["b", "c"],
                Some((vec![0, 0], vec![100, 100])),
            ),
            (
                "hostname: counted per node, weight from the number of scored nodes",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a"), cache("c2", "a"), cache("c3", "b")],
                MakePod::new("p")
                    .label("app", "cache")
                    .spread(soft(LABEL_HOSTNAME, 1, &[("app", "cache")])),
                vec!["a", "b", "c", "x"],
                // weight ln(4+2) = 1.79: a = 3.58 -> 4, b = 1.79 -> 2.
                Some((vec![4, 2, 0, 0], vec![0, 50, 100, 100])),
            ),
            (
                "nodeTaintsPolicy Honor leaves tainted nodes' pods out of the domain counts",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a"), cache("c2", "c")],
                MakePod::new("p").label("app", "cache").spread(honor),
                vec!["a", "b", "c"],
                Some((vec![2, 0, 0], vec![0, 100, 100])),
            ),
            (
                "hard constraints only: skip",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a")],
                MakePod::new("p").label("app", "cache").spread(hard(ZONE, 1, &[("app", "cache")])),
                vec!["a", "b"],
                None,
            ),
            (
                "system defaults need a selecting workload: skip",
                PodTopologySpreadArgs::default(),
                vec![cache("c1", "a")],
                MakePod::new("p").label("app", "cache"),
                vec!["a", "b"],
                None,
            ),
            (
                "list defaults need a selecting workload: skip",
                list_args,
                vec![cache("c1", "a")],
                MakePod::new("p").label("app", "cache"),
                vec!["a", "b"],
                None,
            ),
        ];
        for (name, args, pods, pod, feasible, want) in cases {
            let env = Env::new(nodes(), pods);
            let got = run_score(&PodTopologySpread::new(&args), &env, &pod.info(), &feasible);
            assert_eq!(got, want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn system_defaults_without_zone_labels_still_spread_by_hostname() {
        // With a selecting workload, system defaults do not require every key: a node without
        // a zone keeps its hostname score.
        let pl = plugin();
        let pod = MakePod::new("p").label("app", "web").info();
        let sel = Selector::from_map(&labels(&[("app", "web")]));
        let soft = pl.default_constraints_with(sel.clone(), &pod, SCHEDULE_ANYWAY).unwrap();
        assert_eq!(soft.len(), 2);
        assert!(soft.iter().all(|c| c.selector == sel));
        assert_eq!((soft[0].topology_key.as_str(), soft[0].max_skew), (LABEL_HOSTNAME, 3));
        assert_eq!((soft[1].topology_key.as_str(), soft[1].max_skew), (ZONE, 5));
        assert!(pl.default_constraints_with(sel.clone(), &pod, DO_NOT_SCHEDULE).unwrap().is_empty());
        assert!(pl
            .default_constraints_with(Selector::everything(), &pod, SCHEDULE_ANYWAY)
            .unwrap()
            .is_empty());

        let list = PodTopologySpread::new(&PodTopologySpreadArgs {
            default_constraints: vec![tsc(ZONE, 1, DO_NOT_SCHEDULE, None)],
            defaulting_type: DefaultingType::List,
        });
        let hard = list.default_constraints_with(sel.clone(), &pod, DO_NOT_SCHEDULE).unwrap();
        assert_eq!(hard.len(), 1);
        assert_eq!(hard[0].selector, sel);
        assert!(list.default_constraints_with(sel, &pod, SCHEDULE_ANYWAY).unwrap().is_empty());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn default_selector_composition() {
        let req = |k: &str, op: Op, v: &[&str]| Requirement {
            key: k.into(),
            op,
            values: v.iter().map(|s| s.to_string()).collect(),
        };
        assert!(compose_default_selector(WorkloadSelectors::default()).is_everything());
        let svc = WorkloadSelectors {
            services: vec![labels(&[("app", "web")]), labels(&[("tier", "fe")])],
            owner: None,
        };
        let s = compose_default_selector(svc.clone());
        assert!(s.matches(&labels(&[("app", "web"), ("tier", "fe")])));
        assert!(!s.matches(&labels(&[("app", "web")])));
        let rs = WorkloadSelectors {
            owner: Some(OwnerSelector::ReplicaSet(Selector::Reqs(vec![req(
                "pod-template-hash",
                Op::Exists,
                &[],
            )]))),
            ..svc
        };
        let s = compose_default_selector(rs);
        assert!(s.matches(&labels(&[("app", "web"), ("tier", "fe"), ("pod-template-hash", "x")])));
        assert!(!s.matches(&labels(&[("app", "web"), ("tier", "fe")])));
        let rc = WorkloadSelectors {
            services: vec![],
            owner: Some(OwnerSelector::ReplicationController(labels(&[("rc", "1")]))),
        };
        assert!(compose_default_selector(rc).matches(&labels(&[("rc", "1")])));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn workload_selectors_from_the_cluster() {
        use crate::api::{ObjectMeta, OwnerReference};
        let meta = |ns: &str, name: &str| ObjectMeta {
            name: name.into(),
            namespace: Some(ns.into()),
            ..Default::default()
        };
        let mut env = Env::new(vec![], vec![]);
        let w = &mut env.cluster.workloads;
        let svc = |ns: &str, name: &str, sel: Option<&[(&str, &str)]>| api::Service {
            metadata: meta(ns, name),
            spec: api::ServiceSpec {
                selector: sel.map(labels),
                ..Default::default()
            },
            ..Default::default()
        };
        w.services = vec![
            svc("default", "web", Some(&[("app", "web")])),
            svc("default", "fe", Some(&[("tier", "fe")])),
            svc("default", "other", Some(&[("app", "db")])),
            svc("default", "bare", None),
            svc("team", "web", Some(&[("app", "web")])),
        ];
        w.replica_sets = vec![api::ReplicaSet {
            metadata: meta("default", "rs"),
            spec: api::ReplicaSetSpec {
                selector: Some(LabelSelector {
                    match_labels: labels(&[("app", "web"), ("pod-template-hash", "h")]),
                    ..Default::default()
                }),
                ..Default::default()
            },
            ..Default::default()
        }];
        w.replication_controllers = vec![api::ReplicationController {
            metadata: meta("default", "rc"),
            spec: api::ReplicationControllerSpec {
                selector: labels(&[("rc", "1")]),
                ..Default::default()
            },
            ..Default::default()
        }];
        let owned = |av: &str, kind: &str, name: &str, controller: Option<bool>| {
            let mut p = MakePod::new("p").label("app", "web").label("tier", "fe").obj();
            p.metadata.owner_references = vec![OwnerReference {
                api_version: av.into(),
                kind: kind.into(),
                name: name.into(),
                uid: "any".into(),
                controller,
                block_owner_deletion: None,
            }];
            PodInfo::new(p, 0)
        };
        let plain = MakePod::new("p").label("app", "web").label("tier", "fe").info();
        // (case, pod, Service selectors, owner kind)
        let cases: Vec<(&str, PodInfo, usize, Option<&str>)> = vec![
            ("matching Services only, in the pod's namespace", plain, 2, None),
            (
                "a ReplicaSet owner",
                owned("apps/v1", "ReplicaSet", "rs", Some(true)),
                2,
                Some("rs"),
            ),
            (
                "a ReplicationController owner",
                owned("v1", "ReplicationController", "rc", Some(true)),
                2,
                Some("rc"),
            ),
            ("not the controller", owned("apps/v1", "ReplicaSet", "rs", Some(false)), 2, None),
            ("controller unset", owned("apps/v1", "ReplicaSet", "rs", None), 2, None),
            ("a missing owner", owned("apps/v1", "ReplicaSet", "nope", Some(true)), 2, None),
            (
                "another group version",
                owned("extensions/v1beta1", "ReplicaSet", "rs", Some(true)),
                2,
                None,
            ),
            ("a Job owner", owned("batch/v1", "Job", "rs", Some(true)), 2, None),
            (
                "another namespace",
                PodInfo::new(MakePod::new("p").namespace("team").label("app", "web").obj(), 0),
                1,
                None,
            ),
        ];
        for (name, pod, services, owner) in cases {
            let got = workload_selectors(&env.cx(), &pod);
            assert_eq!(got.services.len(), services, "{name}");
            let kind = match &got.owner {
                None => None,
                Some(OwnerSelector::ReplicaSet(_)) => Some("rs"),
                Some(OwnerSelector::ReplicationController(_)) => Some("rc"),
                Some(OwnerSelector::StatefulSet(_)) => Some("ss"),
            };
            assert_eq!(kind, owner, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn match_label_keys_merge() {
        let mut c = hard(ZONE, 1, &[("app", "web")]);
        c.match_label_keys = vec!["version".into(), "absent".into()];
        let mut no_selector = c.clone();
        no_selector.label_selector = None;
        let mut pod = MakePod::new("p")
            .label("app", "web")
            .label("version", "v2")
            .spread(c.clone())
            .spread(no_selector)
            .obj();
        merge_match_label_keys(&mut pod);
        let cs = &pod.spec.topology_spread_constraints;
        assert_eq!(
            cs[0].label_selector.as_ref().unwrap().match_expressions,
            vec![LabelSelectorRequirement {
                key: "version".into(),
                operator: "In".into(),
                values: vec!["v2".into()],
            }]
        );
        assert!(cs[1].label_selector.is_none());

        // The scheduler's own merge gives the same selection whether or not the apiserver merged.
        let before = compile_constraints(&[c], &labels(&[("app", "web"), ("version", "v2")]), DO_NOT_SCHEDULE).unwrap();
        let after = compile_constraints(&cs[..1], &pod.metadata.labels, DO_NOT_SCHEDULE).unwrap();
        for l in [
            labels(&[("app", "web"), ("version", "v2")]),
            labels(&[("app", "web"), ("version", "v1")]),
            labels(&[("app", "web")]),
        ] {
            assert_eq!(before[0].selector.matches(&l), after[0].selector.matches(&l), "{l:?}");
        }
        assert!(!after[0].selector.matches(&labels(&[("app", "web"), ("version", "v1")])));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_hints() {
        let env = Env::new(vec![], vec![]);
        let cx = env.cx();
        let pl = plugin();
        let mut honor = hard(ZONE, 1, &[("app", "web")]);
        honor.node_taints_policy = Some("Honor".into());
        let pod = MakePod::new("p").label("app", "web").spread(honor).info();
        let bound = |ns: &str, l: &str| MakePod::new("o").namespace(ns).label("app", l).node("n").info();
        let tolerating = MakePod::new("p")
            .label("app", "web")
            .toleration("k", "Exists", "", "NoSchedule")
            .info();
        let cases: Vec<(&str, Option<PodInfo>, Option<PodInfo>, QueueingHint)> = vec![
            ("matching pod bound", None, Some(bound("default", "web")), QueueingHint::Queue),
            ("unrelated pod bound", None, Some(bound("default", "db")), QueueingHint::Skip),
            ("other namespace", None, Some(bound("x", "web")), QueueingHint::Skip),
            (
                "unscheduled pod",
                None,
                Some(MakePod::new("o").label("app", "web").info()),
                QueueingHint::Skip,
            ),
            ("matching pod deleted", Some(bound("default", "web")), None, QueueingHint::Queue),
            ("unrelated pod deleted", Some(bound("default", "db")), None, QueueingHint::Skip),
            (
                "label change toggles the match",
                Some(bound("default", "db")),
                Some(bound("default", "web")),
                QueueingHint::Queue,
            ),
            (
                "label change keeps the match",
                Some(bound("default", "a")),
                Some(bound("default", "b")),
                QueueingHint::Skip,
            ),
            (
                "no label change",
                Some(bound("default", "web")),
                Some(bound("default", "web")),
                QueueingHint::Skip,
            ),
            ("the pod got a toleration", Some(pod.clone()), Some(tolerating), QueueingHint::Queue),
        ];
        for (name, old, new, want) in cases {
            let obj = EventObject::Pod {
                old: old.map(Arc::new),
                new: new.map(Arc::new),
            };
            let got = pl.queueing_hint(&cx, &pod, ClusterEvent::new(EventResource::Pod, ActionType::UPDATE), &obj);
            assert_eq!(got, Ok(want), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_hints() {
        let env = Env::new(vec![], vec![]);
        let cx = env.cx();
        let pl = plugin();
        let pod = MakePod::new("p")
            .label("app", "web")
            .spread(hard(ZONE, 1, &[("app", "web")]))
            .info();
        let plain = MakeNode::new("n").obj();
        let za = zone_node("n", "za").obj();
        let zb = zone_node("n", "zb").obj();
        let za_tainted = zone_node("n", "za").taint("k", "", "NoSchedule").obj();
        let za_other_label = zone_node("n", "za").label("x", "y").obj();
        let cases: Vec<(&str, Option<&Node>, Option<&Node>, QueueingHint)> = vec![
            ("added with the key", None, Some(&za), QueueingHint::Queue),
            ("added without the key", None, Some(&plain), QueueingHint::Skip),
            ("deleted with the key", Some(&za), None, QueueingHint::Queue),
            ("deleted without the key", Some(&plain), None, QueueingHint::Skip),
            ("key added", Some(&plain), Some(&za), QueueingHint::Queue),
            ("value changed", Some(&za), Some(&zb), QueueingHint::Queue),
            ("taint added", Some(&za), Some(&za_tainted), QueueingHint::Queue),
            ("unrelated label", Some(&za), Some(&za_other_label), QueueingHint::Skip),
        ];
        for (name, old, new, want) in cases {
            let obj = EventObject::Node {
                old: old.map(|n| Arc::new(n.clone())),
                new: new.map(|n| Arc::new(n.clone())),
            };
            let got = pl.queueing_hint(&cx, &pod, ClusterEvent::new(EventResource::Node, ActionType::UPDATE), &obj);
            assert_eq!(got, Ok(want), "{name}");
        }
    }
}
