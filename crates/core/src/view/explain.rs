//! Explanations of single cells of the filter matrix and the score table, in sentences with the
//! numbers filled in.
//!
//! The trace says *what* each plugin decided; this module says the part every cell shares (the
//! recorded verdict or score, "skipped", "did not run because X rejected first", "not
//! evaluated", the total and how the scores add up) and leaves the numbers behind a verdict to
//! the plugin: its descriptor's explainers (`plugins/<name>/explain.rs`). Those numbers come
//! from the engine's own state just before the cycle, recovered by re-running the scenario to
//! that point, handed to the plugin as a `framework::explain::ExplainCtx` (which also replays
//! PreFilter, PreScore and Filter on that state, so the sentences use the very numbers the
//! verdict came from). Where a formula is shown, it is recomputed from those numbers and shown
//! only if it gives the very verdict or score the engine recorded; otherwise the explanation
//! stays with the recorded values.

use super::{Session, ROW_LIMIT};
use crate::engine::{Engine, EngineOptions, StepOutcome};
use crate::framework::explain::{ExplainCtx, ScoreCell};
use crate::framework::Ctx;
use crate::plugins::IN_TREE;
use crate::trace::{Detail, PluginScoreRow, TraceEvent};
use crate::vocabulary::{ExtensionPoint, PluginName};
use schedlab_view::view::Explanation;

/// The engine just before cycle `c` begins (after cycle c-1 and everything it caused).
fn engine_before(s: &Session, c: u32) -> Engine {
    let mut e = Engine::new(
        s.scenario.clone(),
        EngineOptions {
            seed: s.seed,
            detail: Detail::None,
        },
    );
    while e.cycle + 1 < c {
        if e.step() == StepOutcome::Quiet {
            break;
        }
    }
    // What the cycle does first: nodes changed since the last cycle copy the image counts.
    e.snapshot.update();
    e
}

/// Runs an explainer on the engine as it was before the cycle: the pod `pod` at the node at
/// snapshot position `node`; `None` when the node or the pod's framework is not there.
fn with_ctx<T>(e: &Engine, pod: u32, node: u32, f: impl FnOnce(&ExplainCtx) -> T) -> Option<T> {
    let pi = &e.pods[pod as usize].info;
    let ni = e.snapshot.nodes().get(node as usize)?;
    let framework = e.frameworks.get(pi.scheduler_name())?;
    let x = ExplainCtx {
        cx: Ctx {
            snapshot: &e.snapshot,
            cluster: &e.cluster,
            nominator: &e.nominator,
        },
        framework,
        pod: pi,
        node: ni,
    };
    Some(f(&x))
}

pub(super) fn explain(s: &mut Session, cycle: u32, node: u32, plugin: &str, score: bool) -> Explanation {
    let Some(ci) = s.cycles.get((cycle as usize).wrapping_sub(1)) else {
        return Explanation {
            title: "No such cycle".into(),
            lines: vec![],
        };
    };
    let pod = ci.pod;
    let node_name = s.model.nodes.get(node as usize).map(|n| n.name.clone()).unwrap_or_default();
    // The cell of one plugin, or (empty name) the whole row.
    let which = match PluginName::parse(plugin) {
        _ if plugin.is_empty() => None,
        Some(p) => Some(p),
        None => {
            return Explanation {
                title: format!("{plugin} · {node_name}"),
                lines: vec![format!("There is no plugin named {plugin}.")],
            }
        }
    };
    let (events, _) = s.cycle_events(cycle, true);
    let pod_key = s.model.pods[pod as usize].key();
    if score {
        explain_score(s, &events, cycle, pod, node, &node_name, which)
    } else {
        explain_filter(s, &events, cycle, pod, node, &node_name, &pod_key, which)
    }
}

