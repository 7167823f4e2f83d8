//! schedlab-view: the data a front end renders, shared by the engine (`schedlab-core`, which
//! builds it) and the playground's page (`schedlab-web`, which only reads it). Pure data and
//! pure helpers on it: serde and serde_json, nothing of the engine, so the page cannot reach the
//! engine through this crate.
//!
//! - `answer`: why a pod is here or pending, with verified suggestions;
//! - `view`: the serializable views of a run (`Summary`, `Frame`, `CycleView`, …);
//! - `QueueName`: the scheduling queue's pools, as the trace and the views name them;
//! - `import`: what importing a cluster reports (`ImportReport`);
//! - `lesson`: a lesson as a page shows it and its goals' verdicts on a run;
//! - `duration`: Go durations (`1m30s`), as timeline steps write them;
//! - `svg`: the cluster view and the cycle view as standalone SVG (exports for slides);
//! - `protocol`: the messages between the page and the engine's Web Worker;
//! - `version`: which Kubernetes version a run reproduces (`KubeVersion`).
//! - `wire`: the compact binary encoding of `protocol`'s messages between page and worker.
//! - `yaml`: the one YAML writer (go-yaml v2's layout and quoting), for the configuration the
//!   engine prints, imports and the page's actions.
//! - `words`: the closed sets the engine writes and the page matches on (event reasons, change
//!   causes and actions, object references, taints), as data rather than text.

pub mod answer;
pub mod duration;
pub mod import;
pub mod lesson;
pub mod protocol;
pub mod svg;
pub mod version;
pub mod view;
pub mod wire;
pub mod words;
pub mod yaml;

pub use duration::{format_go_duration, parse_go_duration};
pub use version::KubeVersion;
pub use words::{ChangeAction, ChangeCause, EventReason, FinishedPhase, ObjectKind, ObjectRef, Taint, TaintEffect};

use serde::{Deserialize, Serialize};

/// Where a pod is in the scheduling queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum QueueName {
    /// Not in the queue (new, bound, deleted).
    None,
    ActiveQ,
    BackoffQ,
    Unschedulable,
    Gated,
    /// Popped and being scheduled.
    InFlight,
}
