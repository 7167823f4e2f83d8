//! A comparison in an embed (`?embed&compare=…`, the scenario in the hash): no dialog, one panel
//! with two tabs — the summary (the figures and every pod's node in both runs, those that land
//! differently marked) and "Play both" (components/compare_play.rs). The engine compares when
//! the scenario has run (`Request::Compare`), as the compare view does.

use crate::components::compare_play::ComparePlay;
use crate::components::compare_result::CompareResult;
use crate::protocol::{CompareWith, Response};
use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::answer::Comparison;

#[component]
pub fn EmbedCompare(with: CompareWith, autoplay: bool) -> impl IntoView {
    let st = use_app();
    let (outcome, set_outcome) = signal(None::<Result<Box<Comparison>, String>>);
    // The "Play both" tab is open (autoplaying embeds open on it).
    let (playing_tab, set_playing_tab) = signal(autoplay);
    Effect::new(move |_| {
        if st.run.get() == 0 {
            return;
        }
        set_outcome.set(None);
        st.compare(with.clone(), move |r| match r {
            Response::Compared { comparison, .. } => set_outcome.set(Some(Ok(comparison))),
            Response::Failed { message, .. } => set_outcome.set(Some(Err(message))),
            _ => {}
        });
    });
    let tab = move |label: &'static str, play: bool| {
        view! {
            <button role="tab" class="tab" class:active=move || playing_tab.get() == play aria-selected=move || (playing_tab.get() == play).to_string()
                data-tab=if play { "play" } else { "summary" } on:click=move |_| set_playing_tab.set(play)>{label}</button>
        }
    };
    view! {
        <section class="panel embed-compare" aria-label="Comparison of two runs">
            <div class="panel-head embed-tabs">
                <div class="tabs" role="tablist" aria-label="Comparison">
                    {tab("Compared", false)}
                    {tab("Play both", true)}
                </div>
            </div>
            <div class="embed-compare-body">
                {move || match outcome.get() {
                    None => view! { <p class="muted">"Running both…"</p> }.into_any(),
                    Some(Err(m)) => view! { <p class="explain-failed" role="alert">"No comparison: "{m}</p> }.into_any(),
                    Some(Ok(c)) if playing_tab.get() => view! {
                        <p class="compare-headline" data-differing=c.differing.len()>{crate::fmt::count(c.differing.len(), "pod")}" land differently (≠)"</p>
                        <ComparePlay a_label=c.a.label.clone() b_label=c.b.label.clone() differing=c.differing.clone() autoplay=autoplay/>
                    }.into_any(),
                    Some(Ok(c)) => view! { <CompareResult comparison=*c/> }.into_any(),
                }}
            </div>
        </section>
    }
}
