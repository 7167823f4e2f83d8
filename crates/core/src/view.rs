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

use crate::engine::{Engine, EngineOptions, StepOutcome};
use crate::framework::{Resource, RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, RESOURCE_PODS};
use crate::load::Scenario;
use crate::trace::{CycleOutcome, Detail, QueueName, TraceEvent};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

mod changes;
mod dra;
mod explain;
pub use dra::{ClaimLive, ClaimModel, DeviceModel, DraModel};
pub use explain::format_amount as explain_format_amount;
pub use explain::Explanation;

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
    /// `key=value:Effect` (empty for large clusters).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub unschedulable: bool,
    /// Allocatable amount per `Model::resources` column (left out of a large cluster's summary:
    /// its heatmap comes with each frame).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allocatable: Vec<i64>,
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
    /// The workload controller that created the pod (`Kind/name`, e.g. `ReplicaSet/web-5x7c`);
    /// `None` for the scenario's own pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
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
    crate::config::DEFAULT_SCHEDULER_NAME.into()
}
fn is_default_profile(s: &str) -> bool {
    s == crate::config::DEFAULT_SCHEDULER_NAME
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
}

fn zone_of(labels: &BTreeMap<String, String>) -> &str {
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

impl Model {
    /// Adds the pods and nodes a timeline created during the run (appended to the trace
    /// header, so indices keep matching). Created pods are not running from the start.
    fn add_created(&mut self, e: &Engine) {
        let amount = |r: &Resource, col: &ResourceCol| -> i64 {
            match col.name.as_str() {
                RESOURCE_CPU => r.milli_cpu,
                RESOURCE_MEMORY => r.memory,
                RESOURCE_PODS => r.allowed_pod_number,
                RESOURCE_EPHEMERAL_STORAGE => r.ephemeral_storage,
                n => r.scalar(n),
            }
        };
        if e.pods.len() > self.pods.len() {
            self.created_pods_from = Some(self.pods.len() as u32);
        }
        if e.trace.header.nodes.len() > self.nodes.len() {
            self.created_nodes_from = Some(self.nodes.len() as u32);
        }
        // Pods a controller created while the cluster ran, with the controller.
        let by_controller: HashMap<u32, String> = e
            .trace
            .events
            .iter()
            .filter_map(|ev| match ev {
                TraceEvent::Change {
                    action,
                    pod: Some(p),
                    by: Some(b),
                    skipped: None,
                    ..
                } if action == "create" => Some((*p, b.clone())),
                _ => None,
            })
            .collect();
        for (i, p) in e.pods.iter().enumerate().skip(self.pods.len()) {
            let info = &p.info;
            self.pods.push(PodModel {
                // A timeline step's pod has no creator; a controller's names it.
                created_by: by_controller.get(&(i as u32)).cloned(),
                name: info.name().to_string(),
                namespace: info.namespace().to_string(),
                priority: info.priority,
                priority_class: info.pod.spec.priority_class_name.clone().filter(|s| !s.is_empty()),
                profile: info.scheduler_name().to_string(),
                has_profile: e.frameworks.contains_key(info.scheduler_name()),
                requests: if self.large {
                    Vec::new()
                } else {
                    self.resources
                        .iter()
                        .map(|c| {
                            if c.name == RESOURCE_PODS {
                                1
                            } else {
                                amount(&info.resource.resource, c)
                            }
                        })
                        .collect()
                },
                gates: info.pod.spec.scheduling_gates.iter().map(|g| g.name.clone()).collect(),
                node: None,
                nominated: None,
                finished: false,
            });
        }
        for name in e.trace.header.nodes.iter().skip(self.nodes.len()) {
            let created = e.timeline_steps().iter().rev().find_map(|s| match &s.change {
                crate::timeline::Change::Create(o) => match &**o {
                    crate::timeline::Object::Node(n) if &n.metadata.name == name => Some(n),
                    _ => None,
                },
                _ => None,
            });
            let Some(n) = created else { continue };
            let z = zone_of(&n.metadata.labels).to_string();
            let zone = match self.zones.iter().position(|x| *x == z) {
                Some(i) => i as u32,
                None => {
                    self.zones.push(z);
                    (self.zones.len() - 1) as u32
                }
            };
            let alloc = Resource::from_list(&n.status.allocatable);
            self.display_order.push(self.nodes.len() as u32);
            self.nodes.push(NodeModel {
                name: name.clone(),
                zone,
                labels: n
                    .metadata
                    .labels
                    .iter()
                    .filter(|(k, _)| !HIDDEN_LABELS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                taints: n
                    .spec
                    .taints
                    .iter()
                    .map(|t| match t.value.as_deref() {
                        Some(v) if !v.is_empty() => format!("{}={}:{}", t.key, v, t.effect),
                        _ => format!("{}:{}", t.key, t.effect),
                    })
                    .collect(),
                unschedulable: n.spec.unschedulable.unwrap_or(false),
                allocatable: self.resources.iter().map(|c| amount(&alloc, c)).collect(),
            });
        }
    }

    /// Builds the model from the scenario (for document order) and the engine before it ran.
    fn build(sc: &Scenario, e: &Engine) -> Model {
        let large = e.snapshot.nodes().len() > CARD_NODE_LIMIT;
        // Columns: cpu, memory, pods, then ephemeral storage and scalar resources that a node
        // offers or a pod requests.
        let mut extra: BTreeSet<String> = BTreeSet::new();
        let mut eph = false;
        for n in e.snapshot.nodes() {
            for (name, _) in &n.allocatable.scalar {
                extra.insert(name.clone());
            }
        }
        for p in &e.pods {
            let r = &p.info.resource.resource;
            eph |= r.ephemeral_storage > 0;
            for (name, v) in &r.scalar {
                if *v > 0 {
                    extra.insert(name.clone());
                }
            }
        }
        let mut resources = vec![
            ResourceCol {
                name: RESOURCE_CPU.into(),
                unit: Unit::MilliCpu,
            },
            ResourceCol {
                name: RESOURCE_MEMORY.into(),
                unit: Unit::Bytes,
            },
            ResourceCol {
                name: RESOURCE_PODS.into(),
                unit: Unit::Count,
            },
        ];
        if eph {
            resources.push(ResourceCol {
                name: RESOURCE_EPHEMERAL_STORAGE.into(),
                unit: Unit::Bytes,
            });
        }
        for name in extra {
            let unit = if name.starts_with("hugepages-") { Unit::Bytes } else { Unit::Count };
            resources.push(ResourceCol { name, unit });
        }
        let amount = |r: &Resource, col: &ResourceCol| -> i64 {
            match col.name.as_str() {
                RESOURCE_CPU => r.milli_cpu,
                RESOURCE_MEMORY => r.memory,
                RESOURCE_PODS => r.allowed_pod_number,
                RESOURCE_EPHEMERAL_STORAGE => r.ephemeral_storage,
                n => r.scalar(n),
            }
        };

        let node_index: HashMap<&str, u32> = e
            .trace
            .header
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i as u32))
            .collect();
        let mut zones: Vec<String> = Vec::new();
        let mut zone_ix: HashMap<String, u32> = HashMap::new();
        // Zones in document order of first appearance.
        for n in &sc.nodes {
            let z = zone_of(&n.metadata.labels).to_string();
            if !zone_ix.contains_key(&z) {
                zone_ix.insert(z.clone(), zones.len() as u32);
                zones.push(z);
            }
        }
        let nodes = e
            .snapshot
            .nodes()
            .iter()
            .map(|ni| {
                let n = &ni.node;
                let labels = if large {
                    Vec::new()
                } else {
                    n.metadata
                        .labels
                        .iter()
                        .filter(|(k, _)| !HIDDEN_LABELS.contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                };
                let taints = if large {
                    Vec::new()
                } else {
                    n.spec
                        .taints
                        .iter()
                        .map(|t| match t.value.as_deref() {
                            Some(v) if !v.is_empty() => format!("{}={}:{}", t.key, v, t.effect),
                            _ => format!("{}:{}", t.key, t.effect),
                        })
                        .collect()
                };
                NodeModel {
                    name: ni.name().to_string(),
                    zone: zone_ix.get(zone_of(&n.metadata.labels)).copied().unwrap_or(0),
                    labels,
                    taints,
                    unschedulable: n.spec.unschedulable.unwrap_or(false),
                    allocatable: resources.iter().map(|c| amount(&ni.allocatable, c)).collect(),
                }
            })
            .collect();
        let display_order = sc
            .nodes
            .iter()
            .filter_map(|n| node_index.get(n.metadata.name.as_str()).copied())
            .collect();
        let first_created = sc.pods.len().saturating_sub(sc.created_pods);
        let pods = e
            .pods
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let info = &p.info;
                let r = &info.resource.resource;
                PodModel {
                    name: info.name().to_string(),
                    namespace: info.namespace().to_string(),
                    priority: info.priority,
                    priority_class: info.pod.spec.priority_class_name.clone().filter(|s| !s.is_empty()),
                    profile: info.scheduler_name().to_string(),
                    has_profile: e.frameworks.contains_key(info.scheduler_name()),
                    requests: resources
                        .iter()
                        .map(|c| if c.name == RESOURCE_PODS { 1 } else { amount(r, c) })
                        .collect(),
                    gates: info.pod.spec.scheduling_gates.iter().map(|g| g.name.clone()).collect(),
                    node: if p.phase == crate::engine::Phase::Running {
                        p.node.as_deref().and_then(|n| node_index.get(n).copied())
                    } else {
                        None
                    },
                    nominated: p.nominated_node.as_deref().and_then(|n| node_index.get(n).copied()),
                    finished: p.phase.is_finished(),
                    created_by: (i >= first_created)
                        .then(|| info.pod.metadata.owner_references.iter().find(|o| o.controller == Some(true)))
                        .flatten()
                        .map(|o| format!("{}/{}", o.kind, o.name)),
                }
            })
            .collect();
        let profiles = e
            .frameworks
            .values()
            .map(|fw| {
                let pl = &fw.profile.plugins;
                let names = |v: &[crate::plugins::PluginName]| v.iter().map(|p| p.as_str().to_string()).collect::<Vec<_>>();
                let points = vec![
                    ("PreEnqueue".to_string(), names(&pl.pre_enqueue)),
                    ("QueueSort".to_string(), names(&pl.queue_sort)),
                    ("PreFilter".to_string(), names(&pl.pre_filter)),
                    ("Filter".to_string(), names(&pl.filter)),
                    ("PostFilter".to_string(), names(&pl.post_filter)),
                    ("PreScore".to_string(), names(&pl.pre_score)),
                    ("Score".to_string(), names(&pl.score)),
                    ("Reserve".to_string(), names(&pl.reserve)),
                    ("Permit".to_string(), names(&pl.permit)),
                    ("PreBind".to_string(), names(&pl.pre_bind)),
                    ("Bind".to_string(), names(&pl.bind)),
                    ("PostBind".to_string(), names(&pl.post_bind)),
                ];
                let mut notes = Vec::new();
                if pl.score.contains(&crate::plugins::PluginName::NodeResourcesFit) {
                    let ss = &fw.profile.args.node_resources_fit.scoring_strategy;
                    let res: Vec<String> = ss.resources.iter().map(|r| format!("{}×{}", r.name, r.weight)).collect();
                    notes.push(format!("NodeResourcesFit scores with {:?} ({})", ss.kind, res.join(", ")));
                }
                if let Some(p) = fw.profile.percentage_of_nodes_to_score {
                    notes.push(format!("percentageOfNodesToScore: {p}"));
                }
                ProfileModel {
                    name: fw.profile.scheduler_name.clone(),
                    points,
                    weights: fw.profile.weights.iter().map(|(k, v)| (k.as_str().to_string(), *v)).collect(),
                    percentage_of_nodes_to_score: fw.profile.percentage_of_nodes_to_score,
                    notes,
                }
            })
            .collect();
        Model {
            resources,
            zones,
            nodes,
            display_order,
            pods,
            profiles,
            large,
            dra: DraModel::build(e),
            initial_claims: dra::initial_claims(e).into_values().collect(),
            created_pods_from: None,
            created_nodes_from: None,
        }
    }
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
            Stage::Failed => "FailedScheduling",
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
        self.stop_stages.as_bytes().get(stop as usize).and_then(|&b| Stage::from_code(b as char))
    }

    /// The cycle (1-based; 0 before the first) stop `stop` belongs to.
    pub fn cycle_of(&self, stop: u32) -> u32 {
        self.cycle_first_stop.partition_point(|&f| f <= stop) as u32
    }

}

