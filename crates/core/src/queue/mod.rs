//! The scheduling queue, modelled on kube-scheduler v1.34's PriorityQueue with queueing hints and
//! SchedulerPopFromBackoffQ enabled:
//!
//! - **activeQ**: a heap ordered by the QueueSort plugin; the pods to try next.
//! - **backoffQ**: pods rejected by plugins, waiting out their backoff. Ordered by backoff expiry
//!   (truncated to the 1 s ordering window), then by QueueSort. When activeQ is empty, Pop takes
//!   the head of this queue even if its backoff has not ended yet.
//! - **error backoffQ**: pods that failed without a rejecting plugin (errors), ordered by expiry
//!   alone and only ever flushed to activeQ once their backoff is over.
//! - **unschedulable pool**: pods rejected by plugins, waiting for a cluster event that one of
//!   those plugins' queueing hints says may help; also the pods gated by a PreEnqueue plugin.
//! - **in-flight pods**: popped pods with the cluster events seen since they were popped; those
//!   events are replayed through the queueing hints when the pod comes back unschedulable.
//!
//! Time is logical, in nanoseconds; the engine advances it. Every operation is O(log n) in the
//! number of queued pods except the cluster-event broadcast, which visits only the unschedulable
//! pods rejected by a plugin interested in the event.
//!
//! The queue's parts, by concept (as upstream's `pkg/scheduler/backend/queue` and `heap`):
//! - this file: the `SchedulingQueue` facade and its operations (Add, AddUnschedulableIfNotPresent,
//!   Update, Delete) and requeuePodWithQueueingStrategy;
//! - `active`: activeQ, Pop and Done, and the in-flight pods with the events seen since their pop;
//! - `backoff`: the backoff and error backoff queues, backoff durations and their flush;
//! - `unschedulable`: the unschedulable pool, gated pods (PreEnqueue) and the leftover flush;
//! - `hints`: queueing hints: which plugins registered which events, isPodWorthRequeuing, the
//!   cluster-event broadcast (MoveAllToActiveOrBackoffQueue) and its log;
//! - `heap`: the pod heap under activeQ and the backoff queues.

use crate::cluster::{Cluster, Nominator, Snapshot};
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource};
use crate::framework::{Ctx, Framework, PodInfo, QueuedPodInfo};
use crate::trace::QueueName;
use crate::vocabulary::PluginName;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

mod active;
mod backoff;
mod heap;
mod hints;
mod unschedulable;

pub use hints::{pod_update_events, InformerLog, PodHint, Strategy};

use active::InFlightEntry;
use heap::PodHeap;
use hints::HintReg;
use unschedulable::pool_name;

pub const NS_PER_MS: i64 = 1_000_000;
pub const NS_PER_SEC: i64 = 1_000 * NS_PER_MS;
/// The backoff queue's ordering window, which is also the period of its flush to activeQ.
pub const ORDERING_WINDOW_NS: i64 = NS_PER_SEC;
/// The "zero time": no backoff at all (earlier than any instant).
pub const NO_BACKOFF: i64 = i64::MIN;

/// Labels of the queue's own events (as upstream names them).
pub const EVENT_SCHEDULE_ATTEMPT_FAILURE: &str = "ScheduleAttemptFailure";
pub const EVENT_BACKOFF_COMPLETE: &str = "BackoffComplete";
pub const EVENT_POP_FROM_BACKOFF_Q: &str = "PopFromBackoffQ";
pub const EVENT_UNSCHEDULABLE_TIMEOUT: &str = "UnschedulableTimeout";

/// Where a queue operation put a pod (for the trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub key: String,
    pub from: QueueName,
    pub to: QueueName,
    pub event: Option<String>,
    pub backoff_until_ns: Option<i64>,
    /// When the pod ended up gated: the PreEnqueue plugin and its message.
    pub gated_by: Option<(PluginName, String)>,
}

