//! The edit-scope rule: an exercise's `editable` list says what the learner may change; the
//! documents that ran are compared with the lesson's starting documents, structurally (as
//! JSON values: key order, comments and layout do not count), outside the allowed paths.

use super::Scope;
use crate::load::lesson::{parse_path, Step};
use serde_json::Value;
use std::collections::BTreeMap;


/// The key of a document: `Kind/namespace/name` (`Kind` for the documents a scenario holds
/// once: the KubeSchedulerConfiguration, the Timeline).
fn key(d: &Value) -> Option<(String, String, String)> {
    let kind = d.get("kind")?.as_str()?.to_string();
    if kind == super::KIND {
        return None;
    }
    let meta = d.get("metadata");
    let name = meta.and_then(|m| m.get("name")).and_then(Value::as_str).unwrap_or("").to_string();
    let ns = meta.and_then(|m| m.get("namespace")).and_then(Value::as_str).unwrap_or("default").to_string();
    Some((kind, ns, name))
}

fn show((kind, ns, name): &(String, String, String)) -> String {
    match (name.is_empty(), ns == "default") {
        (true, _) => kind.clone(),
        (false, true) => format!("{kind}/{name}"),
        (false, false) => format!("{kind}/{ns}/{name}"),
    }
}

fn applies(s: &Scope, (kind, ns, name): &(String, String, String)) -> bool {
    s.kind == *kind && s.name.as_ref().is_none_or(|n| n == name) && s.namespace.as_ref().is_none_or(|n| n == ns)
}

/// Removes the value at `path` (when it is there).
fn remove(v: &mut Value, path: &[Step]) {
    let Some((last, up)) = path.split_last() else { return };
    let mut cur = v;
    for s in up {
        let next = match (s, cur) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k),
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => return,
        }
    }
    match (last, cur) {
        (Step::Key(k), Value::Object(m)) => {
            m.remove(k);
        }
        (Step::Index(i), Value::Array(a)) => {
            if let Some(x) = a.get_mut(*i) {
                *x = Value::Null;
            }
        }
        _ => {}
    }
}

/// The first path at which two values differ (`None` when equal).
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = crate::sort::set_of(x.keys().chain(y.keys()));
            keys.into_iter().find_map(|k| {
                let p = if at.is_empty() { k.clone() } else { format!("{at}.{k}") };
                match (x.get(k), y.get(k)) {
                    (Some(a), Some(b)) => first_difference(a, b, p),
                    _ => Some(p),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (a, b))| first_difference(a, b, format!("{at}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(if at.is_empty() { "the whole document".into() } else { at }),
    }
}

/// What was edited outside the scopes, in words (`Pod/web changed at spec.nodeSelector`), or
/// `None` when every edit is allowed.
pub(super) fn outside(scopes: &[Scope], start: &[Value], current: &[Value]) -> Option<String> {
    let index = |docs: &[Value]| -> BTreeMap<(String, String, String), Value> { crate::sort::map_of(docs.iter().filter_map(|d| key(d).map(|k| (k, d.clone())))) };
    let (a, b) = (index(start), index(current));
    let keys: std::collections::BTreeSet<&(String, String, String)> = crate::sort::set_of(a.keys().chain(b.keys()));
    for k in keys {
        let (x, y) = (a.get(k), b.get(k));
        if x == y {
            continue;
        }
        let mine: Vec<&Scope> = scopes.iter().filter(|s| applies(s, k)).collect();
        if mine.iter().any(|s| s.path.is_none()) {
            continue;
        }
        match (x, y) {
            (Some(x), Some(y)) => {
                let (mut x, mut y) = (x.clone(), y.clone());
                for s in &mine {
                    if let Some(Ok(p)) = s.path.as_deref().map(parse_path) {
                        remove(&mut x, &p);
                        remove(&mut y, &p);
                    }
                }
                if let Some(at) = first_difference(&x, &y, String::new()) {
                    return Some(format!("{} changed at {at}", show(k)));
                }
            }
            (None, Some(_)) => return Some(format!("{} was added", show(k))),
            (Some(_), None) => return Some(format!("{} was removed", show(k))),
            (None, None) => {}
        }
    }
    None
}

/// The scopes in words: `the KubeSchedulerConfiguration; Pod/web at spec.affinity`.
pub(super) fn describe(scopes: &[Scope]) -> String {
    if scopes.is_empty() {
        return "nothing".into();
    }
    let parts: Vec<String> = scopes
        .iter()
        .map(|s| {
            let obj = match (&s.name, &s.namespace) {
                (Some(n), Some(ns)) => format!("{}/{ns}/{n}", s.kind),
                (Some(n), None) => format!("{}/{n}", s.kind),
                (None, _) => format!("any {}", s.kind),
            };
            match &s.path {
                Some(p) => format!("{obj} at {p}"),
                None => obj,
            }
        })
        .collect();
    parts.join("; ")
}
