//! The app's state: signals split into read and write halves, shared through context.

use crate::bridge::{Bridge, BridgeHandle};
use crate::lessons::{AllProgress, Progress};
use crate::player::Player;
pub use crate::player::{Busy, CellRef, Issue};
use crate::scenario::{Part, Saved};
pub use crate::theme::Theme;
use leptos::prelude::*;
use schedlab_view::lesson::LessonRun;
use schedlab_view::view::{Explanation, Frame, Stage, Summary};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LowerTab {
    Cycle,
    Events,
    Profiles,
    /// DRA: the ResourceClaims (shown when the scenario has DRA objects).
    Claims,
}

impl LowerTab {
    pub const ALL: [LowerTab; 4] = [LowerTab::Cycle, LowerTab::Events, LowerTab::Profiles, LowerTab::Claims];

    /// Its name in links.
    pub fn id(self) -> &'static str {
        match self {
            LowerTab::Cycle => "cycle",
            LowerTab::Events => "events",
            LowerTab::Profiles => "profiles",
            LowerTab::Claims => "claims",
        }
    }

    pub fn from_id(s: &str) -> Option<LowerTab> {
        LowerTab::ALL.into_iter().find(|t| t.id() == s)
    }
}

/// What the actions menu is open on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuTarget {
    Node(u32),
    Pod(u32),
}

/// The open actions menu: its target and where (viewport px: left, top).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Menu {
    pub target: MenuTarget,
    pub x: f64,
    pub y: f64,
}

/// Playback speeds: milliseconds per stop.
pub const SPEEDS: [(u8, &str, u32); 4] = [(1, "1×", 1100), (2, "2×", 550), (3, "4×", 220), (4, "16×", 60)];

pub fn speed_ms(speed: u8) -> u32 {
    SPEEDS.iter().find(|s| s.0 == speed).map(|s| s.2).unwrap_or(550)
}

