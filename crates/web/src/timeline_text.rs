//! The Timeline document's `steps:` list as text: where its items are and where new ones go,
//! without touching the rest of the user's text (the page has no YAML parser). The actions
//! (`crate::actions`) and the scenario's parts (`crate::scenario`) both write steps with it.

/// The header of a Timeline document made for the first action.
pub const TIMELINE_HEADER: &str = "apiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps:\n";

/// One item of the Timeline's `steps:` list as the text has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepLine {
    /// The item's first line (`- …`), 0-based.
    pub line: usize,
    /// One past its last line that is not blank or a comment.
    pub end: usize,
    /// The indentation of its `-`.
    pub indent: usize,
    /// Its `at`, in nanoseconds, when it reads as a Go duration.
    pub at_ns: Option<i64>,
}

fn indent_of(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

fn is_filler(l: &str) -> bool {
    let t = l.trim();
    t.is_empty() || t.starts_with('#')
}

/// A scalar's text without its comment and quotes.
fn scalar(v: &str) -> &str {
    let v = match v.find(" #") {
        Some(i) => &v[..i],
        None => v,
    };
    v.trim().trim_matches(|c| c == '"' || c == '\'')
}

/// Where the `steps:` key is: its line and what follows the colon on it.
fn steps_key(lines: &[&str]) -> Option<(usize, String)> {
    lines
        .iter()
        .enumerate()
        .find_map(|(i, l)| l.strip_prefix("steps:").map(|rest| (i, scalar(rest).to_string())))
}

/// The items of the Timeline's `steps:` list (block style; none for a flow-style list).
pub fn step_lines(timeline: &str) -> Vec<StepLine> {
    let lines: Vec<&str> = timeline.lines().collect();
    let Some((key, rest)) = steps_key(&lines) else { return Vec::new() };
    if !rest.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<StepLine> = Vec::new();
    let mut item_indent = None;
    for (i, l) in lines.iter().enumerate().skip(key + 1) {
        if is_filler(l) {
            continue;
        }
        if l.starts_with("---") || l.starts_with("...") {
            break;
        }
        let ind = indent_of(l);
        let t = l.trim_start();
        let ii = *item_indent.get_or_insert(ind);
        let dash = t == "-" || t.starts_with("- ");
        if ind < ii || (ind == ii && !dash) {
            break;
        }
        if ind == ii {
            let first = t.trim_start_matches('-').trim_start();
            out.push(StepLine {
                line: i,
                end: i + 1,
                indent: ii,
                at_ns: first
                    .strip_prefix("at:")
                    .and_then(|v| schedlab_view::duration::parse_go_duration(scalar(v)).ok()),
            });
            continue;
        }
        if let Some(cur) = out.last_mut() {
            cur.end = i + 1;
            if cur.at_ns.is_none() && ind == ii + 2 {
                if let Some(v) = t.strip_prefix("at:") {
                    cur.at_ns = schedlab_view::duration::parse_go_duration(scalar(v)).ok();
                }
            }
        }
    }
    out
}

/// Puts `items` (steps at time `at_ns`, as `- at: …` lines starting at column 0) into the
/// Timeline document `timeline`: after every step at or before that time, before the first
/// later one (so `at` never decreases, and steps at the same instant keep their order, the new
/// ones last). Makes the document when there is none. The rest of the text is kept as is.
pub fn insert_steps(timeline: &str, at_ns: i64, items: &str) -> Result<String, String> {
    if timeline.lines().all(is_filler) {
        let mut out = timeline.to_string();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(TIMELINE_HEADER);
        out.push_str(items);
        return Ok(out);
    }
    let lines: Vec<&str> = timeline.lines().collect();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let Some((key, rest)) = steps_key(&lines) else {
        // A Timeline without steps yet.
        let mut t = timeline.to_string();
        if !t.ends_with('\n') {
            t.push('\n');
        }
        t.push_str("steps:\n");
        t.push_str(items);
        return Ok(t);
    };
    let steps = step_lines(timeline);
    let at_line = match rest.as_str() {
        "" => None,
        "[]" => {
            out[key] = "steps:".to_string();
            None
        }
        _ => return Err(
            "the Timeline's steps are written as a flow list ([…]); write them one per line (“- at: …”) to add steps from the cluster view"
                .into(),
        ),
    };
    let indent = steps.first().map(|s| s.indent).unwrap_or(0);
    let pos = at_line.unwrap_or_else(|| {
        let k = steps.iter().position(|s| s.at_ns.is_some_and(|a| a > at_ns)).unwrap_or(steps.len());
        match (k.checked_sub(1).and_then(|p| steps.get(p)), steps.get(k)) {
            // Right after the last step at or before the time.
            (Some(prev), _) => prev.end,
            // Before the first step, above the comments right over it.
            (None, Some(first)) => {
                let mut p = first.line;
                while p > key + 1 && lines[p - 1].trim_start().starts_with('#') {
                    p -= 1;
                }
                p
            }
            (None, None) => key + 1,
        }
    });
    let pad = " ".repeat(indent);
    let new: Vec<String> = items
        .lines()
        .map(|l| if l.is_empty() { String::new() } else { format!("{pad}{l}") })
        .collect();
    out.splice(pos..pos, new);
    let mut t = out.join("\n");
    t.push('\n');
    Ok(t)
}
