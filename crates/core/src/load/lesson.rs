//! The Lesson document (docs/lessons.md): its types, read strictly by the loader with each
//! error at its line and field path, and the checks decoding cannot make (selectors, durations,
//! plugin and extension point names, bounds, edit-scope paths). What a lesson's goals say about
//! a run is `crate::lesson`'s, above the engine; the loader only reads the document.

use super::yaml::{Seg, Val, YNode};
use super::{ErrorReason, LoadError};
use crate::api::LabelSelector;
use crate::labels::Selector;
use crate::vocabulary::{ExtensionPoint, PluginName};
use serde::Deserialize;
use serde_json::Value;

/// The Lesson document's apiVersion and kind.
pub const API_VERSION: &str = "schedlab.dev/v1";
pub const KIND: &str = "Lesson";

/// A lesson, as its document declares it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lesson {
    pub api_version: String,
    pub kind: String,
    pub title: String,
    pub topic: String,
    /// The Kubernetes version the lesson is written for, e.g. `"1.34"`.
    pub kubernetes_version: String,
    /// Markdown.
    #[serde(default)]
    pub story: String,
    pub exercises: Vec<Exercise>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Exercise {
    pub name: String,
    /// Markdown.
    pub task: String,
    pub goals: Vec<Goal>,
    #[serde(default)]
    pub hints: Vec<String>,
    /// What the learner may edit; every goal fails when something else was edited. Absent:
    /// anything.
    #[serde(default)]
    pub editable: Option<Vec<Scope>>,
    /// Steps that turn the starting scenario into one where every goal passes.
    #[serde(default)]
    pub solution: Option<Vec<SolutionStep>>,
}

/// A part of the scenario the learner may edit: every object of a kind, one named object, or
/// one field path under one named object.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scope {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    /// A field path (`spec.affinity`, `spec.containers[0].resources`); absent: the whole object.
    #[serde(default)]
    pub path: Option<String>,
}

