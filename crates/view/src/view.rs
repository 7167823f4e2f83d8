//! The views of a run, as a front end receives them: the static `Model` of the scenario, the
//! run's `Summary` (its stops, cycles and markers), and at any stop a `Frame` (the cluster, the
//! queue, the cycle's filter matrix, score table and preemption, the events). The engine builds
//! them (`schedlab_core::view::Session`); everything here serializes to JSON (camelCase) and
//! back, so a Web Worker can hold the session and send views to the page.

use crate::words::{ChangeAction, ChangeCause, EventReason, ObjectRef, Taint};
use crate::QueueName;
use serde::{Deserialize, Serialize};

/// The profile of pods without `spec.schedulerName` (`schedlab_core::config::DEFAULT_SCHEDULER_NAME`).
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";

// ---------------------------------------------------------------------------------------------
// The static model: what the scenario declares, in the units the scheduler uses.

/// How a resource column's amounts read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Unit {
    /// Millicores.
    MilliCpu,
    Bytes,
    Count,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceCol {
    pub name: String,
    pub unit: Unit,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeModel {
    pub name: String,
    /// Index into `Model::zones`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub zone: u32,
    /// Labels other than the hostname and zone/region labels (empty for large clusters).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<(String, String)>,
    /// Empty for large clusters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unschedulable: bool,
    /// Allocatable amount per `Model::resources` column (left out of a large cluster's summary:
    /// its heatmap comes with each frame).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allocatable: Vec<i64>,
}

impl NodeModel {
    /// The `Model::resources` columns this node shows a used/allocatable bar for at a stop
    /// (`live`): those it allocates, and those something on it requests (with nothing
    /// allocatable such a bar is over). No "0/0" bar for a resource nothing allocates. The
    /// page's node card and the SVG export (`svg::cluster_svg`) both draw exactly these.
    pub fn bars(&self, live: &NodeLive) -> Vec<usize> {
        let n = self.allocatable.len().max(live.used.len());
        (0..n)
            .filter(|&i| self.allocatable.get(i).is_some_and(|&a| a > 0) || live.used.get(i).is_some_and(|&u| u > 0))
            .collect()
    }
}

/// A pod. Fields at their usual value are left out of the JSON (large runs send thousands).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodModel {
    pub name: String,
    #[serde(default = "default_namespace", skip_serializing_if = "is_default_namespace")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub priority: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_class: Option<String>,
    /// `spec.schedulerName`: the profile that schedules the pod.
    #[serde(default = "default_profile", skip_serializing_if = "is_default_profile")]
    pub profile: String,
    /// Whether a profile of that name exists (otherwise the pod is another scheduler's).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub has_profile: bool,
    /// Requests per `Model::resources` column (as NodeResourcesFit counts them); empty in the
    /// model of a large cluster.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gates: Vec<String>,
    /// Running from the start on this node (index into the trace header's nodes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u32>,
    /// Nominated node from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nominated: Option<u32>,
    /// Succeeded or Failed: ignored by the scheduler.
    #[serde(default, skip_serializing_if = "is_false")]
    pub finished: bool,
    /// The workload controller that created the pod (e.g. the ReplicaSet `web-5x7c`, without
    /// a namespace: the pod's); `None` for the scenario's own pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<ObjectRef>,
    /// When the pod was created on the run's logical clock (ms): the instant of the change that
    /// created it (a timeline step or a controller while the cluster ran), `0` for the pods a
    /// controller created before the run; `None` for the scenario's own pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at_ms: Option<i64>,
}

