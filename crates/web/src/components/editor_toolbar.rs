//! The editor's toolbar: add an object from a template, open or save a file, undo, redo, search.

use crate::components::files::{self, PendingFile};
use crate::editor_js::EditorHandle;
use crate::scenario::{Part, Template};
use crate::state::use_app;
use leptos::html;
use leptos::prelude::*;

#[component]
pub fn EditorToolbar(pending: PendingFile) -> impl IntoView {
    let st = use_app();
    let ed: EditorHandle = expect_context();
    let file_input = NodeRef::<html::Input>::new();
    let on_file = move |_| {
        let Some(input) = file_input.get() else { return };
        if let Some(f) = input.files().and_then(|l| l.get(0)) {
            files::read_file(st, pending, f);
        }
        input.set_value("");
    };

    let add = move |t: Template| {
        // A node goes round the zones of the run on screen (the one with the fewest nodes).
        let zones: Vec<(String, usize)> = st.summary.with_untracked(|s| {
            let Some(s) = s else { return Vec::new() };
            let m = &s.model;
            let mut out: Vec<(String, usize)> = m.zones.iter().map(|z| (z.clone(), 0)).collect();
            for n in &m.nodes {
                if let Some(e) = out.get_mut(n.zone as usize) {
                    e.1 += 1;
                }
            }
            out
        });
        let zone = crate::scenario::next_zone(&zones);
        let text = st.saved.with_untracked(|s| t.text(&s.parts, &zone));
        st.set_tab.set(t.part());
        // A scenario holds one KubeSchedulerConfiguration: with one there already, say where to
        // change it rather than add a second the loader would refuse.
        if t.part() == Part::Config && st.saved.with_untracked(|s| crate::scenario::has_config(&s.parts)) {
            st.flash(format!(
                "The Config tab already has a KubeSchedulerConfiguration: {} in its profiles list (a scenario holds one configuration)",
                if t == Template::DefaultProfile {
                    "change the default-scheduler entry (or add one)"
                } else {
                    "add a second entry with another schedulerName"
                }
            ));
            return;
        }
        ed.with_value(|e| {
            if let Some(e) = e {
                e.append(t.part().id(), &text);
            }
        });
        if t == Template::Node {
            st.flash(format!(
                "A node in {zone}, the zone with the fewest nodes (edit its topology.kubernetes.io/zone label to move it)"
            ));
        }
    };

    view! {
            <div class="editor-toolbar" role="toolbar" aria-label="Editor tools">
                <div class="adds">
                    <span class="muted">"Add"</span>
                    {Template::ALL
                        .into_iter()
                        .map(|t| {
                            view! {
                                <button class="btn small" on:click=move |_| add(t) disabled=move || !st.editor_ready.get() aria-label=format!("Add a {}", t.label())>
                                    "+ "
                                    {t.label()}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <div class="files">
                    <label class="btn small" title="Open a YAML or JSON file (or drop one on the editor)">
                        "Open…"
                        <input type="file" class="visually-hidden" accept=".yaml,.yml,.json,.txt,application/yaml,application/json,text/plain" node_ref=file_input on:change=on_file aria-label="Open a file"/>
                    </label>
                    <button class="btn small" title="Save the scenario as a YAML file" on:click=move |_| files::download_scenario(st)>"Save"</button>
                </div>
                <div class="edits">
                    <button class="btn small icon" title="Undo (Ctrl+Z)" aria-label="Undo" disabled=move || !st.editor_ready.get() on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.undo(); } })>"↶"</button>
                    <button class="btn small icon" title="Redo (Ctrl+Shift+Z)" aria-label="Redo" disabled=move || !st.editor_ready.get() on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.redo(); } })>"↷"</button>
                    <button class="btn small icon" title="Search (Ctrl+F)" aria-label="Search" disabled=move || !st.editor_ready.get() on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.search(); } })>"⌕"</button>
                </div>
            </div>
    }
}
