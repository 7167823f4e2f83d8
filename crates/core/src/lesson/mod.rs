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

pub use crate::load::lesson::*;
use serde_json::Value;

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

/// `evaluate` on texts: the lesson's starting text and the text that ran (the page's worker
/// calls this with its session's `run_facts`).
pub fn evaluate_texts(lesson: &Lesson, start: &str, current: &str, run: &RunFacts) -> Vec<ExerciseVerdict> {
    evaluate(lesson, &crate::load::documents(start), &crate::load::documents(current), run)
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
    // A lesson runs on the Kubernetes version it is written for (the loader checked it is one).
    if let Some(v) = sc.lesson.as_ref().and_then(|l| schedlab_view::KubeVersion::parse(&l.kubernetes_version)) {
        if v != sc.features().version() {
            sc = crate::load::load_str_for(text, file, &crate::version::Features::new(v))?;
        }
    }
    let Some(lesson) = sc.lesson.take() else { return Ok(None) };
    let run = RunFacts::run(sc, opts);
    let verdicts = evaluate_texts(&lesson, start, text, &run);
    Ok(Some((lesson, verdicts)))
}
