//! Messages between the page and the engine's Web Worker, encoded with `crate::wire` (a compact
//! binary form, not JSON) in buffers transferred through postMessage.
//!
//! Both enums use serde's default, externally tagged form: an internally tagged enum is
//! buffered into serde's `Content` before its variant is decoded, which needs a self-describing
//! format and compiled every view type's decoder a second time.

use crate::answer::{Answer, Comparison, Edit, VersionComparison};
use crate::import::ImportReport;
use crate::lesson::LessonRun;
use crate::version::KubeVersion;
use crate::view::{Explanation, Frame, Position, Summary};
use serde::{Deserialize, Serialize};

/// Where the page expects a new run to open, sent with the load: the worker answers the
/// frame there together with `Response::Loaded`, which saves the page a round trip before the
/// run is shown. Only a guess: the page decides where the run opens once it has the summary
/// (crates/web/src/player.rs: `opening`), and asks for another frame when this one is not it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenGuess {
    pub at: OpenAt,
    /// Whether the run will play (a paused large run's frame carries per-node detail).
    pub playing: bool,
}

/// The stop an [`OpenGuess`] names, resolved against the new run's summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OpenAt {
    /// A new scenario: its start, or its end (paused) when the run is large.
    Fresh,
    /// This stop, or the last one of a shorter run.
    Stop(u32),
    /// The place of the playhead in the run before (an edit's new run keeps its cycle and phase).
    Same(Position),
}

impl OpenGuess {
    /// The stop and the frame's detail (`Summary::frame_detail`) this guess means in a run
    /// with `summary`.
    pub fn resolve(&self, summary: &Summary) -> (u32, bool) {
        let last = summary.stops.saturating_sub(1);
        let (stop, playing) = match self.at {
            OpenAt::Fresh if summary.model.large => (last, false),
            OpenAt::Fresh => (0, self.playing),
            OpenAt::Stop(stop) => (stop.min(last), self.playing),
            OpenAt::Same(position) => (summary.stop_of(position), self.playing),
        };
        (stop, summary.frame_detail(playing))
    }
}

/// The frame at a stop, as `Response::Loaded` carries it for an [`OpenGuess`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenedFrame {
    pub stop: u32,
    pub detail: bool,
    pub frame: Frame,
}

