//! PodTopologySpread's cells explained with the plugin's own counts: per constraint, the
//! matching pods per domain, the global minimum and the skew placing the pod would make
//! (Filter); the weighted counts behind the score and its reversed normalization (Score).

use super::{explain_filter, explain_score};
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};
use crate::plugins::explain_util::{dec, domain_word, list_limited, nominated_note, pods_word, selector_str, LIST_LIMIT, NOT_REPRODUCED};
use crate::vocabulary::PluginName;

pub(super) const EXPLAINERS: Explainers = Explainers::both(filter, score);

/// Per-domain counts, the node's own domain marked; long lists keep the node's domain and the
/// lowest ones.
fn domains_str(domains: &[(String, i64)], own: Option<&str>) -> String {
    let show = |d: &(String, i64)| {
        if Some(d.0.as_str()) == own {
            format!("{} {} (this node)", d.0, d.1)
        } else {
            format!("{} {}", d.0, d.1)
        }
    };
    if domains.len() <= LIST_LIMIT * 2 {
        return domains.iter().map(show).collect::<Vec<_>>().join(", ");
    }
    let mut by_count: Vec<&(String, i64)> = domains.iter().collect();
    crate::sort::sort_by_key(&mut by_count, |d| d.1);
    let mut picked: Vec<&(String, i64)> = by_count.into_iter().take(3).collect();
    if let Some(o) = domains.iter().find(|d| Some(d.0.as_str()) == own) {
        if !picked.contains(&o) {
            picked.push(o);
        }
    }
    format!(
        "{} … ({} in all)",
        picked.into_iter().map(show).collect::<Vec<_>>().join(", "),
        domains.len()
    )
}