#[derive(Clone, Copy)]
pub struct AppState {
    pub saved: ReadSignal<Saved>,
    pub set_saved: WriteSignal<Saved>,
    pub tab: ReadSignal<Part>,
    pub set_tab: WriteSignal<Part>,
    pub issues: ReadSignal<Vec<Issue>>,
    pub set_issues: WriteSignal<Vec<Issue>>,
    /// The last good run.
    pub summary: ReadSignal<Option<Arc<Summary>>>,
    pub set_summary: WriteSignal<Option<Arc<Summary>>>,
    pub run: ReadSignal<u64>,
    pub set_run: WriteSignal<u64>,
    /// The frame on screen (it may lag `stop` while the worker answers).
    pub frame: ReadSignal<Option<Arc<Frame>>>,
    pub set_frame: WriteSignal<Option<Arc<Frame>>>,
    /// The playhead.
    pub stop: ReadSignal<u32>,
    pub set_stop: WriteSignal<u32>,
    pub playing: ReadSignal<bool>,
    pub set_playing: WriteSignal<bool>,
    pub speed: ReadSignal<u8>,
    pub set_speed: WriteSignal<u8>,
    pub cell: ReadSignal<Option<CellRef>>,
    pub set_cell: WriteSignal<Option<CellRef>>,
    /// Where the clicked cell is, relative to the lower panel: (left, top, bottom) in px.
    pub anchor: ReadSignal<Option<(f64, f64, f64)>>,
    pub set_anchor: WriteSignal<Option<(f64, f64, f64)>>,
    pub explanation: ReadSignal<Option<Explanation>>,
    pub set_explanation: WriteSignal<Option<Explanation>>,
    /// The clicked cell's explanation could not be computed (the engine stopped while
    /// answering): the report a user can copy into a bug report (`crate::recovery`).
    pub explain_failed: ReadSignal<Option<String>>,
    pub set_explain_failed: WriteSignal<Option<String>>,
    pub theme: ReadSignal<Theme>,
    pub set_theme: WriteSignal<Theme>,
    pub busy: ReadSignal<Busy>,
    pub set_busy: WriteSignal<Busy>,
    pub lower: ReadSignal<LowerTab>,
    pub set_lower: WriteSignal<LowerTab>,
    /// A transient message (e.g. "link copied").
    pub toast: ReadSignal<Option<String>>,
    pub set_toast: WriteSignal<Option<String>>,
    /// Nodes to highlight in the cluster (hovering a FailedScheduling reason).
    pub highlight: ReadSignal<Vec<u32>>,
    pub set_highlight: WriteSignal<Vec<u32>>,
    pub show_help: ReadSignal<bool>,
    pub set_show_help: WriteSignal<bool>,
    pub show_generate: ReadSignal<bool>,
    pub set_show_generate: WriteSignal<bool>,
    /// Wall-clock time of the last run in the worker (ms).
    pub run_ms: ReadSignal<f64>,
    pub set_run_ms: WriteSignal<f64>,
    /// Whether the editor tabs have been filled (the editor exists).
    pub editor_ready: ReadSignal<bool>,
    pub set_editor_ready: WriteSignal<bool>,
    /// Bumped when the scenario is replaced from outside the editor (preset, share link,
    /// generated cluster): the editor reloads its documents.
    pub docs_version: ReadSignal<u64>,
    pub set_docs_version: WriteSignal<u64>,
    /// The next successful load starts playing from the beginning (a new scenario) instead of
    /// keeping the playhead (an edit).
    pub fresh: ReadSignal<bool>,
    pub set_fresh: WriteSignal<bool>,
    /// The user's recent scenarios, kept aside when a preset, an import, a file or a link
    /// replaced them (newest first, `crate::recent`).
    pub recent: ReadSignal<Vec<crate::recent::Kept>>,
    pub set_recent: WriteSignal<Vec<crate::recent::Kept>>,
    /// Another tab changed the autosaved scenario: this tab asks before writing over it.
    pub conflict: ReadSignal<bool>,
    pub set_conflict: WriteSignal<bool>,
    /// A message that stays until dismissed (a link that could not be read).
    pub notice: ReadSignal<Option<String>>,
    pub set_notice: WriteSignal<Option<String>>,
    /// The engine has not answered for a while (seconds), or has stopped.
    pub engine_note: ReadSignal<Option<String>>,
    pub set_engine_note: WriteSignal<Option<String>>,
    /// The titles of the Timeline tab's steps (`verb Kind/name`), read by the worker from the
    /// text of the scenario last sent to run (answered before that run).
    pub step_titles: ReadSignal<Vec<String>>,
    pub set_step_titles: WriteSignal<Vec<String>>,
    /// The link Share made, shown in its popover until closed (Esc, ×, or another dialog).
    pub share: ReadSignal<Option<String>>,
    pub set_share: WriteSignal<Option<String>>,
    /// The actions menu of a node or pod (its actions become timeline steps).
    pub menu: ReadSignal<Option<Menu>>,
    pub set_menu: WriteSignal<Option<Menu>>,
    /// The scenario's Lesson and its goals' verdicts on the run on screen (from the worker).
    pub lesson: ReadSignal<Option<Arc<LessonRun>>>,
    pub set_lesson: WriteSignal<Option<Arc<LessonRun>>>,
    /// The lesson's exercise on screen (index).
    pub exercise: ReadSignal<usize>,
    pub set_exercise: WriteSignal<usize>,
    /// The learner's progress in every lesson (kept in localStorage: `crate::storage`).
    pub progress: ReadSignal<AllProgress>,
    pub set_progress: WriteSignal<AllProgress>,
    /// The lesson list (the gallery) is open.
    pub show_lessons: ReadSignal<bool>,
    pub set_show_lessons: WriteSignal<bool>,
    /// Embedded in another page: no editor, no autosave.
    pub embed: bool,
    /// Embedded: the options from the address (`crate::embed`).
    pub embed_opts: Option<crate::embed::EmbedOptions>,
    /// The playback (`crate::player`): the signals above that show it are written only by
    /// `crate::playback`, from it.
    pub player: StoredValue<Player, LocalStorage>,
    /// The engine worker (`crate::bridge`).
    pub bridge: BridgeHandle,
}

