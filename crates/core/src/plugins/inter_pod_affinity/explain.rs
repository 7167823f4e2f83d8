//! InterPodAffinity's cells explained with the plugin's own counts: per required term, the
//! matching pods in the node's domain, and running pods whose anti-affinity keeps this pod away
//! (Filter); every weighted contribution to the score and its min–max normalization (Score).

use super::args::InterPodAffinityArgs;
use super::{explain_filter, explain_score, ScoreSource};
use crate::api::LABEL_HOSTNAME;
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};
use crate::framework::{PodInfo, WeightedAffinityTerm};
use crate::plugins::explain_util::{
    at_domain, domain_subject, list_limited, matching, nominated_note, same_domain, selector_str, NOT_REPRODUCED,
};
use crate::vocabulary::PluginName;
use std::collections::BTreeMap;

pub(super) const EXPLAINERS: Explainers = Explainers::both(filter, score);

fn namespaces_str(all: bool, namespaces: &[String]) -> String {
    if all {
        "in any namespace".into()
    } else if namespaces.len() == 1 {
        format!("in namespace {}", namespaces[0])
    } else if namespaces.is_empty() {
        "in no namespace".into()
    } else {
        format!("in namespaces {}", namespaces.join(", "))
    }
}

/// An integer as a term after "−": negative numbers in parentheses.
fn paren(v: i64) -> String {
    if v < 0 {
        format!("(−{})", -v)
    } else {
        v.to_string()
    }
}

fn signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", -v)
    } else {
        format!("+{v}")
    }
}

fn filter(x: &ExplainCtx, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = x.node_name();
    let (state, node, nominated) = x.replay_filter(PluginName::InterPodAffinity);
    let Some(v) = explain_filter(&x.cx, &state, x.pod, &node) else {
        return out;
    };
    if (v.affinity_ok && v.anti_affinity_ok && v.existing_anti_affinity_ok) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    out.extend(nominated_note(name, nominated));
    let pod_list = |pods: &[(String, String)]| {
        let items: Vec<String> = pods.iter().map(|(p, n)| format!("{p} on {n}")).collect();
        list_limited(&items)
    };
    for (i, t) in v.affinity.iter().enumerate() {
        out.push(format!(
            "Required affinity{}: the pod must run {} as a pod matching {} ({}).",
            term_suffix(v.affinity.len(), i),
            same_domain(&t.topology_key),
            selector_str(&t.selector),
            namespaces_str(t.all_namespaces, &t.namespaces)
        ));
        match &t.node_value {
            None => out.push(format!("{name} has no {} label, so the term cannot be met.", t.topology_key)),
            Some(value) if t.count > 0 => out.push(format!(
                "{} has {}: {}.",
                domain_subject(name, &t.topology_key, value),
                matching(t.count),
                pod_list(&t.pods)
            )),
            Some(value) => out.push(format!("{} has no matching pod.", domain_subject(name, &t.topology_key, value))),
        }
    }
    if !v.affinity.is_empty() {
        if v.affinity_ok && v.affinity.iter().any(|t| t.count == 0) {
            out.push("No matching pod runs anywhere yet and the pod matches its own terms, so it may start the group here.".into());
        }
        if !v.affinity_ok {
            out.push(if v.affinity_matches_nowhere && !v.matches_own_affinity {
                "No matching pod runs anywhere, and the pod does not match its own terms: rejected.".into()
            } else {
                format!("The required affinity is not met on {name}: rejected.")
            });
            return out;
        }
    }
    for (i, t) in v.anti_affinity.iter().enumerate() {
        out.push(format!(
            "Required anti-affinity{}: no pod matching {} ({}) may run {}.",
            term_suffix(v.anti_affinity.len(), i),
            selector_str(&t.selector),
            namespaces_str(t.all_namespaces, &t.namespaces),
            same_domain(&t.topology_key)
        ));
        match &t.node_value {
            None => out.push(format!("{name} has no {} label, so the term does not apply.", t.topology_key)),
            Some(value) if t.count > 0 => out.push(format!(
                "{} already has {}: {} — rejected.",
                domain_subject(name, &t.topology_key, value),
                matching(t.count),
                pod_list(&t.pods)
            )),
            Some(value) => out.push(format!("{} has none.", domain_subject(name, &t.topology_key, value))),
        }
    }
    if !v.anti_affinity_ok {
        return out;
    }
    if v.existing_anti.is_empty() {
        out.push(format!("No running pod's required anti-affinity keeps this pod away from {name}."));
    } else {
        let items: Vec<String> = v
            .existing_anti
            .iter()
            .map(|x| {
                if x.topology_key == LABEL_HOSTNAME {
                    format!("{} on {}", x.pod, x.node)
                } else {
                    format!("{} on {} ({})", x.pod, x.node, at_domain(&x.topology_key, &x.value))
                }
            })
            .collect();
        out.push(format!(
            "Running pods whose required anti-affinity matches this pod: {} — rejected.",
            list_limited(&items)
        ));
    }
    out
}