#[allow(clippy::too_many_arguments)]
fn explain_filter(
    s: &Session,
    events: &[TraceEvent],
    cycle: u32,
    pod: u32,
    node: u32,
    node_name: &str,
    pod_key: &str,
    which: Option<PluginName>,
) -> Explanation {
    let title = match which {
        None => format!("Filter · {node_name}"),
        Some(p) => format!("{} · {node_name}", p.as_str()),
    };
    let mut lines = Vec::new();
    let filter = events.iter().find_map(|e| match e {
        TraceEvent::Filter {
            verdicts,
            num_to_find,
            nominated_first,
            ..
        } => Some((verdicts, *num_to_find, *nominated_first)),
        _ => None,
    });
    let skipped: Vec<PluginName> = events
        .iter()
        .find_map(|e| match e {
            TraceEvent::PreFilter { skipped, .. } => Some(skipped.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let Some((verdicts, num_to_find, nominated_first)) = filter else {
        lines.push("Filter did not run in this cycle (PreFilter rejected the pod for every node).".into());
        return Explanation { title, lines };
    };
    let Some(verdicts) = verdicts else {
        lines.push("Per-node verdicts were not recorded for this cycle.".into());
        return Explanation { title, lines };
    };
    let Some(v) = verdicts.iter().find(|v| v.node == node) else {
        lines.push(if nominated_first {
            format!("{node_name} was not evaluated: the pod's nominated node was tried first and passed every filter, so no other node was needed.")
        } else {
            format!(
                "{node_name} was not evaluated: the scheduler stops filtering once it has found {num_to_find} feasible node(s) (percentageOfNodesToScore), and it had them before reaching this node."
            )
        });
        return Explanation { title, lines };
    };
    let profile = &s.model.pods[pod as usize].profile;
    let filter_plugins: Vec<PluginName> = s
        .model
        .profiles
        .iter()
        .find(|p| &p.name == profile)
        .and_then(|p| p.points.iter().find(|(n, _)| n == ExtensionPoint::Filter.as_str()))
        .map(|(_, v)| v.iter().filter_map(|p| PluginName::parse(p)).collect())
        .unwrap_or_default();
    let failed_at = v.failed.as_ref().and_then(|f| filter_plugins.iter().position(|&p| p == f.plugin));
    if let Some(p) = which {
        if skipped.contains(&p) {
            lines.push(format!(
                "{} was skipped for {pod_key}: its PreFilter found nothing to check for this pod, so it passes every node.",
                p.as_str()
            ));
            return Explanation { title, lines };
        }
        let here = filter_plugins.iter().position(|&q| q == p);
        if let (Some(f), Some(h)) = (failed_at, here) {
            if h > f {
                lines.push(format!(
                    "{} did not run on {node_name}: {} had already rejected the node, and Filter stops at the first plugin that rejects.",
                    p.as_str(),
                    filter_plugins[f].as_str()
                ));
                return Explanation { title, lines };
            }
        }
    }
    let e = engine_before(s, cycle);
    if e.snapshot.nodes().get(node as usize).is_none() {
        return Explanation { title, lines };
    }
    let rejected_here = match (&v.failed, which) {
        (Some(f), None) => Some(f),
        (Some(f), Some(p)) if f.plugin == p => Some(f),
        _ => None,
    };
    // Whose numbers to show: the plugin's, or for the whole row the one that rejected.
    let subject = which.or(v.failed.as_ref().map(|f| f.plugin));
    match (rejected_here, which) {
        (Some(f), _) => {
            lines.push(format!(
                "{} rejected {node_name} ({}): {}.",
                f.plugin.as_str(),
                f.code.as_str(),
                f.reasons.join("; ")
            ));
        }
        (None, None) => lines.push(format!("{node_name} passed every filter plugin: it is feasible for {pod_key}.")),
        (None, Some(p)) => lines.push(format!("{} passed {node_name}.", p.as_str())),
    }
    if let Some(explain) = subject.and_then(|p| IN_TREE.get(p).explain.filter) {
        let passed = rejected_here.is_none();
        lines.extend(with_ctx(&e, pod, node, |x| explain(x, passed)).unwrap_or_default());
    }
    Explanation { title, lines }
}

fn explain_score(
    s: &Session,
    events: &[TraceEvent],
    cycle: u32,
    pod: u32,
    node: u32,
    node_name: &str,
    which: Option<PluginName>,
) -> Explanation {
    let title = match which {
        None => format!("Score · {node_name}"),
        Some(p) => format!("{} · {node_name}", p.as_str()),
    };
    let mut lines = Vec::new();
    let score = events.iter().find_map(|e| match e {
        TraceEvent::Score { table, selected, tied, .. } => Some((table, *selected, tied.clone())),
        _ => None,
    });
    let Some((Some(t), selected, tied)) = score else {
        lines.push("No score table for this cycle (a single feasible node is chosen without scoring).".into());
        return Explanation { title, lines };
    };
    let Some(k) = t.nodes.iter().position(|&n| n == node) else {
        lines.push(format!(
            "{node_name} was not scored: it did not pass Filter (or was not evaluated)."
        ));
        return Explanation { title, lines };
    };
    let sel_name = s.model.nodes.get(selected as usize).map(|n| n.name.as_str()).unwrap_or("");
    let Some(plugin) = which else {
        let parts: Vec<String> = t
            .plugins
            .iter()
            .map(|p| format!("{} {}×{}", p.plugin.as_str(), p.normalized[k], p.weight))
            .collect();
        lines.push(format!("Total for {node_name}: {} = {}.", parts.join(" + "), t.totals[k]));
        let max = t.totals.iter().copied().max().unwrap_or(0);
        if tied.len() > 1 && tied.contains(&node) {
            let names: Vec<&str> = tied
                .iter()
                .filter_map(|&n| s.model.nodes.get(n as usize).map(|m| m.name.as_str()))
                .collect();
            lines.push(format!(
                "{} nodes share the top total {max} ({}); the scheduler picks one of them at random: {sel_name}.",
                tied.len(),
                names.join(", ")
            ));
        } else if node == selected {
            lines.push(format!("{node_name} has the highest total: the pod goes here."));
        } else {
            lines.push(format!(
                "The best total is {max} on {sel_name}; {node_name} is {} behind.",
                max - t.totals[k]
            ));
        }
        return Explanation { title, lines };
    };
    let Some(row) = t.plugins.iter().find(|p| p.plugin == plugin) else {
        lines.push(format!(
            "{} did not score this pod (skipped at PreScore or not enabled).",
            plugin.as_str()
        ));
        return Explanation { title, lines };
    };
    let (raw, norm, w) = (row.raw[k], row.normalized[k], row.weight);
    lines.push(format!(
        "{} gave {node_name} a raw score of {raw}; after NormalizeScore {norm}; × weight {w} = {}.",
        plugin.as_str(),
        norm * w
    ));
    let mut normalization = None;
    if t.plugins.len() <= ROW_LIMIT {
        let e = engine_before(s, cycle);
        if e.snapshot.nodes().get(node as usize).is_some() {
            let names: Vec<String> = t
                .nodes
                .iter()
                .map(|&n| e.snapshot.nodes().get(n as usize).map(|x| x.name().to_string()).unwrap_or_default())
                .collect();
            let cell = ScoreCell {
                scored: &t.nodes,
                names: &names,
                raw: &row.raw,
                normalized: &row.normalized,
                k,
            };
            if let Some(explain) = IN_TREE.get(plugin).explain.score {
                if let Some(said) = with_ctx(&e, pod, node, |x| explain(x, &cell)) {
                    lines.extend(said.lines);
                    normalization = said.normalization;
                }
            }
        }
    }
    lines.push(normalization.unwrap_or_else(|| generic_normalization(row, k)));
    lines.retain(|l| !l.is_empty());
    Explanation { title, lines }
}

/// The normalization that reproduces the recorded values on every scored node, when it is one
/// of the common shapes (empty otherwise).
fn generic_normalization(row: &PluginScoreRow, k: usize) -> String {
    let (raw, norm) = (row.raw[k], row.normalized[k]);
    let max_raw = row.raw.iter().copied().max().unwrap_or(0);
    let check = |f: &dyn Fn(i64) -> i64| row.raw.iter().zip(&row.normalized).all(|(&r, &n)| f(r) == n);
    if row.raw == row.normalized {
        "NormalizeScore leaves this plugin's scores as they are (already 0–100).".into()
    } else if max_raw > 0 && check(&|r| 100 * r / max_raw) {
        format!("NormalizeScore scales by the highest raw score ({max_raw}): 100 × {raw} / {max_raw} = {norm}.")
    } else if max_raw > 0 && check(&|r| 100 - 100 * r / max_raw) {
        format!(
            "NormalizeScore reverses (fewer is better), scaled by the highest raw score ({max_raw}): 100 − 100 × {raw} / {max_raw} = {norm}."
        )
    } else if max_raw == 0 && row.normalized.iter().all(|&n| n == 100) {
        "Every node scored 0 raw, so the reversed normalization gives all of them 100.".into()
    } else {
        String::new()
    }
}
