//! Candidate changes for nodes the `schedlab.dev/CEL` filter rejected (docs/cel-plugin.md):
//!
//! - the configuration edit: turn the plugin's Filter off in the pod's profile (its Score, if
//!   enabled, stays) — always a candidate, the biggest of them;
//! - one label of the node, or of the pod, set to a value or removed, when the filter
//!   expression reads labels: the keys are the names after `metadata.labels.` and the string
//!   literals of the expression, the values its string literals. Each such change is first
//!   evaluated by the plugin's own code (`Cel::eval_filter`) on the rejected node and kept only
//!   if the expression is then true there; like every candidate it is then verified by a
//!   re-run. An expression that reads other fields (quantities, taints, names) gets the
//!   configuration edit only: guessing values for those is not cheap nor general.

use super::pending::Candidate;
use super::{cell, same};
use crate::api::{Node, Pod};
use crate::engine::Engine;
use crate::plugins::cel::{args::CelArgs, Cel};
use crate::vocabulary::PluginName;
use schedlab_view::answer::Edit;
use serde_json::{json, Value};

/// At most this many label changes are proposed (each is one re-run).
const MAX_LABEL_CHANGES: usize = 6;
/// At most this many keys and values are read from an expression.
const MAX_WORDS: usize = 12;

/// The CEL candidates for pod `key`, whose last cycle `cycle` saw the CEL filter reject
/// `rejected`, or ended with the error `failed`: when that is the CEL filter's, the nodes it
/// is taken for are those on which the expression fails (the plugin's own evaluation).
pub(super) fn candidates(
    docs: &[Value],
    e: &Engine,
    key: &str,
    cycle: u32,
    rejected: &[&str],
    failed: Option<&str>,
) -> Vec<Candidate> {
    let pod = &e.pods()[e.pod_by_key(key).expect("found")].info;
    let profile_name = pod.scheduler_name();
    let Some(profile) = e.config().profiles.iter().find(|p| p.scheduler_name == profile_name) else {
        return Vec::new();
    };
    let cel = Cel::new(&profile.args.get_or_default::<CelArgs>());
    let own_error = format!("running \"{}\" filter plugin", PluginName::Cel.as_str());
    let erring: Vec<&str> = match failed {
        Some(m) if m.starts_with(&own_error) => e
            .trace()
            .header
            .nodes
            .iter()
            .map(String::as_str)
            .filter(|n| e.snapshot().get(n).is_some_and(|ni| cel.eval_filter(&pod.pod, &ni.node).is_err()))
            .collect(),
        _ => Vec::new(),
    };
    let nodes: Vec<&str> = rejected.iter().copied().chain(erring).collect();
    let Some(first) = nodes.first().copied() else { return Vec::new() };
    let (ns, name) = key.split_once('/').unwrap_or(("default", key));
    let plugin = PluginName::Cel.as_str();
    let mut out = Vec::new();
    if let Some(text) = cel.filter_text() {
        let words = literals(text);
        let mut tried = Vec::new();
        for &node in &nodes {
            let Some(ni) = e.snapshot().get(node) else { continue };
            let cells = vec![cell(cycle, node, plugin, "Filter")];
            if text.contains("node.metadata.labels") {
                for (k, v) in label_changes(text, "node", &ni.node.metadata.labels, &words) {
                    let mut n: Node = (*ni.node).clone();
                    set_label(&mut n.metadata.labels, &k, v.as_deref());
                    if cel.eval_filter(&pod.pod, &n) == Ok(true) {
                        out.push(Candidate {
                            sentence: label_sentence(&format!("node {node}"), &k, v.as_deref()),
                            edits: vec![Edit::Patch {
                                kind: "Node".into(),
                                namespace: None,
                                name: node.to_string(),
                                merge: json!({"metadata": {"labels": {k: v}}}),
                            }],
                            size: (1, 1),
                            cells: cells.clone(),
                        });
                    }
                }
            }
            let has_doc = docs.iter().any(|d| same(d, "Pod", name, Some(ns)));
            if has_doc && text.contains("pod.metadata.labels") {
                for (k, v) in label_changes(text, "pod", &pod.pod.metadata.labels, &words) {
                    if tried.contains(&(k.clone(), v.clone())) {
                        continue;
                    }
                    let mut p: Pod = (*pod.pod).clone();
                    set_label(&mut p.metadata.labels, &k, v.as_deref());
                    if cel.eval_filter(&p, &ni.node) == Ok(true) {
                        tried.push((k.clone(), v.clone()));
                        out.push(Candidate {
                            sentence: label_sentence(key, &k, v.as_deref()),
                            edits: vec![Edit::Patch {
                                kind: "Pod".into(),
                                namespace: Some(ns.to_string()),
                                name: name.to_string(),
                                merge: json!({"metadata": {"labels": {k: v}}}),
                            }],
                            size: (1, 1),
                            cells: cells.clone(),
                        });
                    }
                }
            }
        }
        out.truncate(MAX_LABEL_CHANGES);
    }
    if let Some(c) = disable_filter(docs, profile_name) {
        out.push(Candidate {
            sentence: format!(
                "Turn off {plugin}'s Filter in profile {profile_name} (the configuration's plugins.filter; a Score it has stays)"
            ),
            edits: vec![c],
            size: (5, 1),
            cells: vec![cell(cycle, first, plugin, "Filter")],
        });
    }
    out
}

