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
use crate::engine::{Engine, EngineOptions, PoppedPod};
use crate::framework::explain::{ExplainCtx, ScoreCell};
use crate::framework::runtime::ScoreResult;
use crate::framework::{Ctx, CycleState, NodeInfo, PodInfo, Status};
use crate::plugins::IN_TREE;
use crate::trace::{Detail, EventReason, PluginScoreRow, PluginStatus, TraceEvent};
use crate::vocabulary::{ExtensionPoint, PluginName};
use schedlab_view::view::Explanation;
use std::collections::HashMap;
use std::sync::Arc;

/// The state cycle `c` read, rebuilt: the session's scenario re-run with the same seed and the
/// same controllers up to the moment the cycle began (every earlier cycle, and every timeline
/// step, pod completion, flush and controller reaction before it), with the pod the cycle
/// scheduled as the queue handed it over. A session keeps the last one, so the cells of one
/// cycle are explained from one re-run.
pub(super) struct CycleReplay {
    cycle: u32,
    engine: Engine,
    /// The pod cycle `cycle` scheduled, popped and not yet scheduled.
    popped: PoppedPod,
    /// Each node's Filter status on that state (computed on first use).
    filter: HashMap<String, Status>,
    /// The scores on that state of the nodes the cycle scored (computed on first use).
    score: Option<Option<ScoreResult>>,
}

impl CycleReplay {
    /// The state cycle `c` read: `from`, a rebuilt state of an earlier cycle, run on to cycle
    /// `c` (the cells of a run explained in order cost one re-run in all), or a new re-run.
    /// `None` when the re-run does not reach cycle `c` with the pod the trace names (a bug:
    /// the run is deterministic).
    fn at(s: &Session, c: u32, pod_key: &str, from: Option<CycleReplay>) -> Option<CycleReplay> {
        let mut e = match from {
            Some(r) if r.cycle == c => return Some(r),
            Some(mut r) if r.cycle < c => {
                r.engine.resume_cycle(r.popped);
                r.engine
            }
            _ => {
                let mut e = Engine::new(
                    s.scenario.clone(),
                    EngineOptions {
                        seed: s.seed,
                        detail: Detail::None,
                    },
                );
                if let Some(ctl) = &s.ctl {
                    e.enable_controllers(ctl.clone());
                }
                e
            }
        };
        let popped = e.advance_to_cycle(c)?;
        (popped.pod().key == pod_key).then_some(CycleReplay {
            cycle: c,
            engine: e,
            popped,
            filter: HashMap::new(),
            score: None,
        })
    }

    fn pod(&self) -> &Arc<PodInfo> {
        self.popped.pod()
    }

    /// Runs an explainer on this state: the cycle's pod at the node named `node` (found by
    /// name: positions differ once nodes come and go); `None` when the node did not exist then
    /// or the pod's profile has no framework.
    fn with_ctx<T>(&self, node: &str, f: impl FnOnce(&ExplainCtx) -> T) -> Option<T> {
        let e = &self.engine;
        let ni = e.snapshot.get(node)?;
        let framework = e.frameworks.get(self.pod().scheduler_name())?;
        let x = ExplainCtx {
            cx: Ctx {
                snapshot: &e.snapshot,
                cluster: &e.cluster,
                nominator: &e.nominator,
            },
            framework,
            pod: self.pod(),
            node: ni,
        };
        Some(f(&x))
    }

    /// The node's Filter status on this state, as the cycle computes it (PreFilter, then
    /// Filter with the node's nominated pods counted in).
    fn filter_status(&mut self, node: &str) -> Option<&Status> {
        if !self.filter.contains_key(node) {
            let st = self.with_ctx(node, |x| {
                let mut state = CycleState::new();
                let _ = x.framework.run_pre_filter(&x.cx, &mut state, x.pod);
                x.framework.run_filter_with_nominated_pods(&x.cx, &state, x.pod, x.node)
            })?;
            self.filter.insert(node.to_string(), st);
        }
        self.filter.get(node)
    }

    /// The scores of the scored nodes (by name, in the table's order) on this state.
    fn scores(&mut self, names: &[String]) -> Option<&ScoreResult> {
        if self.score.is_none() {
            let e = &self.engine;
            let result = (|| {
                let pod = self.popped.pod();
                let framework = e.frameworks.get(pod.scheduler_name())?;
                let cx = Ctx {
                    snapshot: &e.snapshot,
                    cluster: &e.cluster,
                    nominator: &e.nominator,
                };
                let ids: Vec<usize> = names.iter().map(|n| e.snapshot.position(n)).collect::<Option<_>>()?;
                let nodes: Vec<&NodeInfo> = ids.iter().map(|&i| &e.snapshot.nodes()[i]).collect();
                let mut state = CycleState::new();
                let _ = framework.run_pre_filter(&cx, &mut state, pod);
                // Filter on the scored nodes too: a plugin may score what its Filter found
                // there (DynamicResources' allocations, from v1.35).
                for n in &nodes {
                    let _ = framework.run_filter_with_nominated_pods(&cx, &state, pod, n);
                }
                let _ = framework.run_pre_score(&cx, &mut state, pod, &nodes);
                framework.run_score(&cx, &state, pod, &nodes, &ids).ok()
            })();
            self.score = Some(result);
        }
        self.score.as_ref().and_then(Option::as_ref)
    }
}

