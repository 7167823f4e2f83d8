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
                <button class="btn icon close" aria-label="Close the explanation" on:click=move |_| st.close_explanation()>"×"</button>
                {move || match (st.explanation.get(), st.explain_failed.get()) {
                    // The engine stopped while answering (crate::bridge::lost): say so, with
                    // a report to copy into a bug report.
                    (None, Some(report)) => view! {
                        <p class="explain-failed" role="alert">"This explanation could not be computed."</p>
                        <p class="muted">"The engine stopped while computing it (a bug in schedlab) and was started again."</p>
                        <details class="explain-report">
                            <summary>"Report"</summary>
                            <pre>{report.clone()}</pre>
                            <button class="btn small" on:click=move |_| copy(report.clone())>"Copy"</button>
                        </details>
                    }
                    .into_any(),
                    (None, None) => view! { <p class="muted">"Explaining…"</p> }.into_any(),
                    (Some(e), _) => view! {
                        <h4>{e.title.clone()}</h4>
                        <ul>{e.lines.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}</ul>
                    }
                    .into_any(),
                }}
            </aside>
        </Show>
    }
}

/// Copies the report to the clipboard.
fn copy(text: String) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(&text);
    }
}
