//! The session: one finished run, its stops, and the detail of cycles recovered by re-runs.

use super::model::BuildModel;
use super::replay::Replay;
use super::stops::{build_stops, CycleInfo};
use super::*;
use crate::engine::{EngineOptions, StepOutcome};
use serde::{Deserialize, Serialize};

pub struct Session {
    pub(super) scenario: Scenario,
    pub(super) seed: u64,
    pub model: Model,
    pub trace: crate::trace::Trace,
    pub(super) stops: Vec<Stop>,
    pub(super) cycles: Vec<CycleInfo>,
    pub(super) node_index: HashMap<String, u32>,
    pub(super) pod_index: HashMap<String, u32>,
    pub(super) replay: Replay,
    pub(super) detail_all: bool,
    /// Cycle -> its events recorded with detail by a re-run.
    pub(super) detail_cache: HashMap<u32, Vec<TraceEvent>>,
    pub(super) effective_config: String,
    pub(super) has_config: bool,
    pub(super) final_bound: u32,
    pub(super) final_pending: u32,
    pub(super) final_evicted: u32,
    pub(super) end_clock_ms: i64,
    /// Trace indices of the Kubernetes events, in order.
    pub(super) kube_events: Vec<u32>,
    pub(super) timeline_steps_ms: Vec<i64>,
    /// What the controllers did before scheduling (`None` when they were off).
    pub controllers: Option<crate::controllers::Report>,
    /// The controllers as they were when scheduling started (re-runs react the same way).
    pub(super) ctl: Option<crate::controllers::Controllers>,
    /// What each cluster change does to the shown cluster, and its sentence.
    pub(super) changes: changes::Changes,
    /// The nodes that existed, in the scheduler's visiting order (trace-header indices), from
    /// the cycle each entry names until the next entry's: the order a cycle's filter matrix
    /// lists and its start index counts in.
    pub(super) node_orders: Vec<(u32, Vec<u32>)>,
    /// The state the last explained cycle read, rebuilt (the cells of one cycle share it).
    pub(super) replay_cache: Option<explain::CycleReplay>,
    /// What the run left, as a lesson's goals read it (`crate::lesson::evaluate`).
    pub run_facts: crate::lesson::RunFacts,
    /// Each profile's plugins per extension point, by profile name (as the frameworks ran
    /// them; the model's `ProfileModel::points` is the same as text, for the page).
    pub(super) profile_plugins: BTreeMap<String, crate::framework::profile::ExpandedPlugins>,
}

/// What a finished run leaves behind: the engine's final state (its snapshot, pods, queue and
/// caches), of no further use to the session. Dropping it frees it.
pub struct Spent(#[allow(dead_code)] Engine);

/// How a session runs its scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionOptions {
    /// The seed of the tie-break RNG (and of the controllers' name suffixes).
    pub seed: u64,
    /// Whether the workload controllers create their pods before scheduling starts.
    pub controllers: bool,
}

impl Session {
    /// Runs the scenario to completion with the given options: when `controllers` is on, the
    /// workload controllers first create their pods (see `crate::controllers`); the pods they
    /// make are marked `created_by` in the model. Calls `progress(cycles)` every 256 cycles.
    pub fn with_options(sc: Scenario, opts: SessionOptions, progress: &mut dyn FnMut(u32)) -> Session {
        Self::with_options_spent(sc, opts, progress).0
    }

    /// `with_options`, also handing back what the run leaves to free (`Spent`), so that a
    /// caller with an answer to send can send it first and free the engine's state after:
    /// for a large run that is tens of thousands of allocations (the web worker does this).
    pub fn with_options_spent(mut sc: Scenario, opts: SessionOptions, progress: &mut dyn FnMut(u32)) -> (Session, Spent) {
        let mut ctl = crate::controllers::Controllers::new(opts.seed);
        let report = opts.controllers.then(|| ctl.reconcile(&mut sc));
        let ctl = opts.controllers.then_some(ctl);
        let pending = sc
            .pods
            .iter()
            .filter(|p| p.spec.node_name.as_deref().is_none_or(str::is_empty))
            .count();
        let detail_all = sc.nodes.len().max(1) * pending.max(1) <= DETAIL_ALL_LIMIT;
        let (mut s, spent) = Self::run_session(sc, opts.seed, detail_all, ctl, progress);
        s.controllers = report;
        (s, spent)
    }

