//! Stops: the positions a front end steps through (one per extension point reached in each
//! cycle, plus failure handling, evictions, changes), cut from the trace.

use super::*;

#[derive(Clone, Debug)]
pub(super) struct CycleInfo {
    pub(super) pod: u32,
    /// Trace index of CycleStart and CycleEnd.
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) first_stop: u32,
    pub(super) marker: Marker,
    /// Popped straight from backoffQ (activeQ was empty): the backoff left then (ms).
    pub(super) backoff_left_ms: Option<i64>,
}

pub(super) fn build_stops(events: &[TraceEvent]) -> (Vec<Stop>, Vec<CycleInfo>) {
    let mut stops = Vec::new();
    let mut cycles: Vec<CycleInfo> = Vec::new();
    // A cluster change (and the clock jump before it) may come before the first cycle.
    let first = events
        .iter()
        .position(|e| {
            matches!(
                e,
                TraceEvent::QueueMove {
                    to: QueueName::InFlight,
                    ..
                } | TraceEvent::CycleStart { .. }
                    | TraceEvent::Change { .. }
                    | TraceEvent::Clock { .. }
            )
        })
        .unwrap_or(events.len());
    stops.push(Stop {
        pos: first as u32,
        cycle: 0,
        stage: Stage::Ready,
    });
    let mut cur = 0u32;
    let mut failed_seen = false;
    let mut evict_seen = false;
    // Each pod's backoff expiry while in backoffQ, and the expiry of a pod popped from there.
    let mut backoff_until: HashMap<u32, i64> = HashMap::new();
    let mut popped_in_backoff: Option<i64> = None;
    for (i, e) in events.iter().enumerate() {
        let pos = i as u32 + 1;
        let push = |stops: &mut Vec<Stop>, cur: u32, stage: Stage| {
            stops.push(Stop { pos, cycle: cur, stage });
        };
        match e {
            TraceEvent::QueueMove {
                pod,
                from,
                to,
                backoff_until_ms,
                ..
            } => {
                if *to == QueueName::InFlight {
                    popped_in_backoff = (*from == QueueName::BackoffQ).then(|| backoff_until.get(pod).copied()).flatten();
                }
                match (to, backoff_until_ms) {
                    (QueueName::BackoffQ, Some(t)) => backoff_until.insert(*pod, *t),
                    _ => backoff_until.remove(pod),
                };
            }
            TraceEvent::CycleStart { cycle, pod, time_ms, .. } => {
                cur = *cycle;
                failed_seen = false;
                evict_seen = false;
                cycles.push(CycleInfo {
                    pod: *pod,
                    start: i,
                    end: events.len().saturating_sub(1),
                    first_stop: stops.len() as u32,
                    marker: Marker::Unschedulable,
                    backoff_left_ms: popped_in_backoff.take().map(|t| (t - time_ms).max(0)),
                });
                push(&mut stops, cur, Stage::QueueSort);
            }
            TraceEvent::PreFilter { .. } => push(&mut stops, cur, Stage::PreFilter),
            TraceEvent::Filter { .. } => push(&mut stops, cur, Stage::Filter),
            TraceEvent::PostFilter { .. } => push(&mut stops, cur, Stage::PostFilter),
            TraceEvent::PreScore { .. } => push(&mut stops, cur, Stage::PreScore),
            TraceEvent::Score { .. } => {
                // Scoring is shown in two steps (raw, then normalized and weighted) when it ran.
                let scored = i > 0 && matches!(events[i - 1], TraceEvent::PreScore { .. });
                push(&mut stops, cur, Stage::Score);
                if scored {
                    push(&mut stops, cur, Stage::NormalizeScore);
                }
            }
            TraceEvent::Reserve { .. } => push(&mut stops, cur, Stage::Reserve),
            TraceEvent::Permit { .. } => push(&mut stops, cur, Stage::Permit),
            TraceEvent::PreBind { .. } => push(&mut stops, cur, Stage::PreBind),
            TraceEvent::Bind { .. } => push(&mut stops, cur, Stage::Bind),
            TraceEvent::PostBind { .. } => push(&mut stops, cur, Stage::PostBind),
            TraceEvent::KubeEvent {
                reason: EventReason::FailedScheduling,
                ..
            } if !failed_seen && cur > 0 => {
                failed_seen = true;
                push(&mut stops, cur, Stage::Failed);
            }
            TraceEvent::Deleted { .. } if !evict_seen && cur > 0 => {
                evict_seen = true;
                if let Some(c) = cycles.last_mut() {
                    c.marker = Marker::Preempted;
                }
                push(&mut stops, cur, Stage::Evict);
            }
            TraceEvent::Change { .. } => {
                // One stop per change, once the informer events it caused are applied.
                let end = change_group_end(events, i);
                stops.push(Stop {
                    pos: end as u32,
                    cycle: cur,
                    stage: Stage::Change,
                });
            }
            TraceEvent::CycleEnd { outcome, .. } => {
                if let Some(c) = cycles.last_mut() {
                    c.end = i;
                    c.marker = match outcome {
                        CycleOutcome::Bound => Marker::Bound,
                        CycleOutcome::Error => Marker::Error,
                        CycleOutcome::Unschedulable if c.marker == Marker::Preempted => Marker::Preempted,
                        CycleOutcome::Unschedulable => Marker::Unschedulable,
                    };
                }
                push(&mut stops, cur, Stage::Done);
            }
            _ => {}
        }
    }
    stops.push(Stop {
        pos: events.len() as u32,
        cycle: cur,
        stage: Stage::Quiet,
    });
    (stops, cycles)
}

/// The end (exclusive) of the events a `change` at `i` brought: its informer events and queue
/// moves, up to the next change, clock jump or cycle.
pub(super) fn change_group_end(events: &[TraceEvent], i: usize) -> usize {
    (i + 1..events.len())
        .find(|&j| {
            matches!(
                events[j],
                TraceEvent::Change { .. }
                    | TraceEvent::Clock { .. }
                    | TraceEvent::CycleStart { .. }
                    | TraceEvent::QueueMove {
                        to: QueueName::InFlight,
                        ..
                    }
            )
        })
        .unwrap_or(events.len())
}
