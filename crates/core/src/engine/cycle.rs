//! The scheduling cycle (upstream schedulingCycle up to node selection): PreFilter, Filter
//! (the nominated node first, then a rotating window of nodes), PostFilter on a FitError, then
//! PreScore, Score and selectHost.

use super::{AttemptScores, Engine};
use crate::framework::runtime::ScoreBuffers;
use crate::framework::{
    fit_error_message, Code, Ctx, CycleState, Framework, NodeInfo, NodeToStatus, NominatingInfo, NominatingMode, PodInfo, Status,
};
use crate::trace::*;
use crate::vocabulary::PluginSet;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The result of the scheduling cycle.
pub(super) enum CycleResult {
    Scheduled {
        node: usize,
        evaluated: usize,
        feasible: usize,
    },
    Failed {
        status: Status,
        message: String,
        unschedulable: PluginSet,
        pending: PluginSet,
        nominating: Option<NominatingInfo>,
        fit_error: bool,
    },
}

impl CycleResult {
    /// A failure that is not a FitError (an internal error, or no nodes at all): no rejecting
    /// plugins, and the nominated node is cleared, as upstream's failure nominating info does.
    fn error(status: Status, message: String) -> CycleResult {
        CycleResult::Failed {
            status,
            message,
            unschedulable: PluginSet::default(),
            pending: PluginSet::default(),
            nominating: clear_nomination(),
            fit_error: false,
        }
    }
}

/// How many feasible nodes a cycle looks for among `num_all` (numFeasibleNodesToFind): all of
/// them below 100, else `percentage` of them (0: adaptive, 50% less one point per 125 nodes, at
/// least 5%), at least 100. With every node feasible, the nodes each pod is filtered and scored
/// on (`schedlab bench`'s growth table).
pub fn nodes_to_find(percentage: i32, num_all: usize) -> usize {
    const MIN_FEASIBLE: usize = 100;
    if num_all < MIN_FEASIBLE {
        return num_all;
    }
    let mut percentage = percentage as i64;
    if percentage == 0 {
        percentage = 50 - num_all as i64 / 125;
        if percentage < 5 {
            percentage = 5;
        }
    }
    let n = (num_all as i64 * percentage / 100) as usize;
    n.max(MIN_FEASIBLE)
}

/// The buffers the scheduling cycle works in, kept by the engine from one cycle to the next
/// (their contents are not carried over): a cycle otherwise allocated about ten vectors the
/// size of the nodes it visits.
#[derive(Default)]
pub(super) struct CycleScratch {
    feasible: Vec<usize>,
    chunk_idx: Vec<usize>,
    out: Vec<Option<Status>>,
    done: Vec<bool>,
    tied: Vec<usize>,
    /// The allocations of the cycle's two lists of `&NodeInfo`. Those borrow the snapshot, so
    /// between cycles they are kept empty as vectors of `usize`, of the same layout.
    chunk: Vec<usize>,
    nodes: Vec<usize>,
    score: ScoreBuffers,
}

/// An empty vector of `U` in `v`'s allocation. Collecting a vector's own iterator reuses its
/// allocation when the element types have the same size and alignment (std's in-place
/// collection); for other types this is just an empty vector.
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().map(|_| -> U { unreachable!("the vector is empty") }).collect()
}

/// The nominating info that clears the pod's nominated node (failures other than preemption's).
pub(super) fn clear_nomination() -> Option<NominatingInfo> {
    Some(NominatingInfo {
        mode: NominatingMode::Override,
        nominated_node_name: String::new(),
    })
}

impl Engine {
    /// numFeasibleNodesToFind.
    fn num_feasible_nodes_to_find(&self, pct: Option<i32>, num_all: usize) -> usize {
        nodes_to_find(pct.unwrap_or(self.config.percentage_of_nodes_to_score), num_all)
    }

    pub(super) fn scheduling_cycle(&mut self, state: &mut CycleState, pod: &Arc<PodInfo>, cycle: u32, detail: bool) -> CycleResult {
        let mut scratch = std::mem::take(&mut self.scratch);
        let result = self.scheduling_cycle_in(&mut scratch, state, pod, cycle, detail);
        self.scratch = scratch;
        result
    }

