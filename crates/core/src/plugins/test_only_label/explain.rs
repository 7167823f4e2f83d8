//! TestOnlyLabel's filter cells explained: whether the node carries the label.

use super::LABEL;
use crate::framework::explain::{ExplainCtx, Explainers};

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    let labels = &x.node.node.metadata.labels;
    vec![match labels.get(LABEL) {
        Some(v) => format!("Node {} has the label {LABEL}={v}.", x.node_name()),
        None => format!("Node {} has no label {LABEL}.", x.node_name()),
    }]
}
