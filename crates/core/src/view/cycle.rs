//! The cycle as a stop shows it (`CycleView`): the pipeline of extension points, the filter
//! matrix, the preemption, the score table, built from the cycle's events. One reducer per
//! extension point folds its event into the view (`CycleBuilder`); `finish` lights the pipeline.

use super::stops::CycleInfo;
use super::*;
use crate::framework::{Code, PreemptionDetail};
use crate::trace::{NodeRuns, NodeVerdict, PluginStatus, ScoreTable};
use crate::vocabulary::{ExtensionPoint, PluginName};

impl Session {
    pub(super) fn cycle_view(&mut self, st: Stop, want_detail: bool) -> CycleView {
        let c = st.cycle;
        let (events, base) = self.cycle_events(c, want_detail);
        let upto = (st.pos as usize).saturating_sub(base).min(events.len());
        let (pod, profile, attempt, time_ms) = match &events[0] {
            TraceEvent::CycleStart {
                pod,
                profile,
                attempt,
                time_ms,
                ..
            } => (*pod, profile.clone(), *attempt, *time_ms),
            _ => (0, String::new(), 0, 0),
        };
        let info = (c as usize).checked_sub(1).and_then(|i| self.cycles.get(i));
        let mut b = CycleBuilder::new(self, st, pod, profile, attempt, time_ms, info);
        for ev in &events[..upto] {
            match ev {
                TraceEvent::PreFilter {
                    results,
                    skipped,
                    narrowed_to,
                    ..
                } => b.pre_filter(results, skipped, narrowed_to),
                TraceEvent::Filter {
                    start_index,
                    num_to_find,
                    evaluated,
                    feasible,
                    nominated_first,
                    verdicts,
                    ..
                } => b.filter(
                    FilterCounts {
                        start_index: *start_index,
                        num_to_find: *num_to_find,
                        evaluated: *evaluated,
                        feasible: *feasible,
                        nominated_first: *nominated_first,
                    },
                    verdicts.as_deref(),
                ),
                TraceEvent::PostFilter {
                    code,
                    message,
                    nominated_node,
                    preemption,
                    ..
                } => b.post_filter(*code, message, nominated_node, preemption.as_deref()),
                TraceEvent::PreScore { skipped, .. } => b.pre_score(skipped),
                TraceEvent::Score { table, selected, tied, .. } => b.score(table.as_deref(), *selected, tied),
                TraceEvent::Reserve { code, node, .. } => b.reserve(*code, *node),
                TraceEvent::Permit { code, .. } => b.point("Permit", *code),
                TraceEvent::PreBind { code, .. } => b.point("PreBind", *code),
                TraceEvent::Bind { node, plugin, .. } => b.bind(*node, *plugin),
                TraceEvent::PostBind { .. } => b.post_bind(),
                TraceEvent::KubeEvent {
                    reason, message, pod: p, ..
                } if *p == pod => b.kube_event(*reason, message),
                TraceEvent::CycleEnd { outcome, .. } => b.cycle_end(*outcome),
                _ => {}
            }
        }
        b.finish()
    }
}

/// The Filter event's numbers.
struct FilterCounts {
    start_index: u32,
    num_to_find: u32,
    evaluated: u32,
    feasible: u32,
    nominated_first: bool,
}

/// A cycle's view being built, event by event.
struct CycleBuilder<'a> {
    model: &'a Model,
    /// The nodes that existed in this cycle, in visiting order (trace-header indices).
    order: &'a [u32],
    pod_index: &'a HashMap<String, u32>,
    stage: Stage,
    /// What the cycle's bookkeeping says it did (a preemption's marker).
    marker: Option<Marker>,
    filter_plugins: Vec<String>,
    score_plugins: Vec<String>,
    weights: HashMap<&'a str, i32>,
    view: CycleView,
    /// Each extension point reached: its state and note.
    reached: BTreeMap<&'static str, (PointState, Option<String>)>,
    pre_skipped_score: Vec<String>,
    last_point: &'static str,
}

