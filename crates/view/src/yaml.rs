//! The one YAML writer of the workspace: a JSON value printed as go-yaml v2 prints it (the way
//! kube-scheduler's YAML serializer does: JSON marshalled, then re-emitted by go-yaml). Block
//! style, block sequences not indented inside mappings, `{}`/`[]` for empty collections,
//! multi-line strings as literal blocks, and go-yaml's choice between plain, single-quoted and
//! double-quoted strings (YAML 1.1: a string that would read back as a bool, null or number —
//! `yes`, `off`, `~`, `1.5`, `0x1F`, `1:20` — is double-quoted; one that cannot be plain —
//! a leading indicator, `: `, ` #`, surrounding spaces — single-quoted). The configuration's
//! printing, the import and the page's actions write with it, so they quote alike.

use serde_json::Value;

/// Renders `v` as a YAML document (ending with a newline), mapping keys sorted as go-yaml
/// sorts a Go map's (what kube-scheduler prints).
pub fn to_yaml(v: &Value) -> String {
    write_doc(v, true)
}

/// Renders `v` as a YAML document (ending with a newline), mapping keys in their order (an
/// object as written, a step as the page builds it).
pub fn to_yaml_in_order(v: &Value) -> String {
    write_doc(v, false)
}

fn write_doc(v: &Value, sort: bool) -> String {
    let w = Writer { sort };
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => w.write_map(m, 0, &mut out),
        Value::Array(a) if !a.is_empty() => w.write_seq(a, 0, &mut out),
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
    out
}

struct Writer {
    /// Whether mapping keys are sorted (else kept in the object's order).
    sort: bool,
}

fn pad(n: usize, out: &mut String) {
    for _ in 0..n {
        out.push(' ');
    }
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::String(s) => s.contains('\n'),
        _ => false,
    }
}

impl Writer {
    fn write_map(&self, m: &serde_json::Map<String, Value>, indent: usize, out: &mut String) {
        let mut keys: Vec<&String> = m.keys().collect();
        if self.sort {
            // Through a set filled by insertion (the keys are distinct): `sort()` would compile a
            // whole driftsort for this one element type into the engine's and the page's wasm.
            let mut sorted = std::collections::BTreeSet::new();
            sorted.extend(keys);
            keys = sorted.into_iter().collect();
        }
        for (i, k) in keys.into_iter().enumerate() {
            if i > 0 {
                pad(indent, out);
            }
            out.push_str(&string_scalar(k));
            out.push(':');
            self.write_value(&m[k], indent, true, out);
        }
    }

    /// Writes a value after `key:` (in a mapping) or after `- ` (in a sequence, `in_map` false).
    fn write_value(&self, v: &Value, indent: usize, in_map: bool, out: &mut String) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                if in_map {
                    out.push('\n');
                    pad(indent + 2, out);
                }
                self.write_map(m, indent + 2, out);
            }
            Value::Array(a) if !a.is_empty() => {
                if in_map {
                    out.push('\n');
                    pad(indent, out);
                    self.write_seq(a, indent, out);
                } else {
                    self.write_seq(a, indent + 2, out);
                }
            }
            Value::String(s) if s.contains('\n') => {
                if in_map {
                    out.push(' ');
                }
                literal(s, indent + 2, out);
            }
            other => {
                if in_map {
                    out.push(' ');
                }
                out.push_str(&scalar(other));
                out.push('\n');
            }
        }
    }

    fn write_seq(&self, a: &[Value], indent: usize, out: &mut String) {
        for (i, x) in a.iter().enumerate() {
            if i > 0 {
                pad(indent, out);
            }
            out.push_str("- ");
            if is_block(x) || !matches!(x, Value::Object(_) | Value::Array(_)) {
                self.write_value(x, indent, false, out);
            } else {
                out.push_str(&scalar(x));
                out.push('\n');
            }
        }
    }
}

fn literal(s: &str, indent: usize, out: &mut String) {
    out.push('|');
    if !s.ends_with('\n') {
        out.push('-');
    } else if s.ends_with("\n\n") {
        out.push('+');
    }
    out.push('\n');
    let body = s.strip_suffix('\n').unwrap_or(s);
    for line in body.split('\n') {
        if !line.is_empty() {
            pad(indent, out);
            out.push_str(line);
        }
        out.push('\n');
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if let Some(f) = n.as_f64().filter(|_| n.is_f64()) {
                if f.fract() == 0.0 && f.abs() < 1e21 {
                    format!("{}", f as i128)
                } else {
                    format!("{f}")
                }
            } else {
                n.to_string()
            }
        }
        Value::String(s) => string_scalar(s),
        Value::Object(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
    }
}

