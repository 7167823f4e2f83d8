//! The scheduler loop: pop a pod, run the scheduling cycle, then the binding cycle (or the
//! failure handling, including preemption), and apply the results to the simulated cluster.
//! Everything is recorded in the trace. The engine is stepped by its caller; time is logical.

use crate::cluster::{Cluster, Nominator, Snapshot};
use crate::config::SchedulerConfig;
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource};
use crate::framework::{
    Code, Ctx, CycleState, Framework, NodeInfo, NodeToStatus, NominatingInfo, NominatingMode, PodInfo, QueuedPodInfo, Status,
};
use crate::load::Scenario;
use crate::plugins::PluginSet;
use crate::queue::{Move, QueueEnv, SchedulingQueue, NS_PER_MS};
use crate::rng::Rng;
use crate::trace::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

mod timed;
pub use timed::ChangeOutcome;

#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    pub seed: u64,
    pub detail: Detail,
}

/// Where a pod is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Pending,
    Running,
    /// Finished pods are ignored by the scheduler (their resources are free).
    Succeeded,
    Failed,
    /// Deleted (a preemption victim, or deleted by the timeline).
    Deleted,
}

impl Phase {
    pub fn is_finished(self) -> bool {
        matches!(self, Phase::Succeeded | Phase::Failed)
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Pending => "Pending",
            Phase::Running => "Running",
            Phase::Succeeded => "Succeeded",
            Phase::Failed => "Failed",
            Phase::Deleted => "Deleted",
        }
    }
}

/// Per-plugin and final scores of one attempt, by node name (weighted, as upstream reports).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttemptScores {
    pub cycle: u32,
    pub attempt: u32,
    pub feasible_nodes: usize,
    pub evaluated_nodes: usize,
    /// Node -> total; empty when a single node was feasible (no scoring).
    pub totals: BTreeMap<String, i64>,
    /// Plugin -> node -> weighted score.
    pub plugins: BTreeMap<String, BTreeMap<String, i64>>,
    pub weights: BTreeMap<String, i64>,
    pub tied: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct PodState {
    pub info: Arc<PodInfo>,
    pub phase: Phase,
    pub node: Option<String>,
    pub nominated_node: Option<String>,
    pub attempts: u32,
    /// The last FailedScheduling message.
    pub message: Option<String>,
    pub evicted: bool,
    /// Scores of the attempt that bound the pod (when recorded).
    pub scores: Option<AttemptScores>,
    pub tied_nodes: Vec<String>,
    /// The node the pod ran on, kept after it finished or was deleted.
    pub ran_on: Option<String>,
    /// The pod's place in binding order (running pods of the file first, in document order).
    pub bound_seq: Option<u64>,
    /// When a `schedlab.dev/duration` makes the running pod finish (logical ns).
    pub finish_at: Option<i64>,
}

/// A kubectl-style event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeEvent {
    pub reason: String,
    pub pod: usize,
    pub message: String,
    pub cycle: u32,
    /// Logical time, ms (rounded down).
    pub at_ms: i64,
}

/// The scheduler. Its state is read through the accessors below; everything that changes it
/// goes through `step`/`run`, `apply_change` and `enable_controllers`.
pub struct Engine {
    pub(crate) config: SchedulerConfig,
    pub(crate) pods: Vec<PodState>,
    pod_index: HashMap<String, usize>,
    pub(crate) cluster: Cluster,
    pub(crate) snapshot: Snapshot,
    pub(crate) nominator: Nominator,
    pub(crate) frameworks: BTreeMap<String, Framework>,
    pub(crate) queue: SchedulingQueue,
    rng: Rng,
    /// Logical time, ns.
    now: i64,
    next_start_node_index: usize,
    pub(crate) cycle: u32,
    pub(crate) trace: Trace,
    pub(crate) events: Vec<KubeEvent>,
    /// The pod tried in each cycle.
    pub(crate) cycles: Vec<usize>,
    detail: Detail,
    /// Logical start time of the scheduler (ns after the first document's creation).
    sched_start_ns: i64,
    /// Victims chosen by preemption in the current cycle: (preemptor, node, victim keys).
    pending_victims: Option<(Arc<PodInfo>, String, Vec<String>)>,
    /// An assumed pod forgotten after its binding was rejected: its AssignedPodDelete event is
    /// delivered once the failure has been handled (so that it does not requeue the pod itself).
    deferred_forget: Option<Arc<PodInfo>>,
    /// Counts changes to the cluster (every cluster event and nomination change).
    generation: u64,
    /// The generation at each pod's last failed attempt: a pod that failed with an error is not
    /// retried in a cluster that has not changed since (it would fail the same way forever).
    failed_at: HashMap<String, u64>,
    /// The trace header's index of each snapshot node (nodes added later are appended to the
    /// header, so positions and indices differ once the cluster changes).
    node_ids: Vec<u32>,
    /// The timeline rules apply: the scenario has a Timeline or a pod with a duration.
    pub(crate) timed: bool,
    timeline: timed::TimelineState,
    /// Pods the controllers could not create while the cluster ran (FailedCreate messages).
    pub(crate) controller_failures: Vec<String>,
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    Bound {
        pod: usize,
        node: String,
    },
    Unschedulable {
        pod: usize,
    },
    Error {
        pod: usize,
    },
    /// Nothing could make progress.
    Quiet,
}

/// The result of the scheduling cycle.
enum CycleResult {
    Scheduled {
        node: usize,
        evaluated: usize,
        feasible: usize,
    },
    Failed {
        status: Status,
        message: String,
        unschedulable: PluginSet,
        pending: PluginSet,
        nominating: Option<NominatingInfo>,
        fit_error: bool,
    },
}

impl CycleResult {
    /// A failure that is not a FitError (an internal error, or no nodes at all): no rejecting
    /// plugins, and the nominated node is cleared, as upstream's failure nominating info does.
    fn error(status: Status, message: String) -> CycleResult {
        CycleResult::Failed {
            status,
            message,
            unschedulable: PluginSet::default(),
            pending: PluginSet::default(),
            nominating: clear_nomination(),
            fit_error: false,
        }
    }
}

/// The nominating info that clears the pod's nominated node (failures other than preemption's).
fn clear_nomination() -> Option<NominatingInfo> {
    Some(NominatingInfo {
        mode: NominatingMode::Override,
        nominated_node_name: String::new(),
    })
}

