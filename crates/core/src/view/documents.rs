//! The YAML documents of a text as JSON values, for a front end that reads the scenario's own
//! objects (the playground's actions: a node to copy, a pod's owner, the timeline's steps)
//! without a YAML parser of its own (the page asks the worker, which calls this).

use serde_json::Value;

/// The documents of `text`, parsed, in order: a `…List`'s items take its place; documents that
/// do not parse are left out. Read by the loader's own YAML reader (the same scalar typing and
/// limits as a scenario's objects get).
pub fn documents(text: &str) -> Vec<Value> {
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
