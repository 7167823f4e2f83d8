//! SchedulingGates: a pod that still carries scheduling gates is kept out of the active queue
//! (PreEnqueue) until an update removes all of them.

use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::explain::Explainers;
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, Plugin, PodInfo, Status};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};

pub struct SchedulingGates;

impl Plugin for SchedulingGates {
    fn name(&self) -> PluginName {
        PluginName::SchedulingGates
    }

    fn pre_enqueue(&self, _cx: &Ctx, pod: &PodInfo) -> Status {
        let gates = &pod.pod.spec.scheduling_gates;
        if gates.is_empty() {
            return Status::success();
        }
        // Rendered the way Go prints a []string: space separated inside brackets.
        let names: Vec<&str> = gates.iter().map(|g| g.name.as_str()).collect();
        Status::unresolvable(format!("waiting for scheduling gates: [{}]", names.join(" ")))
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![ClusterEventWithHint::hinted(
            EventResource::Pod,
            ActionType::UPDATE_POD_SCHEDULING_GATES_ELIMINATED,
        )]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, _event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        let EventObject::Pod { new: Some(modified), .. } = obj else {
            return Err("expected a pod update event".into());
        };
        // Only the gated pod's own update can ungate it.
        Ok(if modified.uid == pod.uid {
            QueueingHint::Queue
        } else {
            QueueingHint::Skip
        })
    }
}

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::SchedulingGates,
    points: ExtensionPoints::of(&[Ep::PreEnqueue, Ep::EnqueueExtensions]),
    short: "SchedulingGates",
    args: None,
    new: |_, _| Box::new(SchedulingGates),
    explain: Explainers::NONE,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Code;
    use crate::plugins::testing::{Env, MakePod};
    use std::sync::Arc;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_enqueue() {
        let env = Env::new(vec![], vec![]);
        let cases = [
            ("no gates", MakePod::new("p"), None),
            (
                "one gate",
                MakePod::new("p").gate("foo"),
                Some("waiting for scheduling gates: [foo]"),
            ),
            (
                "two gates in order",
                MakePod::new("p").gate("foo").gate("bar"),
                Some("waiting for scheduling gates: [foo bar]"),
            ),
        ];
        for (name, pod, want) in cases {
            let s = SchedulingGates.pre_enqueue(&env.cx(), &pod.info());
            match want {
                None => assert!(s.is_success(), "{name}"),
                Some(msg) => {
                    assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
                    assert_eq!(s.message(), msg, "{name}");
                }
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn hint_only_for_the_same_pod() {
        let env = Env::new(vec![], vec![]);
        let gated = MakePod::new("p").gate("foo").info();
        let ev = ClusterEvent::new(EventResource::Pod, ActionType::UPDATE_POD_SCHEDULING_GATES_ELIMINATED);
        let cases = [
            ("same pod", MakePod::new("p").arc(), QueueingHint::Queue),
            ("other pod", MakePod::new("q").arc(), QueueingHint::Skip),
        ];
        for (name, modified, want) in cases {
            let obj = EventObject::Pod {
                old: Some(Arc::new(MakePod::new("x").gate("foo").info())),
                new: Some(modified),
            };
            assert_eq!(SchedulingGates.queueing_hint(&env.cx(), &gated, ev, &obj), Ok(want), "{name}");
        }
    }
}
