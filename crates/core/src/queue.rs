//! The scheduling queue: activeQ (a heap ordered by the QueueSort plugin), backoffQ (ordered by
//! backoff expiry, then QueueSort), the unschedulable pool, and gated pods. Cluster events move
//! pods out of the unschedulable pool through the rejecting plugins' queueing hints; events that
//! happen while a pod is being scheduled are remembered and replayed when it fails.
//!
//! Time is logical, in nanoseconds; the engine advances it.

use crate::cluster::{Cluster, Nominator, Snapshot};
use crate::framework::events::{ClusterEvent, EventObject, QueueingHint};
use crate::framework::{Ctx, Framework, QueuedPodInfo};
use crate::plugins::PluginSet;
use crate::trace::QueueName;
use std::collections::BTreeMap;

pub const NS_PER_MS: i64 = 1_000_000;
const BACKOFF_WINDOW_NS: i64 = 1_000 * NS_PER_MS;

/// Where a queue operation put a pod (for the trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub key: String,
    pub from: QueueName,
    pub to: QueueName,
    pub event: Option<String>,
    pub backoff_until_ns: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strategy {
    Skip,
    AfterBackoff,
    Immediately,
}

pub struct SchedulingQueue {
    initial_backoff_ns: i64,
    max_backoff_ns: i64,
    active: Vec<QueuedPodInfo>,
    /// Backoff queue (pods rejected by plugins) and error backoff queue.
    backoff: Vec<QueuedPodInfo>,
    error_backoff: Vec<QueuedPodInfo>,
    /// Unschedulable and gated pods, by key.
    unschedulable: BTreeMap<String, QueuedPodInfo>,
    /// Pods being scheduled, with the events seen since they were popped.
    in_flight: BTreeMap<String, Vec<(ClusterEvent, EventObject)>>,
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
    fn fw(&self, q: &QueuedPodInfo) -> Option<&Framework> {
        self.frameworks.get(q.pod.scheduler_name())
    }
    fn less(&self, a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        // Every profile must use the same QueueSort plugin; use the first.
        match self.frameworks.values().next() {
            Some(fw) => fw.less(a, b),
            None => false,
        }
    }
}

impl SchedulingQueue {
    pub fn new(initial_backoff_seconds: i64, max_backoff_seconds: i64) -> SchedulingQueue {
        SchedulingQueue {
            initial_backoff_ns: initial_backoff_seconds.saturating_mul(1_000 * NS_PER_MS),
            max_backoff_ns: max_backoff_seconds.saturating_mul(1_000 * NS_PER_MS),
            active: Vec::new(),
            backoff: Vec::new(),
            error_backoff: Vec::new(),
            unschedulable: BTreeMap::new(),
            in_flight: BTreeMap::new(),
        }
    }

