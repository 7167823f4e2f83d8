//! The backoff queues (upstream backoff_queue.go): backoffQ holds pods rejected by plugins,
//! ordered by backoff expiry (truncated to the ordering window), then by QueueSort; the error
//! backoffQ holds pods that failed with an error, ordered by expiry alone. Both are flushed to
//! activeQ at every window boundary.

use super::{Move, QueueEnv, SchedulingQueue, EVENT_BACKOFF_COMPLETE, NO_BACKOFF, ORDERING_WINDOW_NS};
use crate::framework::QueuedPodInfo;
use crate::trace::QueueName;
use crate::vocabulary::PluginName;

#[derive(Clone, Copy, PartialEq, Eq)]
enum BackoffKind {
    Rejected,
    Error,
}

fn align(t: i64) -> i64 {
    if t == NO_BACKOFF {
        return t;
    }
    t - t.rem_euclid(ORDERING_WINDOW_NS)
}

impl SchedulingQueue {
    /// Pods that failed with an error stay in the error backoff queue for good (`false`).
    pub fn set_retry_errors(&mut self, retry: bool) {
        self.retry_errors = retry;
    }

    pub fn backoff(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.backoff.iter().chain(self.error_backoff.iter())
    }

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

    pub(super) fn backoff_less(a: &QueuedPodInfo, b: &QueuedPodInfo, env: &QueueEnv) -> bool {
        if a.backoff_expiration != b.backoff_expiration {
            return a.backoff_expiration < b.backoff_expiration;
        }
        env.less(a, b)
    }

    pub(super) fn error_backoff_less(a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        a.backoff_expiration < b.backoff_expiration
    }

    pub(super) fn backoff_remove(&mut self, env: &QueueEnv, key: &str) -> Option<QueuedPodInfo> {
        if self.backoff.contains(key) {
            let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| Self::backoff_less(a, b, env);
            return self.backoff.remove(key, &less);
        }
        if self.error_backoff.contains(key) {
            return self.error_backoff.remove(key, &Self::error_backoff_less);
        }
        None
    }

    /// moveToBackoffQ: PreEnqueue runs here (SchedulerPopFromBackoffQ), then the pod joins the
    /// backoff queue, or the error backoff queue when no plugin rejected it.
    pub(super) fn move_to_backoff(&mut self, env: &QueueEnv, mut q: QueuedPodInfo) -> Result<i64, (PluginName, String)> {
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
}
