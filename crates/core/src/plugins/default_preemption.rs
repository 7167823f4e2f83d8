//! DefaultPreemption (PostFilter, PreEnqueue): when a pod fits on no node, look for nodes where
//! evicting pods of lower priority would make room, pick the best of them, and nominate the pod
//! there; the engine then deletes the victims.
//!
//! The search follows kube-scheduler v1.34 (plugins/defaultpreemption and framework/preemption):
//! only nodes whose filter status was plain `Unschedulable` are tried, starting at a random
//! offset, until enough candidates are found (minCandidateNodesPercentage/Absolute, and at
//! least one that violates no PodDisruptionBudget). On each node every lower-priority pod is
//! removed, the filters are re-run, and then pods are put back ("reprieved"), the most important
//! first and those whose eviction would violate a PodDisruptionBudget before the others, as long
//! as the preemptor still fits. The chosen node has, in order: the fewest PDB violations, the
//! lowest highest-priority victim, the smallest sum of victim priorities, the fewest victims,
//! the latest start among its highest-priority victims; then the first candidate.
//!
//! Preemption is asynchronous upstream (the victims are deleted in the background while the
//! preemptor waits, gated at PreEnqueue). In the simulation preemption runs to completion before
//! the next pop, so no pod is ever waiting on its own preemption when PreEnqueue runs.

use crate::api::{self, IntOrString};
use crate::cluster::Cluster;
use crate::config::DefaultPreemptionArgs;
use crate::engine::fit_error_message;
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::{
    Code, Ctx, CycleState, Framework, NodeInfo, NodeToStatus, NominatingInfo, NominatingMode, Plugin, PodInfo, PostFilterResult,
    PreemptionCandidate, PreemptionDetail, Status,
};
use crate::labels::Selector;
use crate::plugins::PluginName;
use crate::rng::Rng;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const MSG_NOT_ELIGIBLE_NEVER: &str = "not eligible due to preemptionPolicy=Never.";
pub const MSG_NOT_ELIGIBLE_TERMINATING: &str = "not eligible due to a terminating pod on the nominated node.";
pub const MSG_NO_VICTIMS: &str = "No preemption victims found for incoming pod";
pub const MSG_NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";

pub struct DefaultPreemption {
    args: DefaultPreemptionArgs,
}

/// A node where preemption would let the pod fit, with the pods to evict there.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Position of the node in the snapshot.
    pub node: usize,
    pub name: String,
    /// Most important first.
    pub victims: Vec<Arc<PodInfo>>,
    pub num_pdb_violations: i64,
}

/// A PodDisruptionBudget as preemption reads it.
#[derive(Clone, Debug)]
pub struct Pdb<'a> {
    namespace: &'a str,
    /// `None`: selects nothing (an absent, empty or invalid selector).
    selector: Option<Selector>,
    disruptions_allowed: i32,
    disrupted_pods: Option<&'a BTreeMap<String, api::Opaque>>,
}

