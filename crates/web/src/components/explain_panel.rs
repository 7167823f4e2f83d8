//! The explanation of a clicked cell, in sentences with the numbers.

use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn ExplainPanel() -> impl IntoView {
    let st = use_app();
    // Beside the clicked cell: below it when there is room, else above; the cluster card's
    // explanations (outside this panel) open at the panel's top right.
    let position = move || match st.anchor.get() {
        Some((left, top, bottom)) => {
            let (w, h) = document()
                .query_selector(".lower-panel")
                .ok()
                .flatten()
                .map(|p| (p.client_width() as f64, p.client_height() as f64))
                .unwrap_or((1000.0, 400.0));
            let width = 520f64.min(w - 24.0);
            let x = left.clamp(12.0, (w - width - 12.0).max(12.0));
            if h - bottom > 190.0 {
                format!("left: {x}px; top: {}px; width: {width}px", bottom + 6.0)
            } else {
                format!("left: {x}px; bottom: {}px; width: {width}px", (h - top + 6.0).max(6.0))
            }
        }
        None => "right: 12px; top: 52px; width: 520px".to_string(),
    };
    view! {
        <Show when=move || st.cell.with(|c| c.is_some())>
            <aside class="explain" role="dialog" aria-label="Explanation" aria-live="polite" style=position>
                <button class="btn icon close" aria-label="Close the explanation" on:click=move |_| st.set_cell.set(None)>"×"</button>
                {move || match st.explanation.get() {
                    None => view! { <p class="muted">"Explaining…"</p> }.into_any(),
                    Some(e) => view! {
                        <h4>{e.title.clone()}</h4>
                        <ul>{e.lines.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}</ul>
                    }
                    .into_any(),
                }}
            </aside>
        </Show>
    }
}
