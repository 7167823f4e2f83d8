//! NodeResourcesFit: rejects nodes without room for the pod's requests (pods, cpu, memory,
//! ephemeral storage, extended and other scalar resources) and scores the rest with one of
//! three strategies: LeastAllocated, MostAllocated or RequestedToCapacityRatio.

pub mod args;

use crate::api;
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{
    is_extended_resource_name, Code, Ctx, CycleState, NodeInfo, Plugin, PodInfo, PreFilterResult, Reason, Reasons, Resource, Status, MAX_NODE_SCORE,
};
use crate::plugins::helper::div_trunc;
use crate::plugins::resource_allocation::ResourceAllocationScorer;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::{NodeResourcesFitArgs, ScoringStrategyType};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Highest score a RequestedToCapacityRatio shape point may give (upstream
/// MaxCustomPriorityScore); shape scores are scaled from 0..10 to 0..MAX_NODE_SCORE.
const MAX_CUSTOM_PRIORITY_SCORE: i64 = 10;
/// Utilization is expressed in percent.
const MAX_UTILIZATION: i64 = 100;

/// The scoring strategy, with a RequestedToCapacityRatio shape already scaled.
#[derive(Clone, Debug)]
enum Strategy {
    LeastAllocated,
    MostAllocated,
    /// (utilization, score) points with scores scaled to 0..MAX_NODE_SCORE.
    RequestedToCapacityRatio(Vec<(i64, i64)>),
}

pub struct Fit {
    ignored_resources: BTreeSet<String>,
    ignored_resource_groups: BTreeSet<String>,
    strategy: Strategy,
    scorer: ResourceAllocationScorer,
}

/// One scalar resource the pod asks for and that Filter has to check.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ScalarRequest {
    name: String,
    quantity: i64,
    /// "Insufficient <name>", built once per cycle.
    reason: Reason,
}

/// The pod's effective request, computed at PreFilter for Filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct PreFilterState {
    milli_cpu: i64,
    memory: i64,
    ephemeral_storage: i64,
    /// Non-zero scalar requests that are not ignored, in name order.
    scalars: Vec<ScalarRequest>,
}

/// The plugin's slot in the cycle state: what PreFilter computed for Filter and what PreScore
/// computed for Score (the pod's request per scoring resource).
#[derive(Clone, Debug, Default)]
struct FitCycleState {
    pre_filter: Option<Arc<PreFilterState>>,
    pod_requests: Option<Arc<Vec<i64>>>,
}

fn pre_filter_state_key_error() -> Status {
    Status::error("error reading \"PreFilterNodeResourcesFit\" from cycleState: not found")
}

impl PreFilterState {
    /// The pod's requests as Filter checks them (upstream computePodResourceRequest: pod-level
    /// requests, init containers, sidecars and overhead included), skipping scalar resources that
    /// are zero or, for extended resources, ignored by the plugin's arguments.
    fn compute(pod: &PodInfo, ignored: &BTreeSet<String>, ignored_groups: &BTreeSet<String>) -> PreFilterState {
        let r: &Resource = &pod.resource.resource;
        let scalars = r
            .scalar
            .iter()
            .filter(|(name, q)| {
                if *q <= 0 {
                    return false;
                }
                if is_extended_resource_name(name) {
                    let group = name.split('/').next().unwrap_or("");
                    if ignored.contains(name.as_str()) || ignored_groups.contains(group) {
                        return false;
                    }
                }
                true
            })
            .map(|(name, q)| ScalarRequest {
                name: name.clone(),
                quantity: *q,
                reason: Cow::Owned(format!("Insufficient {name}")),
            })
            .collect();
        PreFilterState {
            milli_cpu: r.milli_cpu.max(0),
            memory: r.memory.max(0),
            ephemeral_storage: r.ephemeral_storage.max(0),
            scalars,
        }
    }

    /// Every resource the node lacks for the pod; the flag tells whether any request exceeds
    /// the node's allocatable outright, which no preemption can fix.
    fn insufficient(&self, node: &NodeInfo) -> (Reasons, bool) {
        let mut reasons = Reasons::new();
        let mut unresolvable = false;
        let alloc = &node.allocatable;
        let used = &node.requested;
        if node.pods.len() as i64 + 1 > alloc.allowed_pod_number {
            reasons.push(Cow::Borrowed("Too many pods"));
        }
        let mut check = |want: i64, have: i64, used: i64, reason: &Reason| {
            if want > 0 && want > have - used {
                reasons.push(reason.clone());
                if want > have {
                    unresolvable = true;
                }
            }
        };
        check(self.milli_cpu, alloc.milli_cpu, used.milli_cpu, &Cow::Borrowed("Insufficient cpu"));
        check(self.memory, alloc.memory, used.memory, &Cow::Borrowed("Insufficient memory"));
        check(
            self.ephemeral_storage,
            alloc.ephemeral_storage,
            used.ephemeral_storage,
            &Cow::Borrowed("Insufficient ephemeral-storage"),
        );
        for s in &self.scalars {
            check(s.quantity, alloc.scalar(&s.name), used.scalar(&s.name), &s.reason);
        }
        (reasons, unresolvable)
    }

