//! `schedlab check FILE...`: runs each lesson's goals (see docs/lessons.md) and prints each
//! goal's verdict and reason; with `--solution`, each exercise's solution is applied first.
//! Exits 1 when a goal fails or a file cannot be checked.

use crate::OnOff;
use schedlab_core::lesson::{self, CheckOptions, ExerciseVerdict};
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Scenario files holding a Lesson document
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Apply each exercise's solution before checking its goals
    #[arg(long)]
    solution: bool,
    /// text: a verdict per goal; json: the verdicts as JSON
    #[arg(long, value_enum, default_value = "text")]
    output: Output,
    /// The seed of the tie-break RNG
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Whether the workload controllers create (and, under a timeline, keep managing) pods
    #[arg(long, value_enum, default_value = "on")]
    controllers: OnOff,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Output {
    Text,
    Json,
}

struct FileReport {
    file: String,
    title: String,
    topic: String,
    pass: bool,
    exercises: Vec<ExerciseVerdict>,
}

pub(crate) fn main(a: Args) -> ExitCode {
    let opts = CheckOptions { seed: a.seed, controllers: a.controllers.on() };
    let mut reports = Vec::new();
    let mut failed = false;
    for file in &a.files {
        match check_file(file, a.solution, opts) {
            Ok(r) => {
                failed |= !r.pass;
                reports.push(r);
            }
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    match a.output {
        Output::Json => {
            let json: Vec<serde_json::Value> = reports
                .iter()
                .map(|r| serde_json::json!({"file": r.file, "title": r.title, "topic": r.topic, "pass": r.pass, "exercises": r.exercises}))
                .collect();
            outln!("{}", serde_json::to_string_pretty(&json).expect("serializable"));
        }
        Output::Text => {
            for r in &reports {
                outln!("{}: {} ({})", r.file, r.title, r.topic);
                for ex in &r.exercises {
                    outln!("  exercise {}: {}", ex.name, if ex.pass { "pass" } else { "FAIL" });
                    for g in &ex.goals {
                        outln!("    {} {}: {}", if g.pass { "pass" } else { "FAIL" }, g.goal, g.reason);
                    }
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn check_file(file: &str, solution: bool, opts: CheckOptions) -> Result<FileReport, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("error: {file}: {e}"))?;
    let none = || format!("error: {file}: no {} {} document (see docs/lessons.md)", lesson::API_VERSION, lesson::KIND);
    let (lesson, as_written) = lesson::check_text(&text, &text, file, opts).map_err(|e| e.to_string())?.ok_or_else(none)?;
    let mut exercises = as_written;
    if solution {
        for (i, ex) in lesson.exercises.iter().enumerate() {
            if ex.solution.is_none() {
                continue;
            }
            let solved = lesson::apply_solution(&text, &lesson, i).map_err(|e| format!("error: {file}: {e}"))?;
            let label = format!("{file} (solution of exercise {})", ex.name);
            let (_, verdicts) = lesson::check_text(&solved, &text, &label, opts).map_err(|e| e.to_string())?.ok_or_else(none)?;
            exercises[i] = verdicts.into_iter().nth(i).expect("the same lesson");
        }
    }
    Ok(FileReport {
        file: file.to_string(),
        title: lesson.title.clone(),
        topic: lesson.topic.clone(),
        pass: exercises.iter().all(|e| e.pass),
        exercises,
    })
}
