//! The scenario as the editor holds it: five parts (nodes, pods, other objects, scheduler
//! configuration, the timeline of changes) joined into one multi-document YAML for the engine, with a line map to place
//! the engine's errors back in their part. Also the presets and the add-object templates.
//! Text handling only: the engine reads the joined text.

use crate::protocol::GenSpec;
use schedlab_view::KubeVersion;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Part {
    Nodes,
    Pods,
    Other,
    Config,
    Timeline,
}

impl Part {
    pub const ALL: [Part; 5] = [Part::Nodes, Part::Pods, Part::Other, Part::Config, Part::Timeline];
    /// The order parts are joined in: objects the others refer to first, the timeline (which
    /// names them) last.
    pub const JOIN_ORDER: [Part; 5] = [Part::Other, Part::Nodes, Part::Pods, Part::Config, Part::Timeline];

    pub fn id(self) -> &'static str {
        match self {
            Part::Nodes => "nodes",
            Part::Pods => "pods",
            Part::Other => "other",
            Part::Config => "config",
            Part::Timeline => "timeline",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Part::Nodes => "Nodes",
            Part::Pods => "Pods",
            Part::Other => "Other",
            Part::Config => "Config",
            Part::Timeline => "Timeline",
        }
    }
    pub fn hint(self) -> &'static str {
        match self {
            Part::Nodes => "v1 Node objects",
            Part::Pods => "v1 Pod objects (with spec.nodeName they already run; the others are queued in this order) and the workloads that make pods: Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs",
            Part::Other => "PriorityClasses, PodDisruptionBudgets, Namespaces, volumes, storage classes, CSI objects",
            Part::Config => "One KubeSchedulerConfiguration (profiles); empty means the default profile",
            Part::Timeline => "One Timeline: steps that create, delete or patch objects at a logical time (at: 30s), in order; the cluster view's actions add steps here",
        }
    }
    pub fn from_id(s: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.id() == s)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredParts")]
pub struct Parts {
    pub nodes: String,
    pub pods: String,
    pub other: String,
    pub config: String,
    /// The Timeline document (empty: the cluster never changes on its own).
    pub timeline: String,
}

/// Parts as saved and linked. Scenarios saved before the Timeline tab existed have no
/// `timeline` and may hold their Timeline document among the other objects: it moves to its
/// tab (so that the actions find it and never add a second one).
#[derive(Deserialize)]
struct StoredParts {
    nodes: String,
    pods: String,
    other: String,
    config: String,
    #[serde(default)]
    timeline: String,
}

impl From<StoredParts> for Parts {
    fn from(s: StoredParts) -> Parts {
        let mut parts = Parts {
            nodes: s.nodes,
            pods: s.pods,
            other: s.other,
            config: s.config,
            timeline: s.timeline,
        };
        if parts.timeline.trim().is_empty()
            && parts
                .other
                .lines()
                .any(|l| l.trim_start().starts_with("kind:") && l.contains("Timeline"))
        {
            let moved = split(&parts.other);
            if !moved.timeline.is_empty() {
                parts.other = moved.other;
                parts.timeline = moved.timeline;
                // (The other objects' leading comment, if any, went to the Pods part of `moved`.)
                if !moved.pods.is_empty() {
                    parts.other = format!("{}{}", moved.pods, parts.other);
                }
            }
        }
        parts
    }
}

impl Parts {
    /// The scenario's size in bytes, all parts together.
    pub fn len(&self) -> usize {
        Part::ALL.iter().map(|p| self.get(*p).len()).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn get(&self, p: Part) -> &str {
        match p {
            Part::Nodes => &self.nodes,
            Part::Pods => &self.pods,
            Part::Other => &self.other,
            Part::Config => &self.config,
            Part::Timeline => &self.timeline,
        }
    }
    pub fn set(&mut self, p: Part, text: String) {
        match p {
            Part::Nodes => self.nodes = text,
            Part::Pods => self.pods = text,
            Part::Other => self.other = text,
            Part::Config => self.config = text,
            Part::Timeline => self.timeline = text,
        }
    }
}

/// Where each part starts in the joined text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineMap {
    /// (part, first line of the part's text in the joined text (1-based), line count).
    pub spans: Vec<(Part, u32, u32)>,
}

impl LineMap {
    /// The part and the line within it of a joined-text line.
    pub fn locate(&self, line: u32) -> Option<(Part, u32)> {
        self.spans
            .iter()
            .find(|(_, start, count)| line >= *start && line < start + count.max(&1))
            .map(|(p, start, _)| (*p, line - start + 1))
            .or_else(|| {
                // A separator line we added: report it at the start of the next part.
                self.spans.iter().find(|(_, start, _)| *start > line).map(|(p, _, _)| (*p, 1))
            })
    }
}

fn line_count(s: &str) -> u32 {
    if s.is_empty() {
        0
    } else {
        s.lines().count() as u32
    }
}

/// Joins the parts (other objects, nodes, pods, configuration), each after a `---` line.
pub fn join(parts: &Parts) -> (String, LineMap) {
    let mut out = String::new();
    let mut lines = 0u32;
    let mut map = LineMap::default();
    for p in Part::JOIN_ORDER {
        let text = parts.get(p);
        if text.trim().is_empty() {
            continue;
        }
        out.push_str("---\n");
        lines += 1;
        map.spans.push((p, lines + 1, line_count(text)));
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
        lines += line_count(text);
    }
    (out, map)
}