    fn is_empty(&self) -> bool {
        self.milli_cpu == 0 && self.memory == 0 && self.ephemeral_storage == 0 && self.scalars.is_empty()
    }
}

impl Fit {
    /// The pod's requests as Score reads them: PreScore's, or computed when PreScore did not
    /// run (an explanation scoring one node).
    fn score_requests<'a>(&self, state: &'a CycleState, pod: &PodInfo) -> Cow<'a, [i64]> {
        match state.read::<FitCycleState>(PluginName::NodeResourcesFit).and_then(|s| s.pod_requests.as_deref()) {
            Some(r) => Cow::Borrowed(r),
            None => Cow::Owned(self.scorer.pod_request_list(pod)),
        }
    }

    pub fn new(args: &NodeResourcesFitArgs) -> Fit {
        let ss = &args.scoring_strategy;
        let strategy = match ss.kind {
            ScoringStrategyType::LeastAllocated => Strategy::LeastAllocated,
            ScoringStrategyType::MostAllocated => Strategy::MostAllocated,
            ScoringStrategyType::RequestedToCapacityRatio => Strategy::RequestedToCapacityRatio(
                ss.shape
                    .iter()
                    .map(|p| (p.utilization as i64, p.score as i64 * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE)))
                    .collect(),
            ),
        };
        Fit {
            ignored_resources: crate::sort::set_of(args.ignored_resources.iter().cloned()),
            ignored_resource_groups: crate::sort::set_of(args.ignored_resource_groups.iter().cloned()),
            strategy,
            // Upstream builds Fit's scorer without the pod-level-resources switch, so scoring
            // looks at container requests only (with the 100m/200Mi defaults).
            scorer: ResourceAllocationScorer::new(&ss.resources, false, false),
        }
    }

    /// The node's score from the per-resource requested/allocatable pairs.
    fn combine(&self, requested: &[i64], allocatable: &[i64]) -> i64 {
        let resources = &self.scorer.resources;
        match &self.strategy {
            Strategy::LeastAllocated => weighted_mean(requested, allocatable, resources, least_requested_score),
            Strategy::MostAllocated => weighted_mean(requested, allocatable, resources, most_requested_score),
            Strategy::RequestedToCapacityRatio(shape) => {
                let mut node_score: i64 = 0;
                let mut weight_sum: i64 = 0;
                for i in 0..requested.len() {
                    if allocatable[i] == 0 {
                        continue;
                    }
                    let (_, s) = shape_point(shape, requested[i], allocatable[i]);
                    // Resources scoring zero do not count towards the mean at all.
                    if s > 0 {
                        let w = resources[i].weight;
                        node_score = node_score.wrapping_add(s.wrapping_mul(w));
                        weight_sum += w;
                    }
                }
                if weight_sum == 0 {
                    return 0;
                }
                (node_score as f64 / weight_sum as f64).round() as i64
            }
        }
    }
}

/// A resource's utilisation (percent, capped at 100) and the score the shape gives it.
fn shape_point(shape: &[(i64, i64)], req: i64, cap: i64) -> (i64, i64) {
    let utilization = if req > cap {
        MAX_UTILIZATION
    } else {
        div_trunc(req.wrapping_mul(MAX_UTILIZATION), cap)
    };
    (utilization, broken_linear(shape, utilization))
}

/// For RequestedToCapacityRatio, each resource's (utilisation, shape score) on a node from the
/// scorer's requested/allocatable pairs (None for a resource the node does not have); None for
/// the other strategies. For the playground's explanations.
fn shape_points(args: &NodeResourcesFitArgs, requested: &[i64], allocatable: &[i64]) -> Option<Vec<Option<(i64, i64)>>> {
    let Strategy::RequestedToCapacityRatio(shape) = Fit::new(args).strategy else {
        return None;
    };
    Some(
        requested
            .iter()
            .zip(allocatable)
            .map(|(&r, &a)| (a != 0).then(|| shape_point(&shape, r, a)))
            .collect(),
    )
}

/// Weighted integer mean of the per-resource scores over the resources the node has.
fn weighted_mean(
    requested: &[i64],
    allocatable: &[i64],
    resources: &[crate::plugins::resource_allocation::ScoredResource],
    per_resource: fn(i64, i64) -> i64,
) -> i64 {
    let mut node_score: i64 = 0;
    let mut weight_sum: i64 = 0;
    for i in 0..requested.len() {
        if allocatable[i] == 0 {
            continue;
        }
        let w = resources[i].weight;
        node_score = node_score.wrapping_add(per_resource(requested[i], allocatable[i]).wrapping_mul(w));
        weight_sum += w;
    }
    if weight_sum == 0 {
        0
    } else {
        div_trunc(node_score, weight_sum)
    }
}