/// What one kind of contribution to the score is called in a sentence.
fn source_str(pod: &PodInfo, source: ScoreSource, weight: i64, pod_name: &str) -> String {
    let sel = |t: Option<&WeightedAffinityTerm>| t.map(|t| selector_str(&t.term.selector)).unwrap_or_default();
    match source {
        ScoreSource::Preferred(i) => format!(
            "Preferred affinity{} (weight {weight}) to pods matching {}",
            term_suffix(pod.preferred_affinity_terms.len(), i),
            sel(pod.preferred_affinity_terms.get(i))
        ),
        ScoreSource::PreferredAnti(i) => format!(
            "Preferred anti-affinity{} (weight {}) to pods matching {}",
            term_suffix(pod.preferred_anti_affinity_terms.len(), i),
            -weight,
            sel(pod.preferred_anti_affinity_terms.get(i))
        ),
        ScoreSource::ExistingRequired(_) => {
            format!("{pod_name} has required affinity matching this pod (counted with hardPodAffinityWeight {weight})")
        }
        ScoreSource::ExistingPreferred(_) => format!("{pod_name} has preferred affinity (weight {weight}) matching this pod"),
        ScoreSource::ExistingPreferredAnti(_) => {
            format!("{pod_name} has preferred anti-affinity (weight {}) matching this pod", -weight)
        }
    }
}

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let mut out = Vec::new();
    let (pod, name) = (x.pod, x.node_name());
    let raw = cell.raw_here();
    let Some(cs) = explain_score(
        &x.framework.profile.args.get_or_default::<InterPodAffinityArgs>(),
        &x.cx,
        pod,
        x.node,
    ) else {
        return out.into();
    };
    if cs.iter().map(|c| c.weight).sum::<i64>() != raw {
        out.push(NOT_REPRODUCED.into());
        return out.into();
    }
    // The incoming pod's terms are grouped per term and domain; running pods' terms per pod.
    type Key = (ScoreSource, String, String, String, i64);
    let mut groups: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for c in &cs {
        let own = matches!(c.source, ScoreSource::Preferred(_) | ScoreSource::PreferredAnti(_));
        let key = (
            c.source,
            c.topology_key.clone(),
            c.value.clone(),
            if own { String::new() } else { c.pod.clone() },
            c.weight,
        );
        groups.entry(key).or_default().push(format!("{} on {}", c.pod, c.pod_node));
    }
    let mut sums = Vec::new();
    for ((source, key, value, by, weight), pods) in &groups {
        let n = pods.len() as i64;
        let total = weight * n;
        sums.push(total);
        if by.is_empty() {
            out.push(format!(
                "{}: {} {} ({}) → {}.",
                source_str(pod, *source, *weight, ""),
                matching(n),
                at_domain(key, value),
                list_limited(pods),
                signed(total)
            ));
        } else {
            let whom = if key == LABEL_HOSTNAME {
                pods[0].clone()
            } else {
                format!("{} ({})", pods[0], at_domain(key, value))
            };
            out.push(format!("{} → {}.", source_str(pod, *source, *weight, &whom), signed(total)));
        }
    }
    if sums.is_empty() {
        out.push(format!("No affinity term involving this pod reaches {name}'s domains: raw 0."));
    } else {
        let mut expr = String::new();
        for (i, v) in sums.iter().enumerate() {
            if i == 0 {
                expr.push_str(&if *v < 0 { format!("−{}", -v) } else { v.to_string() });
            } else if *v < 0 {
                expr.push_str(&format!(" − {}", -v));
            } else {
                expr.push_str(&format!(" + {v}"));
            }
        }
        out.push(if sums.len() > 1 {
            format!("Raw = {expr} = {raw}.")
        } else {
            format!("Raw = {raw}.")
        });
    }
    // NormalizeScore: min–max scaling over the scored nodes.
    let min = cell.raw.iter().copied().min().unwrap_or(0);
    let max = cell.raw.iter().copied().max().unwrap_or(0);
    let diff = max - min;
    let scale = |r: i64| {
        if diff > 0 {
            (100.0 * ((r - min) as f64 / diff as f64)) as i64
        } else {
            0
        }
    };
    let norm = cell.normalized[cell.k];
    let normalization = cell.raw.iter().zip(cell.normalized).all(|(&r, &n)| scale(r) == n).then(|| {
        if diff == 0 {
            "Every scored node has the same raw score, so NormalizeScore gives each of them 0.".into()
        } else {
            format!(
                "NormalizeScore scales between the lowest ({min}) and highest ({max}) raw scores: 100 × ({raw} − {}) / {diff} = {norm}.",
                paren(min)
            )
        }
    });
    ScoreLines { lines: out, normalization }
}

/// " term 2" when the pod has several terms of a kind (numbered from 1), nothing for one.
fn term_suffix(terms: usize, i: usize) -> String {
    if terms > 1 {
        format!(" term {}", i + 1)
    } else {
        String::new()
    }
}