    fn scheduling_cycle_in(
        &mut self,
        scratch: &mut CycleScratch,
        state: &mut CycleState,
        pod: &Arc<PodInfo>,
        cycle: u32,
        detail: bool,
    ) -> CycleResult {
        let CycleScratch {
            feasible,
            chunk_idx,
            out,
            done,
            tied,
            chunk: chunk_mem,
            nodes: nodes_mem,
            score: score_buffers,
        } = scratch;
        // UpdateSnapshot: nodes changed since the last cycle copy the cache's image counts.
        self.snapshot.update();
        let fw = &self.frameworks[pod.scheduler_name()];
        let cx = Ctx {
            snapshot: &self.snapshot,
            cluster: &self.cluster,
            nominator: &self.nominator,
        };
        let n_all = self.snapshot.len();
        if n_all == 0 {
            let msg = "no nodes available to schedule pods".to_string();
            return CycleResult::error(Status::unresolvable(msg.clone()), msg);
        }
        let mut diagnosis = NodeToStatus::default();
        let mut unschedulable = PluginSet::default();
        let mut pending = PluginSet::default();
        let mut pre_filter_msg = String::new();

        // PreFilter.
        let (pre_res, s, with_nodes) = fw.run_pre_filter(&cx, state, pod);
        unschedulable = unschedulable.union(with_nodes);
        self.trace.push(TraceEvent::PreFilter {
            cycle,
            results: if s.is_success() {
                vec![]
            } else {
                vec![PluginStatus {
                    plugin: s.plugin.unwrap_or(crate::vocabulary::PluginName::PrioritySort),
                    code: s.code,
                    reasons: s.reasons.iter().map(|r| r.to_string()).collect(),
                }]
            },
            skipped: state.skip_filter.iter().collect(),
            narrowed_to: pre_res
                .as_ref()
                .and_then(|r| r.node_names.as_ref())
                .map(|n| n.iter().cloned().collect()),
        });
        feasible.clear();
        feasible.reserve(n_all.min(1024));
        let mut nominated_first = false;
        if !s.is_success() {
            if !s.is_rejected() {
                let msg = s.message();
                return CycleResult::error(s, msg);
            }
            diagnosis.absent = s.clone();
            pre_filter_msg = s.message();
            add_plugin_status(&s, &mut unschedulable, &mut pending);
        } else {
            // The nominated node first.
            if let Some(nn) = pod.nominated_node_name() {
                if let Some(idx) = self.snapshot.position(nn) {
                    let st = fw.run_filter_with_nominated_pods(&cx, state, pod, &self.snapshot.nodes()[idx]);
                    if st.is_success() {
                        feasible.push(idx);
                        nominated_first = true;
                    } else if st.code != Code::Error {
                        add_plugin_status(&st, &mut unschedulable, &mut pending);
                        diagnosis.insert(idx, st);
                    }
                }
            }
            if feasible.is_empty() {
                let narrowed: Option<Vec<usize>> = match pre_res.as_ref().and_then(|r| r.node_names.as_ref()) {
                    None => None,
                    Some(names) => {
                        let v: Vec<usize> = (0..n_all).filter(|&i| names.contains(self.snapshot.nodes()[i].name())).collect();
                        diagnosis.absent = Status::unresolvable(format!(
                            "node(s) didn't satisfy plugin(s) [{}]",
                            unschedulable.sorted_names().join(" ")
                        ));
                        Some(v)
                    }
                };
                // Visit all nodes in snapshot order, or only those PreFilter narrowed to.
                let num_all = narrowed.as_ref().map_or(n_all, Vec::len);
                let node_at = |k: usize| narrowed.as_ref().map_or(k, |v| v[k]);
                let has_scoring = fw.has_score_plugins();
                let mut to_find = self.num_feasible_nodes_to_find(fw.profile.percentage_of_nodes_to_score, num_all);
                if !has_scoring {
                    to_find = 1;
                }
                let start = self.next_start_node_index;
                let mut verdicts = if detail { Some(Vec::new()) } else { None };
                let mut error: Option<Status> = None;
                if num_all > 0 {
                    if !fw.has_filter_plugins() {
                        for i in 0..to_find.min(num_all) {
                            feasible.push(node_at((start + i) % num_all));
                        }
                    } else {
                        // Without nominated pods, the nodes are filtered in chunks of as many
                        // as are still wanted (each would be visited one by one too: at most
                        // one feasible node each), plugin by plugin.
                        let batch = cx.nominator.is_empty();
                        let all = self.snapshot.nodes();
                        // Sized for the first (largest) chunk: later ones are smaller.
                        let first = if batch { to_find.min(num_all) } else { 1 };
                        let mut chunk: Vec<&NodeInfo> = recycle(std::mem::take(chunk_mem));
                        chunk.reserve(first);
                        chunk_idx.clear();
                        chunk_idx.reserve(first);
                        out.clear();
                        out.reserve(first);
                        done.clear();
                        done.reserve(first);
                        let mut i = 0;
                        'visit: while i < num_all {
                            let end = if batch {
                                (i + to_find.saturating_sub(feasible.len()).max(1)).min(num_all)
                            } else {
                                i + 1
                            };
                            chunk_idx.clear();
                            // Positions start+i.. wrapping around num_all, without a division
                            // per node.
                            let mut pos = (start + i) % num_all;
                            chunk_idx.extend((i..end).map(|_| {
                                let idx = node_at(pos);
                                pos += 1;
                                if pos == num_all {
                                    pos = 0;
                                }
                                idx
                            }));
                            if batch {
                                chunk.clear();
                                chunk.extend(chunk_idx.iter().map(|&idx| &all[idx]));
                                fw.run_filter_nodes(&cx, state, pod, &chunk, out, done);
                            } else {
                                out.clear();
                                let st = fw.run_filter_with_nominated_pods(&cx, state, pod, &all[chunk_idx[0]]);
                                out.push((!st.is_success()).then_some(st));
                            }
                            for (j, &idx) in chunk_idx.iter().enumerate() {
                                // A feasible node's slot is `None`: read in place, and a status
                                // moved out only for a node that failed.
                                let failed = match &out[j] {
                                    Some(st) if !st.is_success() => out[j].take(),
                                    _ => None,
                                };
                                let Some(st) = failed else {
                                    feasible.push(idx);
                                    if let Some(v) = verdicts.as_mut() {
                                        v.push(NodeVerdict {
                                            node: self.node_ids[idx],
                                            failed: None,
                                        });
                                    }
                                    if feasible.len() >= to_find {
                                        break 'visit;
                                    }
                                    continue;
                                };
                                if st.code == Code::Error {
                                    error = Some(st);
                                    break 'visit;
                                }
                                if let Some(v) = verdicts.as_mut() {
                                    v.push(NodeVerdict {
                                        node: self.node_ids[idx],
                                        failed: Some(PluginStatus {
                                            plugin: st.plugin.unwrap_or(crate::vocabulary::PluginName::PrioritySort),
                                            code: st.code,
                                            reasons: st.reasons.iter().map(|r| r.to_string()).collect(),
                                        }),
                                    });
                                }
                                add_plugin_status(&st, &mut unschedulable, &mut pending);
                                diagnosis.insert(idx, st);
                            }
                            i = end;
                        }
                        *chunk_mem = recycle(chunk);
                    }
                }
                diagnosis.settle();
                let processed = feasible.len() + diagnosis.len();
                self.next_start_node_index = (self.next_start_node_index + processed) % n_all;
                self.trace.push(TraceEvent::Filter {
                    cycle,
                    start_index: (start % num_all.max(1)) as u32,
                    num_to_find: to_find as u32,
                    evaluated: processed as u32,
                    feasible: feasible.len() as u32,
                    nominated_first: false,
                    verdicts,
                });
                if let Some(e) = error {
                    let msg = e.message();
                    return CycleResult::error(e, msg);
                }
            } else {
                self.trace.push(TraceEvent::Filter {
                    cycle,
                    start_index: self.next_start_node_index as u32,
                    num_to_find: 1,
                    evaluated: 1,
                    feasible: 1,
                    nominated_first,
                    verdicts: detail.then(|| {
                        vec![NodeVerdict {
                            node: self.node_ids[feasible[0]],
                            failed: None,
                        }]
                    }),
                });
            }
        }

