//! Helpers several plugins share (upstream's component-helpers and plugins/helper).

use crate::api::{Node, Pod, Taint, Toleration};
use crate::framework::CycleState;
use crate::labels::{CompiledNodeSelector, Selector};
use crate::vocabulary::PluginName;
use std::sync::Arc;

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

/// A plugin's cycle-state slot holding its PreFilter result `F` and its PreScore result `S` side
/// by side (upstream keeps them under two keys). The PreScore result is shared by the copies of
/// the state that preemption makes, as upstream's is.
pub struct PreStates<F, S> {
    pub pre_filter: Option<F>,
    pub pre_score: Option<Arc<S>>,
}

impl<F: Clone, S> Clone for PreStates<F, S> {
    fn clone(&self) -> Self {
        PreStates {
            pre_filter: self.pre_filter.clone(),
            pre_score: self.pre_score.clone(),
        }
    }
}

impl<F, S> Default for PreStates<F, S> {
    fn default() -> Self {
        PreStates {
            pre_filter: None,
            pre_score: None,
        }
    }
}

impl<F: Clone + 'static, S: 'static> PreStates<F, S> {
    /// `plugin`'s slot, created empty when the cycle has none yet.
    pub fn slot(state: &mut CycleState, plugin: PluginName) -> &mut Self {
        state.get_or_insert_default::<Self>(plugin)
    }
    pub fn pre_filter(state: &CycleState, plugin: PluginName) -> Option<&F> {
        state.read::<Self>(plugin).and_then(|d| d.pre_filter.as_ref())
    }
    pub fn pre_filter_mut(state: &mut CycleState, plugin: PluginName) -> Option<&mut F> {
        state.read_mut::<Self>(plugin).and_then(|d| d.pre_filter.as_mut())
    }
    pub fn pre_score(state: &CycleState, plugin: PluginName) -> Option<&S> {
        state.read::<Self>(plugin).and_then(|d| d.pre_score.as_deref())
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

/// Go's truncating `a / b` for int64, computed quickly: 64-bit integer division is slow on
/// many CPUs and scoring divides several times per node. Small operands use 32-bit division;
/// operands below 2^53 use a float quotient corrected to the exact integer. The result is
/// always identical to `a / b` (callers never divide by zero).
#[inline]
pub fn div_trunc(a: i64, b: i64) -> i64 {
    if a >= 0 && b > 0 {
        if a <= u32::MAX as i64 && b <= u32::MAX as i64 {
            return (a as u32 / b as u32) as i64;
        }
        const EXACT: i64 = 1 << 53;
        if a < EXACT && b < EXACT {
            let mut q = (a as f64 / b as f64) as i64;
            // The float quotient is within one of the true one; fix it with exact arithmetic.
            let r = a - q * b;
            if r < 0 {
                q -= 1;
            } else if r >= b {
                q += 1;
            }
            return q;
        }
    }
    a / b
}

#[cfg(test)]
mod div_tests {
    use super::div_trunc;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn matches_integer_division() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let edges = [
            0i64,
            1,
            2,
            3,
            99,
            100,
            101,
            u32::MAX as i64,
            u32::MAX as i64 + 1,
            (1 << 53) - 1,
            1 << 53,
            i64::MAX,
        ];
        for &a in &edges {
            for &b in &edges[1..] {
                assert_eq!(div_trunc(a, b), a / b, "{a} / {b}");
                assert_eq!(div_trunc(-a, b), -a / b, "-{a} / {b}");
            }
        }
        for _ in 0..200_000 {
            let shift_a = next() % 63;
            let shift_b = next() % 63;
            let a = (next() >> (1 + shift_a)) as i64;
            let b = ((next() >> (1 + shift_b)) as i64).max(1);
            assert_eq!(div_trunc(a, b), a / b, "{a} / {b}");
            // Quotients near integer boundaries (as in score arithmetic).
            let q = (next() % 101) as i64;
            let c = b.min(1 << 40);
            for d in [-1i64, 0, 1] {
                let a2 = q.saturating_mul(c).saturating_add(d).max(0);
                assert_eq!(div_trunc(a2, c), a2 / c, "{a2} / {c}");
            }
        }
    }
}