impl AppState {
    pub fn new(saved: Saved, theme: Theme, recent: Vec<crate::recent::Kept>, embed: bool) -> AppState {
        let (saved, set_saved) = signal(saved);
        let (tab, set_tab) = signal(Part::Pods);
        let (issues, set_issues) = signal(Vec::new());
        let (summary, set_summary) = signal(None);
        let (run, set_run) = signal(0u64);
        let (frame, set_frame) = signal(None);
        let (stop, set_stop) = signal(0u32);
        let (playing, set_playing) = signal(false);
        let (speed, set_speed) = signal(2u8);
        let (cell, set_cell) = signal(None);
        let (anchor, set_anchor) = signal(None);
        let (explanation, set_explanation) = signal(None);
        let (explain_failed, set_explain_failed) = signal(None);
        let (theme, set_theme) = signal(theme);
        let (busy, set_busy) = signal(Busy::Idle);
        let (lower, set_lower) = signal(LowerTab::Cycle);
        let (toast, set_toast) = signal(None);
        let (show_help, set_show_help) = signal(false);
        let (highlight, set_highlight) = signal(Vec::new());
        let (show_generate, set_show_generate) = signal(false);
        let (run_ms, set_run_ms) = signal(0.0);
        let (editor_ready, set_editor_ready) = signal(false);
        let (docs_version, set_docs_version) = signal(0u64);
        let (fresh, set_fresh) = signal(true);
        let (recent, set_recent) = signal(recent);
        let (conflict, set_conflict) = signal(false);
        let (notice, set_notice) = signal(None);
        let (engine_note, set_engine_note) = signal(None);
        let (step_titles, set_step_titles) = signal(Vec::new());
        let (menu, set_menu) = signal(None);
        let (share, set_share) = signal(None);
        let (lesson, set_lesson) = signal(None);
        let (exercise, set_exercise) = signal(0usize);
        let (progress, set_progress) = signal(if embed {
            AllProgress::new()
        } else {
            crate::storage::load_progress()
        });
        let (show_lessons, set_show_lessons) = signal(false);
        AppState {
            lesson,
            set_lesson,
            exercise,
            set_exercise,
            progress,
            set_progress,
            show_lessons,
            set_show_lessons,
            share,
            set_share,
            menu,
            set_menu,
            conflict,
            set_conflict,
            notice,
            set_notice,
            engine_note,
            set_engine_note,
            step_titles,
            set_step_titles,
            saved,
            set_saved,
            tab,
            set_tab,
            issues,
            set_issues,
            summary,
            set_summary,
            run,
            set_run,
            frame,
            set_frame,
            stop,
            set_stop,
            playing,
            set_playing,
            speed,
            set_speed,
            cell,
            set_cell,
            anchor,
            set_anchor,
            explanation,
            set_explanation,
            explain_failed,
            set_explain_failed,
            theme,
            set_theme,
            busy,
            set_busy,
            lower,
            set_lower,
            toast,
            set_toast,
            show_help,
            set_show_help,
            highlight,
            set_highlight,
            show_generate,
            set_show_generate,
            run_ms,
            set_run_ms,
            editor_ready,
            set_editor_ready,
            docs_version,
            set_docs_version,
            fresh,
            set_fresh,
            recent,
            set_recent,
            embed,
            embed_opts: None,
            player: StoredValue::new_local(Player::new(embed)),
            bridge: StoredValue::new_local(Bridge::default()),
        }
    }

    /// Replaces the whole scenario (preset, import, file, share link, generated cluster).
    ///
    /// A scenario the user wrote or edited is never dropped: it joins the recent scenarios
    /// (in storage, the last `recent::MAX`), which the preset list offers back. Returns the
    /// sentence that says where it went (also shown as the toast), if it was kept.
    pub fn replace_scenario(&self, saved: Saved) -> Option<String> {
        let current = self.saved.get_untracked();
        let mut told = None;
        if current.is_custom() && (current.parts != saved.parts || current.generated != saved.generated) && !self.embed {
            told = Some(self.keep_aside(&current));
        }
        self.set_fresh.set(true);
        self.set_issues.set(Vec::new());
        self.set_saved.set(saved);
        self.set_docs_version.update(|v| *v += 1);
        if let Some(t) = &told {
            self.flash(t.clone());
        }
        told
    }

    /// Keeps `saved` among the recent scenarios (storage, and this tab's list when the browser
    /// refuses); the sentence that says where it went.
    pub fn keep_aside(&self, saved: &Saved) -> String {
        let (list, keeping, stored) = crate::storage::keep_recent(saved);
        let list = if stored {
            list
        } else {
            crate::recent::keep(self.recent.get_untracked(), saved, js_sys::Date::now()).0
        };
        let told = crate::recent::told(&list[0], &keeping, stored);
        self.set_recent.set(list);
        told
    }

    /// Brings back the recent scenario `i` (the current one is kept in its turn if it is the
    /// user's own).
    pub fn restore_recent(&self, i: usize) {
        let Some(k) = self.recent.with_untracked(|l| l.get(i).cloned()) else {
            return;
        };
        let told = self.replace_scenario(k.saved);
        self.flash(match told {
            Some(t) => format!("“{}” is back. {t}", k.name),
            None => format!("“{}” is back", k.name),
        });
    }

    /// Number of stops of the current run.
    pub fn stops(&self) -> u32 {
        self.summary.with(|s| s.as_ref().map(|s| s.stops).unwrap_or(0))
    }

