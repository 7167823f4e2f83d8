//! Playback: play/pause, step one phase or one pod, jump to a cycle, speed, the logical clock,
//! and the timeline.

use crate::components::timeline::Timeline;
use crate::fmt;
use crate::player::Seek;
use crate::state::{use_app, SPEEDS};
use leptos::prelude::*;

#[component]
pub fn Transport() -> impl IntoView {
    let st = use_app();
    let cycles = move || st.summary.with(|s| s.as_ref().map(|s| s.cycle_first_stop.len()).unwrap_or(0));
    let stage = move || st.frame.with(|f| f.as_ref().map(|f| f.stage.label()).unwrap_or("—"));
    // The stop of the frame on screen (tests wait for it to equal the playhead).
    let shown_stop = move || st.frame.with(|f| f.as_ref().map(|f| f.stop.to_string()).unwrap_or_default());
    let clock_ms = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.clock_ms)));
    // Made anew when the clock moves, so its jump animation plays again.
    let clock = move || {
        clock_ms
            .get()
            .map(|ms| view! { <span class="clock-value" data-clock-ms=ms>{format!("t = {}", fmt::clock(ms))}</span> })
    };
    // When the first backoff at the playhead ends (backoffQ's expiries are the engine's).
    let backoff_end = Memo::new(move |_| {
        st.frame.with(|f| {
            let f = f.as_ref()?;
            f.queue.backoff.iter().filter_map(|i| i.until_ms).filter(|&u| u > f.clock_ms).min()
        })
    });
    let backoff_view = move || {
        backoff_end.get().map(|u| {
            view! {
                <span
                    class="clock-backoff muted"
                    data-until-ms=u
                    title=format!("The first backoff ends at t = {}: that pod may be retried from then (the queue lists each pod's backoff)", fmt::clock(u))
                >
                    {format!("↻ until {}", fmt::clock(u))}
                </span>
            }
        })
    };
    let cycle_now = move || st.cycle_of(st.stop.get());
    let btn = move |label: &'static str, icon: Icon, key: &'static str, to: Seek| {
        view! {
            <button class="btn icon transport-btn" aria-label=label title=format!("{label} ({key})") on:click=move |_| {
                st.pause_at(to);
            }>{svg(icon)}</button>
        }
    };
    view! {
        <footer class="transport" aria-label="Playback">
            <div class="controls" role="group" aria-label="Playback controls">
                {btn("To the start", Icon::First, "Home", Seek::Stop(0))}
                {btn("Previous pod", Icon::PrevPod, "Shift+←", Seek::Pod { forward: false })}
                {btn("Previous phase", Icon::Prev, "←", Seek::Phase { forward: false })}
                <button
                    class="btn icon play"
                    aria-label=move || if st.playing.get() { "Pause" } else { "Play" }
                    title="Play/pause (Space)"
                    aria-pressed=move || st.playing.get().to_string()
                    on:click=move |_| st.toggle_play()
                >
                    {move || if st.playing.get() { svg(Icon::Pause) } else { svg(Icon::Play) }}
                </button>
                {btn("Next phase", Icon::Next, "→", Seek::Phase { forward: true })}
                {btn("Next pod", Icon::NextPod, "Shift+→", Seek::Pod { forward: true })}
                {btn("To the end", Icon::Last, "End", Seek::End)}
            </div>
            <div class="stage-label" aria-live="polite" aria-label="Current phase" data-stop=shown_stop>{stage}</div>
            <div class="speeds" role="radiogroup" aria-label="Speed">
                {SPEEDS
                    .iter()
                    .map(|&(n, label, _)| {
                        view! {
                            <button
                                class="btn small"
                                role="radio"
                                class:active=move || st.speed.get() == n
                                aria-checked=move || (st.speed.get() == n).to_string()
                                title=format!("Speed {label} (key {n})")
                                on:click=move |_| st.set_speed.set(n)
                            >
                                {label}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <Timeline/>
            <label class="cycle-jump">
                <span class="label">"cycle"</span>
                <input
                    type="number"
                    min="0"
                    aria-label="Jump to cycle"
                    prop:max=move || cycles().to_string()
                    prop:value=move || cycle_now().to_string()
                    on:change=move |ev| {
                        if let Ok(c) = event_target_value(&ev).trim().parse::<u32>() {
                            st.pause_at(Seek::Cycle(c));
                        }
                    }
                />
                <span class="muted">{move || format!("/ {}", cycles())}</span>
            </label>
            <div class="clock" aria-label="Logical clock" title="Logical time: scheduling takes no time; the clock jumps when pods wait for their backoff">
                {clock}
                {backoff_view}
            </div>
        </footer>
    }
}

#[derive(Clone, Copy)]
pub enum Icon {
    First,
    PrevPod,
    Prev,
    Play,
    Pause,
    Next,
    NextPod,
    Last,
}

/// Transport icons as inline SVG (no icon font: they render the same everywhere).
pub fn svg(icon: Icon) -> impl IntoView {
    let d = match icon {
        Icon::First => "M5 4h2v16H5zM19 4v16L8 12z",
        Icon::PrevPod => "M12 4v16L3 12zM21 4v16l-9-8z",
        Icon::Prev => "M16 4v16L6 12z",
        Icon::Play => "M7 4v16l13-8z",
        Icon::Pause => "M6 4h4v16H6zM14 4h4v16h-4z",
        Icon::Next => "M8 4v16l10-8z",
        Icon::NextPod => "M3 4v16l9-8zM12 4v16l9-8z",
        Icon::Last => "M17 4h2v16h-2zM5 4v16l11-8z",
    };
    view! {
        <svg class="ico" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <path d=d fill="currentColor"></path>
        </svg>
    }
}
