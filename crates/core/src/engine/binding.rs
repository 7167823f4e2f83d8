//! The end of the scheduling cycle (Assume, Reserve, Permit) and the binding cycle (PreBind,
//! Bind, PostBind), with what a binding does to the simulated cluster.

use super::{Engine, Phase};
use crate::framework::events::{ActionType, ClusterEvent, EventObject, EventResource};
use crate::framework::{fit_error_message, Ctx, CycleState, NodeToStatus, PodInfo, Status};
use crate::trace::*;
use crate::version::Gate;
use std::sync::Arc;

impl Engine {
    /// Assume, Reserve, Permit, then the binding cycle (PreBind, Bind, PostBind). On failure
    /// returns the status, the FailedScheduling message, and whether the failure names rejecting
    /// plugins (a Reserve or Permit rejection, reported as a FitError on one node).
    pub(super) fn assume_reserve_permit_bind(
        &mut self,
        state: &mut CycleState,
        pod: &Arc<PodInfo>,
        node: usize,
        cycle: u32,
    ) -> Result<(), (Status, String, bool)> {
        let node_name = self.snapshot.nodes()[node].name().to_string();
        let mut assumed = (**pod).clone();
        assumed.bound_node = Some(node_name.clone());
        // A pod bound during the run gets no start time: no kubelet reports it started
        // (DefaultPreemption then reads the clock for it, as upstream does).
        assumed.start_time = None;
        let assumed = Arc::new(assumed);
        self.snapshot.add_pod(node, assumed.clone());
        // An assumed pod is no longer a nominated one.
        self.nominator.remove(&pod.key);
        let fw = &self.frameworks[pod.scheduler_name()];

        let fail_one_node = |s: &Status, node: usize| -> String {
            let mut d = NodeToStatus::default();
            d.insert(node, s.clone());
            fit_error_message(1, "", &d, "")
        };

        let cx = Ctx {
            snapshot: &self.snapshot,
            cluster: &self.cluster,
            nominator: &self.nominator,
        };
        let s = fw.run_reserve(&cx, state, &assumed, &node_name);
        self.trace.push(TraceEvent::Reserve {
            cycle,
            node: self.node_ids[node],
            code: s.code,
        });
        if !s.is_success() {
            fw.run_unreserve(&cx, state, &assumed, &node_name);
            self.snapshot.remove_pod(node, &pod.key);
            let rejected = s.is_rejected();
            let msg = if rejected { fail_one_node(&s, node) } else { s.message() };
            return Err((s, msg, rejected));
        }
        let s = fw.run_permit(&cx, state, &assumed, &node_name);
        self.trace.push(TraceEvent::Permit {
            cycle,
            node: self.node_ids[node],
            code: s.code,
        });
        if !s.is_success() && !s.is_wait() {
            fw.run_unreserve(&cx, state, &assumed, &node_name);
            self.snapshot.remove_pod(node, &pod.key);
            let rejected = s.is_rejected();
            let msg = if rejected { fail_one_node(&s, node) } else { s.message() };
            return Err((s, msg, rejected));
        }

        // Binding cycle. The pod's attempt is done for the queue: events from here on are not
        // replayed for it.
        self.queue.done(&pod.key);
        // With NominatedNodeNameForExpectation, a pod whose PreBind will have work to do gets
        // the chosen node as its nominated node first (telling other components where it is
        // going); it keeps it once bound, as the v1.35 corpus shows. The binding is synchronous
        // here, so no other cycle runs before it: the queue and the nominator are not told.
        let pre_flight = if self.config.features.enabled(Gate::NominatedNodeNameForExpectation) {
            fw.run_pre_bind_pre_flights(state, &assumed, &node_name)
        } else {
            Status::skip()
        };
        if pre_flight.is_success() && self.pods[pod.index].nominated_node.as_deref() != Some(node_name.as_str()) {
            self.trace.push(TraceEvent::Nominated {
                pod: pod.index as u32,
                node: Some(node_name.clone()),
            });
            self.pods[pod.index].nominated_node = Some(node_name.clone());
        }
        let s = if pre_flight.is_success() || pre_flight.is_skip() {
            fw.run_pre_bind(&mut self.cluster, state, &assumed, &node_name)
        } else {
            pre_flight
        };
        self.trace.push(TraceEvent::PreBind {
            cycle,
            node: self.node_ids[node],
            code: s.code,
        });
        let s = if s.is_success() {
            fw.run_bind(&mut self.cluster, state, &assumed, &node_name)
        } else {
            s
        };
        if !s.is_success() {
            let fw = &self.frameworks[pod.scheduler_name()];
            let cx = Ctx {
                snapshot: &self.snapshot,
                cluster: &self.cluster,
                nominator: &self.nominator,
            };
            fw.run_unreserve(&cx, state, &assumed, &node_name);
            self.snapshot.remove_pod(node, &pod.key);
            let msg = s.message();
            self.drain_cluster_events();
            // Forgetting the assumed pod frees its resources: an AssignedPodDelete event, held
            // back until the failure is handled when the binding was rejected.
            if s.is_rejected() {
                self.deferred_forget = Some(assumed.clone());
            } else {
                self.cluster_event(
                    ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                    EventObject::Pod {
                        old: Some(assumed.clone()),
                        new: None,
                    },
                );
            }
            return Err((s, msg, false));
        }
        let binder = s.plugin;
        let pi = pod.index;
        self.trace.push(TraceEvent::Bind {
            cycle,
            pod: pi as u32,
            node: self.node_ids[node],
            plugin: binder,
        });
        let fw = &self.frameworks[pod.scheduler_name()];
        fw.run_post_bind(&mut self.cluster, state, &assumed, &node_name);
        self.trace.push(TraceEvent::PostBind { cycle });
        {
            let st = &mut self.pods[pi];
            st.info = assumed.clone();
            st.phase = Phase::Running;
            st.node = Some(node_name.clone());
            st.ran_on = Some(node_name.clone());
        }
        let bound_at = self.timeline.instant;
        self.start_running(pi, bound_at);
        let message = format!("Successfully assigned {} to {}", pod.key, node_name);
        self.kube_event(cycle, EventReason::Scheduled, pi, message, None);
        self.trace.push(TraceEvent::QueueMove {
            pod: pi as u32,
            from: QueueName::InFlight,
            to: QueueName::None,
            event: None,
            backoff_until_ms: None,
        });
        self.drain_cluster_events();
        // The binding as the informers see it: the scheduled-pod handler adds the pod...
        self.cluster_event(
            ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD),
            EventObject::Pod {
                old: None,
                new: Some(assumed),
            },
        );
        // ...and, in versions whose pending-pod handler sees it leave as a deletion, a pod that
        // had a nominated node is treated as deleted from that node by the pods of lower or
        // equal priority (`version::Behaviour::binding_of_nominated_pod_moves_pods`).
        if pod.nominated_node_name().is_some() && self.config.features.behaviour().binding_of_nominated_pod_moves_pods {
            let prio = pod.priority;
            self.cluster_event_filtered(
                ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE),
                EventObject::Pod {
                    old: Some(pod.clone()),
                    new: None,
                },
                &|p: &PodInfo| p.priority <= prio,
            );
        }
        Ok(())
    }
}