#[derive(Clone, Debug)]
struct CycleInfo {
    pod: u32,
    /// Trace index of CycleStart and CycleEnd.
    start: usize,
    end: usize,
    first_stop: u32,
    marker: Marker,
    /// Popped straight from backoffQ (activeQ was empty): the backoff left then (ms).
    backoff_left_ms: Option<i64>,
}

fn build_stops(events: &[TraceEvent]) -> (Vec<Stop>, Vec<CycleInfo>) {
    let mut stops = Vec::new();
    let mut cycles: Vec<CycleInfo> = Vec::new();
    // A cluster change (and the clock jump before it) may come before the first cycle.
    let first = events
        .iter()
        .position(|e| {
            matches!(
                e,
                TraceEvent::QueueMove {
                    to: QueueName::InFlight,
                    ..
                } | TraceEvent::CycleStart { .. }
                    | TraceEvent::Change { .. }
                    | TraceEvent::Clock { .. }
            )
        })
        .unwrap_or(events.len());
    stops.push(Stop {
        pos: first as u32,
        cycle: 0,
        stage: Stage::Ready,
    });
    let mut cur = 0u32;
    let mut failed_seen = false;
    let mut evict_seen = false;
    // Each pod's backoff expiry while in backoffQ, and the expiry of a pod popped from there.
    let mut backoff_until: HashMap<u32, i64> = HashMap::new();
    let mut popped_in_backoff: Option<i64> = None;
    for (i, e) in events.iter().enumerate() {
        let pos = i as u32 + 1;
        let push = |stops: &mut Vec<Stop>, cur: u32, stage: Stage| {
            stops.push(Stop { pos, cycle: cur, stage });
        };
        match e {
            TraceEvent::QueueMove {
                pod,
                from,
                to,
                backoff_until_ms,
                ..
            } => {
                if *to == QueueName::InFlight {
                    popped_in_backoff = (*from == QueueName::BackoffQ).then(|| backoff_until.get(pod).copied()).flatten();
                }
                match (to, backoff_until_ms) {
                    (QueueName::BackoffQ, Some(t)) => backoff_until.insert(*pod, *t),
                    _ => backoff_until.remove(pod),
                };
            }
            TraceEvent::CycleStart { cycle, pod, time_ms, .. } => {
                cur = *cycle;
                failed_seen = false;
                evict_seen = false;
                cycles.push(CycleInfo {
                    pod: *pod,
                    start: i,
                    end: events.len().saturating_sub(1),
                    first_stop: stops.len() as u32,
                    marker: Marker::Unschedulable,
                    backoff_left_ms: popped_in_backoff.take().map(|t| (t - time_ms).max(0)),
                });
                push(&mut stops, cur, Stage::QueueSort);
            }
            TraceEvent::PreFilter { .. } => push(&mut stops, cur, Stage::PreFilter),
            TraceEvent::Filter { .. } => push(&mut stops, cur, Stage::Filter),
            TraceEvent::PostFilter { .. } => push(&mut stops, cur, Stage::PostFilter),
            TraceEvent::PreScore { .. } => push(&mut stops, cur, Stage::PreScore),
            TraceEvent::Score { .. } => {
                // Scoring is shown in two steps (raw, then normalized and weighted) when it ran.
                let scored = i > 0 && matches!(events[i - 1], TraceEvent::PreScore { .. });
                push(&mut stops, cur, Stage::Score);
                if scored {
                    push(&mut stops, cur, Stage::NormalizeScore);
                }
            }
            TraceEvent::Reserve { .. } => push(&mut stops, cur, Stage::Reserve),
            TraceEvent::Permit { .. } => push(&mut stops, cur, Stage::Permit),
            TraceEvent::PreBind { .. } => push(&mut stops, cur, Stage::PreBind),
            TraceEvent::Bind { .. } => push(&mut stops, cur, Stage::Bind),
            TraceEvent::PostBind { .. } => push(&mut stops, cur, Stage::PostBind),
            TraceEvent::KubeEvent { reason, .. } if reason == "FailedScheduling" && !failed_seen && cur > 0 => {
                failed_seen = true;
                push(&mut stops, cur, Stage::Failed);
            }
            TraceEvent::Deleted { .. } if !evict_seen && cur > 0 => {
                evict_seen = true;
                if let Some(c) = cycles.last_mut() {
                    c.marker = Marker::Preempted;
                }
                push(&mut stops, cur, Stage::Evict);
            }
            TraceEvent::Change { .. } => {
                // One stop per change, once the informer events it caused are applied.
                let end = change_group_end(events, i);
                stops.push(Stop {
                    pos: end as u32,
                    cycle: cur,
                    stage: Stage::Change,
                });
            }
            TraceEvent::CycleEnd { outcome, .. } => {
                if let Some(c) = cycles.last_mut() {
                    c.end = i;
                    c.marker = match outcome {
                        CycleOutcome::Bound => Marker::Bound,
                        CycleOutcome::Error => Marker::Error,
                        CycleOutcome::Unschedulable if c.marker == Marker::Preempted => Marker::Preempted,
                        CycleOutcome::Unschedulable => Marker::Unschedulable,
                    };
                }
                push(&mut stops, cur, Stage::Done);
            }
            _ => {}
        }
    }
    stops.push(Stop {
        pos: events.len() as u32,
        cycle: cur,
        stage: Stage::Quiet,
    });
    (stops, cycles)
}

