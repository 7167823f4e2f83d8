//! The explanation of a clicked cell, in sentences with the numbers.

use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn ExplainPanel() -> impl IntoView {
    let st = use_app();
    // On the side of the panel away from the clicked cell (so the cell and its row stay in
    // view); explanations asked from a node card (outside this panel) open at the top right.
    let position = move || match st.anchor.get() {
        Some((left, _top, _bottom)) => {
            let w = document()
                .query_selector(".lower-panel")
                .ok()
                .flatten()
                .map(|p| p.client_width() as f64)
                .unwrap_or(1000.0);
            let width = 480f64.min(w * 0.48);
            let side = if left < w / 2.0 { "right" } else { "left" };
            format!("{side}: 12px; top: 44px; width: {width}px")
        }
        None => "right: 12px; top: 52px; width: 480px".to_string(),
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
