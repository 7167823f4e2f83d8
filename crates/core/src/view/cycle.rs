//! The cycle as a stop shows it (`CycleView`): the pipeline of extension points, the filter
//! matrix, the preemption, the score table, built from the cycle's events.

use super::*;

impl Session {
    pub(super) fn cycle_view(&mut self, st: Stop, want_detail: bool) -> CycleView {
        let c = st.cycle;
        let (events, base) = self.cycle_events(c, want_detail);
        let upto = (st.pos as usize).saturating_sub(base).min(events.len());
        let model = &self.model;
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
        let prof = model.profiles.iter().find(|p| p.name == profile);
        let plugins_at = |point: &str| -> Vec<String> {
            prof.and_then(|p| p.points.iter().find(|(n, _)| n == point))
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let filter_plugins = plugins_at("Filter");
        let weights: HashMap<&str, i32> = prof
            .map(|p| p.weights.iter().map(|(k, v)| (k.as_str(), *v)).collect())
            .unwrap_or_default();

        let mut view = CycleView {
            cycle: c,
            pod,
            profile: profile.clone(),
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
            backoff_left_ms: (c as usize)
                .checked_sub(1)
                .and_then(|i| self.cycles.get(i))
                .and_then(|ci| ci.backoff_left_ms),
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
        let mut pre_skipped_score: Vec<String> = Vec::new();
        let mut last_point: &'static str = "QueueSort";
        for ev in &events[..upto] {
            match ev {
                TraceEvent::PreFilter {
                    results,
                    skipped,
                    narrowed_to,
                    ..
                } => {
                    let failed = results.first();
                    view.pre_filter = Some(PreFilterView {
                        failed_plugin: failed.map(|s| s.plugin.as_str().to_string()),
                        code: failed.map(|s| s.code.as_str().to_string()),
                        reasons: failed.map(|s| s.reasons.clone()).unwrap_or_default(),
                        skipped: skipped.iter().map(|p| p.as_str().to_string()).collect(),
                        narrowed_to: narrowed_to.clone(),
                    });
                    let note = match (failed, narrowed_to) {
                        (Some(s), _) => Some(format!("{}: {}", s.plugin.as_str(), s.reasons.join(", "))),
                        (None, Some(n)) => Some(format!("narrowed to {} node(s)", n.len())),
                        _ => None,
                    };
                    let state = if failed.is_some() { PointState::Failed } else { PointState::Passed };
                    reached.insert("PreFilter", (state, note));
                    last_point = "PreFilter";
                }
                TraceEvent::Filter {
                    start_index,
                    num_to_find,
                    evaluated,
                    feasible,
                    nominated_first,
                    verdicts,
                    ..
                } => {
                    let pf = view.pre_filter.as_ref();
                    let skipped = pf.map(|p| p.skipped.clone()).unwrap_or_default();
                    let narrowed_to = pf.and_then(|p| p.narrowed_to.clone());
                    let mut rows = Vec::new();
                    let mut seen = vec![false; model.nodes.len()];
                    if let Some(vs) = verdicts {
                        for (k, v) in vs.iter().enumerate() {
                            seen[v.node as usize] = true;
                            let failed_at = v
                                .failed
                                .as_ref()
                                .and_then(|s| filter_plugins.iter().position(|p| p == s.plugin.as_str()).map(|i| i as u32));
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
                        // The others, in visiting order from the start index.
                        let n = model.nodes.len();
                        for k in 0..n {
                            let idx = (*start_index as usize + k) % n.max(1);
                            if seen[idx] {
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
                                } else if *nominated_first {
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
                    let note = Some(format!("{feasible} of {evaluated} evaluated node(s) feasible"));
                    let state = if *feasible > 0 { PointState::Passed } else { PointState::Failed };
                    reached.insert("Filter", (state, note));
                    last_point = "Filter";
                    view.filter = Some(FilterView {
                        plugins: filter_plugins.clone(),
                        skipped,
                        start_index: *start_index,
                        num_to_find: *num_to_find,
                        evaluated: *evaluated,
                        feasible: *feasible,
                        nominated_first: *nominated_first,
                        detail,
                        rows,
                        rows_total,
                        narrowed_to,
                    });
                }
                TraceEvent::PostFilter {
                    code,
                    message,
                    nominated_node,
                    preemption,
                    ..
                } => {
                    let chosen = preemption.as_ref().and_then(|p| p.chosen.clone());
                    let candidates = preemption
                        .as_ref()
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
                    reached.insert(
                        "PostFilter",
                        (
                            if ok { PointState::Passed } else { PointState::Failed },
                            Some(if ok {
                                format!("preempt on {}", nominated_node.as_deref().unwrap_or(""))
                            } else if message.is_empty() {
                                code.as_str().to_string()
                            } else {
                                message.clone()
                            }),
                        ),
                    );
                    last_point = "PostFilter";
                    view.post_filter = Some(PostFilterView {
                        code: code.as_str().to_string(),
                        message: message.clone(),
                        nominated_node: nominated_node.clone(),
                        candidates,
                        chosen,
                        decided_by: preemption.as_ref().and_then(|p| p.rule).map(|r| r.sentence().to_string()),
                    });
                }
                TraceEvent::PreScore { skipped, .. } => {
                    pre_skipped_score = skipped.iter().map(|p| p.as_str().to_string()).collect();
                    reached.insert("PreScore", (PointState::Passed, None));
                    last_point = "PreScore";
                }
                TraceEvent::Score { table, selected, tied, .. } => {
                    let single = view.filter.as_ref().is_some_and(|f| f.feasible == 1) || view.filter.is_none();
                    let mut sv = ScoreView {
                        plugins: Vec::new(),
                        skipped: pre_skipped_score.clone(),
                        rows: Vec::new(),
                        rows_total: 0,
                        selected: *selected,
                        tied: tied.clone(),
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
                                selected: n == *selected,
                                tied: tied.len() > 1 && tied.contains(&n),
                            })
                            .collect();
                        sv.rows_total = rows.len() as u32;
                        if rows.len() > ROW_LIMIT {
                            // Keep the best-scored rows (the winner and ties among them).
                            rows.sort_by_key(|r| std::cmp::Reverse(r.total));
                            rows.truncate(ROW_LIMIT);
                        }
                        sv.rows = rows;
                    } else if let Some(f) = &view.filter {
                        let _ = f;
                        sv.plugins = plugins_at("Score")
                            .into_iter()
                            .map(|p| {
                                let w = weights.get(p.as_str()).copied().unwrap_or(1) as i64;
                                (p, w)
                            })
                            .collect();
                    }
                    let note = if sv.single_feasible {
                        Some("one feasible node: scoring skipped".to_string())
                    } else {
                        Some(format!("best: {}", model.nodes[*selected as usize].name))
                    };
                    if sv.single_feasible {
                        reached.insert("PreScore", (PointState::NotRun, Some("one feasible node".into())));
                        reached.insert("Score", (PointState::NotRun, note));
                        reached.insert("NormalizeScore", (PointState::NotRun, None));
                    } else {
                        reached.insert("Score", (PointState::Passed, note));
                        reached.insert("NormalizeScore", (PointState::Passed, None));
                    }
                    last_point = if st.stage == Stage::Score { "Score" } else { "NormalizeScore" };
                    view.node = Some(*selected);
                    view.score = Some(sv);
                }
                TraceEvent::Reserve { code, node, .. } => {
                    view.node = Some(*node);
                    reached.insert("Reserve", (code_state(*code), None));
                    last_point = "Reserve";
                }
                TraceEvent::Permit { code, .. } => {
                    reached.insert("Permit", (code_state(*code), None));
                    last_point = "Permit";
                }
                TraceEvent::PreBind { code, .. } => {
                    reached.insert("PreBind", (code_state(*code), None));
                    last_point = "PreBind";
                }
                TraceEvent::Bind { node, plugin, .. } => {
                    reached.insert(
                        "Bind",
                        (
                            PointState::Passed,
                            Some(format!(
                                "{} → {}",
                                plugin.map(|p| p.as_str()).unwrap_or("bound"),
                                model.nodes[*node as usize].name
                            )),
                        ),
                    );
                    last_point = "Bind";
                }
                TraceEvent::PostBind { .. } => {
                    reached.insert("PostBind", (PointState::Passed, None));
                    last_point = "PostBind";
                }
                TraceEvent::KubeEvent {
                    reason, message, pod: p, ..
                } if *p == pod => {
                    if reason == "FailedScheduling" {
                        view.message = Some(message.clone());
                    } else if reason == "Scheduled" {
                        view.scheduled = Some(message.clone());
                    }
                }
                TraceEvent::CycleEnd { outcome, .. } => {
                    view.outcome = Some(match outcome {
                        CycleOutcome::Bound => Marker::Bound,
                        CycleOutcome::Error => Marker::Error,
                        CycleOutcome::Unschedulable => {
                            if self.cycles[c as usize - 1].marker == Marker::Preempted {
                                Marker::Preempted
                            } else {
                                Marker::Unschedulable
                            }
                        }
                    });
                }
                _ => {}
            }
        }
        // The current point is lit; a later stage (failure handling, eviction, done) lights none.
        let current: Option<&str> = match st.stage {
            Stage::QueueSort => Some("QueueSort"),
            Stage::Failed | Stage::Evict | Stage::Done | Stage::Quiet | Stage::Ready => None,
            _ => Some(last_point),
        };
        let over = matches!(st.stage, Stage::Failed | Stage::Evict | Stage::Done);
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
        view.pipeline = POINTS
            .iter()
            .map(|&p| {
                let (state, note) = match reached.get(p) {
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
        view
    }
}

fn code_state(c: crate::framework::Code) -> PointState {
    use crate::framework::Code;
    match c {
        Code::Success | Code::Skip | Code::Wait => PointState::Passed,
        _ => PointState::Failed,
    }
}
