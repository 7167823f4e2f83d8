//! activeQ (upstream active_queue.go): the pods to try next, in QueueSort order; Pop and Done;
//! and the in-flight pods with the cluster events received since they were popped, replayed
//! through the queueing hints when a pod comes back unschedulable.

use super::{Placed, QueueEnv, SchedulingQueue, EVENT_BACKOFF_COMPLETE};
use crate::framework::events::{ClusterEvent, EventObject};
use crate::framework::QueuedPodInfo;
use crate::trace::QueueName;
use crate::vocabulary::PluginName;

/// An entry of the in-flight log: a popped pod, or a cluster event received after it.
#[derive(Clone, Debug)]
pub(super) enum InFlightEntry {
    Pod,
    Event(ClusterEvent, EventObject),
    /// A pod that was marked done (its slot stays until the front is pruned).
    Done,
}

impl SchedulingQueue {
    /// activeQ in heap order (not pop order; see `active_in_order`).
    pub fn active(&self) -> &[QueuedPodInfo] {
        &self.active.items
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

    pub fn in_flight(&self) -> usize {
        self.in_flight_pods.len()
    }

    /// Number of pops so far (upstream SchedulingCycle).
    pub fn scheduling_cycle(&self) -> u64 {
        self.sched_cycle
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

    /// `move_to_active`, reporting where the pod went: activeQ, or gated.
    pub(super) fn place_in_active(&mut self, env: &QueueEnv, q: QueuedPodInfo, event: &str, now: i64) -> Placed {
        match self.move_to_active(env, q, event, now) {
            Ok(()) => Placed {
                to: QueueName::ActiveQ,
                until: None,
                gate: None,
            },
            Err(g) => Placed::gated(g),
        }
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

    pub(super) fn record_in_flight_event(&mut self, ev: ClusterEvent, obj: &EventObject) {
        if !self.in_flight_pods.is_empty() {
            self.in_flight.push_back(InFlightEntry::Event(ev, obj.clone()));
        }
    }
}
