//! NodeAffinity's cells explained: the pod's nodeSelector and required terms (and the
//! profile's addedAffinity) against the node's labels; the preferred terms the node matches.

use super::args::NodeAffinityArgs;
use super::PreferredTerms;
use crate::api::NodeSelectorTerm;
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};
use crate::framework::NodeInfo;
use crate::labels::CompiledNodeSelectorTerm;
use crate::plugins::explain_util::node_term_str;

pub(super) const EXPLAINERS: Explainers = Explainers::both(filter, score);

/// The node's values for the keys the terms look at ("no <key>" when it lacks one).
fn term_keys_str(ni: &NodeInfo, terms: &[NodeSelectorTerm]) -> String {
    let mut keys: Vec<&str> = terms
        .iter()
        .flat_map(|t| t.match_expressions.iter().map(|r| r.key.as_str()))
        .collect();
    crate::sort::sort(&mut keys);
    keys.dedup();
    keys.iter()
        .map(|k| match ni.labels().get(*k) {
            Some(v) => format!("{k}={v}"),
            None => format!("no {k}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    let (pod, ni, name) = (x.pod, x.node, x.node_name());
    let mut out = Vec::new();
    if !pod.pod.spec.node_selector.is_empty() {
        let sel: Vec<String> = pod.pod.spec.node_selector.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let has: Vec<String> = pod
            .pod
            .spec
            .node_selector
            .keys()
            .map(|k| match ni.labels().get(k) {
                Some(v) => format!("{k}={v}"),
                None => format!("no {k} label"),
            })
            .collect();
        out.push(format!("nodeSelector wants {}; {name} has {}.", sel.join(", "), has.join(", ")));
    }
    let required = pod
        .pod
        .spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| na.required_during_scheduling_ignored_during_execution.as_ref());
    let term_lines = |who: &str, terms: &[NodeSelectorTerm], out: &mut Vec<String>| {
        let ok = |t: &NodeSelectorTerm| CompiledNodeSelectorTerm::compile(t).matches(name, ni.labels());
        let verdict = |t: &NodeSelectorTerm| if ok(t) { "matches" } else { "does not match" };
        if let [t] = terms {
            let has = if ok(t) {
                String::new()
            } else {
                format!(" (it has {})", term_keys_str(ni, terms))
            };
            out.push(format!("{who}: {} — {name} {}{has}.", node_term_str(t), verdict(t)));
            return;
        }
        out.push(format!("{who} has {} terms; any one must match.", terms.len()));
        for (i, t) in terms.iter().enumerate() {
            out.push(format!("Term {}: {} — {name} {}.", i + 1, node_term_str(t), verdict(t)));
        }
        if !terms.iter().any(ok) {
            out.push(format!("{name} has {}.", term_keys_str(ni, terms)));
        }
    };
    if let Some(r) = required {
        term_lines("The pod's required node affinity", &r.node_selector_terms, &mut out);
    }
    let args = x.framework.profile.args.get_or_default::<NodeAffinityArgs>();
    let added = args
        .added_affinity
        .as_ref()
        .and_then(|a| a.required_during_scheduling_ignored_during_execution.as_ref());
    if let Some(r) = added {
        term_lines(
            "The scheduler profile also requires (addedAffinity)",
            &r.node_selector_terms,
            &mut out,
        );
    }
    out
}

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let (pod, ni) = (x.pod, x.node);
    let raw = cell.raw_here();
    let mut out = Vec::new();
    if let Some(na) = pod.pod.spec.affinity.as_ref().and_then(|a| a.node_affinity.as_ref()) {
        let terms = &na.preferred_during_scheduling_ignored_during_execution;
        if !terms.is_empty() {
            let mut parts = Vec::new();
            for t in terms {
                let one = PreferredTerms::compile(std::slice::from_ref(t))
                    .map(|c| c.score(&ni.node))
                    .unwrap_or(0);
                parts.push(format!(
                    "weight {} {}",
                    t.weight,
                    if one > 0 { "matches" } else { "does not match" }
                ));
            }
            out.push(format!(
                "Raw = the sum of the weights of the preferred terms {} matches: {} → {raw}.",
                ni.name(),
                parts.join(", ")
            ));
        }
    }
    out.into()
}
