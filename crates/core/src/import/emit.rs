//! Writing the scenario's YAML. Block style as kubectl prints it; a string is written plain
//! only when the loader's YAML 1.1 typing reads it back as that same string (`"yes"`, `"0755"`,
//! `"1.0"` and `""` are quoted), otherwise as a JSON string (valid YAML double-quoted).

use crate::load::yaml::{resolve_plain, Val};
use serde_json::{Map, Value};

/// One object as a YAML document body (no `---`).
pub(super) fn document(obj: &Map<String, Value>) -> String {
    let mut out = String::new();
    if obj.is_empty() {
        out.push_str("{}\n");
    } else {
        mapping(obj, 0, &mut out);
    }
    out
}

fn plain_ok(s: &str) -> bool {
    let Some(first) = s.chars().next() else { return false };
    if !(first.is_alphanumeric() || first == '/' || first == '.' || first == '(') {
        return false;
    }
    if s.ends_with([' ', ':']) || s.contains(": ") || s.contains(" #") {
        return false;
    }
    if !s.chars().all(|c| c.is_alphanumeric() || " -._/=+@:,()<>%*!?&~^$;|".contains(c)) {
        return false;
    }
    matches!(resolve_plain(s), Val::Str(_))
}

fn string(s: &str, out: &mut String) {
    if plain_ok(s) {
        out.push_str(s);
    } else {
        out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
    }
}

/// A scalar or an empty collection, written inline; `None` for a non-empty collection.
fn inline(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let mut o = String::new();
            string(s, &mut o);
            o
        }
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(m) if m.is_empty() => "{}".into(),
        _ => return None,
    })
}

fn pad(n: usize, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Mapping entries at `indent`; the first key's indentation is already written when
/// `first_done` (an item of a sequence).
fn entries(m: &Map<String, Value>, indent: usize, first_done: bool, out: &mut String) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 || !first_done {
            pad(indent, out);
        }
        string(k, out);
        out.push(':');
        match inline(v) {
            Some(s) => {
                out.push(' ');
                out.push_str(&s);
                out.push('\n');
            }
            None => {
                out.push('\n');
                match v {
                    Value::Object(inner) => mapping(inner, indent + 2, out),
                    Value::Array(items) => sequence(items, indent, out),
                    _ => unreachable!("scalars are inline"),
                }
            }
        }
    }
}

fn mapping(m: &Map<String, Value>, indent: usize, out: &mut String) {
    entries(m, indent, false, out);
}

/// Items at `indent` (`- ` then the item).
fn sequence(items: &[Value], indent: usize, out: &mut String) {
    for v in items {
        pad(indent, out);
        out.push_str("- ");
        match inline(v) {
            Some(s) => {
                out.push_str(&s);
                out.push('\n');
            }
            None => match v {
                Value::Object(m) => entries(m, indent + 2, true, out),
                Value::Array(inner) => {
                    out.push('\n');
                    sequence(inner, indent + 2, out);
                }
                _ => unreachable!("scalars are inline"),
            },
        }
    }
}