/// `weighted_mean` over the two resources of the cpu-and-memory configuration, for the
/// per-node loop: the same operations in the same order, with `per_resource` inlined.
#[inline(always)]
fn weighted_mean2(requested: [i64; 2], allocatable: [i64; 2], weights: [i64; 2], per_resource: impl Fn(i64, i64) -> i64) -> i64 {
    let mut node_score: i64 = 0;
    let mut weight_sum: i64 = 0;
    for i in 0..2 {
        if allocatable[i] == 0 {
            continue;
        }
        node_score = node_score.wrapping_add(per_resource(requested[i], allocatable[i]).wrapping_mul(weights[i]));
        weight_sum += weights[i];
    }
    if weight_sum == 0 {
        0
    } else if node_score >= 0 && weight_sum > 0 && weight_sum.count_ones() == 1 {
        // A power of two (the default weights sum to 2): truncating division is a shift.
        node_score >> weight_sum.trailing_zeros()
    } else {
        div_trunc(node_score, weight_sum)
    }
}

/// Free share of the resource on a 0..MAX_NODE_SCORE scale (0 when over-committed).
#[inline]
fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    div_trunc((capacity - requested).wrapping_mul(MAX_NODE_SCORE), capacity)
}

/// Used share of the resource on a 0..MAX_NODE_SCORE scale (capped at full).
#[inline]
fn most_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 {
        return 0;
    }
    div_trunc(requested.min(capacity).wrapping_mul(MAX_NODE_SCORE), capacity)
}

/// Piecewise-linear interpolation through the shape's points, flat beyond both ends.
fn broken_linear(shape: &[(i64, i64)], p: i64) -> i64 {
    for i in 0..shape.len() {
        if p <= shape[i].0 {
            if i == 0 {
                return shape[0].1;
            }
            let (u0, s0) = shape[i - 1];
            let (u1, s1) = shape[i];
            return s0 + (s1 - s0) * (p - u0) / (u1 - u0);
        }
    }
    shape.last().map_or(0, |p| p.1)
}

/// Upstream isSchedulableAfterPodScaleDown: whether an update that shrank `modified` (from
/// `original`) frees something `target` asks for.
fn is_schedulable_after_pod_scale_down(target: &PodInfo, original: &PodInfo, modified: &PodInfo) -> bool {
    if modified.uid == target.uid {
        return true;
    }
    if modified.node_name().is_none() {
        return false;
    }
    let (o, m, t) = (&original.resource.resource, &modified.resource.resource, &target.resource.resource);
    (t.milli_cpu != 0 && o.milli_cpu > m.milli_cpu)
        || (t.memory != 0 && o.memory > m.memory)
        || (t.ephemeral_storage != 0 && o.ephemeral_storage > m.ephemeral_storage)
        || t.scalar.iter().any(|(n, q)| *q != 0 && o.scalar(n).max(0) > m.scalar(n).max(0))
}

/// Upstream isFit: whether the pod would fit on `node` if it were empty.
fn fits_empty_node(pod: &PodInfo, node: &api::Node) -> bool {
    let info = NodeInfo::new(Arc::new(node.clone()));
    let state = PreFilterState::compute(pod, &BTreeSet::new(), &BTreeSet::new());
    state.insufficient(&info).0.is_empty()
}

/// Upstream haveAnyRequestedResourcesIncreased: more pod slots, or more of a resource the pod
/// requests.
fn requested_resources_increased(pod: &PodInfo, original: &api::Node, modified: &api::Node) -> bool {
    let o = Resource::from_list(&original.status.allocatable);
    let m = Resource::from_list(&modified.status.allocatable);
    if m.allowed_pod_number > o.allowed_pod_number {
        return true;
    }
    let r = &pod.resource.resource;
    (r.milli_cpu > 0 && m.milli_cpu > o.milli_cpu)
        || (r.memory > 0 && m.memory > o.memory)
        || (r.ephemeral_storage > 0 && m.ephemeral_storage > o.ephemeral_storage)
        || r.scalar.iter().any(|(n, q)| *q != 0 && m.scalar(n) > o.scalar(n))
}

/// Queueing hint for a node being added (`original` None) or updated: worth a retry when the
/// pod fits the node and, for an update, the node gained something the pod needs.
pub fn is_schedulable_after_node_change(pod: &PodInfo, original: Option<&api::Node>, modified: Option<&api::Node>) -> QueueingHint {
    let Some(modified) = modified else {
        return QueueingHint::Skip;
    };
    if !fits_empty_node(pod, modified) {
        return QueueingHint::Skip;
    }
    match original {
        None => QueueingHint::Queue,
        Some(o) if requested_resources_increased(pod, o, modified) => QueueingHint::Queue,
        Some(_) => QueueingHint::Skip,
    }
}

