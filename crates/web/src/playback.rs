//! The playback's Leptos side: the app's intents go to the `Player` (`crate::player`), the
//! worker's answers too (through `crate::bridge`), and what it then shows is mirrored into
//! the app's signals; what it asks for is carried out (requests posted, issues listed, a new
//! worker started). Also the effects that feed it from the outside world: the scenario to
//! run, the playback clock, the engine watchdog, an embed's visibility.

use crate::bridge::{self, Event, Wait};
use crate::player::{CellRef, Intent, Out, Seek, StartUp};
use crate::protocol::{CrashKind, ExportFile, GenSpec, Request, Response};
use crate::state::{speed_ms, AppState};
use leptos::prelude::*;
use schedlab_view::view::Stage;
use std::rc::Rc;
use std::time::Duration;

/// How long the engine may stay silent on a request before the page says so.
const STALL_MS: f64 = 5000.0;

/// The playback clock's period (ms).
const TICK: u32 = 30;

impl AppState {
    /// Sends the player an intent and carries out what it answers.
    pub fn act(&self, intent: Intent) {
        let Some((outs, was_waiting)) = self.player.try_update_value(|p| {
            let was = p.waiting();
            (p.act(intent), was)
        }) else {
            return;
        };
        self.sync();
        self.carry_out(outs, was_waiting);
    }

    fn answer(&self, r: Response) {
        let Some(outs) = self.player.try_update_value(|p| p.answer(r)) else {
            return;
        };
        self.sync();
        self.carry_out(outs, true);
    }

    /// The worker stopped: the old one is terminated, the player says what a new one runs.
    fn lost(&self, crashed: Option<u64>, cause: String) {
        web_sys::console::warn_1(&format!("schedlab: the engine {cause}; starting a new one").into());
        // A question the worker was answering gets its error answer (never a silent wait).
        let orphans = self.bridge.try_update_value(|b| b.orphans()).unwrap_or_default();
        for (id, then) in orphans {
            let message = format!("The engine stopped while answering this (a bug in schedlab: {cause}) and was started again.");
            then(Response::Failed { id, message });
        }
        self.bridge.update_value(|b| b.terminate());
        let Some(outs) = self.player.try_update_value(|p| p.lost(crashed, &cause)) else {
            return;
        };
        self.sync();
        self.carry_out(outs, true);
    }

    /// The light worker handed a request over (it holds CEL): the full worker replaces it for
    /// the rest of the session. The player says what it runs there (the newest load, or the
    /// run on screen again); the questions the light one had not answered are asked again, of
    /// the run the full one is about to make.
    fn upgrade(&self) {
        let Some(again) = self.bridge.try_update_value(|b| b.upgrade()) else {
            return;
        };
        let Some((outs, run)) = self.player.try_update_value(|p| (p.upgrade(), p.next_run())) else {
            return;
        };
        self.sync();
        self.carry_out(outs, true);
        for req in again {
            let req = match req {
                Request::Why { id, pod, .. } => Request::Why { id, run, pod },
                Request::Compare { id, with, .. } => Request::Compare { id, run, with },
                other => other,
            };
            self.bridge.update_value(|b| b.post(&req));
        }
    }

    /// Mirrors what the player shows into the signals (each only when it changed).
    fn sync(&self) {
        let Some(s) = self.player.try_with_value(|p| p.shown.clone()) else {
            return;
        };
        if !self.summary.with_untracked(|v| same_arc(v, &s.summary)) {
            self.set_summary.set(s.summary);
        }
        if self.stop.get_untracked() != s.stop {
            self.set_stop.set(s.stop);
        }
        if self.playing.get_untracked() != s.playing {
            self.set_playing.set(s.playing);
        }
        if self.run_ms.get_untracked() != s.run_ms {
            self.set_run_ms.set(s.run_ms);
        }
        if self.cell.with_untracked(|c| *c != s.cell) {
            self.set_cell.set(s.cell);
        }
        if self.explanation.with_untracked(|e| *e != s.explanation) {
            self.set_explanation.set(s.explanation);
        }
        if self.explain_failed.with_untracked(|e| *e != s.explain_failed) {
            self.set_explain_failed.set(s.explain_failed);
        }
        if self.busy.with_untracked(|b| *b != s.busy) {
            self.set_busy.set(s.busy);
        }
        if self.run.get_untracked() != s.run {
            self.set_run.set(s.run);
        }
        if !self.lesson.with_untracked(|l| same_arc(l, &s.lesson)) {
            self.set_lesson.set(s.lesson);
        }
        if !self.frame.with_untracked(|f| same_arc(f, &s.frame)) {
            self.set_frame.set(s.frame);
        }
    }

