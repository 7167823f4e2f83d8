//! TaintToleration's cells explained: the node's taints and whether the pod tolerates each
//! (NoSchedule/NoExecute for Filter, PreferNoSchedule for the score).

use crate::api::Taint;
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};
use crate::plugins::helper::tolerations_tolerate_taint;

pub(super) const EXPLAINERS: Explainers = Explainers::both(filter, score);


fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    let (pod, ni) = (x.pod, x.node);
    let mut out = Vec::new();
    let taints: Vec<&Taint> = ni
        .node
        .spec
        .taints
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .collect();
    if taints.is_empty() {
        out.push(format!("{} has no NoSchedule/NoExecute taints.", ni.name()));
    }
    for t in taints {
        let ok = tolerations_tolerate_taint(&pod.pod.spec.tolerations, t);
        out.push(format!(
            "Taint {}: {}.",
            t,
            if ok { "tolerated by the pod" } else { "not tolerated by the pod" }
        ));
    }
    out
}

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let (pod, ni) = (x.pod, x.node);
    let raw = cell.raw_here();
    let mut out = Vec::new();
    let prefer: Vec<&Taint> = ni.node.spec.taints.iter().filter(|t| t.effect == "PreferNoSchedule").collect();
    let bad: Vec<String> = prefer
        .iter()
        .filter(|t| !tolerations_tolerate_taint(&pod.pod.spec.tolerations, t))
        .map(|t| t.to_string())
        .collect();
    if bad.len() as i64 == raw {
        out.push(if bad.is_empty() {
            format!(
                "{} has no PreferNoSchedule taint the pod does not tolerate (raw 0 is best).",
                ni.name()
            )
        } else {
            format!(
                "Raw = the number of PreferNoSchedule taints the pod does not tolerate: {} ({}).",
                bad.len(),
                bad.join(", ")
            )
        });
    }
    out.into()
}
