//! Comparison of a run's conformance JSON with the real scheduler's recorded results, with the
//! same rules as `tests/conformance/check.py`: pods are taken in the order the real scheduler
//! settled them (by the last cycle that tried each, from `cycles`); a pod's node may be any
//! node tied with the expected one; after a different tie-break only bound/pending is compared;
//! messages verbatim; the phase where the expected file has one; the evicted set; and
//! (optionally) every plugin's and the final score of every node for pods whose earlier
//! placements all matched.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn key(p: &Value) -> (String, String) {
    (
        p.get("namespace").and_then(Value::as_str).unwrap_or("default").to_string(),
        p.get("name").and_then(Value::as_str).unwrap_or("").to_string(),
    )
}

fn str_set(v: Option<&Value>) -> BTreeSet<String> {
    v.and_then(Value::as_array)
        .map(|a| crate::sort::set_of(a.iter().filter_map(|x| x.as_str().map(String::from))))
        .unwrap_or_default()
}

/// The expected pods in the order the real scheduler settled them: by the last cycle that
/// tried each pod (from `cycles`), pods never tried last, document order otherwise.
fn placement_order(expected: &Value) -> Vec<&Value> {
    const EMPTY: &[Value] = &[];
    let cycles = expected.get("cycles").and_then(Value::as_array).map_or(EMPTY, Vec::as_slice);
    let mut last: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, who) in cycles.iter().enumerate() {
        if let Some(w) = who.as_str() {
            last.insert(w, i);
        }
    }
    let pods = expected.get("pods").and_then(Value::as_array).map_or(EMPTY, Vec::as_slice);
    let mut keyed: Vec<(usize, usize, &Value)> = pods
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let k = key(p);
            (last.get(format!("{}/{}", k.0, k.1).as_str()).copied().unwrap_or(cycles.len()), i, p)
        })
        .collect();
    crate::sort::sort_by_key(&mut keyed, |&(c, i, _)| (c, i));
    keyed.into_iter().map(|(_, _, p)| p).collect()
}

/// Differences between `expected` (an expected.json) and `actual` (our JSON); empty = pass.
pub fn compare(expected: &Value, actual: &Value, with_scores: bool) -> Vec<String> {
    let mut diffs = Vec::new();
    let empty = vec![];
    let exp_pods = placement_order(expected);
    let act_pods: BTreeMap<(String, String), &Value> =
        crate::sort::map_of(actual.get("pods").and_then(Value::as_array).unwrap_or(&empty).iter().map(|p| (key(p), p)));
    let mut diverged = false;
    for e in exp_pods {
        let k = key(e);
        let who = format!("{}/{}", k.0, k.1);
        let Some(a) = act_pods.get(&k) else {
            diffs.push(format!("{who}: missing from output"));
            continue;
        };
        let en = e.get("node").and_then(Value::as_str);
        let an = a.get("node").and_then(Value::as_str);
        let tied = str_set(e.get("tiedNodes"));
        if let Some(ep) = e.get("phase") {
            if Some(ep) != a.get("phase") && !diverged {
                diffs.push(format!(
                    "{who}: phase {}, got {}",
                    ep.as_str().unwrap_or("?"),
                    a.get("phase").and_then(Value::as_str).unwrap_or("None")
                ));
            }
        }
        if diverged {
            if en.is_none() != an.is_none() {
                diffs.push(format!(
                    "{who}: expected {}, got {} (after a tie-break)",
                    en.unwrap_or("pending"),
                    an.unwrap_or("pending")
                ));
            }
        } else if en.is_none() {
            if let Some(an) = an {
                diffs.push(format!("{who}: expected pending, got node {an}"));
            } else {
                let em = e.get("message").and_then(Value::as_str).unwrap_or("");
                let am = a.get("message").and_then(Value::as_str).unwrap_or("");
                if em != am {
                    diffs.push(format!("{who}: message differs\n      expected: {em}\n      actual:   {am}"));
                }
            }
        } else {
            let mut ok = tied.clone();
            ok.insert(en.unwrap_or_default().to_string());
            if !an.is_some_and(|an| ok.contains(an)) {
                diffs.push(format!(
                    "{who}: expected node {}, got {}",
                    ok.iter().cloned().collect::<Vec<_>>().join(" or "),
                    an.unwrap_or("pending")
                ));
            }
        }
        if an != en && an.is_some_and(|an| tied.contains(an)) {
            diverged = true;
        }
    }
    let ee = str_set(expected.get("evicted"));
    let ae = str_set(actual.get("evicted"));
    if diverged {
        if ee.len() != ae.len() {
            diffs.push(format!("evicted: expected {} pods, got {}", ee.len(), ae.len()));
        }
    } else if ee != ae {
        diffs.push(format!("evicted: expected {ee:?}, got {ae:?}"));
    }
    if with_scores {
        diffs.extend(compare_scores(expected, actual));
    }
    diffs
}

