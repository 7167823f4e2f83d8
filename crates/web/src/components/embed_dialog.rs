//! The Embed dialog: choose how an embedded playground opens (autoplay, speed, start cycle and
//! phase, panels, theme, size), see it live at that size, and copy the `<iframe>` snippet.

use crate::components::answers_panel::Questions;
use crate::components::compare_link;
use crate::components::embed_shell::with_query;
use crate::embed::{EmbedOptions, Panels};
use crate::state::{use_app, Theme, SPEEDS};
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use schedlab_view::view::Stage;

/// Size presets: (label, width, height); the last one is the custom size.
const SIZES: [(&str, u32, u32); 3] = [("800 × 500", 800, 500), ("720 × 450", 720, 450), ("480 × 360", 480, 360)];

/// The `<iframe>` snippet for a page.
pub fn snippet(src: &str, width: u32, height: u32) -> String {
    format!(
        "<iframe src=\"{}\" title=\"schedlab: kube-scheduler playground\" width=\"{width}\" height=\"{height}\" style=\"border:0;max-width:100%\" loading=\"lazy\"></iframe>",
        src.replace('&', "&amp;").replace('"', "&quot;")
    )
}

// Over 150 lines, for a reason: the options form, the live preview and the snippet are one
// form over the same six signals (options, start, size); the preview and the snippet are
// derived from all of them.
#[component]
pub fn EmbedDialog() -> impl IntoView {
    let st = use_app();
    let q: Questions = expect_context();
    let show = Signal::derive(move || q.embed.with(Option::is_some));
    // The last comparison, in the embed's address when included (`?embed&compare=…`).
    let compare = move || q.compared.with(|c| c.as_ref().and_then(compare_link::pair));
    let (include, set_include) = signal(false);
    let (opts, set_opts) = signal(EmbedOptions::default());
    let (start_on, set_start_on) = signal(true);
    let (width, set_width) = signal(800u32);
    let (height, set_height) = signal(500u32);
    let (custom, set_custom) = signal(false);
    let (payload, set_payload) = signal(None::<String>);
    let (copied, set_copied) = signal(None::<bool>);
    // On open: start at the current playhead, encode the scenario.
    Effect::new(move |_| {
        if !show.get() {
            return;
        }
        let (cycle, phase) = st.playhead();
        set_start_on.set(cycle > 0);
        set_opts.update(|o| {
            o.cycle = Some(cycle.max(1));
            o.phase = Some(if cycle > 0 { phase } else { Stage::QueueSort });
            o.speed = st.speed.get_untracked();
        });
        set_copied.set(None);
        set_include.set(q.embed.get_untracked() == Some(true));
        let saved = st.saved.get_untracked();
        spawn_local(async move { set_payload.set(storage::encode(&saved).await) });
    });
    let effective = move || {
        let mut o = opts.get();
        if !start_on.get() {
            o.cycle = None;
            o.phase = None;
        }
        o.height = Some(height.get());
        o
    };
    let src = move || {
        let p = payload.get()?;
        let link = crate::link::LinkState {
            payload: Some(p),
            ..Default::default()
        };
        let mut query = effective().to_query();
        if let Some(pair) = compare().filter(|_| include.get()) {
            query = format!("{query}&{pair}");
        }
        Some(with_query(&storage::share_url(&link, None), &query))
    };
    let code = move || src().map(|s| snippet(&s, width.get(), height.get())).unwrap_or_default();
    let copy = move |_| {
        let text = code();
        spawn_local(async move {
            let clip = window().navigator().clipboard();
            let ok = wasm_bindgen_futures::JsFuture::from(clip.write_text(&text)).await.is_ok();
            set_copied.set(Some(ok));
        });
    };
    let close = move || q.set_embed.set(None);
    let check = move |label: &'static str, get: Signal<bool>, set: Callback<bool>| {
        view! {
            <label class="check">
                <input type="checkbox" prop:checked=move || get.get() on:change=move |ev| set.run(event_target_checked(&ev))/>
                {label}
            </label>
        }
    };
    let panel_check = move |name: &'static str| {
        check(
            name,
            Signal::derive(move || opts.with(|o| o.panels.get(name))),
            Callback::new(move |on| {
                set_opts.update(|o| {
                    let mut p = o.panels;
                    p.set(name, on);
                    if p.list().is_empty() {
                        p = Panels::default();
                    }
                    o.panels = p;
                })
            }),
        )
    };
    let num = |v: &str| v.trim().parse::<u32>().ok();
    view! {
        <Show when=move || show.get()>
            <div class="modal-backdrop" on:click=move |_| close()>
                <div
                    class="modal embed-dialog"
                    role="dialog"
                    aria-modal="true"
                    aria-label="Embed this scenario"
                    on:click=|e| e.stop_propagation()
                    on:keydown=move |e: web_sys::KeyboardEvent| {
                        if e.key() == "Escape" {
                            close();
                        }
                    }
                >
                    <button class="btn icon close" aria-label="Close" on:click=move |_| close()>"×"</button>
                    <h2>"Embed this scenario"</h2>
                    <div class="embed-grid">
                        <form class="embed-form" on:submit=|e| e.prevent_default()>
                            <fieldset>
                                <legend>"Playback"</legend>
                                {check(
                                    "Play on open (not for visitors who prefer reduced motion)",
                                    Signal::derive(move || opts.with(|o| o.autoplay)),
                                    Callback::new(move |on| set_opts.update(|o| o.autoplay = on)),
                                )}
                                <label class="field">
                                    <span class="label">"Speed"</span>
                                    <select
                                        aria-label="Speed"
                                        on:change=move |ev| {
                                            if let Ok(s) = event_target_value(&ev).parse() {
                                                set_opts.update(|o| o.speed = s)
                                            }
                                        }
                                    >
                                        {SPEEDS
                                            .iter()
                                            .map(|&(n, label, _)| view! { <option value=n.to_string() selected=move || opts.with(|o| o.speed == n)>{label}</option> })
                                            .collect_view()}
                                    </select>
                                </label>
                                {check("Start at", start_on.into(), Callback::new(move |on| set_start_on.set(on)))}
                                <div class="start-at" class:off=move || !start_on.get()>
                                    <label class="field">
                                        <span class="label">"cycle"</span>
                                        <input
                                            type="number"
                                            min="1"
                                            aria-label="Start cycle"
                                            prop:disabled=move || !start_on.get()
                                            prop:value=move || opts.with(|o| o.cycle.unwrap_or(1).to_string())
                                            on:change=move |ev| {
                                                if let Some(c) = num(&event_target_value(&ev)) {
                                                    set_opts.update(|o| o.cycle = Some(c))
                                                }
                                            }
                                        />
                                    </label>
                                    <label class="field">
                                        <span class="label">"phase"</span>
                                        <select
                                            aria-label="Start phase"
                                            prop:disabled=move || !start_on.get()
                                            on:change=move |ev| set_opts.update(|o| o.phase = Stage::from_name(&event_target_value(&ev)))
                                        >
                                            {Stage::ALL
                                                .into_iter()
                                                .filter(|s| s.in_cycle())
                                                .map(|p| view! { <option value=p.label() selected=move || opts.with(|o| o.phase == Some(p))>{p.label()}</option> })
                                                .collect_view()}
                                        </select>
                                    </label>
                                </div>
                            </fieldset>
                            {move || compare().is_some().then(|| view! {
                                <fieldset>
                                    <legend>"Comparison"</legend>
                                    {check("Show the comparison (summary, differing pods, both runs played together)", include.into(), Callback::new(move |on| set_include.set(on)))}
                                </fieldset>
                            })}
                            <fieldset>
                                <legend>"Panels"</legend>
                                <div class="checks">{Panels::NAMES.iter().map(|&n| panel_check(n)).collect_view()}</div>
                            </fieldset>
                            <fieldset>
                                <legend>"Look"</legend>
                                <label class="field">
                                    <span class="label">"Theme"</span>
                                    <select
                                        aria-label="Theme"
                                        on:change=move |ev| {
                                            let t = match event_target_value(&ev).as_str() {
                                                "dark" => Some(Theme::Dark),
                                                "light" => Some(Theme::Light),
                                                _ => None,
                                            };
                                            set_opts.update(|o| o.theme = t)
                                        }
                                    >
                                        <option value="" selected=move || opts.with(|o| o.theme.is_none())>"The visitor's"</option>
                                        <option value="light" selected=move || opts.with(|o| o.theme == Some(Theme::Light))>"Light"</option>
                                        <option value="dark" selected=move || opts.with(|o| o.theme == Some(Theme::Dark))>"Dark"</option>
                                    </select>
                                </label>
                                <div class="sizes" role="radiogroup" aria-label="Size">
                                    {SIZES
                                        .iter()
                                        .map(|&(label, w, h)| {
                                            let on = move || !custom.get() && width.get() == w && height.get() == h;
                                            view! {
                                                <button
                                                    type="button"
                                                    role="radio"
                                                    class="btn small"
                                                    class:active=on
                                                    aria-checked=move || on().to_string()
                                                    on:click=move |_| {
                                                        set_custom.set(false);
                                                        set_width.set(w);
                                                        set_height.set(h);
                                                    }
                                                >
                                                    {label}
                                                </button>
                                            }
                                        })
                                        .collect_view()}
                                    <button
                                        type="button"
                                        role="radio"
                                        class="btn small"
                                        class:active=move || custom.get()
                                        aria-checked=move || custom.get().to_string()
                                        on:click=move |_| set_custom.set(true)
                                    >
                                        "custom"
                                    </button>
                                </div>
                                <Show when=move || custom.get()>
                                    <div class="custom-size">
                                        <label class="field">
                                            <span class="label">"width"</span>
                                            <input type="number" min="320" max="1600" aria-label="Width (px)" prop:value=move || width.get().to_string()
                                                on:change=move |ev| if let Some(v) = num(&event_target_value(&ev)) { set_width.set(v.clamp(320, 1600)) }/>
                                        </label>
                                        <label class="field">
                                            <span class="label">"height"</span>
                                            <input type="number" min="240" max="1200" aria-label="Height (px)" prop:value=move || height.get().to_string()
                                                on:change=move |ev| if let Some(v) = num(&event_target_value(&ev)) { set_height.set(v.clamp(240, 1200)) }/>
                                        </label>
                                    </div>
                                </Show>
                            </fieldset>
                            <label class="snippet-label" for="embed-snippet">"Paste this into your page:"</label>
                            <textarea id="embed-snippet" class="snippet" readonly=true rows="5" prop:value=code aria-label="Embed code"></textarea>
                            <div class="modal-actions">
                                <span class="muted copied" role="status">
                                    {move || copied.get().map(|ok| if ok { "Copied." } else { "Could not copy: select the text and copy it." })}
                                </span>
                                <button type="button" class="btn primary" on:click=copy aria-label="Copy the embed code">"Copy"</button>
                            </div>
                        </form>
                        <div class="embed-preview">
                            <div class="preview-label muted">{move || format!("Preview at {} × {} px", width.get(), height.get())}</div>
                            <div class="preview-frame">
                                {move || src().map(|s| view! {
                                    <iframe
                                        src=s
                                        title="Preview of the embedded playground"
                                        width=move || width.get().to_string()
                                        height=move || height.get().to_string()
                                        style="border:0"
                                    ></iframe>
                                })}
                            </div>
                        </div>
                    </div>
                </div>
            </div>
        </Show>
    }
}
