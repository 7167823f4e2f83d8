//! The unschedulable pool (upstream unschedulablePods): pods rejected by plugins, waiting for a
//! cluster event their plugins' queueing hints say may help, indexed by rejecting plugin; the
//! pods gated by a PreEnqueue plugin wait there too. Pods left there longer than the maximum
//! are retried by the leftover flush (flushUnschedulablePodsLeftover).

use super::{Move, QueueEnv, SchedulingQueue, Strategy, EVENT_UNSCHEDULABLE_TIMEOUT};
use crate::framework::QueuedPodInfo;
use crate::trace::QueueName;
use crate::vocabulary::{PluginName, PluginSet};

/// How a pod in the unschedulable pool is reported: gated or unschedulable.
pub(super) fn pool_name(q: &QueuedPodInfo) -> QueueName {
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

impl SchedulingQueue {
    /// The unschedulable pool, gated pods included, by key.
    pub fn unschedulable(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.unschedulable.values()
    }

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

    pub(super) fn insert_unschedulable(&mut self, q: QueuedPodInfo) {
        self.remove_unschedulable(&q.pod.key);
        self.index(&q, true);
        self.unschedulable.insert(q.pod.key.clone(), q);
    }

    pub(super) fn remove_unschedulable(&mut self, key: &str) -> Option<QueuedPodInfo> {
        let q = self.unschedulable.remove(key)?;
        self.index(&q, false);
        Some(q)
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

// --- gated pods ------------------------------------------------------------------------------

impl SchedulingQueue {
    /// Runs the PreEnqueue plugins (the gating plugin first): the first that does not pass gates
    /// the pod and joins its unschedulable plugins. Returns the gating status message.
    pub(super) fn run_pre_enqueue(env: &QueueEnv, q: &mut QueuedPodInfo) -> Option<String> {
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
}
