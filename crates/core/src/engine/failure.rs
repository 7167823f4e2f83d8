//! Failure handling (upstream handleSchedulingFailure): the pod goes back to the queue, the
//! FailedScheduling event and the nominated node are recorded, and a successful preemption is
//! completed (victims deleted). The FailedScheduling message of a FitError is built by
//! `framework::fit_error_message`.

use super::{Engine, Phase, StepOutcome};
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource};
use crate::framework::{Code, NominatingInfo, NominatingMode, PodInfo, QueuedPodInfo, Status};
use crate::trace::*;
use std::sync::Arc;

impl Engine {
    /// Ends a failed cycle: the failure handling, then the cycle's end in the trace.
    pub(super) fn end_failed_cycle(
        &mut self,
        q: QueuedPodInfo,
        pod: usize,
        status: Status,
        message: String,
        nominating: Option<NominatingInfo>,
        cycle: u32,
    ) -> StepOutcome {
        let (outcome, step) = if status.code == Code::Error {
            (CycleOutcome::Error, StepOutcome::Error { pod })
        } else {
            (CycleOutcome::Unschedulable, StepOutcome::Unschedulable { pod })
        };
        self.handle_failure(q, status, message, nominating, cycle);
        self.trace.push(TraceEvent::CycleEnd { cycle, outcome });
        step
    }

    /// A pending pod's nominated node changes (the scheduler patches its status): the queue and
    /// the nominator get the new object, and a pod that loses or changes its nomination counts
    /// as deleted from its old node for the pods of lower or equal priority.
    fn set_nominated_node(&mut self, pi: usize, node: Option<String>) {
        let old = self.pods[pi].info.clone();
        if old.nominated_node_name() == node.as_deref() {
            return;
        }
        self.trace.push(TraceEvent::Nominated {
            pod: pi as u32,
            node: node.clone(),
        });
        self.generation += 1;
        let mut info = (*old).clone();
        Arc::make_mut(&mut info.pod).status.nominated_node_name = node.clone();
        let info = Arc::new(info);
        self.pods[pi].info = info.clone();
        self.pods[pi].nominated_node = node.clone();
        let now = self.tick();
        let moves = self.with_queue(|queue, env| queue.update(env, &old, info.clone(), now));
        for m in moves {
            self.record_move(m);
        }
        self.record_hint_log();
        match &node {
            Some(n) => self.nominator.add(info, n),
            None => self.nominator.remove(&old.key),
        }
        if old.nominated_node_name().is_some() {
            let prio = old.priority;
            self.cluster_event_filtered(
                ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                EventObject::Pod { old: Some(old), new: None },
                &|p: &PodInfo| p.priority <= prio,
            );
        }
    }

    /// Deletes a running pod (a preemption victim) and tells the queue.
    fn delete_pod(&mut self, victim: usize) {
        let info = self.pods[victim].info.clone();
        if let Some(node) = self.pods[victim].node.clone() {
            if let Some(idx) = self.snapshot.position(&node) {
                self.snapshot.remove_pod(idx, &info.key);
            }
            let idx = self.snapshot.position(&node).unwrap_or(0);
            self.trace.push(TraceEvent::Deleted {
                pod: victim as u32,
                node: self.node_ids[idx],
            });
        }
        self.cancel_finish(victim);
        {
            let st = &mut self.pods[victim];
            st.phase = Phase::Deleted;
            st.node = None;
            st.evicted = true;
        }
        self.nominator.remove(&info.key);
        let removed = self.with_queue(|queue, env| queue.delete(env, &info.key));
        if let Some(from) = removed {
            self.trace.push(TraceEvent::QueueMove {
                pod: victim as u32,
                from,
                to: QueueName::None,
                event: Some("PodDelete".into()),
                backoff_until_ms: None,
            });
        }
        let (ns, name, uid) = (info.namespace().to_string(), info.name().to_string(), info.uid.clone());
        self.cluster_event(
            ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
            EventObject::Pod {
                old: Some(info),
                new: None,
            },
        );
        // Its ResourceClaims follow (reservation, deallocation, deletion of those it owns).
        self.cluster.release_claims(&ns, &name, &uid);
        self.drain_cluster_events();
    }

    /// Failure handling (upstream handleSchedulingFailure), then what follows it in the
    /// simulated cluster: the pod goes back to the queue (AddUnschedulableIfNotPresent), the
    /// nominator records its nominated node, the FailedScheduling event and the status patch
    /// (message, nominated node) are applied; then a successful preemption runs to completion:
    /// lower-priority pods nominated to the chosen node lose their nomination and the victims
    /// are deleted, all together.
    fn handle_failure(&mut self, q: QueuedPodInfo, status: Status, message: String, nominating: Option<NominatingInfo>, cycle: u32) {
        let pi = self.pod_index[&q.pod.key];
        let _ = status;
        self.failed_at.insert(q.pod.key.clone(), self.generation);

        // Back to the queue, with the pod object as it was when the attempt started.
        let now = self.tick();
        let m = self.with_queue(|queue, env| queue.add_unschedulable(env, q, now));
        self.record_move(m);

        // The nominator: Override sets (or clears) the nominated node; otherwise the pod keeps
        // the one its status carries.
        let current = self.pods[pi].info.clone();
        let target = match &nominating {
            Some(n) if n.mode == NominatingMode::Override => (!n.nominated_node_name.is_empty()).then(|| n.nominated_node_name.clone()),
            _ => current.nominated_node_name().map(String::from),
        };
        match &target {
            Some(n) => self.nominator.add(current.clone(), n),
            None => self.nominator.remove(&current.key),
        }

        // The FailedScheduling event and the status patch.
        self.pods[pi].message = Some(message.clone());
        self.kube_event(cycle, EventReason::FailedScheduling, pi, message, None);
        self.set_nominated_node(pi, target);

        // A binding that was rejected: its assumed pod is forgotten now.
        if let Some(assumed) = self.deferred_forget.take() {
            let uid = assumed.uid.clone();
            self.cluster_event_filtered(
                ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                EventObject::Pod {
                    old: Some(assumed),
                    new: None,
                },
                &|p: &PodInfo| p.uid != uid,
            );
        }

        // A successful preemption completes.
        if let Some((preemptor, node, victims)) = self.pending_victims.take() {
            let lower: Vec<usize> = self
                .nominator
                .pods_for_node(&node)
                .iter()
                .filter(|p| p.priority < preemptor.priority)
                .filter_map(|p| self.pod_by_key(&p.key))
                .collect();
            for p in lower {
                self.set_nominated_node(p, None);
            }
            let by = self.pod_by_key(&preemptor.key);
            for v in &victims {
                let Some(vi) = self.pod_by_key(v) else { continue };
                if self.pods[vi].phase != Phase::Running {
                    continue;
                }
                self.delete_pod(vi);
                let msg = format!("Preempted by pod {} on node {}", preemptor.uid, node);
                self.kube_event(cycle, EventReason::Preempted, vi, msg, by);
            }
        }
    }
}
