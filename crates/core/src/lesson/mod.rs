//! Lessons: the `schedlab.dev/v1` `Lesson` document of a scenario (title, topic, story,
//! exercises with their tasks, goals, hints and solutions; see docs/lessons.md), read strictly
//! by the loader (`read`, errors at their line), and its goals evaluated on a finished run
//! (`goals`), over the facts the engine recorded (`facts`), with the edit-scope rule (`scope`)
//! and the solutions applied to a scenario's text (`solution`). The engine never reads the
//! Lesson document: it only rides along in the scenario.

mod facts;
mod goals;
mod scope;
mod solution;
#[cfg(test)]
mod tests;

pub use facts::RunFacts;
pub use schedlab_view::lesson::{ExerciseInfo, ExerciseVerdict, GoalVerdict, LessonInfo};
pub use solution::apply_solution;

use crate::api::LabelSelector;
use crate::load::yaml::{Seg, Val, YNode};
use crate::load::{ErrorReason, LoadError};
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
const STRATEGIES: [&str; 3] = ["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"];

/// Reads the Lesson document (called by the loader): strict decoding, then the checks decoding
/// cannot make (selectors, durations, plugin and extension point names, bounds); each error at
/// its line, with its field path.
pub(crate) fn read(node: &YNode, errs: &mut crate::load::LoadErrors) -> Option<Lesson> {
    let lesson = match Lesson::deserialize(crate::load::json::Strict::new(node.to_json())) {
        Ok(l) => l,
        Err(e) => {
            let mut le = crate::load::decode_error(node, KIND, API_VERSION, e);
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
    if !lesson.kubernetes_version.starts_with("1.") || lesson.kubernetes_version[2..].parse::<u32>().is_err() {
        bad(&[Seg::Key("kubernetesVersion")], format!("Invalid value: {:?}: a Kubernetes minor version such as \"1.34\"", lesson.kubernetes_version));
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
            for (field, problem) in goals::problems(g) {
                bad(&at(field), problem);
            }
        }
        for (j, s) in ex.editable.iter().flatten().enumerate() {
            if let Some(p) = &s.path {
                if let Err(m) = scope::parse_path(p) {
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

fn seq_item(n: &YNode, i: usize) -> Option<&YNode> {
    match &n.val {
        Val::Seq(items) => items.get(i),
        _ => None,
    }
}

/// A YAML value as JSON, its nulls kept (`YNode::to_json` drops them, as decoding does).
fn json_with_nulls(n: &YNode) -> Value {
    match &n.val {
        Val::Seq(items) => Value::Array(items.iter().map(json_with_nulls).collect()),
        Val::Map(es) => Value::Object(es.iter().map(|e| (e.key.clone(), json_with_nulls(&e.value))).collect()),
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

impl Lesson {
    /// The lesson as a page shows it.
    pub fn info(&self) -> LessonInfo {
        LessonInfo {
            title: self.title.clone(),
            topic: self.topic.clone(),
            kubernetes_version: self.kubernetes_version.clone(),
            story: self.story.clone(),
            exercises: self
                .exercises
                .iter()
                .map(|e| ExerciseInfo {
                    name: e.name.clone(),
                    task: e.task.clone(),
                    hints: e.hints.clone(),
                    has_solution: e.solution.is_some(),
                    goals: e.goals.iter().map(goals::describe).collect(),
                })
                .collect(),
        }
    }
}

/// Evaluates every exercise's goals on a finished run. `start` holds the lesson's starting
/// documents and `current` the documents that ran (both as `view::documents::documents`
/// returns them): an exercise with `editable` fails every goal when `current` differs from
/// `start` outside what it allows.
pub fn evaluate(lesson: &Lesson, start: &[Value], current: &[Value], run: &RunFacts) -> Vec<ExerciseVerdict> {
    lesson.exercises.iter().map(|ex| evaluate_exercise(ex, start, current, run)).collect()
}

/// The documents of a scenario's text as JSON, a `…List`'s items in its place (as
/// `view::documents` reads them for the page; read here from the loader's YAML tree so that
/// lessons do not depend on the views).
pub(crate) fn documents(text: &str) -> Vec<Value> {
    let (read, _) = crate::load::yaml::read_documents(text);
    let mut docs = Vec::new();
    for v in read.iter().map(|d| d.to_json()) {
        match v.get("items").and_then(Value::as_array) {
            Some(items) if v["kind"].as_str().is_some_and(|k| k.ends_with("List")) => docs.extend(items.iter().cloned()),
            _ => docs.push(v),
        }
    }
    docs
}

/// `evaluate` on texts: the lesson's starting text and the text that ran (the page's worker
/// calls this with its session's `run_facts`).
pub fn evaluate_texts(lesson: &Lesson, start: &str, current: &str, run: &RunFacts) -> Vec<ExerciseVerdict> {
    evaluate(lesson, &documents(start), &documents(current), run)
}

/// Evaluates one exercise's goals (see `evaluate`).
pub fn evaluate_exercise(ex: &Exercise, start: &[Value], current: &[Value], run: &RunFacts) -> ExerciseVerdict {
    let outside = ex.editable.as_ref().and_then(|sc| scope::outside(sc, start, current));
    let goals: Vec<GoalVerdict> = ex
        .goals
        .iter()
        .map(|g| {
            let mut v = goals::evaluate(g, run);
            if let (true, Some(what)) = (v.pass, &outside) {
                v.pass = false;
                v.reason = format!("{} — but {what}, outside what this exercise lets you edit ({})", v.reason, scope::describe(ex.editable.as_deref().unwrap_or(&[])));
            }
            v
        })
        .collect();
    ExerciseVerdict {
        name: ex.name.clone(),
        pass: goals.iter().all(|g| g.pass),
        goals,
    }
}

/// How `check_text` runs a scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    pub seed: u64,
    pub controllers: bool,
}

/// Loads `text`, runs it (the controllers first when asked, as `schedlab run` does) and
/// evaluates its Lesson's exercises against `start` (the lesson's starting text). `Ok(None)`
/// when the scenario has no Lesson document.
pub fn check_text(text: &str, start: &str, file: &str, opts: CheckOptions) -> Result<Option<(Lesson, Vec<ExerciseVerdict>)>, crate::load::LoadErrors> {
    let mut sc = crate::load::load_str(text, file)?;
    let Some(lesson) = sc.lesson.take() else { return Ok(None) };
    let run = RunFacts::run(sc, opts);
    let verdicts = evaluate_texts(&lesson, start, text, &run);
    Ok(Some((lesson, verdicts)))
}
