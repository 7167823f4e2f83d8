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

use crate::cluster::{Cluster, Nominator, Snapshot};
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource, QueueingHint};
use crate::framework::{Ctx, Framework, PodInfo, QueuedPodInfo};
use crate::plugins::{ep, PluginName, PluginSet};
use crate::trace::{HintAnswer, QueueName};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

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

/// What an event did to one pending pod it reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodHint {
    pub key: String,
    /// The hints asked, in order, until the decision (empty: no hint applied, e.g. the pod had
    /// no rejecting plugin or the event was the flush's wildcard).
    pub hints: Vec<HintAnswer>,
    /// Where the pod is now; `moved` tells whether it left the pool.
    pub to: QueueName,
    pub moved: bool,
    pub backoff_until_ns: Option<i64>,
}

/// One cluster event as the queue handled it (recorded only when logging is on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InformerLog {
    pub event: String,
    pub pods: Vec<PodHint>,
}

/// How a pod leaving the unschedulable pool (or coming back from a failed attempt) is queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strategy {
    Skip,
    AfterBackoff,
    Immediately,
}

/// One plugin's interest in one kind of cluster event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HintReg {
    event: ClusterEvent,
    plugin: PluginName,
    /// Ask the plugin's queueing hint; otherwise the answer is always Queue.
    has_hint: bool,
}

/// What the queue needs to consult plugins.
pub struct QueueEnv<'a> {
    pub frameworks: &'a BTreeMap<String, Framework>,
    pub snapshot: &'a Snapshot,
    pub cluster: &'a Cluster,
    pub nominator: &'a Nominator,
}

impl QueueEnv<'_> {
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
        match self.frameworks.values().next() {
            Some(fw) => fw.less(a, b),
            None => false,
        }
    }
}

type Less<'a> = dyn Fn(&QueuedPodInfo, &QueuedPodInfo) -> bool + 'a;

/// A binary heap of pods keyed by pod key, with the exact sift rules of Go's container/heap
/// (which upstream's heap wraps), so that pods comparing equal come out in the same order.
#[derive(Clone, Default)]
struct PodHeap {
    items: Vec<QueuedPodInfo>,
    /// The slot of each item (parallel to `items`).
    slots: Vec<usize>,
    /// Heap position by slot; `NONE` when the slot is free. Swaps touch only vectors.
    pos: Vec<usize>,
    /// Pod key -> slot (maintained on insert and removal only).
    by_key: HashMap<String, usize>,
    free: Vec<usize>,
}

const NONE: usize = usize::MAX;

impl PodHeap {
    fn len(&self) -> usize {
        self.items.len()
    }
    fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    fn peek(&self) -> Option<&QueuedPodInfo> {
        self.items.first()
    }
    fn position(&self, key: &str) -> Option<usize> {
        let &slot = self.by_key.get(key)?;
        self.pos.get(slot).copied().filter(|&i| i != NONE)
    }
    fn get(&self, key: &str) -> Option<&QueuedPodInfo> {
        self.position(key).map(|i| &self.items[i])
    }
    fn contains(&self, key: &str) -> bool {
        self.position(key).is_some()
    }
    fn new_slot(&mut self) -> usize {
        self.free.pop().unwrap_or_else(|| {
            self.pos.push(NONE);
            self.pos.len() - 1
        })
    }
    fn iter(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.items.iter()
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.items.swap(i, j);
        self.slots.swap(i, j);
        self.pos[self.slots[i]] = i;
        self.pos[self.slots[j]] = j;
    }
    fn up(&mut self, mut j: usize, less: &Less) {
        while j > 0 {
            let i = (j - 1) / 2;
            if !less(&self.items[j], &self.items[i]) {
                break;
            }
            self.swap(i, j);
            j = i;
        }
    }
    fn down(&mut self, i0: usize, n: usize, less: &Less) -> bool {
        let mut i = i0;
        loop {
            let j1 = 2 * i + 1;
            if j1 >= n {
                break;
            }
            let mut j = j1;
            let j2 = j1 + 1;
            if j2 < n && less(&self.items[j2], &self.items[j1]) {
                j = j2;
            }
            if !less(&self.items[j], &self.items[i]) {
                break;
            }
            self.swap(i, j);
            i = j;
        }
        i > i0
    }
    fn fix(&mut self, i: usize, less: &Less) {
        if !self.down(i, self.items.len(), less) {
            self.up(i, less);
        }
    }
    /// Adds the pod, or replaces the pod with the same key and restores the order.
    fn add_or_update(&mut self, q: QueuedPodInfo, less: &Less) {
        if let Some(i) = self.position(&q.pod.key) {
            self.items[i] = q;
            self.fix(i, less);
        } else {
            let slot = self.new_slot();
            self.by_key.insert(q.pod.key.clone(), slot);
            self.pos[slot] = self.items.len();
            self.slots.push(slot);
            self.items.push(q);
            self.up(self.items.len() - 1, less);
        }
    }
    fn take_last(&mut self) -> Option<QueuedPodInfo> {
        let q = self.items.pop()?;
        let slot = self.slots.pop().expect("parallel to items");
        self.by_key.remove(&q.pod.key);
        self.pos[slot] = NONE;
        self.free.push(slot);
        Some(q)
    }
    fn pop(&mut self, less: &Less) -> Option<QueuedPodInfo> {
        if self.items.is_empty() {
            return None;
        }
        let n = self.items.len() - 1;
        self.swap(0, n);
        self.down(0, n, less);
        self.take_last()
    }
    fn remove(&mut self, key: &str, less: &Less) -> Option<QueuedPodInfo> {
        let i = self.position(key)?;
        let n = self.items.len() - 1;
        if n != i {
            self.swap(i, n);
            if !self.down(i, n, less) {
                self.up(i, less);
            }
        }
        self.take_last()
    }
}