fn label_sentence(object: &str, k: &str, v: Option<&str>) -> String {
    match v {
        Some(v) => format!("Label {object} {k}={v} (the {} filter expression is then true)", PluginName::Cel.as_str()),
        None => format!("Remove label {k} from {object} (the {} filter expression is then true)", PluginName::Cel.as_str()),
    }
}

fn set_label(labels: &mut crate::api::Labels, k: &str, v: Option<&str>) {
    match v {
        Some(v) => labels.insert(k.to_string(), v.to_string()),
        None => labels.remove(k),
    };
}

/// The single-label changes to try on `who`'s labels (`who` is `node` or `pod`): each key the
/// expression may read set to each literal (unless it has that value already), and each key it
/// has removed.
fn label_changes(text: &str, who: &str, labels: &crate::api::Labels, words: &[String]) -> Vec<(String, Option<String>)> {
    let mut keys: Vec<String> = Vec::new();
    let field = format!("{who}.metadata.labels.");
    for (i, _) in text.match_indices(&field) {
        let rest = &text[i + field.len()..];
        let ident: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !ident.is_empty() && !keys.contains(&ident) {
            keys.push(ident);
        }
    }
    for w in words.iter().filter(|w| is_label_key(w)) {
        if !keys.contains(w) {
            keys.push(w.clone());
        }
    }
    keys.truncate(MAX_WORDS);
    let mut out = Vec::new();
    for k in &keys {
        // The literals the expression compares the label with, else every literal.
        let compared = compared_with(text, k);
        let values = if compared.is_empty() { words } else { &compared[..] };
        for v in values.iter().filter(|v| is_label_value(v) && *v != k) {
            if labels.get(k) != Some(v) {
                out.push((k.clone(), Some(v.clone())));
            }
        }
        if labels.contains_key(k) {
            out.push((k.clone(), None));
        }
    }
    out
}