impl Engine {
    /// The trace recorded so far.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }
    /// Every pod, by trace-header index, with what became of it.
    pub fn pods(&self) -> &[PodState] {
        &self.pods
    }
    /// The nodes as the scheduler sees them now, with their pods.
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }
    /// The simulated API objects the plugins look up.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }
    /// The effective scheduler configuration.
    pub fn config(&self) -> &SchedulerConfig {
        &self.config
    }
    /// The kubectl-style events so far.
    pub fn events(&self) -> &[KubeEvent] {
        &self.events
    }
    /// The number of scheduling cycles run so far.
    pub fn cycle(&self) -> u32 {
        self.cycle
    }
    /// Pods the controllers could not create while the cluster ran (FailedCreate messages).
    pub fn controller_failures(&self) -> &[String] {
        &self.controller_failures
    }

    pub fn new(sc: Scenario, opts: EngineOptions) -> Engine {
        let nodes: Vec<Arc<crate::api::Node>> = sc.nodes.into_iter().map(Arc::new).collect();
        let snapshot = Snapshot::new(nodes);
        let frameworks: BTreeMap<String, Framework> = sc
            .config
            .profiles
            .iter()
            .map(|p| (p.scheduler_name.clone(), Framework::new(p.clone())))
            .collect();
        let queue = SchedulingQueue::with_profiles(
            sc.config.pod_initial_backoff_seconds,
            sc.config.pod_max_backoff_seconds,
            &frameworks,
        );
        let sched_start_ns = (sc.documents as i64 + 1) * 1_000_000_000;
        let mut e = Engine {
            config: sc.config,
            pods: Vec::with_capacity(sc.pods.len()),
            pod_index: HashMap::with_capacity(sc.pods.len()),
            cluster: sc.cluster,
            snapshot,
            nominator: Nominator::default(),
            frameworks,
            queue,
            rng: Rng::new(opts.seed),
            now: 0,
            next_start_node_index: 0,
            cycle: 0,
            trace: Trace::default(),
            events: Vec::new(),
            cycles: Vec::new(),
            detail: opts.detail,
            sched_start_ns,
            pending_victims: None,
            deferred_forget: None,
            generation: 0,
            failed_at: HashMap::new(),
            node_ids: Vec::new(),
            timed: false,
            timeline: timed::TimelineState::default(),
            controller_failures: Vec::new(),
        };
        e.timeline.documents = sc.documents;
        e.node_ids = (0..e.snapshot.len() as u32).collect();
        e.trace.header = TraceHeader {
            pods: Vec::new(),
            nodes: e.snapshot.nodes().iter().map(|n| n.name().to_string()).collect(),
            profiles: e.frameworks.keys().cloned().collect(),
            seed: opts.seed,
        };
        // Running pods first (the cache is synced before scheduling starts), then the queue.
        let mut pending = Vec::new();
        let timeline = sc.timeline;
        e.timed = timeline.is_some()
            || sc.pods.iter().any(crate::timeline::has_duration)
            || timeline.iter().flat_map(|t| &t.steps).any(|s| {
                matches!(&s.change, crate::timeline::Change::Create(o) if matches!(&**o, crate::timeline::Object::Pod(p) if crate::timeline::has_duration(p)))
            });
        for (i, (pod, doc)) in sc.pods.into_iter().zip(sc.pod_docs).enumerate() {
            let phase = match pod.status.phase.as_deref() {
                Some("Succeeded") => Phase::Succeeded,
                Some("Failed") => Phase::Failed,
                _ if pod.spec.node_name.as_deref().is_some_and(|n| !n.is_empty()) => Phase::Running,
                _ => Phase::Pending,
            };
            let mut info = PodInfo::new(pod, i);
            if phase == Phase::Running {
                info.start_time = Some(doc as i64 * 1_000_000_000);
            }
            let info = Arc::new(info);
            e.trace.header.pods.push(info.key.clone());
            e.pod_index.insert(info.key.clone(), i);
            let node = info.node_name().map(String::from);
            let nominated = info.nominated_node_name().map(String::from);
            if phase == Phase::Running {
                if let Some(idx) = e.snapshot.position(node.as_deref().unwrap_or("")) {
                    e.snapshot.add_pod(idx, info.clone());
                }
            }
            if phase == Phase::Pending {
                pending.push(i);
            }
            e.pods.push(PodState {
                info,
                phase,
                node,
                nominated_node: nominated,
                attempts: 0,
                message: None,
                evicted: false,
                scores: None,
                tied_nodes: Vec::new(),
                ran_on: None,
                bound_seq: None,
                finish_at: None,
            });
            if phase == Phase::Running || phase.is_finished() {
                e.pods[i].ran_on = e.pods[i].node.clone();
            }
            if phase == Phase::Running {
                // Running pods of the file were bound before the scheduler started, in order.
                e.start_running(i, 0);
            }
        }
        if e.timed {
            e.start_timeline(timeline.unwrap_or_default());
        }
        // PodDisruptionBudgets without a status get one from the running pods, once.
        let running: Vec<Arc<PodInfo>> = e
            .pods
            .iter()
            .filter(|p| p.phase == Phase::Running)
            .map(|p| p.info.clone())
            .collect();
        crate::plugins::default_preemption::fill_pdb_statuses(&mut e.cluster, &running);
        for i in pending {
            let info = e.pods[i].info.clone();
            // Pods for another scheduler are not this scheduler's to queue (they stay pending).
            if !e.frameworks.contains_key(info.scheduler_name()) {
                continue;
            }
            let now = e.tick();
            let q = QueuedPodInfo::new(info.clone(), now);
            let m = e.with_queue(|queue, env| queue.add(env, q, now));
            // A pod entering activeQ joins the nominator when it carries a nominated node.
            if m.to == QueueName::ActiveQ {
                if let Some(n) = info.nominated_node_name() {
                    e.nominator.add(info.clone(), n);
                }
            }
            e.record_move(m);
        }
        e
    }

    /// Advances logical time by one nanosecond (every queue operation is ordered in time).
    fn tick(&mut self) -> i64 {
        self.now += 1;
        self.now
    }

    /// Runs `f` on the queue with what the queue consults (the profiles, the snapshot, the
    /// cluster objects and the nominator), borrowed from the engine's other fields.
    fn with_queue<R>(&mut self, f: impl FnOnce(&mut SchedulingQueue, &QueueEnv) -> R) -> R {
        let env = QueueEnv {
            frameworks: &self.frameworks,
            snapshot: &self.snapshot,
            cluster: &self.cluster,
            nominator: &self.nominator,
        };
        f(&mut self.queue, &env)
    }

    pub fn now_ms(&self) -> i64 {
        self.now / NS_PER_MS
    }

    pub fn pod_by_key(&self, key: &str) -> Option<usize> {
        self.pod_index.get(key).copied()
    }

    fn record_move(&mut self, m: Move) {
        let Some(&pod) = self.pod_index.get(&m.key) else { return };
        if let Some((plugin, message)) = m.gated_by {
            self.trace.push(TraceEvent::Gated {
                pod: pod as u32,
                plugin,
                message,
            });
        }
        self.trace.push(TraceEvent::QueueMove {
            pod: pod as u32,
            from: m.from,
            to: m.to,
            event: m.event,
            backoff_until_ms: m.backoff_until_ns.map(|t| t / NS_PER_MS),
        });
    }

    /// Pops the next pod. Scheduling takes no time, so the clock only jumps when nothing can be
    /// popped while pods wait in the error backoff queue: to the periodic flush that releases
    /// the first of them.
    fn next_pod(&mut self) -> Option<(QueuedPodInfo, QueueName)> {
        loop {
            let now = self.tick();
            let (moves, popped) = self.with_queue(|queue, env| (queue.flush_if_due(env, now), queue.pop(env, now)));
            for m in moves {
                self.record_move(m);
            }
            if popped.is_some() {
                return popped;
            }
            if self.timed {
                // The controllers catch up with what the scheduler did (e.g. pods a preemption
                // deleted); then the clock jumps to the next instant at which the cluster
                // changes.
                if self.react_controllers() {
                    continue;
                }
                if !self.next_instant() {
                    return None;
                }
                continue;
            }
            // Only pods that failed with errors wait (in the error backoff queue). Retrying them
            // in an unchanged cluster would fail again: the run is quiet.
            let stale = self
                .queue
                .backoff()
                .all(|q| self.failed_at.get(&q.pod.key).is_some_and(|&g| g == self.generation));
            if stale {
                return None;
            }
            let t = self.queue.next_flush_time()?;
            if t > self.now {
                self.now = t;
                self.trace.push(TraceEvent::Clock { time_ms: self.now_ms() });
            }
            let now = self.now;
            let moves = self.with_queue(|queue, env| queue.flush_backoff_completed(env, now));
            for m in moves {
                self.record_move(m);
            }
        }
    }

    /// Runs until no pod can make progress. Returns the number of cycles run.
    pub fn run(&mut self) -> u32 {
        let start = self.cycle;
        while self.step() != StepOutcome::Quiet {}
        self.cycle - start
    }

    /// Schedules one pod (one scheduling cycle plus its binding cycle or failure handling).
    pub fn step(&mut self) -> StepOutcome {
        let Some((mut q, from)) = self.next_pod() else {
            return StepOutcome::Quiet;
        };
        self.cycle += 1;
        let cycle = self.cycle;
        let pi = self.pod_index[&q.pod.key];
        self.pods[pi].attempts = q.attempts;
        self.cycles.push(pi);
        self.trace.push(TraceEvent::QueueMove {
            pod: pi as u32,
            from,
            to: QueueName::InFlight,
            event: None,
            backoff_until_ms: None,
        });
        let profile = q.pod.scheduler_name().to_string();
        self.trace.push(TraceEvent::CycleStart {
            cycle,
            pod: pi as u32,
            profile: profile.clone(),
            attempt: q.attempts,
            time_ms: self.now_ms(),
        });

        if !self.frameworks.contains_key(&profile) {
            // Upstream logs the error and drops the pod from the queue.
            self.queue.done(&q.pod.key);
            self.trace.push(TraceEvent::CycleEnd {
                cycle,
                outcome: CycleOutcome::Error,
            });
            return StepOutcome::Error { pod: pi };
        }

        let mut state = CycleState::new();
        let detail = self.detail.wants(cycle);
        let result = self.scheduling_cycle(&mut state, &q.pod, cycle, detail);
        match result {
            CycleResult::Scheduled { node, evaluated, feasible } => {
                let node_name = self.snapshot.nodes()[node].name().to_string();
                match self.assume_reserve_permit_bind(&mut state, &q.pod, node, cycle) {
                    Ok(()) => {
                        if let Some(sc) = self.pods[pi].scores.as_mut() {
                            if sc.cycle == cycle {
                                sc.evaluated_nodes = evaluated;
                                sc.feasible_nodes = feasible;
                            }
                        }
                        self.queue.done(&q.pod.key);
                        self.trace.push(TraceEvent::CycleEnd {
                            cycle,
                            outcome: CycleOutcome::Bound,
                        });
                        StepOutcome::Bound { pod: pi, node: node_name }
                    }
                    Err((status, message, fit_error)) => {
                        // Only a Reserve or Permit rejection names the rejecting plugin.
                        q.unschedulable_plugins = PluginSet::default();
                        q.pending_plugins = PluginSet::default();
                        if fit_error {
                            add_plugin_status(&status, &mut q.unschedulable_plugins, &mut q.pending_plugins);
                        }
                        self.end_failed_cycle(q, pi, status, message, clear_nomination(), cycle)
                    }
                }
            }
            CycleResult::Failed {
                status,
                message,
                unschedulable,
                pending,
                nominating,
                fit_error,
            } => {
                if fit_error {
                    q.unschedulable_plugins = unschedulable;
                    q.pending_plugins = pending;
                } else {
                    q.unschedulable_plugins = PluginSet::default();
                    q.pending_plugins = PluginSet::default();
                }
                self.end_failed_cycle(q, pi, status, message, nominating, cycle)
            }
        }
    }

    /// Ends a failed cycle: the failure handling, then the cycle's end in the trace.
    fn end_failed_cycle(
        &mut self,
        q: QueuedPodInfo,
        pod: usize,
        status: Status,
        message: String,
        nominating: Option<NominatingInfo>,
        cycle: u32,
    ) -> StepOutcome {
        let (outcome, step) = if status.code == Code::Error {
            (CycleOutcome::Error, StepOutcome::Error { pod })
        } else {
            (CycleOutcome::Unschedulable, StepOutcome::Unschedulable { pod })
        };
        self.handle_failure(q, status, message, nominating, cycle);
        self.trace.push(TraceEvent::CycleEnd { cycle, outcome });
        step
    }

    /// numFeasibleNodesToFind.
    fn num_feasible_nodes_to_find(&self, pct: Option<i32>, num_all: usize) -> usize {
        const MIN_FEASIBLE: usize = 100;
        if num_all < MIN_FEASIBLE {
            return num_all;
        }
        let mut percentage = pct.unwrap_or(self.config.percentage_of_nodes_to_score) as i64;
        if percentage == 0 {
            percentage = 50 - num_all as i64 / 125;
            if percentage < 5 {
                percentage = 5;
            }
        }
        let n = (num_all as i64 * percentage / 100) as usize;
        n.max(MIN_FEASIBLE)
    }

    fn scheduling_cycle(&mut self, state: &mut CycleState, pod: &Arc<PodInfo>, cycle: u32, detail: bool) -> CycleResult {
        let fw = &self.frameworks[pod.scheduler_name()];
        let cx = Ctx {
            snapshot: &self.snapshot,
            cluster: &self.cluster,
            nominator: &self.nominator,
        };
        let n_all = self.snapshot.len();
        if n_all == 0 {
            let msg = "no nodes available to schedule pods".to_string();
            return CycleResult::error(Status::unresolvable(msg.clone()), msg);
        }
        let mut diagnosis = NodeToStatus::default();
        let mut unschedulable = PluginSet::default();
        let mut pending = PluginSet::default();
        let mut pre_filter_msg = String::new();

        // PreFilter.
        let (pre_res, s, with_nodes) = fw.run_pre_filter(&cx, state, pod);
        unschedulable = unschedulable.union(with_nodes);
        self.trace.push(TraceEvent::PreFilter {
            cycle,
            results: if s.is_success() {
                vec![]
            } else {
                vec![PluginStatus {
                    plugin: s.plugin.unwrap_or(crate::plugins::PluginName::PrioritySort),
                    code: s.code,
                    reasons: s.reasons.iter().map(|r| r.to_string()).collect(),
                }]
            },
            skipped: state.skip_filter.iter().collect(),
            narrowed_to: pre_res
                .as_ref()
                .and_then(|r| r.node_names.as_ref())
                .map(|n| n.iter().cloned().collect()),
        });
        let mut feasible: Vec<usize> = Vec::with_capacity(n_all.min(1024));
        let mut nominated_first = false;
        if !s.is_success() {
            if !s.is_rejected() {
                let msg = s.message();
                return CycleResult::error(s, msg);
            }
            diagnosis.absent = s.clone();
            pre_filter_msg = s.message();
            add_plugin_status(&s, &mut unschedulable, &mut pending);
        } else {
            // The nominated node first.
            if let Some(nn) = pod.nominated_node_name() {
                if let Some(idx) = self.snapshot.position(nn) {
                    let st = fw.run_filter_with_nominated_pods(&cx, state, pod, &self.snapshot.nodes()[idx]);
                    if st.is_success() {
                        feasible.push(idx);
                        nominated_first = true;
                    } else if st.code != Code::Error {
                        add_plugin_status(&st, &mut unschedulable, &mut pending);
                        diagnosis.map.insert(idx, st);
                    }
                }
            }
            if feasible.is_empty() {
                let narrowed: Option<Vec<usize>> = match pre_res.as_ref().and_then(|r| r.node_names.as_ref()) {
                    None => None,
                    Some(names) => {
                        let v: Vec<usize> = (0..n_all).filter(|&i| names.contains(self.snapshot.nodes()[i].name())).collect();
                        diagnosis.absent = Status::unresolvable(format!(
                            "node(s) didn't satisfy plugin(s) [{}]",
                            unschedulable.sorted_names().join(" ")
                        ));
                        Some(v)
                    }
                };
                // Visit all nodes in snapshot order, or only those PreFilter narrowed to.
                let num_all = narrowed.as_ref().map_or(n_all, Vec::len);
                let node_at = |k: usize| narrowed.as_ref().map_or(k, |v| v[k]);
                let has_scoring = fw.has_score_plugins();
                let mut to_find = self.num_feasible_nodes_to_find(fw.profile.percentage_of_nodes_to_score, num_all);
                if !has_scoring {
                    to_find = 1;
                }
                let start = self.next_start_node_index;
                let mut verdicts = if detail { Some(Vec::new()) } else { None };
                let mut error: Option<Status> = None;
                if num_all > 0 {
                    if !fw.has_filter_plugins() {
                        for i in 0..to_find.min(num_all) {
                            feasible.push(node_at((start + i) % num_all));
                        }
                    } else {
                        for i in 0..num_all {
                            let idx = node_at((start + i) % num_all);
                            let st = fw.run_filter_with_nominated_pods(&cx, state, pod, &self.snapshot.nodes()[idx]);
                            if st.code == Code::Error {
                                error = Some(st);
                                break;
                            }
                            if st.is_success() {
                                feasible.push(idx);
                                if let Some(v) = verdicts.as_mut() {
                                    v.push(NodeVerdict {
                                        node: self.node_ids[idx],
                                        failed: None,
                                    });
                                }
                                if feasible.len() >= to_find {
                                    break;
                                }
                            } else {
                                if let Some(v) = verdicts.as_mut() {
                                    v.push(NodeVerdict {
                                        node: self.node_ids[idx],
                                        failed: Some(PluginStatus {
                                            plugin: st.plugin.unwrap_or(crate::plugins::PluginName::PrioritySort),
                                            code: st.code,
                                            reasons: st.reasons.iter().map(|r| r.to_string()).collect(),
                                        }),
                                    });
                                }
                                add_plugin_status(&st, &mut unschedulable, &mut pending);
                                diagnosis.map.insert(idx, st);
                            }
                        }
                    }
                }
                let processed = feasible.len() + diagnosis.len();
                self.next_start_node_index = (self.next_start_node_index + processed) % n_all;
                self.trace.push(TraceEvent::Filter {
                    cycle,
                    start_index: (start % num_all.max(1)) as u32,
                    num_to_find: to_find as u32,
                    evaluated: processed as u32,
                    feasible: feasible.len() as u32,
                    nominated_first: false,
                    verdicts,
                });
                if let Some(e) = error {
                    let msg = e.message();
                    return CycleResult::error(e, msg);
                }
            } else {
                self.trace.push(TraceEvent::Filter {
                    cycle,
                    start_index: self.next_start_node_index as u32,
                    num_to_find: 1,
                    evaluated: 1,
                    feasible: 1,
                    nominated_first,
                    verdicts: detail.then(|| {
                        vec![NodeVerdict {
                            node: self.node_ids[feasible[0]],
                            failed: None,
                        }]
                    }),
                });
            }
        }

        if feasible.is_empty() {
            // FitError, then PostFilter.
            let mut post_msg = String::new();
            let mut nominating = None;
            let mut victims = Vec::new();
            if fw.has_post_filter_plugins() {
                let (r, ps) = fw.run_post_filter(&cx, state, pod, &diagnosis, &mut self.rng);
                post_msg = ps.message();
                self.trace.push(TraceEvent::PostFilter {
                    cycle,
                    code: ps.code,
                    message: post_msg.clone(),
                    nominated_node: r
                        .as_ref()
                        .and_then(|r| r.nominating.as_ref())
                        .map(|n| n.nominated_node_name.clone()),
                    preemption: r.as_ref().and_then(|r| r.detail.clone()),
                });
                if let Some(r) = r {
                    nominating = r.nominating.clone();
                    victims = r.victims.clone();
                }
            }
            // DynamicResources' PostFilter may have deallocated a claim: written now, so that
            // the claim's update event reaches the queue while the pod is in flight.
            if let Some(key) = crate::plugins::dynamic_resources::take_deallocation(state) {
                self.cluster.deallocate_claim(&key);
                self.drain_cluster_events();
            }
            let message = fit_error_message(n_all, &pre_filter_msg, &diagnosis, &post_msg);
            // Preemption's victims are deleted (asynchronously upstream; completed here).
            if !victims.is_empty() {
                let node = nominating.as_ref().map(|n| n.nominated_node_name.clone()).unwrap_or_default();
                self.pending_victims = Some((pod.clone(), node, victims));
            }
            return CycleResult::Failed {
                status: Status::new(Code::Unschedulable, message.clone()),
                message,
                unschedulable,
                pending,
                nominating,
                fit_error: true,
            };
        }

        let evaluated = feasible.len() + diagnosis.len();
        if feasible.len() == 1 {
            let node = feasible[0];
            self.trace.push(TraceEvent::Score {
                cycle,
                table: None,
                selected: self.node_ids[node],
                tied: vec![self.node_ids[node]],
            });
            if detail {
                let name = self.snapshot.nodes()[node].name().to_string();
                self.pods[pod.index].scores = Some(AttemptScores {
                    cycle,
                    attempt: 0,
                    feasible_nodes: 1,
                    evaluated_nodes: evaluated,
                    weights: weights_by_name(fw),
                    tied: vec![name],
                    ..Default::default()
                });
            }
            if detail {
                self.pods[pod.index].tied_nodes = vec![self.snapshot.nodes()[node].name().to_string()];
            }
            return CycleResult::Scheduled {
                node,
                evaluated,
                feasible: 1,
            };
        }

        // PreScore + Score.
        let nodes: Vec<&NodeInfo> = feasible.iter().map(|&i| &self.snapshot.nodes()[i]).collect();
        let totals: Vec<i64>;
        let mut table = None;
        if !fw.has_score_plugins() {
            totals = vec![1; nodes.len()];
        } else {
            let ps = fw.run_pre_score(&cx, state, pod, &nodes);
            self.trace.push(TraceEvent::PreScore {
                cycle,
                skipped: state.skip_score.iter().collect(),
            });
            if !ps.is_success() {
                let msg = ps.message();
                return CycleResult::error(ps, msg);
            }
            match fw.run_score(&cx, state, pod, &nodes, &feasible) {
                Ok(sr) => {
                    totals = sr.totals.clone();
                    if detail {
                        table = Some(sr);
                    }
                }
                Err(s) => {
                    let msg = s.message();
                    return CycleResult::error(s, msg);
                }
            }
        }
        // selectHost: uniformly among the top-scored nodes.
        let max = *totals.iter().max().expect("non-empty");
        let tied: Vec<usize> = (0..totals.len()).filter(|&i| totals[i] == max).collect();
        let pick = if tied.len() == 1 {
            tied[0]
        } else {
            tied[self.rng.below(tied.len() as u64) as usize]
        };
        let selected = feasible[pick];
        let tied_nodes: Vec<u32> = tied.iter().map(|&i| self.node_ids[feasible[i]]).collect();
        if detail {
            self.pods[pod.index].tied_nodes = tied
                .iter()
                .map(|&i| self.snapshot.nodes()[feasible[i]].name().to_string())
                .collect();
        }
        if let Some(sr) = &table {
            let name = |i: usize| self.snapshot.nodes()[feasible[i]].name().to_string();
            let mut plugins: BTreeMap<String, BTreeMap<String, i64>> = BTreeMap::new();
            for p in &sr.plugins {
                let m = plugins.entry(p.plugin.as_str().to_string()).or_default();
                for (i, s) in p.normalized.iter().enumerate() {
                    m.insert(name(i), s * p.weight);
                }
            }
            self.pods[pod.index].scores = Some(AttemptScores {
                cycle,
                attempt: 0,
                feasible_nodes: feasible.len(),
                evaluated_nodes: evaluated,
                totals: (0..feasible.len()).map(|i| (name(i), sr.totals[i])).collect(),
                plugins,
                weights: weights_by_name(fw),
                tied: self.pods[pod.index].tied_nodes.clone(),
            });
        }
        self.trace.push(TraceEvent::Score {
            cycle,
            table: table.map(|sr| ScoreTable {
                nodes: feasible.iter().map(|&i| self.node_ids[i]).collect(),
                plugins: sr
                    .plugins
                    .into_iter()
                    .map(|p| PluginScoreRow {
                        plugin: p.plugin,
                        weight: p.weight,
                        raw: p.raw,
                        normalized: p.normalized,
                    })
                    .collect(),
                totals: sr.totals,
            }),
            selected: self.node_ids[selected],
            tied: tied_nodes,
        });
        CycleResult::Scheduled {
            node: selected,
            evaluated,
            feasible: feasible.len(),
        }
    }
}