impl PodModel {
    /// `namespace/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

fn default_namespace() -> String {
    "default".into()
}
fn is_default_namespace(s: &str) -> bool {
    s == "default"
}
fn default_profile() -> String {
    DEFAULT_SCHEDULER_NAME.into()
}
fn is_default_profile(s: &str) -> bool {
    s == DEFAULT_SCHEDULER_NAME
}
fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(v: &u32) -> bool {
    *v == 0
}
fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

/// One profile's plugins per extension point and score weights.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileModel {
    pub name: String,
    /// (extension point, plugins) in pipeline order.
    pub points: Vec<(String, Vec<String>)>,
    pub weights: Vec<(String, i32)>,
    pub percentage_of_nodes_to_score: Option<i32>,
    /// Settings that tell profiles apart (e.g. NodeResourcesFit's scoring strategy).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Model {
    pub resources: Vec<ResourceCol>,
    /// Zone label values in order of first appearance; "" for nodes without one.
    pub zones: Vec<String>,
    /// Indexed like the trace header's nodes (the scheduler's visiting order).
    pub nodes: Vec<NodeModel>,
    /// Node indices in document order (how the cards are laid out).
    pub display_order: Vec<u32>,
    /// Indexed like the trace header's pods (document order).
    pub pods: Vec<PodModel>,
    pub profiles: Vec<ProfileModel>,
    /// The cluster is shown as a heatmap.
    pub large: bool,
    /// Devices and claims (Dynamic Resource Allocation), when the scenario has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dra: Option<DraModel>,
    /// The claims before the first cycle (replayed from here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub initial_claims: Vec<ClaimLive>,
    /// Pods from this index on were created while the cluster ran (a timeline step or a
    /// controller): they exist from their `change` on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_pods_from: Option<u32>,
    /// Nodes from this index on were added by the timeline: absent until their `change`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_nodes_from: Option<u32>,
    /// Each plugin's short column header (name, label), from the plugin registry.
    #[serde(default)]
    pub plugin_labels: Vec<(String, String)>,
}

/// One device a ResourceSlice publishes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceModel {
    pub slice: String,
    pub driver: String,
    pub pool: String,
    pub device: String,
    /// `driver/pool/device`, as claims name their devices.
    pub id: String,
    /// Nodes (trace header indices) that can use it: one for a node-local slice, several for a
    /// node selector, all for `allNodes`.
    pub nodes: Vec<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_nodes: bool,
    /// Attributes and capacities as `name=value`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<String>,
}

/// A claim as declared or generated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimModel {
    /// `namespace/name`.
    pub key: String,
    /// Requests as `name: class ×count` (or `All`), subrequests listed in order.
    pub requests: Vec<String>,
    /// The pod (trace header index) that controls it: generated from its template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DraModel {
    pub devices: Vec<DeviceModel>,
    pub claims: Vec<ClaimModel>,
    /// The device classes by name.
    pub classes: Vec<String>,
}

/// A claim at one stop.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimLive {
    pub key: String,
    /// Allocated devices (`driver/pool/device`), empty when unallocated.
    pub devices: Vec<String>,
    /// Names of the pods it is reserved for.
    pub reserved_for: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// Stops: the positions a front end steps through.

/// Where a stop is within its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// Before the first cycle: every pending pod is queued.
    Ready,
    /// A pod was popped (the queue's sort order chose it).
    QueueSort,
    PreFilter,
    Filter,
    PostFilter,
    PreScore,
    /// Raw scores.
    Score,
    /// Scores after NormalizeScore and weights.
    NormalizeScore,
    Reserve,
    Permit,
    PreBind,
    Bind,
    PostBind,
    /// The attempt failed: FailedScheduling, the pod goes back to the queue.
    Failed,
    /// A preemption's victims are deleted.
    Evict,
    /// The cycle is over (everything it caused is applied).
    Done,
    /// After the last cycle: nothing can make progress.
    Quiet,
    /// The cluster changed (a timeline step, a pod finishing, the 5-minute flush, a
    /// controller): the change and the queue's answer to it (`Frame::changes`).
    Change,
}

impl Stage {
    /// Every stage, in pipeline order; a stage's code (`Summary::stop_stages`) is its index
    /// here as a letter from `a`.
    pub const ALL: [Stage; 18] = [
        Stage::Ready,
        Stage::QueueSort,
        Stage::PreFilter,
        Stage::Filter,
        Stage::PostFilter,
        Stage::PreScore,
        Stage::Score,
        Stage::NormalizeScore,
        Stage::Reserve,
        Stage::Permit,
        Stage::PreBind,
        Stage::Bind,
        Stage::PostBind,
        Stage::Failed,
        Stage::Evict,
        Stage::Done,
        Stage::Quiet,
        Stage::Change,
    ];

    pub fn code(self) -> char {
        let i = Stage::ALL.iter().position(|&s| s == self).unwrap_or(0);
        (b'a' + i as u8) as char
    }

    pub fn from_code(c: char) -> Option<Stage> {
        let i = (c as u32).checked_sub('a' as u32)? as usize;
        Stage::ALL.get(i).copied()
    }

    /// Whether the stage is a phase of a scheduling cycle (a stop a link can open at with
    /// `cycle=N&phase=…`): every stage but the start, the end and a cluster change.
    pub fn in_cycle(self) -> bool {
        !matches!(self, Stage::Ready | Stage::Quiet | Stage::Change)
    }

