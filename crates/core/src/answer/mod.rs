//! Plain-language answers about one pod of a run: *why here* (the winner's total against the
//! runner-up's and the plugins whose weighted scores made the difference) and *why pending*
//! (the last cycle's reasons grouped as the FailedScheduling message groups them, what
//! preemption tried, and the smallest changes that would make the pod schedule).
//!
//! Nothing here schedules: the numbers are the trace's. Suggestions are generated from the
//! recorded Filter reasons, node by node and plugin by plugin (a resource shortfall, an
//! untolerated taint, a cordon, a node selector or required node-affinity term, a topology
//! spread constraint, a victim's priority, the `schedlab.dev/CEL` filter (`cel.rs`: a label its
//! expression reads, or the plugin's Filter turned off), or, for any rejection, one more node
//! like a rejecting node), each written as edits of the scenario's documents (a JSON merge
//! patch of a named document, or a new document) and kept only if re-running the edited
//! scenario with the same seed and controllers schedules the pod.

mod cel;
mod compare;
mod pending;
mod text_edit;
mod versions;

pub use compare::{compare, compare_engines, with_config, Side};
pub use text_edit::apply_edits_keeping_text;
pub use versions::compare_versions;

use crate::engine::{Engine, EngineOptions};
use crate::load::{LoadErrors, Scenario};
use crate::trace::{CycleOutcome, Detail, TraceEvent};
use crate::version::Features;
use schedlab_view::answer::{Answer, CellRef, Edit, PluginDifference, WhyHere};
use serde_json::Value;

/// How a scenario is run for an answer (as `schedlab run` and the playground run it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    pub seed: u64,
    /// Whether the workload controllers create (and keep managing) pods.
    pub controllers: bool,
    /// The Kubernetes version whose scheduler runs, with the run's feature gates (the user's
    /// `--feature-gates` over the version's defaults): every re-run of an answer uses them.
    pub features: Features,
}

impl RunOptions {
    /// A run of `version` with its default gates.
    pub fn new(seed: u64, controllers: bool, version: schedlab_view::KubeVersion) -> RunOptions {
        RunOptions {
            seed,
            controllers,
            features: Features::new(version),
        }
    }

    /// The same run with another seed.
    pub fn with_seed(&self, seed: u64) -> RunOptions {
        RunOptions { seed, ..self.clone() }
    }
}

/// Loads `text` and runs it to the end with full detail.
pub fn run_text(text: &str, file: &str, opts: &RunOptions) -> Result<Engine, LoadErrors> {
    run_text_with(text, file, &opts.features, opts)
}

/// Loads `text` for `features` (a version with its gates; `opts.features` is not read) and
/// runs it to the end with full detail.
pub fn run_text_with(text: &str, file: &str, features: &Features, opts: &RunOptions) -> Result<Engine, LoadErrors> {
    Ok(run_scenario(crate::load::load_str_for(text, file, features)?, opts))
}

/// Runs a loaded scenario to the end with full detail (controllers first, when on).
pub fn run_scenario(mut sc: Scenario, opts: &RunOptions) -> Engine {
    let mut ctl = None;
    if opts.controllers {
        let mut c = crate::controllers::Controllers::new(opts.seed);
        c.reconcile(&mut sc);
        ctl = Some(c);
    }
    let mut e = Engine::new(
        sc,
        EngineOptions {
            seed: opts.seed,
            detail: Detail::All,
        },
    );
    if let Some(c) = ctl {
        e.enable_controllers(c);
    }
    e.run();
    e
}

/// The node pod `key` ran on at the end of a run of `text` (`Ok(None)`: it never ran).
pub fn lands_on(text: &str, key: &str, opts: &RunOptions) -> Result<Option<String>, String> {
    let e = run_text(text, "edited", opts).map_err(|e| e.to_string())?;
    Ok(e.pod_by_key(key).and_then(|i| e.pods()[i].ran_on.clone()))
}

