//! One verified suggestion of a "why pending?" answer, with Apply: the worker writes its edits
//! into the editor's texts (`Request::ApplyEdits`); each tab changed gets one undoable edit.

use crate::components::cell_links::cell_links;
use crate::editor_js::EditorHandle;
use crate::protocol::Response;
use crate::scenario::Part;
use crate::state::{use_app, AppState};
use leptos::prelude::*;
use schedlab_view::answer::{Edit, Suggestion};

#[component]
pub fn SuggestionItem(index: usize, suggestion: Suggestion) -> impl IntoView {
    let st = use_app();
    let edits = suggestion.edits.clone();
    view! {
        <li class="suggestion" data-index=index data-lands-on=suggestion.lands_on.clone()>
            <span class="suggestion-text">{suggestion.sentence.clone()}</span>
            " "<button class="btn small" data-action="apply-suggestion" title="Write this change into the scenario (Ctrl+Z undoes it)"
                on:click=move |_| apply(st, edits.clone())>"Apply"</button>
            <div>{cell_links(st, suggestion.cells.clone())}</div>
        </li>
    }
}

/// The tab a document of `kind` belongs in (new documents go there; the worker finds the
/// document a patch names wherever it is).
fn part_for(e: &Edit) -> Part {
    let kind = match e {
        Edit::Patch { kind, .. } => kind.as_str(),
        Edit::Add { document } => document["kind"].as_str().unwrap_or_default(),
    };
    crate::scenario::part_of(Some(kind))
}

/// Has the worker apply `edits` to the editor's tabs, then writes each changed tab as one
/// undoable edit and shows the first of them.
fn apply(st: AppState, edits: Vec<Edit>) {
    let ed: EditorHandle = expect_context();
    ed.with_value(|e| {
        if let Some(e) = e {
            e.flush()
        }
    });
    let parts = st.saved.with_untracked(|s| s.parts.clone());
    let texts = Part::ALL
        .iter()
        .map(|&p| (parts.get(p).to_string(), edits.iter().filter(|e| part_for(e) == p).cloned().collect()))
        .collect();
    st.apply_edits(texts, move |r| match r {
        Response::Edited { texts, .. } => {
            let mut first = None;
            let mut next = parts.clone();
            for (p, t) in Part::ALL.into_iter().zip(texts) {
                if parts.get(p) != t {
                    first.get_or_insert(p);
                    ed.with_value(|e| {
                        if let Some(e) = e {
                            e.replace_doc(p.id(), &t)
                        }
                    });
                    next.set(p, t);
                }
            }
            if let Some(p) = first {
                st.set_tab.set(p);
                st.set_saved.update(|s| {
                    s.parts = next;
                    s.preset = None;
                });
                st.flash(format!("Applied in the {} tab: Ctrl+Z there undoes it", p.label()));
            }
        }
        Response::Failed { message, .. } => st.flash(format!("Not applied: {message}")),
        _ => {}
    });
}