impl Parts {
    /// How many documents (objects, or lists) part `p` holds; comment-only documents do not
    /// count. The Timeline tab counts its steps.
    pub fn doc_count(&self, p: Part) -> usize {
        if p == Part::Timeline {
            return crate::timeline_text::step_lines(&self.timeline).len();
        }
        let mut n = 0;
        let mut in_doc = false;
        for line in self.get(p).lines() {
            if line.starts_with("---") {
                in_doc = false;
                continue;
            }
            let t = line.trim_start();
            if !in_doc && !t.is_empty() && !t.starts_with('#') {
                in_doc = true;
                n += 1;
            }
        }
        n
    }

    /// Adds the objects of `more` after this scenario's, each part after its own (as separate
    /// documents); `more`'s timeline steps join this scenario's Timeline (a scenario has one).
    pub fn add(&mut self, more: &Parts) {
        for p in Part::ALL {
            let extra = more.get(p);
            if extra.trim().is_empty() {
                continue;
            }
            if p == Part::Timeline {
                // A scenario has one Timeline: the file's steps join this one's, in time order.
                if let Some(merged) = merge_timelines(self.get(p), extra) {
                    self.set(p, merged);
                    continue;
                }
            }
            let mut text = self.get(p).to_string();
            if !text.trim().is_empty() {
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str("---\n");
            } else {
                text.clear();
            }
            text.push_str(extra);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            self.set(p, text);
        }
    }
}

/// `extra`'s timeline steps put into `current` (block-style `- at: …` items; each after the
/// steps at or before its time, as a cluster action's step is). `current` when `extra` has no
/// steps; the file's text as is when `current` has none. `None` when either is written in a
/// way this cannot merge line by line (a flow list, a step without a readable `at`): the
/// caller then keeps both documents and the loader says what is wrong.
fn merge_timelines(current: &str, extra: &str) -> Option<String> {
    if current
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#') || l.trim() == "---")
    {
        return None;
    }
    let lines: Vec<&str> = extra.lines().collect();
    let steps = crate::timeline_text::step_lines(extra);
    if steps.is_empty() {
        // No block-style steps: either none at all (nothing to add) or a flow list.
        let flow = lines
            .iter()
            .any(|l| l.strip_prefix("steps:").is_some_and(|r| !matches!(r.trim(), "" | "[]")));
        return (!flow).then(|| current.to_string());
    }
    let mut out = current.to_string();
    for st in &steps {
        let at = st.at_ns?;
        let item: String = lines[st.line..st.end]
            .iter()
            .map(|l| format!("{}\n", l.get(st.indent..).unwrap_or_else(|| l.trim_start())))
            .collect();
        out = crate::timeline_text::insert_steps(&out, at, &item).ok()?;
    }
    Some(out)
}

/// The scenario's story: a leading comment (the comment lines before the first object), as
/// paragraphs with the `#` removed. Numbered lines (`1. …`) stay separate items; other lines
/// that follow each other are one paragraph.
pub fn story(parts: &Parts) -> Vec<String> {
    // The first tab whose text starts with a comment: Pods (where the presets write it), then
    // Nodes, Other, Config and Timeline.
    [&parts.pods, &parts.nodes, &parts.other, &parts.config, &parts.timeline]
        .into_iter()
        .map(|t| story_of(t))
        .find(|s| !s.is_empty())
        .unwrap_or_default()
}

/// The leading comment of one text, as story lines.
fn story_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut joining = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("---") {
            continue;
        }
        let Some(c) = t.strip_prefix('#') else {
            if t.is_empty() {
                joining = false;
                continue;
            }
            break;
        };
        let c = c.trim();
        if c.is_empty() {
            joining = false;
            continue;
        }
        let item = c
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|d| d.is_ascii_digit()))
            || c.starts_with("- ")
            || c.contains(": ") && c.split(": ").next().is_some_and(|k| !k.contains(' ') && k.len() <= 12);
        match out.last_mut() {
            Some(last) if joining && !item => {
                last.push(' ');
                last.push_str(c);
            }
            _ => out.push(c.to_string()),
        }
        joining = true;
    }
    out
}

/// Whether the Config tab already holds a KubeSchedulerConfiguration document.
pub fn has_config(parts: &Parts) -> bool {
    parts
        .config
        .split("\n---")
        .any(|d| doc_kind(d) == Some("KubeSchedulerConfiguration"))
}

/// The kind of a YAML document: the value of a top-level `kind:` line.
fn doc_kind(doc: &str) -> Option<&str> {
    doc.lines()
        .find_map(|l| {
            let rest = l.strip_prefix("kind:")?;
            let v = rest.split('#').next()?.trim().trim_matches(|c| c == '"' || c == '\'');
            Some(v)
        })
        .or_else(|| {
            // Flow or JSON style: `{"kind": "Pod", ...}` or `kind: Pod` inside braces.
            let i = doc.find("kind")?;
            let rest = doc[i + 4..].trim_start_matches(['"', '\'']).trim_start();
            let rest = rest.strip_prefix(':')?.trim_start().trim_start_matches(['"', '\'']);
            let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
            Some(&rest[..end])
        })
}

pub fn part_of(kind: Option<&str>) -> Part {
    match kind {
        Some("Node") | Some("NodeList") => Part::Nodes,
        Some("Pod") | Some("PodList") => Part::Pods,
        // Workloads make pods: they sit with them.
        Some(
            "Deployment"
            | "ReplicaSet"
            | "StatefulSet"
            | "DaemonSet"
            | "Job"
            | "ReplicationController"
            | "DeploymentList"
            | "ReplicaSetList"
            | "StatefulSetList"
            | "DaemonSetList"
            | "JobList"
            | "ReplicationControllerList",
        ) => Part::Pods,
        Some("KubeSchedulerConfiguration") => Part::Config,
        Some("Timeline") => Part::Timeline,
        _ => Part::Other,
    }
}