        if feasible.is_empty() {
            // FitError, then PostFilter.
            let mut post_msg = String::new();
            let mut nominating = None;
            let mut victims = Vec::new();
            if fw.has_post_filter_plugins() {
                let (r, ps) = fw.run_post_filter(&cx, state, pod, &diagnosis, &mut self.rng);
                post_msg = ps.message();
                self.trace.push(TraceEvent::PostFilter {
                    cycle,
                    code: ps.code,
                    message: post_msg.clone(),
                    nominated_node: r
                        .as_ref()
                        .and_then(|r| r.nominating.as_ref())
                        .map(|n| n.nominated_node_name.clone()),
                    preemption: r.as_ref().and_then(|r| r.detail.clone()).map(Box::new),
                });
                if let Some(r) = r {
                    nominating = r.nominating.clone();
                    victims = r.victims.clone();
                }
            }
            // DynamicResources' PostFilter may have deallocated a claim: written now, so that
            // the claim's update event reaches the queue while the pod is in flight.
            if let Some(key) = crate::plugins::dynamic_resources::take_deallocation(state) {
                self.cluster.deallocate_claim(&key);
                self.drain_cluster_events();
            }
            let message = fit_error_message(n_all, &pre_filter_msg, &diagnosis, &post_msg);
            // Preemption's victims are deleted (asynchronously upstream; completed here).
            if !victims.is_empty() {
                let node = nominating.as_ref().map(|n| n.nominated_node_name.clone()).unwrap_or_default();
                self.pending_victims = Some((pod.clone(), node, victims));
            }
            return CycleResult::Failed {
                status: Status::new(Code::Unschedulable, message.clone()),
                message,
                unschedulable,
                pending,
                nominating,
                fit_error: true,
            };
        }

