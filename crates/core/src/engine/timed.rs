//! The engine under the timeline rules (tests/conformance/timeline/README.md): a logical clock
//! that jumps from instant to instant when nothing can be popped, pods that finish after their
//! `schedlab.dev/duration`, timeline steps, the 30-second flush of pods unschedulable for more
//! than 5 minutes, and each change delivered to the queue as the informer event it causes.
//!
//! `Engine::apply_change` is the one way to change the cluster while it runs; the timeline's
//! steps go through it, and so can any other driver (a controller, a user action).

use super::{Engine, Phase, PodState};
use crate::api;
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource};
use crate::framework::PodInfo;
use crate::queue::{pod_update_events, NS_PER_MS};
use crate::timeline::{self, Change, Object, Target, TargetKind, FLUSH_PERIOD_NS, MAX_UNSCHEDULABLE_NS};
use crate::trace::{ChangeAction, ChangeCause, FinishedPhase, ObjectRef, PodRequeue, QueueName, TraceEvent};
use schedlab_view::words::ObjectKind;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The timeline's progress.
#[derive(Clone, Debug, Default)]
pub(super) struct TimelineState {
    steps: Vec<timeline::Step>,
    next_step: usize,
    /// The current instant's exact logical time, ns (the engine's `now` adds one nanosecond
    /// per queue operation on top of it).
    pub(super) instant: i64,
    /// Running pods with a duration, by (finish time, binding order).
    finishing: BTreeMap<(i64, u64), usize>,
    bind_seq: u64,
    /// The last flush tick handled.
    last_flush: i64,
    /// Node name -> index in the trace header.
    node_index: HashMap<String, u32>,
    /// The workload controllers, when they react while the cluster runs.
    controllers: Option<crate::controllers::Controllers>,
    /// The engine's generation when the controllers last ran.
    reacted_at: Option<u64>,
    /// Objects so far (the file's and those created since): the next created object's
    /// document index.
    pub(super) documents: usize,
}

/// What `apply_change` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChangeOutcome {
    Applied,
    /// Not applied, and why (the target is already gone, or the patch changes nothing).
    Skipped(String),
}