/// Splits a whole scenario into parts by each document's kind, keeping document order within
/// each part. Comment-only documents travel with the document after them.
pub fn split(text: &str) -> Parts {
    let mut docs: Vec<String> = Vec::new();
    let mut cur = String::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") {
            docs.push(std::mem::take(&mut cur));
            continue;
        }
        if line.starts_with("...") {
            continue;
        }
        cur.push_str(line);
    }
    docs.push(cur);
    let mut parts = Parts::default();
    let mut pending = String::new();
    // Comments before the first object describe the whole scenario: they head the Pods tab
    // (the one shown first).
    let mut header = String::new();
    let mut seen_object = false;
    let is_blank = |d: &str| d.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    for d in docs {
        if is_blank(&d) {
            if d.trim().is_empty() {
                continue;
            }
            if seen_object {
                pending.push_str(&d);
            } else {
                header.push_str(&d);
            }
            continue;
        }
        seen_object = true;
        let p = part_of(doc_kind(&d));
        let mut doc = std::mem::take(&mut pending);
        doc.push_str(&d);
        if !doc.ends_with('\n') {
            doc.push('\n');
        }
        let mut target = parts.get(p).to_string();
        if !target.is_empty() {
            target.push_str("---\n");
        }
        target.push_str(&doc);
        parts.set(p, target);
    }
    if !pending.trim().is_empty() {
        parts.other.push_str(&pending);
    }
    if !header.trim().is_empty() {
        if !header.ends_with('\n') {
            header.push('\n');
        }
        parts.pods = format!("{header}{}", parts.pods);
    }
    parts
}

/// A preset scenario (assets/presets). Its text is a file of the site, fetched when it is
/// opened (`crate::storage::preset_text`), not part of the page's wasm; the default preset's
/// text is in the wasm too, so the first run never waits for a download.
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    /// The Kubernetes version the preset is written for: it opens (and runs) at this version.
    pub version: KubeVersion,
    /// Its file's name in assets/presets and in the site's `presets/` (without `.yaml`).
    pub file: &'static str,
}

/// The default preset's text, in the wasm.
pub const DEFAULT_TEXT: &str = include_str!("../../../assets/presets/tour.yaml");

impl Preset {
    /// Its text, read from assets/presets (native tests only; the page fetches it).
    #[cfg(test)]
    pub fn text(&self) -> String {
        let path = format!("{}/../../assets/presets/{}.yaml", env!("CARGO_MANIFEST_DIR"), self.file);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
}

pub const PRESETS: &[Preset] = &[
    Preset {
        id: "tour",
        title: "Tour: zones, spread, taints, a preemption, a failure",
        version: KubeVersion::V1_34,
        file: "tour",
    },
    Preset {
        id: "preemption",
        title: "Preemption: choosing victims by priority",
        version: KubeVersion::V1_34,
        file: "preemption",
    },
    Preset {
        id: "spread",
        title: "Topology spread + anti-affinity over three zones",
        version: KubeVersion::V1_34,
        file: "spread",
    },
    Preset {
        id: "scoring",
        title: "Scoring: LeastAllocated vs balanced allocation",
        version: KubeVersion::V1_34,
        file: "scoring",
    },
    Preset {
        id: "profiles",
        title: "Two profiles: a bin-packing scheduler next to the default",
        version: KubeVersion::V1_34,
        file: "profiles",
    },
    Preset {
        id: "queue",
        title: "Queue: PrioritySort decides who goes first",
        version: KubeVersion::V1_34,
        file: "queue",
    },
    Preset {
        id: "reasons",
        title: "Why not? One pod, five nodes, five different reasons",
        version: KubeVersion::V1_34,
        file: "reasons",
    },
    Preset {
        id: "autoscaler",
        title: "Over time: a node added for pending pods (cluster autoscaler)",
        version: KubeVersion::V1_34,
        file: "autoscaler",
    },
    Preset {
        id: "drain",
        title: "Over time: draining a node under a Deployment with a PodDisruptionBudget",
        version: KubeVersion::V1_34,
        file: "drain",
    },
    Preset {
        id: "batch-jobs",
        title: "Over time: a batch queue of Jobs with durations",
        version: KubeVersion::V1_34,
        file: "batch-jobs",
    },
    Preset {
        id: "quota-gate",
        title: "Over time: scheduling gates lifted by a quota controller",
        version: KubeVersion::V1_34,
        file: "quota-gate",
    },
    Preset {
        id: "retry-5min",
        title: "Over time: the 5-minute retry of a pod nothing wakes",
        version: KubeVersion::V1_34,
        file: "retry-5min",
    },
    Preset {
        id: "imported",
        title: "Imported from a kind cluster: why is trainer Pending?",
        version: KubeVersion::V1_34,
        file: "imported",
    },
    Preset {
        id: "deployment",
        title: "Deployment: six replicas spread over zones (system default spreading)",
        version: KubeVersion::V1_34,
        file: "deployment-zones",
    },
    Preset {
        id: "daemonset",
        title: "DaemonSet: one pod per node, and a tainted node",
        version: KubeVersion::V1_34,
        file: "daemonset-taint",
    },
    Preset {
        id: "statefulset",
        title: "StatefulSet: ordinal pods kept apart by anti-affinity",
        version: KubeVersion::V1_34,
        file: "statefulset-anti",
    },
    Preset {
        id: "gpu",
        title: "GPU training job: DRA, a claim template and a CEL selector",
        version: KubeVersion::V1_34,
        file: "gpu-training",
    },
];

pub const DEFAULT_PRESET: &str = "tour";

pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// What the editor holds and the app saves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Saved {
    pub parts: Parts,
    pub seed: u64,
    #[serde(default)]
    pub preset: Option<String>,
    /// A generated large cluster (its text is not kept: it is regenerated from the spec).
    #[serde(default)]
    pub generated: Option<GenSpec>,
    /// Whether the workload controllers create their pods before scheduling (on unless the
    /// user turned them off; saved scenarios and links from before the toggle have them on).
    #[serde(default = "controllers_default")]
    pub controllers: bool,
    /// The Kubernetes version whose scheduler runs it. Saved scenarios and links from before
    /// versions were a setting ran as v1.34 and keep doing so (their answers do not change).
    #[serde(default = "version_before_the_setting")]
    pub kubernetes_version: KubeVersion,
    /// Feature gates over the version's defaults, in kube-scheduler's `--feature-gates` syntax
    /// (`Name=true,Other=false`; empty: the defaults). A setting of the run, not of the
    /// scenario's text: upstream it is a command-line flag, not configuration.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub feature_gates: String,
    /// The gallery lesson (`crate::lessons`) this scenario is, as shipped or as the learner
    /// edited it: its exercises' edit scope is judged against the lesson's own text, and the
    /// learner's progress is kept under its id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<String>,
}