/// The end (exclusive) of the events a `change` at `i` brought: its informer events and queue
/// moves, up to the next change, clock jump or cycle.
fn change_group_end(events: &[TraceEvent], i: usize) -> usize {
    (i + 1..events.len())
        .find(|&j| {
            matches!(
                events[j],
                TraceEvent::Change { .. }
                    | TraceEvent::Clock { .. }
                    | TraceEvent::CycleStart { .. }
                    | TraceEvent::QueueMove {
                        to: QueueName::InFlight,
                        ..
                    }
            )
        })
        .unwrap_or(events.len())
}

// ---------------------------------------------------------------------------------------------
// Replay: the cluster and the queue at a position of the trace.

#[derive(Clone, Debug)]
struct PodLive {
    queue: QueueName,
    node: Option<u32>,
    /// Trace index of the pod's last (re)entry into the queue (its queue timestamp's order).
    since: u32,
    backoff_until_ms: Option<i64>,
    nominated: Option<u32>,
    /// Trace index of the last FailedScheduling event.
    message: Option<u32>,
    /// Trace index of the last Gated event.
    gated: Option<u32>,
    deleted: bool,
    /// Cycle in which the pod was bound (for the "just placed" highlight).
    bound_cycle: u32,
    /// The pod exists (pods created while the cluster runs exist from their change on).
    exists: bool,
    /// Succeeded or Failed.
    finished: bool,
    /// Deleted by a change (not by a preemption).
    removed: bool,
}

