//! One profile's framework: its plugin instances and the code that runs each extension point
//! the way upstream's frameworkImpl does (ordering, Skip handling, status plumbing).

use super::interface::*;
use super::profile::Profile;
use super::registry::{Descriptor, Registry};
use super::{Code, CycleState, NodeInfo, PodInfo, Reasons, Status};
use crate::vocabulary::{PluginName, PluginSet};
use std::sync::Arc;

pub struct Framework {
    pub profile: Profile,
    /// Where plugins are built from and described (the in-tree registry, or a test's).
    registry: &'static Registry,
    /// Instances indexed by `PluginName as usize` (only those the profile uses are present).
    instances: Vec<Option<Box<dyn Plugin>>>,
}

/// One plugin's scores for the scored nodes, before and after normalization and weighting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginScores {
    pub plugin: PluginName,
    pub weight: i64,
    /// Raw Score() results, aligned with the scored nodes.
    pub raw: Vec<i64>,
    /// After NormalizeScore (equal to raw when the plugin has none).
    pub normalized: Vec<i64>,
}

/// The outcome of the Score phase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreResult {
    pub plugins: Vec<PluginScores>,
    /// Weighted totals, aligned with the scored nodes.
    pub totals: Vec<i64>,
}

/// The buffers a scoring pass works in, kept from one pass to the next by a caller that
/// scores every cycle (the engine): a pass then allocates nothing for them. Contents are not
/// carried over. `totals` is where the next pass's `ScoreResult::totals` comes from; a
/// caller done with a result may put its totals back.
#[derive(Clone, Debug, Default)]
pub struct ScoreBuffers {
    raw: Vec<i64>,
    scores: Vec<NodeScore>,
    normalized: Vec<i64>,
    pub totals: Vec<i64>,
}

impl Framework {
    pub fn new(profile: Profile, registry: &'static Registry) -> Framework {
        let mut instances: Vec<Option<Box<dyn Plugin>>> = (0..PluginName::ALL.len()).map(|_| None).collect();
        // Every plugin the profile enables is instantiated (its cluster events count for
        // queueing even when it runs at no extension point), as upstream does.
        for p in profile.needed_plugins().into_iter().chain(profile.plugins.all()) {
            if instances[p as usize].is_none() {
                instances[p as usize] = Some((registry.get(p).new)(&profile.args, &profile.features));
            }
        }
        Framework {
            profile,
            registry,
            instances,
        }
    }

