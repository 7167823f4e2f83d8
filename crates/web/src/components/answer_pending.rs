//! The pending part of an answer: the last cycle's reasons grouped as the FailedScheduling
//! message groups them (what preemption tried is in the answer's sentences), and the verified
//! suggestions (`suggestion`).

use crate::components::suggestion::SuggestionItem;
use leptos::prelude::*;
use schedlab_view::answer::WhyPending;

#[component]
pub fn PendingAnswer(pending: WhyPending) -> impl IntoView {
    let reasons = pending
        .reasons
        .iter()
        .map(|g| {
            let n = g.nodes.len();
            let nodes = g.nodes.join(", ");
            view! { <li><strong>{g.plugin.clone()}</strong>": "{g.reason.clone()}" — "{format!("{n} node{}", if n == 1 { "" } else { "s" })}": "{nodes}</li> }
        })
        .collect_view();
    let tried = pending.tried;
    let count = pending.suggestions.len();
    let suggestions = pending
        .suggestions
        .into_iter()
        .enumerate()
        .map(|(i, s)| view! { <SuggestionItem index=i suggestion=s/> })
        .collect_view();
    view! {
        {(!pending.reasons.is_empty()).then(|| view! { <h5>"Reasons in cycle "{pending.cycle}</h5><ul class="answer-reasons">{reasons}</ul> })}
        <h5>{format!("Changes that make it schedule: {count} verified of {tried} tried, smallest first")}</h5>
        {(count == 0).then(|| view! { <p class="muted">"None of the changes tried made it schedule."</p> })}
        <ol class="suggestions">{suggestions}</ol>
    }
}
