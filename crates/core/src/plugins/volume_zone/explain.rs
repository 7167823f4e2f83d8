//! VolumeZone's filter cells explained: the zones or regions of the pod's bound volumes against
//! the node's.

use super::explain_filter;
use crate::framework::explain::{ExplainCtx, Explainers};
use crate::plugins::explain_util::{domain_word, NOT_REPRODUCED};

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = x.node_name();
    let Ok((checks, has_topology)) = explain_filter(&x.cx, x.pod, x.node) else {
        return out;
    };
    if (!has_topology || checks.iter().all(|c| c.matches)) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    if checks.is_empty() {
        out.push("None of the pod's bound volumes carries zone or region labels.".into());
    }
    for c in &checks {
        let word = domain_word(c.key);
        let allowed = if c.values.len() == 1 {
            format!("{word} {}", c.values[0])
        } else {
            format!("{word}s {}", c.values.join(", "))
        };
        let here = match &c.node_value {
            Some(v) => format!("{name} is in {word} {v}"),
            None => format!("{name} has no {word} label"),
        };
        out.push(format!(
            "Claim {} is bound to volume {}, which is in {allowed}; {here}{}.",
            c.claim,
            c.volume,
            if !has_topology {
                ""
            } else if c.matches {
                " — match"
            } else {
                " — no match"
            }
        ));
    }
    if !has_topology {
        out.push(format!("{name} has no zone or region labels at all, so it accepts any volume."));
    }
    out
}
