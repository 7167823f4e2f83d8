//! The lesson gallery (`assets/lessons/`): `schedlab check --solution` passes every goal of every
//! lesson, and `schedlab check` on the lessons as written fails at least one goal of each
//! exercise (a learner starts from a failing state). Also: a goal that fails makes the command
//! exit 1 and says why, and `--output json` carries each goal's verdict and reason.

use std::path::PathBuf;
use std::process::Command;

fn schedlab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("runs")
}

fn gallery() -> Vec<String> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/lessons"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("assets/lessons")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn the_gallery_has_at_least_fifteen_lessons() {
    assert!(gallery().len() >= 15, "{:?}", gallery());
}

#[test]
fn every_solution_passes() {
    let files = gallery();
    let mut args = vec!["check", "--solution", "--output", "json"];
    args.extend(files.iter().map(String::as_str));
    let out = schedlab(&args);
    let report = json(&out);
    let mut failing = Vec::new();
    for file in report.as_array().expect("one report per file") {
        for ex in file["exercises"].as_array().expect("exercises") {
            for g in ex["goals"].as_array().expect("goals") {
                if g["pass"] != true {
                    failing.push(format!("{} {}: {} — {}", file["file"], ex["name"], g["goal"], g["reason"]));
                }
            }
        }
    }
    assert!(failing.is_empty(), "{}", failing.join("\n"));
    assert_eq!(report.as_array().map(Vec::len), Some(files.len()), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn every_exercise_starts_failing() {
    let files = gallery();
    let mut args = vec!["check", "--output", "json"];
    args.extend(files.iter().map(String::as_str));
    let out = schedlab(&args);
    assert_eq!(out.status.code(), Some(1), "a failing goal exits 1");
    let report = json(&out);
    assert_eq!(report.as_array().map(Vec::len), Some(files.len()), "{}", String::from_utf8_lossy(&out.stderr));
    let mut passing = Vec::new();
    for file in report.as_array().expect("reports") {
        for ex in file["exercises"].as_array().expect("exercises") {
            if ex["pass"] != false || ex["goals"].as_array().expect("goals").iter().all(|g| g["pass"] == true) {
                passing.push(format!("{} {}", file["file"], ex["name"]));
            }
            for g in ex["goals"].as_array().expect("goals") {
                assert!(g["reason"].as_str().is_some_and(|r| !r.is_empty()), "a reason for {g}");
            }
        }
    }
    assert!(passing.is_empty(), "exercises that pass before any edit: {passing:?}");
}

#[test]
fn text_output_names_each_verdict_and_reason() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/lessons/resource-fit.yaml");
    let out = schedlab(&["check", file]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.contains("exercise read-the-message: FAIL"), "{text}");
    assert!(text.contains("FAIL pod report runs on node node-b: pod report is Pending: 0/2 nodes are available: 2 Insufficient cpu."), "{text}");
    let out = schedlab(&["check", "--solution", file]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.contains("pass pod report runs on node node-b: pod report runs on node-b"), "{text}");
}

#[test]
fn a_file_without_a_lesson_or_with_a_broken_one_fails() {
    let preset = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/presets/queue.yaml");
    let out = schedlab(&["check", preset]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no schedlab.dev/v1 Lesson document"));
    let dir = std::env::temp_dir().join(format!("schedlab-lessons-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "apiVersion: schedlab.dev/v1\nkind: Lesson\ntitle: t\ntopic: x\nkubernetesVersion: \"1.34\"\nexercises:\n- name: e\n  task: t\n  goals:\n  - runsOn: {pod: a, nodes: b}\n").unwrap();
    let out = schedlab(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("bad.yaml:10:22: Lesson in version \"v1\" cannot be handled as a Lesson: strict decoding error: unknown field \"exercises[0].goals[0].runsOn.nodes\""), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// docs/lessons.md's complete example: as written, its exercise fails with the reasons the page
/// shows; with its solution, it passes.
#[test]
fn the_documented_example_works_as_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/lessons.md")).expect("docs/lessons.md");
    let after = doc.split("## A complete example").nth(1).expect("the example's section");
    let example = after.split("```yaml\n").nth(1).and_then(|s| s.split("```").next()).expect("a yaml block");
    let dir = std::env::temp_dir().join(format!("schedlab-lesson-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("example.yaml");
    std::fs::write(&file, example).unwrap();
    let out = schedlab(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    for line in after.lines().filter(|l| l.starts_with("        FAIL ") || l.starts_with("        pass ")) {
        let shown = line.trim().trim_end_matches('…');
        assert!(text.contains(shown), "the docs show {shown:?}; check printed {text}");
    }
    assert!(schedlab(&["check", "--solution", file.to_str().unwrap()]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--controllers off`: the DaemonSet lesson's pods are the controller's, so without it no
/// log-agent runs anywhere, solution or not.
#[test]
fn controllers_off_is_honoured() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/lessons/daemonset-taints.yaml");
    let out = schedlab(&["check", "--solution", "--controllers", "off", file]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.contains("FAIL at least 3 nodes used by pods app=log-agent: 0 nodes used: none"), "{text}");
    assert!(schedlab(&["check", "--solution", "--controllers", "on", file]).status.success());
}