/// An entry of the in-flight log: a popped pod, or a cluster event received after it.
#[derive(Clone, Debug)]
enum InFlightEntry {
    Pod,
    Event(ClusterEvent, EventObject),
    /// A pod that was marked done (its slot stays until the front is pruned).
    Done,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum BackoffKind {
    Rejected,
    Error,
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

/// Events registered for a plugin that does not implement EnqueueExtensions: everything.
fn unrolled_wildcard() -> Vec<ClusterEvent> {
    use EventResource::*;
    [
        Pod,
        Node,
        PersistentVolume,
        PersistentVolumeClaim,
        CSINode,
        CSIDriver,
        CSIStorageCapacity,
        StorageClass,
        ResourceClaim,
        DeviceClass,
    ]
    .into_iter()
    .map(|r| ClusterEvent::new(r, ActionType::ALL))
    .collect()
}

fn align(t: i64) -> i64 {
    if t == NO_BACKOFF {
        return t;
    }
    t - t.rem_euclid(ORDERING_WINDOW_NS)
}

/// How a pod in the unschedulable pool is reported: gated or unschedulable.
fn pool_name(q: &QueuedPodInfo) -> QueueName {
    if q.gated {
        QueueName::Gated
    } else {
        QueueName::Unschedulable
    }
}

/// The plugins whose rejection keeps a pod in the unschedulable pool.
fn rejectors(q: &QueuedPodInfo) -> PluginSet {
    let mut s = q.unschedulable_plugins.union(q.pending_plugins);
    if let Some(g) = q.gating_plugin {
        s.insert(g);
    }
    s
}

/// The pod-update events an update of a pending pod amounts to (upstream
/// PodSchedulingPropertiesChange, for the parts a scenario can change).
pub fn pod_update_events(old: &PodInfo, new: &PodInfo) -> Vec<ClusterEvent> {
    let res = if new.node_name().is_some() {
        EventResource::AssignedPod
    } else {
        EventResource::UnscheduledPod
    };
    let mut out = Vec::new();
    if old.labels() != new.labels() {
        out.push(ActionType::UPDATE_POD_LABEL);
    }
    let (o, n) = (&old.resource.resource, &new.resource.resource);
    let scaled_down = o.milli_cpu > n.milli_cpu
        || o.memory > n.memory
        || o.ephemeral_storage > n.ephemeral_storage
        || o.scalar.iter().any(|(name, v)| !n.has_scalar(name) || *v > n.scalar(name));
    if scaled_down {
        out.push(ActionType::UPDATE_POD_SCALE_DOWN);
    }
    if new.pod.spec.scheduling_gates.is_empty() && !old.pod.spec.scheduling_gates.is_empty() {
        out.push(ActionType::UPDATE_POD_SCHEDULING_GATES_ELIMINATED);
    }
    if new.pod.spec.tolerations.len() != old.pod.spec.tolerations.len() {
        out.push(ActionType::UPDATE_POD_TOLERATION);
    }
    if out.is_empty() {
        out.push(ActionType::UPDATE);
    }
    out.into_iter().map(|a| ClusterEvent::new(res, a)).collect()
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

    /// Collects, per profile, the cluster events each plugin registered (upstream
    /// buildQueueingHintMap): plugins at PreEnqueue, PreFilter, Filter, Reserve or Permit
    /// register their EventsToRegister, or every event when they have none to offer.
    pub fn register_profiles(&mut self, frameworks: &BTreeMap<String, Framework>) {
        let relevant = ep::PRE_ENQUEUE | ep::PRE_FILTER | ep::FILTER | ep::RESERVE | ep::PERMIT;
        for (name, fw) in frameworks {
            let mut regs = Vec::new();
            for (pn, pl) in fw.instances() {
                if !pn.implements(relevant) {
                    continue;
                }
                let events: Vec<(ClusterEvent, bool)> = if pn.implements(ep::ENQUEUE_EXT) {
                    pl.events_to_register().into_iter().map(|e| (e.event, e.has_hint)).collect()
                } else {
                    unrolled_wildcard().into_iter().map(|e| (e, false)).collect()
                };
                if events.is_empty() {
                    continue;
                }
                let mut node_add = false;
                let mut node_taint = false;
                for (event, has_hint) in events {
                    if event.resource == EventResource::Node {
                        node_add |= event.action.intersects(ActionType::ADD);
                        node_taint |= event.action.intersects(ActionType::UPDATE_NODE_TAINT);
                    }
                    regs.push(HintReg {
                        event,
                        plugin: pn,
                        has_hint,
                    });
                }
                // As upstream: a plugin interested in new nodes also hears about taint changes.
                if node_add && !node_taint {
                    regs.push(HintReg {
                        event: ClusterEvent::new(EventResource::Node, ActionType::UPDATE_NODE_TAINT),
                        plugin: pn,
                        has_hint: false,
                    });
                }
            }
            for r in &regs {
                let evs = self.plugin_events.entry(r.plugin).or_default();
                if !evs.contains(&r.event) {
                    evs.push(r.event);
                }
            }
            self.hints.insert(name.clone(), regs);
        }
    }

    /// Pods that failed with an error stay in the error backoff queue for good (`false`).
    pub fn set_retry_errors(&mut self, retry: bool) {
        self.retry_errors = retry;
    }

    /// Starts recording what each cluster event did to pending pods (see `take_log`).
    pub fn enable_log(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The events recorded since the last call.
    pub fn take_log(&mut self) -> Vec<InformerLog> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn logging(&self) -> bool {
        self.log.is_some()
    }

    fn log_event(&mut self, event: String) {
        if let Some(l) = self.log.as_mut() {
            l.push(InformerLog { event, pods: Vec::new() });
        }
    }

    fn log_pod(&mut self, key: &str, hints: Vec<HintAnswer>, from: QueueName, placed: Option<&Placed>) {
        if let Some(entry) = self.log.as_mut().and_then(|l| l.last_mut()) {
            entry.pods.push(PodHint {
                key: key.to_string(),
                hints,
                to: placed.map_or(from, |p| p.to),
                moved: placed.is_some_and(|p| p.to != from),
                backoff_until_ns: placed.and_then(|p| p.until),
            });
        }
    }

    // --- inspection ---------------------------------------------------------------------

    /// activeQ in heap order (not pop order; see `active_in_order`).
    pub fn active(&self) -> &[QueuedPodInfo] {
        &self.active.items
    }
    pub fn backoff(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.backoff.iter().chain(self.error_backoff.iter())
    }
    /// The unschedulable pool, gated pods included, by key.
    pub fn unschedulable(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.unschedulable.values()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Pods waiting in the queue (in-flight pods excluded).
    pub fn len(&self) -> usize {
        self.active.len() + self.backoff.len() + self.error_backoff.len() + self.unschedulable.len()
    }
    pub fn in_flight(&self) -> usize {
        self.in_flight_pods.len()
    }
    /// Number of pops so far (upstream SchedulingCycle).
    pub fn scheduling_cycle(&self) -> u64 {
        self.sched_cycle
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
    /// Pods in activeQ in the order they would be popped.
    pub fn active_in_order(&self, env: &QueueEnv) -> Vec<QueuedPodInfo> {
        let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| env.less(a, b);
        let mut h = self.active.clone();
        let mut out = Vec::with_capacity(h.len());
        while let Some(q) = h.pop(&less) {
            out.push(q);
        }
        out
    }

    // --- backoff ------------------------------------------------------------------------

    fn backoff_duration(&self, count: u32) -> i64 {
        if count == 0 {
            return 0;
        }
        let shift = (count - 1).min(63);
        if self.initial_backoff_ns > (self.max_backoff_ns >> shift) {
            return self.max_backoff_ns;
        }
        self.initial_backoff_ns << shift
    }

    /// When the pod's backoff ends, truncated to the ordering window (`NO_BACKOFF` when it has
    /// none: never tried, or backoff disabled by a zero maximum).
    pub fn backoff_time(&self, q: &QueuedPodInfo) -> i64 {
        if self.max_backoff_ns == 0 {
            return NO_BACKOFF;
        }
        let count = if q.consecutive_errors > 0 {
            q.consecutive_errors
        } else {
            q.unschedulable_count
        };
        if count == 0 {
            return NO_BACKOFF;
        }
        align(q.timestamp.saturating_add(self.backoff_duration(count)))
    }

    /// Whether the pod is still backing off: its backoff ends in the current window or later.
    pub fn is_backing_off(&self, q: &QueuedPodInfo, now: i64) -> bool {
        self.backoff_time(q) >= align(now)
    }

    fn backoff_less(a: &QueuedPodInfo, b: &QueuedPodInfo, env: &QueueEnv) -> bool {
        if a.backoff_expiration != b.backoff_expiration {
            return a.backoff_expiration < b.backoff_expiration;
        }
        env.less(a, b)
    }

    fn error_backoff_less(a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        a.backoff_expiration < b.backoff_expiration
    }

    fn heap_remove(&mut self, env: &QueueEnv, key: &str) -> Option<(QueuedPodInfo, QueueName)> {
        if self.active.contains(key) {
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| env.less(a, b);
            return self.active.remove(key, &less).map(|q| (q, QueueName::ActiveQ));
        }
        self.backoff_remove(env, key).map(|q| (q, QueueName::BackoffQ))
    }

    fn backoff_remove(&mut self, env: &QueueEnv, key: &str) -> Option<QueuedPodInfo> {
        if self.backoff.contains(key) {
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
            return self.backoff.remove(key, &less);
        }
        if self.error_backoff.contains(key) {
            return self.error_backoff.remove(key, &Self::error_backoff_less);
        }
        None
    }

    // --- the unschedulable pool -----------------------------------------------------------

    fn index(&mut self, q: &QueuedPodInfo, add: bool) {
        let r = rejectors(q);
        let key = &q.pod.key;
        if r.is_empty() {
            if add {
                self.no_rejector.insert(key.clone());
            } else {
                self.no_rejector.remove(key);
            }
        }
        for p in r.iter() {
            let set = &mut self.by_plugin[p as usize];
            if add {
                set.insert(key.clone());
            } else {
                set.remove(key);
            }
        }
    }

    fn insert_unschedulable(&mut self, q: QueuedPodInfo) {
        self.remove_unschedulable(&q.pod.key);
        self.index(&q, true);
        self.unschedulable.insert(q.pod.key.clone(), q);
    }

    fn remove_unschedulable(&mut self, key: &str) -> Option<QueuedPodInfo> {
        let q = self.unschedulable.remove(key)?;
        self.index(&q, false);
        Some(q)
    }

    // --- PreEnqueue and moves between pools -------------------------------------------------

    /// Runs the PreEnqueue plugins (the gating plugin first): the first that does not pass gates
    /// the pod and joins its unschedulable plugins. Returns the gating status message.
    fn run_pre_enqueue(env: &QueueEnv, q: &mut QueuedPodInfo) -> Option<String> {
        let fw = env.fw(&q.pod)?;
        let cx = env.cx();
        let mut order: Vec<PluginName> = Vec::with_capacity(fw.profile.plugins.pre_enqueue.len());
        if let Some(g) = q.gating_plugin.filter(|g| fw.profile.plugins.pre_enqueue.contains(g)) {
            order.push(g);
        }
        order.extend(
            fw.profile
                .plugins
                .pre_enqueue
                .iter()
                .copied()
                .filter(|p| Some(*p) != q.gating_plugin),
        );
        for p in order {
            let s = fw.plugin(p).pre_enqueue(&cx, &q.pod);
            if !s.is_success() {
                q.unschedulable_plugins.insert(p);
                q.gating_plugin = Some(p);
                q.gated = true;
                return Some(s.message());
            }
        }
        q.gating_plugin = None;
        q.gated = false;
        None
    }

    /// moveToActiveQ: PreEnqueue (not again for pods whose backoff completed: they passed it on
    /// entering backoffQ), then activeQ, or the unschedulable pool when gated. Returns the gate.
    fn move_to_active(&mut self, env: &QueueEnv, mut q: QueuedPodInfo, event: &str, now: i64) -> Result<(), (PluginName, String)> {
        if event != EVENT_BACKOFF_COMPLETE {
            if let Some(msg) = Self::run_pre_enqueue(env, &mut q) {
                let gate = (q.gating_plugin.expect("gated"), msg);
                let key = q.pod.key.clone();
                if !self.active.contains(&key) && !self.backoff.contains(&key) && !self.error_backoff.contains(&key) {
                    // Already in the pool: upstream keeps the older entry.
                    if !self.unschedulable.contains_key(&key) {
                        self.insert_unschedulable(q);
                    }
                }
                return Err(gate);
            }
        }
        if q.initial_attempt_timestamp.is_none() {
            q.initial_attempt_timestamp = Some(now);
        }
        let key = q.pod.key.clone();
        let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| env.less(a, b);
        self.active.add_or_update(q, &less);
        self.remove_unschedulable(&key);
        self.backoff_remove(env, &key);
        Ok(())
    }

    /// moveToBackoffQ: PreEnqueue runs here (SchedulerPopFromBackoffQ), then the pod joins the
    /// backoff queue, or the error backoff queue when no plugin rejected it.
    fn move_to_backoff(&mut self, env: &QueueEnv, mut q: QueuedPodInfo) -> Result<i64, (PluginName, String)> {
        if let Some(msg) = Self::run_pre_enqueue(env, &mut q) {
            let gate = (q.gating_plugin.expect("gated"), msg);
            if !self.unschedulable.contains_key(&q.pod.key) {
                self.insert_unschedulable(q);
            }
            return Err(gate);
        }
        let until = self.backoff_time(&q);
        q.backoff_expiration = until;
        let kind = if q.unschedulable_plugins.is_empty() && q.pending_plugins.is_empty() {
            BackoffKind::Error
        } else {
            BackoffKind::Rejected
        };
        let key = q.pod.key.clone();
        match kind {
            BackoffKind::Error => {
                self.error_backoff.add_or_update(q, &Self::error_backoff_less);
                let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
                self.backoff.remove(&key, &less);
            }
            BackoffKind::Rejected => {
                let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
                self.backoff.add_or_update(q, &less);
                self.error_backoff.remove(&key, &Self::error_backoff_less);
            }
        }
        Ok(until)
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

    /// `move_to_active`, reporting where the pod went: activeQ, or gated.
    fn place_in_active(&mut self, env: &QueueEnv, q: QueuedPodInfo, event: &str, now: i64) -> Placed {
        match self.move_to_active(env, q, event, now) {
            Ok(()) => Placed {
                to: QueueName::ActiveQ,
                until: None,
                gate: None,
            },
            Err(g) => Placed::gated(g),
        }
    }

    // --- queueing hints -------------------------------------------------------------------

    /// Whether any plugin of any profile registered an event matching `ev`.
    fn is_event_of_interest(&self, ev: &ClusterEvent) -> bool {
        ev.is_wildcard() || self.hints.values().flatten().any(|r| r.event.matches(ev))
    }

    /// isPodWorthRequeuing: asks the queueing hints of the plugins that rejected the pod.
    pub fn worth_requeuing(&self, env: &QueueEnv, q: &QueuedPodInfo, ev: &ClusterEvent, obj: &EventObject) -> Strategy {
        self.worth_requeuing_logged(env, q, ev, obj, None)
    }

    /// `worth_requeuing`, recording each plugin's answer in `log` when given.
    fn worth_requeuing_logged(
        &self,
        env: &QueueEnv,
        q: &QueuedPodInfo,
        ev: &ClusterEvent,
        obj: &EventObject,
        mut log: Option<&mut Vec<HintAnswer>>,
    ) -> Strategy {
        let rejectors = q.unschedulable_plugins.union(q.pending_plugins);
        if rejectors.is_empty() || ev.is_wildcard() {
            return Strategy::AfterBackoff;
        }
        let (Some(regs), Some(fw)) = (self.hints.get(q.pod.scheduler_name()), env.fw(&q.pod)) else {
            return Strategy::AfterBackoff;
        };
        let cx = env.cx();
        let mut strategy = Strategy::Skip;
        for r in regs {
            if !rejectors.contains(r.plugin) || !r.event.matches(ev) {
                continue;
            }
            let hint = if r.has_hint {
                // An error from a hint counts as Queue, so that the pod cannot get stuck.
                fw.plugin(r.plugin)
                    .queueing_hint(&cx, &q.pod, *ev, obj)
                    .unwrap_or(QueueingHint::Queue)
            } else {
                QueueingHint::Queue
            };
            if let Some(l) = log.as_mut() {
                l.push(HintAnswer {
                    plugin: r.plugin,
                    hint,
                    unhinted: !r.has_hint,
                });
            }
            if hint == QueueingHint::Skip {
                continue;
            }
            if q.pending_plugins.contains(r.plugin) {
                return Strategy::Immediately;
            }
            if q.pending_plugins.is_empty() {
                return Strategy::AfterBackoff;
            }
            strategy = Strategy::AfterBackoff;
        }
        strategy
    }

    /// The strategy for a pod coming back from a failed attempt, from the events received while
    /// it was in flight.
    fn strategy_for_in_flight(&self, env: &QueueEnv, q: &QueuedPodInfo) -> Strategy {
        if q.unschedulable_plugins.is_empty() && q.pending_plugins.is_empty() {
            return Strategy::AfterBackoff;
        }
        let Some(&seq) = self.in_flight_pods.get(&q.pod.key) else {
            // Not in flight (upstream reports an internal error and retries after backoff).
            return Strategy::AfterBackoff;
        };
        let start = (seq - self.in_flight_base) as usize + 1;
        let mut strategy = Strategy::Skip;
        for e in self.in_flight.iter().skip(start) {
            let InFlightEntry::Event(ev, obj) = e else { continue };
            match self.worth_requeuing(env, q, ev, obj) {
                Strategy::Skip => {}
                Strategy::Immediately => return Strategy::Immediately,
                Strategy::AfterBackoff => {
                    strategy = Strategy::AfterBackoff;
                    if q.pending_plugins.is_empty() {
                        return strategy;
                    }
                }
            }
        }
        strategy
    }

    fn record_in_flight_event(&mut self, ev: ClusterEvent, obj: &EventObject) {
        if !self.in_flight_pods.is_empty() {
            self.in_flight.push_back(InFlightEntry::Event(ev, obj.clone()));
        }
    }

    // --- operations ---------------------------------------------------------------------

    /// Add: a new pending pod enters activeQ, or the unschedulable pool when a PreEnqueue plugin
    /// gates it.
    pub fn add(&mut self, env: &QueueEnv, mut q: QueuedPodInfo, now: i64) -> Move {
        q.timestamp = now;
        let key = q.pod.key.clone();
        let event = ClusterEvent::new(EventResource::UnscheduledPod, ActionType::ADD).label();
        let placed = self.place_in_active(env, q, &event, now);
        placed.into_move(key, QueueName::None, event)
    }

    /// Pop: the head of activeQ, or of backoffQ when activeQ is empty (never the error backoff
    /// queue). The pod becomes in flight; its rejecting plugins are cleared for the new attempt.
    pub fn pop(&mut self, env: &QueueEnv, _now: i64) -> Option<(QueuedPodInfo, QueueName)> {
        loop {
            let (mut q, from) = if !self.active.is_empty() {
                let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| env.less(a, b);
                (self.active.pop(&less)?, QueueName::ActiveQ)
            } else {
                let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
                (self.backoff.pop(&less)?, QueueName::BackoffQ)
            };
            q.attempts += 1;
            if self.in_flight_pods.contains_key(&q.pod.key) {
                // The same pod twice: upstream discards the duplicate.
                continue;
            }
            let seq = self.in_flight_base + self.in_flight.len() as u64;
            self.in_flight.push_back(InFlightEntry::Pod);
            self.in_flight_pods.insert(q.pod.key.clone(), seq);
            self.sched_cycle += 1;
            q.unschedulable_plugins.clear();
            q.pending_plugins.clear();
            q.gating_plugin = None;
            q.gated = false;
            return Some((q, from));
        }
    }

    /// Done: the pod's attempt is over (bound, or about to be requeued); events it no longer
    /// needs are dropped.
    pub fn done(&mut self, key: &str) {
        let Some(seq) = self.in_flight_pods.remove(key) else { return };
        let i = (seq - self.in_flight_base) as usize;
        self.in_flight[i] = InFlightEntry::Done;
        while matches!(self.in_flight.front(), Some(InFlightEntry::Event(..) | InFlightEntry::Done)) {
            self.in_flight.pop_front();
            self.in_flight_base += 1;
        }
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

    /// Moves the pods whose backoff has completed (by the last window boundary) to activeQ.
    pub fn flush_backoff_completed(&mut self, env: &QueueEnv, now: i64) -> Vec<Move> {
        self.last_flush_window = self.last_flush_window.max(align(now));
        let mut done = Vec::new();
        let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
        while self.backoff.peek().is_some_and(|q| !self.is_backing_off(q, now)) {
            done.push(self.backoff.pop(&less).expect("non-empty"));
        }
        while self.retry_errors && self.error_backoff.peek().is_some_and(|q| !self.is_backing_off(q, now)) {
            done.push(self.error_backoff.pop(&Self::error_backoff_less).expect("non-empty"));
        }
        let mut moves = Vec::with_capacity(done.len());
        for q in done {
            let key = q.pod.key.clone();
            let placed = self.place_in_active(env, q, EVENT_BACKOFF_COMPLETE, now);
            moves.push(placed.into_move(key, QueueName::BackoffQ, EVENT_BACKOFF_COMPLETE.to_string()));
        }
        moves
    }

    /// The periodic flush runs at every window boundary: flush when one has passed since the
    /// last flush.
    pub fn flush_if_due(&mut self, env: &QueueEnv, now: i64) -> Vec<Move> {
        if align(now) > self.last_flush_window {
            self.flush_backoff_completed(env, now)
        } else {
            Vec::new()
        }
    }

    /// When nothing can be popped but pods wait in a backoff queue: the first flush time at which
    /// one of them completes (a window boundary after its expiry).
    pub fn next_flush_time(&self) -> Option<i64> {
        [self.backoff.peek(), self.error_backoff.peek()]
            .into_iter()
            .flatten()
            .map(|q| q.backoff_expiration.saturating_add(ORDERING_WINDOW_NS))
            .min()
    }

    /// MoveAllToActiveOrBackoffQueue: a cluster event. Unschedulable pods (passing `precheck`)
    /// whose rejecting plugins' hints say the event may help move to backoffQ or activeQ; the
    /// event is remembered for in-flight pods.
    pub fn move_all(
        &mut self,
        env: &QueueEnv,
        ev: ClusterEvent,
        obj: &EventObject,
        precheck: Option<&dyn Fn(&PodInfo) -> bool>,
        now: i64,
    ) -> Vec<Move> {
        if !self.is_event_of_interest(&ev) {
            return Vec::new();
        }
        let candidates: Vec<String> = if ev.is_wildcard() {
            self.unschedulable.keys().cloned().collect()
        } else {
            let mut interested = PluginSet::default();
            for r in self.hints.values().flatten() {
                if r.event.matches(&ev) {
                    interested.insert(r.plugin);
                }
            }
            let mut keys: BTreeSet<&String> = self.no_rejector.iter().collect();
            for p in interested.iter() {
                keys.extend(self.by_plugin[p as usize].iter());
            }
            keys.into_iter().cloned().collect()
        };
        let label = ev.label();
        self.log_event(label.clone());
        let mut moves = Vec::new();
        for key in candidates {
            let Some(q) = self.unschedulable.get(&key) else { continue };
            if precheck.is_some_and(|f| !f(&q.pod)) {
                continue;
            }
            if q.gated {
                let gp = q.gating_plugin.expect("gated pods have a gating plugin");
                let hears = self.plugin_events.get(&gp).is_some_and(|evs| evs.iter().any(|e| e.matches(&ev)));
                if !hears {
                    continue;
                }
            }
            let mut answers = self.logging().then(Vec::new);
            let strategy = self.worth_requeuing_logged(env, q, &ev, obj, answers.as_mut());
            if strategy == Strategy::Skip {
                let from = pool_name(q);
                self.log_pod(&key, answers.unwrap_or_default(), from, None);
                continue;
            }
            let q = self.remove_unschedulable(&key).expect("present");
            let from = pool_name(&q);
            let placed = self.requeue(env, q, strategy, &label, now);
            self.log_pod(&key, answers.unwrap_or_default(), from, Some(&placed));
            if placed.to != from {
                moves.push(placed.into_move(key, from, label.clone()));
            }
        }
        self.record_in_flight_event(ev, obj);
        moves
    }

    /// The first flush tick (a multiple of `period` after `after`) at which a pod of the
    /// unschedulable pool (gated pods aside) has waited longer than `max_ns`.
    pub fn next_leftover_flush(&self, after: i64, period: i64, max_ns: i64) -> Option<i64> {
        let first = (after.div_euclid(period) + 1) * period;
        self.unschedulable
            .values()
            .filter(|q| !q.gated)
            .map(|q| ((q.timestamp.saturating_add(max_ns)).div_euclid(period) + 1) * period)
            .min()
            .map(|t| t.max(first))
    }

    /// A cluster event for every unschedulable pod (no precheck).
    pub fn on_event(&mut self, env: &QueueEnv, ev: ClusterEvent, obj: &EventObject, now: i64) -> Vec<Move> {
        self.move_all(env, ev, obj, None, now)
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
            q.pod = new;
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| env.less(a, b);
            self.active.add_or_update(q, &less);
            return Vec::new();
        }
        if let Some(mut q) = self.backoff.get(&key).cloned() {
            q.pod = new;
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
            self.backoff.add_or_update(q, &less);
            return Vec::new();
        }
        if let Some(mut q) = self.error_backoff.get(&key).cloned() {
            q.pod = new;
            self.error_backoff.add_or_update(q, &Self::error_backoff_less);
            return Vec::new();
        }
        let Some(mut q) = self.remove_unschedulable(&key) else {
            return Vec::new();
        };
        q.pod = new;
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

    /// flushUnschedulablePodsLeftover: pods unschedulable for longer than `max_ns` at time
    /// `at` are retried (the UnschedulableTimeout event, a wildcard: no hint is asked). Gated
    /// pods are left alone (their gating plugin does not hear the wildcard). `now` is the queue
    /// time of the moves.
    pub fn flush_unschedulable_leftover(&mut self, env: &QueueEnv, at: i64, max_ns: i64, now: i64) -> Vec<Move> {
        let keys: Vec<String> = self
            .unschedulable
            .values()
            .filter(|q| !q.gated && at - q.timestamp > max_ns)
            .map(|q| q.pod.key.clone())
            .collect();
        if keys.is_empty() {
            return Vec::new();
        }
        self.log_event(EVENT_UNSCHEDULABLE_TIMEOUT.to_string());
        let mut moves = Vec::new();
        for key in keys {
            let q = self.remove_unschedulable(&key).expect("present");
            let from = pool_name(&q);
            let placed = self.requeue(env, q, Strategy::AfterBackoff, EVENT_UNSCHEDULABLE_TIMEOUT, now);
            self.log_pod(&key, Vec::new(), from, Some(&placed));
            if placed.to != from {
                moves.push(placed.into_move(key, from, EVENT_UNSCHEDULABLE_TIMEOUT.to_string()));
            }
        }
        moves
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
mod tests {
    use super::*;
    use crate::config::{PluginArgs, Profile};
    use crate::framework::events::ClusterEventWithHint;
    use crate::framework::{Plugin, Status};
    use crate::plugins::testing::MakePod;

    /// A stand-in plugin with chosen events, hint and gate.
    struct Fake {
        name: PluginName,
        events: Vec<ClusterEventWithHint>,
        hint: fn(&PodInfo, &EventObject) -> QueueingHint,
        gate_on_scheduling_gates: bool,
    }

    impl Plugin for Fake {
        fn name(&self) -> PluginName {
            self.name
        }
        fn pre_enqueue(&self, _cx: &Ctx, pod: &PodInfo) -> Status {
            if self.gate_on_scheduling_gates && !pod.pod.spec.scheduling_gates.is_empty() {
                return Status::unresolvable("waiting for scheduling gates");
            }
            Status::success()
        }
        fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
            self.events.clone()
        }
        fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, _ev: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
            Ok((self.hint)(pod, obj))
        }
    }

    fn deleted_pod_was_placed(_pod: &PodInfo, obj: &EventObject) -> QueueingHint {
        match obj {
            EventObject::Pod { old: Some(p), new: None } if p.node_name().is_some() || p.nominated_node_name().is_some() => {
                QueueingHint::Queue
            }
            _ => QueueingHint::Skip,
        }
    }

    fn gates_removed(pod: &PodInfo, obj: &EventObject) -> QueueingHint {
        match obj {
            EventObject::Pod { new: Some(p), .. } if p.key == pod.key && p.pod.spec.scheduling_gates.is_empty() => QueueingHint::Queue,
            _ => QueueingHint::Skip,
        }
    }

    fn always(_pod: &PodInfo, _obj: &EventObject) -> QueueingHint {
        QueueingHint::Queue
    }

    struct World {
        frameworks: BTreeMap<String, Framework>,
        snapshot: Snapshot,
        cluster: Cluster,
        nominator: Nominator,
    }

    impl World {
        /// The default profile with stand-ins: SchedulingGates gates gated pods; NodeResourcesFit
        /// hears pod deletions (Queue when the pod was placed); InterPodAffinity hears pod
        /// additions without a hint.
        fn new() -> World {
            let mut fw = Framework::new(Profile::new("default-scheduler", None, PluginArgs::default(), None).unwrap());
            fw.set_instance(Box::new(Fake {
                name: PluginName::SchedulingGates,
                events: vec![ClusterEventWithHint::hinted(
                    EventResource::Pod,
                    ActionType::UPDATE_POD_SCHEDULING_GATES_ELIMINATED,
                )],
                hint: gates_removed,
                gate_on_scheduling_gates: true,
            }));
            fw.set_instance(Box::new(Fake {
                name: PluginName::NodeResourcesFit,
                events: vec![
                    ClusterEventWithHint::hinted(EventResource::Pod, ActionType::DELETE),
                    ClusterEventWithHint::hinted(EventResource::Node, ActionType::ADD),
                ],
                hint: deleted_pod_was_placed,
                gate_on_scheduling_gates: false,
            }));
            fw.set_instance(Box::new(Fake {
                name: PluginName::InterPodAffinity,
                events: vec![ClusterEventWithHint::unhinted(EventResource::Pod, ActionType::ADD)],
                hint: always,
                gate_on_scheduling_gates: false,
            }));
            World {
                frameworks: [("default-scheduler".to_string(), fw)].into(),
                snapshot: Snapshot::default(),
                cluster: Cluster::default(),
                nominator: Nominator::default(),
            }
        }
        fn env(&self) -> QueueEnv<'_> {
            QueueEnv {
                frameworks: &self.frameworks,
                snapshot: &self.snapshot,
                cluster: &self.cluster,
                nominator: &self.nominator,
            }
        }
        fn queue(&self) -> SchedulingQueue {
            SchedulingQueue::with_profiles(1, 10, &self.frameworks)
        }
        /// A queue holding new pods (name, priority), added at times 1, 2, ...
        fn queue_of(&self, pods: &[(&str, i32)]) -> SchedulingQueue {
            let mut q = self.queue();
            for (i, &(name, prio)) in pods.iter().enumerate() {
                q.add(&self.env(), qpi(name, prio), i as i64 + 1);
            }
            q
        }
    }

    fn qpi(name: &str, prio: i32) -> QueuedPodInfo {
        QueuedPodInfo::new(MakePod::new(name).priority(prio).arc(), 0)
    }

    fn pod_event(action: ActionType, old: Option<Arc<PodInfo>>) -> (ClusterEvent, EventObject) {
        (
            ClusterEvent::new(EventResource::AssignedPod, action),
            EventObject::Pod { old, new: None },
        )
    }

    /// The deletion of a pod running on n1 (NodeResourcesFit's hint says Queue).
    fn victim_deleted() -> (ClusterEvent, EventObject) {
        pod_event(ActionType::DELETE, Some(MakePod::new("victim").node("n1").arc()))
    }

    /// The deletion of a pod that never ran (NodeResourcesFit's hint says Skip).
    fn pending_deleted() -> (ClusterEvent, EventObject) {
        pod_event(ActionType::DELETE, Some(MakePod::new("pending").arc()))
    }

    /// A pod added to n1 (heard by InterPodAffinity only).
    fn pod_added() -> (ClusterEvent, EventObject) {
        (
            ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD),
            EventObject::Pod {
                old: None,
                new: Some(MakePod::new("other").node("n1").arc()),
            },
        )
    }

    /// Pops a pod and sends it back rejected by `rejected` (and `pending`).
    fn fail(q: &mut SchedulingQueue, env: &QueueEnv, now: i64, rejected: &[PluginName], pending: &[PluginName]) -> (String, Move) {
        let (mut p, _) = q.pop(env, now).expect("a pod to pop");
        for &r in rejected {
            p.unschedulable_plugins.insert(r);
        }
        for &r in pending {
            p.pending_plugins.insert(r);
        }
        let key = p.pod.key.clone();
        (key, q.add_unschedulable(env, p, now + 1))
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn active_queue_orders_by_priority_then_time() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue();
        for (i, (name, prio)) in [("zero", 0), ("mid-1", 100), ("top", 1000), ("mid-2", 100)].into_iter().enumerate() {
            let m = q.add(&env, qpi(name, prio), i as i64 + 1);
            assert_eq!((m.from, m.to), (QueueName::None, QueueName::ActiveQ));
            assert_eq!(m.event.as_deref(), Some("UnschedulablePodAdd"));
        }
        let order: Vec<String> = q.active_in_order(&env).iter().map(|p| p.pod.name().to_string()).collect();
        assert_eq!(order, ["top", "mid-1", "mid-2", "zero"]);
        let mut popped = Vec::new();
        while let Some((p, from)) = q.pop(&env, 10) {
            assert_eq!(from, QueueName::ActiveQ);
            assert_eq!(p.attempts, 1);
            popped.push(p.pod.name().to_string());
            q.done(&p.pod.key);
        }
        assert_eq!(popped, order);
        assert_eq!(q.scheduling_cycle(), 4);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn heap_is_logarithmic_and_keeps_order_after_deletes() {
        let n = 10_000usize;
        let mut h = PodHeap::default();
        let comparisons = std::cell::Cell::new(0usize);
        let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| {
            comparisons.set(comparisons.get() + 1);
            (a.pod.priority, -a.timestamp) > (b.pod.priority, -b.timestamp)
        };
        for i in 0..n {
            let mut p = qpi(&format!("p{i}"), ((i * 7919) % 97) as i32);
            p.timestamp = i as i64;
            h.add_or_update(p, &less);
        }
        for i in (0..n).step_by(3) {
            assert!(h.remove(&format!("default/p{i}"), &less).is_some());
        }
        assert!(h.remove("default/p0", &less).is_none());
        let mut out = Vec::new();
        while let Some(p) = h.pop(&less) {
            out.push((p.pod.priority, p.timestamp));
        }
        assert_eq!(out.len(), n - n.div_ceil(3));
        assert!(out.windows(2).all(|w| (w[0].0, -w[0].1) > (w[1].0, -w[1].1)), "pop order is sorted");
        // About 2 log2(n) comparisons per push, pop and remove.
        let ops = n + n.div_ceil(3) + out.len();
        assert!(
            comparisons.get() < ops * 2 * 14,
            "{} comparisons for {ops} operations",
            comparisons.get()
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn backoff_doubles_to_the_maximum_in_whole_windows() {
        let q = SchedulingQueue::new(1, 10);
        let with = |unsched: u32, errors: u32, ts: i64| {
            let mut p = qpi("p", 0);
            p.unschedulable_count = unsched;
            p.consecutive_errors = errors;
            p.timestamp = ts;
            p
        };
        let s = NS_PER_SEC;
        let cases = [
            ("never tried", with(0, 0, 5), NO_BACKOFF),
            ("first failure", with(1, 0, 0), s),
            ("second", with(2, 0, 0), 2 * s),
            ("third", with(3, 0, 0), 4 * s),
            ("fourth", with(4, 0, 0), 8 * s),
            ("capped", with(5, 0, 0), 10 * s),
            ("capped far out", with(100, 0, 0), 10 * s),
            ("errors count instead", with(5, 2, 0), 2 * s),
            ("truncated to the window", with(1, 0, s + s / 2), 2 * s),
        ];
        for (name, p, want) in cases {
            assert_eq!(q.backoff_time(&p), want, "{name}");
        }
        assert_eq!(
            SchedulingQueue::new(1, 0).backoff_time(&with(3, 0, 0)),
            NO_BACKOFF,
            "backoff disabled"
        );

        let p = with(1, 0, s); // expires at 2 s
        assert!(q.is_backing_off(&p, s + 900 * NS_PER_MS));
        assert!(q.is_backing_off(&p, 2 * s + 500 * NS_PER_MS), "still in the expiry's window");
        assert!(!q.is_backing_off(&p, 3 * s));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn rejected_pods_wait_for_an_event_their_plugin_hears() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue_of(&[("p", 0)]);
        let (key, m) = fail(&mut q, &env, 2, &[PluginName::NodeResourcesFit], &[]);
        assert_eq!((m.from, m.to), (QueueName::InFlight, QueueName::Unschedulable));
        assert_eq!(q.in_flight(), 0);

        // NodeResourcesFit does not listen to pod additions.
        let (ev, obj) = pod_added();
        assert!(q.on_event(&env, ev, &obj, 5).is_empty());
        // The deletion of an unplaced pod: the hint says Skip.
        let (ev, obj) = pending_deleted();
        assert!(q.on_event(&env, ev, &obj, 6).is_empty());
        // The deletion of a running pod: after backoff.
        let (ev, obj) = victim_deleted();
        let moves = q.on_event(&env, ev, &obj, 7);
        assert_eq!(moves.len(), 1);
        assert_eq!((moves[0].from, moves[0].to), (QueueName::Unschedulable, QueueName::BackoffQ));
        assert_eq!(moves[0].event.as_deref(), Some("AssignedPodDelete"));
        assert_eq!(moves[0].backoff_until_ns, Some(NS_PER_SEC));
        assert_eq!(q.get(&key).map(|(_, n)| n), Some(QueueName::BackoffQ));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pending_plugins_skip_the_backoff() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue_of(&[("p", 0)]);
        fail(&mut q, &env, 2, &[], &[PluginName::NodeResourcesFit]);
        let (ev, obj) = victim_deleted();
        let moves = q.on_event(&env, ev, &obj, 7);
        assert_eq!(moves[0].to, QueueName::ActiveQ);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn events_during_the_attempt_are_replayed() {
        let w = World::new();
        let env = w.env();
        for (name, (ev, obj), want) in [
            ("a deletion the plugin cares about", victim_deleted(), QueueName::BackoffQ),
            ("a deletion it does not", pending_deleted(), QueueName::Unschedulable),
            ("an event for another plugin", pod_added(), QueueName::Unschedulable),
        ] {
            let mut q = w.queue_of(&[("p", 0)]);
            let (mut p, _) = q.pop(&env, 2).unwrap();
            q.on_event(&env, ev, &obj, 3);
            assert_eq!(q.in_flight.len(), 2, "{name}: the event is kept for the in-flight pod");
            p.unschedulable_plugins.insert(PluginName::NodeResourcesFit);
            let m = q.add_unschedulable(&env, p, 4);
            assert_eq!(m.to, want, "{name}");
            assert!(q.in_flight.is_empty(), "{name}: pruned once no pod needs it");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn errors_wait_in_the_error_backoff_queue() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue_of(&[("p", 0)]);
        let (key, m) = fail(&mut q, &env, 2, &[], &[]);
        assert_eq!(m.to, QueueName::BackoffQ);
        assert!(q.error_backoff.contains(&key));
        // Not popped early, unlike rejected pods.
        assert!(q.pop(&env, 4).is_none());
        let t = q.next_flush_time().unwrap();
        assert_eq!(t, 2 * NS_PER_SEC);
        assert!(q.flush_if_due(&env, t - 1).is_empty());
        let moves = q.flush_if_due(&env, t);
        assert_eq!(moves.len(), 1);
        assert_eq!((moves[0].from, moves[0].to), (QueueName::BackoffQ, QueueName::ActiveQ));
        let (p, _) = q.pop(&env, t + 1).unwrap();
        assert_eq!((p.attempts, p.consecutive_errors), (2, 1));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn backoff_queue_pops_when_active_is_empty_by_window_then_priority() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue_of(&[("low", 1), ("high", 100), ("twice", 1000)]);
        // All three fail once (1 s backoff, the same window): priority decides.
        let rejected = [PluginName::NodeResourcesFit];
        let keys: Vec<String> = [4, 6, 8].into_iter().map(|t| fail(&mut q, &env, t, &rejected, &[]).0).collect();
        assert_eq!(keys, ["default/twice", "default/high", "default/low"]);
        let (ev, obj) = victim_deleted();
        assert_eq!(q.on_event(&env, ev, &obj, 9).len(), 3);
        let (mut p, from) = q.pop(&env, 10).unwrap();
        assert_eq!(
            (p.pod.name(), from),
            ("twice", QueueName::BackoffQ),
            "popped early: activeQ is empty"
        );
        // A second failure (with a helpful event in flight): 2 s, a later window.
        let (ev, obj) = victim_deleted();
        q.on_event(&env, ev, &obj, 10);
        p.unschedulable_plugins.insert(PluginName::NodeResourcesFit);
        let m = q.add_unschedulable(&env, p, 11);
        assert_eq!(m.backoff_until_ns, Some(2 * NS_PER_SEC));
        let mut order = Vec::new();
        while let Some((p, from)) = q.pop(&env, 20) {
            assert_eq!(from, QueueName::BackoffQ);
            order.push(p.pod.name().to_string());
            q.done(&p.pod.key);
        }
        assert_eq!(order, ["high", "low", "twice"]);
        // An active pod goes first.
        let mut q = w.queue_of(&[("a", 0), ("b", 0)]);
        fail(&mut q, &env, 3, &rejected, &[]);
        assert_eq!(
            q.pop(&env, 5).map(|(p, from)| (p.pod.name().to_string(), from)),
            Some(("b".into(), QueueName::ActiveQ))
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn gated_pods_wait_for_their_gating_plugin() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue();
        let gated = MakePod::new("g").gate("example.com/wait").arc();
        let m = q.add(&env, QueuedPodInfo::new(gated.clone(), 0), 1);
        assert_eq!(m.to, QueueName::Gated);
        assert_eq!(m.gated_by.as_ref().map(|g| g.0), Some(PluginName::SchedulingGates));
        assert!(q.pop(&env, 2).is_none());

        // A deletion NodeResourcesFit would hear does not concern the gate.
        let (ev, obj) = victim_deleted();
        assert!(q.on_event(&env, ev, &obj, 3).is_empty());
        // An update that keeps the gate.
        let mut relabeled = (*gated).clone();
        relabeled.pod.metadata.labels.insert("x".into(), "y".into());
        assert!(q.update(&env, &gated, Arc::new(relabeled.clone()), 4).is_empty());
        assert_eq!(q.get("default/g").map(|(_, n)| n), Some(QueueName::Gated));
        // Removing the gate releases the pod straight to activeQ.
        let mut open = relabeled.clone();
        open.pod.spec.scheduling_gates.clear();
        let moves = q.update(&env, &relabeled, Arc::new(open), 5);
        assert_eq!(moves.len(), 1);
        assert_eq!((moves[0].from, moves[0].to), (QueueName::Gated, QueueName::ActiveQ));
        assert_eq!(
            moves[0].event.as_deref(),
            Some("UnschedulablePodUpdatePodSchedulingGatesEliminated")
        );
        assert!(q.pop(&env, 6).is_some());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn precheck_limits_the_pods_an_event_reaches() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue_of(&[("low", 10), ("high", 1000)]);
        let rejected = [PluginName::NodeResourcesFit];
        fail(&mut q, &env, 3, &rejected, &[]);
        fail(&mut q, &env, 5, &rejected, &[]);
        let nominated = {
            let mut p = MakePod::new("preemptor").priority(100).obj();
            p.status.nominated_node_name = Some("n1".into());
            Arc::new(PodInfo::new(p, 9))
        };
        let (ev, obj) = pod_event(ActionType::DELETE, Some(nominated));
        let moves = q.move_all(&env, ev, &obj, Some(&|p: &PodInfo| p.priority <= 100), 7);
        assert_eq!(moves.iter().map(|m| m.key.as_str()).collect::<Vec<_>>(), ["default/low"]);
        assert_eq!(q.get("default/high").map(|(_, n)| n), Some(QueueName::Unschedulable));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn delete_and_update_in_every_pool() {
        let w = World::new();
        let env = w.env();
        let mut q = w.queue_of(&[("a", 0), ("b", 0), ("c", 0), ("d", 0)]);
        fail(&mut q, &env, 10, &[PluginName::NodeResourcesFit], &[]); // a: unschedulable
        fail(&mut q, &env, 12, &[], &[]); // b: error backoff
        let (mut c, _) = q.pop(&env, 14).unwrap();
        c.unschedulable_plugins.insert(PluginName::InterPodAffinity);
        let (ev, obj) = pod_event(ActionType::ADD, None);
        q.on_event(&env, ev, &obj, 15);
        q.add_unschedulable(&env, c, 16); // c: backoff (the event was seen in flight)
        assert_eq!(q.get("default/a").unwrap().1, QueueName::Unschedulable);
        assert_eq!(q.get("default/b").unwrap().1, QueueName::BackoffQ);
        assert_eq!(q.get("default/c").unwrap().1, QueueName::BackoffQ);
        assert_eq!(q.get("default/d").unwrap().1, QueueName::ActiveQ);
        assert_eq!(q.len(), 4);

        // Updating keeps the pod where it is, with the new object.
        let old = q.get("default/d").unwrap().0.pod.clone();
        let mut new = (*old).clone();
        new.pod.status.nominated_node_name = Some("n1".into());
        assert!(q.update(&env, &old, Arc::new(new), 20).is_empty());
        assert_eq!(q.get("default/d").unwrap().0.pod.nominated_node_name(), Some("n1"));

        for (key, from) in [
            ("default/a", QueueName::Unschedulable),
            ("default/b", QueueName::BackoffQ),
            ("default/c", QueueName::BackoffQ),
            ("default/d", QueueName::ActiveQ),
        ] {
            assert_eq!(q.delete(&env, key), Some(from));
            assert_eq!(q.delete(&env, key), None);
        }
        assert!(q.is_empty());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn event_matching_and_labels() {
        use ActionType as A;
        use EventResource as R;
        let ev = ClusterEvent::new;
        let cases = [
            (
                "Pod covers assigned pods",
                ev(R::Pod, A::DELETE),
                ev(R::AssignedPod, A::DELETE),
                true,
            ),
            ("and unscheduled ones", ev(R::Pod, A::ADD), ev(R::UnscheduledPod, A::ADD), true),
            (
                "a general update does not reach a specific one",
                ev(R::Pod, A::UPDATE_POD_SCALE_DOWN.union(A::DELETE)),
                ev(R::UnscheduledPod, A::UPDATE),
                false,
            ),
            (
                "All covers a general update",
                ev(R::Pod, A::ALL),
                ev(R::AssignedPod, A::UPDATE),
                true,
            ),
            (
                "the wildcard covers everything",
                ev(R::WildCard, A::ALL),
                ev(R::Node, A::UPDATE_NODE_TAINT),
                true,
            ),
            (
                "other resources do not match",
                ev(R::Node, A::ADD),
                ev(R::AssignedPod, A::ADD),
                false,
            ),
            ("nor other actions", ev(R::Node, A::ADD), ev(R::Node, A::DELETE), false),
        ];
        for (name, registered, incoming, want) in cases {
            assert_eq!(registered.matches(&incoming), want, "{name}");
        }
        assert_eq!(ev(R::AssignedPod, A::DELETE).label(), "AssignedPodDelete");
        assert_eq!(ev(R::UnscheduledPod, A::UPDATE).label(), "UnschedulablePodUpdate");
        assert_eq!(ev(R::CSINode, A::ADD).label(), "storage.k8s.io/CSINodeAdd");
        assert_eq!(ev(R::WildCard, A::ALL).label(), "*All");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_update_events_name_what_changed() {
        let base = MakePod::new("p").req(&[("cpu", "2")]).label("a", "1");
        let old = base.clone().info();
        let kinds = |new: PodInfo| pod_update_events(&old, &new).into_iter().map(|e| e.action).collect::<Vec<_>>();
        assert_eq!(kinds(base.clone().label("a", "2").info()), [ActionType::UPDATE_POD_LABEL]);
        assert_eq!(
            kinds(MakePod::new("p").req(&[("cpu", "1")]).label("a", "1").info()),
            [ActionType::UPDATE_POD_SCALE_DOWN]
        );
        assert_eq!(
            kinds(base.clone().toleration("k", "Exists", "", "").info()),
            [ActionType::UPDATE_POD_TOLERATION]
        );
        let mut nominated = base.clone().info();
        nominated.pod.status.nominated_node_name = Some("n".into());
        assert_eq!(kinds(nominated), [ActionType::UPDATE]);
    }
}