impl Engine {
    /// Turns the timeline rules on with these steps.
    pub(super) fn start_timeline(&mut self, tl: timeline::Timeline) {
        self.timeline.steps = tl.steps;
        self.queue.set_retry_errors(false);
        self.queue.enable_log();
        self.timeline.node_index = self
            .trace
            .header
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u32))
            .collect();
    }

    /// The timeline's step times (logical ms), in list order.
    pub fn timeline_step_times_ms(&self) -> Vec<i64> {
        self.timeline.steps.iter().map(|s| s.at_ns / NS_PER_MS).collect()
    }

    /// The timeline's steps.
    pub fn timeline_steps(&self) -> &[timeline::Step] {
        &self.timeline.steps
    }

    /// The exact logical time of the current instant, ns.
    pub fn instant_ns(&self) -> i64 {
        self.timeline.instant
    }

    /// A pod starts running (bound now, or running from the start): it takes its place in
    /// binding order, and a pod with a duration is due to finish.
    pub(super) fn start_running(&mut self, pi: usize, at: i64) {
        let seq = self.timeline.bind_seq;
        self.timeline.bind_seq += 1;
        self.pods[pi].bound_seq = Some(seq);
        if !self.timed {
            return;
        }
        if let Ok(Some(d)) = timeline::pod_duration(&self.pods[pi].info.pod) {
            let t = at.saturating_add(d);
            self.pods[pi].finish_at = Some(t);
            self.timeline.finishing.insert((t, seq), pi);
        }
    }

    /// The pod no longer runs: it will not finish.
    pub(super) fn cancel_finish(&mut self, pi: usize) {
        if let (Some(t), Some(seq)) = (self.pods[pi].finish_at.take(), self.pods[pi].bound_seq) {
            self.timeline.finishing.remove(&(t, seq));
        }
    }

    /// Records what the queue did with the last cluster events (timed runs only).
    pub(super) fn record_hint_log(&mut self) {
        if !self.timed {
            return;
        }
        // Backoff left is counted from the instant (the nanoseconds the engine adds per queue
        // operation are bookkeeping, not time).
        let now = self.timeline.instant;
        for log in self.queue.take_log() {
            let pods = log
                .pods
                .into_iter()
                .filter_map(|p| {
                    let pod = *self.pod_index.get(&p.key)? as u32;
                    Some(PodRequeue {
                        pod,
                        hints: p.hints,
                        to: p.to,
                        moved: p.moved,
                        backoff_remaining_ms: p
                            .backoff_until_ns
                            .filter(|_| p.to == QueueName::BackoffQ)
                            .map(|u| (u - now).max(0) / NS_PER_MS),
                    })
                })
                .collect();
            self.trace.push(TraceEvent::InformerEvent { event: log.event, pods });
        }
    }

    /// The time the timeline rules keep going until: the last step or pod finishing still to
    /// come (flush ticks only count up to it).
    fn horizon(&self) -> Option<i64> {
        let step = self
            .timeline
            .steps
            .get(self.timeline.next_step..)
            .and_then(|s| s.last())
            .map(|s| s.at_ns);
        let finish = self.timeline.finishing.keys().next_back().map(|k| k.0);
        step.max(finish)
    }

    /// Jumps to the next instant and applies what happens then, in order: pods finishing (in
    /// binding order), the steps (in list order), then the flush at a 30-second tick. Returns
    /// false when nothing is left to happen (the run ends).
    pub(super) fn next_instant(&mut self) -> bool {
        let Some(horizon) = self.horizon() else { return false };
        let step = self.timeline.steps.get(self.timeline.next_step).map(|s| s.at_ns);
        let finish = self.timeline.finishing.keys().next().map(|k| k.0);
        let after = self.timeline.instant.max(self.timeline.last_flush);
        let flush = self
            .queue
            .next_leftover_flush(after, FLUSH_PERIOD_NS, MAX_UNSCHEDULABLE_NS)
            .filter(|&t| t <= horizon);
        let Some(t) = [step, finish, flush].into_iter().flatten().min() else {
            return false;
        };
        let t = t.max(self.timeline.instant);
        self.timeline.instant = t;
        if t > self.now {
            self.now = t;
            self.trace.push(TraceEvent::Clock { time_ms: self.now_ms() });
        }
        while let Some((&(ft, _), &pi)) = self.timeline.finishing.first_key_value() {
            if ft > t {
                break;
            }
            self.finish_pod(pi, Phase::Succeeded, ChangeCause::Finish, None);
        }
        while let Some(s) = self.timeline.steps.get(self.timeline.next_step) {
            if s.at_ns > t {
                break;
            }
            let change = s.change.clone();
            let i = self.timeline.next_step as u32;
            self.timeline.next_step += 1;
            self.apply_change_as(&change, ChangeCause::Step, Some(i));
        }
        if t > 0 && t % FLUSH_PERIOD_NS == 0 && t > self.timeline.last_flush && t <= horizon {
            self.timeline.last_flush = t;
            self.flush_leftover(t);
        }
        self.react_controllers();
        true
    }

    /// The periodic flush at tick `t`: pods unschedulable for more than 5 minutes are retried.
    fn flush_leftover(&mut self, t: i64) {
        let now = self.tick();
        let moves = self.with_queue(|queue, env| queue.flush_unschedulable_leftover(env, t, MAX_UNSCHEDULABLE_NS, now));
        if moves.is_empty() {
            return;
        }
        self.trace.push(TraceEvent::Change {
            at_ms: t / NS_PER_MS,
            cause: ChangeCause::Flush,
            step: None,
            action: ChangeAction::Flush,
            object: None,
            pod: None,
            node: None,
            phase: None,
            skipped: None,
            by: None,
        });
        self.generation += 1;
        for m in moves {
            self.record_move(m);
        }
        self.record_hint_log();
    }

    /// Applies a change to the running cluster, as the informers would report it to the
    /// scheduler. Takes effect for the next pop; the change and the informer events it causes
    /// are recorded in the trace.
    pub fn apply_change(&mut self, change: &Change) -> ChangeOutcome {
        self.apply_change_as(change, ChangeCause::Api, None)
    }

    fn change_event(&mut self, cause: ChangeCause, step: Option<u32>, change: &Change, by: Option<ObjectRef>) -> usize {
        self.trace.push(TraceEvent::Change {
            at_ms: self.timeline.instant / NS_PER_MS,
            cause,
            step,
            action: change.verb(),
            object: Some(Box::new(change.object())),
            pod: None,
            node: None,
            phase: None,
            skipped: None,
            by: by.map(Box::new),
        })
    }

    /// Fills in the pod, node or skip reason of the `change` event at `at`.
    fn annotate(&mut self, at: usize, pod: Option<usize>, node: Option<&str>, skipped: Option<String>) {
        let node_ix = node.and_then(|n| self.timeline.node_index.get(n).copied());
        if let Some(TraceEvent::Change {
            pod: p,
            node: n,
            skipped: s,
            ..
        }) = self.trace.events.get_mut(at)
        {
            *p = pod.map(|i| i as u32);
            *n = node_ix;
            *s = skipped;
        }
    }

    fn apply_change_as(&mut self, change: &Change, cause: ChangeCause, step: Option<u32>) -> ChangeOutcome {
        self.apply_change_by(change, cause, step, None)
    }

    fn apply_change_by(&mut self, change: &Change, cause: ChangeCause, step: Option<u32>, by: Option<ObjectRef>) -> ChangeOutcome {
        if !self.timed {
            // Changes from outside switch the timeline rules on.
            self.timed = true;
            self.start_timeline(timeline::Timeline::default());
        }
        let at = self.change_event(cause, step, change, by);
        let out = match change {
            Change::Create(o) => self.create(o, at),
            Change::Delete(t) => self.delete(t, at),
            Change::Patch(t, merge) => self.patch(t, merge, at),
        };
        if let ChangeOutcome::Skipped(why) = &out {
            if let Some(TraceEvent::Change { skipped, .. }) = self.trace.events.get_mut(at) {
                *skipped = Some(why.clone());
            }
        } else {
            self.generation += 1;
        }
        self.drain_cluster_events();
        out
    }

    // --- create -------------------------------------------------------------------------

    fn create(&mut self, o: &Object, at: usize) -> ChangeOutcome {
        match o {
            Object::Node(n) => {
                let name = n.metadata.name.clone();
                if self.snapshot.position(&name).is_some() {
                    return ChangeOutcome::Skipped(format!("node {name} already exists"));
                }
                let node = Arc::new(n.clone());
                self.snapshot.add_node(node.clone());
                self.refresh_node_ids();
                self.annotate(at, None, Some(&name), None);
                self.cluster_event(
                    ClusterEvent::new(EventResource::Node, ActionType::ADD),
                    EventObject::Node {
                        old: None,
                        new: Some(node),
                    },
                );
            }
            Object::Pod(p) => return self.create_pod(p.clone(), at),
            Object::Namespace(ns) => {
                self.cluster.namespaces.insert(ns.metadata.name.clone(), ns.clone());
            }
            Object::PriorityClass(pc) => {
                self.cluster.priority_classes.insert(pc.metadata.name.clone(), pc.clone());
            }
            Object::PersistentVolume(pv) => self.cluster.update_pv(pv.clone()),
            Object::PersistentVolumeClaim(pvc) => self.cluster.update_pvc(pvc.clone()),
            Object::StorageClass(sc) => {
                self.cluster.storage_classes.insert(sc.metadata.name.clone(), sc.clone());
                self.cluster_event(ClusterEvent::new(EventResource::StorageClass, ActionType::ADD), EventObject::None);
            }
            Object::CsiNode(c) => {
                self.cluster.csi_nodes.insert(c.metadata.name.clone(), c.clone());
                self.cluster_event(ClusterEvent::new(EventResource::CSINode, ActionType::ADD), EventObject::None);
            }
            Object::CsiDriver(c) => {
                self.cluster.csi_drivers.insert(c.metadata.name.clone(), c.clone());
                self.cluster_event(ClusterEvent::new(EventResource::CSIDriver, ActionType::ADD), EventObject::None);
            }
            Object::PodDisruptionBudget(pdb) => {
                let n = self.cluster.pdbs.len();
                self.cluster.pdbs.push(pdb.clone());
                // Its status is computed now, from the pods running at this step.
                let running: Vec<Arc<PodInfo>> = self
                    .pods
                    .iter()
                    .filter(|p| p.phase == Phase::Running)
                    .map(|p| p.info.clone())
                    .collect();
                let mut only = crate::cluster::Cluster {
                    pdbs: vec![self.cluster.pdbs[n].clone()],
                    ..Default::default()
                };
                crate::plugins::default_preemption::fill_pdb_statuses(&mut only, &running);
                self.cluster.pdbs[n] = only.pdbs.pop().expect("one");
            }
        }
        ChangeOutcome::Applied
    }

    fn create_pod(&mut self, pod: api::Pod, at: usize) -> ChangeOutcome {
        let ns = pod.metadata.namespace.as_deref().unwrap_or("default");
        let key = format!("{ns}/{}", pod.metadata.name);
        // A deleted pod's name may be used again (a StatefulSet recreates its pods by name).
        if self.pod_index.get(&key).is_some_and(|&i| self.pods[i].phase != Phase::Deleted) {
            return ChangeOutcome::Skipped(format!("pod {key} already exists"));
        }
        let i = self.pods.len();
        let phase = Phase::of_new(&pod);
        let mut info = PodInfo::new(pod, i);
        if phase == Phase::Running {
            info.start_time = Some(self.sched_start_ns + self.timeline.instant);
        }
        let info = Arc::new(info);
        self.trace.header.pods.push(info.key.clone());
        self.pod_index.insert(info.key.clone(), i);
        self.pods.push(PodState::arrived(info.clone(), phase));
        self.annotate(at, Some(i), info.node_name(), None);
        match phase {
            Phase::Running => {
                // Running at once, without the queue: the scheduler's cache learns of it.
                self.cache_running(&info);
                let instant = self.timeline.instant;
                self.start_running(i, instant);
                self.cluster_event(
                    ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD),
                    EventObject::Pod {
                        old: None,
                        new: Some(info),
                    },
                );
            }
            Phase::Pending => self.enqueue_new(&info),
            _ => {}
        }
        ChangeOutcome::Applied
    }

    // --- delete -------------------------------------------------------------------------

    fn delete(&mut self, t: &Target, at: usize) -> ChangeOutcome {
        match t.kind {
            TargetKind::Pod => {
                let key = t.object_key();
                let Some(pi) = self.pod_index.get(&key).copied() else {
                    return ChangeOutcome::Skipped(format!("pod {key} does not exist"));
                };
                let node = self.pods[pi].node.clone();
                self.annotate(at, Some(pi), node.as_deref(), None);
                match self.pods[pi].phase {
                    Phase::Deleted => ChangeOutcome::Skipped(format!("pod {key} was already deleted")),
                    p if p.is_finished() => ChangeOutcome::Skipped(format!("pod {key} already finished")),
                    _ => {
                        self.remove_pod(pi, Phase::Deleted);
                        ChangeOutcome::Applied
                    }
                }
            }
            TargetKind::Node => {
                let name = t.name.clone();
                if self.snapshot.position(&name).is_none() {
                    return ChangeOutcome::Skipped(format!("node {name} does not exist"));
                }
                self.annotate(at, None, Some(&name), None);
                // Its pods first (finished ones too), in binding order; then the node.
                let mut on_node: Vec<(u64, usize)> = self
                    .pods
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.ran_on.as_deref() == Some(name.as_str()) && (p.phase == Phase::Running || p.phase.is_finished()))
                    .map(|(i, p)| (p.bound_seq.unwrap_or(u64::MAX), i))
                    .collect();
                crate::sort::sort(&mut on_node);
                for (_, pi) in on_node {
                    if self.pods[pi].phase.is_finished() {
                        self.pods[pi].phase = Phase::Deleted;
                    } else {
                        self.remove_pod(pi, Phase::Deleted);
                    }
                }
                let node = self.snapshot.get(&name).map(|n| n.node.clone());
                self.cluster_event(
                    ClusterEvent::new(EventResource::Node, ActionType::DELETE),
                    EventObject::Node { old: node, new: None },
                );
                self.snapshot.remove_node(&name);
                self.refresh_node_ids();
                ChangeOutcome::Applied
            }
            _ => ChangeOutcome::Skipped(format!("{} cannot be deleted", t.key())),
        }
    }

    /// A pod leaves the cluster (deleted, or finished): a pending pod leaves the queue, a
    /// running one frees its node; the scheduler hears of it as upstream's informers report it.
    fn remove_pod(&mut self, pi: usize, phase: Phase) {
        let info = self.pods[pi].info.clone();
        match self.pods[pi].phase {
            Phase::Running => {
                if let Some(idx) = self.pods[pi].node.as_deref().and_then(|n| self.snapshot.position(n)) {
                    self.snapshot.remove_pod(idx, &info.key);
                }
                self.cancel_finish(pi);
                self.pods[pi].phase = phase;
                self.pods[pi].node = None;
                self.cluster_event(
                    ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                    EventObject::Pod {
                        old: Some(info),
                        new: None,
                    },
                );
            }
            Phase::Pending => {
                self.pods[pi].phase = phase;
                let removed = self.with_queue(|queue, env| queue.delete(env, &info.key));
                if let Some(from) = removed {
                    self.trace.push(TraceEvent::QueueMove {
                        pod: pi as u32,
                        from,
                        to: QueueName::None,
                        event: Some(ClusterEvent::new(EventResource::UnscheduledPod, ActionType::DELETE).label()),
                        backoff_until_ms: None,
                    });
                }
                self.nominator.remove(&info.key);
                // A nominated pod counted as placed on its node for pods of lower or equal
                // priority.
                if info.nominated_node_name().is_some() {
                    let prio = info.priority;
                    self.cluster_event_filtered(
                        ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                        EventObject::Pod {
                            old: Some(info),
                            new: None,
                        },
                        &|p: &PodInfo| p.priority <= prio,
                    );
                }
            }
            _ => self.pods[pi].phase = phase,
        }
    }

    /// A pod's phase becomes Succeeded or Failed: for the scheduler it is gone.
    fn finish_pod(&mut self, pi: usize, phase: Phase, cause: ChangeCause, step: Option<u32>) {
        if cause == ChangeCause::Finish {
            let info = &self.pods[pi].info;
            let key = ObjectRef::new(ObjectKind::Pod, Some(info.namespace().to_string()), info.name());
            let node = self.pods[pi].node.clone();
            let at = self.trace.push(TraceEvent::Change {
                at_ms: self.timeline.instant / NS_PER_MS,
                cause,
                step,
                action: ChangeAction::Finish,
                object: Some(Box::new(key)),
                pod: None,
                node: None,
                phase: Some(if phase == Phase::Failed { FinishedPhase::Failed } else { FinishedPhase::Succeeded }),
                skipped: None,
                by: None,
            });
            self.annotate(at, Some(pi), node.as_deref(), None);
            self.generation += 1;
        }
        let mut info = (*self.pods[pi].info).clone();
        Arc::make_mut(&mut info.pod).status.phase = Some(phase.as_str().into());
        self.remove_pod(pi, phase);
        self.pods[pi].info = Arc::new(info);
    }

    // --- patch --------------------------------------------------------------------------

    fn patch(&mut self, t: &Target, merge: &serde_json::Value, at: usize) -> ChangeOutcome {
        match t.kind {
            TargetKind::Node => {
                let Some(old) = self.snapshot.get(&t.name).map(|n| n.node.clone()) else {
                    return ChangeOutcome::Skipped(format!("node {} does not exist", t.name));
                };
                self.annotate(at, None, Some(&t.name), None);
                let new = match timeline::patch_node(&old, merge) {
                    Ok(n) => n,
                    Err(e) => return ChangeOutcome::Skipped(e),
                };
                if new == *old {
                    return ChangeOutcome::Skipped("the patch changes nothing".into());
                }
                let new = Arc::new(new);
                self.snapshot.update_node(new.clone());
                self.refresh_node_ids();
                for ev in node_update_events(&old, &new) {
                    self.cluster_event(
                        ev,
                        EventObject::Node {
                            old: Some(old.clone()),
                            new: Some(new.clone()),
                        },
                    );
                }
                ChangeOutcome::Applied
            }
            TargetKind::Pod => {
                let key = t.object_key();
                let Some(pi) = self.pod_index.get(&key).copied() else {
                    return ChangeOutcome::Skipped(format!("pod {key} does not exist"));
                };
                let node = self.pods[pi].node.clone();
                self.annotate(at, Some(pi), node.as_deref(), None);
                match self.pods[pi].phase {
                    Phase::Deleted => return ChangeOutcome::Skipped(format!("pod {key} was deleted")),
                    p if p.is_finished() => return ChangeOutcome::Skipped(format!("pod {key} already finished")),
                    _ => {}
                }
                let old = self.pods[pi].info.clone();
                let new_pod = match timeline::patch_pod(&old.pod, merge) {
                    Ok(p) => p,
                    Err(e) => return ChangeOutcome::Skipped(e),
                };
                if new_pod == *old.pod {
                    return ChangeOutcome::Skipped("the patch changes nothing".into());
                }
                match new_pod.status.phase.as_deref() {
                    Some("Succeeded") => {
                        self.finish_pod(pi, Phase::Succeeded, ChangeCause::Step, None);
                        return ChangeOutcome::Applied;
                    }
                    Some("Failed") => {
                        self.finish_pod(pi, Phase::Failed, ChangeCause::Step, None);
                        return ChangeOutcome::Applied;
                    }
                    _ => {}
                }
                let mut info = PodInfo::new(new_pod, pi);
                info.start_time = old.start_time;
                // A patch cannot change the node (`timeline::patch_pod`): the binding stays.
                info.bound_node = old.bound_node.clone();
                let info = Arc::new(info);
                self.pods[pi].info = info.clone();
                if self.pods[pi].phase == Phase::Running {
                    if let Some(idx) = node.as_deref().and_then(|n| self.snapshot.position(n)) {
                        self.snapshot.remove_pod(idx, &old.key);
                        self.snapshot.add_pod(idx, info.clone());
                    }
                    for ev in pod_update_events(&old, &info) {
                        self.cluster_event(
                            ev,
                            EventObject::Pod {
                                old: Some(old.clone()),
                                new: Some(info.clone()),
                            },
                        );
                    }
                } else {
                    if self
                        .nominator
                        .pods_for_node(old.nominated_node_name().unwrap_or(""))
                        .iter()
                        .any(|p| p.key == old.key)
                    {
                        let n = old.nominated_node_name().unwrap_or("").to_string();
                        self.nominator.add(info.clone(), &n);
                    }
                    let now = self.tick();
                    let moves = self.with_queue(|queue, env| queue.update(env, &old, info, now));
                    for m in moves {
                        self.record_move(m);
                    }
                    self.record_hint_log();
                }
                ChangeOutcome::Applied
            }
            kind => {
                let replicas = match timeline::patch_replicas(merge, kind.as_str()) {
                    Ok(r) => r,
                    Err(e) => return ChangeOutcome::Skipped(e),
                };
                let (ns, name) = (t.namespace.as_str(), t.name.as_str());
                let is = |m: &api::ObjectMeta| m.name == name && m.namespace.as_deref().unwrap_or("default") == ns;
                let w = &mut self.cluster.workloads;
                let slot = match kind {
                    TargetKind::Deployment => w.deployments.iter_mut().find(|o| is(&o.metadata)).map(|o| &mut o.spec.replicas),
                    TargetKind::ReplicaSet => w.replica_sets.iter_mut().find(|o| is(&o.metadata)).map(|o| &mut o.spec.replicas),
                    _ => w.stateful_sets.iter_mut().find(|o| is(&o.metadata)).map(|o| &mut o.spec.replicas),
                };
                let Some(slot) = slot else {
                    return ChangeOutcome::Skipped(format!("{} does not exist", t.key()));
                };
                if slot.unwrap_or(1) == replicas {
                    return ChangeOutcome::Skipped("the patch changes nothing".into());
                }
                // The scheduler does not watch workloads: no informer event. The controllers
                // (when on) scale the pods at this instant.
                *slot = Some(replicas);
                ChangeOutcome::Applied
            }
        }
    }

    /// Lets the workload controllers react while the cluster runs (timed runs only): after
    /// each instant's changes, and whenever the scheduler has nothing to pop, they compare what
    /// each workload asks for with the pods that exist, and their pods are created or deleted
    /// through `apply_change` (cause `controller`, `by` the controller). `c` continues the name
    /// stream of the controllers that created the scenario's pods.
    pub fn enable_controllers(&mut self, c: crate::controllers::Controllers) {
        self.timeline.controllers = Some(c);
    }

    /// Runs the controllers once if the cluster changed since they last ran. Returns whether
    /// they changed anything.
    pub(super) fn react_controllers(&mut self) -> bool {
        if !self.timed || self.timeline.reacted_at == Some(self.generation) {
            return false;
        }
        let Some(mut ctl) = self.timeline.controllers.take() else {
            return false;
        };
        let mut sc = crate::load::Scenario {
            nodes: self.snapshot.nodes().iter().map(|n| n.node.clone()).collect(),
            documents: self.timeline.documents,
            ..Default::default()
        };
        let mut gone = std::collections::HashSet::new();
        for p in &self.pods {
            let key = (p.info.namespace().to_string(), p.info.name().to_string());
            if p.phase == Phase::Deleted {
                gone.insert(key);
                continue;
            }
            let mut pod = (*p.info.pod).clone();
            pod.status.phase = Some(p.phase.as_str().into());
            if p.phase == Phase::Running {
                pod.spec.node_name = p.node.clone();
            }
            sc.pods.push(Arc::new(pod));
        }
        let existing = sc.pods.len();
        sc.cluster = std::mem::take(&mut self.cluster);
        let report = ctl.react(&mut sc, &gone);
        self.cluster = std::mem::take(&mut sc.cluster);
        self.timeline.documents = sc.documents;
        self.timeline.controllers = Some(ctl);
        for f in report.failed {
            self.controller_failures.push(f);
        }
        let mut changed = false;
        for (pod, by) in report.deleted {
            let (namespace, name) = pod.split_once('/').map(|(a, b)| (a.to_string(), b.to_string())).unwrap_or_default();
            let target = Target {
                kind: TargetKind::Pod,
                namespace,
                name,
            };
            changed |= self.apply_change_by(&Change::Delete(target), ChangeCause::Controller, None, Some(by)) == ChangeOutcome::Applied;
        }
        for (pod, by) in sc.pods.drain(existing..).zip(report.owners) {
            let change = Change::Create(Box::new(Object::Pod(Arc::unwrap_or_clone(pod))));
            changed |= self.apply_change_by(&change, ChangeCause::Controller, None, Some(by)) == ChangeOutcome::Applied;
        }
        self.timeline.reacted_at = Some(self.generation);
        changed
    }

    /// Re-reads the snapshot's order into `node_ids`, appending new node names to the header.
    fn refresh_node_ids(&mut self) {
        let mut ids = Vec::with_capacity(self.snapshot.len());
        for n in self.snapshot.nodes() {
            let name = n.name();
            let id = match self.timeline.node_index.get(name) {
                Some(&i) => i,
                None => {
                    let i = self.trace.header.nodes.len() as u32;
                    self.trace.header.nodes.push(name.to_string());
                    self.timeline.node_index.insert(name.to_string(), i);
                    i
                }
            };
            ids.push(id);
        }
        if ids != self.node_ids {
            self.node_ids = ids;
            self.node_order_changes += 1;
        }
    }
}

/// The node-update events an update amounts to (upstream NodeSchedulingPropertiesChange):
/// becoming schedulable counts as a taint change; allocatable, labels, taints, conditions and
/// annotations each give their own event.
pub fn node_update_events(old: &api::Node, new: &api::Node) -> Vec<ClusterEvent> {
    let mut out = Vec::new();
    let unsched = |n: &api::Node| n.spec.unschedulable.unwrap_or(false);
    if unsched(old) != unsched(new) && !unsched(new) {
        out.push(ActionType::UPDATE_NODE_TAINT);
    }
    if old.status.allocatable != new.status.allocatable {
        out.push(ActionType::UPDATE_NODE_ALLOCATABLE);
    }
    if old.metadata.labels != new.metadata.labels {
        out.push(ActionType::UPDATE_NODE_LABEL);
    }
    if old.spec.taints != new.spec.taints {
        out.push(ActionType::UPDATE_NODE_TAINT);
    }
    if old.metadata.annotations != new.metadata.annotations {
        out.push(ActionType::UPDATE_NODE_ANNOTATION);
    }
    out.into_iter().map(|a| ClusterEvent::new(EventResource::Node, a)).collect()
}
