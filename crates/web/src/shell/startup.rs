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

/// The scenario the page opens with, before any link is read: `?preset=<id>` or `?lesson=<id>`
/// (a docs page can link straight to one) over the autosaved one (never read when embedded)
/// over the tour. `autosaved` is the visitor's own. Their texts are downloaded: the one returned
/// is opened by `read_address`, before the link and before anything runs.
pub fn apply_preset(st: AppState, autosaved: Option<&Saved>) -> Option<Download> {
    let (shipped, id) = if let Some(id) = storage::query_param("lesson") {
        (crate::lessons::find(&id).map(Shipped::Lesson), id)
    } else {
        let id = storage::query_param("preset")?;
        (scenario::preset(&id).map(Shipped::Preset), id)
    };
    let Some(shipped) = shipped else {
        // A name that is none: said, rather than silently showing something else.
        let said = if storage::query_param("lesson").is_some() {
            let ids: Vec<&str> = crate::lessons::GALLERY.iter().map(|l| l.id).collect();
            format!("There is no lesson named “{id}” (the lessons are {}).", ids.join(", "))
        } else {
            let ids: Vec<&str> = scenario::PRESETS.iter().map(|p| p.id).collect();
            format!(
                "There is no preset named “{id}” (the presets are {}). {}",
                ids.join(", "),
                instead(st, autosaved.is_some())
            )
        };
        st.set_notice.set(Some(said));
        return None;
    };
    if !st.embed {
        storage::clear_query();
    }
    Some(Download {
        shipped,
        autosaved: autosaved.cloned(),
    })
}

/// What is on screen when the address's preset is not.
fn instead(st: AppState, autosaved: bool) -> &'static str {
    if st.embed {
        "Nothing from it is shown."
    } else if autosaved {
        "You are seeing your own saved scenario instead."
    } else {
        "You are seeing the tour instead."
    }
}

/// A preset or a gallery lesson, shipped with the site.
enum Shipped {
    Preset(&'static scenario::Preset),
    Lesson(&'static crate::lessons::GalleryLesson),
}

/// The address's preset or lesson, to open once its text is downloaded.
pub struct Download {
    shipped: Shipped,
    /// The autosaved scenario: when it is the preset, or the lesson (the learner's own edits of
    /// it are kept), it is not opened anew.
    autosaved: Option<Saved>,
}

impl Download {
    async fn open(self, st: AppState) {
        let autosaved = self.autosaved.as_ref();
        let opened = match self.shipped {
            Shipped::Preset(p) => storage::preset_text(p).await.map(|text| {
                let p = Saved::from_preset(p, &text);
                autosaved.is_none_or(|a| a.parts != p.parts).then_some(p)
            }),
            Shipped::Lesson(l) => storage::lesson_text(l).await.map(|text| {
                let shipped = Saved::from_lesson(l, &text);
                autosaved.is_none_or(|a| a.lesson.as_deref() != Some(l.id)).then_some(shipped)
            }),
        };
        match opened {
            Ok(Some(saved)) => {
                let _ = st.replace_scenario(saved);
            }
            Ok(None) => {}
            Err(why) => st.set_notice.set(Some(format!("{why}. {}", instead(st, autosaved.is_some())))),
        }
    }
}

/// Reads the address's playhead and share link. A link's scenario replaces the autosaved one
/// (which is kept as "my scenario"), and its view (editor tab, lower panel, playhead) is
/// restored. Returns where the first run opens and a signal that holds true until the
/// address's preset or lesson (`preset`, once downloaded) and the link's scenario are read: nothing runs
/// before, so the visitor's own scenario does not flash by.
pub fn read_address(st: AppState, autosaved: bool, preset: Option<Download>) -> (StartUp, ReadSignal<bool>) {
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
            None
        }
        Ok(ls) => ls,
    };
    if let Some(ls) = &ls {
        if let Some(tab) = ls.tab.as_deref().and_then(Part::from_id) {
            st.set_tab.set(tab);
        }
        if let Some(v) = ls.view.as_deref().and_then(LowerTab::from_id) {
            st.set_lower.set(v);
        }
        start.link = ls.cycle.map(|c| (c, ls.phase.as_deref().and_then(Stage::from_label)));
    }
    // This tab's own address from before a reload: the autosave is at least as new (the
    // address is updated after a debounce), so it wins. Own means any of the last few this tab
    // wrote, not only the last: a reload can load the address as it was just before the last
    // write. (An embed has no autosave: its address is all it has.)
    let own = ls
        .as_ref()
        .and_then(|ls| ls.payload.as_deref())
        .is_some_and(|payload| !embed && autosaved && storage::is_own_address_payload(payload));
    match preset {
        None => open_link(st, ls, own, set_link_pending),
        Some(preset) => {
            set_link_pending.set(true);
            spawn_local(async move {
                preset.open(st).await;
                open_link(st, ls, own, set_link_pending);
            });
        }
    }
    (start, link_pending)
}

/// Opens the link's scenario (none when `own`) and settings; `set_pending` is set false once
/// they are read.
fn open_link(st: AppState, ls: Option<link::LinkState>, own: bool, set_pending: WriteSignal<bool>) {
    let embed = st.embed;
    let Some(ls) = ls else {
        set_pending.set(false);
        return;
    };
    let ctl = ls.controllers;
    let Some(payload) = ls.payload else {
        if let Some(on) = ctl {
            st.set_saved.update(|s| s.controllers = on);
        }
        set_pending.set(false);
        return;
    };
    set_pending.set(true);
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
        set_pending.set(false);
    });
}

/// What a visitor is shown instead of a link's scenario that cannot be read.
fn own_words(embed: bool) -> &'static str {
    if embed {
        "Nothing from it is shown."
    } else {
        "You are seeing your own saved scenario instead."
    }
}