#[derive(Clone, Debug)]
struct Replay {
    pos: usize,
    clock_ms: i64,
    node_pods: Vec<Vec<u32>>,
    used: Vec<Vec<i64>>,
    pods: Vec<PodLive>,
    cycle: u32,
    /// DRA claims by `namespace/name`.
    claims: BTreeMap<String, ClaimLive>,
    /// Per node: in the cluster at this point, and its live state.
    present: Vec<bool>,
    node_state: Vec<changes::NodeState>,
}

impl Replay {
    fn new(model: &Model) -> Replay {
        let ncol = model.resources.len();
        let mut r = Replay {
            pos: 0,
            clock_ms: 0,
            node_pods: vec![Vec::new(); model.nodes.len()],
            used: vec![vec![0; ncol]; model.nodes.len()],
            pods: model
                .pods
                .iter()
                .map(|p| PodLive {
                    queue: QueueName::None,
                    node: None,
                    since: 0,
                    backoff_until_ms: None,
                    nominated: p.nominated,
                    message: None,
                    gated: None,
                    deleted: false,
                    bound_cycle: 0,
                    exists: true,
                    finished: p.finished,
                    removed: false,
                })
                .collect(),
            cycle: 0,
            claims: model.initial_claims.iter().map(|c| (c.key.clone(), c.clone())).collect(),
            present: vec![true; model.nodes.len()],
            node_state: model
                .nodes
                .iter()
                .map(|n| changes::NodeState {
                    unschedulable: n.unschedulable,
                    taints: n.taints.clone(),
                    labels: n.labels.clone(),
                })
                .collect(),
        };
        if let Some(from) = model.created_pods_from {
            for p in r.pods.iter_mut().skip(from as usize) {
                p.exists = false;
            }
        }
        if let Some(from) = model.created_nodes_from {
            for p in r.present.iter_mut().skip(from as usize) {
                *p = false;
            }
        }
        for (i, p) in model.pods.iter().enumerate() {
            if let (Some(n), false) = (p.node, p.finished) {
                r.place(model, i as u32, n);
            }
        }
        r
    }

