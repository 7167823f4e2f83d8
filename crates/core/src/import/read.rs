//! Reading what kubectl and cluster tools write into raw objects with their positions: YAML
//! streams (`---`), JSON objects or arrays back to back, `kind: List` and typed lists, and
//! `kubectl cluster-info dump` output (JSON lists with container logs between them).

use super::{Issue, Where};
use crate::load::yaml::{read_documents, YNode};
use serde_json::{Map, Value};

/// One object read from the input, before any judgement on its kind.
pub(super) struct Raw {
    pub value: Value,
    pub at: Where,
    /// apiVersion and kind given by the typed list it was an item of (`PodList` → `Pod`).
    pub list_kind: Option<(String, String)>,
}

/// What reading found besides objects.
#[derive(Default)]
pub(super) struct Read {
    pub objects: Vec<Raw>,
    pub errors: Vec<Issue>,
    /// Container log sections of `kubectl cluster-info dump` left out.
    pub log_sections: usize,
    /// Other lines of text between the documents (such as "Cluster info dumped to ...").
    pub text_lines: usize,
}

const LOG_START: &str = "==== START logs for container ";
const LOG_END: &str = "==== END logs for container ";

/// Blanks the container log sections and the closing line of `kubectl cluster-info dump`
/// (line numbers stay), counting what was left out.
fn blank_dump_text(text: &str, read: &mut Read) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_logs = false;
    for line in text.split_inclusive('\n') {
        let blank = if in_logs {
            if line.starts_with(LOG_END) {
                in_logs = false;
            }
            true
        } else if line.starts_with(LOG_START) {
            read.log_sections += 1;
            in_logs = true;
            true
        } else if line.starts_with("Cluster info dumped to ") {
            read.text_lines += 1;
            true
        } else {
            false
        };
        if blank {
            if line.ends_with('\n') {
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Reads one input. `file` names it in positions.
pub(super) fn read(text: &str, file: &str) -> Read {
    let mut read = Read::default();
    let cleaned;
    let text = if text.contains(LOG_START) || text.contains("Cluster info dumped to ") {
        cleaned = blank_dump_text(text, &mut read);
        cleaned.as_str()
    } else {
        text
    };
    let first = text
        .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .chars()
        .next();
    if matches!(first, Some('{') | Some('[')) {
        json_stream(text, file, &mut read);
    } else {
        yaml_stream(text, file, &mut read);
    }
    read
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// JSON values back to back (with or without whitespace, commas never), as `kubectl get -o
/// json` for several resources or `kubectl cluster-info dump` print them. Text between values
/// is skipped line by line; a value that does not parse is reported and reading goes on at
/// the next line that starts with `{` or `[`.
fn json_stream(text: &str, file: &str, read: &mut Read) {
    let mut pos = 0;
    while pos < text.len() {
        let rest = &text[pos..];
        let skip = rest.len() - rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}').len();
        pos += skip;
        if pos >= text.len() {
            break;
        }
        let rest = &text[pos..];
        if !(rest.starts_with('{') || rest.starts_with('[')) {
            // A line of other text.
            read.text_lines += 1;
            pos += rest.find('\n').map_or(rest.len(), |i| i + 1);
            continue;
        }
        let line = line_of(text, pos);
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        match stream.next() {
            Some(Ok(v)) => {
                let end = stream.byte_offset();
                let lines = json_item_lines(&rest[..end], line);
                pos += end;
                let at = Where {
                    file: file.to_string(),
                    line,
                    item: None,
                };
                expand_with_lines(v, at, None, &lines, read);
            }
            Some(Err(e)) => {
                read.errors.push(Issue {
                    at: Some(Where {
                        file: file.to_string(),
                        line: line + e.line().saturating_sub(1),
                        item: None,
                    }),
                    object: None,
                    message: format!("not valid JSON: {e}"),
                });
                // Go on at the next line that opens a value.
                let mut next = rest.len();
                let mut off = 0;
                for l in rest.split_inclusive('\n') {
                    if off > 0 && (l.starts_with('{') || l.starts_with('[')) {
                        next = off;
                        break;
                    }
                    off += l.len();
                }
                pos += next;
            }
            None => break,
        }
    }
}

/// The line of each item of a JSON value that is an array, or an object with an `items`
/// array (a list): a scan that follows strings and nesting. `first_line` is the value's line.
fn json_item_lines(text: &str, first_line: usize) -> Vec<usize> {
    let top_array = text.starts_with('[');
    let mut lines = Vec::new();
    let (mut depth, mut line) = (0usize, first_line);
    let (mut in_str, mut esc) = (false, false);
    let mut str_start = 0;
    let mut last_string = "";
    let mut target = if top_array { Some(1) } else { None };
    let mut expect = false;
    for (i, c) in text.char_indices() {
        if c == '\n' {
            line += 1;
        }
        if in_str {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
                if depth == 1 {
                    last_string = &text[str_start..i];
                }
            }
            continue;
        }
        match c {
            '"' => {
                if expect {
                    lines.push(line);
                    expect = false;
                }
                in_str = true;
                str_start = i + 1;
            }
            '{' | '[' => {
                if expect {
                    lines.push(line);
                    expect = false;
                }
                depth += 1;
                if c == '[' && depth == 2 && !top_array && last_string == "items" {
                    target = Some(2);
                }
                if c == '[' && target == Some(depth) {
                    expect = true;
                }
            }
            '}' | ']' => {
                if c == ']' && target == Some(depth) {
                    expect = false;
                    if !top_array {
                        target = None;
                        last_string = "";
                    }
                }
                depth = depth.saturating_sub(1);
            }
            ',' if target == Some(depth) => expect = true,
            c if c.is_whitespace() || c == ':' || c == ',' => {}
            _ => {
                if expect {
                    lines.push(line);
                    expect = false;
                }
            }
        }
    }
    lines
}

/// A YAML stream: documents separated by `---` (a syntax error loses only its document).
fn yaml_stream(text: &str, file: &str, read: &mut Read) {
    let (docs, errors) = read_documents(text);
    for e in errors {
        read.errors.push(Issue {
            at: Some(Where {
                file: file.to_string(),
                line: e.pos.line,
                item: None,
            }),
            object: None,
            message: format!("not valid YAML: {}", e.message),
        });
    }
    for d in &docs {
        let at = Where {
            file: file.to_string(),
            line: d.pos.line,
            item: None,
        };
        // Lists are expanded here so that each item keeps its own line.
        let item_lines = item_lines(d);
        expand_with_lines(d.to_json(), at, None, &item_lines, read);
    }
}

/// The lines of a list document's items (a `kind: *List` mapping's `items`, or a sequence).
fn item_lines(d: &YNode) -> Vec<usize> {
    use crate::load::yaml::Val;
    let seq = match &d.val {
        Val::Seq(items) => Some(items),
        Val::Map(_) => match d.get("items").map(|i| &i.val) {
            Some(Val::Seq(items)) => Some(items),
            _ => None,
        },
        _ => None,
    };
    seq.map(|items| items.iter().map(|n| n.pos.line).collect()).unwrap_or_default()
}

/// The kind of the items of a typed list (`PodList` in `v1` → `v1`, `Pod`).
fn typed_list_item(m: &Map<String, Value>) -> Option<(String, String)> {
    let kind = m.get("kind")?.as_str()?;
    let item = kind.strip_suffix("List").filter(|k| !k.is_empty())?;
    let api = m.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    Some((api.to_string(), item.to_string()))
}

/// Turns a read value into objects: arrays and lists give their items (each with its item
/// number), anything else is one object.
fn expand_with_lines(v: Value, at: Where, list_kind: Option<(String, String)>, lines: &[usize], read: &mut Read) {
    let items_at = |i: usize| Where {
        file: at.file.clone(),
        line: lines.get(i).copied().unwrap_or(at.line),
        item: Some(i),
    };
    match v {
        Value::Array(items) => {
            for (i, item) in items.into_iter().enumerate() {
                let w = items_at(i);
                // An array's items are objects (or lists) of their own.
                match item {
                    Value::Object(ref m) if is_list(m) => expand_with_lines(item, w, None, &[], read),
                    other => read.objects.push(Raw {
                        value: other,
                        at: w,
                        list_kind: list_kind.clone(),
                    }),
                }
            }
        }
        Value::Object(mut m) if is_list(&m) => {
            let item_kind = typed_list_item(&m).filter(|(_, k)| !k.is_empty());
            match m.remove("items") {
                Some(Value::Array(items)) => {
                    for (i, item) in items.into_iter().enumerate() {
                        read.objects.push(Raw {
                            value: item,
                            at: items_at(i),
                            list_kind: item_kind.clone(),
                        });
                    }
                }
                None | Some(Value::Null) => {}
                Some(_) => read.errors.push(Issue {
                    at: Some(at),
                    object: None,
                    message: "a list whose items are not an array".into(),
                }),
            }
        }
        other => read.objects.push(Raw {
            value: other,
            at,
            list_kind,
        }),
    }
}

/// A `kind: List` or a typed list (`PodList`, `EventList`...) with `items`, or an object
/// without a kind whose `items` is an array (a list saved without its kind, as
/// insights-operator writes some): its items are objects of their own.
fn is_list(m: &Map<String, Value>) -> bool {
    let kind = m.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind.is_empty() {
        return matches!(m.get("items"), Some(Value::Array(_)));
    }
    kind.ends_with("List") && (m.contains_key("items") || kind == "List")
}
