//! What a plugin's cell explainer is handed. The view explains one cell of the page's filter
//! matrix or score table: it finds the cycle, says the generic part (skipped, not evaluated,
//! the recorded verdict or score) and rebuilds the scheduler as it was just before the cycle;
//! the numbers behind the verdict are the plugin's to tell. A plugin cannot see the engine, so
//! the view hands it an `ExplainCtx`: the snapshot, cluster and nominator of that moment, the
//! pod's framework (profile, args, plugin instances), the pod and the node, plus replays of
//! PreFilter, PreScore and Filter on them. The plugin's descriptor names its explainers
//! (`Descriptor::explain`).

use super::args::PluginArgs;
use super::{Ctx, CycleState, Framework, NodeInfo, PodInfo};
use crate::vocabulary::PluginName;

/// A plugin's explainers, declared in its descriptor (`plugins/<name>/explain.rs`).
#[derive(Clone, Copy)]
pub struct Explainers {
    /// The numbers behind the plugin's Filter verdict on the node.
    pub filter: Option<FilterExplainer>,
    /// The numbers behind the plugin's raw score on the node, and perhaps its normalization.
    pub score: Option<ScoreExplainer>,
    /// A sentence on how the profile's args set the plugin up, shown with the profile when the
    /// plugin scores in it ("NodeResourcesFit scores with MostAllocated (cpu×1, memory×1)").
    pub profile: Option<ProfileExplainer>,
}

impl Explainers {
    /// A plugin whose cells get only the view's generic sentences.
    pub const NONE: Explainers = Explainers {
        filter: None,
        score: None,
        profile: None,
    };
    /// A plugin that explains its Filter verdicts.
    pub const fn filter(f: FilterExplainer) -> Explainers {
        Explainers {
            filter: Some(f),
            ..Self::NONE
        }
    }
    /// A plugin that explains its scores.
    pub const fn score(s: ScoreExplainer) -> Explainers {
        Explainers {
            score: Some(s),
            ..Self::NONE
        }
    }
    /// A plugin that explains both.
    pub const fn both(f: FilterExplainer, s: ScoreExplainer) -> Explainers {
        Explainers {
            filter: Some(f),
            score: Some(s),
            profile: None,
        }
    }
    /// These, with a note on the profile's args.
    pub const fn with_profile(self, p: ProfileExplainer) -> Explainers {
        Explainers { profile: Some(p), ..self }
    }
}

/// Sentences behind a Filter verdict; `passed` is the verdict the run recorded.
pub type FilterExplainer = fn(x: &ExplainCtx, passed: bool) -> Vec<String>;

/// The profile's note on the plugin, from its args.
pub type ProfileExplainer = fn(args: &PluginArgs) -> String;

/// Sentences behind a score (see `ScoreCell`).
pub type ScoreExplainer = fn(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines;

/// The scheduler just before the explained cycle, as one plugin may see it.
pub struct ExplainCtx<'a> {
    /// Snapshot, cluster and nominator as the cycle found them.
    pub cx: Ctx<'a>,
    /// The framework of the pod's profile.
    pub framework: &'a Framework,
    pub pod: &'a PodInfo,
    /// The explained node, from the snapshot.
    pub node: &'a NodeInfo,
}

/// The recorded scores of one plugin in the cycle, for the nodes that were scored.
pub struct ScoreCell<'a> {
    /// Snapshot positions of the scored nodes.
    pub scored: &'a [u32],
    /// Their names, aligned with `scored`.
    pub names: &'a [String],
    /// The plugin's raw and normalized scores, aligned with `scored`.
    pub raw: &'a [i64],
    pub normalized: &'a [i64],
    /// The explained node's position in `scored`.
    pub k: usize,
}

impl ScoreCell<'_> {
    /// The explained node's raw score.
    pub fn raw_here(&self) -> i64 {
        self.raw[self.k]
    }
}

/// What a score explainer says: its sentences and, when it can show how NormalizeScore gave
/// the recorded values, that sentence (otherwise the view says a generic one, if any fits).
#[derive(Default)]
pub struct ScoreLines {
    pub lines: Vec<String>,
    pub normalization: Option<String>,
}

impl From<Vec<String>> for ScoreLines {
    fn from(lines: Vec<String>) -> ScoreLines {
        ScoreLines {
            lines,
            normalization: None,
        }
    }
}

impl ExplainCtx<'_> {
    /// The explained node's name.
    pub fn node_name(&self) -> &str {
        self.node.name()
    }

    /// The cycle state after PreFilter, replayed.
    pub fn replay_pre_filter(&self) -> CycleState {
        let mut state = CycleState::new();
        let _ = self.framework.run_pre_filter(&self.cx, &mut state, self.pod);
        state
    }

    /// The cycle state after Filter and PreScore on the scored nodes (snapshot positions),
    /// replayed (a plugin may score what its Filter found on a node).
    pub fn replay_pre_score(&self, scored: &[u32]) -> CycleState {
        let mut state = self.replay_pre_filter();
        let nodes: Vec<&NodeInfo> = scored.iter().filter_map(|&n| self.cx.snapshot.nodes().get(n as usize)).collect();
        for n in &nodes {
            let _ = self.framework.run_filter_with_nominated_pods(&self.cx, &state, self.pod, n);
        }
        let _ = self.framework.run_pre_score(&self.cx, &mut state, self.pod, &nodes);
        state
    }

    /// What `plugin`'s Filter saw on the node. Filter runs first with the node's nominated pods
    /// of equal or higher priority counted in and, when that passes, again without them; this
    /// returns the state and node of the pass that decided, and how many nominated pods it
    /// counted.
    pub fn replay_filter(&self, plugin: PluginName) -> (CycleState, NodeInfo, usize) {
        let (pod, ni) = (self.pod, self.node);
        let state = self.replay_pre_filter();
        let nominated: Vec<_> = self
            .cx
            .nominator
            .pods_for_node(ni.name())
            .iter()
            .filter(|p| p.priority >= pod.priority && p.uid != pod.uid)
            .cloned()
            .collect();
        let pl = self.framework.instances().find(|(n, _)| *n == plugin).map(|(_, p)| p);
        if let (Some(pl), false) = (pl, nominated.is_empty()) {
            let mut node_with = ni.clone();
            let mut state_with = state.clone();
            for p in &nominated {
                node_with.add_pod(p.clone());
                let _ = self
                    .framework
                    .run_pre_filter_extension_add_pod(&self.cx, &mut state_with, pod, p, &node_with);
            }
            if !pl.filter(&self.cx, &state_with, pod, &node_with).is_success() {
                return (state_with, node_with, nominated.len());
            }
        }
        (state, ni.clone(), 0)
    }
}
