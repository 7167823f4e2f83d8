//! The plugin interface: one trait with a default (no-op) method per extension point. Which
//! extension points a plugin really implements is declared once, in its
//! descriptor (`registry::Descriptor::points`), and drives multiPoint expansion exactly as upstream's interface checks do.

use super::{CycleState, NodeInfo, PodInfo, Status};
use crate::cluster::{Cluster, Nominator, Snapshot};
use crate::framework::events::{ClusterEvent, ClusterEventWithHint, EventObject, QueueingHint};
use crate::framework::runtime::Framework;
use crate::rng::Rng;
use crate::vocabulary::{PluginName, PluginSet};
use serde::Serialize;
use std::collections::BTreeSet;
use std::sync::Arc;

pub const MAX_NODE_SCORE: i64 = 100;
pub const MIN_NODE_SCORE: i64 = 0;

/// What a plugin may read during a scheduling cycle: the node snapshot, the other API objects,
/// and the pods nominated to nodes by earlier preemptions.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub snapshot: &'a Snapshot,
    pub cluster: &'a Cluster,
    pub nominator: &'a Nominator,
}

/// PreFilter may narrow the nodes to evaluate. `None` means all nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreFilterResult {
    pub node_names: Option<BTreeSet<String>>,
}

impl PreFilterResult {
    pub fn all_nodes(&self) -> bool {
        self.node_names.is_none()
    }
    pub fn nodes(names: impl IntoIterator<Item = String>) -> PreFilterResult {
        PreFilterResult {
            node_names: Some(names.into_iter().collect()),
        }
    }
    /// Intersection of two results (None = everything).
    pub fn merge(self, other: Option<PreFilterResult>) -> PreFilterResult {
        let Some(o) = other else { return self };
        match (self.node_names, o.node_names) {
            (None, b) => PreFilterResult { node_names: b },
            (a, None) => PreFilterResult { node_names: a },
            (Some(a), Some(b)) => PreFilterResult {
                node_names: Some(crate::sort::set_of(a.intersection(&b).cloned())),
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum NominatingMode {
    Noop,
    Override,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NominatingInfo {
    pub mode: NominatingMode,
    pub nominated_node_name: String,
}

/// One node preemption could use and the pods it would evict there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreemptionCandidate {
    pub node: String,
    /// Victim pod keys (`namespace/name`), most important first.
    pub victims: Vec<String>,
    pub num_pdb_violations: i64,
}

/// What preemption considered and decided, for the trace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreemptionDetail {
    pub candidates: Vec<PreemptionCandidate>,
    pub chosen: Option<String>,
    /// The rule that picked `chosen` among the candidates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<PickRule>,
}

/// Which of DefaultPreemption's rules picked the node to preempt on. The rules apply in this
/// order, each keeping the best candidates for the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PickRule {
    /// It was the only candidate.
    OnlyCandidate,
    FewestPdbViolations,
    /// Its most important victim has the lowest priority.
    LowestHighestPriority,
    SmallestPrioritySum,
    FewestVictims,
    /// Its most important victims started last.
    LatestStartTime,
    /// Every rule tied: the first candidate in search order.
    FirstOfTie,
}

impl PickRule {
    /// The rules that compare candidates, in the order they apply.
    pub const CRITERIA: [PickRule; 5] = [
        PickRule::FewestPdbViolations,
        PickRule::LowestHighestPriority,
        PickRule::SmallestPrioritySum,
        PickRule::FewestVictims,
        PickRule::LatestStartTime,
    ];

    /// Why the chosen candidate won, in a sentence.
    pub fn sentence(self) -> &'static str {
        match self {
            PickRule::OnlyCandidate => "It was the only node where preemption could help.",
            PickRule::FewestPdbViolations => "Rule 1 of 5 decided: the fewest PodDisruptionBudget violations.",
            PickRule::LowestHighestPriority => {
                "Rule 2 of 5 decided (PDB violations tied): its most important victim has the lowest priority."
            }
            PickRule::SmallestPrioritySum => {
                "Rule 3 of 5 decided (PDB violations and top victim priority tied): the smallest sum of victim priorities."
            }
            PickRule::FewestVictims => "Rule 4 of 5 decided (rules 1–3 tied): the fewest victims.",
            PickRule::LatestStartTime => {
                "Rule 5 of 5 decided (rules 1–4 tied): its most important victims started most recently."
            }
            PickRule::FirstOfTie => {
                "All five rules tied (PDB violations, top victim priority, priority sum, victim count, start time): the first candidate found wins."
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostFilterResult {
    pub nominating: Option<NominatingInfo>,
    /// Pods to delete (keys) — the victims of a successful preemption.
    pub victims: Vec<String>,
    pub detail: Option<PreemptionDetail>,
}

impl PostFilterResult {
    pub fn is_noop(&self) -> bool {
        self.nominating.as_ref().is_none_or(|n| n.mode == NominatingMode::Noop)
    }
}

/// A node's score from one plugin (the node is an index into the snapshot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeScore {
    pub node: usize,
    pub score: i64,
}

/// Per-node statuses after filtering, plus the status of every node not given one
/// (upstream NodeToStatus).
///
/// A cycle that finds no room rejects every node, thousands of them: the statuses are kept in
/// one vector in the order they are given (the filter visits nodes from a rotating start) and
/// put in node order once, by `settle`, rather than inserted one by one into a sorted map.
/// Every read is in node order, with the last status given for a node, settled or not; the
/// producers settle before reading, so that reads are fast.
#[derive(Clone, Debug)]
pub struct NodeToStatus {
    /// (node index, status) for nodes explicitly rejected.
    rejected: Vec<(usize, Status)>,
    /// `rejected` is in node order, each node once.
    settled: bool,
    /// Status of every node not in the map (nodes not evaluated or narrowed away by PreFilter).
    pub absent: Status,
}

impl Default for NodeToStatus {
    fn default() -> Self {
        NodeToStatus {
            rejected: Vec::new(),
            settled: true,
            absent: Status::code_only(super::Code::UnschedulableAndUnresolvable),
        }
    }
}

/// `(node, status)` pairs in node order, the last given for a node kept (what `settle` does).
fn in_node_order<S>(mut given: Vec<(usize, S)>) -> Vec<(usize, S)> {
    // Stable: a node's statuses stay in the order given, and the last is kept.
    crate::sort::sort_by_key(&mut given, |e| e.0);
    let mut kept: Vec<(usize, S)> = Vec::with_capacity(given.len());
    for e in given {
        match kept.last_mut() {
            Some(last) if last.0 == e.0 => *last = e,
            _ => kept.push(e),
        }
    }
    kept
}

impl PartialEq for NodeToStatus {
    fn eq(&self, other: &NodeToStatus) -> bool {
        self.absent == other.absent && self.iter().eq(other.iter())
    }
}

impl Eq for NodeToStatus {}

impl NodeToStatus {
    /// Gives `node` this status (replacing one it had).
    pub fn insert(&mut self, node: usize, st: Status) {
        match self.rejected.last_mut() {
            Some(last) if last.0 == node => last.1 = st,
            Some(last) if last.0 > node => {
                self.settled = false;
                self.rejected.push((node, st));
            }
            _ => self.rejected.push((node, st)),
        }
    }

    /// Puts the statuses in node order, keeping the last one given for each node.
    ///
    /// The filter visits nodes from a rotating start, so the usual unsettled list is two
    /// ascending runs, the second wholly below the first (`[5, 7, 9, 0, 2]`): rotating it puts
    /// it in order without sorting or allocating. Anything else is sorted.
    pub fn settle(&mut self) {
        if self.settled {
            return;
        }
        let r = &self.rejected;
        let split = r.windows(2).position(|w| w[1].0 <= w[0].0).map_or(r.len(), |k| k + 1);
        let (first, second) = r.split_at(split);
        let wrapped = !second.is_empty()
            && second.windows(2).all(|w| w[0].0 < w[1].0)
            && first.first().zip(second.last()).is_some_and(|(f, l)| l.0 < f.0);
        if wrapped {
            self.rejected.rotate_left(split);
        } else {
            self.rejected = in_node_order(std::mem::take(&mut self.rejected));
        }
        self.settled = true;
    }

    /// The statuses not yet settled, as `settle` would order them.
    fn settled_view(&self) -> Vec<(usize, &Status)> {
        in_node_order(self.rejected.iter().map(|(i, s)| (*i, s)).collect())
    }

    pub fn get(&self, node: usize) -> &Status {
        let found = if self.settled {
            self.rejected.binary_search_by_key(&node, |e| e.0).ok().map(|k| &self.rejected[k].1)
        } else {
            self.rejected.iter().rev().find(|e| e.0 == node).map(|e| &e.1)
        };
        found.unwrap_or(&self.absent)
    }

    /// The explicitly rejected nodes and their statuses, in node order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Status)> + '_ {
        let direct = self.settled.then(|| self.rejected.iter().map(|(i, s)| (*i, s)));
        let view = (!self.settled).then(|| self.settled_view());
        direct.into_iter().flatten().chain(view.into_iter().flatten())
    }

    /// The explicitly rejected nodes' statuses, in node order.
    pub fn values(&self) -> impl Iterator<Item = &Status> + '_ {
        self.iter().map(|(_, s)| s)
    }

    /// How many nodes were explicitly rejected.
    pub fn len(&self) -> usize {
        if self.settled {
            self.rejected.len()
        } else {
            self.settled_view().len()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.rejected.is_empty()
    }
}

/// A pod in the scheduling queue.
#[derive(Clone, Debug)]
pub struct QueuedPodInfo {
    /// Set through `new` and `set_pod`, which keep `priority` with it.
    pub pod: Arc<PodInfo>,
    /// The pod's priority, held here so that QueueSort compares queue entries without
    /// following `pod` into each PodInfo (a pop from a queue of 10 000 pods makes some 26
    /// comparisons, and the PodInfos are spread over the heap, out of cache).
    pub(crate) priority: i32,
    /// When the pod was added to the queue or last came back from a failed attempt (logical ns).
    pub timestamp: i64,
    pub attempts: u32,
    pub initial_attempt_timestamp: Option<i64>,
    pub unschedulable_count: u32,
    pub consecutive_errors: u32,
    pub unschedulable_plugins: PluginSet,
    pub pending_plugins: PluginSet,
    pub gating_plugin: Option<PluginName>,
    pub gated: bool,
    /// Backoff expiry (logical ns, truncated to the ordering window) while the pod waits in a
    /// backoff queue; 0 otherwise.
    pub backoff_expiration: i64,
}

impl QueuedPodInfo {
    pub fn new(pod: Arc<PodInfo>, now: i64) -> QueuedPodInfo {
        QueuedPodInfo {
            priority: pod.priority,
            pod,
            timestamp: now,
            attempts: 0,
            initial_attempt_timestamp: None,
            unschedulable_count: 0,
            consecutive_errors: 0,
            unschedulable_plugins: PluginSet::default(),
            pending_plugins: PluginSet::default(),
            gating_plugin: None,
            gated: false,
            backoff_expiration: 0,
        }
    }
    /// Replaces the pod (an update while it waits), keeping the sort key with it.
    pub fn set_pod(&mut self, pod: Arc<PodInfo>) {
        self.priority = pod.priority;
        self.pod = pod;
    }
}

/// A scheduler plugin. Every method has a neutral default; a plugin overrides the extension
/// points it implements and lists them in its descriptor's `points`.
#[allow(unused_variables)]
pub trait Plugin {
    fn name(&self) -> PluginName;

    // --- queueing ------------------------------------------------------------------------
    fn pre_enqueue(&self, cx: &Ctx, pod: &PodInfo) -> Status {
        Status::success()
    }
    /// QueueSort: whether `a` should be popped before `b`.
    fn less(&self, a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        false
    }
    /// Cluster events that may make a pod this plugin rejected schedulable.
    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        Vec::new()
    }
    /// Queueing hint for a registered event (only called when `has_hint` was set).
    fn queueing_hint(&self, cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        Ok(QueueingHint::Queue)
    }

    // --- scheduling cycle ----------------------------------------------------------------
    fn pre_filter(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        (None, Status::success())
    }
    fn has_pre_filter_extensions(&self) -> bool {
        false
    }
    fn add_pod(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_add: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        Status::success()
    }
    fn remove_pod(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_remove: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        Status::success()
    }
    fn filter(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        Status::success()
    }
    /// Filter for each node of `nodes` whose slot in `out` is `None` (no earlier plugin
    /// rejected it), in order: a status other than Success is written into the node's slot.
    /// Returns whether it wrote any. Plugins override it to read their cycle state once for
    /// all the nodes.
    fn filter_nodes(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut [Option<Status>]) -> bool {
        let mut wrote = false;
        for (n, o) in nodes.iter().zip(out.iter_mut()) {
            if o.is_none() {
                let s = self.filter(cx, state, pod, n);
                if !s.is_success() {
                    *o = Some(s);
                    wrote = true;
                }
            }
        }
        wrote
    }
    fn post_filter(
        &self,
        cx: &Ctx,
        fw: &Framework,
        state: &CycleState,
        pod: &PodInfo,
        statuses: &NodeToStatus,
        rng: &mut Rng,
    ) -> (Option<PostFilterResult>, Status) {
        (None, Status::code_only(super::Code::Unschedulable))
    }
    fn pre_score(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, nodes: &[&NodeInfo]) -> Status {
        Status::success()
    }
    fn score(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        Ok(0)
    }
    /// Score for every node of `nodes`, in order, appended to `out`; stops at the first error
    /// (as calling `score` node by node does). Plugins override it to read their cycle state
    /// and the pod's precomputed inputs once per cycle instead of once per node.
    fn score_nodes(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut Vec<i64>) -> Result<(), Status> {
        for n in nodes {
            out.push(self.score(cx, state, pod, n)?);
        }
        Ok(())
    }
    fn has_normalize_score(&self) -> bool {
        false
    }
    fn normalize_score(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        Status::success()
    }
    fn reserve(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        Status::success()
    }
    fn unreserve(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, node: &str) {}
    fn permit(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        Status::success()
    }

    // --- binding cycle -------------------------------------------------------------------
    /// Whether PreBind will have work to do for the pod on the node (Success) or not (Skip),
    /// asked before the binding cycle when NominatedNodeNameForExpectation is on.
    fn pre_bind_pre_flight(&self, state: &CycleState, pod: &PodInfo, node: &str) -> Status {
        Status::skip()
    }
    /// PreBind may write API objects (e.g. bind PersistentVolumeClaims).
    fn pre_bind(&self, cluster: &mut Cluster, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        Status::success()
    }
    /// Bind: Success when this plugin bound the pod, Skip to let the next binder try.
    fn bind(&self, cluster: &mut Cluster, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        Status::skip()
    }
    fn post_bind(&self, cluster: &mut Cluster, state: &mut CycleState, pod: &PodInfo, node: &str) {}
}

#[cfg(test)]
mod node_to_status_tests {
    use super::*;
    use crate::framework::Code;

    /// Statuses given from a rotating start (the filter's visit order), one node twice: every
    /// read is in node order with the last status given, before and after `settle`.
    #[test]
    fn reads_are_in_node_order_with_the_last_status_given_settled_or_not() {
        let mut m = NodeToStatus::default();
        for (node, why) in [(3, "a"), (5, "b"), (0, "c"), (3, "d"), (1, "e"), (1, "f")] {
            m.insert(node, Status::unschedulable(why));
        }
        let read = |m: &NodeToStatus| {
            let all: Vec<(usize, String)> = m.iter().map(|(i, s)| (i, s.message())).collect();
            let got: Vec<String> = (0..7).map(|i| m.get(i).message()).collect();
            (all, got, m.len())
        };
        let want = (
            vec![(0, "c".to_string()), (1, "f".into()), (3, "d".into()), (5, "b".into())],
            ["c", "f", "", "d", "", "b", ""].map(String::from).to_vec(),
            4,
        );
        assert_eq!(read(&m), want);
        let before = m.clone();
        m.settle();
        assert_eq!(read(&m), want);
        assert_eq!(m, before);
        assert_eq!(m.get(2).code, Code::UnschedulableAndUnresolvable);
    }

    /// `settle` against a plain sort, over visit orders with and without a wrap (the rotation
    /// path), a node given twice, and runs that overlap (the sorting path).
    #[test]
    fn settle_orders_wrapped_and_unordered_visits() {
        let orders: [&[usize]; 9] = [
            &[],
            &[4],
            &[1, 2, 3],
            &[5, 7, 9, 0, 2],
            &[9, 0],
            &[5, 7, 0, 2, 5],
            &[5, 7, 0, 6],
            &[5, 7, 0, 2, 1],
            &[3, 3, 1, 1, 0],
        ];
        for order in orders {
            let mut m = NodeToStatus::default();
            for (k, &node) in order.iter().enumerate() {
                m.insert(node, Status::unschedulable(format!("{node}/{k}")));
            }
            // The expected: node order, each node's last status.
            let mut want: Vec<(usize, String)> = Vec::new();
            for (k, &node) in order.iter().enumerate() {
                want.retain(|(n, _)| *n != node);
                want.push((node, format!("{node}/{k}")));
            }
            want.sort();
            m.settle();
            assert!(m.settled, "{order:?}");
            let got: Vec<(usize, String)> = m.rejected.iter().map(|(i, s)| (*i, s.message())).collect();
            assert_eq!(got, want, "{order:?}");
        }
    }
}
