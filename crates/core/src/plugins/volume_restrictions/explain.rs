//! VolumeRestrictions' filter cells explained: disks only one pod may use that are already in
//! use on the node, and ReadWriteOncePod claims already in use anywhere.

use super::explain_filter;
use crate::framework::explain::{ExplainCtx, Explainers};
use crate::plugins::explain_util::{list_limited, nominated_note, NOT_REPRODUCED};
use crate::vocabulary::PluginName;

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = x.node_name();
    let (state, node, nominated) = x.replay_filter(PluginName::VolumeRestrictions);
    let Some(v) = explain_filter(&x.cx, &state, x.pod, &node) else {
        return out;
    };
    if (v.disk_conflicts.is_empty() && v.rwop_in_use == 0) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    out.extend(nominated_note(name, nominated));
    if !v.inline_disks.is_empty() {
        if v.disk_conflicts.is_empty() {
            out.push(format!(
                "The pod's disks that only one pod may write ({}) are not used by any pod on {name}.",
                v.inline_disks.join(", ")
            ));
        } else {
            let items: Vec<String> = v.disk_conflicts.iter().map(|(vol, p)| format!("{vol} by {p}")).collect();
            out.push(format!(
                "On {name}, the same disk is already in use: {} — rejected.",
                list_limited(&items)
            ));
        }
    }
    if !v.rwop_claims.is_empty() {
        let one = v.rwop_claims.len() == 1;
        let head = if one {
            format!("Claim {} allows only one pod (ReadWriteOncePod)", v.rwop_claims[0])
        } else {
            format!("Claims {} allow only one pod each (ReadWriteOncePod)", v.rwop_claims.join(", "))
        };
        if v.rwop_in_use == 0 {
            out.push(format!("{head}, and no other pod uses {}.", if one { "it" } else { "them" }));
        } else {
            let users: Vec<String> = v.rwop_users.iter().map(|(c, p, n)| format!("{c} by {p} on {n}")).collect();
            let users = if users.is_empty() {
                String::new()
            } else {
                format!(": {}", list_limited(&users))
            };
            out.push(if one {
                format!("{head}, and it is already in use{users} — so no node can take this pod.")
            } else {
                format!(
                    "{head}; {} of them already in use{users} — so no node can take this pod.",
                    v.rwop_in_use
                )
            });
        }
    }
    out
}
