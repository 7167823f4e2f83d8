//! Applying an exercise's solution to a scenario's text: each step replaces, patches (RFC 7386
//! merge patch) or deletes a document named by kind, namespace and name. The result is the
//! scenario's documents as JSON (which YAML reads), the Lesson document among them.

use super::{Lesson, SolutionStep};
use serde_json::Value;

fn same(d: &Value, kind: &str, name: Option<&str>, ns: Option<&str>) -> bool {
    let meta = d.get("metadata");
    d.get("kind").and_then(Value::as_str) == Some(kind)
        && name.is_none_or(|n| meta.and_then(|m| m.get("name")).and_then(Value::as_str) == Some(n))
        && ns.unwrap_or("default") == meta.and_then(|m| m.get("namespace")).and_then(Value::as_str).unwrap_or("default")
}

/// The text of the scenario `text` with exercise `exercise`'s solution applied; an error names
/// a step whose document is not there, or an exercise without a solution.
pub fn apply_solution(text: &str, lesson: &Lesson, exercise: usize) -> Result<String, String> {
    let ex = lesson.exercises.get(exercise).ok_or_else(|| format!("the lesson has no exercise {exercise}"))?;
    let steps = ex.solution.as_ref().ok_or_else(|| format!("exercise {} has no solution", ex.name))?;
    let mut docs = crate::load::documents(text);
    for (i, s) in steps.iter().enumerate() {
        match s {
            SolutionStep::Replace(d) => {
                let kind = d.get("kind").and_then(Value::as_str).unwrap_or("");
                let meta = d.get("metadata");
                let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str);
                let ns = meta.and_then(|m| m.get("namespace")).and_then(Value::as_str);
                match docs.iter_mut().find(|x| same(x, kind, Some(name.unwrap_or("")), ns) || name.is_none() && same(x, kind, None, ns)) {
                    Some(x) => *x = d.clone(),
                    None => docs.push(d.clone()),
                }
            }
            SolutionStep::Patch(p) => {
                let x = docs
                    .iter_mut()
                    .find(|x| same(x, &p.kind, p.name.as_deref(), p.namespace.as_deref()))
                    .ok_or_else(|| format!("solution step {i} of exercise {}: no {} {} to patch", ex.name, p.kind, p.name.as_deref().unwrap_or("")))?;
                crate::timeline::patch::merge_patch(x, &p.merge);
            }
            SolutionStep::Delete(t) => {
                let n = docs.len();
                docs.retain(|x| !same(x, &t.kind, t.name.as_deref(), t.namespace.as_deref()));
                if docs.len() == n {
                    return Err(format!("solution step {i} of exercise {}: no {} {} to delete", ex.name, t.kind, t.name.as_deref().unwrap_or("")));
                }
            }
        }
    }
    let texts: Vec<String> = docs.iter().map(|d| serde_json::to_string(d).expect("JSON")).collect();
    Ok(texts.join("\n---\n") + "\n")
}
