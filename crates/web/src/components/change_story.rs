//! The queue's story at a change stop: what changed in the cluster (the worker's sentence) and,
//! for each pending pod the change's informer events reached, which queueing hint answered and
//! where the pod went (activeQ, backoffQ, or stayed), with the backoff it has left.

use crate::components::pod_chip::{ChipState, PodChip};
use crate::fmt;
use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::view::ChangeView;
use schedlab_view::{ChangeCause, QueueName};

fn pool(q: QueueName) -> (&'static str, ChipState) {
    match q {
        QueueName::ActiveQ => ("activeQ", ChipState::Queued),
        QueueName::BackoffQ => ("backoffQ", ChipState::Backoff),
        QueueName::Unschedulable => ("unschedulable", ChipState::Unschedulable),
        QueueName::Gated => ("gated", ChipState::Gated),
        QueueName::InFlight => ("in flight", ChipState::InFlight),
        QueueName::None => ("out of the queue", ChipState::Running),
    }
}

#[component]
pub fn ChangeStory() -> impl IntoView {
    let st = use_app();
    let changes = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.changes.clone()).unwrap_or_default()));
    view! {
        <Show when=move || changes.with(|c| !c.is_empty())>
            <section class="change-story" aria-label="What changed" aria-live="polite">
                {move || changes.get().into_iter().map(|c| view! { <Change change=c/> }).collect_view()}
            </section>
        </Show>
    }
}

#[component]
fn Change(change: ChangeView) -> impl IntoView {
    let cause = match change.cause {
        ChangeCause::Step => change
            .step
            .map(|s| format!("timeline step {}", s + 1))
            .unwrap_or_else(|| "timeline step".into()),
        ChangeCause::Finish => "a pod finished".into(),
        ChangeCause::Flush => "5-minute flush".into(),
        ChangeCause::Controller => change
            .by
            .as_ref()
            .map(|b| format!("controller {b}"))
            .unwrap_or_else(|| "controller".into()),
        ChangeCause::Api => "api".into(),
    };
    let moves = change
        .moves
        .iter()
        .map(|m| {
            let (to, chip) = pool(m.to);
            let text = m.pod_sentence.clone();
            let dest = if m.moved {
                match m.backoff_left_ms {
                    Some(left) if left > 0 => format!("→ {to}, {} left", fmt::clock(left)),
                    _ => format!("→ {to}"),
                }
            } else {
                format!("stayed ({to})")
            };
            view! {
                <li class="move" class:moved=m.moved data-to=to>
                    <PodChip pod=m.pod state=chip/>
                    <span class=if m.moved { "q-dest moved" } else { "q-dest" }>{dest}</span>
                    <div class="move-why">{text}</div>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="change" data-action=change.action.as_str() class:skipped=change.skipped.is_some()>
            <div class="change-head">
                <span class="change-cause">{cause}" · t = "{fmt::clock(change.at_ms)}</span>
            </div>
            <p class="change-sentence">{change.sentence.clone()}</p>
            {change.skipped.clone().map(|s| view! { <p class="muted change-skipped">{format!("Not applied: {s}")}</p> })}
            {(!change.moves.is_empty()).then(|| view! { <ul class="moves">{moves}</ul> })}
        </div>
    }
}