        let evaluated = feasible.len() + diagnosis.len();
        if feasible.len() == 1 {
            let node = feasible[0];
            self.trace.push(TraceEvent::Score {
                cycle,
                table: None,
                selected: self.node_ids[node],
                tied: std::iter::once(self.node_ids[node]).collect(),
            });
            if detail {
                let name = self.snapshot.nodes()[node].name().to_string();
                self.pods[pod.index].scores = Some(AttemptScores {
                    cycle,
                    attempt: 0,
                    feasible_nodes: 1,
                    evaluated_nodes: evaluated,
                    weights: weights_by_name(fw),
                    tied: vec![name],
                    ..Default::default()
                });
            }
            if detail {
                self.pods[pod.index].tied_nodes = vec![self.snapshot.nodes()[node].name().to_string()];
            }
            return CycleResult::Scheduled {
                node,
                evaluated,
                feasible: 1,
            };
        }

        // PreScore + Score.
        let mut nodes: Vec<&NodeInfo> = recycle(std::mem::take(nodes_mem));
        nodes.extend(feasible.iter().map(|&i| &self.snapshot.nodes()[i]));
        let totals: Vec<i64>;
        let mut table = None;
        if !fw.has_score_plugins() {
            totals = vec![1; nodes.len()];
        } else {
            let ps = fw.run_pre_score(&cx, state, pod, &nodes);
            self.trace.push(TraceEvent::PreScore {
                cycle,
                skipped: state.skip_score.iter().collect(),
            });
            if !ps.is_success() {
                let msg = ps.message();
                return CycleResult::error(ps, msg);
            }
            match fw.run_score_with(&cx, state, pod, &nodes, feasible, detail, score_buffers) {
                Ok(mut sr) => {
                    if detail {
                        totals = sr.totals.clone();
                        table = Some(sr);
                    } else {
                        totals = std::mem::take(&mut sr.totals);
                    }
                }
                Err(s) => {
                    let msg = s.message();
                    return CycleResult::error(s, msg);
                }
            }
        }
        *nodes_mem = recycle(nodes);
        // selectHost: uniformly among the top-scored nodes. Alike nodes often tie by the
        // hundred, so the maximum is found first (a loop without branches) and the tied nodes
        // are gathered into a list sized for all of them (no regrowth).
        let max = totals.iter().copied().fold(i64::MIN, i64::max);
        tied.clear();
        tied.reserve(totals.len());
        for (i, &t) in totals.iter().enumerate() {
            if t == max {
                tied.push(i);
            }
        }
        let pick = if tied.len() == 1 {
            tied[0]
        } else {
            tied[self.rng.below(tied.len() as u64) as usize]
        };
        let selected = feasible[pick];
        let tied_nodes: NodeRuns = tied.iter().map(|&i| self.node_ids[feasible[i]]).collect();
        if detail {
            self.pods[pod.index].tied_nodes = tied.iter().map(|&i| self.snapshot.nodes()[feasible[i]].name().to_string()).collect();
        }
        if let Some(sr) = &table {
            let name = |i: usize| self.snapshot.nodes()[feasible[i]].name().to_string();
            let mut plugins: BTreeMap<String, BTreeMap<String, i64>> = BTreeMap::new();
            for p in &sr.plugins {
                let m = plugins.entry(p.plugin.as_str().to_string()).or_default();
                for (i, s) in p.normalized.iter().enumerate() {
                    m.insert(name(i), s * p.weight);
                }
            }
            self.pods[pod.index].scores = Some(AttemptScores {
                cycle,
                attempt: 0,
                feasible_nodes: feasible.len(),
                evaluated_nodes: evaluated,
                totals: crate::sort::map_of((0..feasible.len()).map(|i| (name(i), sr.totals[i]))),
                plugins,
                weights: weights_by_name(fw),
                tied: self.pods[pod.index].tied_nodes.clone(),
            });
        }
        self.trace.push(TraceEvent::Score {
            cycle,
            table: table.map(|sr| {
                Box::new(ScoreTable {
                    nodes: feasible.iter().map(|&i| self.node_ids[i]).collect(),
                    plugins: sr
                        .plugins
                        .into_iter()
                        .map(|p| PluginScoreRow {
                            plugin: p.plugin,
                            weight: p.weight,
                            raw: p.raw,
                            normalized: p.normalized,
                        })
                        .collect(),
                    totals: sr.totals,
                })
            }),
            selected: self.node_ids[selected],
            tied: tied_nodes,
        });
        score_buffers.totals = totals;
        CycleResult::Scheduled {
            node: selected,
            evaluated,
            feasible: feasible.len(),
        }
    }
}