    /// The stage a label names (as `label` writes it).
    pub fn from_label(label: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.label().eq_ignore_ascii_case(label))
    }

    pub fn label(self) -> &'static str {
        match self {
            Stage::Ready => "Ready",
            Stage::QueueSort => "QueueSort",
            Stage::PreFilter => "PreFilter",
            Stage::Filter => "Filter",
            Stage::PostFilter => "PostFilter",
            Stage::PreScore => "PreScore",
            Stage::Score => "Score",
            Stage::NormalizeScore => "NormalizeScore",
            Stage::Reserve => "Reserve",
            Stage::Permit => "Permit",
            Stage::PreBind => "PreBind",
            Stage::Bind => "Bind",
            Stage::PostBind => "PostBind",
            Stage::Failed => EventReason::FailedScheduling.as_str(),
            Stage::Evict => "Evict",
            Stage::Done => "Done",
            Stage::Quiet => "Quiet",
            Stage::Change => "Change",
        }
    }

    /// The stage called `name` (its label, as the pipeline and the transport show it, or
    /// "Failed"), ignoring case.
    pub fn from_name(name: &str) -> Option<Stage> {
        if name.eq_ignore_ascii_case("Failed") {
            return Some(Stage::Failed);
        }
        Stage::ALL.into_iter().find(|s| s.label().eq_ignore_ascii_case(name))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stop {
    /// Number of trace events applied at this stop.
    pub pos: u32,
    /// The cycle (1-based; 0 before the first).
    pub cycle: u32,
    pub stage: Stage,
}

/// What a cycle did, for timeline markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Marker {
    Bound,
    Unschedulable,
    /// Unschedulable, and a preemption evicted pods.
    Preempted,
    Error,
}

impl Marker {
    pub fn code(self) -> char {
        match self {
            Marker::Bound => 'b',
            Marker::Unschedulable => 'u',
            Marker::Preempted => 'p',
            Marker::Error => 'e',
        }
    }
    pub fn from_code(c: char) -> Marker {
        match c {
            'b' => Marker::Bound,
            'p' => Marker::Preempted,
            'e' => Marker::Error,
            _ => Marker::Unschedulable,
        }
    }
}

impl Summary {
    /// The stop showing `stage` in cycle `cycle` (1-based; 0 = before the first), or the
    /// cycle's first stop when it never reaches that stage; `None` when there is no such cycle.
    pub fn stop_at(&self, cycle: u32, stage: Option<Stage>) -> Option<u32> {
        let (first, end) = if cycle == 0 {
            (0, self.cycle_first_stop.first().copied().unwrap_or(self.stops))
        } else {
            let first = *self.cycle_first_stop.get(cycle as usize - 1)?;
            (first, self.cycle_first_stop.get(cycle as usize).copied().unwrap_or(self.stops))
        };
        let want = stage.map(Stage::code);
        let found = want.and_then(|w| {
            self.stop_stages
                .chars()
                .skip(first as usize)
                .take((end - first) as usize)
                .position(|c| c == w)
        });
        Some(first + found.unwrap_or(0) as u32)
    }

    /// The cycle (1-based; 0 before the first) and stage at a stop.
    pub fn playhead(&self, stop: u32) -> (u32, Option<Stage>) {
        let cycle = self.cycle_first_stop.partition_point(|&f| f <= stop) as u32;
        let stage = self.stop_stages.chars().nth(stop as usize).and_then(Stage::from_code);
        (cycle, stage)
    }

