//! NodeName: a pod that names a node in `spec.nodeName` fits only that node.

use crate::framework::events::{ActionType, ClusterEventWithHint, EventResource};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, Status};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};

pub const ERR_REASON: &str = "node(s) didn't match the requested node name";

/// Whether the pod may run on the node as far as `spec.nodeName` is concerned.
pub fn fits(pod: &PodInfo, node: &NodeInfo) -> bool {
    pod.node_name().is_none_or(|n| n == node.name())
}

pub struct NodeName;

impl Plugin for NodeName {
    fn name(&self) -> PluginName {
        PluginName::NodeName
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        // With queueing hints on, only a new node can help; there is no hint function.
        vec![ClusterEventWithHint::unhinted(EventResource::Node, ActionType::ADD)]
    }

    fn filter(&self, _cx: &Ctx, _state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if fits(pod, node) {
            Status::success()
        } else {
            Status::unresolvable(ERR_REASON)
        }
    }

    fn filter_nodes(&self, _cx: &Ctx, _state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut [Option<Status>]) -> bool {
        // A pod without spec.nodeName fits every node.
        let Some(name) = pod.node_name() else { return false };
        let mut wrote = false;
        for (node, o) in nodes.iter().zip(out.iter_mut()) {
            if o.is_none() && node.name() != name {
                *o = Some(Status::unresolvable(ERR_REASON));
                wrote = true;
            }
        }
        wrote
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::NodeName,
    points: ExtensionPoints::of(&[Ep::Filter, Ep::EnqueueExtensions]),
    short: "Name",
    args: None,
    new: |_, _| Box::new(NodeName),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Code;
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter() {
        let env = Env::new(vec![MakeNode::new("n1").obj()], vec![]);
        let cases = [
            ("no node name", MakePod::new("p"), Code::Success),
            ("matching node name", MakePod::new("p").node("n1"), Code::Success),
            ("other node name", MakePod::new("p").node("n2"), Code::UnschedulableAndUnresolvable),
        ];
        for (name, pod, want) in cases {
            let s = NodeName.filter(&env.cx(), &CycleState::new(), &pod.info(), env.node("n1"));
            assert_eq!(s.code, want, "{name}");
            if want != Code::Success {
                assert_eq!(s.message(), ERR_REASON, "{name}");
            }
        }
    }
}
