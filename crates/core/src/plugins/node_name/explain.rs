//! NodeName's filter cells explained: the node the pod asks for, if any.

use crate::framework::explain::{ExplainCtx, Explainers};

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    vec![match x.pod.pod.spec.node_name.as_deref() {
        Some(n) if !n.is_empty() => format!("The pod asks for node {n} (spec.nodeName)."),
        _ => "The pod does not ask for a particular node (no spec.nodeName).".into(),
    }]
}