    /// What cycle `i` (0-based) did.
    pub fn markers(&self) -> impl Iterator<Item = Marker> + '_ {
        self.cycle_markers.chars().map(Marker::from_code)
    }

    /// The stage of stop `stop`, if the summary has it.
    pub fn stop_stage(&self, stop: u32) -> Option<Stage> {
        self.stop_stages
            .as_bytes()
            .get(stop as usize)
            .and_then(|&b| Stage::from_code(b as char))
    }

    /// The cycle (1-based; 0 before the first) stop `stop` belongs to.
    pub fn cycle_of(&self, stop: u32) -> u32 {
        self.cycle_first_stop.partition_point(|&f| f <= stop) as u32
    }

    /// Whether a frame of this run is drawn with per-node detail: when the run did not record
    /// it for every cycle and the playhead is paused (a re-run in the worker recovers it).
    pub fn frame_detail(&self, playing: bool) -> bool {
        !self.detail_all && !playing
    }

    /// Where stop `stop` is in this run, in terms another run of an edited scenario can
    /// place ([`Summary::stop_of`]).
    pub fn position(&self, stop: u32) -> Position {
        if stop + 1 >= self.stops {
            return Position::End;
        }
        match self.cycle_of(stop) {
            0 => Position::Before { stop },
            cycle => Position::In {
                cycle,
                offset: stop - self.cycle_first_stop[cycle as usize - 1],
            },
        }
    }

    /// The stop of this run at `position`: the last stop for the end, or for a cycle this run
    /// does not have; within a cycle the same offset, kept inside that cycle; before the first
    /// cycle the same stop, kept before it.
    pub fn stop_of(&self, position: Position) -> u32 {
        let last = self.stops.saturating_sub(1);
        match position {
            Position::End => last,
            Position::Before { stop } => stop.min(self.cycle_first_stop.first().copied().unwrap_or(last)),
            Position::In { cycle, offset } => match (cycle as usize).checked_sub(1).and_then(|i| self.cycle_first_stop.get(i)) {
                Some(&first) => {
                    let end = self.cycle_first_stop.get(cycle as usize).copied().unwrap_or(last);
                    first.saturating_add(offset).min(end.saturating_sub(1).max(first))
                }
                None => last,
            },
        }
    }
}

/// A playhead's place in a run independent of that run's stop numbers (`Summary::position`), so
/// that an edit's new run opens where the old one was: the same cycle and phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Position {
    /// The run's last stop.
    End,
    /// A stop before the first cycle.
    Before { stop: u32 },
    /// `offset` stops into cycle `cycle` (1-based).
    In { cycle: u32, offset: u32 },
}

// ---------------------------------------------------------------------------------------------
// The session.

/// What a front end needs once per run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The Kubernetes version whose scheduler ran (the page names it beside the run).
    pub kubernetes_version: crate::KubeVersion,
    pub model: Model,
    pub stops: u32,
    /// Per cycle (cycle n at index n-1): its first stop, its pod and what happened.
    pub cycle_first_stop: Vec<u32>,
    pub cycle_pod: Vec<u32>,
    /// One character per cycle (see `Marker::code`), compact for large runs.
    pub cycle_markers: String,
    /// One character per stop: its stage (`Stage::code`), so a link can name a cycle and phase.
    pub stop_stages: String,
    pub effective_config: String,
    pub has_config: bool,
    pub seed: u64,
    pub end_clock_ms: i64,
    pub bound: u32,
    pub pending: u32,
    pub evicted: u32,
    pub detail_all: bool,
    /// The timeline's step times (logical ms, in list order), for markers on the scrubber.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeline_steps_ms: Vec<i64>,
    /// The stop at which each timeline step was applied (parallel to `timeline_steps_ms`;
    /// `None` for a step the run never reached).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeline_step_stops: Vec<Option<u32>>,
}

// ---------------------------------------------------------------------------------------------
// Frames: what a screen shows at one stop.

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeLive {
    /// Requested per resource column (the pods column counts pods).
    pub used: Vec<i64>,
    /// Running pods in the order they arrived.
    pub pods: Vec<u32>,
    /// Pending pods nominated to this node.
    pub nominated: Vec<u32>,
    /// Pods deleted from this node in the current cycle (shown leaving).
    pub leaving: Vec<u32>,
    /// Pods chosen as victims in the current cycle, not yet deleted.
    pub victims: Vec<u32>,
    /// The node is not in the cluster at this stop (not yet added by the timeline, or deleted).
    #[serde(default, skip_serializing_if = "is_false")]
    pub absent: bool,
    /// Its state at this stop (the timeline may patch it): cordoned, taints, labels (as in
    /// `NodeModel`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unschedulable: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<(String, String)>,
}

/// A change to the cluster as a stop shows it: what happened, in a sentence, and what the
/// scheduling queue did about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeView {
    pub at_ms: i64,
    pub cause: ChangeCause,
    /// The timeline step's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u32>,
    pub action: ChangeAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u32>,
    /// The controller that made the change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<ObjectRef>,
    /// Why the change was not applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// E.g. "node-d was added".
    pub sentence: String,
    /// For each informer event the change caused, each pending pod it reached.
    pub moves: Vec<MoveView>,
}

