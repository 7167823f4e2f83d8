//! The app shell: state, the worker bridge, the effects that talk to the outside world
//! (worker requests, autosave, theme, keyboard, playback clock), and the layout.

use crate::bridge::{self, BridgeHandle};
use crate::components::embed_shell::EmbedShell;
use crate::components::{
    action_menu::ActionMenu, cluster::ClusterView, cycle::LowerPanel, editor::Editor, explain_panel::ExplainPanel,
    generate_dialog::GenerateDialog, help::HelpDialog, notices::Notices, queue::QueuePanel, splitter::Splitter, topbar::TopBar,
    transport::Transport,
};
use crate::editor_js::TabbedEditor;
use crate::embed::{self, EmbedOptions};
use crate::link;
use crate::scenario::{self, Part, Saved};
use crate::state::{speed_ms, AppState, LowerTab, Theme};
use crate::storage;
use leptos::ev;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::time::Duration;

/// How long after the last change the scenario is autosaved.
const SAVE_DELAY: Duration = Duration::from_millis(100);

/// The CodeMirror editor, once created (shared so that keyboard shortcuts can focus it).
pub type EditorHandle = StoredValue<Option<TabbedEditor>, LocalStorage>;

fn initial_theme() -> Theme {
    match storage::load_theme().as_deref() {
        Some("dark") => Theme::Dark,
        Some("light") => Theme::Light,
        _ => {
            let dark = web_sys::window()
                .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
                .map(|m| m.matches())
                .unwrap_or(false);
            if dark {
                Theme::Dark
            } else {
                Theme::Light
            }
        }
    }
}

fn default_saved() -> Saved {
    Saved::from_preset(scenario::preset(scenario::DEFAULT_PRESET).expect("the default preset exists"))
}