fn controllers_default() -> bool {
    true
}

fn version_before_the_setting() -> KubeVersion {
    PRESET_VERSION
}

/// The version a saved scenario or link from before versions were a setting runs at (the one
/// the presets were written for then). Each preset names its own (`Preset::version`).
pub const PRESET_VERSION: KubeVersion = KubeVersion::V1_34;

impl Saved {
    /// A user's scenario made of `parts` (a file, an import) that replaces this one: same seed,
    /// controllers setting, version and gates, no preset, not generated.
    pub fn replaced_by(&self, parts: Parts) -> Saved {
        Saved {
            parts,
            seed: self.seed,
            preset: None,
            generated: None,
            controllers: self.controllers,
            kubernetes_version: self.kubernetes_version,
            feature_gates: self.feature_gates.clone(),
            lesson: None,
        }
    }

    /// Written or edited by the user (not a preset or a gallery lesson as shipped, not a
    /// generated cluster).
    pub fn is_custom(&self) -> bool {
        self.preset.is_none() && self.generated.is_none() && !self.is_shipped_lesson()
    }

    /// A gallery lesson exactly as shipped (the learner has not edited it). False while the
    /// page does not have its text as shipped (`crate::lessons::shipped`).
    pub fn is_shipped_lesson(&self) -> bool {
        self.lesson
            .as_deref()
            .and_then(crate::lessons::shipped)
            .is_some_and(|text| split(&text) == self.parts)
    }

    /// Preset `p` with its text.
    pub fn from_preset(p: &Preset, text: &str) -> Saved {
        Saved {
            parts: split(text),
            seed: 1,
            preset: Some(p.id.to_string()),
            generated: None,
            controllers: true,
            kubernetes_version: p.version,
            feature_gates: String::new(),
            lesson: None,
        }
    }

    /// Gallery lesson `l` as shipped (`text`, which the page keeps: `crate::lessons::shipped`),
    /// on the Kubernetes version it is written for.
    pub fn from_lesson(l: &'static crate::lessons::GalleryLesson, text: &str) -> Saved {
        crate::lessons::keep_shipped(l, text);
        Saved {
            parts: split(text),
            seed: 1,
            preset: None,
            generated: None,
            controllers: true,
            kubernetes_version: l.version,
            feature_gates: String::new(),
            lesson: Some(l.id.to_string()),
        }
    }
}

/// Objects the add buttons insert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    Node,
    Pod,
    Deployment,
    DaemonSet,
    StatefulSet,
    Job,
    PriorityClass,
    Pdb,
    /// A configuration that changes the default profile (every pod without a schedulerName).
    DefaultProfile,
    /// A configuration that keeps the default profile and adds a second one.
    SecondProfile,
}

