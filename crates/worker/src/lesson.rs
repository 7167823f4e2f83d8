//! A lesson's exercise solved for the page: the engine applies the solution
//! (`schedlab_core::lesson::apply_solution`, which answers the documents as JSON) and this
//! writes the result back as the scenario's YAML, keeping each document the solution did not
//! change as it was written (its comments and layout), so that "Show solution" is a small,
//! readable edit.

use schedlab_core::lesson::apply_solution;
use schedlab_core::load::{documents, load_str};
use schedlab_view::yaml::to_yaml_in_order;
use serde_json::Value;

/// The text of `text` with its Lesson's exercise `exercise` solved, or why not; `NeedsCel` from
/// the light worker when the scenario holds CEL.
pub fn solve(text: &str, exercise: usize) -> Result<Result<String, String>, crate::NeedsCel> {
    match load_str(text, "scenario.yaml") {
        Err(e) if e.needs_cel() => Err(crate::NeedsCel),
        loaded => Ok(loaded.map_err(|e| format!("the scenario does not load: {e}")).and_then(|sc| solved(text, sc, exercise))),
    }
}

fn solved(text: &str, sc: schedlab_core::Scenario, exercise: usize) -> Result<String, String> {
    let lesson = sc.lesson.ok_or("the scenario holds no Lesson")?;
    let solved = documents(&apply_solution(text, &lesson, exercise)?);
    // The written documents: each `---`-separated piece holding one document (comment-only
    // pieces travel with the piece after them).
    let mut pieces: Vec<(Value, String)> = Vec::new();
    let mut carry = String::new();
    for piece in split_pieces(text) {
        let docs = documents(&piece);
        match docs.as_slice() {
            [] | [Value::Null] => carry.push_str(&piece),
            [d] => pieces.push((d.clone(), std::mem::take(&mut carry) + &piece)),
            // A list or several documents in one piece: written anew if the solution touches it.
            _ => carry.clear(),
        }
    }
    let mut out: Vec<String> = Vec::new();
    for d in &solved {
        match pieces.iter().position(|(w, _)| w == d) {
            Some(i) => out.push(pieces.remove(i).1),
            None => out.push(to_yaml_in_order(d)),
        }
    }
    Ok(out
        .iter()
        .map(|p| if p.ends_with('\n') { p.clone() } else { format!("{p}\n") })
        .collect::<Vec<_>>()
        .join("---\n"))
}

/// The text between `---` lines.
fn split_pieces(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") {
            out.push(String::new());
        } else if let Some(last) = out.last_mut() {
            last.push_str(line);
        }
    }
    out.retain(|p| !p.trim().is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = "# The cluster.\napiVersion: v1\nkind: Node\nmetadata: {name: n}  # one node\nstatus: {capacity: {cpu: '1', pods: '10'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]}\n---\napiVersion: schedlab.dev/v1\nkind: Lesson\ntitle: T\ntopic: Resource fit\nkubernetesVersion: \"1.34\"\nstory: s\nexercises:\n- name: fit\n  task: t\n  goals:\n  - runsOn: {pod: p, node: n}\n  solution:\n  - patch: {kind: Pod, name: p, merge: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]}}}\n- name: none\n  task: t\n  goals:\n  - runsOn: {pod: p, node: n}\n";

    #[test]
    fn a_solution_rewrites_only_the_documents_it_changes() {
        let out = solve(LESSON, 0).unwrap().unwrap();
        assert!(
            out.starts_with("# The cluster.\napiVersion: v1\nkind: Node\nmetadata: {name: n}  # one node\n"),
            "{out}"
        );
        assert!(out.contains("cpu: 500m"), "{out}");
        assert!(out.contains("kind: Lesson\ntitle: T\n"), "the Lesson as written: {out}");
        assert_eq!(
            documents(&out),
            documents(&apply_solution(LESSON, &load_str(LESSON, "x").unwrap().lesson.unwrap(), 0).unwrap())
        );
    }

    #[test]
    fn an_exercise_without_a_solution_says_so() {
        assert_eq!(solve(LESSON, 1).unwrap().unwrap_err(), "exercise none has no solution");
        assert_eq!(
            solve("apiVersion: v1\nkind: Node\nmetadata: {name: n}\n", 0).unwrap().unwrap_err(),
            "the scenario holds no Lesson"
        );
    }
}
