//! NodeUnschedulable's filter cells explained: whether the node is cordoned.

use crate::framework::explain::{ExplainCtx, Explainers};

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    let (ni, name) = (x.node, x.node_name());
    let cordoned = ni.node.spec.unschedulable.unwrap_or(false);
    vec![if cordoned {
        format!(
            "{name} is cordoned (spec.unschedulable: true); only pods tolerating node.kubernetes.io/unschedulable:NoSchedule may go there."
        )
    } else {
        format!("{name} is not cordoned.")
    }]
}
