//! The scheduler loop: pop a pod, run the scheduling cycle, then the binding cycle (or the
//! failure handling, including preemption), and apply the results to the simulated cluster.
//! Everything is recorded in the trace. The engine is stepped by its caller; time is logical.
//!
//! By concept, as upstream's `pkg/scheduler` (schedule_one.go) divides it:
//! - this file: the `Engine`, its loop (`step`, `run`: pop a pod, then one cycle), and how
//!   cluster events reach the queue;
//! - `cycle`: the scheduling cycle (PreFilter, Filter, PostFilter, Score, node selection);
//! - `binding`: Assume, Reserve, Permit, then the binding cycle (PreBind, Bind, PostBind);
//! - `failure`: failure handling (the FailedScheduling event, the nominated node, the
//!   completion of a preemption);
//! - `timed`: the timeline rules (clock jumps, durations, timeline steps, the leftover flush).

use crate::cluster::{Cluster, Nominator, Snapshot};
use crate::config::SchedulerConfig;
use crate::framework::events::{ClusterEvent, EventObject};
use crate::framework::{CycleState, Framework, PodInfo, QueuedPodInfo};
use crate::load::Scenario;
use crate::queue::{Move, QueueEnv, SchedulingQueue, NS_PER_MS};
use crate::rng::Rng;
use crate::trace::*;
use crate::vocabulary::PluginSet;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

mod binding;
mod cycle;
mod failure;
mod timed;
pub use crate::framework::fit_error_message;
pub use cycle::nodes_to_find;
pub use timed::ChangeOutcome;

use cycle::{add_plugin_status, clear_nomination, CycleResult};

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
    /// The phase of a pod as it arrives (from the file or a timeline step): Succeeded or
    /// Failed as its status says, Running when it names a node, else Pending.
    fn of_new(pod: &crate::api::Pod) -> Phase {
        match pod.status.phase.as_deref() {
            Some("Succeeded") => Phase::Succeeded,
            Some("Failed") => Phase::Failed,
            _ if pod.spec.node_name.as_deref().is_some_and(|n| !n.is_empty()) => Phase::Running,
            _ => Phase::Pending,
        }
    }
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

impl PodState {
    /// A pod just arrived (from the file or a timeline step), not yet tried by the scheduler;
    /// one that names a node is on it (and ran there).
    fn arrived(info: Arc<PodInfo>, phase: Phase) -> PodState {
        let node = info.node_name().map(String::from);
        PodState {
            nominated_node: info.nominated_node_name().map(String::from),
            ran_on: node.clone(),
            node,
            info,
            phase,
            attempts: 0,
            message: None,
            evicted: false,
            scores: None,
            tied_nodes: Vec::new(),
            bound_seq: None,
            finish_at: None,
        }
    }
}

/// A kubectl-style event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeEvent {
    pub reason: EventReason,
    pub pod: usize,
    pub message: String,
    pub cycle: u32,
    /// Logical time, ms (rounded down).
    pub at_ms: i64,
    /// For `Preempted`: the index of the pod whose preemption evicted this one (its message
    /// names it by uid for people; readers in the engine use this instead of the text).
    pub preemptor: Option<usize>,
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
    /// The scheduling cycle's buffers, reused by the next cycle (no state: contents are not read).
    scratch: cycle::CycleScratch,
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
    /// Counts the changes of `node_ids` (a reader keeps the order of each cycle cheaply).
    node_order_changes: u64,
    /// The timeline rules apply: the scenario has a Timeline or a pod with a duration.
    pub(crate) timed: bool,
    timeline: timed::TimelineState,
    /// Pods the controllers could not create while the cluster ran (FailedCreate messages).
    pub(crate) controller_failures: Vec<String>,
}

/// A pod popped for the next cycle, held between `Engine::advance_to_cycle` and
/// `Engine::resume_cycle`.
pub(crate) struct PoppedPod((QueuedPodInfo, QueueName));

