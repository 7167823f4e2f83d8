//! The top bar: presets, Kubernetes version and feature gates, seed, large-cluster generator,
//! share link, theme, help.

use crate::components::embed_dialog::EmbedDialog;
use crate::components::recent;
use crate::fmt;
use crate::scenario::{self, Saved};
use crate::state::{use_app, AppState, Busy, Theme};
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn TopBar() -> impl IntoView {
    let st = use_app();
    let preset_value = move || st.saved.with(|s| s.preset.clone().unwrap_or_default());
    let on_preset = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(i) = recent::from_option_value(&id) {
            st.restore_recent(i);
        } else if let Some(p) = scenario::preset(&id) {
            // Its text is downloaded (once): the scenario on screen stays until it is here.
            let select = event_target::<web_sys::HtmlSelectElement>(&ev);
            spawn_local(async move {
                match storage::preset_text(p).await {
                    Ok(text) => {
                        let mut saved = Saved::from_preset(p, &text);
                        saved.seed = st.saved.with_untracked(|s| s.seed);
                        let _ = st.replace_scenario(saved);
                    }
                    Err(why) => {
                        select.set_value(&st.saved.with_untracked(|s| s.preset.clone().unwrap_or_default()));
                        st.set_notice.set(Some(format!("{why}. The scenario on screen is unchanged.")));
                    }
                }
            });
        }
    };
    let on_seed = move |ev: leptos::ev::Event| {
        if let Ok(seed) = event_target_value(&ev).trim().parse::<u64>() {
            st.set_fresh.set(false);
            st.set_saved.update(|s| s.seed = seed);
        }
    };
    // Share: the link to what is on screen, its length, and a file when it is too long for
    // some chat apps and browsers. For a gallery lesson, the link carries either the learner's
    // attempt (what is on screen) or the exercise as shipped.
    let exercise = RwSignal::new(false);
    let share = move |_| share_link(st, exercise.get_untracked());
    // The Embed dialog: options, a live preview and an <iframe> snippet for a docs page.
    let q: crate::components::answers_panel::Questions = expect_context();
    let toggle_theme = move |_| {
        let next = if st.theme.get_untracked() == Theme::Dark {
            Theme::Light
        } else {
            Theme::Dark
        };
        storage::save_theme(if next == Theme::Dark { "dark" } else { "light" });
        st.set_theme.set(next);
    };
    // Two short lines (what the scenario holds; how the run ends), so the summary fits beside
    // the buttons at 1280 px instead of being cut. The counts are those at the run's end (the
    // cluster panel's are at the playhead; at the last stop the two agree), and say so.
    let status = move || -> (String, String) {
        match st.busy.get() {
            Busy::Idle => st.summary.with(|s| {
                s.as_ref()
                    .map(|s| {
                        (
                            format!(
                                "v{} · {} · {} · {:.0} ms",
                                s.kubernetes_version,
                                fmt::count(s.model.nodes.len(), "node"),
                                fmt::count(s.model.pods.len(), "pod"),
                                st.run_ms.get()
                            ),
                            format!("at the end: {}", fmt::pod_counts(s.bound, s.pending, s.evicted)),
                        )
                    })
                    .unwrap_or_else(|| {
                        if st.issues.with(|i| !i.is_empty()) {
                            ("the scenario has errors:".into(), "nothing has run yet".into())
                        } else {
                            ("starting the engine…".into(), String::new())
                        }
                    })
            }),
            Busy::Running { cycles, pods } if pods > 0 => (
                "scheduling…".into(),
                format!("{} ({})", fmt::count(cycles as usize, "cycle"), fmt::count(pods as usize, "pod")),
            ),
            Busy::Running { .. } => ("scheduling…".into(), String::new()),
            Busy::LoadingEngine => ("loading the full engine…".into(), String::new()),
        }
    };
    let status_view = move || {
        let (a, b) = status();
        let title = match b.strip_prefix("at the end: ") {
            Some(end) => format!("The scenario, run by kube-scheduler {a} (the engine's run time). At the end of the run: {end}. The cluster panel counts the pods at the playhead."),
            None if b.is_empty() => a.clone(),
            None => format!("{a} {b}"),
        };
        view! {
            <span class="st-line" title=title.clone()>{a}</span>
            <span class="st-line st-end" title=title>{b}</span>
        }
    };
    let theme_button = move || {
        view! {
            <button class="btn icon" on:click=toggle_theme aria-label="Switch light/dark theme" title="Light/dark theme">
                {move || if st.theme.get() == Theme::Dark { "☀" } else { "☾" }}
            </button>
            <button class="btn icon" on:click=move |_| st.open_help() aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
                "?"
            </button>
        }
    };
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"⎈"</span>
                <span class="name">"schedlab"</span>
                <span class="sub muted">"kube-scheduler, step by step"</span>
            </div>
            <button class="btn" on:click=move |_| {
                st.close_popovers();
                st.set_show_lessons.set(true)
            } aria-haspopup="dialog" title="Exercises with goals checked on every run, by topic">"Lessons"</button>
            <label class="field">
                <span class="label">"Preset"</span>
                <select aria-label="Preset scenario" on:change=on_preset prop:value=preset_value>
                    <option value="" disabled=true>"Custom scenario"</option>
                    {move || recent::menu_options(st)}
                    {scenario::PRESETS
                        .iter()
                        .map(|p| view! { <option value=p.id selected=move || preset_value() == p.id>{p.title}</option> })
                        .collect_view()}
                </select>
            </label>
            <crate::components::version_select::VersionSelect/>
            <label class="field seed">
                <span class="label">"Seed"</span>
                <input
                    type="number"
                    min="0"
                    aria-label="Random seed for tie-breaks"
                    title="Ties between top-scored nodes are broken at random with this seed"
                    prop:value=move || st.saved.with(|s| s.seed.to_string())
                    on:change=on_seed
                />
            </label>
            <crate::components::controllers_toggle::ControllersToggle/>
            <button class="btn" on:click=move |_| {
                st.close_popovers();
                st.set_show_generate.set(true)
            } aria-label="Generate a large cluster">
                "Large cluster…"
            </button>
            <crate::components::import_dialog::ImportButton/>
            <span class="status muted" role="status" aria-live="polite" data-busy=move || (st.busy.get() != Busy::Idle).to_string() data-run=move || st.run.get().to_string()>
                {status_view}
            </span>
            <span class="spacer"></span>
            <button class="btn" on:click=share aria-label="Copy a share link" title="Copy a link that carries this scenario and what is on screen">"Share"</button>
            {move || st.share.get().map(|url| view! { <SharePopover url=url exercise=exercise close=move || st.set_share.set(None)/> })}
            <button class="btn" on:click=move |_| {
                st.close_popovers();
                q.set_embed.set(Some(false))
            } aria-label="Embed" aria-haspopup="dialog" title="An <iframe> that shows this scenario in a docs page: options, preview, code">"Embed…"</button>
            <crate::components::export_menu::ExportMenu/>
            {theme_button}
            <EmbedDialog/>
        </header>
    }
}