/// Parameters of a generated (synthetic) cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GenSpec {
    pub nodes: u32,
    pub pods: u32,
    pub zones: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Request {
    /// Load and run a scenario; the previous run stays when this one is invalid. With
    /// `controllers`, the workload controllers create their pods first. The scheduler is
    /// `kubernetesVersion`'s with `featureGates` (kube-scheduler's `--feature-gates` syntax)
    /// over its defaults.
    #[serde(rename_all = "camelCase")]
    Load {
        id: u64,
        text: String,
        seed: u64,
        #[serde(default = "yes")]
        controllers: bool,
        #[serde(default)]
        kubernetes_version: KubeVersion,
        #[serde(default)]
        feature_gates: String,
        /// When the text holds a Lesson: the lesson's starting text, against which each
        /// exercise's edit scope is judged (`None`: the text itself, every edit in scope).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lesson_start: Option<String>,
        /// Where the page expects the run to open: its frame comes with `Response::Loaded`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        open: Option<OpenGuess>,
    },
    /// Generate a synthetic cluster, then load and run it.
    #[serde(rename_all = "camelCase")]
    Generate {
        id: u64,
        spec: GenSpec,
        seed: u64,
        #[serde(default)]
        kubernetes_version: KubeVersion,
        /// As `Load`'s.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        open: Option<OpenGuess>,
    },
    /// The frame at a stop of run `run`.
    #[serde(rename_all = "camelCase")]
    Frame { id: u64, run: u64, stop: u32, detail: bool },
    /// Explain a filter (score = false) or score cell; an empty plugin explains the row.
    #[serde(rename_all = "camelCase")]
    Explain {
        id: u64,
        run: u64,
        cycle: u32,
        node: u32,
        plugin: String,
        score: bool,
    },
    /// The YAML text of a generated scenario.
    #[serde(rename_all = "camelCase")]
    GeneratedText { id: u64, spec: GenSpec },
    /// Import `kubectl` output (a cluster dump) into a scenario (`schedlab_core::import`).
    #[serde(rename_all = "camelCase")]
    Import { id: u64, text: String },
    /// The YAML documents of each text, as JSON (`Response::Documents`): the page reads the
    /// scenario's own objects (a node to copy, a pod's owner) without a YAML parser of its own.
    #[serde(rename_all = "camelCase")]
    Documents { id: u64, texts: Vec<String> },
    /// A file for a real cluster made from the scenario `text` (docs/export.md), answered by
    /// `Response::Exported`.
    #[serde(rename_all = "camelCase")]
    Export {
        id: u64,
        text: String,
        file: ExportFile,
        #[serde(default)]
        kubernetes_version: KubeVersion,
        #[serde(default)]
        feature_gates: String,
    },
    /// The text of scenario `text` with its Lesson's exercise `exercise` solved (the engine
    /// applies the solution: `schedlab_core::lesson::apply_solution`), as `Response::Text`, or
    /// `Response::Failed` saying why not.
    #[serde(rename_all = "camelCase")]
    Solve { id: u64, text: String, exercise: u32 },
    /// Why pod `pod` (`namespace/name`) of run `run` is on its node, or why it is pending with
    /// the verified changes that would schedule it (`Response::Answered`). The worker re-runs the
    /// scenario (and each candidate change): asked only when the user asks.
    #[serde(rename_all = "camelCase")]
    Why { id: u64, run: u64, pod: String },
    /// Run `run`'s scenario side by side with a second run of it (`Response::Compared`).
    #[serde(rename_all = "camelCase")]
    Compare { id: u64, run: u64, with: CompareWith },
    /// "Play both": the second run of run `run`'s last comparison (`Response::SecondRun`, its
    /// summary); the worker keeps it beside the run on screen and answers `Both` about it.
    #[serde(rename_all = "camelCase")]
    SecondRun { id: u64, run: u64 },
    /// Both runs of the comparison at the same logical moment: the end of cycle `cycle` (0:
    /// before the first), a run with fewer cycles at its end (`Response::Both`).
    #[serde(rename_all = "camelCase")]
    Both { id: u64, run: u64, cycle: u32 },
    /// Each text with its edits applied, only the documents edited rewritten
    /// (`Response::Edited`; `Failed` when an edit finds no document).
    #[serde(rename_all = "camelCase")]
    ApplyEdits {
        id: u64,
        #[serde(with = "crate::wire::as_json_text")]
        texts: Vec<(String, Vec<Edit>)>,
    },
    /// This worker replaces one that stopped: its runs are numbered after `run` (the last
    /// run the page was given), so a run number never names two runs. Not answered.
    #[serde(rename_all = "camelCase")]
    Continue { run: u64 },
    /// The page is idle and may ask for a large run next: run the engine's hot code on small
    /// throwaway scenarios now, in short slices between requests, so that the browser has
    /// optimised it by then (a wasm function runs unoptimised code until it has done enough
    /// work, and a call already running never switches). Changes nothing the page sees. Not
    /// answered.
    WarmUp,
    /// Stop the worker on purpose while answering request `id` (the page sends it only
    /// through its test hooks, `window.__schedlabTest`: docs/web.md).
    #[serde(rename_all = "camelCase")]
    Crash { id: u64, how: CrashKind },
}