/// A cell's explanation with, beside its sentences, the verdict the trace recorded for it and
/// the one re-running the cycle's plugins on the state the cycle read gives (`None` where there
/// is nothing to compare: the node was not evaluated, or its state could not be rebuilt). The
/// page shows the sentences; the cross-check (`Session::cross_check`) compares the verdicts.
pub struct ExplainedCell {
    pub explanation: Explanation,
    pub recorded: Option<CellVerdict>,
    pub replayed: Option<CellVerdict>,
}

/// A Filter row's verdict (the first plugin that rejected, or none), or a Score cell's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellVerdict {
    Filter(Option<PluginStatus>),
    Score { raw: i64, normalized: i64, weighted: i64 },
}

/// The sentence for a cell whose numbers cannot be recovered.
fn cannot_replay(node_name: &str) -> String {
    format!("The numbers behind this verdict could not be recovered: re-running the scenario did not reach this cycle with {node_name} in the cluster. This is a bug in schedlab; the verdict above is the one the scheduler recorded.")
}

/// The sentence for a cell whose replay disagrees with the record.
fn disagrees(what: &str) -> String {
    format!("Warning: re-running this cycle's plugins on the state it read gives {what}, not what the scheduler recorded. The recorded verdict above is the true one and the numbers here may be wrong; this is a bug in schedlab.")
}

impl ExplainedCell {
    /// Sentences with the verdicts beside them (the title is the caller's).
    fn new(lines: Vec<String>, recorded: Option<CellVerdict>, replayed: Option<CellVerdict>) -> ExplainedCell {
        ExplainedCell {
            explanation: Explanation {
                title: String::new(),
                lines,
            },
            recorded,
            replayed,
        }
    }
}

/// A cell answered in one sentence, with nothing to compare.
fn said(title: String, line: String) -> ExplainedCell {
    let mut cell = ExplainedCell::new(vec![line], None, None);
    cell.explanation.title = title;
    cell
}

/// The plugins of a profile at an extension point, in the profile's order.
pub(super) fn profile_plugins(s: &Session, profile: &str, point: ExtensionPoint) -> Vec<PluginName> {
    s.profile_plugins.get(profile).map(|p| p.list(point).to_vec()).unwrap_or_default()
}

pub(super) fn explain(s: &mut Session, cycle: u32, node: u32, plugin: &str, score: bool) -> ExplainedCell {
    let Some(ci) = s.cycles.get((cycle as usize).wrapping_sub(1)) else {
        return said("No such cycle".into(), format!("This run has no cycle {cycle}."));
    };
    let pod = ci.pod;
    let Some(node_name) = s.model.nodes.get(node as usize).map(|n| n.name.clone()) else {
        return said("No such node".into(), format!("This run has no node number {node}."));
    };
    // The cell of one plugin, or (empty name) the whole row.
    let which = match PluginName::parse(plugin) {
        _ if plugin.is_empty() => None,
        Some(p) => Some(p),
        None => return said(format!("{plugin} · {node_name}"), format!("There is no plugin named {plugin}.")),
    };
    let title = match (which, score) {
        (None, false) => format!("Filter · {node_name}"),
        (None, true) => format!("Score · {node_name}"),
        (Some(p), _) => format!("{} · {node_name}", p.as_str()),
    };
    if !s.node_order_at(cycle).contains(&node) {
        let earlier = s
            .node_orders
            .iter()
            .take_while(|(first, _)| *first <= cycle)
            .any(|(_, o)| o.contains(&node));
        let when = if earlier {
            "it had been deleted before"
        } else {
            "it was added to the cluster later"
        };
        return said(title, format!("{node_name} did not exist when cycle {cycle} ran: {when}."));
    }
    let (events, _) = s.cycle_events(cycle, true);
    let pod_key = s.model.pods[pod as usize].key();
    // The state the cycle read, rebuilt once per cycle.
    let cached = s.replay_cache.take();
    let mut replay = CycleReplay::at(s, cycle, &pod_key, cached);
    let mut cell = if score {
        explain_score(s, &events, node, &node_name, which, replay.as_mut())
    } else {
        explain_filter(s, &events, pod, &pod_key, node, &node_name, which, replay.as_mut())
    };
    s.replay_cache = replay;
    cell.explanation.title = title;
    cell
}

