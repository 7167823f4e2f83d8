//! NodeVolumeLimits' filter cells explained: per CSI driver, the volumes already attached to
//! the node, the new ones the pod brings and the node's limit.

use super::{volume_counts, VolumeCounts};
use crate::framework::explain::{ExplainCtx, Explainers};
use crate::plugins::explain_util::{nominated_note, NOT_REPRODUCED};
use crate::vocabulary::PluginName;

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = x.node_name();
    let (_, node, nominated) = x.replay_filter(PluginName::NodeVolumeLimits);
    let Ok(counts) = volume_counts(&x.cx, x.pod, &node) else {
        return out;
    };
    let vols = |n: i64| if n == 1 { "volume" } else { "volumes" };
    match counts {
        VolumeCounts::NoNewVolumes => {
            if !passed {
                out.push(NOT_REPRODUCED.into());
            } else {
                out.push("The pod has no volume that counts against a node's attach limits.".into());
            }
        }
        VolumeCounts::NoLimits { new } => {
            if !passed {
                out.push(NOT_REPRODUCED.into());
                return out;
            }
            let items: Vec<String> = new.iter().map(|(d, n)| format!("{n} {} of {d}", vols(*n))).collect();
            out.push(format!(
                "The pod attaches {}; {name} has no attach limits (none in its CSINode), so nothing is counted.",
                items.join(", ")
            ));
        }
        VolumeCounts::Counted { limits, attached, new } => {
            let fits = new
                .iter()
                .all(|(d, n)| limits.get(d).is_none_or(|&max| attached.get(d).copied().unwrap_or(0) + n <= max));
            if fits != passed {
                out.push(NOT_REPRODUCED.into());
                return out;
            }
            out.extend(nominated_note(name, nominated));
            for (d, n) in &new {
                let have = attached.get(d).copied().unwrap_or(0);
                match limits.get(d) {
                    None => out.push(format!(
                        "{d}: the pod attaches {n} {}; {name} sets no limit for this driver.",
                        vols(*n)
                    )),
                    Some(&max) => out.push(format!(
                        "{d}: {name} can attach {max} {}; {have} already attached + {n} for this pod = {} {} {max}{}.",
                        vols(max),
                        have + n,
                        if have + n > max { ">" } else { "≤" },
                        if have + n > max { " — rejected" } else { "" }
                    )),
                }
            }
            if new.is_empty() {
                out.push(format!(
                    "All of the pod's volumes are already attached to {name}, so nothing new counts."
                ));
            }
        }
    }
    out
}
