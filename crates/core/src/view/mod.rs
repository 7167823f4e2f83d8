//! Views of a run for the playground (and any other front end): what the cluster, the queue
//! and the current scheduling cycle look like at any point of the trace, and explanations of
//! single verdicts and scores.
//!
//! A `Session` owns one finished run. Its trace is cut into *stops*, one per extension point
//! reached in each cycle (plus the failure handling and the evictions of a preemption), so a
//! front end can step through a run phase by phase. `Session::frame` replays the trace up to a
//! stop and returns everything a screen shows at that moment, already summarised for large
//! clusters (a utilisation heatmap instead of node cards, capped lists). Nothing here decides
//! anything: the numbers come from the trace, and detail the run did not record is recovered by
//! re-running the same scenario and seed for those cycles (the engine is deterministic).
//!
//! All types here serialize to JSON (camelCase) and deserialize again, so a Web Worker can hold
//! the session and send views to the page.

use crate::engine::Engine;
use crate::framework::{Resource, RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, RESOURCE_PODS};
use crate::load::Scenario;
use crate::trace::{ChangeAction, CycleOutcome, Detail, EventReason, ObjectRef, QueueName, TraceEvent};
use schedlab_view::words::ObjectKind;
use std::collections::{BTreeMap, BTreeSet, HashMap};

mod changes;
mod cross_check;
mod cycle;
mod documents;
mod dra;
pub mod explain;
mod frame;
mod model;
mod replay;
mod session;
mod stops;

// The data types live in `schedlab-view` (the page renders them without the engine).
pub use cross_check::CrossCheck;
pub use documents::documents;
pub use schedlab_view::view::format_amount as explain_format_amount;
pub use schedlab_view::view::{
    CandidateView, ChangeView, ClaimLive, ClaimModel, CycleView, DeviceModel, DraModel, EventLine, Explanation, FilterRow, FilterView,
    Frame, Marker, Model, MoveView, NodeLive, NodeModel, PipelineStep, PodModel, PointState, PostFilterView, PreFilterView, ProfileModel,
    QueueItem, QueueView, ResourceCol, ScoreRow, ScoreView, Stage, Stop, Summary, Unit, EVENT_LIMIT,
};
pub use session::{Session, SessionOptions, Spent};

/// Above this many nodes the cluster is shown as a heatmap (no per-node cards) and the node
/// model carries no labels or taints.
pub const CARD_NODE_LIMIT: usize = 200;
/// Queue lists are cut to this many pods (the totals are reported).
pub const LIST_LIMIT: usize = 60;
/// Filter and score tables are cut to this many rows (the totals are reported).
pub const ROW_LIMIT: usize = 200;
/// Runs larger than this (nodes × pods to schedule) record per-node detail only on demand.
pub const DETAIL_ALL_LIMIT: usize = 400_000;
/// Cycles whose detail is recovered together by one re-run.
const DETAIL_BATCH: u32 = 32;

fn zone_of(labels: &crate::api::Labels) -> &str {
    labels
        .get("topology.kubernetes.io/zone")
        .or_else(|| labels.get("failure-domain.beta.kubernetes.io/zone"))
        .map(String::as_str)
        .unwrap_or("")
}

const HIDDEN_LABELS: [&str; 5] = [
    "kubernetes.io/hostname",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
];

/// A node's labels as its card shows them: without the ones the card already says (hostname,
/// zone, region).
fn shown_labels(labels: &crate::api::Labels) -> Vec<(String, String)> {
    labels
        .iter()
        .filter(|(k, _)| !HIDDEN_LABELS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests;