/// Whether go-yaml v2 would read `s` back as something other than a string.
fn resolves_to_non_string(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    const SPECIAL: &[&str] = &[
        "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False",
        "FALSE", "on", "On", "ON", "off", "Off", "OFF", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
        ".nan", ".NaN", ".NAN", "<<",
    ];
    if SPECIAL.contains(&s) {
        return true;
    }
    let first = s.as_bytes()[0];
    if !(first.is_ascii_digit() || first == b'-' || first == b'+' || first == b'.') {
        return false;
    }
    let plain = s.replace('_', "");
    if plain.parse::<i64>().is_ok() || plain.parse::<f64>().is_ok() {
        return true;
    }
    let body = plain.trim_start_matches(['-', '+']);
    if let Some(h) = body.strip_prefix("0x") {
        return !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit());
    }
    if let Some(b) = body.strip_prefix("0b") {
        return !b.is_empty() && b.chars().all(|c| c == '0' || c == '1');
    }
    // Sexagesimal numbers (go-yaml v2 resolves "1:20" as an int).
    if body.contains(':') {
        let parts: Vec<&str> = body.split(':').collect();
        return parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '.'));
    }
    false
}

/// Whether the YAML emitter may print `s` as a plain scalar.
fn plain_allowed(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() {
        return false;
    }
    let first = b[0];
    if matches!(
        first,
        b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`'
    ) {
        return false;
    }
    if matches!(first, b'?' | b':' | b'-') && (b.len() == 1 || b[1] == b' ') {
        return false;
    }
    if s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    if first == b' ' || *b.last().unwrap() == b' ' || s.ends_with(':') {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.contains('\t') {
        return false;
    }
    !s.chars().any(|c| c.is_control())
}

/// A string as a YAML scalar: plain when go-yaml would print it plain, else quoted.
pub fn string_scalar(s: &str) -> String {
    if resolves_to_non_string(s) {
        return double_quoted(s);
    }
    if plain_allowed(s) {
        return s.to_string();
    }
    if s.chars().any(|c| c.is_control()) {
        return double_quoted(s);
    }
    format!("'{}'", s.replace('\'', "''"))
}

fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn layout() {
        let v = json!({
            "kind": "X",
            "b": {},
            "a": [{"name": "p", "weight": 0}, {"name": "q", "weight": 3}],
            "c": {"z": "", "v": "10", "x": "*", "w": "a b", "list": ["one"], "e": [], "y": 1},
            "m": 50.0,
            "f": 2.5,
        });
        let want = "\
a:
- name: p
  weight: 0
- name: q
  weight: 3
b: {}
c:
  e: []
  list:
  - one
  v: \"10\"
  w: a b
  x: '*'
  \"y\": 1
  z: \"\"
f: 2.5
kind: X
m: 50
";
        assert_eq!(to_yaml(&v), want);
    }

    #[test]
    fn in_order_keeps_the_keys_order() {
        let v: Value = serde_json::from_str(r#"{"kind": "Pod", "apiVersion": "v1", "spec": {"b": [], "a": ["yes"]}}"#).unwrap();
        assert_eq!(
            to_yaml_in_order(&v),
            "kind: Pod\napiVersion: v1\nspec:\n  b: []\n  a:\n  - \"yes\"\n"
        );
        assert_eq!(to_yaml(&v), "apiVersion: v1\nkind: Pod\nspec:\n  a:\n  - \"yes\"\n  b: []\n");
    }

    #[test]
    fn nested_sequences_in_sequences() {
        let v = json!({"p": [{"args": {"r": [{"k": "cpu"}]}, "name": "F"}]});
        let want = "\
p:
- args:
    r:
    - k: cpu
  name: F
";
        assert_eq!(to_yaml(&v), want);
    }

    #[test]
    fn quoting() {
        let cases = [
            ("true", "\"true\""),
            ("yes", "\"yes\""),
            ("1.5", "\"1.5\""),
            ("0x1F", "\"0x1F\""),
            ("kubernetes.io/hostname", "kubernetes.io/hostname"),
            ("- x", "'- x'"),
            ("a: b", "'a: b'"),
            ("it's", "it's"),
            ("#c", "'#c'"),
            ("10s", "10s"),
            // YAML 1.1's other words and numbers read back as something else: double-quoted.
            ("no", "\"no\""),
            ("N", "\"N\""),
            ("On", "\"On\""),
            ("off", "\"off\""),
            ("y", "\"y\""),
            ("NULL", "\"NULL\""),
            ("~", "\"~\""),
            ("", "\"\""),
            ("-12", "\"-12\""),
            ("1_000", "\"1_000\""),
            ("0b101", "\"0b101\""),
            ("1:30", "\"1:30\""),
            (".inf", "\".inf\""),
            ("1e3", "\"1e3\""),
            // Strings that cannot be plain: single-quoted, a quote doubled.
            ("a #b", "'a #b'"),
            ("x:", "'x:'"),
            (" lead", "' lead'"),
            ("trail ", "'trail '"),
            ("@at", "'@at'"),
            ("{x}", "'{x}'"),
            ("it's: x", "'it''s: x'"),
            ("---", "'---'"),
            // Plain: an inner quote or colon, a leading dash before a letter.
            ("-conf", "-conf"),
            ("say \"hi\"", "say \"hi\""),
            ("a:b", "a:b"),
            // Control characters: double-quoted with escapes.
            ("a\u{7}b", "\"a\\x07b\""),
        ];
        for (s, want) in cases {
            assert_eq!(string_scalar(s), want, "{s}");
        }
    }
}
