//! "What changes if I upgrade?": the same scenario run by two Kubernetes versions, each
//! difference in a pod's answer with the change that explains it.
//!
//! The explanation is verified, never guessed: for each switch on which the two versions'
//! tables differ (`Features::differing_switches`: a behaviour, the plugin tables, a gate), the
//! scenario is run once more as the first version with that one switch taken from the second;
//! a switch explains a difference when that run gives the field the second version's value.
//! A difference no single switch reproduces is left unexplained.

use super::{compare_engines, run_text_with, RunOptions};
use crate::engine::Engine;
use crate::version::Features;
use schedlab_view::answer::{FieldDifference, PodVersionDifference, VersionChange, VersionComparison};
use serde_json::Value;
use std::collections::BTreeMap;

/// Runs `text` as `from` and as `to` (with the same seed and controllers) and compares them.
pub fn compare_versions(
    text: &str,
    file: &str,
    from: &Features,
    to: &Features,
    opts: &RunOptions,
) -> Result<VersionComparison, String> {
    let run = |f: &Features| run_text_with(text, file, f, opts).map_err(|e| e.to_string());
    let (ea, eb) = (run(from)?, run(to)?);
    let (oa, ob) = (outcomes(&ea), outcomes(&eb));
    // Each differing (pod, field), in the first run's pod order, then the second's new pods.
    let mut keys: Vec<&String> = oa.0.iter().collect();
    keys.extend(ob.0.iter().filter(|k| !oa.1.contains_key(*k)));
    let mut diffs: Vec<(String, Vec<FieldDifference>)> = Vec::new();
    for k in keys {
        let (a, b) = (oa.1.get(k), ob.1.get(k));
        let fields: Vec<FieldDifference> = FIELDS
            .iter()
            .filter_map(|f| {
                let (x, y) = (a.and_then(|o| o.get(*f).cloned().flatten()), b.and_then(|o| o.get(*f).cloned().flatten()));
                (x != y).then(|| FieldDifference {
                    field: f.to_string(),
                    from: x,
                    to: y,
                    explained_by: Vec::new(),
                })
            })
            .collect();
        if !fields.is_empty() {
            diffs.push((k.clone(), fields));
        }
    }
    let switches = from.differing_switches(to);
    let mut explains = vec![0usize; switches.len()];
    if !diffs.is_empty() {
        for (i, s) in switches.iter().enumerate() {
            let mixed = from.with_switch_from(to, *s);
            // A switch under which the scenario does not load (a field the first version's
            // kind lacks) explains nothing.
            let Ok(e) = run(&mixed) else { continue };
            let om = outcomes(&e);
            for (pod, fields) in &mut diffs {
                for d in fields.iter_mut() {
                    let got = om.1.get(pod).and_then(|o| o.get(d.field.as_str()).cloned().flatten());
                    if got == d.to {
                        d.explained_by.push(s.name());
                        explains[i] += 1;
                    }
                }
            }
        }
    }
    let changes = switches
        .iter()
        .zip(explains)
        .map(|(s, n)| {
            let (upstream, what) = from.describe_switch(to, *s);
            VersionChange {
                switch: s.name(),
                upstream: upstream.map(str::to_string),
                what,
                explains: n,
            }
        })
        .collect();
    let label = |f: &Features| format!("{file} at v{}", f.version());
    Ok(VersionComparison {
        from: from.version(),
        to: to.version(),
        changes,
        pods: diffs.into_iter().map(|(pod, fields)| PodVersionDifference { pod, fields }).collect(),
        runs: compare_engines(&ea, &label(from), &eb, &label(to)),
    })
}

/// The fields of a pod's answer compared, as `schedlab run --output json` names them.
const FIELDS: [&str; 6] = ["node", "nominatedNode", "message", "attempts", "evicted", "score"];

type Outcome = BTreeMap<&'static str, Option<String>>;

/// Each pod's answer as `schedlab run --output json` reports it (its `pods` entries, the bound
/// node's total from `scores`): the pods in order, and each one's fields.
fn outcomes(e: &Engine) -> (Vec<String>, BTreeMap<String, Outcome>) {
    let j = crate::output::conformance_json(e);
    let text = |v: &Value| match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    };
    let mut order = Vec::new();
    let mut out = BTreeMap::new();
    for p in j["pods"].as_array().into_iter().flatten() {
        let key = format!("{}/{}", p["namespace"].as_str().unwrap_or(""), p["name"].as_str().unwrap_or(""));
        let mut o = Outcome::new();
        for f in &FIELDS[..5] {
            o.insert(*f, text(&p[*f]));
        }
        let node = p["node"].as_str().unwrap_or_default();
        o.insert("score", text(&j["scores"][&key]["final"][node]));
        order.push(key.clone());
        out.insert(key, o);
    }
    (order, out)
}
