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

pub mod args;
mod go_sort;

use crate::api::{self, IntOrString};
use crate::cluster::Cluster;
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::explain::Explainers;
use crate::framework::registry::Descriptor;
use crate::framework::{
    fit_error_message, Code, Ctx, CycleState, Framework, NodeInfo, NodeToStatus, NominatingInfo, NominatingMode, PickRule, Plugin, PodInfo,
    PostFilterResult, PreemptionCandidate, PreemptionDetail, Status,
};
use crate::labels::Selector;
use crate::rng::Rng;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::DefaultPreemptionArgs;
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

/// The clock upstream reads for a pod without a start time (GetPodStartTime). Pods bound during
/// the run have none in this world (no kubelet sets it), so upstream compares them with
/// `time.Now()`, read afresh at every comparison: each reading is later than every start time
/// the cluster holds and later than the reading before it. `Now` models that: each reading is
/// one tick after the last, and all of them lie after every recorded start time.
#[derive(Debug)]
pub struct Now(std::cell::Cell<i64>);

impl Now {
    pub fn new() -> Now {
        // Start times are nanoseconds since 2025-01-01; this is about 146 years later.
        Now(std::cell::Cell::new(i64::MAX / 2))
    }
    /// The pod's start time, or the clock read now.
    pub fn start_time(&self, p: &PodInfo) -> i64 {
        p.start_time.unwrap_or_else(|| {
            self.0.set(self.0.get() + 1);
            self.0.get()
        })
    }
}

impl Default for Now {
    fn default() -> Now {
        Now::new()
    }
}

/// MoreImportantPod: higher priority, then the earlier start (the first pod's start time read
/// first). Of two pods without start times the first one read is the earlier, so each is "more
/// important" than the other, whichever order they are asked in.
pub fn more_important(now: &Now, a: &PodInfo, b: &PodInfo) -> bool {
    if a.priority != b.priority {
        return a.priority > b.priority;
    }
    let ta = now.start_time(a);
    let tb = now.start_time(b);
    ta < tb
}

/// Orders pods most important first as upstream's `sort.Slice` with MoreImportantPod leaves
/// them (Go's algorithm, since the comparison is not an order when start times are missing).
fn sort_by_importance(pods: &mut [Arc<PodInfo>]) {
    let now = Now::new();
    go_sort::sort_slice(pods, |a, b| more_important(&now, a, b));
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
        statuses.iter().filter(|(_, s)| s.code == code).map(|(i, _)| i).collect()
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
    sort_by_importance(&mut potential);
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
        sort_by_importance(&mut victims);
    }
    Ok((victims, num_violating))
}

/// Picks the candidate to preempt on (upstream pickOneNodeForPreemption): each criterion keeps
/// the best-scoring candidates, and the next one breaks ties among them.
pub fn pick_one_candidate(candidates: &[Candidate]) -> Option<usize> {
    pick_one_candidate_by(candidates).map(|(i, _)| i)
}