impl Plugin for Fit {
    fn name(&self) -> PluginName {
        PluginName::NodeResourcesFit
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        // InPlacePodVerticalScaling is on by default: a scale-down may free resources too. With
        // queueing hints on, node updates other than allocatable changes are not needed.
        vec![
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::DELETE.union(ActionType::UPDATE_POD_SCALE_DOWN)),
            ClusterEventWithHint::hinted(EventResource::Node, ActionType::ADD.union(ActionType::UPDATE_NODE_ALLOCATABLE)),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, _event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::Pod { old, new } => match (old, new) {
                // A deleted pod frees resources only if it was bound or nominated somewhere.
                (Some(o), None) => Ok(if o.node_name().is_none() && o.nominated_node_name().is_none() {
                    QueueingHint::Skip
                } else {
                    QueueingHint::Queue
                }),
                (Some(o), Some(m)) => Ok(if is_schedulable_after_pod_scale_down(pod, o, m) {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                }),
                (None, Some(_)) => Ok(QueueingHint::Queue),
                (None, None) => Err("object of the pod event is missing".into()),
            },
            EventObject::Node { old, new } => Ok(is_schedulable_after_node_change(pod, old.as_deref(), new.as_deref())),
            // Upstream's hint fails on an object of another type, and a failing hint queues.
            _ => Ok(QueueingHint::Queue),
        }
    }

    fn pre_filter(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        let s = PreFilterState::compute(pod, &self.ignored_resources, &self.ignored_resource_groups);
        state.write(
            PluginName::NodeResourcesFit,
            FitCycleState {
                pre_filter: Some(Arc::new(s)),
                pod_requests: None,
            },
        );
        (None, Status::success())
    }

    fn filter(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state
            .read::<FitCycleState>(PluginName::NodeResourcesFit)
            .and_then(|s| s.pre_filter.as_deref())
        else {
            return pre_filter_state_key_error();
        };
        // Fast path: only the pod-count check can fail for a pod requesting nothing.
        if s.is_empty() && (node.pods.len() as i64) < node.allocatable.allowed_pod_number {
            return Status::success();
        }
        let (reasons, unresolvable) = s.insufficient(node);
        if reasons.is_empty() {
            return Status::success();
        }
        let code = if unresolvable {
            Code::UnschedulableAndUnresolvable
        } else {
            Code::Unschedulable
        };
        Status::with_reasons(code, reasons)
    }

    fn filter_nodes(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, nodes: &[&NodeInfo], out: &mut [Option<Status>]) -> bool {
        let Some(s) = state
            .read::<FitCycleState>(PluginName::NodeResourcesFit)
            .and_then(|s| s.pre_filter.as_deref())
        else {
            let mut wrote = false;
            for o in out.iter_mut().filter(|o| o.is_none()) {
                *o = Some(pre_filter_state_key_error());
                wrote = true;
            }
            return wrote;
        };
        let empty = s.is_empty();
        let scalars = !s.scalars.is_empty();
        let mut wrote = false;
        for (node, o) in nodes.iter().zip(out.iter_mut()) {
            if o.is_some() {
                continue;
            }
            // The common verdict, room for everything, checked inline; `insufficient` lists
            // what is lacking otherwise.
            let (alloc, used) = (&node.allocatable, &node.requested);
            let lacks = |want: i64, have: i64, used: i64| want > 0 && want > have - used;
            if (node.pods.len() as i64) < alloc.allowed_pod_number
                && (empty
                    || (!scalars
                        && !lacks(s.milli_cpu, alloc.milli_cpu, used.milli_cpu)
                        && !lacks(s.memory, alloc.memory, used.memory)
                        && !lacks(s.ephemeral_storage, alloc.ephemeral_storage, used.ephemeral_storage)))
            {
                continue;
            }
            let (reasons, unresolvable) = s.insufficient(node);
            if !reasons.is_empty() {
                let code = if unresolvable {
                    Code::UnschedulableAndUnresolvable
                } else {
                    Code::Unschedulable
                };
                *o = Some(Status::with_reasons(code, reasons));
                wrote = true;
            }
        }
        wrote
    }

    fn pre_score(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo, _nodes: &[&NodeInfo]) -> Status {
        let reqs = Some(Arc::new(self.scorer.pod_request_list(pod)));
        match state.read_mut::<FitCycleState>(PluginName::NodeResourcesFit) {
            Some(s) => s.pod_requests = reqs,
            None => state.write(
                PluginName::NodeResourcesFit,
                FitCycleState {
                    pre_filter: None,
                    pod_requests: reqs,
                },
            ),
        }
        Status::success()
    }

    fn score(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let reqs = self.score_requests(state, pod);
        let reqs = &reqs[..];
        self.scorer.score(node, reqs, |r, a| self.combine(r, a))
    }

    fn score_nodes(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut Vec<i64>) -> Result<(), Status> {
        let reqs = self.score_requests(state, pod);
        let reqs = &reqs[..];
        let w = self.scorer.weights2();
        match &self.strategy {
            // The default strategy, its weighted mean inlined into the per-node loop.
            Strategy::LeastAllocated => self.scorer.score_nodes(
                nodes,
                reqs,
                out,
                |r, a| weighted_mean(r, a, &self.scorer.resources, least_requested_score),
                |r, a| weighted_mean2(r, a, w, least_requested_score),
            ),
            Strategy::MostAllocated => self.scorer.score_nodes(
                nodes,
                reqs,
                out,
                |r, a| self.combine(r, a),
                |r, a| weighted_mean2(r, a, w, most_requested_score),
            ),
            _ => self.scorer.score_nodes(nodes, reqs, out, |r, a| self.combine(r, a), |r, a| self.combine(&r, &a)),
        }
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::NodeResourcesFit,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::PreScore, Ep::Score, Ep::EnqueueExtensions]),
    short: "Fit",
    args: Some(&args::CODEC),
    new: |args, _| Box::new(Fit::new(&args.get_or_default::<NodeResourcesFitArgs>())),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
