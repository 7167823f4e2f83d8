//! The engine's errors in the scenario, listed beside the editor.

use crate::editor_js::EditorHandle;
use crate::state::use_app;
use leptos::prelude::*;

/// The engine's errors, beside the editor; clicking one shows it in its tab.
#[component]
pub fn ErrorList() -> impl IntoView {
    let st = use_app();
    let ed: EditorHandle = expect_context();
    view! {
        <Show when=move || st.issues.with(|i| !i.is_empty())>
            <div class="error-list" role="alert" aria-label="Errors in the scenario">
                <div class="error-head">
                    <strong>"⚠ The scenario has errors"</strong>
                    <span class="muted">" — the views show the last valid run."</span>
                </div>
                <ul>
                    {move || {
                        st.issues
                            .get()
                            .into_iter()
                            .map(|i| {
                                let where_ = match i.part {
                                    Some(p) if i.line > 0 => format!("{} line {}, column {}", p.label(), i.line, i.column),
                                    Some(p) => p.label().to_string(),
                                    None => "scenario".to_string(),
                                };
                                let (part, line, col) = (i.part, i.line, i.column);
                                view! {
                                    <li>
                                        <button
                                            class="linklike error-item"
                                            on:click=move |_| {
                                                if let Some(p) = part {
                                                    st.set_tab.set(p);
                                                    ed.with_value(|e| {
                                                        if let Some(e) = e {
                                                            e.show_tab(p.id());
                                                            e.reveal(line.max(1), col.max(1));
                                                        }
                                                    });
                                                }
                                            }
                                        >
                                            <span class="where">{where_}</span>
                                        </button>
                                        <span class="msg">{i.message}</span>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}
