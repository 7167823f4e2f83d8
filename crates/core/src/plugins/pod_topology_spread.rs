//! PodTopologySpread: hard (DoNotSchedule) constraints filter nodes by skew; soft
//! (ScheduleAnyway) constraints score nodes by how many matching pods their domains hold.
//! Pods without constraints of their own get the profile's default constraints, but only when
//! some Service / ReplicationController / ReplicaSet / StatefulSet selects them.

use crate::api::{self, Labels, Node, TopologySpreadConstraint};
use crate::config::{DefaultingType, PodTopologySpreadArgs};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::{Ctx, CycleState, NodeInfo, NodeScore, Plugin, PodInfo, PreFilterResult, Status, MAX_NODE_SCORE};
use crate::labels::Selector;
use crate::plugins::helper::{find_untolerated_taint, RequiredNodeAffinity};
use crate::plugins::PluginName;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub const ERR_REASON_CONSTRAINTS_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints";
pub const ERR_REASON_NODE_LABEL_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints (missing required label)";

pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";
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
            let values: Labels = c
                .match_label_keys
                .iter()
                .filter_map(|k| pod_labels.get(k).map(|v| (k.clone(), v.clone())))
                .collect();
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

/// Hook for the workload objects selecting `pod`. The object model has no Services,
/// ReplicationControllers, ReplicaSets or StatefulSets yet, so nothing selects any pod and
/// default constraints never apply.
pub fn workload_selectors(_cx: &Ctx, _pod: &PodInfo) -> WorkloadSelectors {
    WorkloadSelectors::default()
}