/// What the queue needs to consult plugins.
pub struct QueueEnv<'a> {
    pub frameworks: &'a BTreeMap<String, Framework>,
    pub snapshot: &'a Snapshot,
    pub cluster: &'a Cluster,
    pub nominator: &'a Nominator,
    /// The QueueSort plugin, looked up once: a pop compares pods some 2 log n times.
    queue_sort: Option<&'a dyn crate::framework::Plugin>,
}

impl<'a> QueueEnv<'a> {
    pub fn new(frameworks: &'a BTreeMap<String, Framework>, snapshot: &'a Snapshot, cluster: &'a Cluster, nominator: &'a Nominator) -> Self {
        // Every profile must use the same QueueSort plugin; the first profile's is used.
        let queue_sort = frameworks.values().next().map(|fw| fw.queue_sort_plugin());
        QueueEnv {
            frameworks,
            snapshot,
            cluster,
            nominator,
            queue_sort,
        }
    }

    fn cx(&self) -> Ctx<'_> {
        Ctx {
            snapshot: self.snapshot,
            cluster: self.cluster,
            nominator: self.nominator,
        }
    }
    fn fw(&self, pod: &PodInfo) -> Option<&Framework> {
        self.frameworks.get(pod.scheduler_name())
    }
    /// QueueSort's less. Every profile must use the same QueueSort plugin; use the first.
    fn less(&self, a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        self.queue_sort.is_some_and(|p| p.less(a, b))
    }
}

pub struct SchedulingQueue {
    initial_backoff_ns: i64,
    max_backoff_ns: i64,
    active: PodHeap,
    backoff: PodHeap,
    error_backoff: PodHeap,
    /// The unschedulable pool (gated pods included), by pod key.
    unschedulable: BTreeMap<String, QueuedPodInfo>,
    /// Keys of unschedulable pods by rejecting plugin (the unschedulable, pending and gating
    /// plugins), so that an event visits only the pods a plugin interested in it rejected.
    by_plugin: Vec<BTreeSet<String>>,
    /// Unschedulable pods without any rejecting plugin (visited by every event).
    no_rejector: BTreeSet<String>,
    in_flight: VecDeque<InFlightEntry>,
    /// Sequence number of `in_flight[0]`.
    in_flight_base: u64,
    /// In-flight pod -> sequence number of its entry.
    in_flight_pods: HashMap<String, u64>,
    /// Profile -> the events its plugins registered.
    hints: BTreeMap<String, Vec<HintReg>>,
    /// Plugin -> every event it registered (in any profile), for gated pods.
    plugin_events: BTreeMap<PluginName, Vec<ClusterEvent>>,
    sched_cycle: u64,
    /// The ordering window of the last backoff flush.
    last_flush_window: i64,
    /// Whether pods that failed with an error are ever flushed back to activeQ (the timeline
    /// rules never retry them).
    retry_errors: bool,
    /// When set, each cluster event's effect on pending pods is recorded here.
    log: Option<Vec<InformerLog>>,
}

impl SchedulingQueue {
    /// An empty queue with no profile registered (see `register_profiles`).
    pub fn new(initial_backoff_seconds: i64, max_backoff_seconds: i64) -> SchedulingQueue {
        SchedulingQueue {
            initial_backoff_ns: initial_backoff_seconds.saturating_mul(NS_PER_SEC),
            max_backoff_ns: max_backoff_seconds.saturating_mul(NS_PER_SEC),
            active: PodHeap::default(),
            backoff: PodHeap::default(),
            error_backoff: PodHeap::default(),
            unschedulable: BTreeMap::new(),
            by_plugin: vec![BTreeSet::new(); PluginName::ALL.len()],
            no_rejector: BTreeSet::new(),
            in_flight: VecDeque::new(),
            in_flight_base: 0,
            in_flight_pods: HashMap::new(),
            hints: BTreeMap::new(),
            plugin_events: BTreeMap::new(),
            sched_cycle: 0,
            last_flush_window: 0,
            retry_errors: true,
            log: None,
        }
    }

