//! Edits applied to a scenario's text as a person would make them: only the documents an edit
//! touches are rewritten (as YAML, keys in their order), new documents are appended, and every
//! other line — comments, layout, quoting — stays as it was. The playground applies a
//! suggestion this way so the editor's text stays the user's (`apply_edits` prints every
//! document as JSON, which is all a re-run needs).

use super::same;
use schedlab_view::answer::Edit;
use serde_json::Value;

/// One document of the text as written: its lines (the `---` line before it included) and
/// what it reads as (none for a comment-only document, several for a `…List`).
struct Chunk {
    text: String,
    values: Vec<Value>,
    /// The values changed: the chunk is printed again from them.
    touched: bool,
    /// Read as one `…List` document: printed again as that list.
    list: Option<Value>,
}

/// `text` with `edits` applied, untouched documents kept verbatim. The result reads as the same
/// documents as `apply_edits(text, edits)`'s.
pub fn apply_edits_keeping_text(text: &str, edits: &[Edit]) -> Result<String, String> {
    let mut chunks = chunks(text);
    let read: usize = chunks.iter().map(|c| c.values.len()).sum();
    if read != crate::load::documents(text).len() {
        // The text does not split on its `---` lines (a document starts on one): print all.
        return super::apply_edits(text, edits);
    }
    let mut added = String::new();
    for ed in edits {
        match ed {
            Edit::Patch {
                kind,
                namespace,
                name,
                merge,
            } => {
                let c = chunks
                    .iter_mut()
                    .find(|c| c.values.iter().any(|d| same(d, kind, name, namespace.as_deref())))
                    .ok_or_else(|| format!("no {kind} {name} to patch"))?;
                let d = c
                    .values
                    .iter_mut()
                    .find(|d| same(d, kind, name, namespace.as_deref()))
                    .expect("found above");
                crate::timeline::patch::merge_patch(d, merge);
                c.touched = true;
            }
            Edit::Add { document } => {
                added.push_str("---\n");
                added.push_str(&schedlab_view::yaml::to_yaml_in_order(document));
            }
        }
    }
    let mut out = String::new();
    for c in chunks {
        if !c.touched {
            out.push_str(&c.text);
            continue;
        }
        // Keep the separator line (and any comment lines right after it).
        let head: String = c
            .text
            .split_inclusive('\n')
            .take_while(|l| l.starts_with("---") || l.trim_start().starts_with('#') || l.trim().is_empty())
            .collect();
        out.push_str(&head);
        let printed = match c.list {
            Some(mut list) => {
                list["items"] = Value::Array(c.values);
                list
            }
            None => c.values.into_iter().next().expect("a touched chunk has its document"),
        };
        out.push_str(&schedlab_view::yaml::to_yaml_in_order(&printed));
    }
    if !added.is_empty() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&added);
    }
    Ok(out)
}

/// The text cut before each `---` line.
fn chunks(text: &str) -> Vec<Chunk> {
    let mut texts: Vec<String> = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.starts_with("---") && !texts.last().is_some_and(String::is_empty) {
            texts.push(String::new());
        }
        texts.last_mut().expect("one at least").push_str(line);
    }
    texts
        .into_iter()
        .map(|t| {
            let body: String = t.split_inclusive('\n').filter(|l| !l.starts_with("---")).collect();
            let (read, _) = crate::load::yaml::read_documents(&body);
            let raw: Vec<Value> = read.iter().map(|d| d.to_json()).collect();
            let list = match &raw[..] {
                [v] if v["kind"].as_str().is_some_and(|k| k.ends_with("List")) && v["items"].is_array() => Some(v.clone()),
                _ => None,
            };
            Chunk {
                values: crate::load::documents(&body),
                text: t,
                touched: false,
                list,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TEXT: &str = "# the cluster\napiVersion: v1\nkind: Node\nmetadata: {name: a}   # small\n---\n# the pod\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: b}}\n";

    fn patch(kind: &str, name: &str, merge: Value) -> Edit {
        Edit::Patch {
            kind: kind.into(),
            namespace: None,
            name: name.into(),
            merge,
        }
    }

    #[test]
    fn only_the_patched_document_is_rewritten_and_reads_as_apply_edits_reads() {
        for edits in [
            vec![patch("Pod", "p", json!({"spec": {"tolerations": [{"key": "gpu", "operator": "Exists"}]}}))],
            vec![patch("Node", "b", json!({"spec": {"unschedulable": true}}))],
            vec![Edit::Add {
                document: json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "c"}}),
            }],
            vec![],
        ] {
            let kept = apply_edits_keeping_text(TEXT, &edits).unwrap();
            let all = super::super::apply_edits(TEXT, &edits).unwrap();
            assert_eq!(crate::load::documents(&kept), crate::load::documents(&all), "{kept}");
            assert!(kept.starts_with("# the cluster\napiVersion: v1\nkind: Node\nmetadata: {name: a}   # small\n---\n"), "{kept}");
        }
        let kept = apply_edits_keeping_text(TEXT, &[patch("Pod", "p", json!({"spec": {"priority": 5}}))]).unwrap();
        assert!(kept.contains("---\n# the pod\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"), "{kept}");
        assert!(kept.ends_with("kind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: b}}\n"), "{kept}");
    }

    #[test]
    fn a_missing_document_is_an_error() {
        let e = apply_edits_keeping_text(TEXT, &[patch("Pod", "q", json!({}))]).unwrap_err();
        assert_eq!(e, "no Pod q to patch");
    }
}
