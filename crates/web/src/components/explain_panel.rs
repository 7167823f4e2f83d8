//! The explanation of a clicked cell, in sentences with the numbers.

use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn ExplainPanel() -> impl IntoView {
    let st = use_app();
    view! {
        <Show when=move || st.cell.with(|c| c.is_some())>
            <aside class="explain" role="dialog" aria-label="Explanation" aria-live="polite">
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
