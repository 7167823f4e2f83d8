//! The trace: an append-only, sequence-numbered log of everything the engine did. The CLI's
//! outputs and the web UI are views of it.
//!
//! Pods and nodes are referred to by index into `TraceHeader::pods` / `TraceHeader::nodes`
//! (nodes in the scheduler's visiting order), which keeps large traces compact. Per-node detail
//! (filter verdicts, score tables) is recorded for the cycles `Detail` selects; any other cycle's
//! detail can be recovered by re-running the same scenario and seed with that cycle selected.

use crate::framework::events::QueueingHint;
use crate::framework::{Code, PreemptionDetail};
use crate::vocabulary::PluginName;
pub use schedlab_view::words::{ChangeAction, ChangeCause, EventReason, FinishedPhase, ObjectRef};
use serde::Serialize;
use std::collections::BTreeSet;

/// Which cycles get per-node detail.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    #[default]
    All,
    None,
    Cycles(BTreeSet<u32>),
}

impl Detail {
    pub fn wants(&self, cycle: u32) -> bool {
        match self {
            Detail::All => true,
            Detail::None => false,
            Detail::Cycles(s) => s.contains(&cycle),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceHeader {
    /// The kube-scheduler version the run reproduces (`1.34`, `1.35`).
    pub kubernetes_version: crate::version::KubeVersion,
    /// Pod keys (`namespace/name`) in document order.
    pub pods: Vec<String>,
    /// Node names in the scheduler's visiting order (zone-interleaved).
    pub nodes: Vec<String>,
    /// Profile (scheduler) names.
    pub profiles: Vec<String>,
    pub seed: u64,
}

/// A list of node ids kept as runs of consecutive ids: the nodes tied at the top score are
/// often most of a rotating window of alike nodes (hundreds of ids in a few runs). Serialized
/// as the plain list of ids.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeRuns {
    /// (first id, count) per run, in list order.
    runs: Vec<(u32, u32)>,
    len: usize,
}

impl NodeRuns {
    pub fn push(&mut self, id: u32) {
        match self.runs.last_mut() {
            Some((first, n)) if first.checked_add(*n) == Some(id) => *n += 1,
            _ => self.runs.push((id, 1)),
        }
        self.len += 1;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn contains(&self, id: u32) -> bool {
        self.runs.iter().any(|&(first, n)| id >= first && id - first < n)
    }
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.runs.iter().flat_map(|&(first, n)| (0..n).map(move |k| first + k))
    }
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }
}

impl FromIterator<u32> for NodeRuns {
    /// The same runs as pushing each id, with the open run kept in locals: a cycle's tied
    /// nodes are collected here, hundreds of them per pod.
    fn from_iter<I: IntoIterator<Item = u32>>(ids: I) -> NodeRuns {
        let mut runs = Vec::new();
        let mut len = 0;
        // The open run: its first id and the id that would extend it (u64: no overflow).
        let (mut first, mut next) = (0u32, u64::MAX);
        for id in ids {
            len += 1;
            if u64::from(id) == next {
                next += 1;
                continue;
            }
            if next != u64::MAX {
                runs.push((first, (next - u64::from(first)) as u32));
            }
            first = id;
            next = u64::from(id) + 1;
        }
        if next != u64::MAX {
            runs.push((first, (next - u64::from(first)) as u32));
        }
        NodeRuns { runs, len }
    }
}

impl Serialize for NodeRuns {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Where a pod is in the scheduling queue (a `schedlab-view` type: the page shows it).
pub use schedlab_view::QueueName;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginStatus {
    pub plugin: PluginName,
    pub code: Code,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
}

/// The filter verdict for one node: `None` = passed every filter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeVerdict {
    pub node: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<PluginStatus>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginScoreRow {
    pub plugin: PluginName,
    pub weight: i64,
    /// Aligned with `ScoreTable::nodes`.
    pub raw: Vec<i64>,
    pub normalized: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreTable {
    pub nodes: Vec<u32>,
    pub plugins: Vec<PluginScoreRow>,
    pub totals: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TraceEvent {
    /// The logical clock moved.
    #[serde(rename_all = "camelCase")]
    Clock { time_ms: i64 },
    /// A pod moved between queue pools. `event` names the cluster event that moved it.
    #[serde(rename_all = "camelCase")]
    QueueMove {
        pod: u32,
        from: QueueName,
        to: QueueName,
        #[serde(skip_serializing_if = "Option::is_none")]
        event: Option<String>,
        /// Backoff expiry (logical ms) for moves into the backoff queue.
        #[serde(skip_serializing_if = "Option::is_none")]
        backoff_until_ms: Option<i64>,
    },
    /// A pod is blocked by a PreEnqueue plugin (e.g. scheduling gates).
    #[serde(rename_all = "camelCase")]
    Gated { pod: u32, plugin: PluginName, message: String },
    #[serde(rename_all = "camelCase")]
    CycleStart {
        cycle: u32,
        pod: u32,
        profile: String,
        attempt: u32,
        time_ms: i64,
    },
    #[serde(rename_all = "camelCase")]
    PreFilter {
        cycle: u32,
        results: Vec<PluginStatus>,
        skipped: Vec<PluginName>,
        #[serde(skip_serializing_if = "Option::is_none")]
        narrowed_to: Option<Vec<String>>,
    },
    /// Filter over the visited nodes. With detail, `verdicts` lists every evaluated node in
    /// visiting order; nodes not listed were not evaluated (enough feasible nodes were found).
    #[serde(rename_all = "camelCase")]
    Filter {
        cycle: u32,
        start_index: u32,
        num_to_find: u32,
        evaluated: u32,
        feasible: u32,
        /// The nominated node was tried first (and passed).
        nominated_first: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        verdicts: Option<Vec<NodeVerdict>>,
    },
    #[serde(rename_all = "camelCase")]
    PostFilter {
        cycle: u32,
        code: Code,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        nominated_node: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        preemption: Option<Box<PreemptionDetail>>,
    },
    #[serde(rename_all = "camelCase")]
    PreScore { cycle: u32, skipped: Vec<PluginName> },
    #[serde(rename_all = "camelCase")]
    Score {
        cycle: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        table: Option<Box<ScoreTable>>,
        selected: u32,
        /// Nodes sharing the top score (including the selected one).
        tied: NodeRuns,
    },
    #[serde(rename_all = "camelCase")]
    Reserve { cycle: u32, node: u32, code: Code },
    #[serde(rename_all = "camelCase")]
    Permit { cycle: u32, node: u32, code: Code },
    #[serde(rename_all = "camelCase")]
    PreBind { cycle: u32, node: u32, code: Code },
    #[serde(rename_all = "camelCase")]
    Bind {
        cycle: u32,
        pod: u32,
        node: u32,
        plugin: Option<PluginName>,
    },
    #[serde(rename_all = "camelCase")]
    PostBind { cycle: u32 },
    /// A kubectl-visible event (Scheduled, FailedScheduling, Preempted).
    #[serde(rename_all = "camelCase")]
    KubeEvent {
        cycle: u32,
        reason: EventReason,
        pod: u32,
        message: String,
    },
    /// The pod's nominated node changed (None clears it).
    #[serde(rename_all = "camelCase")]
    Nominated { pod: u32, node: Option<String> },
    /// A pod was deleted (a preemption victim).
    #[serde(rename_all = "camelCase")]
    Deleted { pod: u32, node: u32 },
    /// A ResourceClaim was written (DRA): its devices (`driver/pool/device`, in allocation
    /// order) and the pods it is reserved for, after the write; `deleted` when it is gone.
    #[serde(rename_all = "camelCase")]
    Claim {
        claim: String,
        devices: Vec<String>,
        reserved_for: Vec<String>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        deleted: bool,
    },
    #[serde(rename_all = "camelCase")]
    CycleEnd { cycle: u32, outcome: CycleOutcome },
    /// The cluster changed (timelines and pod durations only): a timeline step, a pod that
    /// finished, or the periodic flush of the unschedulable pool. The informer events it caused
    /// follow as `informerEvent`s.
    #[serde(rename_all = "camelCase")]
    Change {
        /// The instant's logical time.
        at_ms: i64,
        cause: ChangeCause,
        /// Index of the timeline step.
        #[serde(skip_serializing_if = "Option::is_none")]
        step: Option<u32>,
        action: ChangeAction,
        /// Written `Kind/name` or `Kind/namespace/name` (boxed: changes are rare, and every
        /// event is as large as the largest).
        #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ObjectRef::serialize_text")]
        object: Option<Box<ObjectRef>>,
        /// The pod concerned (index into the header's pods; created pods are appended there).
        #[serde(skip_serializing_if = "Option::is_none")]
        pod: Option<u32>,
        /// The node concerned (index into the header's nodes; created nodes are appended there).
        #[serde(skip_serializing_if = "Option::is_none")]
        node: Option<u32>,
        /// A finished pod's phase.
        #[serde(skip_serializing_if = "Option::is_none")]
        phase: Option<FinishedPhase>,
        /// Why the change was not applied (its target is already gone, or nothing changed).
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<String>,
        /// For a controller's change: the controller (written `Kind/name`, e.g.
        /// `ReplicaSet/web-7d4b9`).
        #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ObjectRef::serialize_text")]
        by: Option<Box<ObjectRef>>,
    },
    /// A cluster event as the scheduling queue handled it (timelines and pod durations only):
    /// for each pending pod it reached, the queueing hints asked and where the pod went.
    #[serde(rename_all = "camelCase")]
    InformerEvent { event: String, pods: Vec<PodRequeue> },
}

/// One plugin's answer to an event for a pod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HintAnswer {
    pub plugin: PluginName,
    pub hint: QueueingHint,
    /// The plugin registered the event without a queueing hint (the answer is always Queue).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unhinted: bool,
}

/// What one informer event did to one pending pod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodRequeue {
    pub pod: u32,
    /// The hints asked, in order, until one decided; empty when no hint applies (the pod had no
    /// rejecting plugin, or the event is the flush's wildcard).
    pub hints: Vec<HintAnswer>,
    /// Where the pod is afterwards: `ActiveQ`, `BackoffQ`, or its pool when it stayed.
    pub to: QueueName,
    pub moved: bool,
    /// For a pod sent to backoffQ: the backoff left on the logical clock, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backoff_remaining_ms: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CycleOutcome {
    Bound,
    Unschedulable,
    Error,
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub header: TraceHeader,
    /// The sequence number of an event is its index.
    pub events: Vec<TraceEvent>,
}

impl Trace {
    pub fn push(&mut self, e: TraceEvent) -> usize {
        self.events.push(e);
        self.events.len() - 1
    }
}

#[cfg(test)]
mod node_runs_tests {
    use super::NodeRuns;

    fn pushed(ids: &[u32]) -> NodeRuns {
        let mut r = NodeRuns::default();
        for &id in ids {
            r.push(id);
        }
        r
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn collecting_makes_the_runs_pushing_makes() {
        let cases: [&[u32]; 9] = [
            &[],
            &[7],
            &[1, 2, 3],
            &[3, 2, 1],
            &[5, 6, 9, 10, 11, 0],
            &[4, 4, 5],
            &[u32::MAX - 1, u32::MAX, 0, 1],
            &[u32::MAX, 0],
            &[0, 2, 4, 5, 6, 8],
        ];
        for ids in cases {
            let collected: NodeRuns = ids.iter().copied().collect();
            assert_eq!(collected, pushed(ids), "{ids:?}");
            assert_eq!(collected.to_vec(), ids, "{ids:?}");
            assert_eq!(collected.len(), ids.len());
        }
    }
}