impl<'a> CycleBuilder<'a> {
    fn new(s: &'a Session, st: Stop, pod: u32, profile: String, attempt: u32, time_ms: i64, info: Option<&CycleInfo>) -> Self {
        let model = &s.model;
        let prof = model.profiles.iter().find(|p| p.name == profile);
        // The profile's plugins as the frameworks ran them (not the model's text read back).
        let plugins_at = |point: ExtensionPoint| -> Vec<String> {
            super::explain::profile_plugins(s, &profile, point)
                .into_iter()
                .map(|n| n.as_str().to_string())
                .collect()
        };
        let filter_plugins = plugins_at(ExtensionPoint::Filter);
        let score_plugins = plugins_at(ExtensionPoint::Score);
        let weights: HashMap<&str, i32> = prof
            .map(|p| p.weights.iter().map(|(k, v)| (k.as_str(), *v)).collect())
            .unwrap_or_default();
        let view = CycleView {
            cycle: st.cycle,
            pod,
            profile,
            attempt,
            time_ms,
            stage: st.stage,
            pipeline: Vec::new(),
            pre_filter: None,
            filter: None,
            post_filter: None,
            score: None,
            node: None,
            message: None,
            scheduled: None,
            backoff_left_ms: info.and_then(|ci| ci.backoff_left_ms),
            outcome: None,
        };
        let mut reached: BTreeMap<&'static str, (PointState, Option<String>)> = BTreeMap::new();
        reached.insert("PreEnqueue", (PointState::Passed, None));
        reached.insert(
            "QueueSort",
            (
                PointState::Passed,
                Some(format!("popped (priority {})", model.pods[pod as usize].priority)),
            ),
        );
        CycleBuilder {
            model,
            order: s.node_order_at(st.cycle),
            pod_index: &s.pod_index,
            stage: st.stage,
            marker: info.map(|ci| ci.marker),
            filter_plugins,
            score_plugins,
            weights,
            view,
            reached,
            pre_skipped_score: Vec::new(),
            last_point: "QueueSort",
        }
    }

    fn pre_filter(&mut self, results: &[PluginStatus], skipped: &[PluginName], narrowed_to: &Option<Vec<String>>) {
        let failed = results.first();
        self.view.pre_filter = Some(PreFilterView {
            failed_plugin: failed.map(|s| s.plugin.as_str().to_string()),
            code: failed.map(|s| s.code.as_str().to_string()),
            reasons: failed.map(|s| s.reasons.clone()).unwrap_or_default(),
            skipped: skipped.iter().map(|p| p.as_str().to_string()).collect(),
            narrowed_to: narrowed_to.clone(),
        });
        let note = match (failed, narrowed_to) {
            (Some(s), _) => Some(format!("{}: {}", s.plugin.as_str(), s.reasons.join(", "))),
            (None, Some(n)) => Some(format!("narrowed to {} node{}", n.len(), if n.len() == 1 { "" } else { "s" })),
            _ => None,
        };
        let state = if failed.is_some() { PointState::Failed } else { PointState::Passed };
        self.reached.insert("PreFilter", (state, note));
        self.last_point = "PreFilter";
    }

    fn filter(&mut self, n: FilterCounts, verdicts: Option<&[NodeVerdict]>) {
        let model = self.model;
        let pf = self.view.pre_filter.as_ref();
        let skipped = pf.map(|p| p.skipped.clone()).unwrap_or_default();
        let narrowed_to = pf.and_then(|p| p.narrowed_to.clone());
        let mut rows = Vec::new();
        let mut seen = vec![false; model.nodes.len()];
        if let Some(vs) = verdicts {
            for (k, v) in vs.iter().enumerate() {
                if let Some(x) = seen.get_mut(v.node as usize) {
                    *x = true;
                }
                let failed_at = v
                    .failed
                    .as_ref()
                    .and_then(|s| self.filter_plugins.iter().position(|p| p == s.plugin.as_str()).map(|i| i as u32));
                rows.push(FilterRow {
                    node: v.node,
                    failed_at,
                    code: v.failed.as_ref().map(|s| s.code.as_str().to_string()),
                    reasons: v.failed.as_ref().map(|s| s.reasons.clone()).unwrap_or_default(),
                    visit: Some(k as u32),
                    feasible: v.failed.is_none(),
                    note: None,
                });
            }
            // The others that existed in this cycle, in visiting order from the start index
            // (a position in the order of this cycle's nodes).
            let order = self.order;
            let count = order.len();
            for k in 0..count {
                let idx = order[(n.start_index as usize + k) % count] as usize;
                if seen.get(idx).is_none_or(|&s| s) {
                    continue;
                }
                let name = &model.nodes[idx].name;
                let excluded = narrowed_to.as_ref().is_some_and(|v| !v.contains(name));
                rows.push(FilterRow {
                    node: idx as u32,
                    failed_at: None,
                    code: None,
                    reasons: Vec::new(),
                    visit: None,
                    feasible: false,
                    note: Some(if excluded {
                        "excluded by PreFilter".to_string()
                    } else if n.nominated_first {
                        "not evaluated: the nominated node passed".to_string()
                    } else {
                        "not evaluated: enough feasible nodes were found".to_string()
                    }),
                });
            }
        }
        let rows_total = rows.len() as u32;
        let detail = verdicts.is_some();
        rows.truncate(ROW_LIMIT);
        let note = Some(format!(
            "{} of {} evaluated node{} feasible",
            n.feasible,
            n.evaluated,
            if n.evaluated == 1 { "" } else { "s" }
        ));
        let state = if n.feasible > 0 { PointState::Passed } else { PointState::Failed };
        self.reached.insert("Filter", (state, note));
        self.last_point = "Filter";
        self.view.filter = Some(FilterView {
            plugins: self.filter_plugins.clone(),
            skipped,
            start_index: n.start_index,
            num_to_find: n.num_to_find,
            evaluated: n.evaluated,
            feasible: n.feasible,
            nominated_first: n.nominated_first,
            detail,
            rows,
            rows_total,
            narrowed_to,
        });
    }