#[component]
pub fn App() -> impl IntoView {
    let embed = storage::embed_mode();
    // `?preset=<id>` opens a preset (a docs page can link straight to one); an embedded page
    // never reads or writes the visitor's autosaved scenario.
    let asked_id = storage::query_param("preset");
    let asked = asked_id.as_deref().and_then(scenario::preset).map(Saved::from_preset);
    let asked_found = asked.is_some();
    let autosaved = if embed { None } else { storage::load_saved() };
    let recent = if embed { Vec::new() } else { storage::load_recent() };
    // Embedded: the author's options from the address (`crate::embed`).
    let search = window().location().search().unwrap_or_default();
    let embed_opts = embed.then(|| EmbedOptions::from_query(&search));
    let theme = embed_opts.and_then(|o| o.theme).unwrap_or_else(initial_theme);
    let mut st = AppState::new(autosaved.clone().unwrap_or_else(default_saved), theme, recent, embed);
    st.embed_opts = embed_opts;
    // `?cycle=N&phase=Filter`: the first run opens there.
    st.start_at.set_value(embed::start_from_query(&search));
    if let Some(p) = asked {
        if autosaved.as_ref().is_none_or(|a| a.parts != p.parts) {
            let _ = st.replace_scenario(p);
        }
        if !embed {
            storage::clear_query();
        }
    }
    if !embed && st.start_at.get_value().is_some() {
        storage::clear_query();
    }
    provide_context(st);
    if embed {
        embed::install(st);
    }
    let editor: EditorHandle = StoredValue::new_local(None);
    provide_context(editor);
    let bridge: BridgeHandle = bridge::start(st);
    provide_context(bridge);

    // A link's state: its scenario replaces the autosaved one (which is kept as "my scenario"),
    // and its view (editor tab, lower panel, playhead) is restored. Nothing runs until the
    // link's scenario is read, so the visitor's own scenario does not flash by first.
    let (link_pending, set_link_pending) = signal(false);
    // A preset name that is none: said, rather than silently showing something else.
    if let (Some(id), false) = (&asked_id, asked_found) {
        let ids: Vec<&str> = scenario::PRESETS.iter().map(|p| p.id).collect();
        let shown = if embed {
            "Nothing from it is shown."
        } else if autosaved.is_some() {
            "You are seeing your own saved scenario instead."
        } else {
            "You are seeing the tour instead."
        };
        st.set_notice.set(Some(format!(
            "There is no preset named “{id}” (the presets are {}). {shown}",
            ids.join(", ")
        )));
    }
    match link::parse(&storage::hash()) {
        Err(e) => st
            .set_notice
            .set(Some(format!("This link could not be read: {e}. {}", own_words(embed)))),
        Ok(None) => {}
        Ok(Some(ls)) => {
            if let Some(tab) = ls.tab.as_deref().and_then(Part::from_id) {
                st.set_tab.set(tab);
            }
            if let Some(v) = ls.view.as_deref().and_then(LowerTab::from_id) {
                st.set_lower.set(v);
            }
            if let Some(c) = ls.cycle {
                bridge.update_value(|b| b.seek_after_load = Some((c, ls.phase.clone())));
            }
            let ctl = ls.controllers;
            if let (Some(on), None) = (ctl, &ls.payload) {
                st.set_saved.update(|s| s.controllers = on);
            }
            if let Some(payload) = ls.payload {
                set_link_pending.set(true);
                // This tab's own address from before a reload: the autosave is at least as new
                // (the address is updated after a debounce), so it wins.
                // (An embed has no autosave: its address is all it has.)
                let own = !embed && autosaved.is_some() && storage::own_address_payload().as_deref() == Some(payload.as_str());
                spawn_local(async move {
                    match storage::decode(&payload).await {
                        Ok(_) if own => {}
                        Ok(mut saved) => {
                            if let Some(on) = ctl {
                                saved.controllers = on;
                            }
                            if st.saved.with_untracked(|s| *s != saved) {
                                let told = st.replace_scenario(saved);
                                if !embed {
                                    st.flash(match told {
                                        Some(t) => format!("Opened the scenario from the link. {t}"),
                                        None => "Opened the scenario from the link".into(),
                                    });
                                }
                            }
                        }
                        Err(why) => st
                            .set_notice
                            .set(Some(format!("This link could not be read: {why}. {}", own_words(embed)))),
                    }
                    set_link_pending.set(false);
                });
            }
        }
    }

    // Run the scenario whenever it changes (edits are debounced by the editor).
    Effect::new(move |_| {
        let saved = st.saved.get();
        if link_pending.get() {
            return;
        }
        let fresh = st.fresh.get_untracked();
        bridge.update_value(|b| b.keep_playhead = !fresh);
        bridge::load(bridge, st, saved);
    });

    // A new run: a fresh scenario starts playing from the beginning; a large one opens at its
    // end (the heatmap of the final placement), paused.
    Effect::new(move |prev: Option<u64>| {
        let run = st.run.get();
        if (prev.is_some_and(|p| p != run) || (prev.is_none() && run > 0)) && st.fresh.get_untracked() {
            st.set_fresh.set(false);
            let large = st.summary.with_untracked(|s| s.as_ref().is_some_and(|s| s.model.large));
            if large {
                st.set_playing.set(false);
                st.seek(st.stops().saturating_sub(1));
            } else if let Some(o) = st.embed_opts {
                embed::start(&st, &o);
            } else if let Some((cycle, phase)) = st.start_at.try_update_value(Option::take).flatten() {
                // A link to a cycle and phase: open there, paused.
                st.set_playing.set(false);
                st.seek_to(cycle, phase);
            } else {
                st.set_playing.set(true);
            }
        }
        run
    });

    // Autosave (not when embedded: a docs page must not overwrite the visitor's own work), in a
    // task of its own SAVE_DELAY after the last change: serializing and storing a large scenario
    // (megabytes of YAML) then never lengthens the task that handles a keystroke. A save never
    // writes over another tab's newer one: the user is asked instead.
    let save_pending = StoredValue::new_local(None::<TimeoutHandle>);
    // `data-saving` on the document element says a save is waiting (tests wait for it to clear
    // before reading storage).
    let mark_saving = |on: bool| {
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-saving", if on { "true" } else { "false" });
        }
    };
    let save_conflicting = move || {
        if !st.conflict.get_untracked() && st.saved.with_untracked(|s| storage::save(s, false)) == storage::SaveOutcome::Conflict {
            st.set_conflict.set(true);
        }
    };
    Effect::new(move |_| {
        st.saved.track();
        st.conflict.track();
        if embed {
            return;
        }
        if let Some(h) = save_pending.try_update_value(Option::take).flatten() {
            h.clear();
        }
        let h = set_timeout_with_handle(
            move || {
                save_pending.set_value(None);
                save_conflicting();
                mark_saving(false);
            },
            SAVE_DELAY,
        );
        mark_saving(h.is_ok());
        save_pending.set_value(h.ok());
    });
    if !embed {
        // Another tab saved: ask (keep mine / load theirs).
        let _ = window_event_listener(ev::storage, move |e: web_sys::StorageEvent| {
            if st.saved.with_untracked(|ours| storage::changed_elsewhere(e.key(), ours)) {
                st.set_conflict.set(true);
            }
        });
        // Leaving or hiding the page: the editor's pending change is saved now, not after its
        // debounce (a reload right after typing keeps the edit).
        let flush = move || {
            if let Some(h) = save_pending.try_update_value(Option::take).flatten() {
                h.clear();
                mark_saving(false);
            }
            editor.with_value(|e| {
                if let Some(e) = e {
                    e.flush()
                }
            });
            let saved = st.saved.get_untracked();
            if st.conflict.get_untracked() {
                // Unresolved: keep this tab's scenario aside rather than over the other's.
                storage::keep_recent(&saved);
            } else if storage::save(&saved, false) == storage::SaveOutcome::Conflict {
                storage::keep_recent(&saved);
                st.set_conflict.set(true);
            }
        };
        let _ = window_event_listener(ev::pagehide, move |_| flush());
        let _ = window_event_listener(ev::visibilitychange, move |_| {
            if document().visibility_state() == web_sys::VisibilityState::Hidden {
                flush()
            }
        });
    }

    // The address always holds the current state (scenario and view, debounced), so copying
    // it shares what is on screen. A scenario too large for an address is left out (a reload
    // still has it from the autosave).
    let (payload, set_payload) = signal::<Option<String>>(None);
    let encoding = StoredValue::new(0u64);
    Effect::new(move |_| {
        st.saved.track();
        if link_pending.get() {
            return;
        }
        let g = encoding.get_value() + 1;
        encoding.set_value(g);
        set_timeout(
            move || {
                if encoding.get_value() != g {
                    return;
                }
                let saved = st.saved.get_untracked();
                spawn_local(async move {
                    let p = storage::encode(&saved).await;
                    if encoding.get_value() == g {
                        set_payload.set(p);
                    }
                });
            },
            Duration::from_millis(300),
        );
    });
    let addressing = StoredValue::new(0u64);
    Effect::new(move |_| {
        let Some(p) = payload.get() else { return };
        track_link_state(st);
        let state = link_state(st, Some(p).filter(|p| p.len() <= MAX_ADDRESS_PAYLOAD));
        let g = addressing.get_value() + 1;
        addressing.set_value(g);
        set_timeout(
            move || {
                if addressing.get_value() == g {
                    // Only a full page remembers its own address (an embed has no autosave to
                    // prefer, and a tab it opens inherits this tab's session storage).
                    if !embed {
                        storage::set_own_address_payload(state.payload.as_deref());
                    }
                    let loc = window().location();
                    storage::replace_url(&format!(
                        "{}{}{}",
                        loc.pathname().unwrap_or_default(),
                        loc.search().unwrap_or_default(),
                        link::to_hash(&state)
                    ));
                }
            },
            Duration::from_millis(250),
        );
    });

    // A development build says so on the document element (the browser test that collects
    // Leptos' warnings, which only development builds log, checks it runs against one).
    if cfg!(debug_assertions) {
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-debug-build", "true");
        }
    }

    // Theme on the document element.
    Effect::new(move |_| {
        let t = st.theme.get();
        let name = if t == Theme::Dark { "dark" } else { "light" };
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-theme", name);
        }
    });

    // Ask the worker for the frame at the playhead. Large runs fetch per-node detail only when
    // paused (it costs a re-run in the worker).
    Effect::new(move |_| {
        let run = st.run.get();
        let stop = st.stop.get();
        let playing = st.playing.get();
        let detail_all = st.summary.with(|s| s.as_ref().map(|s| s.detail_all).unwrap_or(true));
        if run > 0 {
            bridge::request_frame(bridge, run, stop, !detail_all && !playing);
        }
    });

    // A bound pod flies from the queue to its node (FLIP: it is drawn in place, then animated
    // from where the queue showed it). Skipped when the user prefers reduced motion.
    Effect::new(move |_| {
        let Some((pod, _node)) = st.frame.with(|f| f.as_ref().and_then(|f| f.bound)) else {
            return;
        };
        let reduced = window()
            .match_media("(prefers-reduced-motion: reduce)")
            .ok()
            .flatten()
            .is_some_and(|m| m.matches());
        if reduced {
            return;
        }
        let name = st.pod_name(pod);
        request_animation_frame(move || fly_from_queue(&name));
    });

    // An explanation belongs to its cycle: it closes when the playhead leaves that cycle.
    Effect::new(move |_| {
        let cycle = st.frame.with(|f| f.as_ref().map(|f| f.cycle));
        if let (Some(cycle), Some(cell)) = (cycle, st.cell.get_untracked()) {
            if cell.cycle != cycle {
                st.set_cell.set(None);
                st.set_explanation.set(None);
                st.set_explain_failed.set(None);
            }
        }
    });

    // Explanations of clicked cells.
    Effect::new(move |_| {
        if let Some(c) = st.cell.get() {
            st.set_explanation.set(None);
            bridge::explain(bridge, st, st.run.get_untracked(), c.cycle, c.node, c.plugin, c.score);
        }
    });

    // The playback clock: advance one stop per period once the current frame is shown.
    let elapsed = StoredValue::new(0u32);
    const TICK: u32 = 30;
    let _ = set_interval_with_handle(
        move || {
            if !st.playing.get_untracked() {
                elapsed.set_value(0);
                return;
            }
            let e = elapsed.get_value() + TICK;
            let period = speed_ms(st.speed.get_untracked());
            let stop = st.stop.get_untracked();
            let shown = st.frame.with_untracked(|f| f.as_ref().map(|f| f.stop)) == Some(stop);
            if e >= period && shown {
                elapsed.set_value(0);
                let last = st.stops().saturating_sub(1);
                if stop >= last {
                    st.set_playing.set(false);
                } else {
                    st.set_stop.set(stop + 1);
                }
            } else {
                elapsed.set_value(e.min(period));
            }
        },
        Duration::from_millis(TICK as u64),
    );

    // A watchdog: say so when the engine has not answered for a while.
    let _ = set_interval_with_handle(
        move || {
            let now = window().performance().map(|p| p.now()).unwrap_or(0.0);
            let waiting = bridge.with_value(|b| b.waiting());
            let silent = bridge.with_value(|b| now - b.last_heard);
            let note = (waiting && silent > STALL_MS).then(|| {
                format!(
                    "The engine has not answered for {:.0} s. It may still be working on a large scenario; your edits are saved.",
                    silent / 1000.0
                )
            });
            if bridge.with_value(|b| b.dead.is_none()) && st.engine_note.with_untracked(|n| *n != note) {
                st.set_engine_note.set(note);
            }
        },
        Duration::from_millis(1000),
    );

    // Keyboard shortcuts (not while typing).
    let _ = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let typing = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .map(|el| {
                let tag = el.tag_name().to_ascii_lowercase();
                matches!(tag.as_str(), "input" | "textarea" | "select") || el.closest(".cm-editor").ok().flatten().is_some()
            })
            .unwrap_or(false);
        let key = e.key();
        if key == "Escape" {
            st.set_cell.set(None);
            st.set_show_help.set(false);
            st.set_show_generate.set(false);
            st.close_popovers();
            return;
        }
        if typing {
            return;
        }
        let mut handled = true;
        match key.as_str() {
            " " | "k" => {
                let last = st.stops().saturating_sub(1);
                if !st.playing.get_untracked() && st.stop.get_untracked() >= last {
                    st.seek(0);
                }
                st.set_playing.update(|p| *p = !*p)
            }
            "ArrowRight" if e.shift_key() => {
                st.set_playing.set(false);
                st.step_pod(true)
            }
            "ArrowLeft" if e.shift_key() => {
                st.set_playing.set(false);
                st.step_pod(false)
            }
            "ArrowRight" | "l" => {
                st.set_playing.set(false);
                st.step_phase(true)
            }
            "ArrowLeft" | "j" => {
                st.set_playing.set(false);
                st.step_phase(false)
            }
            "Home" => st.seek(0),
            "End" => st.seek(st.stops().saturating_sub(1)),
            "1" | "2" | "3" | "4" => st.set_speed.set(key.parse().unwrap_or(2)),
            "?" if st.show_help.get_untracked() => st.set_show_help.set(false),
            "?" => st.open_help(),
            "e" => editor.with_value(|ed| {
                if let Some(ed) = ed {
                    ed.focus()
                }
            }),
            _ => handled = false,
        }
        if handled {
            e.prevent_default();
        }
    });

    if let Some(opts) = embed_opts {
        return view! { <EmbedShell opts=opts/> }.into_any();
    }
    view! {
        <div class="app">
            <TopBar/>
            <Notices/>
            <main class="workspace">
                {(!embed).then(|| view! {
                    <section class="panel editor-panel" aria-label="Scenario editor">
                        <Editor/>
                    </section>
                    <Splitter/>
                })}
                <section class="panel cluster-panel" aria-label="Cluster">
                    <ClusterView/>
                </section>
                <section class="panel queue-panel" aria-label="Scheduling queue">
                    <QueuePanel/>
                </section>
                <section class="panel lower-panel" aria-label="Scheduling cycle">
                    // Made anew for each run: its tables are keyed by node and pod indices,
                    // which mean other objects in another run.
                    {move || {
                        st.run.track();
                        view! { <LowerPanel/> }
                    }}
                    <ExplainPanel/>
                </section>
            </main>
            <Transport/>
            <HelpDialog/>
            <GenerateDialog/>
            <ActionMenu/>
            <div class="toast" role="status" aria-live="polite">
                {move || st.toast.get().map(|t| view! { <span>{t}</span> })}
            </div>
        </div>
    }
    .into_any()
}