impl Request {
    /// The id the answer will carry (`Continue` and `WarmUp` are not answered).
    pub fn id(&self) -> Option<u64> {
        match self {
            Request::Load { id, .. }
            | Request::Generate { id, .. }
            | Request::Frame { id, .. }
            | Request::Explain { id, .. }
            | Request::GeneratedText { id, .. }
            | Request::Import { id, .. }
            | Request::Documents { id, .. }
            | Request::Export { id, .. }
            | Request::Solve { id, .. }
            | Request::Why { id, .. }
            | Request::Compare { id, .. }
            | Request::SecondRun { id, .. }
            | Request::Both { id, .. }
            | Request::ApplyEdits { id, .. }
            | Request::Crash { id, .. } => Some(*id),
            Request::Continue { .. } | Request::WarmUp => None,
        }
    }
}

/// Which file `Request::Export` asks for (the pictures the page draws itself, `crate::svg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ExportFile {
    /// The KubeSchedulerConfiguration for kube-scheduler's `--config`.
    Config,
    /// The objects for `kubectl apply -f`.
    Manifests,
    /// The same, the nodes marked as KWOK fake nodes.
    ManifestsKwok,
}

/// The second run of a `Request::Compare`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CompareWith {
    /// The scenario with its KubeSchedulerConfiguration replaced by this one (YAML).
    Config(String),
    /// The scenario with another seed.
    Seed(u64),
    /// Another scenario text (say, the scenario before the last edit).
    Text(String),
    /// The same scenario run by another Kubernetes version's scheduler ("what changes if I
    /// upgrade?"): the answer also names, per difference, the version change that explains it.
    Version(KubeVersion),
}

/// How a `Request::Crash` stops the worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CrashKind {
    /// A Rust panic: the worker's panic hook answers `Response::Crashed`, then the wasm traps.
    Panic,
    /// A trap that no hook sees (as an abort or running out of memory would): the page only
    /// learns of it through the worker's `error` event.
    Abort,
}

/// Where and why the engine panicked (Rust's `PanicHookInfo`, as data).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PanicReport {
    pub message: String,
    /// The source file, line and column of the panic (empty file: unknown).
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// The largest generated cluster.
pub const MAX_NODES: u32 = 20_000;
pub const MAX_PODS: u32 = 50_000;

/// The spec with its numbers brought into the supported range.
pub fn clamp(spec: &GenSpec) -> GenSpec {
    GenSpec {
        nodes: spec.nodes.clamp(1, MAX_NODES),
        pods: spec.pods.clamp(0, MAX_PODS),
        zones: spec.zones.clamp(1, 26),
    }
}

fn yes() -> bool {
    true
}

