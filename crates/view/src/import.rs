//! What importing a real cluster (`schedlab import`, the page's Import…) reports: the scenario
//! text, what was imported, skipped, converted or found worth a warning. The import itself is
//! the engine's (`schedlab_core::import`); the page only shows this.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Where an object was read: file, line, and its number in the list it was an item of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Where {
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// 0-based index in the enclosing list or array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<usize>,
}

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if let Some(i) = self.item {
            write!(f, " (item {i})")?;
        }
        Ok(())
    }
}

/// A warning or error about one object (or a place in the input).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Issue {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Where>,
    /// `Kind namespace/name` (or `Kind name` for cluster-scoped objects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    pub message: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.at {
            write!(f, "{at}: ")?;
        }
        if let Some(o) = &self.object {
            write!(f, "{o}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// How many objects of one kind were imported or skipped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KindCount {
    pub kind: String,
    pub count: usize,
}

/// What an import produced and found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// The scenario: multi-document YAML that `load_str` accepts (empty when nothing was
    /// imported).
    pub scenario_text: String,
    /// Objects in the scenario, per kind, in scenario order.
    pub imported: Vec<KindCount>,
    /// Objects of kinds the scheduler does not use, per kind, in order of first appearance.
    pub skipped: Vec<KindCount>,
    /// What was converted, stripped or made up, and fields ignored per kind.
    pub notes: Vec<String>,
    /// The cluster's real state worth knowing, per object (pods not running as they should,
    /// nodes not ready, pods on nodes missing from the input...).
    pub warnings: Vec<Issue>,
    /// Objects (or parts of the input) that could not be imported, with the reason.
    pub errors: Vec<Issue>,
}

impl ImportReport {
    /// "skipped 12 Events, 3 ConfigMaps, 1 Secret — Secret data is never read".
    pub fn skipped_line(&self) -> Option<String> {
        if self.skipped.is_empty() {
            return None;
        }
        let list: Vec<String> = self.skipped.iter().map(|k| count(k.count, &k.kind)).collect();
        let mut s = format!("skipped {}", join_and(&list));
        if self.skipped.iter().any(|k| k.kind == "Secret") {
            s.push_str(" — Secret data is never read");
        }
        Some(s)
    }

    /// "imported 4 Nodes, 12 Pods, 2 Services".
    pub fn imported_line(&self) -> String {
        if self.imported.is_empty() {
            return "imported nothing".into();
        }
        let list: Vec<String> = self.imported.iter().map(|k| count(k.count, &k.kind)).collect();
        format!("imported {}", join_and(&list))
    }

    /// The whole report as text, one line per item (what `schedlab import` prints to stderr).
    pub fn summary_text(&self) -> String {
        let mut out = String::new();
        out.push_str(&self.imported_line());
        out.push('\n');
        if let Some(s) = self.skipped_line() {
            out.push_str(&s);
            out.push('\n');
        }
        for n in &self.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        for w in &self.warnings {
            out.push_str(&format!("warning: {w}\n"));
        }
        for e in &self.errors {
            out.push_str(&format!("error: {e}\n"));
        }
        out
    }
}

/// English plural of a kind: Events, Secrets, Policies, Ingresses; Endpoints stays.
pub fn plural(kind: &str) -> String {
    if kind.ends_with("ss") || kind.ends_with("sh") || kind.ends_with("ch") || kind.ends_with('x') {
        format!("{kind}es")
    } else if kind.ends_with('s') {
        kind.to_string()
    } else if let Some(stem) = kind.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'o', 'u'])) {
        format!("{stem}ies")
    } else {
        format!("{kind}s")
    }
}

/// `1 Pod`, `3 Pods`.
pub fn count(n: usize, kind: &str) -> String {
    if n == 1 {
        format!("1 {kind}")
    } else {
        format!("{n} {}", plural(kind))
    }
}

fn join_and(items: &[String]) -> String {
    items.join(", ")
}
