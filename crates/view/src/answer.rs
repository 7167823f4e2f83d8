//! Plain-language answers about one pod of a run (`schedlab_core::answer::why`): why it is on
//! its node, or why it is pending and the smallest verified changes that would schedule it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The answer for one pod.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// `namespace/name`.
    pub pod: String,
    /// The node the pod ran on, if any.
    pub node: Option<String>,
    /// One or two sentences with the numbers.
    pub sentences: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub here: Option<WhyHere>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<WhyPending>,
}

/// Why a bound pod is on its node: the winner's total against the runner-up's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WhyHere {
    /// The cycle that bound the pod (0: bound in the file, no cycle).
    pub cycle: u32,
    pub node: String,
    /// The winner's total (absent when no score table was computed: one feasible node).
    pub total: Option<i64>,
    pub runner_up: Option<String>,
    pub runner_up_total: Option<i64>,
    /// `total - runner_up_total` (0: a tie broken at random).
    pub margin: i64,
    /// Every scoring plugin's weighted scores on both nodes, largest difference first.
    pub plugins: Vec<PluginDifference>,
    /// Nodes Filter rejected in that cycle.
    pub rejected: usize,
    pub feasible: u32,
    pub cells: Vec<CellRef>,
}

/// One plugin's weighted scores on the winner and the runner-up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginDifference {
    pub plugin: String,
    pub weight: i64,
    pub winner: i64,
    pub runner_up: i64,
    /// `winner - runner_up`.
    pub difference: i64,
    /// The difference favours the winner by at least the margin: without this plugin the
    /// runner-up would have tied or won.
    pub decisive: bool,
}

/// Why a pod is pending.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WhyPending {
    /// The pod's last scheduling cycle (0: it never reached one).
    pub cycle: u32,
    pub attempts: u32,
    /// The last FailedScheduling message (or why the pod never reached a cycle).
    pub message: String,
    /// The reasons of the last cycle, grouped as the FailedScheduling message groups them.
    pub reasons: Vec<ReasonGroup>,
    /// What preemption tried and why it did not help, in sentences.
    pub preemption: Vec<String>,
    /// Changes that make the pod schedule, each verified by re-running the scenario with it
    /// applied (same seed, same controllers), smallest first.
    pub suggestions: Vec<Suggestion>,
    /// How many candidate changes were tried.
    pub tried: usize,
}

/// A rejection reason and the nodes that gave it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasonGroup {
    pub plugin: String,
    pub reason: String,
    pub nodes: Vec<String>,
}

/// A change that, applied to the scenario, makes the pod schedule (verified).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub sentence: String,
    /// The edits, applied in order to the scenario's documents (JSON text on the wire: an
    /// `Edit` holds free-form JSON).
    #[serde(with = "crate::wire::as_json_text")]
    pub edits: Vec<Edit>,
    /// The node the pod ran on in the verifying re-run.
    pub lands_on: String,
    /// The order of suggestions: (kind of change, its magnitude); smaller is smaller.
    pub size: (u32, i64),
    /// The cells of the last cycle this suggestion answers.
    pub cells: Vec<CellRef>,
}

/// An edit of the scenario's documents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum Edit {
    /// An RFC 7386 JSON merge patch of the document of that kind, namespace and name.
    #[serde(rename_all = "camelCase")]
    Patch {
        kind: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namespace: Option<String>,
        name: String,
        merge: Value,
    },
    /// A new document.
    #[serde(rename_all = "camelCase")]
    Add { document: Value },
}

/// A cell of a cycle view: a node's row for one plugin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CellRef {
    pub cycle: u32,
    pub node: String,
    pub plugin: String,
    /// `Filter` or `Score`.
    pub point: String,
}

/// Two runs side by side (`schedlab_core::answer::compare`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub a: RunFigures,
    pub b: RunFigures,
    /// The pods whose node differs between the runs (`namespace/name`), in the first run's order
    /// (then the second's pods the first did not have).
    pub differing: Vec<String>,
    /// Every pod of either run: its node and its bound node's total in each.
    pub pods: Vec<PodComparison>,
    /// The effective configurations' difference, line by line (`- ` first run only, `+ ` second
    /// run only); empty when they are the same.
    pub config_diff: Vec<String>,
}

/// One run's figures at its end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFigures {
    /// What this run is (`seed 1`, a file name, a configuration file).
    pub label: String,
    /// Nodes with at least one running pod, of all nodes.
    pub nodes_used: usize,
    pub nodes: usize,
    pub pods_pending: usize,
    pub preemptions: usize,
    /// Scheduling attempts of all pods.
    pub attempts: u64,
    pub utilisation: Vec<Utilisation>,
}

/// A resource's requested share of allocatable across the nodes, in percent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Utilisation {
    pub resource: String,
    /// Requested over allocatable, summed over the nodes.
    pub overall: f64,
    pub min: f64,
    pub max: f64,
    /// The standard deviation of the per-node percentages.
    pub stddev: f64,
}

/// A pod in both runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodComparison {
    pub pod: String,
    pub a: Option<String>,
    pub b: Option<String>,
    /// The total the bound node got in the binding cycle (absent: not scored).
    pub score_a: Option<i64>,
    pub score_b: Option<i64>,
    /// `score_b - score_a` when both were scored.
    pub score_difference: Option<i64>,
}

/// "What changes if I upgrade?": one scenario run by two Kubernetes versions
/// (`schedlab_core::answer::compare_versions`), each difference with the change that explains
/// it where re-running with that change alone reproduces it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionComparison {
    pub from: crate::KubeVersion,
    pub to: crate::KubeVersion,
    /// Everything on which the two versions' tables differ (each a switch the attribution
    /// toggled alone), in the tables' order.
    pub changes: Vec<VersionChange>,
    /// The pods that answer differently, in the first run's order.
    pub pods: Vec<PodVersionDifference>,
    /// The two runs side by side (figures, pods' nodes, configurations).
    pub runs: Comparison,
}

/// One change between the two versions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionChange {
    /// The switch's name (`TaintFilterReason`, `gate:SchedulerAsyncAPICalls`).
    pub switch: String,
    /// The upstream change (`kubernetes#134740`), where the version's table names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    pub what: String,
    /// How many of the differences (pod and field) this change alone reproduces.
    pub explains: usize,
}

/// A pod that answers differently: each field that differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodVersionDifference {
    /// `namespace/name`.
    pub pod: String,
    pub fields: Vec<FieldDifference>,
}

/// One field of a pod's answer (as `schedlab run --output json` reports it) in each version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldDifference {
    /// `node`, `nominatedNode`, `message`, `attempts`, `evicted` or `score` (the bound node's
    /// total).
    pub field: String,
    pub from: Option<String>,
    pub to: Option<String>,
    /// The switches (`VersionChange::switch`) each of which, taken alone from the second
    /// version into a run of the first, gives this field the second version's value. Empty:
    /// unexplained (no single change reproduces it).
    pub explained_by: Vec<String>,
}