    fn carry_out(&self, outs: Vec<Out>, was_waiting: bool) {
        let st = *self;
        if !was_waiting && outs.iter().any(|o| matches!(o, Out::Send(_))) {
            self.bridge.update_value(|b| b.last_heard = bridge::now_ms());
        }
        for out in outs {
            match out {
                Out::Send(req) => self.bridge.update_value(|b| b.post(&req)),
                Out::Titles(text) if text.trim().is_empty() => self.set_step_titles.set(Vec::new()),
                Out::Titles(text) => self.documents(vec![text], move |mut docs| {
                    st.set_step_titles.set(crate::actions::step_titles(&docs.pop().unwrap_or_default()))
                }),
                Out::Issues(issues) => self.set_issues.set(issues),
                Out::SaveGood(good) => crate::storage::save_good(&good),
                Out::LoadGood => {
                    if let Some(good) = crate::storage::load_good() {
                        self.act(Intent::LoadFallback(good));
                    }
                }
                Out::Opened => self.set_fresh.set(false),
                Out::Restart | Out::Upgrade => {
                    if let Err(e) = bridge::spawn(self.bridge, listener(st)) {
                        web_sys::console::error_2(&"schedlab: cannot start the engine worker".into(), &e);
                        let why = "The engine stopped and could not be started again. Your scenario is saved: reload the page.".to_string();
                        self.set_engine_note.set(Some(why.clone()));
                        self.bridge.update_value(|b| b.dead = Some(why));
                        return;
                    }
                }
                Out::GaveUp(why) => {
                    self.set_engine_note.set(Some(why.clone()));
                    self.bridge.update_value(|b| b.dead = Some(why));
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Intents, as the components say them.

    /// Moves the playhead (clamped to the run).
    pub fn seek(&self, stop: u32) {
        self.act(Intent::Seek {
            to: Seek::Stop(stop),
            pause: false,
        });
    }

    /// Pauses, then moves the playhead.
    pub fn pause_at(&self, to: Seek) {
        self.act(Intent::Seek { to, pause: true });
    }

    /// Moves the playhead to cycle `cycle` (1-based; 0 = before the first) at phase `phase`.
    pub fn seek_to(&self, cycle: u32, phase: Option<Stage>) {
        self.act(Intent::Seek {
            to: Seek::At(cycle, phase),
            pause: false,
        });
    }

    pub fn pause(&self) {
        self.act(Intent::Play(false));
    }

    /// Play/pause (from the last stop, play starts again at the first).
    pub fn toggle_play(&self) {
        self.act(Intent::TogglePlay);
    }

    /// Selects a cell to explain, remembering where it is so the explanation opens beside it.
    pub fn select_cell(&self, cell: CellRef, ev: &web_sys::MouseEvent) {
        use wasm_bindgen::JsCast;
        let anchor = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| {
                let panel = el.closest(".lower-panel").ok().flatten()?;
                let r = el.get_bounding_client_rect();
                let p = panel.get_bounding_client_rect();
                Some((r.left() - p.left(), r.top() - p.top(), r.bottom() - p.top()))
            });
        self.set_anchor.set(anchor);
        self.act(Intent::Explain(cell));
    }

    pub fn close_explanation(&self) {
        self.act(Intent::CloseExplanation);
    }

    /// An action at the playhead is about to add a timeline step: the run it makes opens at
    /// the same stop, playing on if it was playing (or at the end).
    pub fn hold_playhead(&self) {
        let stop = self.stop.get_untracked();
        let at_end = stop + 1 >= self.stops();
        let resume = self.playing.get_untracked() || at_end;
        self.act(Intent::Hold { stop, resume });
    }

    // ---------------------------------------------------------------------------------------
    // Requests answered to a waiter.

    fn next_id(&self) -> u64 {
        self.player.try_update_value(|p| p.next_id()).unwrap_or(0)
    }

    fn ask(&self, req: Request, kind: Wait, then: bridge::Waiter) {
        let Some(id) = req.id() else { return };
        self.bridge.update_value(|b| {
            b.wait(id, kind, then);
            b.post(&req);
        });
    }

    /// Asks the worker for the YAML documents of `texts` (the page has no YAML parser); `then`
    /// gets them, per text, as JSON.
    pub fn documents(&self, texts: Vec<String>, then: impl FnOnce(Vec<Vec<serde_json::Value>>) + 'static) {
        let id = self.next_id();
        let then = Box::new(move |r| {
            if let Response::Documents { docs, .. } = r {
                then(docs)
            }
        });
        self.ask(Request::Documents { id, texts }, Wait::Documents, then);
    }

    /// Asks for the YAML text of a generated cluster (only the newest request is answered).
    pub fn generated_text(&self, spec: GenSpec, then: impl FnOnce(String) + 'static) {
        let id = self.next_id();
        let then = Box::new(move |r| {
            if let Response::Text { text, .. } = r {
                then(text)
            }
        });
        self.ask(Request::GeneratedText { id, spec }, Wait::Text, then);
    }

    /// Asks the worker for `text` with its Lesson's exercise `exercise` solved (the engine
    /// applies the solution); `then` gets the text, or why it could not.
    pub fn solve(&self, text: String, exercise: usize, then: impl FnOnce(Result<String, String>) + 'static) {
        let id = self.next_id();
        let then = Box::new(move |r| match r {
            Response::Text { text, .. } => then(Ok(text)),
            Response::Failed { message, .. } => then(Err(message)),
            _ => {}
        });
        self.ask(
            Request::Solve {
                id,
                text,
                exercise: exercise as u32,
            },
            Wait::Solve,
            then,
        );
    }

    /// Asks the worker to import a cluster dump; `then` gets the scenario and the report (only
    /// the newest request's answer is delivered).
    pub fn import(&self, text: String, then: impl FnOnce(String, schedlab_view::import::ImportReport) + 'static) {
        let id = self.next_id();
        let then = Box::new(move |r| {
            if let Response::Imported { text, report, .. } = r {
                then(text, *report)
            }
        });
        self.ask(Request::Import { id, text }, Wait::Import, then);
    }

    /// Asks the worker for a file of the scenario `text` for a real cluster (docs/export.md);
    /// `then` gets it or why it could not be made (only the newest request is answered).
    pub fn export_file(&self, text: String, file: ExportFile, then: impl FnOnce(Result<String, String>) + 'static) {
        let id = self.next_id();
        let then = Box::new(move |r| {
            if let Response::Exported { file, .. } = r {
                then(file)
            }
        });
        let (kubernetes_version, feature_gates) = self.saved.with_untracked(|s| (s.kubernetes_version, s.feature_gates.clone()));
        let req = Request::Export {
            id,
            text,
            file,
            kubernetes_version,
            feature_gates,
        };
        self.ask(req, Wait::Export, then);
    }
}

impl AppState {
    /// Asks why pod `pod` (`namespace/name`) of the run on screen is where it is, or pending
    /// (only the newest question is answered; `Failed`/`Stale` reach `then` too).
    pub fn why(&self, pod: String, then: impl FnOnce(Response) + 'static) {
        let (id, run) = (self.next_id(), self.run.get_untracked());
        self.ask(Request::Why { id, run, pod }, Wait::Why, Box::new(then));
    }

    /// Asks for the run on screen beside a second run (only the newest is answered).
    pub fn compare(&self, with: crate::protocol::CompareWith, then: impl FnOnce(Response) + 'static) {
        let (id, run) = (self.next_id(), self.run.get_untracked());
        self.ask(Request::Compare { id, run, with }, Wait::Compare, Box::new(then));
    }

    /// "Play both": asks for the second run of the last comparison (`Response::SecondRun`, or
    /// `Failed`/`Stale`).
    pub fn second_run(&self, then: impl FnOnce(Response) + 'static) {
        let (id, run) = (self.next_id(), self.run.get_untracked());
        self.ask(Request::SecondRun { id, run }, Wait::Second, Box::new(then));
    }

    /// Both runs of the comparison at the end of cycle `cycle` (only the newest is answered).
    pub fn both_at(&self, cycle: u32, then: impl FnOnce(Response) + 'static) {
        let (id, run) = (self.next_id(), self.run.get_untracked());
        self.ask(Request::Both { id, run, cycle }, Wait::Both, Box::new(then));
    }

    /// Asks the worker to apply edits to texts (`Response::Edited`, or `Failed`).
    pub fn apply_edits(&self, texts: Vec<(String, Vec<schedlab_view::answer::Edit>)>, then: impl FnOnce(Response) + 'static) {
        let id = self.next_id();
        self.ask(Request::ApplyEdits { id, texts }, Wait::Edit, Box::new(then));
    }
}

/// Whether two shared values are the same one (not merely equal: comparing two runs' summaries
/// field by field would cost more than showing them).
fn same_arc<T>(a: &Option<std::sync::Arc<T>>, b: &Option<std::sync::Arc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

fn listener(st: AppState) -> bridge::Listener {
    Rc::new(move |e| match e {
        Event::Answer(r) => st.answer(r),
        Event::Lost { crashed, cause } => st.lost(crashed, cause),
        Event::NeedsFullEngine => st.upgrade(),
    })
}

/// Starts the worker and the playback: the scenario runs whenever it changes (once a link's
/// scenario is read: `link_pending`), the clock advances it, the watchdog watches the engine.
pub fn start(st: AppState, startup: StartUp, link_pending: ReadSignal<bool>) {
    st.act(Intent::StartUp(startup));
    install_test_hooks(st);
    if let Err(e) = bridge::spawn(st.bridge, listener(st)) {
        web_sys::console::error_2(&"schedlab: cannot start the engine worker".into(), &e);
        let why = "The engine could not be started in this browser (Web Workers with WebAssembly are needed).".to_string();
        st.set_engine_note.set(Some(why.clone()));
        st.bridge.update_value(|b| b.dead = Some(why));
    }

    // Run the scenario whenever it changes (edits are debounced by the editor). A gallery
    // lesson runs once the page has its text as shipped (its exercises' edit scope is judged
    // against it): one restored from the autosave or a link waits for its download; when that
    // fails, it runs without (and says so).
    let (downloaded, set_downloaded) = signal(0u32);
    let downloads = StoredValue::new(std::collections::BTreeMap::<&'static str, bool>::new());
    let load = move || -> Option<crate::scenario::Saved> {
        let source = st.saved.get();
        if link_pending.get() {
            return None;
        }
        downloaded.track();
        let lesson = source.lesson.as_deref().and_then(crate::lessons::find);
        if let Some(l) = lesson.filter(|l| crate::lessons::shipped(l.id).is_none()) {
            // false: under way; true: failed.
            match downloads.with_value(|d| d.get(l.id).copied()) {
                Some(true) => {}
                Some(false) => return None,
                None => {
                    downloads.update_value(|d| {
                        d.insert(l.id, false);
                    });
                    leptos::task::spawn_local(async move {
                        if let Err(why) = crate::storage::lesson_text(l).await {
                            downloads.update_value(|d| {
                                d.insert(l.id, true);
                            });
                            st.set_notice.set(Some(format!("{why}: its exercises are checked without it, every edit in scope.")));
                        }
                        set_downloaded.update(|n| *n += 1);
                    });
                    return None;
                }
            }
        }
        let fresh = st.fresh.get_untracked();
        st.act(Intent::Load { source: source.clone(), fresh });
        Some(source)
    };
    // The first load goes out now, while the page is still being built (the worker, started
    // by index.html, is often ready: it runs while the page mounts). The effect's first run then
    // loads only if that did not happen or what it loaded has changed since (the address's
    // start-up may have); every later change runs `load`.
    let sent = StoredValue::new(untrack(load));
    Effect::new(move |_| {
        if let Some(early) = sent.try_update_value(Option::take).flatten() {
            let same = st.saved.with(|s| *s == early);
            if same && !link_pending.get() {
                downloaded.track();
                return;
            }
        }
        load();
    });

    // The playback clock: one stop per period once the current frame is shown.
    let _ = set_interval_with_handle(
        move || {
            let period = speed_ms(st.speed.get_untracked());
            st.act(Intent::Tick { ms: TICK, period });
        },
        Duration::from_millis(TICK as u64),
    );

    // A watchdog: say so when the engine has not answered for a while.
    let _ = set_interval_with_handle(
        move || {
            let now = bridge::now_ms();
            let waiting = st.player.with_value(|p| p.waiting());
            let silent = st.bridge.with_value(|b| now - b.last_heard);
            let note = (waiting && silent > STALL_MS).then(|| {
                format!(
                    "The engine has not answered for {:.0} s. It may still be working on a large scenario; your edits are saved.",
                    silent / 1000.0
                )
            });
            if st.bridge.with_value(|b| b.dead.is_none()) && st.engine_note.with_untracked(|n| *n != note) {
                st.set_engine_note.set(note);
            }
        },
        Duration::from_millis(1000),
    );
}

/// Embedded: the playback pauses while the page is out of view and resumes when it comes back.
pub fn watch_visibility(st: AppState) {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let Some(last) = entries.iter().last() else { return };
        let Ok(entry) = last.dyn_into::<web_sys::IntersectionObserverEntry>() else {
            return;
        };
        st.act(Intent::Visible(entry.is_intersecting()));
    });
    let Ok(observer) = web_sys::IntersectionObserver::new(on_change.as_ref().unchecked_ref()) else {
        // No observer: treat the embed as always in view.
        st.act(Intent::Visible(true));
        return;
    };
    on_change.forget();
    if let Some(root) = document().document_element() {
        observer.observe(&root);
    }
}

/// `window.__schedlabTest`: ways for the browser tests to stop the worker on purpose
/// (docs/web.md, web/tests/resilience.test.mjs). Nothing in the page calls them.
fn install_test_hooks(st: AppState) {
    use wasm_bindgen::prelude::*;
    let Some(window) = web_sys::window() else { return };
    let hooks = js_sys::Object::new();
    let crash = move |how: CrashKind| {
        let id = st.next_id();
        st.bridge.update_value(|b| b.post(&Request::Crash { id, how }));
    };
    let set = |name: &str, f: Closure<dyn Fn()>| {
        let _ = js_sys::Reflect::set(&hooks, &name.into(), f.as_ref());
        f.forget();
    };
    // A panic while answering a request of its own (the hook's `Crashed` path).
    set("crashWorker", Closure::new(move || crash(CrashKind::Panic)));
    // A trap no panic hook sees (the `error` event path).
    set("abortWorker", Closure::new(move || crash(CrashKind::Abort)));
    // The next explanation asked for is sent as a `Crash` under its id.
    set("crashNextExplain", Closure::new(move || st.act(Intent::CrashNextExplain)));
    // The worker is terminated outright, as if it had died without a word.
    set(
        "terminateWorker",
        Closure::new(move || {
            if st.bridge.try_with_value(|b| b.alive()).unwrap_or(false) {
                let cause = crate::recovery::cause(None, Some("terminated by window.__schedlabTest.terminateWorker()"));
                st.lost(None, cause);
            }
        }),
    );
    // Which engine the page runs: "light" (no CEL) or "full".
    let engine = Closure::<dyn Fn() -> String>::new(move || {
        let full = st.bridge.try_with_value(|b| b.full).unwrap_or(false);
        (if full { "full" } else { "light" }).to_string()
    });
    let _ = js_sys::Reflect::set(&hooks, &"engine".into(), engine.as_ref());
    engine.forget();
    // How many workers the page has started.
    let workers = Closure::<dyn Fn() -> u32>::new(move || st.bridge.try_with_value(|b| b.generation).unwrap_or(0));
    let _ = js_sys::Reflect::set(&hooks, &"workers".into(), workers.as_ref());
    workers.forget();
    let _ = js_sys::Reflect::set(&window, &"__schedlabTest".into(), &hooks);
}