impl Template {
    pub const ALL: [Template; 10] = [
        Template::Node,
        Template::Pod,
        Template::Deployment,
        Template::DaemonSet,
        Template::StatefulSet,
        Template::Job,
        Template::PriorityClass,
        Template::Pdb,
        Template::DefaultProfile,
        Template::SecondProfile,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Template::Node => "Node",
            Template::Pod => "Pod",
            Template::Deployment => "Deployment",
            Template::DaemonSet => "DaemonSet",
            Template::StatefulSet => "StatefulSet",
            Template::Job => "Job",
            Template::PriorityClass => "PriorityClass",
            Template::Pdb => "PDB",
            Template::DefaultProfile => "Default profile",
            Template::SecondProfile => "Second profile",
        }
    }
    pub fn part(self) -> Part {
        match self {
            Template::Node => Part::Nodes,
            Template::Pod | Template::Deployment | Template::DaemonSet | Template::StatefulSet | Template::Job => Part::Pods,
            Template::PriorityClass | Template::Pdb => Part::Other,
            Template::DefaultProfile | Template::SecondProfile => Part::Config,
        }
    }

    /// The YAML to insert, named so as not to clash with what `existing` holds; a node goes to
    /// `zone` (see `next_zone`).
    pub fn text(self, existing: &Parts, zone: &str) -> String {
        let all = format!("{}\n{}\n{}", existing.nodes, existing.pods, existing.other);
        let free = |prefix: &str| -> String {
            (1..)
                .map(|i| format!("{prefix}-{i}"))
                .find(|n| {
                    !all.contains(&format!("name: {n}\n"))
                        && !all.contains(&format!("name: {n},"))
                        && !all.contains(&format!("name: {n}}}"))
                })
                .unwrap_or_else(|| prefix.to_string())
        };
        match self {
            Template::Node => {
                let n = free("node");
                format!(
                    "apiVersion: v1\nkind: Node\nmetadata:\n  name: {n}\n  labels:\n    kubernetes.io/hostname: {n}\n    topology.kubernetes.io/zone: {zone}\nstatus:\n  capacity:\n    cpu: '4'\n    memory: 16Gi\n    pods: '110'\n"
                )
            }
            Template::Pod => {
                let n = free("pod");
                format!(
                    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {n}\n  labels:\n    app: {n}\nspec:\n  containers:\n  - name: app\n    image: registry.example.com/app:1.0\n    resources:\n      requests:\n        cpu: 500m\n        memory: 512Mi\n"
                )
            }
            Template::Deployment => {
                let n = free("web");
                format!(
                    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {n}\nspec:\n  replicas: 3  # the controller makes a ReplicaSet, which makes the pods\n  selector:\n    matchLabels:\n      app: {n}\n  template:\n    metadata:\n      labels:\n        app: {n}\n    spec:\n      containers:\n      - name: app\n        image: registry.example.com/app:1.0\n        resources:\n          requests:\n            cpu: 250m\n            memory: 256Mi\n"
                )
            }
            Template::DaemonSet => {
                let n = free("agent");
                format!(
                    "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {n}\nspec:  # one pod per node it may run on, pinned to that node\n  selector:\n    matchLabels:\n      app: {n}\n  template:\n    metadata:\n      labels:\n        app: {n}\n    spec:\n      containers:\n      - name: agent\n        image: registry.example.com/agent:1.0\n        resources:\n          requests:\n            cpu: 100m\n            memory: 64Mi\n"
                )
            }
            Template::StatefulSet => {
                let n = free("db");
                format!(
                    "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {n}\nspec:\n  replicas: 3  # pods {n}-0, {n}-1, {n}-2, kept apart when they can be\n  serviceName: {n}\n  selector:\n    matchLabels:\n      app: {n}\n  template:\n    metadata:\n      labels:\n        app: {n}\n    spec:\n      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 100\n            podAffinityTerm:\n              topologyKey: kubernetes.io/hostname\n              labelSelector:\n                matchLabels:\n                  app: {n}\n      containers:\n      - name: db\n        image: registry.example.com/db:1.0\n        resources:\n          requests:\n            cpu: 500m\n            memory: 1Gi\n"
                )
            }
            Template::Job => {
                let n = free("job");
                format!(
                    "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {n}\nspec:\n  parallelism: 2  # pods at once\n  completions: 4\n  template:\n    metadata:\n      labels:\n        app: {n}\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: work\n        image: registry.example.com/batch:1.0\n        resources:\n          requests:\n            cpu: \"1\"\n            memory: 1Gi\n"
                )
            }
            Template::PriorityClass => {
                let n = free("priority");
                format!("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: {n}\nvalue: 1000\ndescription: Pods of this class may preempt lower-priority pods.\n")
            }
            Template::Pdb => {
                let n = free("pdb");
                format!(
                    "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {n}\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: web\n"
                )
            }
            Template::DefaultProfile => "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n# The default profile, changed: every pod without a schedulerName is scheduled by it.\n# Here NodeResourcesFit packs pods onto the fullest nodes (MostAllocated) instead of\n# spreading them (LeastAllocated, the default).\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n".to_string(),
            Template::SecondProfile => "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n# The default profile as it is, and a second one: pods with spec.schedulerName: bin-packing\n# are scheduled by it (MostAllocated), the others by default-scheduler.\nprofiles:\n- schedulerName: default-scheduler\n- schedulerName: bin-packing\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n".to_string(),
        }
    }
}

