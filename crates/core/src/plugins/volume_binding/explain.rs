//! VolumeBinding's filter cells explained: each claim of the pod, bound (and whether its
//! volume's node affinity admits the node) or waiting for its first consumer (and what it would
//! bind to or whether a volume would be provisioned on the node).

use super::{explain_filter, BindingView, ClaimView};
use crate::framework::explain::{ExplainCtx, Explainers};
use crate::plugins::explain_util::{node_term_str, NOT_REPRODUCED};
use crate::plugins::volume_util::pvc_class;
use crate::vocabulary::PluginName;
use schedlab_view::view::format_bytes;

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = x.node_name();
    let (state, node, _) = x.replay_filter(PluginName::VolumeBinding);
    let Some(Ok(BindingView { claims, reasons })) = explain_filter(&x.cx, &state, &node) else {
        return out;
    };
    if reasons.is_empty() != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    for c in claims {
        match c {
            ClaimView::Bound { claim, volume, node_ok } => match volume {
                None => out.push(format!("Claim {claim} is bound to a volume that does not exist.")),
                Some(pv) => {
                    let terms: Vec<String> = pv
                        .spec
                        .node_affinity
                        .as_ref()
                        .and_then(|a| a.required.as_ref())
                        .map(|r| r.node_selector_terms.iter().map(node_term_str).collect())
                        .unwrap_or_default();
                    if terms.is_empty() {
                        out.push(format!(
                            "Claim {claim} is bound to volume {}, which has no node affinity: any node can use it.",
                            pv.metadata.name
                        ));
                    } else {
                        out.push(format!(
                            "Claim {claim} is bound to volume {}, usable only on nodes with {}; {name} {}.",
                            pv.metadata.name,
                            terms.join(" or "),
                            if node_ok { "qualifies" } else { "does not" }
                        ));
                    }
                }
            },
            ClaimView::Delayed {
                claim,
                binds_to,
                provisioned,
            } => {
                let size = claim
                    .spec
                    .resources
                    .requests
                    .get("storage")
                    .map(|q| format!("{}, ", format_bytes(q.value())))
                    .unwrap_or_default();
                let class = pvc_class(&claim);
                let what = match (binds_to, provisioned) {
                    (Some(pv), _) => format!("on {name} it would bind the free volume {pv}"),
                    (None, true) => {
                        let by =
                            x.cx.cluster
                                .storage_classes
                                .get(class)
                                .map(|c| format!(" by {}", c.provisioner))
                                .unwrap_or_default();
                        format!("on {name} a new volume would be provisioned{by}")
                    }
                    (None, false) => format!("on {name} no free volume fits it and none can be provisioned"),
                };
                out.push(format!(
                    "Claim {} ({size}class {class}) waits for its first pod: {what}.",
                    claim.metadata.name
                ));
            }
        }
    }
    out
}