#[allow(clippy::too_many_arguments)]
fn explain_filter(
    s: &Session,
    events: &[TraceEvent],
    pod: u32,
    pod_key: &str,
    node: u32,
    node_name: &str,
    which: Option<PluginName>,
    mut state: Option<&mut CycleReplay>,
) -> ExplainedCell {
    let mut lines = Vec::new();
    let filter = events.iter().find_map(|e| match e {
        TraceEvent::Filter {
            verdicts,
            num_to_find,
            nominated_first,
            feasible,
            ..
        } => Some((verdicts, *num_to_find, *nominated_first, *feasible)),
        _ => None,
    });
    let (skipped, narrowed_to): (Vec<PluginName>, Option<Vec<String>>) = events
        .iter()
        .find_map(|e| match e {
            TraceEvent::PreFilter { skipped, narrowed_to, .. } => Some((skipped.clone(), narrowed_to.clone())),
            _ => None,
        })
        .unwrap_or_default();
    let Some((verdicts, num_to_find, nominated_first, feasible)) = filter else {
        lines.push("Filter did not run in this cycle (PreFilter rejected the pod for every node).".into());
        return ExplainedCell::new(lines, None, None);
    };
    let Some(verdicts) = verdicts else {
        lines.push("Per-node verdicts were not recorded for this cycle.".into());
        return ExplainedCell::new(lines, None, None);
    };
    let Some(v) = verdicts.iter().find(|v| v.node == node) else {
        lines.push(if narrowed_to.as_ref().is_some_and(|n| !n.iter().any(|x| x == node_name)) {
            format!("{node_name} was not evaluated: PreFilter narrowed this pod's candidates to other nodes, so Filter never looked at it.")
        } else if nominated_first {
            format!("{node_name} was not evaluated: the pod's nominated node was tried first and passed every filter, so no other node was needed.")
        } else if feasible < num_to_find {
            // Filtering stops short of the feasible nodes it wants only when a plugin errs.
            let message = events
                .iter()
                .find_map(|e| match e {
                    TraceEvent::KubeEvent { reason: EventReason::FailedScheduling, message, .. } => Some(message.as_str()),
                    _ => None,
                })
                .unwrap_or_default();
            format!(
                "{node_name} was not evaluated: a filter plugin returned an Error status on this node or one visited before it, and an error stops filtering at once: {message}"
            )
        } else {
            format!(
                "{node_name} was not evaluated: the scheduler stops filtering once it has found {num_to_find} feasible node(s) (percentageOfNodesToScore), and it had them before reaching this node."
            )
        });
        return ExplainedCell::new(lines, None, None);
    };
    let recorded = Some(CellVerdict::Filter(v.failed.clone()));
    let filter_plugins = profile_plugins(s, &s.model.pods[pod as usize].profile, ExtensionPoint::Filter);
    let failed_at = v.failed.as_ref().and_then(|f| filter_plugins.iter().position(|&p| p == f.plugin));
    // The row's verdict on the rebuilt state, compared with the record whatever the cell says.
    let replayed = state.as_mut().and_then(|r| r.filter_status(node_name)).map(|st| {
        CellVerdict::Filter((!st.is_success()).then(|| PluginStatus {
            plugin: st.plugin.unwrap_or(PluginName::PrioritySort),
            code: st.code,
            reasons: st.reasons.iter().map(|r| r.to_string()).collect(),
        }))
    });
    let cell = |lines: Vec<String>| ExplainedCell::new(lines, recorded.clone(), replayed.clone());
    if let Some(p) = which {
        if skipped.contains(&p) {
            lines.push(format!(
                "{} was skipped for {pod_key}: its PreFilter found nothing to check for this pod, so it passes every node.",
                p.as_str()
            ));
            return cell(lines);
        }
        let here = filter_plugins.iter().position(|&q| q == p);
        if let (Some(f), Some(h)) = (failed_at, here) {
            if h > f {
                lines.push(format!(
                    "{} did not run on {node_name}: {} had already rejected the node, and Filter stops at the first plugin that rejects.",
                    p.as_str(),
                    filter_plugins[f].as_str()
                ));
                return cell(lines);
            }
        }
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
    if replayed.is_some() && replayed != recorded {
        let what = match &replayed {
            Some(CellVerdict::Filter(Some(f))) => format!("a rejection by {}", f.plugin.as_str()),
            _ => "a pass".to_string(),
        };
        lines.push(disagrees(&what));
    }
    if let Some(explain) = subject.and_then(|p| IN_TREE.get(p).explain.filter) {
        let passed = rejected_here.is_none();
        let said = state.and_then(|r| r.with_ctx(node_name, |x| explain(x, passed)));
        lines.extend(said.unwrap_or_else(|| vec![cannot_replay(node_name)]));
    }
    cell(lines)
}

fn explain_score(
    s: &Session,
    events: &[TraceEvent],
    node: u32,
    node_name: &str,
    which: Option<PluginName>,
    mut state: Option<&mut CycleReplay>,
) -> ExplainedCell {
    let mut lines = Vec::new();
    let score = events.iter().find_map(|e| match e {
        TraceEvent::Score { table, selected, tied, .. } => Some((table, *selected, tied.clone())),
        _ => None,
    });
    let Some((Some(t), selected, tied)) = score else {
        lines.push("No score table for this cycle (a single feasible node is chosen without scoring).".into());
        return ExplainedCell::new(lines, None, None);
    };
    let Some(k) = t.nodes.iter().position(|&n| n == node) else {
        lines.push(format!(
            "{node_name} was not scored: it did not pass Filter (or was not evaluated)."
        ));
        return ExplainedCell::new(lines, None, None);
    };
    let name_of = |n: u32| s.model.nodes.get(n as usize).map(|m| m.name.as_str()).unwrap_or("");
    let sel_name = name_of(selected);
    let Some(plugin) = which else {
        let parts: Vec<String> = t
            .plugins
            .iter()
            .map(|p| format!("{} {}×{}", p.plugin.as_str(), p.normalized[k], p.weight))
            .collect();
        lines.push(format!("Total for {node_name}: {} = {}.", parts.join(" + "), t.totals[k]));
        let max = t.totals.iter().copied().max().unwrap_or(0);
        if tied.len() > 1 && tied.contains(node) {
            let names: Vec<&str> = tied.iter().map(name_of).collect();
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
        return ExplainedCell::new(lines, None, None);
    };
    let Some(row) = t.plugins.iter().find(|p| p.plugin == plugin) else {
        lines.push(format!(
            "{} did not score this pod (skipped at PreScore or not enabled).",
            plugin.as_str()
        ));
        return ExplainedCell::new(lines, None, None);
    };
    let (raw, norm, w) = (row.raw[k], row.normalized[k], row.weight);
    let recorded = Some(CellVerdict::Score {
        raw,
        normalized: norm,
        weighted: norm * w,
    });
    lines.push(format!(
        "{} gave {node_name} a raw score of {raw}; after NormalizeScore {norm}; × weight {w} = {}.",
        plugin.as_str(),
        norm * w
    ));
    // The scored nodes by name, in the table's order.
    let names: Vec<String> = t.nodes.iter().map(|&n| name_of(n).to_string()).collect();
    let replayed = state.as_mut().and_then(|r| r.scores(&names)).map(|sr| {
        match sr.plugins.iter().find(|p| p.plugin == plugin) {
            Some(p) => CellVerdict::Score {
                raw: p.raw[k],
                normalized: p.normalized[k],
                weighted: p.normalized[k] * p.weight,
            },
            // Skipped at PreScore on the rebuilt state: no numbers (never what was recorded).
            None => CellVerdict::Score {
                raw: -1,
                normalized: -1,
                weighted: -1,
            },
        }
    });
    if replayed.is_some() && replayed != recorded {
        let what = match &replayed {
            Some(CellVerdict::Score { raw: -1, .. }) => format!("no score from {}", plugin.as_str()),
            Some(CellVerdict::Score { raw, normalized, .. }) => format!("raw {raw}, normalized {normalized}"),
            _ => String::new(),
        };
        lines.push(disagrees(&what));
    }
    let mut normalization = None;
    if t.plugins.len() <= ROW_LIMIT {
        if let Some(explain) = IN_TREE.get(plugin).explain.score {
            let said = state.and_then(|r| {
                let e = &r.engine;
                // Where each scored node sits in the snapshot the cycle read.
                let scored: Vec<u32> = names
                    .iter()
                    .map(|n| e.snapshot.position(n).map_or(u32::MAX, |p| p as u32))
                    .collect();
                let cell = ScoreCell {
                    scored: &scored,
                    names: &names,
                    raw: &row.raw,
                    normalized: &row.normalized,
                    k,
                };
                r.with_ctx(node_name, |x| explain(x, &cell))
            });
            match said {
                Some(said) => {
                    lines.extend(said.lines);
                    normalization = said.normalization;
                }
                None => lines.push(cannot_replay(node_name)),
            }
        }
    }
    lines.push(normalization.unwrap_or_else(|| generic_normalization(row, k)));
    lines.retain(|l| !l.is_empty());
    ExplainedCell::new(lines, recorded, replayed)
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