/// Like `pick_one_candidate`, with the rule that decided.
pub fn pick_one_candidate_by(candidates: &[Candidate]) -> Option<(usize, PickRule)> {
    match candidates.len() {
        0 => return None,
        1 => return Some((0, PickRule::OnlyCandidate)),
        _ => {}
    }
    let highest = |c: &Candidate| c.victims.first().map(|p| p.priority).unwrap_or(i32::MIN);
    let now = Now::new();
    let criteria: [&dyn Fn(&Candidate) -> i64; 5] = [
        // Fewest PodDisruptionBudget violations.
        &|c| -c.num_pdb_violations,
        // The lowest priority among the most important victims.
        &|c| -(highest(c) as i64),
        // The smallest sum of priorities (shifted to be non-negative).
        &|c| -c.victims.iter().map(|p| p.priority as i64 + (i32::MAX as i64 + 1)).sum::<i64>(),
        // The fewest victims.
        &|c| -(c.victims.len() as i64),
        // The latest start time among the highest-priority victims (GetEarliestPodStartTime):
        // the first victim's, then any earlier one of the same priority. A victim without a
        // start time reads the clock, which is later than any start time: a node whose
        // highest-priority victims all lack one scores the clock's reading, and a later
        // candidate reads a later clock.
        &|c| {
            let Some(first) = c.victims.first() else { return i64::MIN };
            let mut top = first.priority;
            let mut earliest = now.start_time(first);
            for p in &c.victims {
                if p.priority == top {
                    let t = now.start_time(p);
                    if t < earliest {
                        earliest = t;
                    }
                } else if p.priority > top {
                    top = p.priority;
                    earliest = now.start_time(p);
                }
            }
            earliest
        },
    ];
    // Our candidate order stands for upstream's map order: each criterion scores the candidates
    // once, in that order, and keeps those with the best score.
    let mut pool: Vec<usize> = (0..candidates.len()).collect();
    for (f, rule) in criteria.into_iter().zip(PickRule::CRITERIA) {
        let scores: Vec<i64> = pool.iter().map(|&i| f(&candidates[i])).collect();
        let best = *scores.iter().max().expect("non-empty");
        pool = pool.iter().zip(&scores).filter(|&(_, &s)| s == best).map(|(&i, _)| i).collect();
        if pool.len() == 1 {
            return Some((pool[0], rule));
        }
    }
    Some((pool[0], PickRule::FirstOfTie))
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
        DefaultPreemption { args: *args }
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
            if !cx.snapshot.nodes()[idx].pods.iter().any(|p| preemption_allowed(p, pod)) {
                // What select_victims_on_node would find, without copying the node.
                statuses.insert(idx, Status::unresolvable(MSG_NO_VICTIMS));
                continue;
            }
            let mut node = cx.snapshot.nodes()[idx].clone();
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
            statuses.insert(idx, status);
        }
        statuses.settle();
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
        let (best, rule) = pick_one_candidate_by(&candidates).expect("candidates");
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
            rule: Some(rule),
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
        vec![ClusterEventWithHint::hinted(EventResource::Pod, ActionType::DELETE)]
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

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::DefaultPreemption,
    points: ExtensionPoints::of(&[Ep::PreEnqueue, Ep::PostFilter, Ep::EnqueueExtensions]),
    short: "DefaultPreemption",
    args: Some(&args::CODEC),
    new: |args, _| Box::new(DefaultPreemption::new(&args.get_or_default::<DefaultPreemptionArgs>())),
    explain: Explainers::NONE,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{LabelSelector, PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus};
    use crate::cluster::Snapshot;
    use crate::config::{PluginArgs, Profile};
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    fn framework() -> Framework {
        Framework::new(
            Profile::new(
                "default-scheduler",
                None,
                PluginArgs::default(),
                None,
                &crate::version::Features::new(crate::version::KubeVersion::V1_34),
            )
            .unwrap(),
            &crate::plugins::IN_TREE,
        )
    }

    fn node(name: &str, cpu: &str) -> api::Node {
        MakeNode::new(name)
            .capacity(&[("cpu", cpu), ("memory", "32Gi"), ("pods", "110")])
            .obj()
    }

    /// A start time (s) standing for none: a pod bound during the run.
    const UNSTARTED: i64 = -1;

    /// A running pod: name, node, priority, cpu, start time (s, or UNSTARTED), labels.
    fn running(name: &str, node: &str, prio: i32, cpu: &str, start: i64, labels: &[(&str, &str)]) -> Arc<PodInfo> {
        let mut b = MakePod::new(name).node(node).priority(prio).req(&[("cpu", cpu)]);
        for (k, v) in labels {
            b = b.label(k, v);
        }
        let mut info = b.info();
        info.start_time = (start != UNSTARTED).then_some(start * 1000);
        Arc::new(info)
    }

    fn env(nodes: Vec<api::Node>, pods: Vec<Arc<PodInfo>>) -> Env {
        let mut e = Env::new(vec![], vec![]);
        e.snapshot = Snapshot::new(nodes.into_iter().map(Arc::new).collect());
        for p in pods {
            let n = p.node_name().unwrap().to_string();
            e.snapshot.get_mut(&n).unwrap().add_pod(p);
        }
        e
    }

    fn pdb(name: &str, app: &str, allowed: i32) -> PodDisruptionBudget {
        let mut p = PodDisruptionBudget::default();
        p.metadata.name = name.into();
        p.metadata.namespace = Some("default".into());
        p.spec.selector = Some(LabelSelector {
            match_labels: [("app".to_string(), app.to_string())].into(),
            ..Default::default()
        });
        p.status = Some(PodDisruptionBudgetStatus {
            disruptions_allowed: allowed,
            ..Default::default()
        });
        p
    }

    fn names(v: &[Arc<PodInfo>]) -> Vec<&str> {
        v.iter().map(|p| p.name()).collect()
    }

    /// SelectVictimsOnNode on `node-a` after the preemptor's PreFilter.
    fn victims(e: &Env, preemptor: &PodInfo, pdbs: &[PodDisruptionBudget]) -> Result<(Vec<String>, i64), Status> {
        let fw = framework();
        let cx = e.cx();
        let mut state = CycleState::new();
        let (_, s, _) = fw.run_pre_filter(&cx, &mut state, preemptor);
        assert!(s.is_success(), "{s:?}");
        let pdbs: Vec<Pdb> = pdbs.iter().map(Pdb::from_api).collect();
        let mut n = e.node("node-a").clone();
        select_victims_on_node(&cx, &fw, &mut state, preemptor, &mut n, &pdbs)
            .map(|(v, k)| (v.iter().map(|p| p.name().to_string()).collect(), k))
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn victim_selection() {
        let preemptor = |cpu: &str| MakePod::new("p").priority(1000).req(&[("cpu", cpu)]).info();
        // Pods on node-a (4 cpu): name, priority, cpu, start time.
        let on_a = |name: &str, prio: i32, cpu: &str, start: i64| running(name, "node-a", prio, cpu, start, &[]);
        let guarded_and_other = || {
            vec![
                running("guarded", "node-a", 100, "2", 1, &[("app", "g")]),
                on_a("other", 200, "2", 2),
            ]
        };
        struct Case {
            name: &'static str,
            pods: Vec<Arc<PodInfo>>,
            pdbs: Vec<PodDisruptionBudget>,
            /// The preemptor's cpu request.
            cpu: &'static str,
            want: Result<(Vec<&'static str>, i64), &'static str>,
        }
        // No PDBs and a preemptor requesting 2 cpu unless a case says otherwise.
        let base = || Case {
            name: "",
            pods: vec![],
            pdbs: vec![],
            cpu: "2",
            want: Err("unset"),
        };
        let cases = [
            Case {
                name: "the most important pods are reprieved first",
                pods: vec![on_a("p100", 100, "2", 1), on_a("p200", 200, "1", 2), on_a("p300", 300, "1", 3)],
                want: Ok((vec!["p100"], 0)),
                ..base()
            },
            Case {
                name: "several victims, most important first",
                pods: vec![
                    on_a("p100", 100, "1", 1),
                    on_a("p200", 200, "1", 2),
                    on_a("p300", 300, "1", 3),
                    on_a("p5000", 5000, "1", 4),
                ],
                want: Ok((vec!["p200", "p100"], 0)),
                ..base()
            },
            Case {
                name: "equal priority: the older pod is more important and stays",
                pods: vec![on_a("young", 100, "2", 9), on_a("old", 100, "2", 1)],
                want: Ok((vec!["young"], 0)),
                ..base()
            },
            Case {
                // Each comparison reads the clock for both pods, the first one first: each pod
                // is "more important" than the other, and Go's sort reverses them. The last pods
                // on the node are reprieved, the first ones evicted.
                name: "equal priority, no start times (bound during the run): the order reversed",
                pods: vec![
                    on_a("x1", 100, "1", UNSTARTED),
                    on_a("x2", 100, "1", UNSTARTED),
                    on_a("x3", 100, "1", UNSTARTED),
                    on_a("x4", 100, "1", UNSTARTED),
                ],
                want: Ok((vec!["x2", "x1"], 0)),
                ..base()
            },
            Case {
                name: "equal priority: a pod with a start time is older than one without",
                pods: vec![on_a("bound", 100, "2", UNSTARTED), on_a("started", 100, "2", 5)],
                want: Ok((vec!["bound"], 0)),
                ..base()
            },
            Case {
                name: "only pods of higher or equal priority: no victims",
                pods: vec![on_a("eq", 1000, "2", 1), on_a("hi", 2000, "2", 2)],
                want: Err(MSG_NO_VICTIMS),
                ..base()
            },
            Case {
                name: "evicting every lower-priority pod is not enough",
                pods: vec![on_a("lo", 1, "1", 1), on_a("hi", 2000, "3", 2)],
                want: Err("Insufficient cpu"),
                ..base()
            },
            Case {
                name: "a pod protected by a PDB is reprieved before a more important one",
                pods: guarded_and_other(),
                pdbs: vec![pdb("g", "g", 0)],
                want: Ok((vec!["other"], 0)),
                ..base()
            },
            Case {
                name: "without the PDB the less important one goes",
                pods: guarded_and_other(),
                pdbs: vec![pdb("g", "g", 1)],
                want: Ok((vec!["guarded"], 0)),
                ..base()
            },
            Case {
                name: "a needed PDB-protected victim counts as a violation; victims sorted again",
                pods: guarded_and_other(),
                pdbs: vec![pdb("g", "g", 0)],
                cpu: "4",
                want: Ok((vec!["other", "guarded"], 1)),
            },
        ];
        for c in cases {
            let e = env(vec![node("node-a", "4")], c.pods);
            let got = victims(&e, &preemptor(c.cpu), &c.pdbs);
            match (got, c.want) {
                (Ok((v, n)), Ok((wv, wn))) => assert_eq!((v, n), (wv.iter().map(|s| s.to_string()).collect(), wn), "{}", c.name),
                (Err(s), Err(msg)) => assert_eq!(s.message(), msg, "{}", c.name),
                (got, want) => panic!("{}: got {got:?}, want {want:?}", c.name),
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pdb_violation_grouping() {
        let pods = vec![
            running("a1", "node-a", 1, "1", 1, &[("app", "a")]),
            running("a2", "node-a", 1, "1", 2, &[("app", "a")]),
            running("b1", "node-a", 1, "1", 3, &[("app", "b")]),
            running("nolabels", "node-a", 1, "1", 4, &[]),
        ];
        let mut other_ns = pdb("b-elsewhere", "b", 0);
        other_ns.metadata.namespace = Some("other".into());
        let mut empty = pdb("everything", "x", 0);
        empty.spec.selector = Some(LabelSelector::default());
        let mut disrupted = pdb("a", "a", 0);
        disrupted
            .status
            .as_mut()
            .unwrap()
            .disrupted_pods
            .insert("a1".into(), serde_json::Value::Null);
        let cases: [(&str, Vec<PodDisruptionBudget>, Vec<&str>); 4] = [
            (
                "one disruption allowed: the second match violates",
                vec![pdb("a", "a", 1)],
                vec!["a2"],
            ),
            ("other namespaces and empty selectors match nothing", vec![other_ns, empty], vec![]),
            ("pods already disrupted do not count", vec![disrupted], vec!["a2"]),
            (
                "budgets are checked independently",
                vec![pdb("a", "a", 2), pdb("b", "b", 0)],
                vec!["b1"],
            ),
        ];
        for (name, budgets, want) in cases {
            let pdbs: Vec<Pdb> = budgets.iter().map(Pdb::from_api).collect();
            let (violating, ok) = filter_pods_with_pdb_violation(&pods, &pdbs);
            assert_eq!(names(&violating), want, "{name}");
            assert_eq!(violating.len() + ok.len(), pods.len(), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn candidate_choice() {
        // A candidate node: its victims' (priority, start time) and its PDB violations.
        let cand = |name: &str, victims: &[(i32, i64)], pdb: i64| Candidate {
            node: 0,
            name: name.into(),
            victims: victims
                .iter()
                .enumerate()
                .map(|(i, &(prio, start))| running(&format!("{name}{i}"), "n", prio, "1", start, &[]))
                .collect(),
            num_pdb_violations: pdb,
        };
        // Candidates a and b, each as (victims, PDB violations); the candidate expected.
        type Side<'a> = (&'a [(i32, i64)], i64);
        let cases: [(&str, Side, Side, &str); 10] = [
            ("fewest PDB violations first", (&[(1, 1)], 1), (&[(500, 1)], 0), "b"),
            ("lowest highest-priority victim", (&[(300, 1)], 0), (&[(200, 1), (100, 1)], 0), "b"),
            (
                "smallest sum of priorities",
                (&[(200, 1), (150, 1)], 0),
                (&[(200, 1), (100, 1)], 0),
                "b",
            ),
            (
                "negative priorities: fewer pods beat a lower sum",
                (&[(-5, 1), (-5, 1)], 0),
                (&[(-5, 1)], 0),
                "b",
            ),
            ("fewest victims", (&[(10, 1), (0, 1)], 0), (&[(10, 1)], 0), "b"),
            (
                "latest start among the highest-priority victims",
                (&[(10, 5), (10, 50)], 0),
                (&[(10, 7), (10, 8)], 0),
                "b",
            ),
            ("complete tie: the first candidate", (&[(10, 5)], 0), (&[(10, 5)], 0), "a"),
            (
                "a victim without a start time reads the clock: later than any start time",
                (&[(10, UNSTARTED)], 0),
                (&[(10, 5)], 0),
                "a",
            ),
            (
                "an earlier start time of the same priority counts, one without does not",
                (&[(10, UNSTARTED), (10, 5)], 0),
                (&[(10, 7), (10, UNSTARTED)], 0),
                "b",
            ),
            (
                "no start times on either: the clock read later (the later candidate) wins",
                (&[(10, UNSTARTED)], 0),
                (&[(10, UNSTARTED)], 0),
                "b",
            ),
        ];
        let rules = [
            PickRule::FewestPdbViolations,
            PickRule::LowestHighestPriority,
            PickRule::SmallestPrioritySum,
            PickRule::SmallestPrioritySum,
            // Each victim adds 2^31 to the shifted sum, so fewer victims already win at rule 3.
            PickRule::SmallestPrioritySum,
            PickRule::LatestStartTime,
            PickRule::FirstOfTie,
            PickRule::LatestStartTime,
            PickRule::LatestStartTime,
            PickRule::LatestStartTime,
        ];
        for ((name, (a, a_pdb), (b, b_pdb), want), rule) in cases.into_iter().zip(rules) {
            let cands = [cand("a", a, a_pdb), cand("b", b, b_pdb)];
            let (i, by) = pick_one_candidate_by(&cands).unwrap();
            assert_eq!(cands[i].name, want, "{name}");
            assert_eq!(by, rule, "{name}");
        }
        assert_eq!(pick_one_candidate(&[]), None);
        assert_eq!(
            pick_one_candidate_by(&[cand("a", &[(1, 1)], 0)]),
            Some((0, PickRule::OnlyCandidate))
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn num_candidates() {
        let pl = |pct, abs| {
            DefaultPreemption::new(&DefaultPreemptionArgs {
                min_candidate_nodes_percentage: pct,
                min_candidate_nodes_absolute: abs,
            })
        };
        let cases = [
            (10, 100, 5, 5),
            (10, 100, 2000, 200),
            (10, 100, 500, 100),
            (0, 1, 50, 1),
            (50, 0, 7, 3),
        ];
        for (pct, abs, nodes, want) in cases {
            assert_eq!(pl(pct, abs).num_candidates(nodes), want, "{pct}% / {abs} of {nodes}");
        }
    }

    fn post_filter(e: &Env, pod: &PodInfo, statuses: &NodeToStatus) -> (Option<PostFilterResult>, Status) {
        let fw = framework();
        let cx = e.cx();
        let mut state = CycleState::new();
        fw.run_pre_filter(&cx, &mut state, pod);
        let pl = DefaultPreemption::new(&DefaultPreemptionArgs::default());
        pl.post_filter(&cx, &fw, &state, pod, statuses, &mut Rng::new(1))
    }

    fn insufficient_cpu(nodes: &[usize]) -> NodeToStatus {
        let mut s = NodeToStatus::default();
        for &i in nodes {
            s.insert(
                i,
                Status::unschedulable("Insufficient cpu").with_plugin(PluginName::NodeResourcesFit),
            );
        }
        s
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn post_filter_outcomes() {
        let nodes = || vec![node("node-a", "4"), node("node-b", "4")];
        let urgent = || MakePod::new("urgent").priority(1000).req(&[("cpu", "2")]);

        // preemptionPolicy Never.
        let e = env(nodes(), vec![running("lo", "node-a", 1, "3", 1, &[])]);
        let (r, s) = post_filter(&e, &urgent().preempt_never().info(), &insufficient_cpu(&[0, 1]));
        assert!(r.is_none());
        assert_eq!(s.code, Code::Unschedulable);
        assert_eq!(s.message(), "preemption: not eligible due to preemptionPolicy=Never.");

        // No lower-priority pod on the only node where preemption might help.
        let e = env(nodes(), vec![running("hi", "node-a", 5000, "3", 1, &[])]);
        let mut statuses = insufficient_cpu(&[0]);
        statuses.insert(1, Status::unresolvable("node(s) had untolerated taint {a: b}"));
        let (r, s) = post_filter(&e, &urgent().info(), &statuses);
        assert_eq!(s.code, Code::Unschedulable);
        assert_eq!(
            s.message(),
            "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."
        );
        let r = r.unwrap();
        assert_eq!(r.nominating.unwrap().nominated_node_name, "");
        assert!(r.victims.is_empty());

        // Nowhere to preempt at all.
        let mut statuses = NodeToStatus::default();
        statuses.absent = Status::unresolvable("node(s) didn't match Pod's node affinity/selector");
        let (_, s) = post_filter(&e, &urgent().info(), &statuses);
        assert_eq!(
            s.message(),
            "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
        );

        // Success: the node whose victims matter least.
        let e = env(
            nodes(),
            vec![
                running("lo", "node-a", 100, "3", 1, &[]),
                running("mid", "node-b", 500, "3", 2, &[]),
            ],
        );
        let (r, s) = post_filter(&e, &urgent().info(), &insufficient_cpu(&[0, 1]));
        assert!(s.is_success(), "{s:?}");
        assert_eq!(s.message(), "");
        let r = r.unwrap();
        assert_eq!(r.nominating.unwrap().nominated_node_name, "node-a");
        assert_eq!(r.victims, ["default/lo"]);
        let d = r.detail.unwrap();
        assert_eq!(d.chosen.as_deref(), Some("node-a"));
        assert_eq!(d.candidates.len(), 2);

        // A PDB steers the choice to the node without violations.
        let mut e = env(
            nodes(),
            vec![
                running("guarded", "node-a", 100, "3", 1, &[("app", "g")]),
                running("mid", "node-b", 500, "3", 2, &[]),
            ],
        );
        e.cluster.pdbs.push(pdb("g", "g", 0));
        let (r, _) = post_filter(&e, &urgent().info(), &insufficient_cpu(&[0, 1]));
        assert_eq!(r.unwrap().victims, ["default/mid"]);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn nominated_node_eligibility() {
        let mut victim = MakePod::new("leaving").node("node-a").priority(1).req(&[("cpu", "3")]).obj();
        victim.metadata.deletion_timestamp = Some(Box::new(serde_json::json!("2025-01-01T00:00:10Z")));
        victim.status.conditions = Some(Box::new(serde_json::json!([
            {"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}
        ])));
        let e = env(
            vec![node("node-a", "4"), node("node-b", "4")],
            vec![Arc::new(PodInfo::new(victim, 0))],
        );
        let mut pod = MakePod::new("urgent").priority(1000).req(&[("cpu", "2")]).obj();
        pod.status.nominated_node_name = Some("node-a".into());
        let pod = PodInfo::new(pod, 1);
        let pl = DefaultPreemption::new(&DefaultPreemptionArgs::default());
        assert_eq!(
            pl.eligible(&e.cx(), &pod, &insufficient_cpu(&[0, 1])),
            Err(MSG_NOT_ELIGIBLE_TERMINATING)
        );
        // The nominated node is out of reach for good: preempt elsewhere.
        let mut statuses = insufficient_cpu(&[1]);
        statuses.insert(0, Status::unresolvable("node(s) were unschedulable"));
        assert_eq!(pl.eligible(&e.cx(), &pod, &statuses), Ok(()));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pdb_status_from_running_pods() {
        let budget = |min: Option<IntOrString>, max: Option<IntOrString>| PodDisruptionBudget {
            metadata: api::ObjectMeta {
                name: "b".into(),
                namespace: Some("default".into()),
                ..Default::default()
            },
            spec: PodDisruptionBudgetSpec {
                min_available: min,
                max_unavailable: max,
                selector: Some(LabelSelector {
                    match_labels: [("app".to_string(), "w".to_string())].into(),
                    ..Default::default()
                }),
                ..Default::default()
            },
            ..Default::default()
        };
        let pods: Vec<Arc<PodInfo>> = (0..3)
            .map(|i| running(&format!("w{i}"), "node-a", 0, "1", i, &[("app", "w")]))
            .chain([running("x", "node-a", 0, "1", 9, &[("app", "x")])])
            .collect();
        let pct = |s: &str| Some(IntOrString::String(s.into()));
        let int = |i: i64| Some(IntOrString::Int(i));
        let cases = [
            ("minAvailable 1", budget(int(1), None), 2, 1),
            ("minAvailable 50% rounds up to 2", budget(pct("50%"), None), 1, 2),
            ("maxUnavailable 1", budget(None, int(1)), 1, 2),
            ("maxUnavailable 50% rounds up to 2", budget(None, pct("50%")), 2, 1),
            ("minAvailable above the pods", budget(int(5), None), 0, 5),
        ];
        for (name, b, allowed, desired) in cases {
            let mut c = Cluster::default();
            c.pdbs.push(b);
            fill_pdb_statuses(&mut c, &pods);
            let s = c.pdbs[0].status.as_ref().unwrap();
            assert_eq!(
                (s.disruptions_allowed, s.desired_healthy, s.expected_pods),
                (allowed, desired, 3),
                "{name}"
            );
        }
        // A stated status is kept.
        let mut c = Cluster::default();
        c.pdbs.push(pdb("given", "w", 7));
        fill_pdb_statuses(&mut c, &pods);
        assert_eq!(c.pdbs[0].status.as_ref().unwrap().disruptions_allowed, 7);
    }
}
