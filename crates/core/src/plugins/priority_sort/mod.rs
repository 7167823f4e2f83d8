//! PrioritySort: higher priority first, then the earlier queue timestamp.

use crate::framework::explain::Explainers;
use crate::framework::registry::Descriptor;
use crate::framework::{Plugin, QueuedPodInfo};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};

pub struct PrioritySort;

impl Plugin for PrioritySort {
    fn name(&self) -> PluginName {
        PluginName::PrioritySort
    }
    fn less(&self, a: &QueuedPodInfo, b: &QueuedPodInfo) -> bool {
        debug_assert!(a.priority == a.pod.priority && b.priority == b.pod.priority, "sort key out of date");
        let (pa, pb) = (a.priority, b.priority);
        pa > pb || (pa == pb && a.timestamp < b.timestamp)
    }
}

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::PrioritySort,
    points: ExtensionPoints::of(&[Ep::QueueSort]),
    short: "PrioritySort",
    args: None,
    new: |_, _| Box::new(PrioritySort),
    explain: Explainers::NONE,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::testing::MakePod;
    use std::sync::Arc;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn table() {
        let q = |prio: i32, ts: i64| QueuedPodInfo::new(Arc::new(MakePod::new("p").priority(prio).info()), ts);
        let cases = [
            ("higher priority first", q(10, 5), q(1, 1), true),
            ("lower priority later", q(1, 1), q(10, 5), false),
            ("same priority, earlier first", q(5, 1), q(5, 2), true),
            ("same priority, later second", q(5, 2), q(5, 1), false),
            ("identical is not less", q(5, 1), q(5, 1), false),
        ];
        for (name, a, b, want) in cases {
            assert_eq!(PrioritySort.less(&a, &b), want, "{name}");
        }
    }
}
