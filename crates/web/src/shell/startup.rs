//! What the page's address asks for when it opens: an embed's options, `?preset=`, `?lesson=`, `?cycle=`,
//! and a share link (`#…`) with its scenario, view and playhead.

use crate::embed::{self, EmbedOptions};
use crate::link;
use crate::player::StartUp;
use crate::scenario::{self, Part, Saved};
use crate::state::{AppState, LowerTab};
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use schedlab_view::view::Stage;

/// The address's options when embedded (`crate::embed`).
pub fn embed_options(embed: bool) -> Option<EmbedOptions> {
    let search = window().location().search().unwrap_or_default();
    embed.then(|| EmbedOptions::from_query(&search))
}

/// The scenario the page opens with, before any link is read: `?preset=<id>` (a docs page can
/// link straight to one) over the autosaved one (never read when embedded) over the tour.
/// `autosaved` is the visitor's own.
pub fn apply_preset(st: AppState, autosaved: Option<&Saved>) {
    if let Some(id) = storage::query_param("lesson") {
        return apply_lesson(st, autosaved, &id);
    }
    let Some(id) = storage::query_param("preset") else { return };
    match scenario::preset(&id).map(Saved::from_preset) {
        Some(p) => {
            if autosaved.is_none_or(|a| a.parts != p.parts) {
                let _ = st.replace_scenario(p);
            }
            if !st.embed {
                storage::clear_query();
            }
        }
        None => {
            // A preset name that is none: said, rather than silently showing something else.
            let ids: Vec<&str> = scenario::PRESETS.iter().map(|p| p.id).collect();
            let shown = if st.embed {
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
    }
}

/// `?lesson=<id>`: a gallery lesson (the learner's own edits of it, when the autosave holds
/// them, are kept).
fn apply_lesson(st: AppState, autosaved: Option<&Saved>, id: &str) {
    match crate::lessons::find(id) {
        Some(l) => {
            if autosaved.is_none_or(|a| a.lesson.as_deref() != Some(l.id)) {
                let _ = st.replace_scenario(Saved::from_lesson(l));
            }
            if !st.embed {
                storage::clear_query();
            }
        }
        None => {
            let ids: Vec<&str> = crate::lessons::GALLERY.iter().map(|l| l.id).collect();
            st.set_notice.set(Some(format!(
                "There is no lesson named “{id}” (the lessons are {}).",
                ids.join(", ")
            )));
        }
    }
}

/// Reads the address's playhead and share link. A link's scenario replaces the autosaved one
/// (which is kept as "my scenario"), and its view (editor tab, lower panel, playhead) is
/// restored. Returns where the first run opens and a signal that holds true until the link's
/// scenario is read: nothing runs before, so the visitor's own scenario does not flash by.
pub fn read_address(st: AppState, autosaved: bool) -> (StartUp, ReadSignal<bool>) {
    let embed = st.embed;
    let search = window().location().search().unwrap_or_default();
    let mut start = StartUp {
        // `?cycle=N&phase=Filter`: the first run opens there.
        at: embed::start_from_query(&search),
        // A comparison in an embed plays its two runs itself (components/embed_compare.rs).
        embed: st
            .embed_opts
            .map(|o| o.autoplay && !embed::reduced_motion() && !embed::query_pairs(&search).iter().any(|(k, _)| k == "compare")),
        link: None,
    };
    if let Some(o) = st.embed_opts {
        st.set_speed.set(o.speed);
    }
    if !embed && start.at.is_some() {
        storage::clear_query();
    }
    let (link_pending, set_link_pending) = signal(false);
    let ls = match link::parse(&storage::hash()) {
        Err(e) => {
            st.set_notice
                .set(Some(format!("This link could not be read: {e}. {}", own_words(embed))));
            return (start, link_pending);
        }
        Ok(None) => return (start, link_pending),
        Ok(Some(ls)) => ls,
    };
    if let Some(tab) = ls.tab.as_deref().and_then(Part::from_id) {
        st.set_tab.set(tab);
    }
    if let Some(v) = ls.view.as_deref().and_then(LowerTab::from_id) {
        st.set_lower.set(v);
    }
    start.link = ls.cycle.map(|c| (c, ls.phase.as_deref().and_then(Stage::from_label)));
    let ctl = ls.controllers;
    let Some(payload) = ls.payload else {
        if let Some(on) = ctl {
            st.set_saved.update(|s| s.controllers = on);
        }
        return (start, link_pending);
    };
    set_link_pending.set(true);
    // This tab's own address from before a reload: the autosave is at least as new (the
    // address is updated after a debounce), so it wins. (An embed has no autosave: its
    // address is all it has.)
    let own = !embed && autosaved && storage::own_address_payload().as_deref() == Some(payload.as_str());
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
    (start, link_pending)
}

/// What a visitor is shown instead of a link's scenario that cannot be read.
fn own_words(embed: bool) -> &'static str {
    if embed {
        "Nothing from it is shown."
    } else {
        "You are seeing your own saved scenario instead."
    }
}