    /// The cycle (1-based) a stop belongs to, from the summary; 0 before the first.
    pub fn cycle_of(&self, stop: u32) -> u32 {
        self.summary.with(|s| match s {
            Some(s) => s.cycle_first_stop.partition_point(|&f| f <= stop) as u32,
            None => 0,
        })
    }

    /// The playhead as a cycle (0 before the first) and the phase of its stop.
    pub fn playhead(&self) -> (u32, Stage) {
        let stop = self.stop.get_untracked();
        self.summary.with_untracked(|s| match s {
            Some(s) => (s.cycle_of(stop), s.stop_stage(stop).unwrap_or(Stage::Ready)),
            None => (0, Stage::Ready),
        })
    }

    pub fn pod_name(&self, pod: u32) -> String {
        self.summary.with_untracked(|s| {
            s.as_ref()
                .and_then(|s| s.model.pods.get(pod as usize))
                .map(|p| p.name.clone())
                .unwrap_or_else(|| format!("pod #{pod}"))
        })
    }

    /// A plugin's short column header, as the engine's registry gives it (the name itself
    /// for a plugin it does not label).
    pub fn plugin_short(&self, plugin: &str) -> String {
        self.summary.with_untracked(|s| {
            s.as_ref()
                .and_then(|s| s.model.plugin_labels.iter().find(|(n, _)| n == plugin))
                .map(|(_, short)| short.clone())
                .unwrap_or_else(|| plugin.to_string())
        })
    }

    pub fn node_name(&self, node: u32) -> String {
        self.summary.with_untracked(|s| {
            s.as_ref()
                .and_then(|s| s.model.nodes.get(node as usize))
                .map(|n| n.name.clone())
                .unwrap_or_else(|| format!("node #{node}"))
        })
    }

    /// The key of the lesson on screen's progress (`crate::lessons::key`).
    pub fn lesson_key(&self) -> Option<String> {
        let title = self.lesson.with_untracked(|l| l.as_ref().map(|l| l.info.title.clone()))?;
        // The gallery's id only while the text still holds that lesson (not another pasted in).
        let id = self
            .saved
            .with_untracked(|s| s.lesson.as_deref().and_then(crate::lessons::find))
            .filter(|l| l.title == title)
            .map(|l| l.id);
        Some(crate::lessons::key(id, &title))
    }

    /// Changes the lesson on screen's progress and keeps it (never inside an embed).
    pub fn update_progress(&self, f: impl FnOnce(&mut Progress)) {
        let Some(key) = self.lesson_key() else { return };
        self.set_progress.update(|all| f(all.entry(key).or_default()));
        if !self.embed {
            self.progress.with_untracked(crate::storage::save_progress);
        }
    }

    /// Closes what floats over the page without a backdrop (the Share popover, the actions
    /// menu): called by everything that opens a dialog, so two never show at once.
    pub fn close_popovers(&self) {
        if self.share.with_untracked(Option::is_some) {
            self.set_share.set(None);
        }
        if self.menu.with_untracked(Option::is_some) {
            self.set_menu.set(None);
        }
    }

    /// Opens the help dialog (closing any popover).
    pub fn open_help(&self) {
        self.close_popovers();
        self.set_show_help.set(true);
    }

    /// Opens the actions menu on `target` below the element of the event.
    pub fn open_menu(&self, target: MenuTarget, ev: &web_sys::MouseEvent) {
        use wasm_bindgen::JsCast;
        ev.stop_propagation();
        let (x, y) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|el| {
                let r = el.get_bounding_client_rect();
                (r.left(), r.bottom() + 4.0)
            })
            .unwrap_or((ev.client_x() as f64, ev.client_y() as f64));
        let same = self.menu.with_untracked(|m| m.is_some_and(|m| m.target == target));
        if self.share.with_untracked(Option::is_some) {
            self.set_share.set(None);
        }
        self.set_menu.set((!same).then_some(Menu { target, x, y }));
    }

    /// Shows a transient message (never inside an embed: the host page did not ask for it).
    pub fn flash(&self, msg: impl Into<String>) {
        if self.embed {
            return;
        }
        let msg = msg.into();
        self.set_toast.set(Some(msg.clone()));
        let set = self.set_toast;
        let toast = self.toast;
        set_timeout(
            move || {
                if toast.get_untracked().as_deref() == Some(msg.as_str()) {
                    set.set(None);
                }
            },
            std::time::Duration::from_millis(2500),
        );
    }
}

pub fn use_app() -> AppState {
    expect_context::<AppState>()
}