/// The largest scenario payload the address bar is given (characters).
const MAX_ADDRESS_PAYLOAD: usize = 256 * 1024;

/// What a visitor is shown instead of a link's scenario that cannot be read.
fn own_words(embed: bool) -> &'static str {
    if embed {
        "Nothing from it is shown."
    } else {
        "You are seeing your own saved scenario instead."
    }
}

/// The link state of what is on screen, with the given scenario payload. It reads the state
/// untracked (Share calls it from an event handler); an effect that must follow the view tracks
/// what it reads with `track_link_state`.
pub fn link_state(st: AppState, payload: Option<String>) -> link::LinkState {
    let stop = st.stop.get_untracked();
    let (cycle, phase) = st
        .summary
        .with_untracked(|s| s.as_ref().map(|s| s.playhead(stop)))
        .map(|(c, p)| (Some(c), p.map(|p| p.label().to_string())))
        .unwrap_or((None, None));
    link::LinkState {
        payload,
        cycle,
        phase,
        tab: (!st.embed).then(|| st.tab.get_untracked().id().to_string()),
        view: Some(st.lower.get_untracked().id().to_string()),
        controllers: Some(st.saved.with_untracked(|s| s.controllers)),
    }
}

/// Subscribes the running effect to everything `link_state` reads.
fn track_link_state(st: AppState) {
    st.stop.track();
    st.summary.track();
    st.tab.track();
    st.lower.track();
    st.saved.track();
}

