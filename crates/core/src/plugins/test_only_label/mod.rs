//! TestOnlyLabel, a plugin of the unit tests only: a node fits when it carries the label
//! `schedlab.dev/test-only`. It follows "How to add a plugin" (ARCHITECTURE.md) — this folder
//! plus one line in `vocabulary.rs` and one in `plugins/mod.rs`, both `#[cfg(test)]` — and its
//! tests show such a plugin registered, enabled by name in a profile, run and explained.

use crate::framework::events::{ActionType, ClusterEventWithHint, EventResource};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, Status};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};

pub const LABEL: &str = "schedlab.dev/test-only";
pub const ERR_REASON: &str = "node(s) didn't have the schedlab.dev/test-only label";

pub struct TestOnlyLabel;

impl Plugin for TestOnlyLabel {
    fn name(&self) -> PluginName {
        PluginName::TestOnlyLabel
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![ClusterEventWithHint::unhinted(EventResource::Node, ActionType::ADD.union(ActionType::UPDATE_NODE_LABEL))]
    }

    fn filter(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Status {
        if node.node.metadata.labels.contains_key(LABEL) {
            Status::success()
        } else {
            Status::unresolvable(ERR_REASON)
        }
    }
}

mod explain;

/// This plugin, for the registry (`plugins/mod.rs`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::TestOnlyLabel,
    points: ExtensionPoints::of(&[Ep::Filter, Ep::EnqueueExtensions]),
    short: "TestOnly",
    args: None,
    new: |_| Box::new(TestOnlyLabel),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests;
