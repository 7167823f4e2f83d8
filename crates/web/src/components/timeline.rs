//! The timeline: one mark per cycle (bound, unschedulable, preemption, error), a marker per
//! timeline step at the stop where it happens, and the playhead. A native range input over a
//! canvas: drag, click and keyboard for free.

use crate::player::Seek;
use crate::state::{use_app, Theme};
use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use schedlab_view::view::Marker;
use wasm_bindgen::JsCast;

#[component]
pub fn Timeline() -> impl IntoView {
    let st = use_app();
    let canvas = NodeRef::<html::Canvas>::new();
    let (resized, set_resized) = signal(0u32);
    let _ = window_event_listener(ev::resize, move |_| set_resized.update(|r| *r += 1));
    let last = move || st.summary.with(|s| s.as_ref().map(|s| s.stops.saturating_sub(1)).unwrap_or(0));
    // The canvas's width as the last paint measured it (in an animation frame, where the
    // browser lays the page out anyway): the step markers' spacing reads it from here rather
    // than measuring while the page is being changed, which would lay it out once more.
    let (width, set_width) = signal(600.0_f64);

    let paint = move |dark: bool| {
        let Some(c) = canvas.get_untracked() else { return };
        let measured = c.client_width();
        if measured > 0 && width.get_untracked() != measured as f64 {
            set_width.set(measured as f64);
        }
        let w = measured.max(50) as f64;
        let h = c.client_height().max(10) as f64;
        let dpr = window().device_pixel_ratio().max(1.0);
        c.set_width((w * dpr) as u32);
        c.set_height((h * dpr) as u32);
        let Ok(Some(ctx)) = c.get_context("2d") else { return };
        let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else {
            return;
        };
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        ctx.clear_rect(0.0, 0.0, w, h);
        st.summary.with_untracked(|s| {
            let Some(s) = s else { return };
            let total = s.stops.max(1) as f64;
            ctx.set_fill_style_str(if dark { "#2a3140" } else { "#e4e7ee" });
            ctx.fill_rect(0.0, h / 2.0 - 2.0, w, 4.0);
            // Draw in order of importance so rarer marks stay visible on dense timelines.
            for pass in [Marker::Bound, Marker::Unschedulable, Marker::Error, Marker::Preempted] {
                let (color, hh) = match pass {
                    Marker::Bound => (if dark { "#3fbf7f" } else { "#1f9d55" }, 0.35),
                    Marker::Unschedulable => (if dark { "#f0b429" } else { "#c27c0e" }, 0.6),
                    Marker::Error => ("#d64545", 0.7),
                    Marker::Preempted => (if dark { "#b794f4" } else { "#7c3aed" }, 0.9),
                };
                ctx.set_fill_style_str(color);
                let mh = h * hh;
                // Markers are 2 px wide and come in order: overlapping ones are drawn as one
                // rectangle (a long run has thousands on a few hundred pixels).
                let mut run: Option<(f64, f64)> = None;
                for (i, m) in s.markers().enumerate() {
                    if m != pass {
                        continue;
                    }
                    let x = s.cycle_first_stop[i] as f64 / total * w;
                    run = match run {
                        Some((x0, x1)) if x <= x1 => Some((x0, x1.max(x + 2.0))),
                        Some((x0, x1)) => {
                            ctx.fill_rect(x0, (h - mh) / 2.0, x1 - x0, mh);
                            Some((x, x + 2.0))
                        }
                        None => Some((x, x + 2.0)),
                    };
                }
                if let Some((x0, x1)) = run {
                    ctx.fill_rect(x0, (h - mh) / 2.0, x1 - x0, mh);
                }
            }
        });
    };
    crate::paint::each_frame(
        move || {
            resized.track();
            st.summary.track();
            st.theme.track();
        },
        move || paint(st.theme.get_untracked() == Theme::Dark),
    );

    // (stop, title) per timeline step the run reached; titles read from the Timeline tab.
    let steps = Memo::new(move |_| {
        let titles = st.step_titles.get();
        st.summary.with(|s| {
            let Some(s) = s else { return Vec::new() };
            // Steps at one instant sit a stop or two apart: markers close together are set
            // side by side (k markers along) rather than on top of each other.
            let width = width.get();
            // A marker is 14 px wide (a rotated 10 px square).
            let near = 15.0 / width * 100.0;
            let mut cluster = (f64::NEG_INFINITY, 0u32);
            s.timeline_step_stops
                .iter()
                .enumerate()
                .filter_map(|(i, stop)| {
                    let stop = (*stop)?;
                    let at = s.timeline_steps_ms.get(i).copied().unwrap_or(0);
                    let what = titles.get(i).cloned().unwrap_or_else(|| format!("step {}", i + 1));
                    let x = stop as f64 / s.stops.max(1) as f64 * 100.0;
                    if x - cluster.0 < near * (cluster.1 + 1) as f64 {
                        cluster.1 += 1;
                    } else {
                        cluster = (x, 0);
                    }
                    let title = format!("{what} at {}", schedlab_view::duration::format_go_duration(at * 1_000_000));
                    Some((i, stop, format!("calc({:.3}% + {}px)", cluster.0, cluster.1 * 15), title))
                })
                .collect::<Vec<_>>()
        })
    });

    view! {
        <div class="timeline">
            <canvas node_ref=canvas aria-hidden="true"></canvas>
            <div class="tl-steps">
                <For
                    each=move || steps.get()
                    key=|k| k.clone()
                    children=move |(i, stop, x, title)| {
                        view! {
                            <button class="tl-step" data-step=i data-stop=stop style:left=x title=title.clone()
                                aria-label=format!("Timeline step {}: {title}", i + 1)
                                on:click=move |_| {
                                    st.pause_at(Seek::Stop(stop));
                                }></button>
                        }
                    }
                />
            </div>
            <input
                type="range"
                min="0"
                aria-label="Playhead (phase by phase)"
                aria-valuetext=move || {
                    let c = st.cycle_of(st.stop.get());
                    st.frame.with(|f| format!("cycle {c}, {}", f.as_ref().map(|f| f.stage.label()).unwrap_or("")))
                }
                prop:max=move || last().to_string()
                prop:value=move || st.stop.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                        st.pause_at(Seek::Stop(v));
                    }
                }
            />
            <div class="timeline-legend muted" aria-hidden="true">
                <span class="tl bound">"▮ bound"</span>
                <span class="tl unsched">"▮ failed"</span>
                <span class="tl preempt">"▮ preemption"</span>
                <Show when=move || steps.with(|s| !s.is_empty())>
                    <span class="tl step">"◆ timeline step"</span>
                </Show>
            </div>
        </div>
    }
}