    /// What the registry says of a plugin.
    pub fn descriptor(&self, p: PluginName) -> &'static Descriptor {
        self.registry.get(p)
    }

    pub fn name(&self) -> &str {
        &self.profile.scheduler_name
    }

    #[inline]
    pub fn plugin(&self, p: PluginName) -> &dyn Plugin {
        self.instances[p as usize].as_deref().expect("the profile uses this plugin")
    }

    /// Replaces (or adds) one plugin's instance, keyed by its name: a stand-in for tests and
    /// tools. The profile's plugin lists are unchanged.
    pub fn set_instance(&mut self, p: Box<dyn Plugin>) {
        let i = p.name() as usize;
        self.instances[i] = Some(p);
    }

    /// Every plugin instance (for queueing hints).
    pub fn instances(&self) -> impl Iterator<Item = (PluginName, &dyn Plugin)> {
        self.instances
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_deref().map(|p| (PluginName::ALL[i], p)))
    }

    pub fn has_filter_plugins(&self) -> bool {
        !self.profile.plugins.filter.is_empty()
    }
    pub fn has_post_filter_plugins(&self) -> bool {
        !self.profile.plugins.post_filter.is_empty()
    }
    pub fn has_score_plugins(&self) -> bool {
        !self.profile.plugins.score.is_empty()
    }
    pub fn weight(&self, p: PluginName) -> i64 {
        self.profile.weights.get(&p).copied().unwrap_or(1) as i64
    }

    /// PreEnqueue: the first plugin that does not return Success gates the pod.
    pub fn run_pre_enqueue(&self, cx: &Ctx, pod: &PodInfo) -> Status {
        for &p in &self.profile.plugins.pre_enqueue {
            let s = self.plugin(p).pre_enqueue(cx, pod);
            if !s.is_success() {
                return s.with_plugin(p);
            }
        }
        Status::success()
    }

    /// The profile's QueueSort plugin (the queue resolves it once and calls its `less`).
    pub fn queue_sort_plugin(&self) -> &dyn Plugin {
        self.plugin(self.profile.plugins.queue_sort[0])
    }

    /// PreFilter. Returns the merged node narrowing, the status, and the plugins that narrowed
    /// (upstream's "unschedulable plugins" when the narrowing leaves nothing).
    pub fn run_pre_filter(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status, PluginSet) {
        let mut result: Option<PreFilterResult> = None;
        let mut with_nodes = PluginSet::default();
        let mut ret = Status::success();
        let mut skip = PluginSet::default();
        for &p in &self.profile.plugins.pre_filter {
            let (r, s) = self.plugin(p).pre_filter(cx, state, pod);
            if s.is_skip() {
                skip.insert(p);
                continue;
            }
            if !s.is_success() {
                let s = s.with_plugin(p);
                match s.code {
                    Code::UnschedulableAndUnresolvable => {
                        state.skip_filter = skip;
                        return (None, s, PluginSet::default());
                    }
                    Code::Unschedulable => {
                        ret = s;
                        continue;
                    }
                    _ => {
                        state.skip_filter = skip;
                        let msg = format!("running PreFilter plugin {:?}: {}", p.as_str(), s.message());
                        return (None, Status::error(msg).with_plugin(p), PluginSet::default());
                    }
                }
            }
            if r.as_ref().is_some_and(|r| !r.all_nodes()) {
                with_nodes.insert(p);
            }
            let merged = result.take().unwrap_or_default().merge(r);
            let empty = merged.node_names.as_ref().is_some_and(|n| n.is_empty());
            result = Some(merged);
            if empty {
                let names = with_nodes.sorted_names();
                let msg = if names.len() == 1 {
                    format!("node(s) didn't satisfy plugin {}", names[0])
                } else {
                    format!("node(s) didn't satisfy plugin(s) [{}] simultaneously", names.join(" "))
                };
                state.skip_filter = skip;
                return (result, Status::unresolvable(msg), with_nodes);
            }
        }
        state.skip_filter = skip;
        state.filter_plan = Some((
            skip,
            self.profile.plugins.filter.iter().copied().filter(|p| !skip.contains(*p)).collect(),
        ));
        (result, ret, with_nodes)
    }

    pub fn run_pre_filter_extension_add_pod(
        &self,
        cx: &Ctx,
        state: &mut CycleState,
        pod: &PodInfo,
        to_add: &Arc<PodInfo>,
        node: &NodeInfo,
    ) -> Status {
        self.run_pre_filter_extension("AddPod", state, |pl, state| pl.add_pod(cx, state, pod, to_add, node))
    }

    pub fn run_pre_filter_extension_remove_pod(
        &self,
        cx: &Ctx,
        state: &mut CycleState,
        pod: &PodInfo,
        to_remove: &Arc<PodInfo>,
        node: &NodeInfo,
    ) -> Status {
        self.run_pre_filter_extension("RemovePod", state, |pl, state| pl.remove_pod(cx, state, pod, to_remove, node))
    }

    /// Runs `call` (AddPod or RemovePod, named `what`) on the PreFilter plugins with extensions
    /// that did not skip; stops at the first failure, as an error.
    fn run_pre_filter_extension(
        &self,
        what: &str,
        state: &mut CycleState,
        call: impl Fn(&dyn Plugin, &mut CycleState) -> Status,
    ) -> Status {
        for &p in &self.profile.plugins.pre_filter {
            if state.skip_filter.contains(p) {
                continue;
            }
            let pl = self.plugin(p);
            if !pl.has_pre_filter_extensions() {
                continue;
            }
            let s = call(pl, state);
            if !s.is_success() {
                return Status::error(format!("running {what} on PreFilter plugin {:?}: {}", p.as_str(), s.message())).with_plugin(p);
            }
        }
        Status::success()
    }

    /// Filter: stops at the first plugin that does not pass.
    pub fn run_filter(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        // The plan (Filter plugins minus those skipped) is made once per cycle by PreFilter.
        let plan: &[PluginName] = match &state.filter_plan {
            Some((skip, plan)) if *skip == state.skip_filter => plan,
            _ => &self.profile.plugins.filter,
        };
        for &p in plan {
            if state.skip_filter.contains(p) {
                continue;
            }
            let s = self.plugin(p).filter(cx, state, pod, node);
            if !s.is_success() {
                let s = if s.is_rejected() {
                    s
                } else {
                    Status::error(format!("running {:?} filter plugin: {}", p.as_str(), s.message()))
                };
                return s.with_plugin(p);
            }
        }
        Status::success()
    }

    /// Filter on several nodes at once, plugin by plugin: `out[i]` is left `None` when node
    /// `i` passes, else holds the status `run_filter` returns for it. Every node is evaluated;
    /// Filter has no effect on anything but the result, so the caller may ignore the nodes
    /// after one it stops at. Without nominated pods only (`run_filter_with_nominated_pods`).
    pub fn run_filter_nodes(
        &self,
        cx: &Ctx,
        state: &CycleState,
        pod: &PodInfo,
        nodes: &[&NodeInfo],
        out: &mut Vec<Option<Status>>,
        done: &mut Vec<bool>,
    ) {
        out.clear();
        // Not `resize`: it would clone a `None` into every slot, a call per node.
        out.resize_with(nodes.len(), || None);
        done.clear();
        done.resize(nodes.len(), false);
        let plan: &[PluginName] = match &state.filter_plan {
            Some((skip, plan)) if *skip == state.skip_filter => plan,
            _ => &self.profile.plugins.filter,
        };
        let mut rejected = 0;
        for &p in plan {
            if state.skip_filter.contains(p) {
                continue;
            }
            if rejected == nodes.len() {
                break;
            }
            if !self.plugin(p).filter_nodes(cx, state, pod, nodes, out) {
                continue;
            }
            for (o, d) in out.iter_mut().zip(done.iter_mut()) {
                if *d {
                    continue;
                }
                let Some(s) = o.take() else { continue };
                let s = if s.is_rejected() {
                    s
                } else {
                    Status::error(format!("running {:?} filter plugin: {}", p.as_str(), s.message()))
                };
                *o = Some(s.with_plugin(p));
                *d = true;
                rejected += 1;
            }
        }
    }

    /// Filter with the node's nominated pods of equal or higher priority counted in (first
    /// pass) and, when any were added and the pod passed, without them (second pass).
    pub fn run_filter_with_nominated_pods(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if cx.nominator.is_empty() {
            return self.run_filter(cx, state, pod, node);
        }
        let nominated = cx.nominator.pods_for_node(node.name());
        let relevant: Vec<&Arc<PodInfo>> = nominated
            .iter()
            .filter(|p| p.priority >= pod.priority && p.uid != pod.uid)
            .collect();
        if relevant.is_empty() {
            return self.run_filter(cx, state, pod, node);
        }
        let mut node_out = node.clone();
        let mut state_out = state.clone();
        for pi in relevant {
            node_out.add_pod((*pi).clone());
            let s = self.run_pre_filter_extension_add_pod(cx, &mut state_out, pod, pi, &node_out);
            if !s.is_success() {
                return Status::error(s.message());
            }
        }
        let s = self.run_filter(cx, &state_out, pod, &node_out);
        if !s.is_success() {
            return s;
        }
        self.run_filter(cx, state, pod, node)
    }

    /// PostFilter: runs until one succeeds or returns Error/UnschedulableAndUnresolvable.
    pub fn run_post_filter(
        &self,
        cx: &Ctx,
        state: &CycleState,
        pod: &PodInfo,
        statuses: &NodeToStatus,
        rng: &mut crate::rng::Rng,
    ) -> (Option<PostFilterResult>, Status) {
        let mut result: Option<PostFilterResult> = None;
        let mut reasons = Reasons::new();
        let mut rejector: Option<PluginName> = None;
        for &p in &self.profile.plugins.post_filter {
            let (r, s) = self.plugin(p).post_filter(cx, self, state, pod, statuses, rng);
            if s.is_success() {
                return (r, s);
            } else if s.code == Code::UnschedulableAndUnresolvable {
                return (r, s.with_plugin(p));
            } else if !s.is_rejected() {
                return (None, Status::error(s.message()).with_plugin(p));
            } else if let Some(r) = r {
                if !r.is_noop() {
                    result = Some(r);
                }
            }
            reasons.extend(s.reasons);
            rejector.get_or_insert(p);
        }
        let mut s = Status::with_reasons(Code::Unschedulable, reasons);
        s.plugin = rejector;
        (result, s)
    }

    /// PreScore; plugins returning Skip are not scored this cycle.
    pub fn run_pre_score(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, nodes: &[&NodeInfo]) -> Status {
        let mut skip = PluginSet::default();
        for &p in &self.profile.plugins.pre_score {
            let s = self.plugin(p).pre_score(cx, state, pod, nodes);
            if s.is_skip() {
                skip.insert(p);
                continue;
            }
            if !s.is_success() {
                state.skip_score = skip;
                return Status::error(format!("running PreScore plugin {:?}: {}", p.as_str(), s.message()));
            }
        }
        state.skip_score = skip;
        Status::success()
    }

    /// Score, NormalizeScore and weighting. `node_ids` are the snapshot positions of `nodes`.
    pub fn run_score(
        &self,
        cx: &Ctx,
        state: &CycleState,
        pod: &PodInfo,
        nodes: &[&NodeInfo],
        node_ids: &[usize],
    ) -> Result<ScoreResult, Status> {
        self.run_score_with(cx, state, pod, nodes, node_ids, true, &mut ScoreBuffers::default())
    }

    /// Score as `run_score`; the per-plugin rows (raw and normalized scores) are kept only with
    /// `rows` (the trace's detail and the explanations read them; the totals need none). The
    /// pass works in `buf`'s buffers.
    #[allow(clippy::too_many_arguments)]
    pub fn run_score_with(
        &self,
        cx: &Ctx,
        state: &CycleState,
        pod: &PodInfo,
        nodes: &[&NodeInfo],
        node_ids: &[usize],
        rows: bool,
        buf: &mut ScoreBuffers,
    ) -> Result<ScoreResult, Status> {
        let mut totals = std::mem::take(&mut buf.totals);
        totals.clear();
        totals.resize(nodes.len(), 0);
        let mut out = ScoreResult { plugins: Vec::new(), totals };
        let ScoreBuffers {
            raw,
            scores,
            normalized: normalized_buf,
            ..
        } = buf;
        for &p in &self.profile.plugins.score {
            if state.skip_score.contains(p) {
                continue;
            }
            let pl = self.plugin(p);
            raw.clear();
            if let Err(s) = pl.score_nodes(cx, state, pod, nodes, raw) {
                return Err(Status::error(format!(
                    "running Score plugins: plugin {:?} failed with: {}",
                    p.as_str(),
                    s.message()
                )));
            }
            let normalized: &[i64] = if pl.has_normalize_score() {
                scores.clear();
                scores.extend(raw.iter().enumerate().map(|(i, &s)| NodeScore {
                    node: node_ids[i],
                    score: s,
                }));
                let s = pl.normalize_score(cx, state, pod, scores);
                if !s.is_success() {
                    return Err(Status::error(format!(
                        "running Normalize on Score plugins: plugin {:?} failed with: {}",
                        p.as_str(),
                        s.message()
                    )));
                }
                normalized_buf.clear();
                normalized_buf.extend(scores.iter().map(|s| s.score));
                &normalized_buf[..]
            } else {
                &raw[..]
            };
            let weight = self.weight(p);
            // The range check over all the nodes first, then the weighted sums: two loops the
            // compiler vectorizes (one with an early exit would not be).
            if normalized.iter().any(|s| !(MIN_NODE_SCORE..=MAX_NODE_SCORE).contains(s)) {
                let s = normalized
                    .iter()
                    .find(|s| !(MIN_NODE_SCORE..=MAX_NODE_SCORE).contains(*s))
                    .expect("a score out of range");
                return Err(Status::error(format!(
                    "applying score defaultWeights on Score plugins: plugin {:?} returns an invalid score {}, it should in the range of [{}, {}] after normalizing",
                    p.as_str(),
                    s,
                    MIN_NODE_SCORE,
                    MAX_NODE_SCORE
                )));
            }
            // The default profile weighs Fit, BalancedAllocation and ImageLocality 1: a plain
            // sum for them, which the compiler vectorizes (the baseline target has no vector
            // multiply of 64-bit integers).
            if weight == 1 {
                for (t, &s) in out.totals.iter_mut().zip(normalized) {
                    *t += s;
                }
            } else {
                for (t, &s) in out.totals.iter_mut().zip(normalized) {
                    *t += s * weight;
                }
            }
            if rows {
                out.plugins.push(PluginScores {
                    plugin: p,
                    weight,
                    raw: raw.clone(),
                    normalized: normalized.to_vec(),
                });
            }
        }
        Ok(out)
    }

    /// Reserve: on failure the caller runs Unreserve.
    pub fn run_reserve(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        for &p in &self.profile.plugins.reserve {
            let s = self.plugin(p).reserve(cx, state, pod, node);
            if !s.is_success() {
                if s.is_rejected() {
                    return s.with_plugin(p);
                }
                return Status::error(format!("running Reserve plugin {:?}: {}", p.as_str(), s.message())).with_plugin(p);
            }
        }
        Status::success()
    }

    /// Unreserve runs in reverse order.
    pub fn run_unreserve(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, node: &str) {
        for &p in self.profile.plugins.reserve.iter().rev() {
            self.plugin(p).unreserve(cx, state, pod, node);
        }
    }

    pub fn run_permit(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        for &p in &self.profile.plugins.permit {
            let s = self.plugin(p).permit(cx, state, pod, node);
            if !s.is_success() {
                if s.is_rejected() || s.is_wait() {
                    return s.with_plugin(p);
                }
                return Status::error(format!("running Permit plugin {:?}: {}", p.as_str(), s.message())).with_plugin(p);
            }
        }
        Status::success()
    }

    /// PreBindPreFlight: Success when some PreBind plugin will have work to do, Skip when
    /// none will, or the first error (as an error).
    pub fn run_pre_bind_pre_flights(&self, state: &CycleState, pod: &PodInfo, node: &str) -> Status {
        let mut work = false;
        for &p in &self.profile.plugins.pre_bind {
            let s = self.plugin(p).pre_bind_pre_flight(state, pod, node);
            if s.is_skip() {
                continue;
            }
            if !s.is_success() {
                return Status::error(format!("running PreBindPreFlight plugin {:?}: {}", p.as_str(), s.message())).with_plugin(p);
            }
            work = true;
        }
        if work {
            Status::success()
        } else {
            Status::skip()
        }
    }

    pub fn run_pre_bind(&self, cluster: &mut crate::cluster::Cluster, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        for &p in &self.profile.plugins.pre_bind {
            let s = self.plugin(p).pre_bind(cluster, state, pod, node);
            if s.is_skip() {
                continue;
            }
            if !s.is_success() {
                if s.is_rejected() {
                    return s.with_plugin(p);
                }
                return Status::error(format!("running PreBind plugin {:?}: {}", p.as_str(), s.message())).with_plugin(p);
            }
        }
        Status::success()
    }

    /// Bind: the first binder that does not Skip decides.
    pub fn run_bind(&self, cluster: &mut crate::cluster::Cluster, state: &mut CycleState, pod: &PodInfo, node: &str) -> Status {
        for &p in &self.profile.plugins.bind {
            let s = self.plugin(p).bind(cluster, state, pod, node);
            if s.is_skip() {
                continue;
            }
            if !s.is_success() {
                if s.is_rejected() {
                    return s.with_plugin(p);
                }
                return Status::error(format!("running Bind plugin {:?}: {}", p.as_str(), s.message())).with_plugin(p);
            }
            return s.with_plugin(p);
        }
        Status::skip()
    }

    pub fn run_post_bind(&self, cluster: &mut crate::cluster::Cluster, state: &mut CycleState, pod: &PodInfo, node: &str) {
        for &p in &self.profile.plugins.post_bind {
            self.plugin(p).post_bind(cluster, state, pod, node);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{PluginArgs, Profile};
    use crate::plugins::testing::{Env, MakeNode, MakePod};
    use std::cell::RefCell;
    use std::rc::Rc;

    type Log = Rc<RefCell<Vec<(&'static str, PluginName, String)>>>;

    /// A stand-in plugin under a real plugin's name: it logs each call and answers from a
    /// table (node name → filter verdict; node name → score).
    struct Stub {
        name: PluginName,
        log: Log,
        reject_on: Option<(&'static str, Code)>,
        scores: &'static [(&'static str, i64)],
    }

    impl Plugin for Stub {
        fn name(&self) -> PluginName {
            self.name
        }
        fn filter(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Status {
            self.log.borrow_mut().push(("filter", self.name, node.name().to_string()));
            match self.reject_on {
                Some((n, code)) if n == node.name() => Status::new(code, "stub says no"),
                _ => Status::success(),
            }
        }
        fn score(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
            self.log.borrow_mut().push(("score", self.name, node.name().to_string()));
            Ok(self.scores.iter().find(|(n, _)| *n == node.name()).map_or(0, |&(_, s)| s))
        }
        fn reserve(&self, _cx: &Ctx, _state: &mut CycleState, _pod: &PodInfo, node: &str) -> Status {
            self.log.borrow_mut().push(("reserve", self.name, node.to_string()));
            Status::success()
        }
        fn unreserve(&self, _cx: &Ctx, _state: &mut CycleState, _pod: &PodInfo, node: &str) {
            self.log.borrow_mut().push(("unreserve", self.name, node.to_string()));
        }
    }

    const A: PluginName = PluginName::NodeName;
    const B: PluginName = PluginName::NodeUnschedulable;
    const C: PluginName = PluginName::TaintToleration;

    /// A framework whose Filter, Score and Reserve lists are exactly `order`, each plugin a stub.
    fn framework(order: &[PluginName], stubs: Vec<Stub>) -> Framework {
        let profile = Profile::new(
            "default-scheduler",
            None,
            PluginArgs::default(),
            None,
            &crate::version::Features::new(crate::version::KubeVersion::V1_34),
        )
        .unwrap();
        let mut fw = Framework::new(profile, &crate::plugins::IN_TREE);
        fw.profile.plugins.filter = order.to_vec();
        fw.profile.plugins.score = order.to_vec();
        fw.profile.plugins.reserve = order.to_vec();
        for s in stubs {
            fw.set_instance(Box::new(s));
        }
        fw
    }

    fn stub(name: PluginName, log: &Log) -> Stub {
        Stub {
            name,
            log: log.clone(),
            reject_on: None,
            scores: &[],
        }
    }

    fn env() -> Env {
        Env::new(vec![MakeNode::new("n1").obj(), MakeNode::new("n2").obj()], vec![])
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_runs_in_profile_order_and_stops_at_the_first_rejection() {
        // (node, B's verdict on n2, expected code, expected plugin, plugins called)
        type Case = (&'static str, Code, Code, Option<PluginName>, Vec<PluginName>);
        let cases: Vec<Case> = vec![
            ("n1", Code::Unschedulable, Code::Success, None, vec![C, A, B]),
            ("n2", Code::Unschedulable, Code::Unschedulable, Some(A), vec![C, A]),
            (
                "n2",
                Code::UnschedulableAndUnresolvable,
                Code::UnschedulableAndUnresolvable,
                Some(A),
                vec![C, A],
            ),
            ("n2", Code::Error, Code::Error, Some(A), vec![C, A]),
        ];
        for (node, verdict, want_code, want_plugin, want_calls) in cases {
            let log: Log = Rc::default();
            let mut a = stub(A, &log);
            a.reject_on = Some(("n2", verdict));
            let fw = framework(&[C, A, B], vec![stub(B, &log), a, stub(C, &log)]);
            let env = env();
            let pod = MakePod::new("p").info();
            let s = fw.run_filter(&env.cx(), &CycleState::new(), &pod, env.node(node));
            assert_eq!((s.code, s.plugin), (want_code, want_plugin), "{node} {verdict:?}");
            let calls: Vec<PluginName> = log.borrow().iter().map(|c| c.1).collect();
            assert_eq!(calls, want_calls, "{node} {verdict:?}");
            if want_code == Code::Error {
                // An error is wrapped with the plugin's name; a rejection keeps its reasons.
                assert_eq!(s.message(), "running \"NodeName\" filter plugin: stub says no");
            } else if want_code != Code::Success {
                assert_eq!(s.message(), "stub says no");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_skips_plugins_that_pre_filter_skipped() {
        let log: Log = Rc::default();
        let mut a = stub(A, &log);
        a.reject_on = Some(("n1", Code::Unschedulable));
        let fw = framework(&[A, B], vec![a, stub(B, &log)]);
        let env = env();
        let mut state = CycleState::new();
        state.skip_filter.insert(A);
        let s = fw.run_filter(&env.cx(), &state, &MakePod::new("p").info(), env.node("n1"));
        assert!(s.is_success());
        assert_eq!(log.borrow().iter().map(|c| c.1).collect::<Vec<_>>(), [B]);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score_weights_each_plugin_and_sums_per_node() {
        // (weight of A, weight of B, skip B?, totals for [n1, n2])
        let cases: [(i32, i32, bool, [i64; 2]); 4] = [
            (1, 1, false, [10 + 40, 20 + 30]),
            (1, 3, false, [10 + 120, 20 + 90]),
            (2, 0, false, [20, 40]),
            (1, 3, true, [10, 20]),
        ];
        for (wa, wb, skip_b, totals) in cases {
            let log: Log = Rc::default();
            let mut a = stub(A, &log);
            a.scores = &[("n1", 10), ("n2", 20)];
            let mut b = stub(B, &log);
            b.scores = &[("n1", 40), ("n2", 30)];
            let mut fw = framework(&[A, B], vec![a, b]);
            fw.profile.weights = [(A, wa), (B, wb)].into_iter().collect();
            let env = env();
            let mut state = CycleState::new();
            if skip_b {
                state.skip_score.insert(B);
            }
            let nodes = [env.node("n1"), env.node("n2")];
            let r = fw.run_score(&env.cx(), &state, &MakePod::new("p").info(), &nodes, &[0, 1]).unwrap();
            assert_eq!(r.totals, totals, "weights {wa}/{wb} skip {skip_b}");
            let per_plugin: Vec<(PluginName, i64, Vec<i64>)> = r.plugins.iter().map(|p| (p.plugin, p.weight, p.raw.clone())).collect();
            let mut want = vec![(A, wa as i64, vec![10, 20])];
            if !skip_b {
                want.push((B, wb as i64, vec![40, 30]));
            }
            assert_eq!(per_plugin, want);
            // Without NormalizeScore the normalized scores are the raw ones.
            assert!(r.plugins.iter().all(|p| p.normalized == p.raw));
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_score_out_of_range_is_an_error() {
        let log: Log = Rc::default();
        let mut a = stub(A, &log);
        a.scores = &[("n1", MAX_NODE_SCORE + 1)];
        let fw = framework(&[A], vec![a]);
        let env = env();
        let err = fw
            .run_score(&env.cx(), &CycleState::new(), &MakePod::new("p").info(), &[env.node("n1")], &[0])
            .unwrap_err();
        assert_eq!(err.code, Code::Error);
        assert!(err.message().contains("returns an invalid score 101"), "{}", err.message());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn reserve_runs_in_order_and_unreserve_in_reverse() {
        let log: Log = Rc::default();
        let fw = framework(&[C, A, B], vec![stub(A, &log), stub(B, &log), stub(C, &log)]);
        let env = env();
        let pod = MakePod::new("p").info();
        let mut state = CycleState::new();
        assert!(fw.run_reserve(&env.cx(), &mut state, &pod, "n1").is_success());
        fw.run_unreserve(&env.cx(), &mut state, &pod, "n1");
        let calls: Vec<(&str, PluginName)> = log.borrow().iter().map(|c| (c.0, c.1)).collect();
        assert_eq!(
            calls,
            [
                ("reserve", C),
                ("reserve", A),
                ("reserve", B),
                ("unreserve", B),
                ("unreserve", A),
                ("unreserve", C)
            ]
        );
    }
}
