//! Queueing hints (upstream buildQueueingHintMap, isPodWorthRequeuing,
//! MoveAllToActiveOrBackoffQueue): the cluster events each plugin registered, the plugins'
//! answers for a pod they rejected, and the broadcast of a cluster event to the unschedulable
//! pool, with its optional log.

use super::{pool_name, InFlightEntry, Move, Placed, QueueEnv, SchedulingQueue};
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource, QueueingHint};
use crate::framework::{Framework, PodInfo, QueuedPodInfo};
use crate::trace::{HintAnswer, QueueName};
use crate::vocabulary::{ExtensionPoint as Ep, PluginName, PluginSet};
use std::collections::{BTreeMap, BTreeSet};

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
pub(super) struct HintReg {
    event: ClusterEvent,
    plugin: PluginName,
    /// Ask the plugin's queueing hint; otherwise the answer is always Queue.
    has_hint: bool,
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
    /// Collects, per profile, the cluster events each plugin registered (upstream
    /// buildQueueingHintMap): plugins at PreEnqueue, PreFilter, Filter, Reserve or Permit
    /// register their EventsToRegister, or every event when they have none to offer.
    pub fn register_profiles(&mut self, frameworks: &BTreeMap<String, Framework>) {
        const RELEVANT: [Ep; 5] = [Ep::PreEnqueue, Ep::PreFilter, Ep::Filter, Ep::Reserve, Ep::Permit];
        for (name, fw) in frameworks {
            let mut regs = Vec::new();
            for (pn, pl) in fw.instances() {
                let d = fw.descriptor(pn);
                if !RELEVANT.iter().any(|p| d.implements(*p)) {
                    continue;
                }
                let events: Vec<(ClusterEvent, bool)> = if d.implements(Ep::EnqueueExtensions) {
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

    /// Starts recording what each cluster event did to pending pods (see `take_log`).
    pub fn enable_log(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The events recorded since the last call.
    pub fn take_log(&mut self) -> Vec<InformerLog> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub(super) fn logging(&self) -> bool {
        self.log.is_some()
    }

    pub(super) fn log_event(&mut self, event: String) {
        if let Some(l) = self.log.as_mut() {
            l.push(InformerLog { event, pods: Vec::new() });
        }
    }

    pub(super) fn log_pod(&mut self, key: &str, hints: Vec<HintAnswer>, from: QueueName, placed: Option<&Placed>) {
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

    /// Whether any plugin of any profile registered an event matching `ev`.
    fn is_event_of_interest(&self, ev: &ClusterEvent) -> bool {
        ev.is_wildcard() || self.hints.values().flatten().any(|r| r.event.matches(ev))
    }

    /// isPodWorthRequeuing: asks the queueing hints of the plugins that rejected the pod.
    pub fn worth_requeuing(&self, env: &QueueEnv, q: &QueuedPodInfo, ev: &ClusterEvent, obj: &EventObject) -> Strategy {
        self.worth_requeuing_logged(env, q, ev, obj, None)
    }

    /// `worth_requeuing`, recording each plugin's answer in `log` when given.
    pub(super) fn worth_requeuing_logged(
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
    pub(super) fn strategy_for_in_flight(&self, env: &QueueEnv, q: &QueuedPodInfo) -> Strategy {
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
            let mut keys: BTreeSet<&String> = crate::sort::set_of(self.no_rejector.iter());
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

    /// A cluster event for every unschedulable pod (no precheck).
    pub fn on_event(&mut self, env: &QueueEnv, ev: ClusterEvent, obj: &EventObject, now: i64) -> Vec<Move> {
        self.move_all(env, ev, obj, None, now)
    }
}
