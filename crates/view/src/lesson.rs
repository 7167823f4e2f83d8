//! What a lesson's goals say about a run: each goal's verdict and the one-line reason naming
//! what it saw (built by `schedlab_core::lesson::evaluate`), and the lesson as a page shows it
//! (title, topic, story, exercises with their tasks and hints). Pure data.

use serde::{Deserialize, Serialize};

/// A lesson as a front end shows it (the Lesson document of a scenario, without its goals'
/// definitions and solutions).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LessonInfo {
    pub title: String,
    pub topic: String,
    /// The Kubernetes version the lesson is written for (`1.34`).
    pub kubernetes_version: String,
    /// Markdown.
    pub story: String,
    pub exercises: Vec<ExerciseInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExerciseInfo {
    pub name: String,
    /// Markdown.
    pub task: String,
    /// Revealed one at a time, in order.
    pub hints: Vec<String>,
    /// Whether the exercise carries a solution ("Show solution").
    pub has_solution: bool,
    /// Each goal, in words (`pod web runs on node node-b`).
    pub goals: Vec<String>,
}

/// One goal's verdict on a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GoalVerdict {
    /// The goal, in words.
    pub goal: String,
    pub pass: bool,
    /// One line naming what the goal saw (`pod web runs on node-a, not node-b`).
    pub reason: String,
}

/// The verdicts of one exercise's goals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExerciseVerdict {
    pub name: String,
    /// Every goal passed.
    pub pass: bool,
    pub goals: Vec<GoalVerdict>,
}

/// A lesson and the verdicts of its exercises on one run (what the worker answers a load of a
/// scenario holding a Lesson with).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LessonRun {
    pub info: LessonInfo,
    /// One per exercise, in order.
    pub verdicts: Vec<ExerciseVerdict>,
}