    fn place(&mut self, model: &Model, pod: u32, node: u32) {
        let (n, p) = (node as usize, pod as usize);
        if n >= self.node_pods.len() {
            return;
        }
        self.node_pods[n].push(pod);
        for (u, r) in self.used[n].iter_mut().zip(&model.pods[p].requests) {
            *u += r;
        }
        self.pods[p].node = Some(node);
    }

    fn unplace(&mut self, model: &Model, pod: u32, node: u32) {
        let (n, p) = (node as usize, pod as usize);
        if n >= self.node_pods.len() {
            return;
        }
        if let Some(i) = self.node_pods[n].iter().position(|&q| q == pod) {
            self.node_pods[n].remove(i);
            for (u, r) in self.used[n].iter_mut().zip(&model.pods[p].requests) {
                *u -= r;
            }
        }
        self.pods[p].node = None;
    }

    fn apply(&mut self, model: &Model, node_index: &HashMap<String, u32>, effects: &HashMap<usize, changes::Effect>, i: usize, e: &TraceEvent) {
        match e {
            TraceEvent::Change { at_ms, .. } => {
                self.clock_ms = self.clock_ms.max(*at_ms);
                match effects.get(&i) {
                    Some(changes::Effect::Node(n, st)) => {
                        if let Some(p) = self.present.get_mut(*n as usize) {
                            *p = true;
                            self.node_state[*n as usize] = st.clone();
                        }
                    }
                    Some(changes::Effect::NodeGone(n)) => {
                        if let Some(p) = self.present.get_mut(*n as usize) {
                            *p = false;
                            for pod in self.node_pods[*n as usize].clone() {
                                self.unplace(model, pod, *n);
                                self.pods[pod as usize].removed = true;
                            }
                        }
                    }
                    Some(changes::Effect::PodGone(p, finished)) => {
                        if let Some(n) = self.pods[*p as usize].node {
                            self.unplace(model, *p, n);
                        }
                        let live = &mut self.pods[*p as usize];
                        if *finished {
                            live.finished = true;
                        } else {
                            live.removed = true;
                        }
                    }
                    Some(changes::Effect::PodCreated(p, node)) => {
                        self.pods[*p as usize].exists = true;
                        if let Some(n) = node {
                            self.place(model, *p, *n);
                        }
                    }
                    None => {}
                }
            }
            TraceEvent::Clock { time_ms } => self.clock_ms = *time_ms,
            TraceEvent::QueueMove {
                pod,
                from,
                to,
                backoff_until_ms,
                ..
            } => {
                let p = &mut self.pods[*pod as usize];
                p.queue = *to;
                if matches!(from, QueueName::None | QueueName::InFlight) && *to != QueueName::None && *to != QueueName::InFlight {
                    p.since = i as u32;
                }
                p.backoff_until_ms = if *to == QueueName::BackoffQ { *backoff_until_ms } else { None };
                if *to != QueueName::Gated {
                    p.gated = None;
                }
            }
            TraceEvent::Gated { pod, .. } => self.pods[*pod as usize].gated = Some(i as u32),
            TraceEvent::CycleStart { cycle, time_ms, .. } => {
                self.cycle = *cycle;
                self.clock_ms = *time_ms;
            }
            TraceEvent::Bind { pod, node, cycle, .. } => {
                self.place(model, *pod, *node);
                self.pods[*pod as usize].bound_cycle = *cycle;
            }
            TraceEvent::Nominated { pod, node } => {
                self.pods[*pod as usize].nominated = node.as_deref().and_then(|n| node_index.get(n).copied());
            }
            TraceEvent::Deleted { pod, node } => {
                self.unplace(model, *pod, *node);
                self.pods[*pod as usize].deleted = true;
            }
            TraceEvent::KubeEvent { reason, pod, .. } if reason == "FailedScheduling" => {
                self.pods[*pod as usize].message = Some(i as u32);
            }
            TraceEvent::Claim {
                claim,
                devices,
                reserved_for,
                deleted,
            } => {
                if *deleted {
                    self.claims.remove(claim);
                } else {
                    self.claims.insert(
                        claim.clone(),
                        ClaimLive {
                            key: claim.clone(),
                            devices: devices.clone(),
                            reserved_for: reserved_for.clone(),
                        },
                    );
                }
            }
            _ => {}
        }
    }
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
    pub taints: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<(String, String)>,
}