/// The profile's score weights, by plugin name (as `AttemptScores` reports them).
fn weights_by_name(fw: &Framework) -> BTreeMap<String, i64> {
    fw.profile
        .weights
        .iter()
        .map(|(k, v)| (k.as_str().to_string(), *v as i64))
        .collect()
}

/// Records a plugin's rejection in the diagnosis sets.
fn add_plugin_status(s: &Status, unschedulable: &mut PluginSet, pending: &mut PluginSet) {
    let Some(p) = s.plugin else { return };
    if s.is_rejected() {
        unschedulable.insert(p);
    }
    if s.code == Code::Pending {
        pending.insert(p);
    }
}

/// The FailedScheduling message of a FitError (upstream FitError.Error()).
pub fn fit_error_message(num_all: usize, pre_filter_msg: &str, diagnosis: &NodeToStatus, post_filter_msg: &str) -> String {
    let mut msg = format!("0/{num_all} nodes are available:");
    if !pre_filter_msg.is_empty() {
        msg.push_str(&format!(" {pre_filter_msg}."));
    } else {
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for s in diagnosis.map.values() {
            for r in &s.reasons {
                *reasons.entry(r.to_string()).or_insert(0) += 1;
            }
        }
        if diagnosis.len() < num_all {
            for r in &diagnosis.absent.reasons {
                *reasons.entry(r.to_string()).or_insert(0) += num_all - diagnosis.len();
            }
        }
        let mut parts: Vec<String> = reasons.into_iter().map(|(r, n)| format!("{n} {r}")).collect();
        parts.sort();
        if !parts.is_empty() {
            msg.push_str(&format!(" {}.", parts.join(", ")));
        }
    }
    if !post_filter_msg.is_empty() {
        msg.push_str(&format!(" {post_filter_msg}"));
    }
    msg
}

