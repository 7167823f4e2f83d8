//! The one transport of "Play both" (components/compare_play.rs): to the start, one cycle back,
//! play/pause, one cycle on, to the end, a scrubber over the cycles of the longer run, and the
//! speed. It moves a cycle number; both runs follow it.

use crate::components::transport::{svg, Icon};
use crate::state::SPEEDS;
use leptos::prelude::*;

#[component]
pub fn CompareTransport(
    cycle: ReadSignal<u32>,
    set_cycle: WriteSignal<u32>,
    /// The longer run's cycle count.
    last: Memo<u32>,
    playing: ReadSignal<bool>,
    set_playing: WriteSignal<bool>,
    speed: ReadSignal<u8>,
    set_speed: WriteSignal<u8>,
) -> impl IntoView {
    let go = move |to: u32| {
        set_playing.set(false);
        set_cycle.set(to.min(last.get_untracked()));
    };
    let btn = move |label: &'static str, icon: Icon, to: fn(u32, u32) -> u32| {
        view! {
            <button class="btn icon transport-btn" aria-label=label title=label
                on:click=move |_| go(to(cycle.get_untracked(), last.get_untracked()))>{svg(icon)}</button>
        }
    };
    let toggle = move |_| {
        // Playing from the end starts again from the first cycle.
        if !playing.get_untracked() && cycle.get_untracked() >= last.get_untracked() {
            set_cycle.set(0);
        }
        set_playing.update(|p| *p = !*p);
    };
    view! {
        <div class="transport compare-transport" role="group" aria-label="Playback of both runs">
            <div class="controls">
                {btn("To the start", Icon::First, |_, _| 0)}
                {btn("Previous cycle", Icon::Prev, |c, _| c.saturating_sub(1))}
                <button class="btn icon play" data-action="play-both-toggle" aria-label=move || if playing.get() { "Pause both" } else { "Play both" }
                    aria-pressed=move || playing.get().to_string() on:click=toggle>
                    {move || if playing.get() { svg(Icon::Pause) } else { svg(Icon::Play) }}
                </button>
                {btn("Next cycle", Icon::Next, |c, _| c + 1)}
                {btn("To the end", Icon::Last, |_, l| l)}
            </div>
            <input type="range" class="compare-scrub" min="0" aria-label="Cycle of both runs"
                prop:max=move || last.get().to_string() prop:value=move || cycle.get().to_string()
                on:input=move |ev| if let Ok(c) = event_target_value(&ev).parse() { go(c) }/>
            <span class="compare-cycle" data-cycle=move || cycle.get().to_string()>{move || format!("cycle {} / {}", cycle.get(), last.get())}</span>
            <div class="speeds" role="radiogroup" aria-label="Speed">
                {SPEEDS.iter().map(|&(n, label, _)| view! {
                    <button class="btn small" role="radio" class:active=move || speed.get() == n aria-checked=move || (speed.get() == n).to_string()
                        on:click=move |_| set_speed.set(n)>{label}</button>
                }).collect_view()}
            </div>
        </div>
    }
}