#[allow(clippy::type_complexity)]
mod tests {
    use super::args::ScoringStrategy;
    use super::*;
    use crate::config::{ResourceSpec, UtilizationShapePoint};
    use crate::plugins::testing::{Env, MakeNode, MakePod};
    use crate::quantity::Quantity;

    fn node(cap: &[(&str, &str)]) -> api::Node {
        MakeNode::new("n").capacity(cap).obj()
    }

    fn run_filter(fit: &Fit, env: &Env, pod: &PodInfo) -> Status {
        let mut state = CycleState::new();
        let (res, s) = fit.pre_filter(&env.cx(), &mut state, pod);
        assert!(res.is_none() && s.is_success());
        fit.filter(&env.cx(), &state, pod, env.node("n"))
    }

    fn status(code: Code, reasons: &[&'static str]) -> Status {
        Status::with_reasons(code, reasons.iter().map(|r| Cow::Borrowed(*r)).collect())
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter() {
        use Code::*;
        let base: &[(&str, &str)] = &[
            ("cpu", "10"),
            ("memory", "20"),
            ("pods", "32"),
            ("ephemeral-storage", "20"),
            ("example.com/foo", "5"),
            ("hugepages-2Mi", "4"),
        ];
        // Already on the node: 5 cpu, 19 bytes of memory, 3 of example.com/foo.
        let running = || {
            vec![MakePod::new("r")
                .node("n")
                .req(&[("cpu", "5"), ("memory", "19"), ("example.com/foo", "3")])
                .obj()]
        };
        let mut with_overhead = MakePod::new("p").req(&[("cpu", "4")]).obj();
        with_overhead.spec.overhead = Some([("cpu".to_string(), Quantity::parse("2").unwrap())].into_iter().collect());
        let mut pod_level = MakePod::new("p").req(&[("cpu", "1")]).obj();
        pod_level.spec.resources = Some(Box::new(api::ResourceRequirements {
            requests: [("cpu".to_string(), Quantity::parse("6").unwrap())].into_iter().collect(),
            ..Default::default()
        }));
        let ignore_foo = NodeResourcesFitArgs {
            ignored_resources: vec!["example.com/foo".into()],
            ..Default::default()
        };
        let ignore_group = NodeResourcesFitArgs {
            ignored_resource_groups: vec!["example.com".into(), "hugepages-2Mi".into()],
            ..Default::default()
        };
        let defaults = NodeResourcesFitArgs::default();
        // Against the running pod, with the default args.
        let common: Vec<(&str, api::Pod, Status)> = vec![
            ("no requests fit", MakePod::new("p").image("x").obj(), Status::success()),
            (
                "fits exactly",
                MakePod::new("p").req(&[("cpu", "5"), ("memory", "1")]).obj(),
                Status::success(),
            ),
            (
                "insufficient cpu, resolvable by preemption",
                MakePod::new("p").req(&[("cpu", "6")]).obj(),
                status(Unschedulable, &["Insufficient cpu"]),
            ),
            (
                "cpu beyond allocatable is unresolvable",
                MakePod::new("p").req(&[("cpu", "11")]).obj(),
                status(UnschedulableAndUnresolvable, &["Insufficient cpu"]),
            ),
            (
                "several reasons; one unresolvable makes the status unresolvable",
                MakePod::new("p")
                    .req(&[("cpu", "6"), ("memory", "21"), ("ephemeral-storage", "21")])
                    .obj(),
                status(
                    UnschedulableAndUnresolvable,
                    &["Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage"],
                ),
            ),
            (
                "init container is the max",
                MakePod::new("p").req(&[("cpu", "1")]).init_req(&[("cpu", "6")], false).obj(),
                status(Unschedulable, &["Insufficient cpu"]),
            ),
            (
                "sidecar adds up with the app containers",
                MakePod::new("p").req(&[("cpu", "3")]).init_req(&[("cpu", "3")], true).obj(),
                status(Unschedulable, &["Insufficient cpu"]),
            ),
            ("overhead counts", with_overhead, status(Unschedulable, &["Insufficient cpu"])),
            ("pod-level requests win", pod_level, status(Unschedulable, &["Insufficient cpu"])),
            (
                "extended resource in use",
                MakePod::new("p").req(&[("example.com/foo", "3")]).obj(),
                status(Unschedulable, &["Insufficient example.com/foo"]),
            ),
            (
                "extended resource absent from the node",
                MakePod::new("p").req(&[("example.com/bar", "1")]).obj(),
                status(UnschedulableAndUnresolvable, &["Insufficient example.com/bar"]),
            ),
            (
                "zero extended request is not checked",
                MakePod::new("p").req(&[("example.com/bar", "0")]).obj(),
                Status::success(),
            ),
        ];
        let mut cases: Vec<(&str, &NodeResourcesFitArgs, Vec<api::Pod>, api::Pod, Status)> = common
            .into_iter()
            .map(|(name, pod, want)| (name, &defaults, running(), pod, want))
            .collect();
        cases.extend([
            (
                "ignored resource",
                &ignore_foo,
                running(),
                MakePod::new("p").req(&[("example.com/foo", "30")]).obj(),
                Status::success(),
            ),
            (
                "ignored group; hugepages are not extended resources",
                &ignore_group,
                running(),
                MakePod::new("p").req(&[("example.com/foo", "30"), ("hugepages-2Mi", "5")]).obj(),
                status(UnschedulableAndUnresolvable, &["Insufficient hugepages-2Mi"]),
            ),
            (
                "too many pods",
                &defaults,
                vec![MakePod::new("a").node("n").obj(), MakePod::new("b").node("n").obj()],
                MakePod::new("p").image("x").obj(),
                status(Unschedulable, &["Too many pods"]),
            ),
            (
                "too many pods and insufficient cpu",
                &defaults,
                vec![
                    MakePod::new("a").node("n").req(&[("cpu", "9")]).obj(),
                    MakePod::new("b").node("n").obj(),
                ],
                MakePod::new("p").req(&[("cpu", "2")]).obj(),
                status(Unschedulable, &["Too many pods", "Insufficient cpu"]),
            ),
        ]);
        for (name, args, pods, pod, want) in cases {
            let cap: Vec<(&str, &str)> = if name.starts_with("too many pods") {
                base.iter().map(|&(k, v)| if k == "pods" { (k, "2") } else { (k, v) }).collect()
            } else {
                base.to_vec()
            };
            let env = Env::new(vec![node(&cap)], pods);
            let got = run_filter(&Fit::new(args), &env, &PodInfo::new(pod, 0));
            assert_eq!(got, want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_without_pre_filter_is_an_error() {
        let env = Env::new(vec![node(&[("cpu", "1")])], vec![]);
        let fit = Fit::new(&NodeResourcesFitArgs::default());
        let pod = MakePod::new("p").info();
        let s = fit.filter(&env.cx(), &CycleState::new(), &pod, env.node("n"));
        assert_eq!(s.code, Code::Error);
    }

    fn args(kind: ScoringStrategyType, resources: &[(&str, i64)], shape: &[(i32, i32)]) -> NodeResourcesFitArgs {
        NodeResourcesFitArgs {
            scoring_strategy: ScoringStrategy {
                kind,
                resources: resources
                    .iter()
                    .map(|(n, w)| ResourceSpec {
                        name: n.to_string(),
                        weight: *w,
                    })
                    .collect(),
                shape: shape
                    .iter()
                    .map(|&(utilization, score)| UtilizationShapePoint { utilization, score })
                    .collect(),
            },
            ..Default::default()
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score_strategies() {
        use ScoringStrategyType::*;
        let cm: &[(&str, i64)] = &[("cpu", 1), ("memory", 1)];
        let linear: &[(i32, i32)] = &[(0, 0), (100, 10)];
        let small = || MakeNode::new("small").capacity(&[("cpu", "4"), ("memory", "10000")]).obj();
        let big = || MakeNode::new("big").capacity(&[("cpu", "6"), ("memory", "10000")]).obj();
        let pod = || MakePod::new("p").req(&[("cpu", "3"), ("memory", "5000")]);
        let cases: Vec<(&str, NodeResourcesFitArgs, Vec<api::Pod>, PodInfo, [i64; 2])> = vec![
            // small: cpu (4000-3000)*100/4000 = 25, memory 50 -> 75/2 = 37 (truncated).
            ("least allocated", args(LeastAllocated, cm, &[]), vec![], pod().info(), [37, 50]),
            (
                "least allocated, weighted",
                args(LeastAllocated, &[("cpu", 3), ("memory", 1)], &[]),
                vec![],
                pod().info(),
                [31, 50],
            ),
            ("most allocated", args(MostAllocated, cm, &[]), vec![], pod().info(), [62, 50]),
            // 75 and 50 through the identity shape: round(62.5) = 63.
            (
                "requested to capacity ratio rounds",
                args(RequestedToCapacityRatio, cm, linear),
                vec![],
                pod().info(),
                [63, 50],
            ),
            (
                "requested to capacity ratio drops zero-scoring resources",
                args(RequestedToCapacityRatio, cm, &[(0, 10), (50, 0), (100, 0)]),
                vec![],
                MakePod::new("p").req(&[("cpu", "1"), ("memory", "5000")]).info(),
                // small: cpu 25% -> 50, memory 50% -> 0 (left out): 50. big: cpu 16% -> 68.
                [50, 68],
            ),
            (
                "best-effort pod counts as 100m / 200Mi on top of the non-zero requests",
                args(MostAllocated, &[("cpu", 1)], &[]),
                vec![MakePod::new("be").node("small").image("x").obj()],
                MakePod::new("p").image("x").info(),
                // small: 200m of 4 cpu; big: 100m of 6 cpu.
                [5, 1],
            ),
            (
                "least allocated over capacity scores zero",
                args(LeastAllocated, cm, &[]),
                vec![MakePod::new("r").node("small").req(&[("cpu", "2")]).obj()],
                pod().info(),
                // small: cpu 5 of 4; memory 200Mi (the running pod's default) + 5000 of 10000.
                [0, 50],
            ),
            (
                "extended resource not requested is left out",
                args(LeastAllocated, &[("cpu", 1), ("example.com/foo", 1)], &[]),
                vec![],
                pod().info(),
                [25, 50],
            ),
        ];
        for (name, a, pods, pod, want) in cases {
            let env = Env::new(vec![small(), big()], pods);
            let fit = Fit::new(&a);
            let mut state = CycleState::new();
            let nodes = [env.node("small"), env.node("big")];
            assert!(fit.pre_score(&env.cx(), &mut state, &pod, &nodes).is_success());
            let got = [
                fit.score(&env.cx(), &state, &pod, nodes[0]).unwrap(),
                fit.score(&env.cx(), &state, &pod, nodes[1]).unwrap(),
            ];
            assert_eq!(got, want, "{name}");
            // The batch over the nodes computes the same.
            let mut batch = Vec::new();
            fit.score_nodes(&env.cx(), &state, &pod, &nodes, &mut batch).unwrap();
            assert_eq!(batch, want, "{name}: score_nodes");
            // Without PreScore state, Score computes the same.
            let fresh = CycleState::new();
            assert_eq!(fit.score(&env.cx(), &fresh, &pod, nodes[0]).unwrap(), want[0], "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn two_resource_mean_is_the_general_one() {
        let values = [0, 1, 7, 99, 100, 4000, 4001, 1 << 31, 3 << 40, i64::MAX / 1000];
        // Weight sums that are powers of two (1+1, 2+2, 1+3, one resource alone) and not.
        for weights in [(1, 1), (3, 2), (2, 2), (1, 3), (5, 7)] {
            let spec = [("cpu", weights.0), ("memory", weights.1)];
            let scorer = ResourceAllocationScorer::new(&args(ScoringStrategyType::LeastAllocated, &spec, &[]).scoring_strategy.resources, false, false);
            for &a0 in &values {
                for &a1 in &values {
                    for &r0 in &values {
                        for &r1 in &values {
                            let (r, a) = ([r0, r1], [a0, a1]);
                            for f in [least_requested_score, most_requested_score] {
                                assert_eq!(
                                    weighted_mean2(r, a, scorer.weights2(), f),
                                    weighted_mean(&r, &a, &scorer.resources, f),
                                    "{weights:?} {r:?} {a:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn broken_linear_function() {
        let shape = [(10, 0), (50, 100), (100, 20)];
        for (p, want) in [(0, 0), (10, 0), (30, 50), (50, 100), (75, 60), (100, 20), (120, 20)] {
            assert_eq!(broken_linear(&shape, p), want, "p={p}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_event_hints() {
        let fit = Fit::new(&NodeResourcesFitArgs::default());
        let env = Env::new(vec![node(&[("cpu", "1")])], vec![]);
        let target = MakePod::new("t").req(&[("cpu", "1")]).info();
        let mem_only = MakePod::new("t").req(&[("memory", "1Gi")]).info();
        let bound = MakePod::new("o").node("n").req(&[("cpu", "2"), ("memory", "1Gi")]).arc();
        let bound_shrunk = MakePod::new("o").node("n").req(&[("cpu", "1"), ("memory", "1Gi")]).arc();
        let unbound = MakePod::new("o").req(&[("cpu", "2")]).arc();
        let unbound_shrunk = MakePod::new("o").req(&[("cpu", "1")]).arc();
        let mut nominated = MakePod::new("o").req(&[("cpu", "2")]).obj();
        nominated.status.nominated_node_name = Some("n".into());
        let nominated = Arc::new(PodInfo::new(nominated, 0));
        let self_shrunk = MakePod::new("t").req(&[("cpu", "500m")]).arc();
        let del = ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE);
        let upd = ClusterEvent::new(EventResource::AssignedPod, ActionType::UPDATE_POD_SCALE_DOWN);
        let cases: Vec<(
            &str,
            &PodInfo,
            ClusterEvent,
            Option<Arc<PodInfo>>,
            Option<Arc<PodInfo>>,
            QueueingHint,
        )> = vec![
            ("bound pod deleted", &target, del, Some(bound.clone()), None, QueueingHint::Queue),
            ("unbound pod deleted", &target, del, Some(unbound.clone()), None, QueueingHint::Skip),
            ("nominated pod deleted", &target, del, Some(nominated), None, QueueingHint::Queue),
            (
                "bound pod freed cpu",
                &target,
                upd,
                Some(bound.clone()),
                Some(bound_shrunk.clone()),
                QueueingHint::Queue,
            ),
            (
                "bound pod freed cpu, target wants memory",
                &mem_only,
                upd,
                Some(bound),
                Some(bound_shrunk),
                QueueingHint::Skip,
            ),
            (
                "unbound pod scaled down",
                &target,
                upd,
                Some(unbound),
                Some(unbound_shrunk),
                QueueingHint::Skip,
            ),
            (
                "target itself scaled down",
                &target,
                upd,
                Some(Arc::new(target.clone())),
                Some(self_shrunk),
                QueueingHint::Queue,
            ),
        ];
        for (name, pod, ev, old, new, want) in cases {
            let got = fit.queueing_hint(&env.cx(), pod, ev, &EventObject::Pod { old, new }).unwrap();
            assert_eq!(got, want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_change_hints() {
        let pod = MakePod::new("p").req(&[("cpu", "2"), ("example.com/foo", "1")]).info();
        let n = |cap: &[(&str, &str)]| MakeNode::new("n").capacity(cap).obj();
        let fits = n(&[("cpu", "4"), ("example.com/foo", "1"), ("pods", "10")]);
        let cases: Vec<(&str, Option<api::Node>, Option<api::Node>, QueueingHint)> = vec![
            ("added node fits", None, Some(fits.clone()), QueueingHint::Queue),
            (
                "added node too small",
                None,
                Some(n(&[("cpu", "1"), ("example.com/foo", "1"), ("pods", "10")])),
                QueueingHint::Skip,
            ),
            (
                "added node lacks the extended resource",
                None,
                Some(n(&[("cpu", "4"), ("pods", "10")])),
                QueueingHint::Skip,
            ),
            (
                "cpu grew",
                Some(n(&[("cpu", "3"), ("example.com/foo", "1"), ("pods", "10")])),
                Some(fits.clone()),
                QueueingHint::Queue,
            ),
            (
                "extended resource grew",
                Some(n(&[("cpu", "4"), ("example.com/foo", "0"), ("pods", "10")])),
                Some(fits.clone()),
                QueueingHint::Queue,
            ),
            (
                "pod slots grew",
                Some(n(&[("cpu", "4"), ("example.com/foo", "1"), ("pods", "5")])),
                Some(fits.clone()),
                QueueingHint::Queue,
            ),
            (
                "only memory grew",
                Some(n(&[("cpu", "4"), ("example.com/foo", "1"), ("pods", "10"), ("memory", "1")])),
                Some(n(&[("cpu", "4"), ("example.com/foo", "1"), ("pods", "10"), ("memory", "2")])),
                QueueingHint::Skip,
            ),
            ("node deleted", Some(fits), None, QueueingHint::Skip),
        ];
        for (name, old, new, want) in cases {
            assert_eq!(is_schedulable_after_node_change(&pod, old.as_ref(), new.as_ref()), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn registers_pod_and_node_events() {
        let fit = Fit::new(&NodeResourcesFitArgs::default());
        let evs = fit.events_to_register();
        let deleted = ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE);
        let added = ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD);
        let node_alloc = ClusterEvent::new(EventResource::Node, ActionType::UPDATE_NODE_ALLOCATABLE);
        let node_label = ClusterEvent::new(EventResource::Node, ActionType::UPDATE_NODE_LABEL);
        assert!(evs.iter().any(|e| e.event.matches(&deleted)));
        assert!(!evs.iter().any(|e| e.event.matches(&added)));
        assert!(evs.iter().any(|e| e.event.matches(&node_alloc)));
        assert!(!evs.iter().any(|e| e.event.matches(&node_label)));
        assert!(evs.iter().all(|e| e.has_hint));
    }
}