    fn post_filter(&mut self, code: Code, message: &str, nominated_node: &Option<String>, preemption: Option<&PreemptionDetail>) {
        let chosen = preemption.and_then(|p| p.chosen.clone());
        let candidates = preemption
            .map(|p| {
                p.candidates
                    .iter()
                    .map(|c| {
                        let mut victims = Vec::new();
                        let mut other = Vec::new();
                        for v in &c.victims {
                            match self.pod_index.get(v) {
                                Some(&i) => victims.push(i),
                                None => other.push(v.clone()),
                            }
                        }
                        CandidateView {
                            node: c.node.clone(),
                            victims,
                            other_victims: other,
                            pdb_violations: c.num_pdb_violations,
                            chosen: chosen.as_deref() == Some(c.node.as_str()),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let ok = nominated_node.as_deref().is_some_and(|n| !n.is_empty());
        self.reached.insert(
            "PostFilter",
            (
                if ok { PointState::Passed } else { PointState::Failed },
                Some(if ok {
                    format!("preempt on {}", nominated_node.as_deref().unwrap_or(""))
                } else if message.is_empty() {
                    code.as_str().to_string()
                } else {
                    message.to_string()
                }),
            ),
        );
        self.last_point = "PostFilter";
        self.view.post_filter = Some(PostFilterView {
            code: code.as_str().to_string(),
            message: message.to_string(),
            nominated_node: nominated_node.clone(),
            candidates,
            chosen,
            decided_by: preemption.and_then(|p| p.rule).map(|r| r.sentence().to_string()),
        });
    }

    fn pre_score(&mut self, skipped: &[PluginName]) {
        self.pre_skipped_score = skipped.iter().map(|p| p.as_str().to_string()).collect();
        self.reached.insert("PreScore", (PointState::Passed, None));
        self.last_point = "PreScore";
    }

    fn score(&mut self, table: Option<&ScoreTable>, selected: u32, tied: &NodeRuns) {
        let view = &self.view;
        let single = view.filter.as_ref().is_some_and(|f| f.feasible == 1) || view.filter.is_none();
        let mut sv = ScoreView {
            plugins: Vec::new(),
            skipped: self.pre_skipped_score.clone(),
            rows: Vec::new(),
            rows_total: 0,
            selected,
            tied: tied.to_vec(),
            detail: table.is_some(),
            single_feasible: single && table.is_none(),
        };
        if let Some(t) = table {
            sv.plugins = t.plugins.iter().map(|p| (p.plugin.as_str().to_string(), p.weight)).collect();
            let mut rows: Vec<ScoreRow> = t
                .nodes
                .iter()
                .enumerate()
                .map(|(k, &n)| ScoreRow {
                    node: n,
                    raw: t.plugins.iter().map(|p| p.raw[k]).collect(),
                    normalized: t.plugins.iter().map(|p| p.normalized[k]).collect(),
                    weighted: t.plugins.iter().map(|p| p.normalized[k] * p.weight).collect(),
                    total: t.totals[k],
                    selected: n == selected,
                    tied: tied.len() > 1 && tied.contains(n),
                })
                .collect();
            sv.rows_total = rows.len() as u32;
            if rows.len() > ROW_LIMIT {
                // Keep the best-scored rows (the winner and ties among them).
                crate::sort::sort_by_key(&mut rows, |r| std::cmp::Reverse(r.total));
                rows.truncate(ROW_LIMIT);
            }
            sv.rows = rows;
        } else if view.filter.is_some() {
            sv.plugins = self
                .score_plugins
                .iter()
                .map(|p| {
                    let w = self.weights.get(p.as_str()).copied().unwrap_or(1) as i64;
                    (p.clone(), w)
                })
                .collect();
        }
        let note = if sv.single_feasible {
            Some("one feasible node: scoring skipped".to_string())
        } else {
            Some(format!("best: {}", self.model.nodes[selected as usize].name))
        };
        if sv.single_feasible {
            self.reached
                .insert("PreScore", (PointState::NotRun, Some("one feasible node".into())));
            self.reached.insert("Score", (PointState::NotRun, note));
            self.reached.insert("NormalizeScore", (PointState::NotRun, None));
        } else {
            self.reached.insert("Score", (PointState::Passed, note));
            self.reached.insert("NormalizeScore", (PointState::Passed, None));
        }
        self.last_point = if self.stage == Stage::Score { "Score" } else { "NormalizeScore" };
        self.view.node = Some(selected);
        self.view.score = Some(sv);
    }

    fn reserve(&mut self, code: Code, node: u32) {
        self.view.node = Some(node);
        self.point("Reserve", code);
    }

    /// Reserve, Permit, PreBind: passed or failed by their code.
    fn point(&mut self, point: &'static str, code: Code) {
        self.reached.insert(point, (code_state(code), None));
        self.last_point = point;
    }

    fn bind(&mut self, node: u32, plugin: Option<PluginName>) {
        self.reached.insert(
            "Bind",
            (
                PointState::Passed,
                Some(format!(
                    "{} → {}",
                    plugin.map(|p| p.as_str()).unwrap_or("bound"),
                    self.model.nodes[node as usize].name
                )),
            ),
        );
        self.last_point = "Bind";
    }

    fn post_bind(&mut self) {
        self.reached.insert("PostBind", (PointState::Passed, None));
        self.last_point = "PostBind";
    }

    /// The cycle's pod's FailedScheduling or Scheduled event.
    fn kube_event(&mut self, reason: EventReason, message: &str) {
        match reason {
            EventReason::FailedScheduling => self.view.message = Some(message.to_string()),
            EventReason::Scheduled => self.view.scheduled = Some(message.to_string()),
            EventReason::Preempted => {}
        }
    }

    fn cycle_end(&mut self, outcome: CycleOutcome) {
        self.view.outcome = Some(match outcome {
            CycleOutcome::Bound => Marker::Bound,
            CycleOutcome::Error => Marker::Error,
            CycleOutcome::Unschedulable => {
                if self.marker == Some(Marker::Preempted) {
                    Marker::Preempted
                } else {
                    Marker::Unschedulable
                }
            }
        });
    }

    /// The pipeline: the current point is lit; a later stage (failure handling, eviction,
    /// done) lights none.
    fn finish(mut self) -> CycleView {
        let current: Option<&str> = match self.stage {
            Stage::QueueSort => Some("QueueSort"),
            Stage::Failed | Stage::Evict | Stage::Done | Stage::Quiet | Stage::Ready => None,
            _ => Some(self.last_point),
        };
        let over = matches!(self.stage, Stage::Failed | Stage::Evict | Stage::Done);
        const POINTS: [&str; 13] = [
            "PreEnqueue",
            "QueueSort",
            "PreFilter",
            "Filter",
            "PostFilter",
            "PreScore",
            "Score",
            "NormalizeScore",
            "Reserve",
            "Permit",
            "PreBind",
            "Bind",
            "PostBind",
        ];
        self.view.pipeline = POINTS
            .iter()
            .map(|&p| {
                let (state, note) = match self.reached.get(p) {
                    Some((s, n)) if Some(p) == current && *s == PointState::Passed => (PointState::Current, n.clone()),
                    Some((s, n)) => (s.clone(), n.clone()),
                    None if over => (PointState::NotRun, None),
                    None => (PointState::Pending, None),
                };
                PipelineStep {
                    point: p.to_string(),
                    state,
                    note,
                }
            })
            .collect();
        self.view
    }
}

fn code_state(c: Code) -> PointState {
    match c {
        Code::Success | Code::Skip | Code::Wait => PointState::Passed,
        _ => PointState::Failed,
    }
}
