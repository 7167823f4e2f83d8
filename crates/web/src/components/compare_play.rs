//! "Play both": the two runs of a comparison side by side under one transport, kept at the same
//! logical moment — the end of the same cycle number (the state just before each run's next
//! cycle begins). A run with fewer cycles stays at its end while the longer one plays on; the
//! scrubber spans the longer run. The worker keeps the comparison's second run and answers both
//! runs' frames at a cycle (`Request::SecondRun`, `Request::Both`); the page only draws them.
//! The main player is left where it was.

use crate::components::compare_side::CompareSide;
use crate::components::compare_transport::CompareTransport;
use crate::protocol::Response;
use crate::state::{speed_ms, use_app};
use leptos::prelude::*;
use schedlab_view::view::{Frame, Summary};
use std::sync::Arc;
use std::time::Duration;

#[component]
pub fn ComparePlay(
    a_label: String,
    b_label: String,
    differing: Vec<String>,
    /// Start playing once both runs are there.
    #[prop(optional)]
    autoplay: bool,
) -> impl IntoView {
    let st = use_app();
    let differing = StoredValue::new(differing);
    let (second, set_second) = signal(None::<Arc<Summary>>);
    let (failed, set_failed) = signal(None::<String>);
    let (cycle, set_cycle) = signal(0u32);
    // The frames on screen and the cycle they show.
    let (frames, set_frames) = signal(None::<(u32, Arc<[Frame; 2]>)>);
    let (playing, set_playing) = signal(false);
    let (speed, set_speed) = signal(st.speed.get_untracked());
    let gone = "the scenario changed: compare again".to_string();
    st.second_run(move |r| match r {
        Response::SecondRun { summary, .. } => {
            set_second.set(Some(Arc::from(summary)));
            set_playing.set(autoplay);
        }
        Response::Failed { message, .. } => set_failed.set(Some(message)),
        _ => set_failed.set(Some(gone)),
    });
    let last = Memo::new(move |_| {
        let count = |s: &Option<Arc<Summary>>| s.as_ref().map_or(0, |s| s.cycle_pod.len() as u32);
        st.summary.with(count).max(second.with(count))
    });
    // One request at a time: when it is answered, the effect asks for the cycle now wanted.
    let asked = StoredValue::new(false);
    Effect::new(move |_| {
        let c = cycle.get();
        let shown = frames.with(|f| f.as_ref().map(|f| f.0));
        if second.with(Option::is_none) || asked.get_value() || shown == Some(c) {
            return;
        }
        asked.set_value(true);
        st.both_at(c, move |r| {
            asked.set_value(false);
            match r {
                Response::Both { cycle, frames: f, .. } => set_frames.set(Some((cycle, Arc::from(f)))),
                Response::Failed { message, .. } => set_failed.set(Some(message)),
                _ => set_failed.set(Some("the scenario changed: compare again".into())),
            }
        });
    });
    // The clock: one cycle per period once both runs show the cycle asked for.
    let since = StoredValue::new(0.0f64);
    let timer = set_interval_with_handle(
        move || {
            if !playing.get_untracked() {
                return;
            }
            let c = cycle.get_untracked();
            let shown = frames.with_untracked(|f| f.as_ref().map(|f| f.0)) == Some(c);
            let now = crate::bridge::now_ms();
            if !shown || now - since.get_value() < speed_ms(speed.get_untracked()) as f64 {
                return;
            }
            since.set_value(now);
            if c >= last.get_untracked() {
                set_playing.set(false);
            } else {
                set_cycle.set(c + 1);
            }
        },
        Duration::from_millis(50),
    );
    on_cleanup(move || {
        if let Ok(t) = timer {
            t.clear();
        }
    });
    let frame_of = move |i: usize| Signal::derive(move || frames.with(|f| f.as_ref().map(|f| f.1[i].clone())));
    let first = Signal::derive(move || st.summary.get());
    view! {
        <section class="compare-play" aria-label="Both runs, played together">
            <p class="muted">"Both runs at the end of the same cycle (a run with fewer cycles stays at its end). Pods that land differently are marked ≠ on both sides; ★ is the cycle's pod."</p>
            {move || failed.get().map(|m| view! { <p class="explain-failed" role="alert">"Cannot play both: "{m}</p> })}
            <CompareTransport cycle=cycle set_cycle=set_cycle last=last playing=playing set_playing=set_playing speed=speed set_speed=set_speed/>
            <div class="compare-sides" data-shown=move || frames.with(|f| f.as_ref().map(|f| f.0.to_string()))>
                <CompareSide side="A" label=a_label summary=first frame=frame_of(0) cycle=cycle differing=differing/>
                <CompareSide side="B" label=b_label summary=second.into() frame=frame_of(1) cycle=cycle differing=differing/>
            </div>
        </section>
    }
}