/// The zone "+ Node" puts a new node in: of the zones the last run's nodes are in (with how
/// many nodes each has, in order of first appearance), the first with the fewest nodes, so that
/// adding nodes one after another goes round the zones; `zone-a` when no node has a zone.
pub fn next_zone(zones: &[(String, usize)]) -> String {
    zones
        .iter()
        .filter(|(z, _)| !z.is_empty())
        .min_by_key(|(_, n)| *n)
        .map(|(z, _)| z.clone())
        .unwrap_or_else(|| "zone-a".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leading_comment_is_the_story() {
        let parts = split("# A tour. Press space.\n# It goes on here.\n# 1. first\n# 2. second\n# intent: why\n---\napiVersion: v1\nkind: Pod\n# not this\nmetadata: {name: p}\n");
        assert_eq!(
            story(&parts),
            ["A tour. Press space. It goes on here.", "1. first", "2. second", "intent: why"]
        );
        assert!(story(&split("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")).is_empty());
    }

    #[test]
    fn a_leading_comment_in_any_tab_is_the_story() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n";
        let node = "# Two nodes, one cordoned.\napiVersion: v1\nkind: Node\nmetadata: {name: n}\n";
        let config = "# A bin-packing profile.\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
        let parts = |pods: &str, nodes: &str, config: &str| Parts {
            pods: pods.into(),
            nodes: nodes.into(),
            config: config.into(),
            ..Default::default()
        };
        assert_eq!(story(&parts(pod, node, config)), ["Two nodes, one cordoned."]);
        assert_eq!(story(&parts(pod, pod, config)), ["A bin-packing profile."]);
        // The Pods tab's comment comes first (the presets write it there).
        assert_eq!(story(&parts(&format!("# Pods first.\n{pod}"), node, config)), ["Pods first."]);
        assert!(story(&parts(pod, pod, "")).is_empty());
    }

    #[test]
    fn profile_templates_change_or_add_a_profile() {
        for (t, profiles) in [
            (Template::DefaultProfile, vec!["default-scheduler"]),
            (Template::SecondProfile, vec!["default-scheduler", "bin-packing"]),
        ] {
            let text = t.text(&Parts::default(), "zone-a");
            let parts = Parts {
                config: text.clone(),
                nodes: "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n".into(),
                ..Default::default()
            };
            assert!(has_config(&parts));
            // The template's comment is not taken for the scenario's story.
            assert!(story(&parts).is_empty(), "{text}");
            let (joined, _) = join(&parts);
            let sc = schedlab_core::load_str(&joined, "t").unwrap_or_else(|e| panic!("{e}"));
            let names: Vec<&str> = sc.config.profiles.iter().map(|p| p.scheduler_name.as_str()).collect();
            assert_eq!(names, profiles, "{text}");
            // The default profile scores with MostAllocated only in the first template.
            let effective = sc.config.to_effective_yaml();
            let default_part = effective
                .split("\n- ")
                .find(|p| p.contains("schedulerName: default-scheduler"))
                .unwrap_or_else(|| panic!("{effective}"));
            assert_eq!(
                default_part.contains("type: MostAllocated"),
                t == Template::DefaultProfile,
                "{effective}"
            );
        }
        assert!(!has_config(&Parts::default()));
    }

    #[test]
    fn tab_counts_count_that_tabs_documents() {
        let parts = split("# story\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n# a comment\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
        assert_eq!(parts.doc_count(Part::Other), 2);
        assert_eq!(parts.doc_count(Part::Pods), 1);
        assert_eq!(parts.doc_count(Part::Nodes), 0);
    }

    #[test]
    fn adding_a_file_keeps_every_document_separate() {
        let mut parts = split("apiVersion: v1\nkind: Node\nmetadata: {name: a}\n");
        parts.add(&split(
            "apiVersion: v1\nkind: Node\nmetadata: {name: b}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}",
        ));
        assert_eq!(
            parts.nodes,
            "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n"
        );
        assert_eq!(parts.pods, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
        assert_eq!(parts.other, "");
        // Joined, it is a valid multi-document file again.
        let (text, _) = join(&parts);
        assert_eq!(text.matches("---\n").count(), 3, "{text}");
    }

    #[test]
    fn adding_a_file_merges_its_timeline_steps_in_time_order() {
        let tl = |steps: &str| format!("apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n{steps}");
        let mut parts = split(&tl(
            "- at: 1s\n  delete: {kind: Node, name: a}\n- at: 5s\n  delete: {kind: Node, name: b}\n",
        ));
        parts.add(&split(&format!(
            "apiVersion: v1\nkind: Node\nmetadata: {{name: c}}\n---\n{}",
            tl("  # the file's comment\n  - at: 3s\n    create:\n      apiVersion: v1\n      kind: Node\n      metadata: {name: d}\n  - at: 5s\n    delete: {kind: Node, name: c}\n")
        )));
        assert_eq!(
            parts.timeline,
            tl("- at: 1s\n  delete: {kind: Node, name: a}\n- at: 3s\n  create:\n    apiVersion: v1\n    kind: Node\n    metadata: {name: d}\n- at: 5s\n  delete: {kind: Node, name: b}\n- at: 5s\n  delete: {kind: Node, name: c}\n")
        );
        assert_eq!(parts.doc_count(Part::Timeline), 4, "steps");
        assert_eq!(parts.nodes, "apiVersion: v1\nkind: Node\nmetadata: {name: c}\n");
        // The merged scenario loads: one Timeline, four steps.
        let (joined, _) = join(&parts);
        let sc = schedlab_core::load_str(
            &format!(
                "apiVersion: v1\nkind: Node\nmetadata: {{name: a}}\n---\napiVersion: v1\nkind: Node\nmetadata: {{name: b}}\n---\n{joined}"
            ),
            "t",
        )
        .unwrap_or_else(|e| panic!("{e}\n{joined}"));
        assert_eq!(sc.timeline.as_ref().map(|t| t.steps.len()), Some(4));

        // Into a scenario without a timeline, the file's document as it is.
        let mut parts = split("apiVersion: v1\nkind: Node\nmetadata: {name: a}\n");
        parts.add(&split(&tl("- at: 2s\n  delete: {kind: Node, name: a}\n")));
        assert_eq!(parts.timeline, tl("- at: 2s\n  delete: {kind: Node, name: a}\n"));
        // A flow list cannot be merged line by line: both documents stay, the loader tells.
        let mut parts = split(&tl("- at: 1s\n  delete: {kind: Node, name: a}\n"));
        parts.add(&split(
            &tl("[{at: 2s, delete: {kind: Node, name: a}}]\n").replace("steps:\n[", "steps: ["),
        ));
        assert_eq!(parts.timeline.matches("kind: Timeline").count(), 2, "{}", parts.timeline);
    }

    #[test]
    fn split_then_join_keeps_every_document_and_maps_lines() {
        let text = "# intent: x\n---\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: hi}\nvalue: 5\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n";
        let parts = split(text);
        assert_eq!(
            parts.nodes,
            "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n"
        );
        assert_eq!(parts.pods, "# intent: x\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n");
        assert!(parts.other.starts_with("apiVersion: scheduling.k8s.io/v1"));
        let (joined, map) = join(&parts);
        // Line 4 of the pods part is `metadata: {name: p}`.
        let (i, l) = joined.lines().enumerate().find(|(_, l)| l.contains("name: p}")).unwrap();
        assert_eq!(l, "metadata: {name: p}");
        assert_eq!(map.locate(i as u32 + 1), Some((Part::Pods, 4)));
        assert_eq!(split(&joined), parts, "split ∘ join is the identity on parts");
    }

    /// The default scenario's load reaches the worker as the preset's file, byte for byte:
    /// the worker prepares that run while the page starts (crates/worker/src/lib.rs:
    /// `opening_load`) and answers the page's first load with it only when the two are equal.
    #[test]
    fn the_default_scenario_is_sent_as_its_file() {
        let saved = Saved::from_preset(preset(DEFAULT_PRESET).unwrap(), DEFAULT_TEXT);
        assert_eq!(join(&saved.parts).0, DEFAULT_TEXT);
        assert_eq!((saved.seed, saved.controllers, saved.feature_gates.as_str()), (1, true, ""));
        assert_eq!(saved.kubernetes_version, schedlab_view::KubeVersion::V1_34);
    }

    /// The default preset's text is the one in the wasm; every other preset is a file of the
    /// site that web/index.html names (its download table), and the site has no other.
    #[test]
    fn the_presets_are_the_sites_files() {
        let tour = preset(DEFAULT_PRESET).unwrap();
        assert_eq!(tour.text(), DEFAULT_TEXT);
        let index = include_str!("../../../web/index.html");
        let named = index.matches("\": \"./presets/").count();
        for p in PRESETS.iter().filter(|p| p.id != DEFAULT_PRESET) {
            let entry = format!("\"preset:{}\": \"./presets/{}.yaml\"", p.id, p.file);
            assert!(index.contains(&entry), "web/index.html does not name {entry}");
            assert!(!p.text().is_empty(), "{}", p.id);
        }
        assert_eq!(named, PRESETS.len() - 1, "web/index.html names a preset that is none");
        for l in crate::lessons::GALLERY {
            let entry = format!("\"lesson:{}\": \"./lessons/{}.yaml\"", l.id, l.id);
            assert!(index.contains(&entry), "web/index.html does not name {entry}");
        }
        let named = index.matches("\": \"./lessons/").count();
        assert_eq!(named, crate::lessons::GALLERY.len(), "web/index.html names a lesson that is none");
    }

    #[test]
    fn every_preset_splits_and_loads() {
        for p in PRESETS {
            let text = p.text();
            let parts = split(&text);
            let (joined, _) = join(&parts);
            // At the version the preset is written for (the one it opens at).
            let features = schedlab_core::version::Features::new(p.version);
            let mut sc = schedlab_core::load::load_str_for(&joined, p.id, &features).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            // Presets run as the playground runs them: controllers on (a workload preset's
            // pods are the ones its controllers make).
            let report = schedlab_core::controllers::run(&mut sc, 1);
            assert!(report.failed.is_empty(), "{}: {:?}", p.id, report.failed);
            assert!(!sc.nodes.is_empty(), "{}", p.id);
            assert!(!sc.pods.is_empty(), "{}", p.id);
            // Its story is told ("About this scenario").
            assert!(!story(&parts).is_empty(), "{} has no leading comment", p.id);
            // Regrouping the documents by part does not change what the scheduler does.
            let run = |text: &str| {
                let mut sc = schedlab_core::load::load_str_for(text, p.id, &features).unwrap();
                schedlab_core::controllers::run(&mut sc, 1);
                let mut e = schedlab_core::Engine::new(sc, Default::default());
                e.run();
                // Per pod: key, node, nominated node, FailedScheduling message.
                type Outcome = (String, Option<String>, Option<String>, Option<String>);
                let mut out: Vec<Outcome> = e
                    .pods()
                    .iter()
                    .map(|s| (s.info.key.clone(), s.node.clone(), s.nominated_node.clone(), s.message.clone()))
                    .collect();
                out.sort();
                out
            };
            assert_eq!(run(&joined), run(&text), "{}", p.id);
        }
    }

    /// A gallery lesson opened in the page: its parts, joined as the page joins them, load with
    /// the same Lesson; as shipped it is not the user's own, edited it is; its id travels in
    /// the saved JSON (and so in a share link), and a scenario replacing it drops it.
    #[test]
    fn a_gallery_lesson_splits_joins_and_travels() {
        for l in crate::lessons::GALLERY {
            let s = Saved::from_lesson(l, &l.text());
            let (joined, _) = join(&s.parts);
            let a = schedlab_core::load::load_str(&l.text(), l.id).unwrap().lesson.unwrap();
            let b = schedlab_core::load::load_str(&joined, l.id)
                .unwrap_or_else(|e| panic!("{}: {e}", l.id))
                .lesson
                .unwrap();
            assert_eq!(a.info(), b.info(), "{}", l.id);
            assert_eq!(s.kubernetes_version, l.version);
            assert!(!s.is_custom(), "{}", l.id);
            let mut edited = s.clone();
            edited.parts.pods.push_str("# mine\n");
            assert!(edited.is_custom());
            let json = serde_json::to_string(&edited).unwrap();
            assert!(json.contains(&format!(r#""lesson":"{}""#, l.id)), "{json}");
            assert_eq!(serde_json::from_str::<Saved>(&json).unwrap(), edited);
            assert_eq!(edited.replaced_by(Parts::default()).lesson, None);
        }
    }

    #[test]
    fn saved_scenarios_from_before_the_toggle_have_controllers_on() {
        let old = r#"{"parts":{"nodes":"","pods":"","other":"","config":""},"seed":3,"preset":null}"#;
        let s: Saved = serde_json::from_str(old).unwrap();
        assert!(s.controllers);
        assert_eq!(
            s.kubernetes_version,
            KubeVersion::V1_34,
            "saved before versions were a setting: v1.34"
        );
        let off = Saved { controllers: false, ..s };
        let back: Saved = serde_json::from_str(&serde_json::to_string(&off).unwrap()).unwrap();
        assert!(!back.controllers);
    }

    /// The version and gates are kept with the scenario (so a share link, whose payload is this
    /// JSON, carries them); a replacing scenario keeps them.
    #[test]
    fn the_version_and_gates_are_saved_and_carried() {
        let s = Saved {
            kubernetes_version: KubeVersion::V1_35,
            feature_gates: "GangScheduling=true".into(),
            ..Saved::from_preset(preset(DEFAULT_PRESET).unwrap(), DEFAULT_TEXT)
        };
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""kubernetesVersion":"1.35""#), "{json}");
        assert!(json.contains(r#""featureGates":"GangScheduling=true""#), "{json}");
        assert_eq!(serde_json::from_str::<Saved>(&json).unwrap(), s);
        let replaced = s.replaced_by(Parts::default());
        assert_eq!(
            (replaced.kubernetes_version, replaced.feature_gates.as_str()),
            (KubeVersion::V1_35, "GangScheduling=true")
        );
        // Presets run as the version they are written for.
        for p in PRESETS {
            assert_eq!(Saved::from_preset(p, "").kubernetes_version, p.version, "{}", p.id);
        }
    }

    #[test]
    fn the_timeline_has_its_tab_joins_last_and_maps_lines() {
        let text = "apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n- at: 1s\n  delete: {kind: Pod, name: p}\n- at: 2s\n  delete: {kind: Node, name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n";
        let parts = split(text);
        assert!(
            parts.timeline.starts_with("apiVersion: schedlab.dev/v1alpha1\nkind: Timeline"),
            "{parts:?}"
        );
        assert_eq!(parts.other, "");
        assert_eq!(parts.doc_count(Part::Timeline), 2, "the Timeline tab counts steps");
        let (joined, map) = join(&parts);
        assert!(joined.ends_with("  delete: {kind: Node, name: a}\n"), "{joined}");
        let (i, _) = joined.lines().enumerate().find(|(_, l)| l.contains("kind: Node, name: a")).unwrap();
        assert_eq!(map.locate(i as u32 + 1), Some((Part::Timeline, 7)));
        assert_eq!(split(&joined), parts);
        schedlab_core::load_str(&joined, "t").unwrap_or_else(|e| panic!("{e}"));
        // A bad step is reported at its line in the Timeline tab.
        let mut bad = parts.clone();
        bad.timeline = bad.timeline.replace("name: a}", "name: nope}");
        let (joined, map) = join(&bad);
        let errs = schedlab_core::load_str(&joined, "t").unwrap_err();
        let (part, line) = map.locate(errs.errors[0].line as u32).unwrap();
        assert_eq!((part, line), (Part::Timeline, 6), "{errs}");
    }

    #[test]
    fn scenarios_saved_before_the_timeline_tab_still_load() {
        // Saved (or linked) without `timeline`, the Timeline document among the other objects.
        let json = r#"{"parts":{"nodes":"","pods":"","other":"apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps: []\n","config":""},"seed":1}"#;
        let saved: Saved = serde_json::from_str(json).unwrap();
        assert_eq!(saved.parts.other, "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n");
        assert_eq!(
            saved.parts.timeline,
            "apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps: []\n"
        );
        let back: Saved = serde_json::from_str(&serde_json::to_string(&saved).unwrap()).unwrap();
        assert_eq!(back, saved);
        let plain: Saved = serde_json::from_str(r#"{"parts":{"nodes":"n","pods":"p","other":"","config":""},"seed":2}"#).unwrap();
        assert_eq!(plain.parts.timeline, "");
    }

    #[test]
    fn a_new_node_goes_to_the_zone_with_the_fewest_nodes() {
        let z = |v: &[(&str, usize)]| v.iter().map(|(a, b)| (a.to_string(), *b)).collect::<Vec<_>>();
        assert_eq!(next_zone(&[]), "zone-a");
        assert_eq!(next_zone(&z(&[("", 3)])), "zone-a", "nodes without a zone");
        assert_eq!(next_zone(&z(&[("us-1a", 2), ("us-1b", 1), ("us-1c", 1)])), "us-1b");
        assert_eq!(
            next_zone(&z(&[("us-1a", 2), ("us-1b", 2), ("us-1c", 2)])),
            "us-1a",
            "a tie: the first"
        );
        assert_eq!(next_zone(&z(&[("", 0), ("east", 4)])), "east");
    }

    #[test]
    fn templates_get_fresh_names_and_load() {
        let mut parts = Parts::default();
        // One configuration per scenario: the editor adds the second profile template only
        // where there is none (see `profile_templates_change_or_add_a_profile`).
        for t in Template::ALL.into_iter().filter(|&t| t != Template::SecondProfile) {
            let text = t.text(&parts, "zone-a");
            let cur = parts.get(t.part()).to_string();
            parts.set(t.part(), if cur.is_empty() { text } else { format!("{cur}---\n{text}") });
        }
        let n2 = Template::Node.text(&parts, "zone-b");
        assert!(n2.contains("name: node-2"), "{n2}");
        assert!(n2.contains("topology.kubernetes.io/zone: zone-b\n"), "{n2}");
        for (t, second) in [
            (Template::Deployment, "name: web-2"),
            (Template::DaemonSet, "name: agent-2"),
            (Template::StatefulSet, "name: db-2"),
            (Template::Job, "name: job-2"),
        ] {
            let again = t.text(&parts, "zone-a");
            assert!(again.contains(second), "{again}");
            // Workloads go with the pods, where `split` puts them too.
            assert_eq!(part_of(doc_kind(&again)), Part::Pods);
        }
        let (joined, _) = join(&parts);
        let mut sc = schedlab_core::load_str(&joined, "t").unwrap_or_else(|e| panic!("{e}"));
        // Every workload template makes pods once the controllers run.
        let report = schedlab_core::controllers::run(&mut sc, 1);
        for owner in ["web-1", "agent-1", "db-1", "job-1"] {
            assert!(report.pods.iter().any(|p| p.contains(owner)), "{owner}: {report:?}");
        }
    }
}