/// Links longer than this (characters) are cut by some chat apps, mail clients and browsers.
const LONG_LINK: usize = 8000;

/// The link Share made: its length, a copy button, and a file instead when it is long.
#[component]
fn SharePopover(url: String, exercise: RwSignal<bool>, close: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    let st = use_app();
    let len = url.len();
    let long = len > LONG_LINK;
    let url2 = url.clone();
    let copy_it = move |_| {
        let url = url2.clone();
        spawn_local(async move {
            st.flash(if copy(&url).await {
                "Link copied"
            } else {
                "Could not copy: select the link and copy it"
            });
        });
    };
    view! {
        <div class="share-popover" role="dialog" aria-label="Share link">
            <div class="share-row">
                <input class="share-url" readonly=true aria-label="Share link" prop:value=url.clone() on:focus=|e| {
                    if let Some(i) = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
                        i.select();
                    }
                }/>
                <button class="btn small" on:click=copy_it>"Copy"</button>
                <button class="btn small icon" aria-label="Close" title="Close" on:click=move |_| close()>"×"</button>
            </div>
            {st.saved.with_untracked(|s| s.lesson.is_some()).then(|| {
                let choice = move |ex: bool, label: &'static str, title: &'static str| view! {
                    <label class="share-choice" title=title>
                        <input type="radio" name="share-what" prop:checked=move || exercise.get() == ex on:change=move |_| {
                            exercise.set(ex);
                            share_link(st, ex);
                        }/>
                        {label}
                    </label>
                };
                view! {
                    <div class="share-row share-what" role="radiogroup" aria-label="What the link carries">
                        {choice(false, "My attempt", "The lesson with your edits, at this cycle")}
                        {choice(true, "The exercise", "The lesson as shipped, without your edits")}
                    </div>
                }
            })}
            <div class="share-meta muted">
                <span class="share-len">{format!("{} characters", crate::fmt::thousands(len as u64))}</span>
                " · carries the scenario, the playhead, the tab and the view"
            </div>
            {long.then(|| view! {
                <div class="share-warn" role="alert">
                    "This link is long: some chat apps, mail clients and browsers cut links past about 8 KB. "
                    <button class="btn small" on:click=move |_| crate::components::files::download_scenario(st)>"Download the scenario as a file"</button>
                    " and share that instead."
                </div>
            })}
        </div>
    }
}

/// Makes the share link (copied when short enough) and shows it: the scenario on screen, or
/// with `exercise` a gallery lesson as shipped (from its start, without the learner's edits).
fn share_link(st: AppState, exercise: bool) {
    let mut saved = st.saved.get_untracked();
    let shipped = saved.lesson.as_deref().and_then(crate::lessons::find).filter(|_| exercise);
    spawn_local(async move {
        if let Some(l) = shipped {
            match storage::lesson_text(l).await {
                Ok(text) => {
                    saved = Saved {
                        seed: saved.seed,
                        ..Saved::from_lesson(l, &text)
                    }
                }
                Err(why) => {
                    st.flash(why);
                    return;
                }
            }
        }
        let Some(payload) = storage::encode(&saved).await else {
            st.flash("Could not encode the scenario");
            return;
        };
        let mut state = crate::shell::address::link_state(st, Some(payload));
        if shipped.is_some() {
            (state.cycle, state.phase) = (None, None);
        }
        let url = storage::share_url(&state, None);
        let copied = url.len() <= LONG_LINK && copy(&url).await;
        st.set_share.set(Some(url));
        if copied {
            st.flash("Link copied");
        }
    });
}

/// Copies text to the clipboard; false when the browser refuses.
async fn copy(text: &str) -> bool {
    let clip = window().navigator().clipboard();
    wasm_bindgen_futures::JsFuture::from(clip.write_text(text)).await.is_ok()
}
