//! Helpers several plugins share (upstream's component-helpers and plugins/helper).

use crate::api::{Node, Pod, Taint, Toleration};
use crate::labels::{CompiledNodeSelector, Selector};

/// Whether a toleration tolerates a taint (v1 Toleration.ToleratesTaint).
pub fn tolerates(t: &Toleration, taint: &Taint) -> bool {
    if let Some(e) = t.effect.as_deref().filter(|e| !e.is_empty()) {
        if e != taint.effect {
            return false;
        }
    }
    if let Some(k) = t.key.as_deref().filter(|k| !k.is_empty()) {
        if k != taint.key {
            return false;
        }
    }
    match t.operator.as_deref().unwrap_or("") {
        "" | "Equal" => t.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or(""),
        "Exists" => true,
        _ => false,
    }
}

pub fn tolerations_tolerate_taint(tols: &[Toleration], taint: &Taint) -> bool {
    tols.iter().any(|t| tolerates(t, taint))
}

/// The first taint passing `filter` that no toleration tolerates.
pub fn find_untolerated_taint<'a>(taints: &'a [Taint], tols: &[Toleration], filter: impl Fn(&Taint) -> bool) -> Option<&'a Taint> {
    taints.iter().find(|t| filter(t) && !tolerations_tolerate_taint(tols, t))
}

/// A pod's required node affinity: its nodeSelector and its required node affinity terms
/// (upstream nodeaffinity.GetRequiredNodeAffinity).
#[derive(Clone, Debug, Default)]
pub struct RequiredNodeAffinity {
    selector: Option<Selector>,
    affinity: Option<CompiledNodeSelector>,
}

impl RequiredNodeAffinity {
    pub fn of(pod: &Pod) -> RequiredNodeAffinity {
        let selector = (!pod.spec.node_selector.is_empty()).then(|| Selector::from_map(&pod.spec.node_selector));
        let affinity = pod
            .spec
            .affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref())
            .and_then(|na| na.required_during_scheduling_ignored_during_execution.as_ref())
            .map(CompiledNodeSelector::compile);
        RequiredNodeAffinity { selector, affinity }
    }
    /// Whether the node satisfies both the nodeSelector and the required terms.
    pub fn matches(&self, node: &Node) -> bool {
        if let Some(s) = &self.selector {
            if !s.matches(&node.metadata.labels) {
                return false;
            }
        }
        match &self.affinity {
            Some(a) => a.matches(&node.metadata.name, &node.metadata.labels),
            None => true,
        }
    }
    pub fn is_empty(&self) -> bool {
        self.selector.is_none() && self.affinity.is_none()
    }
}

/// Scales scores to `0..=max_priority` by the largest score (upstream
/// helper.DefaultNormalizeScore); `reverse` turns high raw scores into low final ones. All
/// zeros stay zero, or become `max_priority` when reversed. Integer division truncates as Go's.
pub fn default_normalize_score(max_priority: i64, reverse: bool, scores: &mut [crate::framework::NodeScore]) {
    let max_count = scores.iter().map(|s| s.score).fold(0, i64::max);
    if max_count == 0 {
        if reverse {
            for s in scores.iter_mut() {
                s.score = max_priority;
            }
        }
        return;
    }
    for s in scores.iter_mut() {
        let v = max_priority * s.score / max_count;
        s.score = if reverse { max_priority - v } else { v };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(k: &str, v: &str, e: &str) -> Taint {
        Taint {
            key: k.into(),
            value: (!v.is_empty()).then(|| v.to_string()),
            effect: e.into(),
            time_added: None,
        }
    }
    fn tol(k: &str, op: &str, v: &str, e: &str) -> Toleration {
        Toleration {
            key: (!k.is_empty()).then(|| k.to_string()),
            operator: (!op.is_empty()).then(|| op.to_string()),
            value: (!v.is_empty()).then(|| v.to_string()),
            effect: (!e.is_empty()).then(|| e.to_string()),
            toleration_seconds: None,
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn default_normalize_score_table() {
        use crate::framework::NodeScore;
        let cases: [(&str, bool, Vec<i64>, Vec<i64>); 6] = [
            ("all zero", false, vec![0, 0], vec![0, 0]),
            ("all zero reversed", true, vec![0, 0], vec![100, 100]),
            ("scaled by max", false, vec![1, 2, 3], vec![33, 66, 100]),
            ("scaled by max reversed", true, vec![1, 2, 3], vec![67, 34, 0]),
            ("truncating division", false, vec![2, 7], vec![28, 100]),
            ("single node", true, vec![5], vec![0]),
        ];
        for (name, reverse, raw, want) in cases {
            let mut scores: Vec<NodeScore> = raw.iter().enumerate().map(|(i, &s)| NodeScore { node: i, score: s }).collect();
            default_normalize_score(100, reverse, &mut scores);
            let got: Vec<i64> = scores.iter().map(|s| s.score).collect();
            assert_eq!(got, want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn toleration_table() {
        let t = taint("dedicated", "gpu", "NoSchedule");
        let cases = [
            (tol("dedicated", "Equal", "gpu", "NoSchedule"), true),
            (tol("dedicated", "", "gpu", ""), true),
            (tol("dedicated", "Equal", "ml", "NoSchedule"), false),
            (tol("dedicated", "Exists", "", ""), true),
            (tol("", "Exists", "", ""), true),
            (tol("", "Exists", "", "NoExecute"), false),
            (tol("other", "Exists", "", ""), false),
            (tol("dedicated", "Bogus", "gpu", ""), false),
        ];
        for (i, (tl, want)) in cases.iter().enumerate() {
            assert_eq!(tolerates(tl, &t), *want, "case {i}");
        }
    }
}