/// The profile's score weights, by plugin name (as `AttemptScores` reports them).
fn weights_by_name(fw: &Framework) -> BTreeMap<String, i64> {
    crate::sort::map_of(fw.profile.weights.iter().map(|(k, v)| (k.as_str().to_string(), *v as i64)))
}

/// Records a plugin's rejection in the diagnosis sets.
pub(super) fn add_plugin_status(s: &Status, unschedulable: &mut PluginSet, pending: &mut PluginSet) {
    let Some(p) = s.plugin else { return };
    if s.is_rejected() {
        unschedulable.insert(p);
    }
    if s.code == Code::Pending {
        pending.insert(p);
    }
}

#[cfg(test)]
mod scratch_tests {
    use super::recycle;

    /// A list of references recycled as `usize`s and back keeps its allocation (the cycle's
    /// `&NodeInfo` lists then allocate once per engine, not once per cycle).
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn recycling_keeps_the_allocation() {
        let items = [1u64, 2, 3];
        let mut refs: Vec<&u64> = Vec::with_capacity(500);
        refs.extend(items.iter());
        let kept: Vec<usize> = recycle(refs);
        assert!(kept.is_empty());
        assert_eq!(kept.capacity(), 500);
        let back: Vec<&u64> = recycle(kept);
        assert!(back.is_empty());
        assert_eq!(back.capacity(), 500);
    }
}