impl Engine {
    /// Delivers a cluster event to the queue and records the moves it caused.
    fn cluster_event(&mut self, ev: ClusterEvent, obj: EventObject) {
        self.deliver(ev, obj, None);
    }

    /// Delivers a cluster event to the unschedulable pods that pass `precheck` only.
    fn cluster_event_filtered(&mut self, ev: ClusterEvent, obj: EventObject, precheck: &dyn Fn(&PodInfo) -> bool) {
        self.deliver(ev, obj, Some(precheck));
    }

    fn deliver(&mut self, ev: ClusterEvent, obj: EventObject, precheck: Option<&dyn Fn(&PodInfo) -> bool>) {
        self.generation += 1;
        let now = self.tick();
        let moves = self.with_queue(|queue, env| queue.move_all(env, ev, &obj, precheck, now));
        for m in moves {
            self.record_move(m);
        }
        self.record_hint_log();
    }

    /// A pending pod's nominated node changes (the scheduler patches its status): the queue and
    /// the nominator get the new object, and a pod that loses or changes its nomination counts
    /// as deleted from its old node for the pods of lower or equal priority.
    fn set_nominated_node(&mut self, pi: usize, node: Option<String>) {
        let old = self.pods[pi].info.clone();
        if old.nominated_node_name() == node.as_deref() {
            return;
        }
        self.trace.push(TraceEvent::Nominated {
            pod: pi as u32,
            node: node.clone(),
        });
        self.generation += 1;
        let mut info = (*old).clone();
        info.pod.status.nominated_node_name = node.clone();
        let info = Arc::new(info);
        self.pods[pi].info = info.clone();
        self.pods[pi].nominated_node = node.clone();
        let now = self.tick();
        let moves = self.with_queue(|queue, env| queue.update(env, &old, info.clone(), now));
        for m in moves {
            self.record_move(m);
        }
        self.record_hint_log();
        match &node {
            Some(n) => self.nominator.add(info, n),
            None => self.nominator.remove(&old.key),
        }
        if old.nominated_node_name().is_some() {
            let prio = old.priority;
            self.cluster_event_filtered(
                ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                EventObject::Pod { old: Some(old), new: None },
                &|p: &PodInfo| p.priority <= prio,
            );
        }
    }