fn filter(x: &ExplainCtx, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = x.node_name();
    let (state, node, nominated) = x.replay_filter(PluginName::PodTopologySpread);
    let Some(cs) = explain_filter(&x.cx, &state, x.pod, &node) else {
        return out;
    };
    if cs.iter().all(|c| c.fits) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    out.extend(nominated_note(name, nominated));
    let many = cs.len() > 1;
    for (i, c) in cs.iter().enumerate() {
        let word = domain_word(&c.topology_key);
        let min_domains = if c.min_domains > 1 {
            format!(", minDomains {}", c.min_domains)
        } else {
            String::new()
        };
        out.push(format!(
            "{}Spread pods matching {} across {} (maxSkew {}{min_domains}, DoNotSchedule).",
            if many { format!("Constraint {}: ", i + 1) } else { String::new() },
            selector_str(&c.selector),
            c.topology_key,
            c.max_skew,
        ));
        let Some(value) = &c.node_value else {
            out.push(format!(
                "{name} has no {} label, so it belongs to no {word}: rejected.",
                c.topology_key
            ));
            break;
        };
        out.push(format!(
            "Matching pods per {word}: {}.",
            domains_str(&c.domains, Some(value.as_str()))
        ));
        for (by_affinity, why) in [
            (true, "outside the pod's node selector/affinity"),
            (false, "a taint the pod does not tolerate"),
        ] {
            let nodes: Vec<String> = c
                .excluded_nodes
                .iter()
                .filter(|(_, a)| *a == by_affinity)
                .map(|(n, _)| n.clone())
                .collect();
            if !nodes.is_empty() {
                out.push(format!("Not counted ({why}): {}.", list_limited(&nodes)));
            }
        }
        if c.nodes_missing_keys > 0 {
            out.push(format!(
                "{} node(s) lack a topology label of the constraints and never count.",
                c.nodes_missing_keys
            ));
        }
        let lowest = c.domains.iter().map(|d| d.1).min();
        if (c.domains.len() as i64) < c.min_domains as i64 {
            out.push(format!(
                "Only {} {word}(s) count, fewer than minDomains {}, so the minimum is taken as 0.",
                c.domains.len(),
                c.min_domains
            ));
        } else if lowest == Some(c.min_match) {
            out.push(format!("The lowest count (the global minimum) is {}.", c.min_match));
        } else {
            out.push(format!("The global minimum is {}.", c.min_match));
        }
        let after = c.match_num + c.self_match;
        let how = if c.self_match == 1 {
            format!("Placing the pod here makes {value} {after}")
        } else {
            format!("The pod does not match the selector itself, so {value} stays at {after}")
        };
        let skew = after - c.min_match;
        if c.fits {
            out.push(format!(
                "{how}: skew {after} − {} = {skew} ≤ maxSkew {}: fits.",
                c.min_match, c.max_skew
            ));
        } else {
            out.push(format!(
                "{how}: skew {after} − {} = {skew} > maxSkew {}: rejected.",
                c.min_match, c.max_skew
            ));
            break;
        }
    }
    out
}

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let mut out = Vec::new();
    let name = x.node_name();
    let raw = cell.raw_here();
    let state = x.replay_pre_score(cell.scored);
    let Some(v) = explain_score(&state, x.pod, x.node, cell.scored.len()) else {
        return out.into();
    };
    if v.raw != raw {
        out.push(NOT_REPRODUCED.into());
        return out.into();
    }
    let ignored = v.ignored_nodes.iter().any(|n| n == name);
    if ignored {
        out.push(format!(
            "{name} lacks the topology label of a constraint, so it is left out: raw 0, and 0 after NormalizeScore."
        ));
    } else {
        let many = v.constraints.len() > 1;
        let mut parts = Vec::new();
        for (i, c) in v.constraints.iter().enumerate() {
            let word = domain_word(&c.topology_key);
            out.push(format!(
                "{}Spread pods matching {} across {} (maxSkew {}, ScheduleAnyway).",
                if many { format!("Constraint {}: ", i + 1) } else { String::new() },
                selector_str(&c.selector),
                c.topology_key,
                c.max_skew
            ));
            let Some(value) = &c.node_value else {
                out.push(format!("{name} has no {} label: this constraint adds nothing.", c.topology_key));
                continue;
            };
            if !c.domain_counts.is_empty() {
                out.push(format!(
                    "Matching pods per {word} (of the feasible nodes): {}.",
                    domains_str(&c.domain_counts, Some(value.as_str()))
                ));
            }
            let weight = match c.domains {
                Some(n) => format!("weight ln({n} {word}s + 2) = {}", dec(c.weight)),
                None => format!("weight {}", dec(c.weight)),
            };
            out.push(format!(
                "{} {} counted for {name}; {weight}; {} × {} + ({} − 1) = {}.",
                c.count,
                pods_word(c.count),
                c.count,
                dec(c.weight),
                c.max_skew,
                dec(c.part)
            ));
            parts.push(dec(c.part));
        }
        if !parts.is_empty() {
            out.push(format!(
                "Raw = round({}) = {raw}: the fewer matching pods, the lower (better).",
                parts.join(" + ")
            ));
        }
    }
    // NormalizeScore: fewer is better, ignored nodes get 0.
    let is_ignored = |i: usize| v.ignored_nodes.iter().any(|n| *n == cell.names[i]);
    let counted: Vec<i64> = (0..cell.raw.len()).filter(|&i| !is_ignored(i)).map(|i| cell.raw[i]).collect();
    let min = counted.iter().copied().min().unwrap_or(0);
    let max = counted.iter().copied().max().unwrap_or(0).max(0);
    let reproduces = (0..cell.raw.len()).all(|i| {
        let want = if is_ignored(i) {
            0
        } else if max == 0 {
            100
        } else {
            100 * (max + min - cell.raw[i]) / max
        };
        want == cell.normalized[i]
    });
    let norm = cell.normalized[cell.k];
    let normalization = reproduces.then(|| {
        if ignored {
            String::new()
        } else if max == 0 {
            "Every counted node scored 0 raw, so NormalizeScore gives each of them 100.".into()
        } else {
            format!(
                "NormalizeScore turns it around between the highest ({max}) and lowest ({min}) raw scores: 100 × ({max} + {min} − {raw}) / {max} = {norm}."
            )
        }
    });
    ScoreLines { lines: out, normalization }
}
