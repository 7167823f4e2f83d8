//! NodePorts: the host ports a pod asks for (app containers and sidecars) must be free on the
//! node.

use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, HostPort, HostPortInfo, NodeInfo, Plugin, PodInfo, PreFilterResult, Status};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};

pub const ERR_REASON: &str = "node(s) didn't have free ports for the requested pod ports";

/// The pod's wanted host ports, computed once per cycle.
#[derive(Clone, Debug)]
struct PreFilterState {
    ports: Vec<HostPort>,
}

fn fits_ports(want: &[HostPort], used: &HostPortInfo) -> bool {
    !want.iter().any(|p| used.check_conflict(p))
}

/// Whether the pod's host ports are free on the node.
pub fn fits(pod: &PodInfo, node: &NodeInfo) -> bool {
    fits_ports(&pod.host_ports, &node.used_ports)
}

pub struct NodePorts;

impl Plugin for NodePorts {
    fn name(&self) -> PluginName {
        PluginName::NodePorts
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::DELETE),
            ClusterEventWithHint::unhinted(EventResource::Node, ActionType::ADD),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        let EventObject::Pod { old: Some(deleted), .. } = obj else {
            return Err(format!("unexpected object for event {}", event.label()));
        };
        // A pod that was neither bound nor nominated held no ports anywhere.
        if deleted.node_name().is_none() && deleted.nominated_node_name().is_none() {
            return Ok(QueueingHint::Skip);
        }
        if deleted.host_ports.is_empty() {
            return Ok(QueueingHint::Skip);
        }
        let mut freed = HostPortInfo::default();
        for p in &deleted.host_ports {
            freed.add(p);
        }
        // Only a deletion that frees a port this pod conflicts with can help.
        Ok(if fits_ports(&pod.host_ports, &freed) {
            QueueingHint::Skip
        } else {
            QueueingHint::Queue
        })
    }

    fn pre_filter(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        if pod.host_ports.is_empty() {
            return (None, Status::skip());
        }
        state.write(
            PluginName::NodePorts,
            PreFilterState {
                ports: pod.host_ports.clone(),
            },
        );
        (None, Status::success())
    }

    fn filter(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = state.read::<PreFilterState>(PluginName::NodePorts) else {
            return Status::error("reading \"PreFilterNodePorts\" from cycleState: not found");
        };
        if fits_ports(&s.ports, &node.used_ports) {
            Status::success()
        } else {
            Status::unschedulable(ERR_REASON)
        }
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::NodePorts,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::EnqueueExtensions]),
    short: "Ports",
    args: None,
    new: |_, _| Box::new(NodePorts),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Container, ContainerPort};
    use crate::framework::Code;
    use crate::plugins::testing::{pre_filter_then_filter, Env, MakeNode, MakePod};
    use std::sync::Arc;

    fn run(pod: MakePod, existing: Vec<MakePod>) -> Status {
        let env = Env::new(
            vec![MakeNode::new("n").obj()],
            existing.into_iter().map(|p| p.node("n").obj()).collect(),
        );
        pre_filter_then_filter(&NodePorts, &env, &pod.info(), "n")
    }

    fn sidecar_port(pod: MakePod, port: i32) -> MakePod {
        let mut pod = pod;
        pod.pod.spec.init_containers.push(Container {
            name: "sidecar".into(),
            restart_policy: Some("Always".into()),
            ports: vec![ContainerPort {
                container_port: port,
                host_port: Some(port),
                protocol: Some("TCP".into()),
                ..Default::default()
            }],
            ..Default::default()
        });
        pod
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter() {
        let cases: Vec<(&str, MakePod, Vec<MakePod>, Code)> = vec![
            (
                "no ports",
                MakePod::new("p"),
                vec![MakePod::new("e").host_port(80, "TCP", "")],
                Code::Success,
            ),
            ("free port", MakePod::new("p").host_port(80, "TCP", ""), vec![], Code::Success),
            (
                "same port and protocol",
                MakePod::new("p").host_port(80, "TCP", ""),
                vec![MakePod::new("e").host_port(80, "TCP", "")],
                Code::Unschedulable,
            ),
            (
                "other protocol",
                MakePod::new("p").host_port(80, "UDP", ""),
                vec![MakePod::new("e").host_port(80, "TCP", "")],
                Code::Success,
            ),
            (
                "different specific IPs",
                MakePod::new("p").host_port(80, "TCP", "10.0.0.1"),
                vec![MakePod::new("e").host_port(80, "TCP", "10.0.0.2")],
                Code::Success,
            ),
            (
                "wildcard IP wanted conflicts with a specific one",
                MakePod::new("p").host_port(80, "TCP", "0.0.0.0"),
                vec![MakePod::new("e").host_port(80, "TCP", "10.0.0.2")],
                Code::Unschedulable,
            ),
            (
                "specific IP wanted conflicts with the wildcard",
                MakePod::new("p").host_port(80, "TCP", "10.0.0.1"),
                vec![MakePod::new("e").host_port(80, "TCP", "")],
                Code::Unschedulable,
            ),
            (
                "sidecar port wanted",
                sidecar_port(MakePod::new("p"), 8080),
                vec![MakePod::new("e").host_port(8080, "TCP", "")],
                Code::Unschedulable,
            ),
            (
                "sidecar port in use",
                MakePod::new("p").host_port(8080, "TCP", ""),
                vec![sidecar_port(MakePod::new("e"), 8080)],
                Code::Unschedulable,
            ),
        ];
        for (name, pod, existing, want) in cases {
            let s = run(pod, existing);
            assert_eq!(s.code, want, "{name}");
            if want != Code::Success {
                assert_eq!(s.message(), ERR_REASON, "{name}");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn removing_one_user_frees_a_shared_port() {
        // Upstream tracks used ports as a set: two pods holding the same port, one removed,
        // leave the port free.
        let mut env = Env::new(
            vec![MakeNode::new("n").obj()],
            vec![
                MakePod::new("e1").node("n").host_port(80, "TCP", "").obj(),
                MakePod::new("e2").node("n").host_port(80, "TCP", "").obj(),
            ],
        );
        let pod = MakePod::new("p").host_port(80, "TCP", "").info();
        assert!(!fits(&pod, env.node("n")));
        env.snapshot.get_mut("n").unwrap().remove_pod("default/e1");
        assert!(fits(&pod, env.node("n")));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn plain_init_container_ports_ignored() {
        let mut pod = (*MakePod::new("p").info().pod).clone();
        pod.spec.init_containers.push(Container {
            name: "init".into(),
            ports: vec![ContainerPort {
                container_port: 80,
                host_port: Some(80),
                ..Default::default()
            }],
            ..Default::default()
        });
        assert!(PodInfo::new(pod, 0).host_ports.is_empty());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_delete_hints() {
        let env = Env::new(vec![], vec![]);
        let pod = MakePod::new("p").host_port(80, "TCP", "").info();
        let ev = ClusterEvent::new(EventResource::AssignedPod, ActionType::DELETE);
        let cases = [
            (
                "bound pod with the same port",
                MakePod::new("d").node("n").host_port(80, "TCP", ""),
                QueueingHint::Queue,
            ),
            (
                "bound pod with another port",
                MakePod::new("d").node("n").host_port(81, "TCP", ""),
                QueueingHint::Skip,
            ),
            ("bound pod without ports", MakePod::new("d").node("n"), QueueingHint::Skip),
            (
                "unbound pod with the same port",
                MakePod::new("d").host_port(80, "TCP", ""),
                QueueingHint::Skip,
            ),
        ];
        for (name, deleted, want) in cases {
            let obj = EventObject::Pod {
                old: Some(Arc::new(deleted.info())),
                new: None,
            };
            assert_eq!(NodePorts.queueing_hint(&env.cx(), &pod, ev, &obj), Ok(want), "{name}");
        }
    }
}
