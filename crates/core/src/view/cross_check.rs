//! Every cell of a run explained and held against the trace: for each cycle, each node that
//! existed in it and each Filter and Score plugin of the pod's profile (and the whole rows), the
//! explanation must name the node asked, repeat the verdict the scheduler recorded, and agree
//! with what re-running the cycle's plugins on the rebuilt state gives; the cycle's filter
//! matrix must list exactly the nodes that existed. The test suite runs it over every corpus
//! scenario and preset (`tests/explain_cross_check.rs`); `schedlab explain --check` prints it.

use super::explain::{profile_plugins, CellVerdict};
use super::{Session, Stage, ROW_LIMIT};
use crate::trace::TraceEvent;
use crate::vocabulary::{ExtensionPoint, PluginName};
use std::collections::BTreeSet;

/// What `Session::cross_check` found.
#[derive(Debug, Default)]
pub struct CrossCheck {
    /// Cells explained (a whole row counts as one cell).
    pub cells: u64,
    /// Cells whose explanation was compared with a recomputed verdict.
    pub compared: u64,
    /// One line per disagreement: cycle, node, plugin and what differed.
    pub failures: Vec<String>,
}

impl Session {
    /// Explains every Filter and Score cell of every cycle and checks each against the trace
    /// (see the module's comment). Costs one re-run of the scenario per cycle.
    pub fn cross_check(&mut self) -> CrossCheck {
        let mut out = CrossCheck::default();
        for c in 1..=self.cycles.len() as u32 {
            self.cross_check_cycle(c, &mut out);
        }
        out
    }