impl PoppedPod {
    /// The pod as the queue handed it to the cycle.
    pub(crate) fn pod(&self) -> &Arc<PodInfo> {
        &self.0 .0.pod
    }
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

/// The trace events of a pod that enters the queue and is bound at its first cycle: queued,
/// popped, each extension point's event, bound (the 5000 x 10000 bench: 150 000 events).
const EVENTS_PER_SCHEDULED_POD: usize = 15;

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
    /// The nodes in the scheduler's visiting order now, each as its trace-header index (the
    /// header keeps every node ever seen; this lists the ones that exist).
    pub fn node_order(&self) -> &[u32] {
        &self.node_ids
    }
    /// How many times the node order has changed so far (nodes added, deleted or re-sorted).
    pub fn node_order_changes(&self) -> u64 {
        self.node_order_changes
    }

    /// Runs the engine up to the moment cycle `c` (1-based) begins: every cycle before it and
    /// everything that happens between the last of them and cycle `c` (timeline steps due,
    /// pods finishing, queue flushes, the controllers' reactions), then pops the pod cycle `c`
    /// schedules, exactly as `step` would. The engine is then in the state the cycle read,
    /// with the pod in flight, and returns the popped pod as the queue handed it over: read
    /// the state, then hand the pod back to `resume_cycle` before stepping on. `None` when the
    /// run never reaches cycle `c` (or has passed it).
    pub(crate) fn advance_to_cycle(&mut self, c: u32) -> Option<PoppedPod> {
        while self.cycle + 1 < c {
            if self.step() == StepOutcome::Quiet {
                return None;
            }
        }
        if self.cycle + 1 != c {
            return None;
        }
        let popped = self.next_pod().map(PoppedPod)?;
        // What the cycle does first (UpdateSnapshot: nodes changed since the last cycle copy
        // the cache's image counts); doing it again when the cycle resumes changes nothing.
        self.snapshot.update();
        Some(popped)
    }

    /// Runs the cycle of a pod `advance_to_cycle` popped, as `step` would have.
    pub(crate) fn resume_cycle(&mut self, popped: PoppedPod) -> StepOutcome {
        self.run_cycle(popped.0)
    }

    pub fn new(sc: Scenario, opts: EngineOptions) -> Engine {
        // The node objects are the scenario's, shared (a session keeps the scenario too).
        let snapshot = Snapshot::new(sc.nodes);
        let frameworks: BTreeMap<String, Framework> = crate::sort::map_of(
            sc.config
                .profiles
                .iter()
                .map(|p| (p.scheduler_name.clone(), Framework::new(p.clone(), &crate::plugins::IN_TREE))),
        );
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
            scratch: Default::default(),
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
            node_order_changes: 0,
            timed: false,
            timeline: timed::TimelineState::default(),
            controller_failures: Vec::new(),
        };
        e.timeline.documents = sc.documents;
        e.node_ids = (0..e.snapshot.len() as u32).collect();
        e.trace.header = TraceHeader {
            kubernetes_version: e.config.features.version(),
            pods: Vec::new(),
            nodes: e.snapshot.nodes().iter().map(|n| n.name().to_string()).collect(),
            profiles: e.frameworks.keys().cloned().collect(),
            seed: opts.seed,
        };
        // Running pods first (the cache is synced before scheduling starts), then the queue.
        let mut pending = Vec::new();
        let timeline = sc.timeline;
        e.timed = timeline.is_some()
            || sc.pods.iter().any(|p| crate::timeline::has_duration(p))
            || timeline.iter().flat_map(|t| &t.steps).any(|s| {
                matches!(&s.change, crate::timeline::Change::Create(o) if matches!(&**o, crate::timeline::Object::Pod(p) if crate::timeline::has_duration(p)))
            });
        // The pods leave the scenario's list from its end (reversed first), the list shrunk as
        // it empties: its buffer (1.7 KB a pod) is not held beside all the PodInfos built from
        // it, which set the run's peak memory.
        let mut pods = sc.pods;
        let n_pods = pods.len().min(sc.pod_docs.len());
        pods.truncate(n_pods);
        pods.reverse();
        for (i, doc) in sc.pod_docs.into_iter().take(n_pods).enumerate() {
            let pod = pods.pop().expect("one pod per document position");
            if pods.len() % 1024 == 0 {
                pods.shrink_to_fit();
            }
            let phase = Phase::of_new(&pod);
            let mut info = PodInfo::shared(pod, i);
            if phase == Phase::Running {
                info.start_time = Some(doc as i64 * 1_000_000_000);
            }
            let info = Arc::new(info);
            e.trace.header.pods.push(info.key.clone());
            e.pod_index.insert(info.key.clone(), i);
            if phase == Phase::Running {
                e.cache_running(&info);
            }
            if phase == Phase::Pending {
                pending.push(i);
            }
            e.pods.push(PodState::arrived(info, phase));
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
        // Room in the trace for the events of every pending pod scheduled at the first try, so
        // that a large run's log (150 000 events for 10 000 pods) is not copied through a
        // dozen regrowths; in wasm each is a copy of the whole log.
        e.trace.events.reserve(pending.len() * EVENTS_PER_SCHEDULED_POD);
        for i in pending {
            let info = e.pods[i].info.clone();
            e.enqueue_new(&info);
        }
        e
    }