/// One step of a solution.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum SolutionStep {
    /// A whole document: it replaces the document of the same kind, namespace and name, or is
    /// added when there is none.
    Replace(Value),
    /// An RFC 7386 merge patch of a named document.
    Patch(PatchStep),
    /// Removes a named document.
    Delete(Target),
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PatchStep {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    pub merge: Value,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Target {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
}

/// A predicate over a finished run (see `goals` for what each one reads).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum Goal {
    /// The pod runs on the node.
    RunsOn(PodNode),
    /// The pod (or no pod matching the selector) does not run on the node.
    NotOn(NotOn),
    /// The pod runs on a node whose label `topologyKey` is `value`.
    RunsIn(PodDomain),
    /// The pod stays Pending; with `message`, its last FailedScheduling message contains it.
    Pending(PendingGoal),
    /// The pod was preempted (deleted as a victim).
    Preempted(PodOnly),
    /// The pod's preemptions deleted exactly `count` pods.
    Preempts(Preempts),
    /// The running pods matching the selector spread with skew at most `maxSkew` over the
    /// domains of `topologyKey` (every node with that label counts as a domain).
    Spread(Spread),
    /// No node runs two pods matching the selector.
    OnePerNode(Selected),
    /// How many nodes run at least one pod (matching the selector, when given).
    NodesUsed(NodesUsed),
    /// Every pod matching the selector was bound by logical time `time` (a Go duration).
    BoundBy(BoundBy),
    /// A plugin is enabled in a profile (at an extension point, when given).
    PluginEnabled(PluginGoal),
    /// A plugin is not enabled in a profile (at an extension point, when given).
    PluginDisabled(PluginGoal),
    /// NodeResourcesFit's scoring strategy in a profile.
    ScoringStrategy(Strategy),
    /// A Score plugin's weight in a profile.
    PluginWeight(Weight),
    /// The number of scheduling attempts of a pod.
    Attempts(Attempts),
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodNode {
    pub pod: String,
    pub node: String,
}

/// One pod (`pod`) or every pod matching `selector`; exactly one of the two.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NotOn {
    #[serde(default)]
    pub pod: Option<String>,
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    pub node: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodDomain {
    pub pod: String,
    pub topology_key: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingGoal {
    pub pod: String,
    #[serde(default)]
    pub message: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PodOnly {
    pub pod: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preempts {
    pub pod: String,
    pub count: u32,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Spread {
    pub selector: LabelSelector,
    pub topology_key: String,
    pub max_skew: u32,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Selected {
    pub selector: LabelSelector,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodesUsed {
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    #[serde(default)]
    pub at_most: Option<u32>,
    #[serde(default)]
    pub at_least: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoundBy {
    pub selector: LabelSelector,
    pub time: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PluginGoal {
    pub plugin: String,
    /// The profile's schedulerName; absent: the first profile.
    #[serde(default)]
    pub profile: Option<String>,
    /// An extension point (`Score`, `Filter`, …); absent: any.
    #[serde(default)]
    pub point: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Strategy {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub profile: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Weight {
    pub plugin: String,
    pub weight: i32,
    #[serde(default)]
    pub profile: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Attempts {
    pub pod: String,
    #[serde(default)]
    pub at_least: Option<u32>,
    #[serde(default)]
    pub at_most: Option<u32>,
}

/// NodeResourcesFit's scoring strategies.
pub(crate) const STRATEGIES: [&str; 3] = ["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"];

/// Reads the Lesson document (called by the loader): strict decoding, then the checks decoding
/// cannot make (selectors, durations, plugin and extension point names, bounds); each error at
/// its line, with its field path.
pub(crate) fn read(node: &YNode, errs: &mut super::LoadErrors) -> Option<Lesson> {
    let lesson = match Lesson::deserialize(crate::apimachinery::json::Strict::new(node.to_json())) {
        Ok(l) => l,
        Err(e) => {
            let mut le = super::decode_error(node, KIND, API_VERSION, e);
            le.object = Some(format!("{KIND}/{}", node.get("title").and_then(YNode::as_str).unwrap_or("")));
            errs.push(le);
            return None;
        }
    };
    let mut lesson = lesson;
    // A merge patch's nulls delete (RFC 7386): take the patches with their nulls.
    for (i, ex) in lesson.exercises.iter_mut().enumerate() {
        for (j, s) in ex.solution.iter_mut().flatten().enumerate() {
            if let SolutionStep::Patch(p) = s {
                let at = node.get("exercises").and_then(|e| seq_item(e, i)).and_then(|e| e.get("solution")).and_then(|s| seq_item(s, j));
                if let Some(m) = at.and_then(|s| s.get("patch")).and_then(|p| p.get("merge")) {
                    p.merge = json_with_nulls(m);
                }
            }
        }
    }
    let n = errs.errors.len();
    let mut bad = |path: &[Seg], message: String| {
        let pos = node.locate(path);
        let mut e = LoadError::at(pos.line, pos.column, message).with_reason(ErrorReason::Invalid);
        e.object = Some(format!("{KIND}/{}", lesson.title));
        e.field = Some(render(path));
        errs.push(e);
    };
    if schedlab_view::KubeVersion::parse(&lesson.kubernetes_version).is_none() {
        bad(
            &[Seg::Key("kubernetesVersion")],
            format!("Unsupported value: {:?}: supported values: {}", lesson.kubernetes_version, schedlab_view::KubeVersion::supported_list()),
        );
    }
    if lesson.exercises.is_empty() {
        bad(&[Seg::Key("exercises")], "Required value: a lesson has at least one exercise".into());
    }
    for (i, ex) in lesson.exercises.iter().enumerate() {
        if ex.goals.is_empty() {
            bad(&[Seg::Key("exercises"), Seg::Index(i), Seg::Key("goals")], "Required value: an exercise has at least one goal".into());
        }
        for (j, g) in ex.goals.iter().enumerate() {
            let name = goal_key(g);
            let at = |field: &'static str| [Seg::Key("exercises"), Seg::Index(i), Seg::Key("goals"), Seg::Index(j), Seg::Key(name), Seg::Key(field)];
            for (field, problem) in problems(g) {
                bad(&at(field), problem);
            }
        }
        for (j, s) in ex.editable.iter().flatten().enumerate() {
            if let Some(p) = &s.path {
                if let Err(m) = parse_path(p) {
                    bad(&[Seg::Key("exercises"), Seg::Index(i), Seg::Key("editable"), Seg::Index(j), Seg::Key("path")], format!("Invalid value: {p:?}: {m}"));
                }
            }
        }
        for (j, s) in ex.solution.iter().flatten().enumerate() {
            if let SolutionStep::Replace(v) = s {
                if v.get("kind").and_then(Value::as_str).is_none() {
                    bad(&[Seg::Key("exercises"), Seg::Index(i), Seg::Key("solution"), Seg::Index(j), Seg::Key("replace")], "Required value: the document's kind".into());
                }
            }
        }
    }
    (errs.errors.len() == n).then_some(lesson)
}

fn seq_item<'a, 't>(n: &'a YNode<'t>, i: usize) -> Option<&'a YNode<'t>> {
    match &n.val {
        Val::Seq(items) => items.get(i),
        _ => None,
    }
}

/// A YAML value as JSON, its nulls kept (`YNode::to_json` drops them, as decoding does).
fn json_with_nulls(n: &YNode) -> Value {
    match &n.val {
        Val::Seq(items) => Value::Array(items.iter().map(json_with_nulls).collect()),
        Val::Map(es) => Value::Object(es.iter().map(|e| (e.key.to_string(), json_with_nulls(&e.value))).collect()),
        _ => n.to_json(),
    }
}

/// A field path as errors print it (`exercises[0].goals[1].runsOn.pod`).
fn render(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// The goal's key in the document (`runsOn`).
pub(crate) fn goal_key(g: &Goal) -> &'static str {
    match g {
        Goal::RunsOn(_) => "runsOn",
        Goal::NotOn(_) => "notOn",
        Goal::RunsIn(_) => "runsIn",
        Goal::Pending(_) => "pending",
        Goal::Preempted(_) => "preempted",
        Goal::Preempts(_) => "preempts",
        Goal::Spread(_) => "spread",
        Goal::OnePerNode(_) => "onePerNode",
        Goal::NodesUsed(_) => "nodesUsed",
        Goal::BoundBy(_) => "boundBy",
        Goal::PluginEnabled(_) => "pluginEnabled",
        Goal::PluginDisabled(_) => "pluginDisabled",
        Goal::ScoringStrategy(_) => "scoringStrategy",
        Goal::PluginWeight(_) => "pluginWeight",
        Goal::Attempts(_) => "attempts",
    }
}


/// What is wrong with a goal's definition: (field, message), the message as the loader words
/// an invalid value.
pub(crate) fn problems(g: &Goal) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let pod = |out: &mut Vec<_>, p: &str| {
        if p.is_empty() || p.split('/').count() > 2 || p.split('/').any(str::is_empty) {
            out.push(("pod", format!("Invalid value: {p:?}: a pod's name, or namespace/name")));
        }
    };
    let selector = |out: &mut Vec<_>, s: &LabelSelector| {
        if let Err(m) = Selector::from_label_selector(Some(s)) {
            out.push(("selector", format!("Invalid value: {m}")));
        }
    };
    let plugin = |out: &mut Vec<_>, p: &str| {
        if PluginName::parse(p).is_none() {
            out.push(("plugin", format!("Invalid value: {p:?}: not an in-tree plugin")));
        }
    };
    let bounds = |out: &mut Vec<_>, lo: Option<u32>, hi: Option<u32>| match (lo, hi) {
        (None, None) => out.push(("atLeast", "Required value: atLeast or atMost".to_string())),
        (Some(l), Some(h)) if l > h => out.push(("atLeast", format!("Invalid value: {l}: more than atMost ({h})"))),
        _ => {}
    };
    match g {
        Goal::RunsOn(x) => pod(&mut out, &x.pod),
        Goal::NotOn(x) => match (&x.pod, &x.selector) {
            (Some(p), None) => pod(&mut out, p),
            (None, Some(s)) => selector(&mut out, s),
            _ => out.push(("pod", "Invalid value: give either pod or selector".to_string())),
        },
        Goal::RunsIn(x) => pod(&mut out, &x.pod),
        Goal::Pending(x) => pod(&mut out, &x.pod),
        Goal::Preempted(x) => pod(&mut out, &x.pod),
        Goal::Preempts(x) => pod(&mut out, &x.pod),
        Goal::Attempts(x) => {
            pod(&mut out, &x.pod);
            bounds(&mut out, x.at_least, x.at_most);
        }
        Goal::Spread(x) => selector(&mut out, &x.selector),
        Goal::OnePerNode(x) => selector(&mut out, &x.selector),
        Goal::NodesUsed(x) => {
            if let Some(s) = &x.selector {
                selector(&mut out, s);
            }
            bounds(&mut out, x.at_least, x.at_most);
        }
        Goal::BoundBy(x) => {
            selector(&mut out, &x.selector);
            if let Err(m) = schedlab_view::parse_go_duration(&x.time) {
                out.push(("time", format!("Invalid value: {:?}: {m}", x.time)));
            }
        }
        Goal::PluginEnabled(x) | Goal::PluginDisabled(x) => {
            plugin(&mut out, &x.plugin);
            if let Some(p) = &x.point {
                if !ExtensionPoint::CONFIGURABLE.iter().any(|e| e.as_str() == p) {
                    let all: Vec<&str> = ExtensionPoint::CONFIGURABLE.iter().map(|e| e.as_str()).collect();
                    out.push(("point", format!("Unsupported value: {p:?}: supported values: {}", all.join(", "))));
                }
            }
        }
        Goal::ScoringStrategy(x) => {
            if !STRATEGIES.contains(&x.kind.as_str()) {
                out.push(("type", format!("Unsupported value: {:?}: supported values: {}", x.kind, STRATEGIES.join(", "))));
            }
        }
        Goal::PluginWeight(x) => plugin(&mut out, &x.plugin),
    }
    out
}

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// Parses `spec.affinity` or `spec.containers[0].resources`.
pub(crate) fn parse_path(p: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    for part in p.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() {
            return Err("a field path is keys separated by dots, each optionally followed by [index]".into());
        }
        out.push(Step::Key(key.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']').ok_or("an unclosed [")?;
            let n: usize = rest[1..close].parse().map_err(|_| format!("{:?} is not an index", &rest[1..close]))?;
            out.push(Step::Index(n));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err("a field path is keys separated by dots, each optionally followed by [index]".into());
            }
        }
    }
    Ok(out)
}