    /// A queue that knows the profiles' queueing hints.
    pub fn with_profiles(initial_backoff_seconds: i64, max_backoff_seconds: i64, frameworks: &BTreeMap<String, Framework>) -> Self {
        let mut q = SchedulingQueue::new(initial_backoff_seconds, max_backoff_seconds);
        q.register_profiles(frameworks);
        q
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Pods waiting in the queue (in-flight pods excluded).
    pub fn len(&self) -> usize {
        self.active.len() + self.backoff.len() + self.error_backoff.len() + self.unschedulable.len()
    }

    /// Where a pod waits, if it does.
    pub fn get(&self, key: &str) -> Option<(&QueuedPodInfo, QueueName)> {
        if let Some(q) = self.active.get(key) {
            return Some((q, QueueName::ActiveQ));
        }
        if let Some(q) = self.backoff.get(key).or_else(|| self.error_backoff.get(key)) {
            return Some((q, QueueName::BackoffQ));
        }
        self.unschedulable.get(key).map(|q| (q, pool_name(q)))
    }

    /// Add: a new pending pod enters activeQ, or the unschedulable pool when a PreEnqueue plugin
    /// gates it.
    pub fn add(&mut self, env: &QueueEnv, mut q: QueuedPodInfo, now: i64) -> Move {
        q.timestamp = now;
        let key = q.pod.key.clone();
        let event = ClusterEvent::new(EventResource::UnscheduledPod, ActionType::ADD).label();
        let placed = self.place_in_active(env, q, &event, now);
        placed.into_move(key, QueueName::None, event)
    }

    /// AddUnschedulableIfNotPresent: after a failed attempt the pod returns to the unschedulable
    /// pool, or to backoffQ/activeQ when an event seen during the attempt may have helped (or no
    /// plugin rejected it). The caller sets the unschedulable and pending plugins.
    pub fn add_unschedulable(&mut self, env: &QueueEnv, mut q: QueuedPodInfo, now: i64) -> Move {
        let key = q.pod.key.clone();
        if self.get(&key).is_some() {
            // Already queued (upstream returns an error and only marks the pod done).
            self.done(&key);
            let to = self.get(&key).map(|(_, n)| n).unwrap_or(QueueName::None);
            return Move {
                key,
                from: QueueName::InFlight,
                to,
                event: None,
                backoff_until_ns: None,
                gated_by: None,
            };
        }
        if q.unschedulable_plugins.is_empty() && q.pending_plugins.is_empty() {
            q.consecutive_errors += 1;
        } else {
            q.unschedulable_count += 1;
            q.consecutive_errors = 0;
        }
        q.timestamp = now;
        q.backoff_expiration = 0;
        let strategy = self.strategy_for_in_flight(env, &q);
        let placed = self.requeue(env, q, strategy, EVENT_SCHEDULE_ATTEMPT_FAILURE, now);
        self.done(&key);
        placed.into_move(key, QueueName::InFlight, EVENT_SCHEDULE_ATTEMPT_FAILURE.to_string())
    }

    /// Update: a pending pod's object changed (e.g. its nominated node). In flight, the change
    /// is remembered as events; in activeQ or backoffQ the pod is replaced; in the unschedulable
    /// pool the update's events go through the hints.
    pub fn update(&mut self, env: &QueueEnv, old: &PodInfo, new: Arc<PodInfo>, now: i64) -> Vec<Move> {
        let events = pod_update_events(old, &new);
        let key = new.key.clone();
        let obj = EventObject::Pod {
            old: Some(Arc::new(old.clone())),
            new: Some(new.clone()),
        };
        if self.in_flight_pods.contains_key(&key) {
            for ev in events {
                self.in_flight.push_back(InFlightEntry::Event(ev, obj.clone()));
            }
            return Vec::new();
        }
        if let Some(mut q) = self.active.get(&key).cloned() {
            q.set_pod(new);
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| env.less(a, b);
            self.active.add_or_update(q, &less);
            return Vec::new();
        }
        if let Some(mut q) = self.backoff.get(&key).cloned() {
            q.set_pod(new);
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
            self.backoff.add_or_update(q, &less);
            return Vec::new();
        }
        if let Some(mut q) = self.error_backoff.get(&key).cloned() {
            q.set_pod(new);
            self.error_backoff.add_or_update(q, &Self::error_backoff_less);
            return Vec::new();
        }
        let Some(mut q) = self.remove_unschedulable(&key) else {
            return Vec::new();
        };
        q.set_pod(new);
        let mut moves = Vec::new();
        for ev in events {
            let from = pool_name(&q);
            let label = ev.label();
            self.log_event(label.clone());
            let mut answers = self.logging().then(Vec::new);
            let strategy = self.worth_requeuing_logged(env, &q, &ev, &obj, answers.as_mut());
            if strategy == Strategy::Skip {
                self.log_pod(&key, answers.unwrap_or_default(), from, None);
                continue;
            }
            let placed = self.requeue(env, q, strategy, &label, now);
            self.log_pod(&key, answers.unwrap_or_default(), from, Some(&placed));
            let to = placed.to;
            if to != from {
                moves.push(placed.into_move(key.clone(), from, label));
            }
            if matches!(to, QueueName::ActiveQ | QueueName::BackoffQ) {
                return moves;
            }
            // Gated again: back in the pool; later events may still move it.
            q = self.remove_unschedulable(&key).expect("gated pods are pooled");
        }
        self.insert_unschedulable(q);
        moves
    }

    /// Delete: the pod is gone; it leaves whichever pool holds it.
    pub fn delete(&mut self, env: &QueueEnv, key: &str) -> Option<QueueName> {
        if let Some((_, from)) = self.heap_remove(env, key) {
            return Some(from);
        }
        let q = self.remove_unschedulable(key)?;
        Some(pool_name(&q))
    }

    fn heap_remove(&mut self, env: &QueueEnv, key: &str) -> Option<(QueuedPodInfo, QueueName)> {
        if self.active.contains(key) {
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| env.less(a, b);
            return self.active.remove(key, &less).map(|q| (q, QueueName::ActiveQ));
        }
        self.backoff_remove(env, key).map(|q| (q, QueueName::BackoffQ))
    }

    /// requeuePodWithQueueingStrategy: the unschedulable pool for Skip, backoffQ while backing
    /// off, activeQ otherwise. Returns where the pod went.
    fn requeue(&mut self, env: &QueueEnv, q: QueuedPodInfo, strategy: Strategy, event: &str, now: i64) -> Placed {
        if strategy == Strategy::Skip {
            let to = pool_name(&q);
            self.insert_unschedulable(q);
            return Placed {
                to,
                until: None,
                gate: None,
            };
        }
        if strategy == Strategy::AfterBackoff && self.is_backing_off(&q, now) {
            return match self.move_to_backoff(env, q) {
                Ok(until) => Placed {
                    to: QueueName::BackoffQ,
                    until: Some(until),
                    gate: None,
                },
                Err(g) => Placed::gated(g),
            };
        }
        self.place_in_active(env, q, event, now)
    }
}

/// Where `requeue` put a pod.
struct Placed {
    to: QueueName,
    until: Option<i64>,
    gate: Option<(PluginName, String)>,
}

impl Placed {
    /// Gated by a PreEnqueue plugin (back in the unschedulable pool).
    fn gated(gate: (PluginName, String)) -> Placed {
        Placed {
            to: QueueName::Gated,
            until: None,
            gate: Some(gate),
        }
    }
    fn into_move(self, key: String, from: QueueName, event: String) -> Move {
        Move {
            key,
            from,
            to: self.to,
            event: Some(event),
            backoff_until_ns: self.until,
            gated_by: self.gate,
        }
    }
}

#[cfg(test)]
mod tests;