    fn cross_check_cycle(&mut self, c: u32, out: &mut CrossCheck) {
        let pod = self.cycles[c as usize - 1].pod;
        let profile = self.model.pods[pod as usize].profile.clone();
        let filter_plugins = profile_plugins(self, &profile, ExtensionPoint::Filter);
        let score_plugins = profile_plugins(self, &profile, ExtensionPoint::Score);
        let order: Vec<u32> = self.node_order_at(c).to_vec();
        let (events, _) = self.cycle_events(c, true);
        let verdicts = events.iter().find_map(|e| match e {
            TraceEvent::Filter { verdicts: Some(v), .. } => Some(v.clone()),
            _ => None,
        });
        let skipped: Vec<PluginName> = events
            .iter()
            .find_map(|e| match e {
                TraceEvent::PreFilter { skipped, .. } => Some(skipped.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let table = events.iter().find_map(|e| match e {
            TraceEvent::Score { table: Some(t), .. } => Some(crate::trace::ScoreTable::clone(t)),
            _ => None,
        });
        let mut failures = Vec::new();
        let mut fail = |what: String| failures.push(format!("cycle {c}: {what}"));

        // The filter matrix lists exactly the nodes that existed in this cycle.
        if let Some(cv) = self.last_stop_of(c).map(|st| self.cycle_view(st, true)) {
            if let Some(f) = cv.filter.filter(|f| f.detail && (f.rows_total as usize) <= ROW_LIMIT) {
                let listed: BTreeSet<u32> = crate::sort::set_of(f.rows.iter().map(|r| r.node));
                let existed: BTreeSet<u32> = crate::sort::set_of(order.iter().copied());
                if listed != existed {
                    let names =
                        |s: &BTreeSet<u32>| -> Vec<String> { s.iter().map(|&n| self.model.nodes[n as usize].name.clone()).collect() };
                    fail(format!(
                        "the filter matrix lists {:?}, but the nodes that existed were {:?}",
                        names(&listed),
                        names(&existed)
                    ));
                }
            }
        }

        for &node in &order {
            let name = self.model.nodes[node as usize].name.clone();
            let verdict = verdicts.as_ref().and_then(|vs| vs.iter().find(|v| v.node == node));
            let scored = table.as_ref().and_then(|t| t.nodes.iter().position(|&n| n == node));
            let rows = std::iter::once(None).chain(filter_plugins.iter().copied().map(Some));
            for plugin in rows {
                let cell = self.explain_cell(c, node, plugin.map_or("", PluginName::as_str), false);
                out.cells += 1;
                let label = format!("{name} Filter {}", plugin.map_or("(row)", PluginName::as_str));
                let x = &cell.explanation;
                if !x.title.ends_with(&format!("· {name}")) {
                    fail(format!("{label}: the title {:?} does not name the node", x.title));
                }
                let Some(v) = verdict else {
                    continue;
                };
                if cell.recorded.as_ref() != Some(&CellVerdict::Filter(v.failed.clone())) {
                    fail(format!(
                        "{label}: the explanation read {:?}, the trace has {:?}",
                        cell.recorded, v.failed
                    ));
                }
                match &cell.replayed {
                    None => fail(format!("{label}: the cycle's state could not be rebuilt")),
                    Some(r) if cell.recorded.as_ref() != Some(r) => {
                        fail(format!("{label}: re-running the plugins gives {r:?}, the trace has {:?}", v.failed))
                    }
                    Some(_) => out.compared += 1,
                }
                // The first sentence says the recorded verdict of this cell.
                let first = x.lines.first().map(String::as_str).unwrap_or("");
                let expected = match (&v.failed, plugin) {
                    (Some(f), None) => format!("{} rejected {name} (", f.plugin.as_str()),
                    (Some(f), Some(p)) if f.plugin == p => format!("{} rejected {name} (", p.as_str()),
                    (None, None) => format!("{name} passed every filter plugin"),
                    (_, Some(p)) if skipped.contains(&p) => format!("{} was skipped for", p.as_str()),
                    (_, Some(p)) => {
                        let ran_after = v.failed.as_ref().and_then(|f| {
                            let at = |q| filter_plugins.iter().position(|&x| x == q);
                            Some(at(p)? > at(f.plugin)?)
                        });
                        if ran_after == Some(true) {
                            format!("{} did not run on {name}", p.as_str())
                        } else {
                            format!("{} passed {name}.", p.as_str())
                        }
                    }
                };
                if !first.starts_with(&expected) {
                    fail(format!("{label}: the first sentence {first:?} does not say {expected:?}"));
                }
            }
            let (Some(t), Some(k)) = (&table, scored) else {
                continue;
            };
            let rows = std::iter::once(None).chain(score_plugins.iter().copied().map(Some));
            for plugin in rows {
                let cell = self.explain_cell(c, node, plugin.map_or("", PluginName::as_str), true);
                out.cells += 1;
                let label = format!("{name} Score {}", plugin.map_or("(row)", PluginName::as_str));
                let x = &cell.explanation;
                if !x.title.ends_with(&format!("· {name}")) {
                    fail(format!("{label}: the title {:?} does not name the node", x.title));
                }
                let first = x.lines.first().map(String::as_str).unwrap_or("");
                let Some(p) = plugin else {
                    let expected = format!("Total for {name}: ");
                    if !first.starts_with(&expected) || !first.ends_with(&format!(" = {}.", t.totals[k])) {
                        fail(format!(
                            "{label}: the first sentence {first:?} does not give the total {}",
                            t.totals[k]
                        ));
                    }
                    continue;
                };
                let Some(row) = t.plugins.iter().find(|r| r.plugin == p) else {
                    continue;
                };
                let want = CellVerdict::Score {
                    raw: row.raw[k],
                    normalized: row.normalized[k],
                    weighted: row.normalized[k] * row.weight,
                };
                if cell.recorded.as_ref() != Some(&want) {
                    fail(format!("{label}: the explanation read {:?}, the trace has {want:?}", cell.recorded));
                }
                match &cell.replayed {
                    None => fail(format!("{label}: the cycle's state could not be rebuilt")),
                    Some(r) if *r != want => fail(format!("{label}: re-running the plugins gives {r:?}, the trace has {want:?}")),
                    Some(_) => out.compared += 1,
                }
                let expected = format!(
                    "{} gave {name} a raw score of {}; after NormalizeScore {}; × weight {} = {}.",
                    p.as_str(),
                    row.raw[k],
                    row.normalized[k],
                    row.weight,
                    row.normalized[k] * row.weight
                );
                if first != expected {
                    fail(format!("{label}: the first sentence {first:?} is not {expected:?}"));
                }
            }
        }
        out.failures.extend(failures);
    }

    /// The last stop of cycle `c` (its whole story, filter matrix and score table included).
    fn last_stop_of(&self, c: u32) -> Option<super::Stop> {
        let first = self.cycle_stop(c)? as usize;
        let end = self.cycle_stop(c + 1).map_or(self.stops.len(), |s| s as usize);
        self.stops[first..end]
            .iter()
            .rev()
            .find(|st| st.cycle == c && !matches!(st.stage, Stage::Quiet | Stage::Ready | Stage::Change))
            .copied()
    }
}