/// The literals label `k` is compared with (`labels.k == "v"`, `labels["k"] != 'v'`).
fn compared_with(text: &str, k: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for reference in [format!("labels.{k}"), format!("labels[\"{k}\"]"), format!("labels['{k}']")] {
        for (i, _) in text.match_indices(&reference) {
            let rest = &text[i + reference.len()..];
            if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue; // labels.tiers, not labels.tier
            }
            let rest = rest.trim_start();
            let Some(rest) = rest.strip_prefix("==").or_else(|| rest.strip_prefix("!=")) else { continue };
            if let Some(v) = literals(rest.trim_start()).into_iter().next().filter(|_| rest.trim_start().starts_with(['"', '\''])) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// The string literals of a CEL expression, in order, each once (escapes kept as written: a
/// literal with one is not a label key nor value).
fn literals(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '"' && c != '\'' {
            continue;
        }
        let mut s = String::new();
        let mut escaped = false;
        for d in chars.by_ref() {
            if d == c && !escaped {
                break;
            }
            escaped = d == '\\' && !escaped;
            s.push(d);
        }
        if !out.contains(&s) && out.len() < MAX_WORDS {
            out.push(s);
        }
    }
    out
}

fn is_label_value(v: &str) -> bool {
    v.len() <= 63 && v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn is_label_key(k: &str) -> bool {
    !k.is_empty() && k.len() <= 253 && k.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
}

/// The configuration edit that turns the CEL Filter off in profile `profile`: the plugin taken
/// out of the profile's `plugins.filter.enabled`, and put in its `plugins.filter.disabled` when
/// `multiPoint` enables it. `None` when the scenario's configuration does not name the profile.
fn disable_filter(docs: &[Value], profile: &str) -> Option<Edit> {
    let doc = docs.iter().find(|d| d["kind"] == json!("KubeSchedulerConfiguration"))?;
    let mut profiles = doc["profiles"].as_array()?.clone();
    let p = profiles
        .iter_mut()
        .find(|p| p["schedulerName"].as_str().unwrap_or("default-scheduler") == profile)?;
    let cel = PluginName::Cel.as_str();
    let named = |e: &Value| e["name"] == json!(cel);
    let multi = p["plugins"]["multiPoint"]["enabled"].as_array().is_some_and(|l| l.iter().any(named));
    let plugins = p.as_object_mut()?.entry("plugins").or_insert_with(|| json!({}));
    let filter = plugins.as_object_mut()?.entry("filter").or_insert_with(|| json!({}));
    if let Some(list) = filter.get_mut("enabled").and_then(Value::as_array_mut) {
        list.retain(|e| !named(e));
    }
    if multi && !filter["disabled"].as_array().is_some_and(|l| l.iter().any(named)) {
        let list = filter.as_object_mut()?.entry("disabled").or_insert_with(|| json!([]));
        list.as_array_mut()?.push(json!({"name": cel}));
    }
    Some(Edit::Patch {
        kind: "KubeSchedulerConfiguration".into(),
        namespace: None,
        name: String::new(),
        merge: json!({ "profiles": profiles }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_keys_are_read_from_the_expression() {
        let text = r#"!("tier" in pod.metadata.labels) || pod.metadata.labels.tier != 'critical' || node.metadata.labels.lifecycle == "on-demand""#;
        assert_eq!(literals(text), ["tier", "critical", "on-demand"]);
        let labels: crate::api::Labels = [("lifecycle".to_string(), "spot".to_string())].into();
        let changes = label_changes(text, "node", &labels, &literals(text));
        assert!(changes.contains(&("lifecycle".into(), Some("on-demand".into()))), "{changes:?}");
        assert!(changes.contains(&("lifecycle".into(), None)), "{changes:?}");
        assert_eq!(literals(r#"'a\'b' + "c""#), [r"a\'b", "c"]);
        // A label compared with a literal is tried with that literal only.
        assert_eq!(compared_with(text, "tier"), ["critical"]);
        assert_eq!(compared_with(text, "lifecycle"), ["on-demand"]);
        assert_eq!(compared_with("node.metadata.labels[\"zone\"] != 'a' && x.labels.zones == \"b\"", "zone"), ["a"]);
        let pod: crate::api::Labels = [("tier".to_string(), "critical".to_string())].into();
        let changes = label_changes(text, "pod", &pod, &literals(text));
        assert_eq!(changes[0], ("tier".to_string(), None), "{changes:?}");
        assert!(!changes.iter().any(|(k, v)| k == "tier" && v.is_some()), "{changes:?}");
    }
}