fn compare_scores(expected: &Value, actual: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let empty = vec![];
    let null = Value::Null;
    let es = expected.get("scores").unwrap_or(&null);
    let as_ = actual.get("scores").unwrap_or(&null);
    let act_pods: BTreeMap<String, &Value> =
        crate::sort::map_of(actual.get("pods").and_then(Value::as_array).unwrap_or(&empty).iter().map(|p| {
            let k = key(p);
            (format!("{}/{}", k.0, k.1), p)
        }));
    for p in placement_order(expected) {
        let k = key(p);
        let who = format!("{}/{}", k.0, k.1);
        if let Some(e) = es.get(&who) {
            match as_.get(&who) {
                None => diffs.push(format!("{who}: no scores in output")),
                Some(got) => {
                    if let Some(fin) = e.get("final").and_then(Value::as_object) {
                        for (node, v) in fin {
                            let g = got.get("final").and_then(|f| f.get(node));
                            if g != Some(v) {
                                diffs.push(format!(
                                    "{who}: final score of {node}: expected {v}, got {}",
                                    g.unwrap_or(&Value::Null)
                                ));
                            }
                        }
                    }
                    if let Some(plugins) = e.get("plugins").and_then(Value::as_object) {
                        for (plugin, per_node) in plugins {
                            for (node, v) in per_node.as_object().into_iter().flatten() {
                                let g = got.get("plugins").and_then(|p| p.get(plugin)).and_then(|p| p.get(node));
                                if g != Some(v) {
                                    diffs.push(format!(
                                        "{who}: {plugin} score of {node}: expected {v}, got {}",
                                        g.unwrap_or(&Value::Null)
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
        let an = act_pods.get(&who).and_then(|a| a.get("node"));
        if an.unwrap_or(&Value::Null) != p.get("node").unwrap_or(&Value::Null) {
            break; // later scores depend on this placement
        }
    }
    diffs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn ties_messages_and_scores() {
        let exp = json!({
            "pods": [
                {"namespace": "default", "name": "a", "node": "n1", "tiedNodes": ["n1", "n2"]},
                {"namespace": "default", "name": "b", "node": null, "message": "0/2 nodes are available: 2 Insufficient cpu."}
            ],
            "evicted": [],
            "scores": {"default/a": {"final": {"n1": 10}, "plugins": {"X": {"n1": 10}}}}
        });
        let good = json!({
            "pods": [
                {"namespace": "default", "name": "a", "node": "n1"},
                {"namespace": "default", "name": "b", "node": null, "message": "0/2 nodes are available: 2 Insufficient cpu."}
            ],
            "evicted": [],
            "scores": {"default/a": {"final": {"n1": 10}, "plugins": {"X": {"n1": 10}}}}
        });
        assert!(compare(&exp, &good, true).is_empty());
        let mut tie = good.clone();
        tie["pods"][0]["node"] = json!("n2");
        assert!(compare(&exp, &tie, false).is_empty());
        let mut wrong = good.clone();
        wrong["pods"][1]["message"] = json!("other");
        assert_eq!(compare(&exp, &wrong, false).len(), 1);
        let mut bad_score = good.clone();
        bad_score["scores"]["default/a"]["plugins"]["X"]["n1"] = json!(9);
        assert_eq!(compare(&exp, &bad_score, true).len(), 1);
        let mut other_node = good;
        other_node["pods"][0]["node"] = json!("n3");
        assert_eq!(compare(&exp, &other_node, false).len(), 1);
    }
}