impl<'a> Pdb<'a> {
    pub fn from_api(p: &'a api::PodDisruptionBudget) -> Pdb<'a> {
        let selector = Selector::from_label_selector(p.spec.selector.as_ref())
            .ok()
            .filter(|s| !s.is_nothing() && !s.is_everything());
        Pdb {
            namespace: p.metadata.namespace.as_deref().unwrap_or("default"),
            selector,
            disruptions_allowed: p.status.as_ref().map(|s| s.disruptions_allowed).unwrap_or(0),
            disrupted_pods: p.status.as_ref().map(|s| &s.disrupted_pods),
        }
    }
}

/// The priority of a pod whose eviction the preemptor may ask for: strictly lower.
fn preemption_allowed(victim: &PodInfo, preemptor: &PodInfo) -> bool {
    victim.priority < preemptor.priority
}

/// A pod without a start time counts as starting now, after every pod that has one.
fn start_time(p: &PodInfo) -> i64 {
    p.start_time.unwrap_or(i64::MAX)
}

/// MoreImportantPod: higher priority, then the earlier start.
pub fn more_important(a: &PodInfo, b: &PodInfo) -> bool {
    if a.priority != b.priority {
        return a.priority > b.priority;
    }
    start_time(a) < start_time(b)
}

fn importance_order(a: &Arc<PodInfo>, b: &Arc<PodInfo>) -> Ordering {
    if more_important(a, b) {
        Ordering::Less
    } else if more_important(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// Whether the pod is being deleted because of an earlier preemption.
fn terminating_by_preemption(p: &PodInfo) -> bool {
    if p.pod.metadata.deletion_timestamp.is_none() {
        return false;
    }
    let Some(conds) = p.pod.status.conditions.as_ref().and_then(|c| c.as_array()) else {
        return false;
    };
    for c in conds {
        if c.get("type").and_then(|t| t.as_str()) == Some("DisruptionTarget") {
            return c.get("status").and_then(|s| s.as_str()) == Some("True")
                && c.get("reason").and_then(|s| s.as_str()) == Some("PreemptionByScheduler");
        }
    }
    false
}

/// Splits pods (keeping their order) into those whose eviction would violate a
/// PodDisruptionBudget, given the evictions before them in the list, and the others.
pub fn filter_pods_with_pdb_violation(pods: &[Arc<PodInfo>], pdbs: &[Pdb]) -> (Vec<Arc<PodInfo>>, Vec<Arc<PodInfo>>) {
    let mut allowed: Vec<i32> = pdbs.iter().map(|p| p.disruptions_allowed).collect();
    let (mut violating, mut ok) = (Vec::new(), Vec::new());
    for p in pods {
        let mut violated = false;
        if !p.labels().is_empty() {
            for (i, pdb) in pdbs.iter().enumerate() {
                if pdb.namespace != p.namespace() {
                    continue;
                }
                let Some(sel) = &pdb.selector else { continue };
                if !sel.matches(p.labels()) {
                    continue;
                }
                // Already counted by the API server as disrupted.
                if pdb.disrupted_pods.is_some_and(|d| d.contains_key(p.name())) {
                    continue;
                }
                allowed[i] -= 1;
                if allowed[i] < 0 {
                    violated = true;
                }
            }
        }
        if violated {
            violating.push(p.clone());
        } else {
            ok.push(p.clone());
        }
    }
    (violating, ok)
}

/// Nodes whose status has exactly this code (upstream NodesForStatusCode), in snapshot order.
fn nodes_for_status_code(statuses: &NodeToStatus, num_nodes: usize, code: Code) -> Vec<usize> {
    if statuses.absent.code == code {
        (0..num_nodes).filter(|&i| statuses.get(i).code == code).collect()
    } else {
        statuses.map.iter().filter(|(_, s)| s.code == code).map(|(&i, _)| i).collect()
    }
}

/// Finds the fewest pods to evict from `node` for `pod` to fit there. `state` and `node` are the
/// caller's copies and are modified. Returns the victims (most important first) and how many of
/// them violate a PodDisruptionBudget.
pub fn select_victims_on_node(
    cx: &Ctx,
    fw: &Framework,
    state: &mut CycleState,
    pod: &PodInfo,
    node: &mut NodeInfo,
    pdbs: &[Pdb],
) -> Result<(Vec<Arc<PodInfo>>, i64), Status> {
    fn remove(
        cx: &Ctx,
        fw: &Framework,
        state: &mut CycleState,
        pod: &PodInfo,
        node: &mut NodeInfo,
        p: &Arc<PodInfo>,
    ) -> Result<(), Status> {
        node.remove_pod(&p.key);
        let s = fw.run_pre_filter_extension_remove_pod(cx, state, pod, p, node);
        if s.is_success() {
            Ok(())
        } else {
            Err(Status::error(s.message()))
        }
    }
    fn add(cx: &Ctx, fw: &Framework, state: &mut CycleState, pod: &PodInfo, node: &mut NodeInfo, p: &Arc<PodInfo>) -> Result<(), Status> {
        node.add_pod(p.clone());
        let s = fw.run_pre_filter_extension_add_pod(cx, state, pod, p, node);
        if s.is_success() {
            Ok(())
        } else {
            Err(Status::error(s.message()))
        }
    }

    // Remove every pod that may be preempted, then check the pod fits without them.
    let mut potential: Vec<Arc<PodInfo>> = node.pods.iter().filter(|p| preemption_allowed(p, pod)).cloned().collect();
    for p in &potential {
        remove(cx, fw, state, pod, node, p)?;
    }
    if potential.is_empty() {
        return Err(Status::unresolvable(MSG_NO_VICTIMS));
    }
    let s = fw.run_filter_with_nominated_pods(cx, state, pod, node);
    if !s.is_success() {
        return Err(s);
    }

    // Put pods back, most important first, PDB-violating ones before the others, while the pod
    // still fits.
    potential.sort_by(importance_order);
    let (violating, non_violating) = filter_pods_with_pdb_violation(&potential, pdbs);
    let mut victims: Vec<Arc<PodInfo>> = Vec::new();
    let mut num_violating = 0;
    let reprieve =
        |state: &mut CycleState, node: &mut NodeInfo, p: &Arc<PodInfo>, victims: &mut Vec<Arc<PodInfo>>| -> Result<bool, Status> {
            add(cx, fw, state, pod, node, p)?;
            let fits = fw.run_filter_with_nominated_pods(cx, state, pod, node).is_success();
            if !fits {
                remove(cx, fw, state, pod, node, p)?;
                victims.push(p.clone());
            }
            Ok(fits)
        };
    for p in &violating {
        if !reprieve(state, node, p, &mut victims)? {
            num_violating += 1;
        }
    }
    for p in &non_violating {
        reprieve(state, node, p, &mut victims)?;
    }
    if !violating.is_empty() && !non_violating.is_empty() {
        victims.sort_by(importance_order);
    }
    Ok((victims, num_violating))
}

/// Picks the candidate to preempt on (upstream pickOneNodeForPreemption): each criterion keeps
/// the best-scoring candidates, and the next one breaks ties among them.
pub fn pick_one_candidate(candidates: &[Candidate]) -> Option<usize> {
    if candidates.is_empty() {
        return None;
    }
    let highest = |c: &Candidate| c.victims.first().map(|p| p.priority).unwrap_or(i32::MIN);
    let criteria: [&dyn Fn(&Candidate) -> i64; 5] = [
        // Fewest PodDisruptionBudget violations.
        &|c| -c.num_pdb_violations,
        // The lowest priority among the most important victims.
        &|c| -(highest(c) as i64),
        // The smallest sum of priorities (shifted to be non-negative).
        &|c| -c.victims.iter().map(|p| p.priority as i64 + (i32::MAX as i64 + 1)).sum::<i64>(),
        // The fewest victims.
        &|c| -(c.victims.len() as i64),
        // The latest start time among the highest-priority victims.
        &|c| {
            let top = highest(c);
            c.victims
                .iter()
                .filter(|p| p.priority == top)
                .map(|p| start_time(p))
                .min()
                .unwrap_or(i64::MIN)
        },
    ];
    let mut pool: Vec<usize> = (0..candidates.len()).collect();
    for f in criteria {
        let best = pool.iter().map(|&i| f(&candidates[i])).max().expect("non-empty");
        pool.retain(|&i| f(&candidates[i]) == best);
        if pool.len() == 1 {
            break;
        }
    }
    Some(pool[0])
}

/// Errors joined the way Kubernetes prints an error aggregate (duplicates dropped).
fn aggregate_errors(errs: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for e in errs {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    if errs.len() == 1 || seen.len() == 1 {
        return seen[0].to_string();
    }
    format!("[{}]", seen.join(", "))
}

impl DefaultPreemption {
    pub fn new(args: &DefaultPreemptionArgs) -> DefaultPreemption {
        DefaultPreemption { args: args.clone() }
    }

    /// How many candidates the dry run looks for among `num_nodes` potential nodes.
    pub fn num_candidates(&self, num_nodes: usize) -> usize {
        let n = num_nodes as i64;
        let mut c = n * self.args.min_candidate_nodes_percentage as i64 / 100;
        c = c.max(self.args.min_candidate_nodes_absolute as i64);
        c.min(n).max(0) as usize
    }

    /// PodEligibleToPreemptOthers.
    fn eligible(&self, cx: &Ctx, pod: &PodInfo, statuses: &NodeToStatus) -> Result<(), &'static str> {
        if pod.preemption_policy_never() {
            return Err(MSG_NOT_ELIGIBLE_NEVER);
        }
        if let Some(nnn) = pod.nominated_node_name() {
            let status = match cx.snapshot.position(nnn) {
                Some(i) => statuses.get(i),
                None => &statuses.absent,
            };
            // Filters ruled the nominated node out for good: look for another one.
            if status.code == Code::UnschedulableAndUnresolvable {
                return Ok(());
            }
            if let Some(ni) = cx.snapshot.get(nnn) {
                if ni.pods.iter().any(|p| preemption_allowed(p, pod) && terminating_by_preemption(p)) {
                    return Err(MSG_NOT_ELIGIBLE_TERMINATING);
                }
            }
        }
        Ok(())
    }

    /// DryRunPreemption: tries the potential nodes from `offset` on until `want` candidates are
    /// found, at least one of them without PDB violations. Returns the candidates (non-violating
    /// first), the statuses of the nodes that are not candidates, and the errors met.
    #[allow(clippy::too_many_arguments)]
    pub fn dry_run(
        &self,
        cx: &Ctx,
        fw: &Framework,
        state: &CycleState,
        pod: &PodInfo,
        potential: &[usize],
        pdbs: &[Pdb],
        offset: usize,
        want: usize,
    ) -> (Vec<Candidate>, NodeToStatus, Vec<String>) {
        let mut non_violating: Vec<Candidate> = Vec::new();
        let mut violating: Vec<Candidate> = Vec::new();
        let mut statuses = NodeToStatus::default();
        let mut errs = Vec::new();
        for i in 0..potential.len() {
            let idx = potential[(offset + i) % potential.len()];
            let mut node = cx.snapshot.nodes[idx].clone();
            let mut st = state.clone();
            let name = node.name().to_string();
            let result = select_victims_on_node(cx, fw, &mut st, pod, &mut node, pdbs);
            let status = match result {
                Ok((victims, n)) if !victims.is_empty() => {
                    let c = Candidate {
                        node: idx,
                        name,
                        victims,
                        num_pdb_violations: n,
                    };
                    let list = if n == 0 { &mut non_violating } else { &mut violating };
                    if list.len() < want {
                        list.push(c);
                    }
                    if !non_violating.is_empty() && non_violating.len() + violating.len() >= want {
                        break;
                    }
                    continue;
                }
                Ok(_) => Status::error(format!("expected at least one victim pod on node {name:?}")),
                Err(s) => s,
            };
            if status.code == Code::Error {
                errs.push(status.message());
            }
            statuses.map.insert(idx, status);
        }
        non_violating.extend(violating);
        (non_violating, statuses, errs)
    }

    /// Evaluator.Preempt: the result and status before the "preemption: " prefix.
    fn preempt(
        &self,
        cx: &Ctx,
        fw: &Framework,
        state: &CycleState,
        pod: &PodInfo,
        statuses: &NodeToStatus,
        rng: &mut Rng,
    ) -> (Option<PostFilterResult>, Status) {
        if let Err(msg) = self.eligible(cx, pod, statuses) {
            return (None, Status::unschedulable(msg));
        }
        let num_all = cx.snapshot.len();
        if num_all == 0 {
            return (None, Status::error("no nodes available"));
        }
        let potential = nodes_for_status_code(statuses, num_all, Code::Unschedulable);
        let (candidates, node_statuses, errs) = if potential.is_empty() {
            (Vec::new(), NodeToStatus::default(), Vec::new())
        } else {
            let pdbs: Vec<Pdb> = cx.cluster.pdbs.iter().map(Pdb::from_api).collect();
            let offset = rng.below(potential.len() as u64) as usize;
            let want = self.num_candidates(potential.len());
            self.dry_run(cx, fw, state, pod, &potential, &pdbs, offset, want)
        };
        if candidates.is_empty() {
            if !errs.is_empty() {
                return (None, Status::error(aggregate_errors(&errs)));
            }
            let mut node_statuses = node_statuses;
            node_statuses.absent = Status::unresolvable(MSG_NOT_HELPFUL);
            let msg = fit_error_message(num_all, "", &node_statuses, "");
            // Clear the pod's nominated node, if it has one.
            let result = PostFilterResult {
                nominating: Some(NominatingInfo {
                    mode: NominatingMode::Override,
                    nominated_node_name: String::new(),
                }),
                victims: Vec::new(),
                detail: Some(PreemptionDetail::default()),
            };
            return (Some(result), Status::unschedulable(msg));
        }
        let best = if candidates.len() == 1 {
            0
        } else {
            pick_one_candidate(&candidates).expect("candidates")
        };
        let chosen = &candidates[best];
        let detail = PreemptionDetail {
            candidates: candidates
                .iter()
                .map(|c| PreemptionCandidate {
                    node: c.name.clone(),
                    victims: c.victims.iter().map(|p| p.key.clone()).collect(),
                    num_pdb_violations: c.num_pdb_violations,
                })
                .collect(),
            chosen: Some(chosen.name.clone()),
        };
        let result = PostFilterResult {
            nominating: Some(NominatingInfo {
                mode: NominatingMode::Override,
                nominated_node_name: chosen.name.clone(),
            }),
            victims: chosen.victims.iter().map(|p| p.key.clone()).collect(),
            detail: Some(detail),
        };
        (Some(result), Status::success())
    }
}

impl Plugin for DefaultPreemption {
    fn name(&self) -> PluginName {
        PluginName::DefaultPreemption
    }

    /// Upstream gates a pod while its own asynchronous preemption is still deleting victims. Here
    /// preemption completes within the cycle that started it, so the pod is never gated.
    fn pre_enqueue(&self, _cx: &Ctx, _pod: &PodInfo) -> Status {
        Status::success()
    }

    /// Pod deletions may un-gate a pod waiting for its preemption; the hint leaves the decision
    /// to the plugins whose rejection the preemption addresses.
    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![ClusterEventWithHint {
            event: ClusterEvent::new(EventResource::Pod, ActionType::DELETE),
            has_hint: true,
        }]
    }

    fn queueing_hint(&self, _cx: &Ctx, _pod: &PodInfo, _event: ClusterEvent, _obj: &EventObject) -> Result<QueueingHint, String> {
        Ok(QueueingHint::Skip)
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
        let (result, status) = self.preempt(cx, fw, state, pod, statuses, rng);
        let msg = status.message();
        if msg.is_empty() {
            return (result, status);
        }
        (result, Status::new(status.code, format!("preemption: {msg}")))
    }
}

/// Rounds a PDB's int-or-percent against the number of pods (percentages rounded up).
fn scaled(v: &IntOrString, total: i64) -> i64 {
    match v {
        IntOrString::Int(i) => *i,
        IntOrString::String(s) => {
            let pct: i64 = s.trim_end_matches('%').parse().unwrap_or(0);
            (pct * total + 99) / 100
        }
    }
}

/// Gives every PodDisruptionBudget declared without a status the one the disruption controller
/// would compute once from the running pods it selects (all healthy): expected = healthy =
/// the matching pods; desired from minAvailable, or from maxUnavailable (expected minus it),
/// percentages rounded up; disruptionsAllowed = healthy - desired, at least 0, and 0 when no pod
/// matches or the budget sets neither field. Budgets that state a status keep it.
pub fn fill_pdb_statuses(cluster: &mut Cluster, running: &[Arc<PodInfo>]) {
    for pdb in cluster.pdbs.iter_mut().filter(|p| p.status.is_none()) {
        let ns = pdb.metadata.namespace.as_deref().unwrap_or("default");
        let selector = Selector::from_label_selector(pdb.spec.selector.as_ref()).unwrap_or(Selector::Nothing);
        let expected = running
            .iter()
            .filter(|p| p.namespace() == ns && selector.matches(p.labels()))
            .count() as i64;
        let healthy = expected;
        let desired = match (&pdb.spec.max_unavailable, &pdb.spec.min_available) {
            (Some(mu), _) => (expected - scaled(mu, expected)).max(0),
            (None, Some(ma)) => scaled(ma, expected),
            (None, None) => expected,
        };
        let allowed = if expected == 0 { 0 } else { (healthy - desired).max(0) };
        pdb.status = Some(api::PodDisruptionBudgetStatus {
            disruptions_allowed: allowed as i32,
            current_healthy: healthy as i32,
            desired_healthy: desired as i32,
            expected_pods: expected as i32,
            ..Default::default()
        });
    }
}