    /// A kubectl-style event about a pod, recorded in the trace and in `events`.
    fn kube_event(&mut self, cycle: u32, reason: &str, pod: usize, message: String) {
        self.trace.push(TraceEvent::KubeEvent {
            cycle,
            reason: reason.into(),
            pod: pod as u32,
            message: message.clone(),
        });
        let at_ms = self.now_ms();
        self.events.push(KubeEvent {
            reason: reason.into(),
            pod,
            message,
            cycle,
            at_ms,
        });
    }

    /// Delivers the events raised by writes to the cluster (e.g. volume binding).
    fn drain_cluster_events(&mut self) {
        let evs = std::mem::take(&mut self.cluster.pending_events);
        for (ev, obj) in evs {
            if let EventObject::ResourceClaim { old, new } = &obj {
                self.trace.push(crate::dra::claim_trace_event(old.as_deref(), new.as_deref()));
            }
            self.cluster_event(ev, obj);
        }
    }

    /// Assume, Reserve, Permit, then the binding cycle (PreBind, Bind, PostBind). On failure
    /// returns the status, the FailedScheduling message, and whether the failure names rejecting
    /// plugins (a Reserve or Permit rejection, reported as a FitError on one node).
    fn assume_reserve_permit_bind(
        &mut self,
        state: &mut CycleState,
        pod: &Arc<PodInfo>,
        node: usize,
        cycle: u32,
    ) -> Result<(), (Status, String, bool)> {
        let node_name = self.snapshot.nodes()[node].name().to_string();
        let mut assumed = (**pod).clone();
        assumed.pod.spec.node_name = Some(node_name.clone());
        // Bound pods start in bind order, after every pod of the scenario (ns resolution).
        assumed.start_time = Some(self.sched_start_ns + self.now);
        let assumed = Arc::new(assumed);
        self.snapshot.add_pod(node, assumed.clone());
        // An assumed pod is no longer a nominated one.
        self.nominator.remove(&pod.key);
        let fw = &self.frameworks[pod.scheduler_name()];

        let fail_one_node = |s: &Status, node: usize| -> String {
            let mut d = NodeToStatus::default();
            d.map.insert(node, s.clone());
            fit_error_message(1, "", &d, "")
        };

        let cx = Ctx {
            snapshot: &self.snapshot,
            cluster: &self.cluster,
            nominator: &self.nominator,
        };
        let s = fw.run_reserve(&cx, state, &assumed, &node_name);
        self.trace.push(TraceEvent::Reserve {
            cycle,
            node: self.node_ids[node],
            code: s.code,
        });
        if !s.is_success() {
            fw.run_unreserve(&cx, state, &assumed, &node_name);
            self.snapshot.remove_pod(node, &pod.key);
            let rejected = s.is_rejected();
            let msg = if rejected { fail_one_node(&s, node) } else { s.message() };
            return Err((s, msg, rejected));
        }
        let s = fw.run_permit(&cx, state, &assumed, &node_name);
        self.trace.push(TraceEvent::Permit {
            cycle,
            node: self.node_ids[node],
            code: s.code,
        });
        if !s.is_success() && !s.is_wait() {
            fw.run_unreserve(&cx, state, &assumed, &node_name);
            self.snapshot.remove_pod(node, &pod.key);
            let rejected = s.is_rejected();
            let msg = if rejected { fail_one_node(&s, node) } else { s.message() };
            return Err((s, msg, rejected));
        }

        // Binding cycle. The pod's attempt is done for the queue: events from here on are not
        // replayed for it.
        self.queue.done(&pod.key);
        let s = fw.run_pre_bind(&mut self.cluster, state, &assumed, &node_name);
        self.trace.push(TraceEvent::PreBind {
            cycle,
            node: self.node_ids[node],
            code: s.code,
        });
        let s = if s.is_success() {
            fw.run_bind(&mut self.cluster, state, &assumed, &node_name)
        } else {
            s
        };
        if !s.is_success() {
            let fw = &self.frameworks[pod.scheduler_name()];
            let cx = Ctx {
                snapshot: &self.snapshot,
                cluster: &self.cluster,
                nominator: &self.nominator,
            };
            fw.run_unreserve(&cx, state, &assumed, &node_name);
            self.snapshot.remove_pod(node, &pod.key);
            let msg = s.message();
            self.drain_cluster_events();
            // Forgetting the assumed pod frees its resources: an AssignedPodDelete event, held
            // back until the failure is handled when the binding was rejected.
            if s.is_rejected() {
                self.deferred_forget = Some(assumed.clone());
            } else {
                self.cluster_event(
                    ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                    EventObject::Pod {
                        old: Some(assumed.clone()),
                        new: None,
                    },
                );
            }
            return Err((s, msg, false));
        }
        let binder = s.plugin;
        let pi = pod.index;
        self.trace.push(TraceEvent::Bind {
            cycle,
            pod: pi as u32,
            node: self.node_ids[node],
            plugin: binder,
        });
        let fw = &self.frameworks[pod.scheduler_name()];
        fw.run_post_bind(&mut self.cluster, state, &assumed, &node_name);
        self.trace.push(TraceEvent::PostBind { cycle });
        {
            let st = &mut self.pods[pi];
            st.info = assumed.clone();
            st.phase = Phase::Running;
            st.node = Some(node_name.clone());
            st.ran_on = Some(node_name.clone());
        }
        let bound_at = self.timeline.instant;
        self.start_running(pi, bound_at);
        let message = format!("Successfully assigned {} to {}", pod.key, node_name);
        self.kube_event(cycle, "Scheduled", pi, message);
        self.trace.push(TraceEvent::QueueMove {
            pod: pi as u32,
            from: QueueName::InFlight,
            to: QueueName::None,
            event: None,
            backoff_until_ms: None,
        });
        self.drain_cluster_events();
        // The binding as the informers see it: the scheduled-pod handler adds the pod...
        self.cluster_event(
            ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD),
            EventObject::Pod {
                old: None,
                new: Some(assumed),
            },
        );
        // ...and the pending-pod handler sees it leave; a pod that had a nominated node is
        // treated as deleted from that node by the pods of lower or equal priority.
        if pod.nominated_node_name().is_some() {
            let prio = pod.priority;
            self.cluster_event_filtered(
                ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                EventObject::Pod {
                    old: Some(pod.clone()),
                    new: None,
                },
                &|p: &PodInfo| p.priority <= prio,
            );
        }
        Ok(())
    }

    /// Deletes a running pod (a preemption victim) and tells the queue.
    fn delete_pod(&mut self, victim: usize) {
        let info = self.pods[victim].info.clone();
        if let Some(node) = self.pods[victim].node.clone() {
            if let Some(idx) = self.snapshot.position(&node) {
                self.snapshot.remove_pod(idx, &info.key);
            }
            let idx = self.snapshot.position(&node).unwrap_or(0);
            self.trace.push(TraceEvent::Deleted {
                pod: victim as u32,
                node: self.node_ids[idx],
            });
        }
        self.cancel_finish(victim);
        {
            let st = &mut self.pods[victim];
            st.phase = Phase::Deleted;
            st.node = None;
            st.evicted = true;
        }
        self.nominator.remove(&info.key);
        let removed = self.with_queue(|queue, env| queue.delete(env, &info.key));
        if let Some(from) = removed {
            self.trace.push(TraceEvent::QueueMove {
                pod: victim as u32,
                from,
                to: QueueName::None,
                event: Some("PodDelete".into()),
                backoff_until_ms: None,
            });
        }
        let (ns, name, uid) = (info.namespace().to_string(), info.name().to_string(), info.uid.clone());
        self.cluster_event(
            ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
            EventObject::Pod {
                old: Some(info),
                new: None,
            },
        );
        // Its ResourceClaims follow (reservation, deallocation, deletion of those it owns).
        self.cluster.release_claims(&ns, &name, &uid);
        self.drain_cluster_events();
    }

    /// Failure handling (upstream handleSchedulingFailure), then what follows it in the
    /// simulated cluster: the pod goes back to the queue (AddUnschedulableIfNotPresent), the
    /// nominator records its nominated node, the FailedScheduling event and the status patch
    /// (message, nominated node) are applied; then a successful preemption runs to completion:
    /// lower-priority pods nominated to the chosen node lose their nomination and the victims
    /// are deleted, all together.
    fn handle_failure(&mut self, q: QueuedPodInfo, status: Status, message: String, nominating: Option<NominatingInfo>, cycle: u32) {
        let pi = self.pod_index[&q.pod.key];
        let _ = status;
        self.failed_at.insert(q.pod.key.clone(), self.generation);

        // Back to the queue, with the pod object as it was when the attempt started.
        let now = self.tick();
        let m = self.with_queue(|queue, env| queue.add_unschedulable(env, q, now));
        self.record_move(m);

        // The nominator: Override sets (or clears) the nominated node; otherwise the pod keeps
        // the one its status carries.
        let current = self.pods[pi].info.clone();
        let target = match &nominating {
            Some(n) if n.mode == NominatingMode::Override => (!n.nominated_node_name.is_empty()).then(|| n.nominated_node_name.clone()),
            _ => current.nominated_node_name().map(String::from),
        };
        match &target {
            Some(n) => self.nominator.add(current.clone(), n),
            None => self.nominator.remove(&current.key),
        }

        // The FailedScheduling event and the status patch.
        self.pods[pi].message = Some(message.clone());
        self.kube_event(cycle, "FailedScheduling", pi, message);
        self.set_nominated_node(pi, target);

        // A binding that was rejected: its assumed pod is forgotten now.
        if let Some(assumed) = self.deferred_forget.take() {
            let uid = assumed.uid.clone();
            self.cluster_event_filtered(
                ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                EventObject::Pod {
                    old: Some(assumed),
                    new: None,
                },
                &|p: &PodInfo| p.uid != uid,
            );
        }

        // A successful preemption completes.
        if let Some((preemptor, node, victims)) = self.pending_victims.take() {
            let lower: Vec<usize> = self
                .nominator
                .pods_for_node(&node)
                .iter()
                .filter(|p| p.priority < preemptor.priority)
                .filter_map(|p| self.pod_by_key(&p.key))
                .collect();
            for p in lower {
                self.set_nominated_node(p, None);
            }
            for v in &victims {
                let Some(vi) = self.pod_by_key(v) else { continue };
                if self.pods[vi].phase != Phase::Running {
                    continue;
                }
                self.delete_pod(vi);
                let msg = format!("Preempted by pod {} on node {}", preemptor.uid, node);
                self.kube_event(cycle, "Preempted", vi, msg);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Plugin;
    use crate::plugins::PluginName;

    const NODES: &str = r#"
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 100
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: '4', memory: 16Gi, pods: '110'}}
"#;

    fn pod(name: &str, extra: &str, cpu: &str) -> String {
        format!("---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n{extra}  containers: [{{name: c, image: x, resources: {{requests: {{cpu: '{cpu}'}}}}}}]\n")
    }

    fn engine(docs: &[String]) -> Engine {
        let text = format!("{NODES}{}", docs.concat());
        let sc = crate::load_str(&text, "test.yaml").unwrap_or_else(|e| panic!("{e}"));
        Engine::new(sc, EngineOptions::default())
    }

    fn state<'a>(e: &'a Engine, name: &str) -> &'a PodState {
        &e.pods[e.pod_by_key(&format!("default/{name}")).unwrap()]
    }

    /// A PreFilter that always fails with an error.
    struct Broken;
    impl Plugin for Broken {
        fn name(&self) -> PluginName {
            PluginName::NodeAffinity
        }
        fn pre_filter(&self, _cx: &Ctx, _state: &mut CycleState, _pod: &PodInfo) -> (Option<crate::framework::PreFilterResult>, Status) {
            (None, Status::error("boom"))
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pods_of_other_schedulers_are_not_queued() {
        let mut e = engine(&[pod("mine", "", "1"), pod("theirs", "  schedulerName: someone-else\n", "1")]);
        e.run();
        assert_eq!(state(&e, "mine").phase, Phase::Running);
        let theirs = state(&e, "theirs");
        assert_eq!(
            (theirs.phase, theirs.attempts, theirs.message.as_deref()),
            (Phase::Pending, 0, None)
        );
        assert_eq!(e.cycles.len(), 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn error_pods_are_not_retried_in_an_unchanged_cluster() {
        let mut e = engine(&[pod("p", "", "1")]);
        e.frameworks.get_mut("default-scheduler").unwrap().set_instance(Box::new(Broken));
        e.run();
        let p = state(&e, "p");
        assert_eq!((p.attempts, p.phase), (1, Phase::Pending));
        assert_eq!(p.message.as_deref(), Some("running PreFilter plugin \"NodeAffinity\": boom"));
        assert_eq!(e.queue.backoff().count(), 1, "waits in the error backoff queue");
        // Once the cluster changes it is retried, when its backoff ends (the clock jumps).
        e.cluster_event(
            ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD),
            EventObject::Pod { old: None, new: None },
        );
        e.run();
        assert_eq!(state(&e, "p").attempts, 2);
        assert_eq!(e.now_ms(), 2000);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn preemption_nominates_evicts_and_retries() {
        let mut e = engine(&[
            pod("victim", "  nodeName: node-a\n  priorityClassName: low\n", "3"),
            pod("urgent", "  priorityClassName: high\n", "2"),
            pod("small", "", "3"),
        ]);
        e.run();
        let urgent = state(&e, "urgent");
        assert_eq!(urgent.node.as_deref(), Some("node-a"));
        assert_eq!(urgent.nominated_node.as_deref(), Some("node-a"), "kept after binding");
        assert_eq!(urgent.attempts, 2);
        assert!(state(&e, "victim").evicted);
        assert!(e.nominator.is_empty());
        // The lower-priority pod failed while urgent was nominated; urgent's binding (a
        // nominated pod leaving the queue) retried it once more.
        let small = state(&e, "small");
        assert_eq!((small.attempts, small.phase), (2, Phase::Pending));
        let reasons: Vec<(&str, &str)> = e.events.iter().map(|ev| (ev.reason.as_str(), e.pods[ev.pod].info.name())).collect();
        assert_eq!(
            reasons,
            [
                ("FailedScheduling", "urgent"),
                ("Preempted", "victim"),
                ("FailedScheduling", "small"),
                ("Scheduled", "urgent"),
                ("FailedScheduling", "small")
            ]
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn lower_priority_nominations_on_the_chosen_node_are_cleared() {
        // `mid` already carries a nomination for node-a; `urgent` preempts there.
        let mut e = engine(&[
            pod("victim", "  nodeName: node-a\n  priorityClassName: low\n", "3"),
            pod("urgent", "  priorityClassName: high\n", "2"),
            pod("mid", "  priority: 500\n", "1") + "status: {nominatedNodeName: node-a}\n",
        ]);
        let on_a = |e: &Engine| -> Vec<String> { e.nominator.pods_for_node("node-a").iter().map(|p| p.name().to_string()).collect() };
        assert_eq!(on_a(&e), ["mid"]);
        assert_eq!(e.step(), StepOutcome::Unschedulable { pod: 1 });
        assert_eq!(state(&e, "mid").nominated_node, None, "priority 500 < 1000: the nomination goes");
        assert_eq!(state(&e, "urgent").nominated_node.as_deref(), Some("node-a"));
        assert_eq!(on_a(&e), ["urgent"]);
    }
}
