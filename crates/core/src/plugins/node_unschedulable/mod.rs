//! NodeUnschedulable: a cordoned node (`spec.unschedulable`) only takes pods that tolerate the
//! `node.kubernetes.io/unschedulable:NoSchedule` taint.

use crate::api::{Node, Taint, Toleration};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, Status};
use crate::plugins::helper::tolerations_tolerate_taint;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use std::sync::LazyLock;

pub const ERR_REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";

pub const TAINT_NODE_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";

/// The taint a cordoned node is treated as carrying.
static UNSCHEDULABLE_TAINT: LazyLock<Taint> = LazyLock::new(|| Taint {
    key: TAINT_NODE_UNSCHEDULABLE.into(),
    value: None,
    effect: "NoSchedule".into(),
    time_added: None,
});

fn tolerates_unschedulable(tols: &[Toleration]) -> bool {
    tolerations_tolerate_taint(tols, &UNSCHEDULABLE_TAINT)
}

fn is_unschedulable(node: &Node) -> bool {
    node.spec.unschedulable.unwrap_or(false)
}

pub struct NodeUnschedulable;

impl Plugin for NodeUnschedulable {
    fn name(&self) -> PluginName {
        PluginName::NodeUnschedulable
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::hinted(EventResource::Node, ActionType::ADD.union(ActionType::UPDATE_NODE_TAINT)),
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::UPDATE_POD_TOLERATION),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match (event.resource, obj) {
            (EventResource::Node, EventObject::Node { old, new: Some(new) }) => {
                // Queue when a schedulable node appears or a cordoned node is uncordoned.
                let became_schedulable = match old {
                    Some(old) => is_unschedulable(old) && !is_unschedulable(new),
                    None => !is_unschedulable(new),
                };
                Ok(if became_schedulable {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                })
            }
            (_, EventObject::Pod { new: Some(modified), .. }) => {
                // Only a toleration added to this very pod can change the verdict.
                Ok(
                    if modified.uid == pod.uid && tolerates_unschedulable(&modified.pod.spec.tolerations) {
                        QueueingHint::Queue
                    } else {
                        QueueingHint::Skip
                    },
                )
            }
            _ => Err(format!("unexpected object for event {}", event.label())),
        }
    }

    fn filter(&self, _cx: &Ctx, _state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if !node.unschedulable || tolerates_unschedulable(&pod.pod.spec.tolerations) {
            return Status::success();
        }
        Status::unresolvable(ERR_REASON_UNSCHEDULABLE)
    }

    fn filter_nodes(&self, _cx: &Ctx, _state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut [Option<Status>]) -> bool {
        // The pod's tolerations are read once, and only if some node is unschedulable.
        let mut tolerates: Option<bool> = None;
        let mut wrote = false;
        for (node, o) in nodes.iter().zip(out.iter_mut()) {
            if o.is_none() && node.unschedulable && !*tolerates.get_or_insert_with(|| tolerates_unschedulable(&pod.pod.spec.tolerations)) {
                *o = Some(Status::unresolvable(ERR_REASON_UNSCHEDULABLE));
                wrote = true;
            }
        }
        wrote
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::NodeUnschedulable,
    points: ExtensionPoints::of(&[Ep::Filter, Ep::EnqueueExtensions]),
    short: "Unsched",
    args: None,
    new: |_, _| Box::new(NodeUnschedulable),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Code;
    use crate::plugins::testing::{Env, MakeNode, MakePod};
    use std::sync::Arc;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter() {
        let cases = [
            ("schedulable node", MakePod::new("p"), MakeNode::new("n"), Code::Success),
            (
                "cordoned node",
                MakePod::new("p"),
                MakeNode::new("n").unschedulable(),
                Code::UnschedulableAndUnresolvable,
            ),
            (
                "tolerates the unschedulable taint",
                MakePod::new("p").toleration(TAINT_NODE_UNSCHEDULABLE, "Exists", "", "NoSchedule"),
                MakeNode::new("n").unschedulable(),
                Code::Success,
            ),
            (
                "tolerates everything",
                MakePod::new("p").toleration("", "Exists", "", ""),
                MakeNode::new("n").unschedulable(),
                Code::Success,
            ),
            (
                "toleration with the wrong effect",
                MakePod::new("p").toleration(TAINT_NODE_UNSCHEDULABLE, "Exists", "", "NoExecute"),
                MakeNode::new("n").unschedulable(),
                Code::UnschedulableAndUnresolvable,
            ),
            (
                "Equal toleration with a value does not match the value-less taint",
                MakePod::new("p").toleration(TAINT_NODE_UNSCHEDULABLE, "Equal", "x", "NoSchedule"),
                MakeNode::new("n").unschedulable(),
                Code::UnschedulableAndUnresolvable,
            ),
        ];
        for (name, pod, node, want) in cases {
            let env = Env::new(vec![node.obj()], vec![]);
            let s = NodeUnschedulable.filter(&env.cx(), &CycleState::new(), &pod.info(), env.node("n"));
            assert_eq!(s.code, want, "{name}");
            if want != Code::Success {
                assert_eq!(s.message(), ERR_REASON_UNSCHEDULABLE, "{name}");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_hints() {
        let env = Env::new(vec![], vec![]);
        let pod = MakePod::new("p").info();
        let ev = ClusterEvent::new(EventResource::Node, ActionType::UPDATE_NODE_TAINT);
        let node = |cordoned: bool| {
            let n = MakeNode::new("n");
            Arc::new(if cordoned { n.unschedulable() } else { n }.obj())
        };
        let cases = [
            ("new schedulable node", None, node(false), QueueingHint::Queue),
            ("new cordoned node", None, node(true), QueueingHint::Skip),
            ("uncordoned", Some(node(true)), node(false), QueueingHint::Queue),
            ("still cordoned", Some(node(true)), node(true), QueueingHint::Skip),
            ("was already schedulable", Some(node(false)), node(false), QueueingHint::Skip),
        ];
        for (name, old, new, want) in cases {
            let obj = EventObject::Node { old, new: Some(new) };
            assert_eq!(NodeUnschedulable.queueing_hint(&env.cx(), &pod, ev, &obj), Ok(want), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_toleration_hints() {
        let env = Env::new(vec![], vec![]);
        let pod = MakePod::new("p").info();
        let ev = ClusterEvent::new(EventResource::Pod, ActionType::UPDATE_POD_TOLERATION);
        let cases = [
            (
                "same pod gains the toleration",
                MakePod::new("p").toleration(TAINT_NODE_UNSCHEDULABLE, "Exists", "", "NoSchedule"),
                QueueingHint::Queue,
            ),
            (
                "same pod gains an unrelated toleration",
                MakePod::new("p").toleration("other", "Exists", "", "NoSchedule"),
                QueueingHint::Skip,
            ),
            (
                "another pod gains the toleration",
                MakePod::new("q").toleration(TAINT_NODE_UNSCHEDULABLE, "Exists", "", "NoSchedule"),
                QueueingHint::Skip,
            ),
        ];
        for (name, modified, want) in cases {
            let obj = EventObject::Pod {
                old: Some(Arc::new(MakePod::new("p").info())),
                new: Some(modified.arc()),
            };
            assert_eq!(NodeUnschedulable.queueing_hint(&env.cx(), &pod, ev, &obj), Ok(want), "{name}");
        }
    }
}