    /// A new pending pod enters the queue (upstream's Add), if one of the engine's profiles
    /// schedules it: pods for another scheduler are not this scheduler's to queue (they stay
    /// pending). A pod entering activeQ joins the nominator when it carries a nominated node.
    fn enqueue_new(&mut self, info: &Arc<PodInfo>) {
        if !self.frameworks.contains_key(info.scheduler_name()) {
            return;
        }
        let now = self.tick();
        let q = QueuedPodInfo::new(info.clone(), now);
        let m = self.with_queue(|queue, env| queue.add(env, q, now));
        if m.to == QueueName::ActiveQ {
            if let Some(n) = info.nominated_node_name() {
                self.nominator.add(info.clone(), n);
            }
        }
        self.record_move(m);
    }

    /// A running pod the scheduler did not place enters the cache on its node (if the node
    /// exists).
    fn cache_running(&mut self, info: &Arc<PodInfo>) {
        if let Some(idx) = self.snapshot.position(info.node_name().unwrap_or("")) {
            self.snapshot.add_pod(idx, info.clone());
        }
    }

    /// Advances logical time by one nanosecond (every queue operation is ordered in time).
    fn tick(&mut self) -> i64 {
        self.now += 1;
        self.now
    }

    /// Runs `f` on the queue with what the queue consults (the profiles, the snapshot, the
    /// cluster objects and the nominator), borrowed from the engine's other fields.
    fn with_queue<R>(&mut self, f: impl FnOnce(&mut SchedulingQueue, &QueueEnv) -> R) -> R {
        let env = QueueEnv::new(&self.frameworks, &self.snapshot, &self.cluster, &self.nominator);
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
        let Some(popped) = self.next_pod() else {
            return StepOutcome::Quiet;
        };
        self.run_cycle(popped)
    }

    /// One scheduling cycle (and its binding cycle or failure handling) for the pod just popped.
    fn run_cycle(&mut self, (mut q, from): (QueuedPodInfo, QueueName)) -> StepOutcome {
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

    /// A kubectl-style event about a pod, recorded in the trace and in `events`.
    fn kube_event(&mut self, cycle: u32, reason: EventReason, pod: usize, message: String, preemptor: Option<usize>) {
        self.trace.push(TraceEvent::KubeEvent {
            cycle,
            reason,
            pod: pod as u32,
            message: message.clone(),
        });
        let at_ms = self.now_ms();
        self.events.push(KubeEvent {
            reason,
            pod,
            message,
            cycle,
            at_ms,
            preemptor,
        });
    }

    /// Delivers the events raised by writes to the cluster (e.g. volume binding).
    fn drain_cluster_events(&mut self) {
        let evs = std::mem::take(&mut self.cluster.pending_events);
        for (ev, obj) in evs {
            if let EventObject::ResourceClaim { old, new } = &obj {
                self.trace.push(claim_trace_event(old.as_deref(), new.as_deref()));
            }
            self.cluster_event(ev, obj);
        }
    }
}

/// The trace's record of a claim write.
fn claim_trace_event(old: Option<&crate::api::resource::ResourceClaim>, new: Option<&crate::api::resource::ResourceClaim>) -> TraceEvent {
    let c = new.or(old).expect("a claim event carries a claim");
    let (devices, reserved_for) = match new {
        Some(c) => crate::dra::claim_state(c),
        None => (Vec::new(), Vec::new()),
    };
    TraceEvent::Claim {
        claim: crate::dra::claim_key(c),
        devices,
        reserved_for,
        deleted: new.is_none(),
    }
}

#[cfg(test)]
mod tests;