/// How long the engine may stay silent on a request before the page says so.
const STALL_MS: f64 = 5000.0;

/// Animates the just-placed chip of `pod` from the queue's in-flight slot to where it is now.
fn fly_from_queue(pod: &str) {
    use wasm_bindgen::JsCast;
    let doc = document();
    let Ok(Some(src)) = doc.query_selector(".queue-panel .inflight .chip") else {
        return;
    };
    let sel = format!(".cluster-panel .chip.new[data-pod=\"{}\"]", pod.replace('"', ""));
    let Ok(Some(dst)) = doc.query_selector(&sel) else { return };
    let a = src.get_bounding_client_rect();
    let b = dst.get_bounding_client_rect();
    let (dx, dy) = (a.left() - b.left(), a.top() - b.top());
    let frame = |t: &str, o: &str| {
        let f = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&f, &"transform".into(), &t.into());
        let _ = js_sys::Reflect::set(&f, &"opacity".into(), &o.into());
        f
    };
    let frames = js_sys::Array::of2(
        &frame(&format!("translate({dx}px, {dy}px) scale(1.15)"), "0.9"),
        &frame("none", "1"),
    );
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"duration".into(), &520.into());
    let _ = js_sys::Reflect::set(&opts, &"easing".into(), &"cubic-bezier(.2,.7,.2,1)".into());
    if let Ok(f) = js_sys::Reflect::get(&dst, &"animate".into()) {
        if let Ok(f) = f.dyn_into::<js_sys::Function>() {
            let _ = f.call2(&dst, &frames, &opts);
        }
    }
}