/// What one informer event did to one pending pod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveView {
    /// The informer event (e.g. `NodeAdd`).
    pub event: String,
    pub pod: u32,
    /// The plugin whose queueing hint decided (the last one asked); `None` when no hint applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin: Option<String>,
    /// `Queue` or `Skip`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The plugin registered the event without a hint (always Queue).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unhinted: bool,
    /// Where the pod is afterwards (its pool when it stayed).
    pub to: QueueName,
    pub moved: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_left_ms: Option<i64>,
    /// E.g. "node-d was added: web-2 — NodeResourcesFit's hint says it may fit now →
    /// backoffQ, 0.6 s of backoff left".
    pub sentence: String,
    /// The pod's part of the sentence, after the change's: "web-2 — NodeResourcesFit's hint
    /// says it may fit now → backoffQ, 0.6 s of backoff left".
    pub pod_sentence: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueItem {
    pub pod: u32,
    pub priority: i32,
    /// Why the pod waits: the FailedScheduling message, the gates, ...
    pub note: Option<String>,
    /// Backoff expiry (logical ms), for backoffQ.
    pub until_ms: Option<i64>,
    pub nominated: Option<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueView {
    /// activeQ in pop order (PrioritySort: priority, then time of entry).
    pub active: Vec<QueueItem>,
    pub active_total: u32,
    /// backoffQ by expiry.
    pub backoff: Vec<QueueItem>,
    pub backoff_total: u32,
    pub unschedulable: Vec<QueueItem>,
    pub unschedulable_total: u32,
    pub gated: Vec<QueueItem>,
    pub gated_total: u32,
    /// The pod being scheduled.
    pub in_flight: Option<u32>,
    /// Pods of schedulers that have no profile here (never queued).
    pub foreign: Vec<u32>,
}

/// A filter-matrix row: the first plugin that rejected the node (Filter runs the plugins in
/// order and stops at the first rejection), or none when the node passed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterRow {
    pub node: u32,
    /// Index into `FilterView::plugins` of the rejecting plugin.
    pub failed_at: Option<u32>,
    pub code: Option<String>,
    pub reasons: Vec<String>,
    /// Order in which the node was visited (0-based); None when not evaluated.
    pub visit: Option<u32>,
    pub feasible: bool,
    /// Why the node has no verdict: "not evaluated" (enough feasible nodes were found) or
    /// "excluded by PreFilter".
    pub note: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterView {
    pub plugins: Vec<String>,
    /// Filter plugins PreFilter told to skip for this pod.
    pub skipped: Vec<String>,
    pub start_index: u32,
    pub num_to_find: u32,
    pub evaluated: u32,
    pub feasible: u32,
    pub nominated_first: bool,
    /// Whether per-node verdicts are available (recorded, or recovered by a re-run).
    pub detail: bool,
    /// Evaluated nodes in visiting order, then the others (capped at ROW_LIMIT).
    pub rows: Vec<FilterRow>,
    pub rows_total: u32,
    pub narrowed_to: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreRow {
    pub node: u32,
    /// Per `ScoreView::plugins`.
    pub raw: Vec<i64>,
    pub normalized: Vec<i64>,
    pub weighted: Vec<i64>,
    pub total: i64,
    pub selected: bool,
    pub tied: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreView {
    /// (plugin, weight).
    pub plugins: Vec<(String, i64)>,
    /// Score plugins PreScore told to skip.
    pub skipped: Vec<String>,
    /// Rows in the order the nodes were scored (capped at ROW_LIMIT, the winner and ties
    /// always included).
    pub rows: Vec<ScoreRow>,
    pub rows_total: u32,
    pub selected: u32,
    pub tied: Vec<u32>,
    /// Whether the table is available; false when a single node was feasible (no scoring) or
    /// the detail was not recorded.
    pub detail: bool,
    pub single_feasible: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateView {
    pub node: String,
    pub victims: Vec<u32>,
    /// Victim keys not found among the pods (should not happen).
    pub other_victims: Vec<String>,
    pub pdb_violations: i64,
    pub chosen: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PostFilterView {
    pub code: String,
    pub message: String,
    pub nominated_node: Option<String>,
    pub candidates: Vec<CandidateView>,
    pub chosen: Option<String>,
    /// Why `chosen` won over the other candidates (DefaultPreemption's rules, in a sentence).
    #[serde(default)]
    pub decided_by: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PointState {
    /// Not reached yet.
    Pending,
    Current,
    Passed,
    Failed,
    /// Not run in this cycle (e.g. PostFilter when a node was feasible).
    NotRun,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineStep {
    pub point: String,
    pub state: PointState,
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreFilterView {
    pub failed_plugin: Option<String>,
    pub code: Option<String>,
    pub reasons: Vec<String>,
    pub skipped: Vec<String>,
    pub narrowed_to: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CycleView {
    pub cycle: u32,
    pub pod: u32,
    pub profile: String,
    pub attempt: u32,
    pub time_ms: i64,
    pub stage: Stage,
    pub pipeline: Vec<PipelineStep>,
    pub pre_filter: Option<PreFilterView>,
    pub filter: Option<FilterView>,
    pub post_filter: Option<PostFilterView>,
    pub score: Option<ScoreView>,
    /// The chosen node once Reserve is reached.
    pub node: Option<u32>,
    /// The FailedScheduling message, verbatim, once reached.
    pub message: Option<String>,
    /// `Scheduled` message once bound.
    pub scheduled: Option<String>,
    pub outcome: Option<Marker>,
    /// The pod was popped straight from backoffQ because activeQ was empty
    /// (SchedulerPopFromBackoffQ): the backoff it had left (ms).
    #[serde(default)]
    pub backoff_left_ms: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    pub stop: u32,
    pub stage: Stage,
    pub cycle: u32,
    pub clock_ms: i64,
    /// Per node (trace header order); empty for large clusters.
    pub nodes: Vec<NodeLive>,
    /// Large clusters: per node, the highest share (0–100) of any resource requested.
    pub heat: Vec<u8>,
    /// Large clusters: per node, its part in the current cycle: 0 none, 1 filtered out,
    /// 2 feasible, 3 chosen.
    pub marks: Vec<u8>,
    pub queue: QueueView,
    pub cycle_view: Option<CycleView>,
    /// The pod bound at this stop, with its node (to animate its arrival).
    pub bound: Option<(u32, u32)>,
    pub running: u32,
    pub pending: u32,
    pub evicted: u32,
    /// The newest Kubernetes events (Scheduled, FailedScheduling, Preempted) up to this stop,
    /// oldest first, at most `EVENT_LIMIT`.
    pub events: Vec<EventLine>,
    /// How many events were recorded up to this stop in all.
    pub events_total: u32,
    /// DRA claims at this stop (devices and reservations), by key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<ClaimLive>,
    /// The cluster change applied at this stop (`Stage::Change`), with the queue's answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<ChangeView>,
}

/// At most this many events travel with a frame.
pub const EVENT_LIMIT: usize = 100;

/// One event as `kubectl get events` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventLine {
    /// The event's sequence number in the trace.
    pub seq: u32,
    pub cycle: u32,
    /// `Warning` (FailedScheduling) rather than `Normal`.
    pub warning: bool,
    pub reason: EventReason,
    /// The pod the event is about.
    pub pod: u32,
    pub message: String,
}

/// An explanation of one filter verdict or score (`schedlab_core::view::Session::explain`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub title: String,
    pub lines: Vec<String>,
}

/// A resource amount in the units people read: cores, binary bytes, counts.
pub fn format_amount(resource: &str, v: i64) -> String {
    if resource == "cpu" {
        if v % 1000 == 0 {
            format!("{}", v / 1000)
        } else if v.abs() >= 1000 {
            let s = format!("{:.3}", v as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            format!("{v}m")
        }
    } else if resource == "memory" || resource == "ephemeral-storage" || resource.starts_with("hugepages-") {
        format_bytes(v)
    } else {
        v.to_string()
    }
}

pub fn format_bytes(v: i64) -> String {
    const UNITS: [(&str, i64); 4] = [("Ti", 1 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)];
    for (u, s) in UNITS {
        if v.abs() >= s {
            if v % s == 0 {
                return format!("{}{u}", v / s);
            }
            let x = v as f64 / s as f64;
            let t = format!("{x:.2}");
            return format!("{}{u}", t.trim_end_matches('0').trim_end_matches('.'));
        }
    }
    v.to_string()
}

#[cfg(test)]
mod stage_tests {
    use super::Stage;

    /// The phases a link can open at: every stage of a cycle, each found again by its label.
    #[test]
    fn cycle_phases_round_trip_by_name() {
        let phases: Vec<Stage> = Stage::ALL.into_iter().filter(|s| s.in_cycle()).collect();
        assert_eq!(phases.len(), Stage::ALL.len() - 3);
        assert!(!phases.contains(&Stage::Ready) && !phases.contains(&Stage::Quiet) && !phases.contains(&Stage::Change));
        for p in phases {
            assert_eq!(Stage::from_name(p.label()), Some(p), "{}", p.label());
        }
    }
}