/// The answer for pod `key` (`namespace/name`) of scenario `text`.
pub fn why(text: &str, file: &str, key: &str, opts: &RunOptions) -> Result<Answer, String> {
    let e = run_text(text, file, opts).map_err(|e| e.to_string())?;
    let Some(i) = e.pod_by_key(key) else {
        return Err(format!("the run has no pod {key}"));
    };
    let p = &e.pods()[i];
    match &p.ran_on {
        Some(node) => {
            let here = why_here(&e, key, node);
            let sentences = here_sentences(key, &here);
            Ok(Answer {
                pod: key.to_string(),
                node: Some(node.clone()),
                sentences,
                here: Some(here),
                pending: None,
            })
        }
        None => {
            let pending = pending::why_pending(text, &e, key, opts);
            let sentences = pending::sentences(key, &pending);
            Ok(Answer {
                pod: key.to_string(),
                node: None,
                sentences,
                here: None,
                pending: Some(pending),
            })
        }
    }
}

/// The trace's index of pod `key`.
pub(crate) fn trace_pod(e: &Engine, key: &str) -> Option<u32> {
    e.trace().header.pods.iter().position(|k| k == key).map(|i| i as u32)
}

/// The cycles that scheduled pod `key`, in order.
pub(crate) fn cycles_of(e: &Engine, key: &str) -> Vec<u32> {
    let Some(pod) = trace_pod(e, key) else { return Vec::new() };
    e.trace()
        .events
        .iter()
        .filter_map(|ev| match ev {
            TraceEvent::CycleStart { cycle, pod: p, .. } if *p == pod => Some(*cycle),
            _ => None,
        })
        .collect()
}

pub(crate) fn node_name(e: &Engine, n: u32) -> String {
    e.trace()
        .header
        .nodes
        .get(n as usize)
        .cloned()
        .unwrap_or_else(|| format!("node #{n}"))
}

/// The events of cycle `c`.
pub(crate) fn cycle_events(e: &Engine, c: u32) -> impl Iterator<Item = &TraceEvent> {
    e.trace().events.iter().filter(move |ev| event_cycle(ev) == Some(c))
}

fn event_cycle(ev: &TraceEvent) -> Option<u32> {
    match ev {
        TraceEvent::CycleStart { cycle, .. }
        | TraceEvent::PreFilter { cycle, .. }
        | TraceEvent::Filter { cycle, .. }
        | TraceEvent::PostFilter { cycle, .. }
        | TraceEvent::PreScore { cycle, .. }
        | TraceEvent::Score { cycle, .. }
        | TraceEvent::Reserve { cycle, .. }
        | TraceEvent::Permit { cycle, .. }
        | TraceEvent::PreBind { cycle, .. }
        | TraceEvent::Bind { cycle, .. }
        | TraceEvent::PostBind { cycle }
        | TraceEvent::KubeEvent { cycle, .. }
        | TraceEvent::CycleEnd { cycle, .. } => Some(*cycle),
        _ => None,
    }
}

/// Why pod `key` is on `node`: the last cycle that bound it, its score table.
fn why_here(e: &Engine, key: &str, node: &str) -> WhyHere {
    let bound = cycles_of(e, key).into_iter().rev().find(|&c| {
        cycle_events(e, c).any(|ev| {
            matches!(
                ev,
                TraceEvent::CycleEnd {
                    outcome: CycleOutcome::Bound,
                    ..
                }
            )
        })
    });
    let mut here = WhyHere {
        cycle: bound.unwrap_or(0),
        node: node.to_string(),
        total: None,
        runner_up: None,
        runner_up_total: None,
        margin: 0,
        plugins: Vec::new(),
        rejected: 0,
        feasible: 0,
        cells: Vec::new(),
    };
    let Some(c) = bound else { return here };
    for ev in cycle_events(e, c) {
        match ev {
            TraceEvent::Filter { feasible, verdicts, .. } => {
                here.feasible = *feasible;
                here.rejected = verdicts.iter().flatten().filter(|v| v.failed.is_some()).count();
            }
            TraceEvent::Score {
                table: Some(t), selected, ..
            } => {
                let Some(w) = t.nodes.iter().position(|n| n == selected) else {
                    continue;
                };
                let r = (0..t.nodes.len())
                    .filter(|&i| i != w)
                    .max_by_key(|&i| (t.totals[i], std::cmp::Reverse(i)));
                here.total = Some(t.totals[w]);
                here.cells.push(cell(c, node, "", "Score"));
                let Some(r) = r else { continue };
                let runner = node_name(e, t.nodes[r]);
                here.runner_up_total = Some(t.totals[r]);
                here.margin = t.totals[w] - t.totals[r];
                for row in &t.plugins {
                    let (a, b) = (row.normalized[w] * row.weight, row.normalized[r] * row.weight);
                    let d = a - b;
                    here.plugins.push(PluginDifference {
                        plugin: row.plugin.to_string(),
                        weight: row.weight,
                        winner: a,
                        runner_up: b,
                        difference: d,
                        decisive: d > 0 && d >= here.margin,
                    });
                    if d != 0 {
                        here.cells.push(cell(c, node, row.plugin.as_str(), "Score"));
                        here.cells.push(cell(c, &runner, row.plugin.as_str(), "Score"));
                    }
                }
                crate::sort::sort_by_key(&mut here.plugins, |p| (std::cmp::Reverse(p.difference), p.plugin.clone()));
                here.runner_up = Some(runner);
            }
            _ => {}
        }
    }
    here
}

