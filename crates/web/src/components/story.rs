//! "About this scenario": the scenario's leading comment, shown as its story.

use crate::scenario;
use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn Story() -> impl IntoView {
    let st = use_app();
    let lines = Memo::new(move |_| st.saved.with(|s| scenario::story(&s.parts)));
    view! {
        <Show when=move || lines.with(|l| !l.is_empty())>
            <details class="story" open=!st.embed>
                <summary>
                    <span class="story-title">"About this scenario"</span>
                    <span class="story-first muted">{move || lines.with(|l| l.first().cloned().unwrap_or_default())}</span>
                </summary>
                <div class="story-body">
                    {move || {
                        lines
                            .get()
                            .into_iter()
                            .map(|l| {
                                let (key, rest) = match l.split_once(": ") {
                                    Some((k, r)) if !k.contains(' ') && k.len() <= 12 => (Some(k.to_string()), r.to_string()),
                                    _ => (None, l.clone()),
                                };
                                view! {
                                    <p>
                                        {key.map(|k| view! { <strong class="story-key">{k}": "</strong> })}
                                        {rest}
                                    </p>
                                }
                            })
                            .collect_view()
                    }}
                </div>
            </details>
        </Show>
    }
}
