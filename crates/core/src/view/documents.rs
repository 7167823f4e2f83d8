//! The YAML documents of a text as JSON values, for a front end that reads the scenario's own
//! objects (the playground's actions: a node to copy, a pod's owner, the timeline's steps)
//! without a YAML parser of its own (the page asks the worker, which calls this).

use serde_json::Value;

/// The documents of `text`, parsed, in order: a `…List`'s items take its place; documents that
/// do not parse are left out. Documents are split at lines starting with `---`.
pub fn documents(text: &str) -> Vec<Value> {
    let mut docs = Vec::new();
    let mut cur = String::new();
    let mut flush = |cur: &mut String| {
        if let Ok(v) = serde_yaml::from_str::<Value>(cur) {
            match v.get("items").and_then(Value::as_array) {
                Some(items) if v["kind"].as_str().is_some_and(|k| k.ends_with("List")) => docs.extend(items.iter().cloned()),
                _ => docs.push(v),
            }
        }
        cur.clear();
    };
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") {
            flush(&mut cur);
        } else {
            cur.push_str(line);
        }
    }
    flush(&mut cur);
    docs
}