    pub fn active(&self) -> &[QueuedPodInfo] {
        &self.active
    }
    pub fn backoff(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.backoff.iter().chain(self.error_backoff.iter())
    }
    pub fn unschedulable(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.unschedulable.values()
    }
    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.backoff.is_empty() && self.error_backoff.is_empty() && self.unschedulable.is_empty()
    }
    pub fn len(&self) -> usize {
        self.active.len() + self.backoff.len() + self.error_backoff.len() + self.unschedulable.len()
    }

    // --- heaps --------------------------------------------------------------------------

    fn heap_push(
        env: &QueueEnv,
        heap: &mut Vec<QueuedPodInfo>,
        q: QueuedPodInfo,
        less: &dyn Fn(&QueueEnv, &QueuedPodInfo, &QueuedPodInfo) -> bool,
    ) {
        heap.push(q);
        let mut i = heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if less(env, &heap[i], &heap[parent]) {
                heap.swap(i, parent);
                i = parent;
            } else {
                break;
            }
        }
    }

    fn heap_pop(
        env: &QueueEnv,
        heap: &mut Vec<QueuedPodInfo>,
        less: &dyn Fn(&QueueEnv, &QueuedPodInfo, &QueuedPodInfo) -> bool,
    ) -> Option<QueuedPodInfo> {
        if heap.is_empty() {
            return None;
        }
        let last = heap.len() - 1;
        heap.swap(0, last);
        let top = heap.pop();
        let n = heap.len();
        let mut i = 0;
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < n && less(env, &heap[l], &heap[m]) {
                m = l;
            }
            if r < n && less(env, &heap[r], &heap[m]) {
                m = r;
            }
            if m == i {
                break;
            }
            heap.swap(i, m);
            i = m;
        }
        top
    }

    fn heap_remove(
        env: &QueueEnv,
        heap: &mut Vec<QueuedPodInfo>,
        key: &str,
        less: &dyn Fn(&QueueEnv, &QueuedPodInfo, &QueuedPodInfo) -> bool,
    ) -> Option<QueuedPodInfo> {
        let i = heap.iter().position(|q| q.pod.key == key)?;
        let removed = heap.swap_remove(i);
        // Rebuild: removals are rare.
        let items = std::mem::take(heap);
        for q in items {
            Self::heap_push(env, heap, q, less);
        }
        Some(removed)
    }

    fn active_less(env: &QueueEnv, a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        env.less(a, b)
    }

    // --- backoff ------------------------------------------------------------------------

    fn align(t: i64) -> i64 {
        t - t.rem_euclid(BACKOFF_WINDOW_NS)
    }

    fn backoff_duration(&self, count: u32) -> i64 {
        if count == 0 {
            return 0;
        }
        let shift = (count - 1).min(62);
        if self.initial_backoff_ns > (self.max_backoff_ns >> shift) {
            return self.max_backoff_ns;
        }
        self.initial_backoff_ns << shift
    }

    /// When the pod's backoff ends (0 = no backoff), aligned to the 1 s ordering window.
    pub fn backoff_time(&self, q: &QueuedPodInfo) -> i64 {
        if self.max_backoff_ns == 0 {
            return 0;
        }
        let count = if q.consecutive_errors > 0 {
            q.consecutive_errors
        } else {
            q.unschedulable_count
        };
        if count == 0 {
            return 0;
        }
        if q.backoff_expiration != 0 {
            return q.backoff_expiration;
        }
        Self::align(q.timestamp + self.backoff_duration(count))
    }

    fn is_backing_off(&self, q: &QueuedPodInfo, now: i64) -> bool {
        let t = self.backoff_time(q);
        t >= Self::align(now) && t != 0
    }

    // --- operations ---------------------------------------------------------------------

    /// Adds a new pending pod: PreEnqueue decides between activeQ and the gated pool.
    pub fn add(&mut self, env: &QueueEnv, mut q: QueuedPodInfo, now: i64) -> Move {
        q.timestamp = now;
        let key = q.pod.key.clone();
        let to = self.move_to_active(env, q);
        Move {
            key,
            from: QueueName::None,
            to,
            event: Some("PodAdd".into()),
            backoff_until_ns: None,
        }
    }

    /// Runs PreEnqueue; puts the pod in activeQ or the gated pool. Returns where it went.
    fn move_to_active(&mut self, env: &QueueEnv, mut q: QueuedPodInfo) -> QueueName {
        if let Some(fw) = env.fw(&q) {
            let s = fw.run_pre_enqueue(&env.cx(), &q.pod);
            if !s.is_success() {
                q.gated = true;
                q.gating_plugin = s.plugin;
                self.unschedulable.insert(q.pod.key.clone(), q);
                return QueueName::Gated;
            }
        }
        q.gated = false;
        q.gating_plugin = None;
        Self::heap_push(env, &mut self.active, q, &Self::active_less);
        QueueName::ActiveQ
    }

    fn move_to_backoff(&mut self, env: &QueueEnv, mut q: QueuedPodInfo) {
        q.backoff_expiration = self.backoff_time(&q);
        if q.unschedulable_plugins.is_empty() && q.pending_plugins.is_empty() {
            Self::heap_push(env, &mut self.error_backoff, q, &Self::error_backoff_less);
        } else {
            Self::heap_push(env, &mut self.backoff, q, &Self::backoff_less);
        }
    }

    /// Backoff queue order: earlier expiry first, then QueueSort (SchedulerPopFromBackoffQ).
    fn backoff_less(env: &QueueEnv, a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        if a.backoff_expiration != b.backoff_expiration {
            a.backoff_expiration < b.backoff_expiration
        } else {
            env.less(a, b)
        }
    }

    fn error_backoff_less(_env: &QueueEnv, a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        a.backoff_expiration < b.backoff_expiration
    }

    /// Moves pods whose backoff has completed into activeQ.
    pub fn flush_backoff_completed(&mut self, env: &QueueEnv, now: i64) -> Vec<Move> {
        let mut moves = Vec::new();
        loop {
            let Some(top) = self.backoff.first() else { break };
            if self.is_backing_off(top, now) {
                break;
            }
            let q = Self::heap_pop(env, &mut self.backoff, &Self::backoff_less).expect("non-empty");
            let key = q.pod.key.clone();
            let to = self.move_to_active(env, q);
            moves.push(Move {
                key,
                from: QueueName::BackoffQ,
                to,
                event: Some("BackoffComplete".into()),
                backoff_until_ns: None,
            });
        }
        loop {
            let Some(top) = self.error_backoff.first() else { break };
            if self.is_backing_off(top, now) {
                break;
            }
            let q = Self::heap_pop(env, &mut self.error_backoff, &Self::error_backoff_less).expect("non-empty");
            let key = q.pod.key.clone();
            let to = self.move_to_active(env, q);
            moves.push(Move {
                key,
                from: QueueName::BackoffQ,
                to,
                event: Some("BackoffComplete".into()),
                backoff_until_ns: None,
            });
        }
        moves
    }

    /// Pops the next pod to schedule: activeQ first, else the backoff queue (the
    /// SchedulerPopFromBackoffQ feature). The pod becomes in flight.
    pub fn pop(&mut self, env: &QueueEnv, now: i64) -> Option<(QueuedPodInfo, QueueName)> {
        let (mut q, from) = if let Some(q) = Self::heap_pop(env, &mut self.active, &Self::active_less) {
            (q, QueueName::ActiveQ)
        } else {
            let q = Self::heap_pop(env, &mut self.backoff, &Self::backoff_less)?;
            (q, QueueName::BackoffQ)
        };
        q.backoff_expiration = 0;
        q.attempts += 1;
        if q.initial_attempt_timestamp.is_none() {
            q.initial_attempt_timestamp = Some(now);
        }
        self.in_flight.insert(q.pod.key.clone(), Vec::new());
        Some((q, from))
    }

    /// Marks a pod's scheduling as finished (bound or given up).
    pub fn done(&mut self, key: &str) {
        self.in_flight.remove(key);
    }

    /// After a failed attempt: back to the unschedulable pool, or to backoff/activeQ when an
    /// event seen during the attempt may have made it schedulable.
    pub fn add_unschedulable(&mut self, env: &QueueEnv, mut q: QueuedPodInfo, now: i64) -> Move {
        let events = self.in_flight.remove(&q.pod.key).unwrap_or_default();
        if q.unschedulable_plugins.is_empty() && q.pending_plugins.is_empty() {
            q.consecutive_errors += 1;
        } else {
            q.unschedulable_count += 1;
            q.consecutive_errors = 0;
        }
        q.timestamp = now;
        q.backoff_expiration = 0;
        let strategy = if q.unschedulable_plugins.is_empty() && q.pending_plugins.is_empty() {
            Strategy::AfterBackoff
        } else {
            let mut s = Strategy::Skip;
            for (ev, obj) in &events {
                match self.worth_requeuing(env, &q, ev, obj) {
                    Strategy::Skip => {}
                    Strategy::Immediately => {
                        s = Strategy::Immediately;
                        break;
                    }
                    Strategy::AfterBackoff => {
                        s = Strategy::AfterBackoff;
                        if q.pending_plugins.is_empty() {
                            break;
                        }
                    }
                }
            }
            s
        };
        let key = q.pod.key.clone();
        let (to, until) = self.requeue(env, q, strategy, now);
        Move {
            key,
            from: QueueName::InFlight,
            to,
            event: Some("ScheduleAttemptFailure".into()),
            backoff_until_ns: until,
        }
    }

    fn requeue(&mut self, env: &QueueEnv, q: QueuedPodInfo, strategy: Strategy, now: i64) -> (QueueName, Option<i64>) {
        match strategy {
            Strategy::Skip => {
                let to = if q.gated { QueueName::Gated } else { QueueName::Unschedulable };
                self.unschedulable.insert(q.pod.key.clone(), q);
                (to, None)
            }
            Strategy::AfterBackoff if self.is_backing_off(&q, now) => {
                let t = self.backoff_time(&q);
                self.move_to_backoff(env, q);
                (QueueName::BackoffQ, Some(t))
            }
            _ => (self.move_to_active(env, q), None),
        }
    }

    fn worth_requeuing(&self, env: &QueueEnv, q: &QueuedPodInfo, ev: &ClusterEvent, obj: &EventObject) -> Strategy {
        let rejectors: PluginSet = q.unschedulable_plugins.union(q.pending_plugins);
        if rejectors.is_empty() {
            return Strategy::AfterBackoff;
        }
        if ev.is_wildcard() {
            return Strategy::AfterBackoff;
        }
        let Some(fw) = env.fw(q) else { return Strategy::AfterBackoff };
        let cx = env.cx();
        let mut strategy = Strategy::Skip;
        for (name, plugin) in fw.instances() {
            if !rejectors.contains(name) {
                continue;
            }
            for reg in plugin.events_to_register() {
                if !reg.event.matches(ev) {
                    continue;
                }
                let hint = if reg.has_hint {
                    plugin.queueing_hint(&cx, &q.pod, *ev, obj).unwrap_or(QueueingHint::Queue)
                } else {
                    QueueingHint::Queue
                };
                if hint == QueueingHint::Skip {
                    continue;
                }
                if q.pending_plugins.contains(name) {
                    return Strategy::Immediately;
                }
                if q.pending_plugins.is_empty() {
                    return Strategy::AfterBackoff;
                }
                strategy = Strategy::AfterBackoff;
            }
        }
        strategy
    }

    /// A cluster event: moves unschedulable pods whose rejecting plugins say it may help, and
    /// records the event for pods in flight.
    pub fn on_event(&mut self, env: &QueueEnv, ev: ClusterEvent, obj: &EventObject, now: i64) -> Vec<Move> {
        let mut moves = Vec::new();
        let keys: Vec<String> = self.unschedulable.keys().cloned().collect();
        for key in keys {
            let q = &self.unschedulable[&key];
            if q.gated {
                // Gated pods move only when their gating plugin's events fire and PreEnqueue passes.
                let Some(fw) = env.fw(q) else { continue };
                let Some(gp) = q.gating_plugin else { continue };
                let interested = fw
                    .instances()
                    .any(|(n, p)| n == gp && p.events_to_register().iter().any(|r| r.event.matches(&ev)));
                if !interested {
                    continue;
                }
            }
            let s = if q.gated {
                Strategy::Immediately
            } else {
                self.worth_requeuing(env, q, &ev, obj)
            };
            if s == Strategy::Skip {
                continue;
            }
            let q = self.unschedulable.remove(&key).expect("present");
            let from = if q.gated { QueueName::Gated } else { QueueName::Unschedulable };
            let (to, until) = self.requeue(env, q, s, now);
            if to != from {
                moves.push(Move {
                    key,
                    from,
                    to,
                    event: Some(ev.label()),
                    backoff_until_ns: until,
                });
            }
        }
        for events in self.in_flight.values_mut() {
            events.push((ev, obj.clone()));
        }
        moves
    }

    /// Removes a pod wherever it is (it was deleted).
    pub fn delete(&mut self, env: &QueueEnv, key: &str) -> Option<QueueName> {
        if self.unschedulable.remove(key).is_some() {
            return Some(QueueName::Unschedulable);
        }
        if Self::heap_remove(env, &mut self.active, key, &Self::active_less).is_some() {
            return Some(QueueName::ActiveQ);
        }
        if Self::heap_remove(env, &mut self.backoff, key, &Self::backoff_less).is_some() {
            return Some(QueueName::BackoffQ);
        }
        if Self::heap_remove(env, &mut self.error_backoff, key, &Self::error_backoff_less).is_some() {
            return Some(QueueName::BackoffQ);
        }
        None
    }

    /// Pods in activeQ in the order they would be popped.
    pub fn active_in_order(&self, env: &QueueEnv) -> Vec<QueuedPodInfo> {
        let mut h = self.active.clone();
        let mut out = Vec::with_capacity(h.len());
        while let Some(q) = Self::heap_pop(env, &mut h, &Self::active_less) {
            out.push(q);
        }
        out
    }
}