    /// Runs the scenario to completion.
    pub fn new(sc: Scenario, seed: u64) -> Session {
        Self::with_progress(sc, seed, &mut |_| {})
    }

    /// Runs the scenario, calling `progress(cycles)` every 256 cycles.
    pub fn with_progress(sc: Scenario, seed: u64, progress: &mut dyn FnMut(u32)) -> Session {
        let pending = sc
            .pods
            .iter()
            .filter(|p| p.spec.node_name.as_deref().is_none_or(str::is_empty))
            .count();
        let detail_all = sc.nodes.len().max(1) * pending.max(1) <= DETAIL_ALL_LIMIT;
        Self::with_detail(sc, seed, detail_all, progress)
    }

    /// Runs the scenario, recording per-node detail for every cycle (`detail_all`) or none
    /// (recovered on demand).
    pub fn with_detail(sc: Scenario, seed: u64, detail_all: bool, progress: &mut dyn FnMut(u32)) -> Session {
        Self::run_session(sc, seed, detail_all, None, progress).0
    }

    /// Runs the scenario; `ctl` (the controllers that created its pods) keeps reacting while
    /// the cluster runs.
    pub(super) fn run_session(
        sc: Scenario,
        seed: u64,
        detail_all: bool,
        ctl: Option<crate::controllers::Controllers>,
        progress: &mut dyn FnMut(u32),
    ) -> (Session, Spent) {
        let effective_config = sc.config.to_effective_yaml();
        let has_config = sc.has_config;
        let keep = sc.clone();
        let mut e = Engine::new(
            sc,
            EngineOptions {
                seed,
                detail: if detail_all { Detail::All } else { Detail::None },
            },
        );
        let mut model = Model::build(&keep, &e);
        let profile_plugins = crate::sort::map_of(
            e.frameworks
                .values()
                .map(|fw| (fw.profile.scheduler_name.clone(), fw.profile.plugins.clone())),
        );
        if let Some(c) = &ctl {
            e.enable_controllers(c.clone());
        }
        let mut node_orders = vec![(1, e.node_order().to_vec())];
        let mut order_changes = e.node_order_changes();
        while e.step() != StepOutcome::Quiet {
            // The nodes change only between cycles (timeline steps), so an order that changed
            // during this step is the order this step's cycle ran with.
            if e.node_order_changes() != order_changes {
                order_changes = e.node_order_changes();
                node_orders.push((e.cycle, e.node_order().to_vec()));
            }
            if e.cycle % 256 == 0 {
                progress(e.cycle);
            }
        }
        let node_index = e
            .trace
            .header
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u32))
            .collect();
        let pod_index = e.trace.header.pods.iter().enumerate().map(|(i, n)| (n.clone(), i as u32)).collect();
        let (stops, cycles) = build_stops(&e.trace.events);
        let final_bound = e.pods.iter().filter(|p| p.phase == crate::engine::Phase::Running).count() as u32;
        let final_pending = e.pods.iter().filter(|p| p.phase == crate::engine::Phase::Pending).count() as u32;
        let final_evicted = e.pods.iter().filter(|p| p.evicted).count() as u32;
        let end_clock_ms = e.now_ms();
        let timeline_steps_ms = e.timeline_step_times_ms();
        let changes = changes::compute(&e, &keep.nodes);
        let run_facts = crate::lesson::RunFacts::from_engine(&e);
        model.add_created(&e);
        let replay = Replay::new(&model);
        let kube_events = e
            .trace
            .events
            .iter()
            .enumerate()
            .filter(|(_, ev)| matches!(ev, TraceEvent::KubeEvent { .. }))
            .map(|(i, _)| i as u32)
            .collect();
        let session = Session {
            scenario: keep,
            seed,
            model,
            trace: std::mem::take(&mut e.trace),
            stops,
            cycles,
            node_index,
            pod_index,
            replay,
            detail_all,
            detail_cache: HashMap::new(),
            effective_config,
            has_config,
            final_bound,
            final_pending,
            final_evicted,
            end_clock_ms,
            kube_events,
            controllers: None,
            timeline_steps_ms,
            ctl,
            changes,
            node_orders,
            replay_cache: None,
            run_facts,
            profile_plugins,
        };
        (session, Spent(e))
    }

    /// The nodes that existed when cycle `c` ran, in the scheduler's visiting order (trace-header
    /// indices).
    pub(super) fn node_order_at(&self, c: u32) -> &[u32] {
        let k = self.node_orders.partition_point(|(first, _)| *first <= c);
        self.node_orders.get(k.saturating_sub(1)).map(|(_, o)| o.as_slice()).unwrap_or(&[])
    }

    /// The newest events among the first `pos` trace events (at most `EVENT_LIMIT`), and how
    /// many there are in all.
    pub(super) fn events_until(&self, pos: u32) -> (Vec<EventLine>, u32) {
        let total = self.kube_events.partition_point(|&i| i < pos);
        let lines = self.kube_events[total.saturating_sub(EVENT_LIMIT)..total]
            .iter()
            .filter_map(|&i| match &self.trace.events[i as usize] {
                TraceEvent::KubeEvent {
                    cycle,
                    reason,
                    pod,
                    message,
                } => Some(EventLine {
                    seq: i,
                    cycle: *cycle,
                    warning: reason.is_warning(),
                    reason: *reason,
                    pod: *pod,
                    message: message.clone(),
                }),
                _ => None,
            })
            .collect();
        (lines, total as u32)
    }

    pub fn stops(&self) -> &[Stop] {
        &self.stops
    }

    /// The Kubernetes version the run reproduces.
    pub fn kubernetes_version(&self) -> crate::version::KubeVersion {
        self.scenario.features().version()
    }

    pub fn summary(&self) -> Summary {
        let mut model = self.model.clone();
        if model.large {
            // Thousands of pods: the page does not need their requests (node usage comes with
            // each frame), so the summary stays small.
            for p in &mut model.pods {
                p.requests = Vec::new();
            }
            for n in &mut model.nodes {
                n.allocatable = Vec::new();
            }
        }
        Summary {
            kubernetes_version: self.kubernetes_version(),
            model,
            stops: self.stops.len() as u32,
            cycle_first_stop: self.cycles.iter().map(|c| c.first_stop).collect(),
            cycle_pod: self.cycles.iter().map(|c| c.pod).collect(),
            cycle_markers: self.cycles.iter().map(|c| c.marker.code()).collect(),
            stop_stages: self.stops.iter().map(|s| s.stage.code()).collect(),
            effective_config: self.effective_config.clone(),
            has_config: self.has_config,
            seed: self.seed,
            end_clock_ms: self.end_clock_ms,
            bound: self.final_bound,
            pending: self.final_pending,
            evicted: self.final_evicted,
            detail_all: self.detail_all,
            timeline_steps_ms: self.timeline_steps_ms.clone(),
            timeline_step_stops: self.timeline_step_stops(),
        }
    }

    /// The `Change` stop of each timeline step.
    pub(super) fn timeline_step_stops(&self) -> Vec<Option<u32>> {
        let mut out = vec![None; self.timeline_steps_ms.len()];
        for (k, st) in self.stops.iter().enumerate() {
            if st.stage != Stage::Change {
                continue;
            }
            let end = (st.pos as usize).min(self.trace.events.len());
            let step = (0..end).rev().find_map(|i| match &self.trace.events[i] {
                TraceEvent::Change { step, .. } => Some(*step),
                _ => None,
            });
            if let Some(Some(s)) = step {
                if let Some(slot) = out.get_mut(s as usize) {
                    slot.get_or_insert(k as u32);
                }
            }
        }
        out
    }

    /// The number of scheduling cycles the run had.
    pub fn cycle_count(&self) -> u32 {
        self.cycles.len() as u32
    }

    /// The pod cycle `c` (1-based) scheduled, as `namespace/name`.
    pub fn cycle_pod(&self, c: u32) -> Option<String> {
        let ci = self.cycles.get((c as usize).checked_sub(1)?)?;
        self.model.pods.get(ci.pod as usize).map(|p| p.key())
    }

    /// A node's name by its number.
    pub fn node_name(&self, node: u32) -> Option<&str> {
        self.model.nodes.get(node as usize).map(|n| n.name.as_str())
    }

    /// A node's number, as views and explanations name nodes, by its name.
    pub fn node_id(&self, name: &str) -> Option<u32> {
        self.node_index.get(name).copied()
    }

    /// The nodes cycle `c`'s filter matrix lists (those that existed, in visiting order), or
    /// with `score` the nodes its score table lists (in the table's order).
    pub fn cycle_nodes(&mut self, c: u32, score: bool) -> Vec<u32> {
        if c == 0 || c as usize > self.cycles.len() {
            return Vec::new();
        }
        if !score {
            return self.node_order_at(c).to_vec();
        }
        let (events, _) = self.cycle_events(c, true);
        events
            .iter()
            .find_map(|e| match e {
                TraceEvent::Score { table: Some(t), .. } => Some(t.nodes.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The stop at which cycle `c` (1-based) starts.
    pub fn cycle_stop(&self, c: u32) -> Option<u32> {
        self.cycles.get((c as usize).checked_sub(1)?).map(|ci| ci.first_stop)
    }

    pub(super) fn seek(&mut self, pos: usize) {
        if pos < self.replay.pos {
            self.replay = Replay::new(&self.model);
        }
        let events = &self.trace.events;
        let end = pos.min(events.len());
        let start = self.replay.pos.min(end);
        for (i, e) in events.iter().enumerate().take(end).skip(start) {
            self.replay.apply(&self.model, &self.node_index, &self.changes.effects, i, e);
        }
        self.replay.pos = end.max(self.replay.pos);
    }

    /// The events of cycle `c` (CycleStart..=CycleEnd), with per-node detail when available;
    /// `want_detail` recovers missing detail by re-running the scenario.
    pub(super) fn cycle_events(&mut self, c: u32, want_detail: bool) -> (Vec<TraceEvent>, usize) {
        let ci = &self.cycles[c as usize - 1];
        let (start, end) = (ci.start, ci.end);
        if self.detail_all || !want_detail {
            return (self.trace.events[start..=end].to_vec(), start);
        }
        if !self.detail_cache.contains_key(&c) {
            self.recover_detail(c);
        }
        match self.detail_cache.get(&c) {
            Some(ev) if ev.len() == end - start + 1 => (ev.clone(), start),
            _ => (self.trace.events[start..=end].to_vec(), start),
        }
    }

    /// Re-runs the scenario with detail for a batch of cycles starting at `c`.
    pub(super) fn recover_detail(&mut self, c: u32) {
        let last = (c + DETAIL_BATCH - 1).min(self.cycles.len() as u32);
        let wanted: BTreeSet<u32> = crate::sort::set_of(c..=last);
        if self.detail_cache.len() > 4 * DETAIL_BATCH as usize {
            self.detail_cache.clear();
        }
        let mut e = Engine::new(
            self.scenario.clone(),
            EngineOptions {
                seed: self.seed,
                detail: Detail::Cycles(wanted.clone()),
            },
        );
        if let Some(c) = &self.ctl {
            e.enable_controllers(c.clone());
        }
        while e.cycle < last {
            if e.step() == StepOutcome::Quiet {
                break;
            }
        }
        let events = &e.trace.events;
        let mut i = 0;
        while i < events.len() {
            if let TraceEvent::CycleStart { cycle, .. } = events[i] {
                if wanted.contains(&cycle) {
                    let j = (i..events.len())
                        .find(|&j| matches!(events[j], TraceEvent::CycleEnd { .. }))
                        .unwrap_or(events.len() - 1);
                    self.detail_cache.insert(cycle, events[i..=j].to_vec());
                    i = j;
                }
            }
            i += 1;
        }
    }

    /// Explains one cell of the current cycle's filter matrix or score table.
    pub fn explain(&mut self, cycle: u32, node: u32, plugin: &str, score: bool) -> Explanation {
        explain::explain(self, cycle, node, plugin, score).explanation
    }

    /// Explains one cell and says what the trace recorded for it and what re-running the
    /// cycle's plugins on the state it read gives (see `ExplainedCell`).
    pub fn explain_cell(&mut self, cycle: u32, node: u32, plugin: &str, score: bool) -> explain::ExplainedCell {
        explain::explain(self, cycle, node, plugin, score)
    }
}