/// A change to the cluster as a stop shows it: what happened, in a sentence, and what the
/// scheduling queue did about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeView {
    pub at_ms: i64,
    /// `step`, `finish`, `flush`, `controller` or `api`.
    pub cause: String,
    /// The timeline step's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u32>,
    /// `create`, `delete`, `patch`, `finish` or `flush`.
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u32>,
    /// The controller that made the change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
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
    pub reason: String,
    /// The pod the event is about.
    pub pod: u32,
    pub message: String,
}

// ---------------------------------------------------------------------------------------------
// The session.

/// What a front end needs once per run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
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

pub struct Session {
    scenario: Scenario,
    seed: u64,
    pub model: Model,
    pub trace: crate::trace::Trace,
    stops: Vec<Stop>,
    cycles: Vec<CycleInfo>,
    node_index: HashMap<String, u32>,
    pod_index: HashMap<String, u32>,
    replay: Replay,
    detail_all: bool,
    /// Cycle -> its events recorded with detail by a re-run.
    detail_cache: HashMap<u32, Vec<TraceEvent>>,
    effective_config: String,
    has_config: bool,
    final_bound: u32,
    final_pending: u32,
    final_evicted: u32,
    end_clock_ms: i64,
    /// Trace indices of the Kubernetes events, in order.
    kube_events: Vec<u32>,
    timeline_steps_ms: Vec<i64>,
    /// What the controllers did before scheduling (`None` when they were off).
    pub controllers: Option<crate::controllers::Report>,
    /// The controllers as they were when scheduling started (re-runs react the same way).
    ctl: Option<crate::controllers::Controllers>,
    /// What each cluster change does to the shown cluster, and its sentence.
    changes: changes::Changes,
}

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
    pub fn with_options(mut sc: Scenario, opts: SessionOptions, progress: &mut dyn FnMut(u32)) -> Session {
        let mut ctl = crate::controllers::Controllers::new(opts.seed);
        let report = opts.controllers.then(|| ctl.reconcile(&mut sc));
        let ctl = opts.controllers.then_some(ctl);
        let pending = sc
            .pods
            .iter()
            .filter(|p| p.spec.node_name.as_deref().is_none_or(str::is_empty))
            .count();
        let detail_all = sc.nodes.len().max(1) * pending.max(1) <= DETAIL_ALL_LIMIT;
        let mut s = Self::run_session(sc, opts.seed, detail_all, ctl, progress);
        s.controllers = report;
        s
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
        Self::run_session(sc, seed, detail_all, None, progress)
    }

    /// Runs the scenario; `ctl` (the controllers that created its pods) keeps reacting while
    /// the cluster runs.
    fn run_session(
        sc: Scenario,
        seed: u64,
        detail_all: bool,
        ctl: Option<crate::controllers::Controllers>,
        progress: &mut dyn FnMut(u32),
    ) -> Session {
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
        if let Some(c) = &ctl {
            e.enable_controllers(c.clone());
        }
        while e.step() != StepOutcome::Quiet {
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
        Session {
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
        }
    }

    /// The newest events among the first `pos` trace events (at most `EVENT_LIMIT`), and how
    /// many there are in all.
    fn events_until(&self, pos: u32) -> (Vec<EventLine>, u32) {
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
                    warning: reason == "FailedScheduling",
                    reason: reason.clone(),
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
    fn timeline_step_stops(&self) -> Vec<Option<u32>> {
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

    /// The stop at which cycle `c` (1-based) starts.
    pub fn cycle_stop(&self, c: u32) -> Option<u32> {
        self.cycles.get((c as usize).checked_sub(1)?).map(|ci| ci.first_stop)
    }

    fn seek(&mut self, pos: usize) {
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
    fn cycle_events(&mut self, c: u32, want_detail: bool) -> (Vec<TraceEvent>, usize) {
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
    fn recover_detail(&mut self, c: u32) {
        let last = (c + DETAIL_BATCH - 1).min(self.cycles.len() as u32);
        let wanted: BTreeSet<u32> = (c..=last).collect();
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

    /// Everything shown at stop `stop`. `want_detail` recovers per-node detail the run did not
    /// record (large runs), at the cost of a re-run.
    pub fn frame(&mut self, stop: u32, want_detail: bool) -> Frame {
        let stop = (stop as usize).min(self.stops.len() - 1);
        let st = self.stops[stop];
        self.seek(st.pos as usize);
        let cycle_view = if st.cycle > 0 && !matches!(st.stage, Stage::Quiet | Stage::Ready | Stage::Change) {
            Some(self.cycle_view(st, want_detail))
        } else {
            None
        };
        let r = &self.replay;
        let model = &self.model;

        // Victims chosen in this cycle and pods deleted in it.
        let mut victims: Vec<(u32, u32)> = Vec::new();
        let mut leaving: Vec<(u32, u32)> = Vec::new();
        if let Some(cv) = &cycle_view {
            if let Some(pf) = &cv.post_filter {
                for c in pf.candidates.iter().filter(|c| c.chosen) {
                    if let Some(&n) = self.node_index.get(&c.node) {
                        for &v in &c.victims {
                            victims.push((v, n));
                        }
                    }
                }
            }
            let start = self.cycles[st.cycle as usize - 1].start;
            for i in start..(st.pos as usize).min(self.trace.events.len()) {
                if let TraceEvent::Deleted { pod, node } = self.trace.events[i] {
                    leaving.push((pod, node));
                }
            }
        }
        victims.retain(|v| !leaving.iter().any(|l| l.0 == v.0));

        let mut nodes = Vec::new();
        let mut heat = Vec::new();
        let mut marks = Vec::new();
        if model.large {
            heat = (0..model.nodes.len())
                .map(|n| {
                    let alloc = &model.nodes[n].allocatable;
                    let mut m = 0i64;
                    for ((col, &a), &u) in model.resources.iter().zip(alloc).zip(&r.used[n]) {
                        let used = if col.name == RESOURCE_PODS {
                            r.node_pods[n].len() as i64
                        } else {
                            u
                        };
                        if a > 0 {
                            m = m.max(used.saturating_mul(100) / a);
                        } else if used > 0 {
                            m = 100;
                        }
                    }
                    m.clamp(0, 100) as u8
                })
                .collect();
            if let Some(cv) = &cycle_view {
                marks = vec![0u8; model.nodes.len()];
                if let Some(f) = &cv.filter {
                    for row in &f.rows {
                        if row.visit.is_some() {
                            marks[row.node as usize] = if row.feasible { 2 } else { 1 };
                        }
                    }
                }
                if let Some(n) = cv.node {
                    marks[n as usize] = 3;
                }
            }
        } else {
            nodes = (0..model.nodes.len())
                .map(|n| {
                    let mut used = r.used[n].clone();
                    for (c, col) in model.resources.iter().enumerate() {
                        if col.name == RESOURCE_PODS {
                            used[c] = r.node_pods[n].len() as i64;
                        }
                    }
                    let st = &r.node_state[n];
                    NodeLive {
                        used,
                        pods: r.node_pods[n].clone(),
                        nominated: Vec::new(),
                        leaving: leaving.iter().filter(|l| l.1 == n as u32).map(|l| l.0).collect(),
                        victims: victims.iter().filter(|v| v.1 == n as u32).map(|v| v.0).collect(),
                        absent: !r.present[n],
                        unschedulable: st.unschedulable,
                        taints: st.taints.clone(),
                        labels: st.labels.clone(),
                    }
                })
                .collect();
            for (i, p) in r.pods.iter().enumerate() {
                if let (Some(nn), None, false) = (p.nominated, p.node, p.deleted) {
                    if let Some(nl) = nodes.get_mut(nn as usize) {
                        nl.nominated.push(i as u32);
                    }
                }
            }
        }

        let queue = self.queue_view();
        let bound = match (st.stage, &cycle_view) {
            (Stage::Bind, Some(cv)) => cv.node.map(|n| (cv.pod, n)),
            _ => None,
        };
        let r = &self.replay;
        let running = r.pods.iter().filter(|p| p.node.is_some()).count() as u32;
        let evicted = r.pods.iter().filter(|p| p.deleted).count() as u32;
        let pending = r
            .pods
            .iter()
            .filter(|p| p.exists && p.node.is_none() && !p.deleted && !p.finished && !p.removed)
            .count() as u32;
        let (events, events_total) = self.events_until(st.pos);
        let changes = if st.stage == Stage::Change {
            let end = (st.pos as usize).min(self.trace.events.len());
            let at = (0..end).rev().find(|&i| matches!(self.trace.events[i], TraceEvent::Change { .. }));
            at.and_then(|at| changes::view(&self.trace.events, &self.trace.header.pods, &self.changes, at, end))
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        Frame {
            stop: stop as u32,
            stage: st.stage,
            cycle: st.cycle,
            clock_ms: r.clock_ms,
            nodes,
            heat,
            marks,
            queue,
            cycle_view,
            bound,
            running,
            pending,
            evicted,
            events,
            events_total,
            claims: r.claims.values().cloned().collect(),
            changes,
        }
    }

    fn queue_view(&self) -> QueueView {
        let r = &self.replay;
        let model = &self.model;
        let mut q = QueueView::default();
        let mut active: Vec<u32> = Vec::new();
        let mut backoff: Vec<u32> = Vec::new();
        let mut unsched: Vec<u32> = Vec::new();
        let mut gated: Vec<u32> = Vec::new();
        for (i, p) in r.pods.iter().enumerate() {
            match p.queue {
                QueueName::ActiveQ => active.push(i as u32),
                QueueName::BackoffQ => backoff.push(i as u32),
                QueueName::Unschedulable => unsched.push(i as u32),
                QueueName::Gated => gated.push(i as u32),
                QueueName::InFlight => q.in_flight = Some(i as u32),
                QueueName::None => {
                    let m = &model.pods[i];
                    if !m.has_profile && p.exists && p.node.is_none() && !p.finished && !p.deleted && !p.removed {
                        q.foreign.push(i as u32);
                    }
                }
            }
        }
        // PrioritySort: higher priority first, then earlier entry into the queue.
        active.sort_by_key(|&i| (std::cmp::Reverse(model.pods[i as usize].priority), r.pods[i as usize].since));
        backoff.sort_by_key(|&i| (r.pods[i as usize].backoff_until_ms.unwrap_or(i64::MAX), r.pods[i as usize].since));
        unsched.sort_by_key(|&i| r.pods[i as usize].since);
        gated.sort_by_key(|&i| r.pods[i as usize].since);
        let message = |i: u32| -> Option<String> {
            let ev = r.pods[i as usize].message?;
            match &self.trace.events[ev as usize] {
                TraceEvent::KubeEvent { message, .. } => Some(message.clone()),
                _ => None,
            }
        };
        let item = |i: u32, note: Option<String>| QueueItem {
            pod: i,
            priority: model.pods[i as usize].priority,
            note,
            until_ms: r.pods[i as usize].backoff_until_ms,
            nominated: r.pods[i as usize].nominated,
        };
        q.active_total = active.len() as u32;
        q.active = active.iter().take(LIST_LIMIT).map(|&i| item(i, None)).collect();
        q.backoff_total = backoff.len() as u32;
        q.backoff = backoff.iter().take(LIST_LIMIT).map(|&i| item(i, message(i))).collect();
        q.unschedulable_total = unsched.len() as u32;
        q.unschedulable = unsched.iter().take(LIST_LIMIT).map(|&i| item(i, message(i))).collect();
        q.gated_total = gated.len() as u32;
        q.gated = gated
            .iter()
            .take(LIST_LIMIT)
            .map(|&i| {
                let note = r.pods[i as usize]
                    .gated
                    .and_then(|ev| match &self.trace.events[ev as usize] {
                        TraceEvent::Gated { message, .. } => Some(message.clone()),
                        _ => None,
                    })
                    .or_else(|| {
                        let g = &model.pods[i as usize].gates;
                        (!g.is_empty()).then(|| g.join(", "))
                    });
                item(i, note)
            })
            .collect();
        q
    }

    fn cycle_view(&mut self, st: Stop, want_detail: bool) -> CycleView {
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
            backoff_left_ms: (c as usize).checked_sub(1).and_then(|i| self.cycles.get(i)).and_then(|ci| ci.backoff_left_ms),
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

    /// Explains one cell of the current cycle's filter matrix or score table.
    pub fn explain(&mut self, cycle: u32, node: u32, plugin: &str, score: bool) -> Explanation {
        explain::explain(self, cycle, node, plugin, score)
    }
}

fn code_state(c: crate::framework::Code) -> PointState {
    use crate::framework::Code;
    match c {
        Code::Success | Code::Skip | Code::Wait => PointState::Passed,
        _ => PointState::Failed,
    }
}

#[cfg(test)]
mod tests;