/// A load error placed in the scenario text (1-based; 0 = unknown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadIssue {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Response {
    Ready,
    #[serde(rename_all = "camelCase")]
    Progress {
        id: u64,
        cycles: u32,
        pods: u32,
    },
    #[serde(rename_all = "camelCase")]
    Loaded {
        id: u64,
        run: u64,
        summary: Box<Summary>,
        /// The frame at the stop the request's `open` guessed (none without a guess). Before
        /// `load_ms`: web/bench/bench.mjs reads the timings from the message's last bytes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_frame: Option<Box<OpenedFrame>>,
        load_ms: f64,
        run_ms: f64,
        /// The scenario's Lesson and its goals' verdicts on this run (none without a Lesson).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lesson: Option<Box<LessonRun>>,
    },
    #[serde(rename_all = "camelCase")]
    Invalid {
        id: u64,
        issues: Vec<LoadIssue>,
    },
    #[serde(rename_all = "camelCase")]
    Frame {
        id: u64,
        run: u64,
        frame: Box<Frame>,
    },
    #[serde(rename_all = "camelCase")]
    Explained {
        id: u64,
        run: u64,
        explanation: Explanation,
    },
    #[serde(rename_all = "camelCase")]
    Text {
        id: u64,
        text: String,
    },
    #[serde(rename_all = "camelCase")]
    Failed {
        id: u64,
        message: String,
    },
    /// Request `id` (a frame or an explanation) is about run `run`, which the worker no longer
    /// has: a newer load replaced it. Not an error; the page only frees the request's slot.
    #[serde(rename_all = "camelCase")]
    Stale {
        id: u64,
        run: u64,
    },
    /// The scenario made from an `Import` (empty when nothing could be imported) and the report
    /// (its `scenario_text` left empty: it is `text`).
    #[serde(rename_all = "camelCase")]
    Imported {
        id: u64,
        text: String,
        report: Box<ImportReport>,
    },
    /// The worker panicked while answering request `id` (`None`: between requests) and stops:
    /// posted by its panic hook just before the wasm traps. Its instance is unusable after
    /// this; the page starts a new worker (crates/web/src/bridge.rs).
    #[serde(rename_all = "camelCase")]
    Crashed {
        id: Option<u64>,
        panic: PanicReport,
    },
    /// The file a `Request::Export` asked for, or why it could not be made.
    #[serde(rename_all = "camelCase")]
    Exported {
        id: u64,
        file: Result<String, String>,
    },
    /// The answer to a `Why`.
    #[serde(rename_all = "camelCase")]
    Answered {
        id: u64,
        run: u64,
        answer: Box<Answer>,
    },
    /// The answer to a `Compare`.
    #[serde(rename_all = "camelCase")]
    Compared {
        id: u64,
        run: u64,
        comparison: Box<Comparison>,
        /// For `CompareWith::Version`: what each version changed and which change explains
        /// each difference (its `runs` is `comparison`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        versions: Option<Box<VersionComparison>>,
    },
    /// The second run of the last comparison (`Request::SecondRun`): its summary, as a load's.
    #[serde(rename_all = "camelCase")]
    SecondRun {
        id: u64,
        run: u64,
        summary: Box<Summary>,
    },
    /// The two runs' frames at the end of cycle `cycle` (`Request::Both`): the run on screen's
    /// and the second run's.
    #[serde(rename_all = "camelCase")]
    Both {
        id: u64,
        run: u64,
        cycle: u32,
        frames: Box<[Frame; 2]>,
    },
    /// The texts of an `ApplyEdits`, edited, in order.
    #[serde(rename_all = "camelCase")]
    Edited {
        id: u64,
        texts: Vec<String>,
    },
    /// Request `id` needs the full engine: this is the light worker (built without the CEL
    /// interpreter) and what it was asked about holds a CEL expression (a DRA device selector,
    /// the `schedlab.dev/CEL` plugin's args), found when the scenario was loaded, before
    /// anything ran. Not an error: the page starts the full worker and asks it again
    /// (crates/web/src/bridge.rs).
    #[serde(rename_all = "camelCase")]
    NeedsFullEngine {
        id: u64,
    },
    /// Per text of a `Documents` request, its documents in order (a `…List`'s items in its
    /// place; documents that do not parse are left out).
    #[serde(rename_all = "camelCase")]
    Documents {
        id: u64,
        #[serde(with = "crate::wire::as_json_text")]
        docs: Vec<Vec<serde_json::Value>>,
    },
}

impl Response {
    /// The id of the request this answers (`None`: the worker's own news, not an answer:
    /// `Ready`, `Progress`, `NeedsFullEngine`, and `Crashed` between requests).
    pub fn id(&self) -> Option<u64> {
        match self {
            Response::Ready | Response::Progress { .. } | Response::NeedsFullEngine { .. } => None,
            Response::Crashed { id, .. } => *id,
            Response::Loaded { id, .. }
            | Response::Invalid { id, .. }
            | Response::Frame { id, .. }
            | Response::Explained { id, .. }
            | Response::Text { id, .. }
            | Response::Failed { id, .. }
            | Response::Stale { id, .. }
            | Response::Imported { id, .. }
            | Response::Exported { id, .. }
            | Response::Answered { id, .. }
            | Response::Compared { id, .. }
            | Response::SecondRun { id, .. }
            | Response::Both { id, .. }
            | Response::Edited { id, .. }
            | Response::Documents { id, .. } => Some(*id),
        }
    }
}