pub(crate) fn cell(cycle: u32, node: &str, plugin: &str, point: &str) -> CellRef {
    CellRef {
        cycle,
        node: node.to_string(),
        plugin: plugin.to_string(),
        point: point.to_string(),
    }
}

fn here_sentences(key: &str, h: &WhyHere) -> Vec<String> {
    if h.cycle == 0 {
        return vec![format!(
            "{key} is on {} because it was bound there before scheduling began (spec.nodeName).",
            h.node
        )];
    }
    let (Some(total), Some(runner), Some(rt)) = (h.total, &h.runner_up, h.runner_up_total) else {
        return vec![format!(
            "{key} is on {} because in cycle {} it was the only node that passed Filter ({} other node(s) rejected it), so nothing was scored.",
            h.node, h.cycle, h.rejected
        )];
    };
    let mut s = vec![format!(
        "{key} is on {} (cycle {}): it scored {total} against {rt} for the runner-up {runner}, a margin of {}.",
        h.node, h.cycle, h.margin
    )];
    let favour: Vec<String> = h
        .plugins
        .iter()
        .filter(|p| p.difference > 0)
        .map(|p| {
            format!(
                "{} +{} ({} vs {}, weight {})",
                p.plugin, p.difference, p.winner, p.runner_up, p.weight
            )
        })
        .collect();
    let against: Vec<String> = h
        .plugins
        .iter()
        .filter(|p| p.difference < 0)
        .map(|p| format!("{} {}", p.plugin, p.difference))
        .collect();
    if h.margin == 0 {
        s.push(format!(
            "The totals tie, so the scheduler picked {} at random among the tied nodes.",
            h.node
        ));
    } else if !favour.is_empty() {
        let mut t = format!("The difference came from {}", favour.join(", "));
        if !against.is_empty() {
            t += &format!(", against {}", against.join(", "));
        }
        s.push(t + ".");
    }
    s
}

/// The text of scenario `text` with `edits` applied to its documents (as JSON documents,
/// which YAML reads).
pub fn apply_edits(text: &str, edits: &[Edit]) -> Result<String, String> {
    let mut docs = crate::load::documents(text);
    for ed in edits {
        match ed {
            Edit::Patch {
                kind,
                namespace,
                name,
                merge,
            } => {
                let d = docs
                    .iter_mut()
                    .find(|d| same(d, kind, name, namespace.as_deref()))
                    .ok_or_else(|| format!("no {kind} {name} to patch"))?;
                crate::timeline::patch::merge_patch(d, merge);
            }
            Edit::Add { document } => docs.push(document.clone()),
        }
    }
    let texts: Vec<String> = docs.iter().map(|d| serde_json::to_string(d).expect("JSON")).collect();
    Ok(texts.join("\n---\n") + "\n")
}

/// Whether document `d` is the `kind` named `name` in namespace `ns` (default: `default`; for
/// cluster-scoped kinds both sides have none). A nameless document, the
/// KubeSchedulerConfiguration, is named `""`.
pub(crate) fn same(d: &Value, kind: &str, name: &str, ns: Option<&str>) -> bool {
    let meta = d.get("metadata");
    d.get("kind").and_then(Value::as_str) == Some(kind)
        && meta.and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("") == name
        && ns.unwrap_or("default") == meta.and_then(|m| m.get("namespace")).and_then(Value::as_str).unwrap_or("default")
}

#[cfg(test)]
mod tests;