/// The selector default constraints use for a pod (upstream helper.DefaultSelector): the union
/// of the selecting Services' selectors, plus the owning controller's.
fn default_selector(cx: &Ctx, pod: &PodInfo) -> Selector {
    let w = workload_selectors(cx, pod);
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

/// The domain of `node` for constraint `i` (by its snapshot position, or failing that by any
/// snapshot node with the same value).
fn domain_of(cx: &Ctx, d: &DomainCounts, key: &str, node: &NodeInfo) -> u32 {
    if let Some(pos) = cx.snapshot.position(node.name()) {
        if let Some(&id) = d.node_domain.get(pos) {
            return id;
        }
    }
    let Some(v) = node.labels().get(key) else { return NO_DOMAIN };
    cx.snapshot
        .nodes
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
        let selector = default_selector(cx, pod);
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
        let nodes = &cx.snapshot.nodes;
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
        for (i, c) in s.constraints.iter().enumerate() {
            if !c.selector.matches(other.labels()) || !c.includes_node(pod, &node.node, &s.node_affinity) {
                continue;
            }
            let id = domain_of(cx, &s.domains[i], &c.topology_key, node);
            if id != NO_DOMAIN {
                s.domains[i].add(id, delta);
            }
        }
    }

    /// Queueing hint for a node added, updated or deleted (upstream isSchedulableAfterNodeChange).
    /// Ready for node events; the engine's EventObject carries no nodes yet.
    pub fn node_change_hint(&self, cx: &Ctx, pod: &PodInfo, old: Option<&Node>, new: Option<&Node>) -> Result<QueueingHint, String> {
        let constraints = self.hard_constraints(cx, pod)?;
        let old_matching = old.is_some_and(|n| node_has_all_keys(&n.metadata.labels, &constraints));
        let new_matching = new.is_some_and(|n| node_has_all_keys(&n.metadata.labels, &constraints));
        let hint = match (old, new) {
            (Some(o), Some(n)) => {
                if old_matching != new_matching {
                    QueueingHint::Queue
                } else if new_matching
                    && (constraints
                        .iter()
                        .any(|c| o.metadata.labels.get(&c.topology_key) != n.metadata.labels.get(&c.topology_key))
                        || o.spec.taints != n.spec.taints)
                {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                }
            }
            (None, Some(_)) => {
                if new_matching {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                }
            }
            (Some(_), None) => {
                if old_matching {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                }
            }
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
                    QueueingHint::Queue
                } else if n.labels() == o.labels() {
                    QueueingHint::Skip
                } else if constraints
                    .iter()
                    .any(|c| c.selector.matches(o.labels()) != c.selector.matches(n.labels()))
                {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                }
            }
            (None, Some(n)) => {
                if any_matches(n.labels()) {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                }
            }
            (Some(o), None) => {
                if any_matches(o.labels()) {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                }
            }
            (None, None) => QueueingHint::Queue,
        };
        Ok(hint)
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
            ClusterEventWithHint {
                event: ClusterEvent::new(
                    EventResource::Pod,
                    ActionType::ADD
                        .union(ActionType::UPDATE_POD_LABEL)
                        .union(ActionType::UPDATE_POD_TOLERATION)
                        .union(ActionType::DELETE),
                ),
                has_hint: true,
            },
            ClusterEventWithHint {
                event: ClusterEvent::new(
                    EventResource::Node,
                    ActionType::ADD
                        .union(ActionType::DELETE)
                        .union(ActionType::UPDATE_NODE_LABEL)
                        .union(ActionType::UPDATE_NODE_TAINT),
                ),
                has_hint: true,
            },
        ]
    }

    fn queueing_hint(&self, cx: &Ctx, pod: &PodInfo, _event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::Pod { old, new } => self.pod_change_hint(cx, pod, old.as_deref(), new.as_deref()),
            // Node events carry no node objects in this engine yet; see `node_change_hint`.
            _ => Ok(QueueingHint::Queue),
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
        state.write(PluginName::PodTopologySpread, s);
        (None, Status::success())
    }

    fn has_pre_filter_extensions(&self) -> bool {
        true
    }

    fn add_pod(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_add: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        let Some(s) = state.read_mut::<PreFilterState>(PluginName::PodTopologySpread) else {
            return missing_pre_filter_state();
        };
        Self::update_with_pod(cx, s, to_add, pod, node, 1);
        Status::success()
    }

    fn remove_pod(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_remove: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        let Some(s) = state.read_mut::<PreFilterState>(PluginName::PodTopologySpread) else {
            return missing_pre_filter_state();
        };
        Self::update_with_pod(cx, s, to_remove, pod, node, -1);
        Status::success()
    }

    fn filter(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.read::<PreFilterState>(PluginName::PodTopologySpread) else {
            return missing_pre_filter_state();
        };
        let labels = node.labels();
        for (i, c) in s.constraints.iter().enumerate() {
            if !labels.contains_key(&c.topology_key) {
                return Status::unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
            }
            let d = &s.domains[i];
            let min_match = d.min_match(c.min_domains) as i64;
            let self_match = c.selector.matches(pod.labels()) as i64;
            let id = domain_of(cx, d, &c.topology_key, node);
            let match_num = if id == NO_DOMAIN { 0 } else { d.counts[id as usize] as i64 };
            if match_num + self_match - min_match > c.max_skew as i64 {
                return Status::unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
            }
        }
        Status::success()
    }

    fn pre_score(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, nodes: &[&NodeInfo]) -> Status {
        let all_nodes = &cx.snapshot.nodes;
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
        state.write(
            PluginName::PodTopologySpread,
            PreScoreState {
                constraints,
                ignored,
                counts,
                weights,
            },
        );
        Status::success()
    }

    fn score(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let Some(s) = state.read::<PreScoreState>(PluginName::PodTopologySpread) else {
            return Err(missing_pre_score_state());
        };
        if !s.ignored.is_empty() && s.ignored.contains(node.name()) {
            return Ok(0);
        }
        let labels = node.labels();
        let mut score = 0.0;
        for (i, c) in s.constraints.iter().enumerate() {
            let Some(v) = labels.get(&c.topology_key) else { continue };
            let cnt = if c.topology_key == LABEL_HOSTNAME {
                count_matching_pods(&node.pods, &c.selector, pod.namespace())
            } else {
                s.counts[i].get(v.as_str()).copied().unwrap_or(0)
            };
            score += score_for_count(cnt, c.max_skew, s.weights[i]);
        }
        Ok(score.round() as i64)
    }

    fn has_normalize_score(&self) -> bool {
        true
    }

    fn normalize_score(&self, cx: &Ctx, state: &CycleState, _pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        let Some(s) = state.read::<PreScoreState>(PluginName::PodTopologySpread) else {
            return missing_pre_score_state();
        };
        const INVALID_SCORE: i64 = -1;
        let mut min = i64::MAX;
        let mut max = 0;
        for ns in scores.iter_mut() {
            if !s.ignored.is_empty() && s.ignored.contains(cx.snapshot.nodes[ns.node].name()) {
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
