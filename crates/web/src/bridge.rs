//! The page's side of the engine worker: sends requests (coalescing loads and frames so that a
//! burst of edits or a fast playback never piles up work), and turns responses into state.
//!
//! When the worker stops (its panic hook's `Response::Crashed`, or an `error` event), this is
//! the one place that recovers: the request it was answering gets an error answer (an
//! explanation says it could not be computed, with a report), the worker is terminated and a
//! new one started, and the scenario on screen runs again to the same stop (`crate::recovery`
//! decides what to send again; `lost` carries it out).

use crate::protocol::{CrashKind, GenSpec, PanicReport, Request, Response};
use crate::scenario::{LineMap, Saved};
use crate::state::{AppState, Busy, Issue};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

/// Where Trunk puts the worker's loader (Trunk.toml turns file hashing off).
const WORKER_URL: &str = "./schedlab-worker_loader.js";

/// Called with the text a `GeneratedText` request asked for.
type TextWaiter = Box<dyn FnOnce(String)>;

/// Called with what an `Import` request made: the scenario text and the report.
type ImportWaiter = Box<dyn FnOnce(String, schedlab_view::import::ImportReport)>;

/// Called with the documents a `Documents` request asked for.
type DocsWaiter = Box<dyn FnOnce(Vec<Vec<serde_json::Value>>)>;

#[derive(Default)]
pub struct Bridge {
    worker: Option<Worker>,
    /// Counts the workers started: events of a replaced worker are ignored.
    generation: u32,
    /// The highest run number the page was given (a replacement worker continues after it).
    last_run: u64,
    /// The new worker's reload has not been shown yet (a second stop then gives up).
    recovering: bool,
    /// The explanation asked for and not answered yet.
    explain_waiting: Option<ExplainAsk>,
    /// Test hook (`window.__schedlabTest.crashNextExplain()`): the next explanation is asked
    /// as a `Crash` request under its id.
    crash_next_explain: bool,
    ready: bool,
    backlog: Vec<Vec<u8>>,
    next_id: u64,
    /// The load being run.
    load_in_flight: Option<LoadJob>,
    /// The newest load waiting for the one in flight.
    load_next: Option<(Request, LoadJob)>,
    /// The scenario of the run on screen (or about to be), and whether it was written to
    /// storage as the last good one.
    good: Option<(Saved, bool)>,
    /// When the worker last said anything, or was last asked while idle (ms,
    /// `performance.now()`).
    pub last_heard: f64,
    /// Why the worker cannot be used (it failed to start or crashed).
    pub dead: Option<String>,
    frame_in_flight: bool,
    /// The id of the newest frame request sent.
    frame_id: u64,
    frame_next: Option<(u64, u32, bool)>,
    /// The last frame asked for (not asked again).
    frame_last: Option<(u64, u32, bool)>,
    explain_id: u64,
    text_waiter: Option<(u64, TextWaiter)>,
    import_waiter: Option<(u64, ImportWaiter)>,
    /// `Documents` requests waiting for their answer (each is answered).
    docs_waiters: Vec<(u64, DocsWaiter)>,
    /// The Timeline text whose step titles were last asked for.
    titles_text: String,
    /// Playhead to restore after the next successful load: (cycle, offset within it, at end).
    pub keep_playhead: bool,
    /// A link's playhead (cycle, phase label), applied to the next run that loads.
    pub seek_after_load: Option<(u32, Option<String>)>,
    /// An action at the playhead added a timeline step: the next run opens at this same stop
    /// (the runs agree up to the step, which comes after it), playing if `.1`.
    pub hold_playhead: Option<(u32, bool)>,
    /// A run the worker has finished but the page does not show yet: it is swapped in, with
    /// its summary, playhead and first frame together, when that frame arrives, so the screen
    /// never pairs one run's names with another run's state.
    pending: Option<PendingRun>,
}

/// An explanation request, for the report when it cannot be computed.
#[derive(Clone, Debug)]
struct ExplainAsk {
    id: u64,
    run: u64,
    cycle: u32,
    node: u32,
    plugin: String,
    score: bool,
}

/// A load request's bookkeeping.
struct LoadJob {
    id: u64,
    /// To place errors in their part.
    map: LineMap,
    /// The scenario being loaded.
    source: Saved,
    /// Loaded only to have a run on screen while the scenario itself is invalid: its errors
    /// stay listed.
    fallback: bool,
    /// Run again in a new worker after the last one stopped: the screen keeps its errors and
    /// explanation.
    recovery: bool,
}

/// A finished run waiting for its first frame.
struct PendingRun {
    run: u64,
    summary: Arc<schedlab_view::view::Summary>,
    stop: u32,
    run_ms: f64,
    source: Saved,
    fallback: bool,
    /// The playhead came from a link: it opens paused there.
    linked: bool,
    /// Held by an action: play on from there.
    resume: bool,
    /// See `LoadJob::recovery`.
    recovery: bool,
}

pub type BridgeHandle = StoredValue<Bridge, LocalStorage>;

/// Posts a request as UTF-8 JSON in a transferred buffer: a load of a large scenario (megabytes
/// of YAML) then costs the page one copy out of wasm memory, not a UTF-16 string to build and a
/// structured clone of it (together some 40 ms per edit of a 3 MB scenario).
fn send(w: &Worker, bytes: &[u8]) {
    let arr = js_sys::Uint8Array::from(bytes);
    let _ = w.post_message_with_transfer(&arr, &js_sys::Array::of1(&arr.buffer()));
}

impl Bridge {
    /// Whether a request is waiting for the worker's answer.
    pub fn waiting(&self) -> bool {
        self.load_in_flight.is_some() || self.frame_in_flight || self.pending.is_some()
    }

    fn post(&mut self, req: &Request) {
        if !self.waiting() {
            self.last_heard = now_ms();
        }
        let Ok(bytes) = serde_json::to_vec(req) else { return };
        match (&self.worker, self.ready) {
            (Some(w), true) => send(w, &bytes),
            _ => self.backlog.push(bytes),
        }
    }

    /// The frame request in flight was answered (or refused): send the newest waiting one.
    fn frame_answered(&mut self) {
        self.frame_in_flight = false;
        if let Some(want @ (run, stop, detail)) = self.frame_next.take() {
            if self.frame_last != Some(want) {
                self.frame_in_flight = true;
                self.frame_last = Some(want);
                let id = self.id();
                self.frame_id = id;
                self.post(&Request::Frame { id, run, stop, detail });
            }
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// Starts the worker and wires its responses to the state.
pub fn start(st: AppState) -> BridgeHandle {
    let handle: BridgeHandle = StoredValue::new_local(Bridge::default());
    install_test_hooks(st, handle);
    if let Err(e) = spawn(st, handle) {
        web_sys::console::error_2(&"schedlab: cannot start the engine worker".into(), &e);
        let why = "The engine could not be started in this browser (Web Workers with WebAssembly are needed).".to_string();
        st.set_engine_note.set(Some(why.clone()));
        handle.update_value(|b| b.dead = Some(why));
    }
    handle
}

/// Starts a worker (the next generation) and wires its events to the state.
fn spawn(st: AppState, handle: BridgeHandle) -> Result<(), JsValue> {
    let worker = Worker::new(WORKER_URL)?;
    let generation = handle.try_update_value(|b| {
        b.generation += 1;
        b.ready = false;
        b.generation
    });
    let Some(generation) = generation else {
        return Ok(());
    };
    let current = move || handle.try_with_value(|b| b.generation == generation).unwrap_or(false);
    let debug = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item("schedlab.debug").ok().flatten())
        .is_some();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        if !current() {
            return;
        }
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
        handle.update_value(|b| b.last_heard = t0);
        let Ok(arr) = ev.data().dyn_into::<js_sys::Uint8Array>() else {
            return;
        };
        let bytes = arr.to_vec();
        let t1 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
        let parsed = serde_json::from_slice::<Response>(&bytes);
        let t2 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
        let kind = match &parsed {
            Ok(Response::Loaded { .. }) => "loaded",
            Ok(Response::Frame { .. }) => "frame",
            _ => "other",
        };
        match parsed {
            // A new run is applied in a task of its own: parsing a large summary and rendering
            // its views then stay two shorter tasks.
            Ok(r @ Response::Loaded { .. }) => set_timeout(
                move || {
                    if !current() {
                        return;
                    }
                    let perf = web_sys::window().and_then(|w| w.performance());
                    let t0 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
                    on_response(st, handle, r);
                    if debug {
                        let t1 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
                        web_sys::console::log_1(&format!("schedlab loaded applied in {:.1} ms", t1 - t0).into());
                    }
                },
                std::time::Duration::ZERO,
            ),
            Ok(r) => on_response(st, handle, r),
            Err(e) => web_sys::console::error_1(&format!("schedlab: bad response from the worker: {e}").into()),
        }
        if debug {
            let t3 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
            web_sys::console::log_1(
                &format!(
                    "schedlab {kind}: {} bytes, copy {:.1} ms, parse {:.1} ms, apply {:.1} ms",
                    bytes.len(),
                    t1 - t0,
                    t2 - t1,
                    t3 - t2
                )
                .into(),
            );
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // An error the worker did not report itself (a trap no panic hook saw, a script that
    // failed to load): it has stopped all the same.
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        if !current() {
            return;
        }
        web_sys::console::error_2(&"schedlab: engine worker error".into(), &ev);
        ev.prevent_default();
        let message = js_sys::Reflect::get(&ev, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        lost(st, handle, None, None, Some(message));
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    handle.update_value(|b| b.worker = Some(worker));
    Ok(())
}

/// The worker stopped: `crashed` is the request it was answering when its panic hook said so
/// (with the panic), `error` an error event's message. The request gets its error answer, and
/// a new worker runs again what the screen shows (`crate::recovery::plan`).
fn lost(st: AppState, handle: BridgeHandle, crashed: Option<u64>, panic: Option<PanicReport>, error: Option<String>) {
    use crate::recovery::{self, Lost, Plan, Reload};
    let cause = recovery::cause(panic.as_ref(), error.as_deref());
    web_sys::console::warn_1(&format!("schedlab: the engine {cause}; starting a new one").into());
    let Some(facts) = handle.try_update_value(|b| {
        if let Some(w) = b.worker.take() {
            w.terminate();
        }
        Lost {
            crashed,
            load_in_flight: b.load_in_flight.as_ref().map(|j| j.id),
            load_waiting: b.load_next.is_some(),
            recovering: b.recovering,
            has_good: b.good.is_some(),
        }
    }) else {
        return;
    };
    // The explanation waiting for an answer will not get one.
    if let Some(ask) = handle.try_update_value(|b| b.explain_waiting.take()).flatten() {
        let (node, plugin) = (st.node_name(ask.node), ask.plugin.clone());
        let what = if ask.score { "score" } else { "filter" };
        let request = if plugin.is_empty() {
            format!("explain the {what} row of node {node}, cycle {} (request {})", ask.cycle, ask.id)
        } else {
            format!(
                "explain the {what} cell {plugin} × node {node}, cycle {} (request {})",
                ask.cycle, ask.id
            )
        };
        let stop = st.stop.get_untracked();
        let at = st
            .summary
            .with_untracked(|s| s.as_ref().map(|s| s.playhead(stop)))
            .map(|(cycle, stage)| format!("cycle {cycle}, {}", stage.map(|s| s.label()).unwrap_or("?")))
            .unwrap_or_default();
        let report = recovery::explain_report(&cause, &request, ask.run, stop, &at);
        st.set_explain_failed.set(Some(report));
    }
    let plan = recovery::plan(&facts);
    let Plan::Restart { reload, load_failed } = plan else {
        let why =
            format!("The engine stopped again while recovering ({cause}). Your scenario is saved: reload the page to start it again.");
        st.set_engine_note.set(Some(why.clone()));
        handle.update_value(|b| {
            b.dead = Some(why);
            b.load_in_flight = None;
            b.load_next = None;
            b.pending = None;
            b.frame_in_flight = false;
        });
        st.set_busy.set(Busy::Idle);
        return;
    };
    if load_failed {
        st.set_issues.set(vec![Issue {
            part: None,
            line: 0,
            column: 0,
            message: format!("The engine failed on this scenario (a bug in schedlab: it {cause}). The last good run is shown."),
        }]);
    }
    st.set_playing.set(false);
    // What the old worker was asked is forgotten, but the loads it was to run.
    let Some((in_flight, waiting, good, last_run)) = handle.try_update_value(|b| {
        b.backlog.clear();
        b.frame_in_flight = false;
        b.frame_next = None;
        b.frame_last = None;
        b.pending = None;
        b.text_waiter = None;
        b.import_waiter = None;
        b.docs_waiters.clear();
        b.titles_text.clear();
        (b.load_in_flight.take(), b.load_next.take(), b.good.clone(), b.last_run)
    }) else {
        return;
    };
    if let Err(e) = spawn(st, handle) {
        web_sys::console::error_2(&"schedlab: cannot start the engine worker".into(), &e);
        let why = "The engine stopped and could not be started again. Your scenario is saved: reload the page.".to_string();
        st.set_engine_note.set(Some(why.clone()));
        handle.update_value(|b| b.dead = Some(why));
        return;
    }
    handle.update_value(|b| b.post(&Request::Continue { run: last_run }));
    let again = match reload {
        Reload::Waiting => waiting.map(|(_, job)| (job.source, job.fallback)),
        Reload::InFlight => in_flight.map(|job| (job.source, job.fallback)),
        Reload::Good => {
            // Back to the same stop of the same run (same text, seed and controllers: the same
            // stops), paused.
            let stop = st.stop.get_untracked();
            handle.update_value(|b| b.hold_playhead = Some((stop, false)));
            good.map(|(source, _)| (source, false))
        }
        Reload::Nothing => None,
    };
    match again {
        Some((source, fallback)) => {
            handle.update_value(|b| b.recovering = true);
            submit_job(handle, st, source, fallback, true);
        }
        None => st.set_busy.set(Busy::Idle),
    }
}

/// `window.__schedlabTest`: ways for the browser tests to stop the worker on purpose
/// (docs/web.md, web/tests/resilience.test.mjs). Nothing in the page calls them.
fn install_test_hooks(st: AppState, handle: BridgeHandle) {
    let Some(window) = web_sys::window() else { return };
    let hooks = js_sys::Object::new();
    let crash = move |how: CrashKind| {
        handle.update_value(|b| {
            let id = b.id();
            b.post(&Request::Crash { id, how });
        })
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
    set(
        "crashNextExplain",
        Closure::new(move || handle.update_value(|b| b.crash_next_explain = true)),
    );
    // The worker is terminated outright, as if it had died without a word.
    set(
        "terminateWorker",
        Closure::new(move || {
            let alive = handle.try_with_value(|b| b.worker.is_some()).unwrap_or(false);
            if alive {
                lost(
                    st,
                    handle,
                    None,
                    None,
                    Some("terminated by window.__schedlabTest.terminateWorker()".into()),
                );
            }
        }),
    );
    // How many workers the page has started.
    let workers = Closure::<dyn Fn() -> u32>::new(move || handle.try_with_value(|b| b.generation).unwrap_or(0));
    let _ = js_sys::Reflect::set(&hooks, &"workers".into(), workers.as_ref());
    workers.forget();
    let _ = js_sys::Reflect::set(&window, &"__schedlabTest".into(), &hooks);
}

/// Runs a scenario (the newest one wins; an invalid one keeps the last good run).
pub fn load(handle: BridgeHandle, st: AppState, source: Saved) {
    submit(handle, st, source, false);
}

/// Sends a load (or generate) request, or queues it behind the one in flight.
fn submit(handle: BridgeHandle, st: AppState, source: Saved, fallback: bool) {
    submit_job(handle, st, source, fallback, false);
}

fn submit_job(handle: BridgeHandle, st: AppState, source: Saved, fallback: bool, recovery: bool) {
    handle.update_value(|b| {
        let id = b.id();
        let (req, map) = match &source.generated {
            Some(spec) => (
                Request::Generate {
                    id,
                    spec: spec.clone(),
                    seed: source.seed,
                    kubernetes_version: source.kubernetes_version,
                },
                LineMap::default(),
            ),
            None => {
                let (text, map) = crate::scenario::join(&source.parts);
                (
                    Request::Load {
                        id,
                        text,
                        seed: source.seed,
                        controllers: source.controllers,
                        kubernetes_version: source.kubernetes_version,
                        feature_gates: source.feature_gates.clone(),
                    },
                    map,
                )
            }
        };
        // The step titles of the text about to run, asked for first: the worker answers them
        // before the run (its markers then never show a stale title).
        let timeline = if source.generated.is_none() {
            source.parts.timeline.clone()
        } else {
            String::new()
        };
        if timeline != b.titles_text {
            b.titles_text = timeline.clone();
            if timeline.trim().is_empty() {
                st.set_step_titles.set(Vec::new());
            } else {
                let docs_id = b.id();
                b.docs_waiters.push((
                    docs_id,
                    Box::new(move |mut docs: Vec<Vec<serde_json::Value>>| {
                        st.set_step_titles.set(crate::actions::step_titles(&docs.pop().unwrap_or_default()))
                    }),
                ));
                b.post(&Request::Documents {
                    id: docs_id,
                    texts: vec![timeline],
                });
            }
        }
        let job = LoadJob {
            id,
            map,
            source,
            fallback,
            recovery,
        };
        if b.load_in_flight.is_some() {
            b.load_next = Some((req, job));
        } else {
            b.load_in_flight = Some(job);
            b.post(&req);
        }
    });
    st.set_busy.set(Busy::Running { cycles: 0, pods: 0 });
}

/// Asks for the frame at `stop` (only the newest request waits while one is in flight).
pub fn request_frame(handle: BridgeHandle, run: u64, stop: u32, detail: bool) {
    handle.update_value(|b| {
        let want = (run, stop, detail);
        // While a new run waits for its first frame, frames of the old one are not wanted.
        if b.frame_last == Some(want) || b.pending.as_ref().is_some_and(|p| p.run != run) {
            return;
        }
        if b.frame_in_flight {
            b.frame_next = Some(want);
            return;
        }
        b.frame_in_flight = true;
        b.frame_last = Some(want);
        let id = b.id();
        b.frame_id = id;
        b.post(&Request::Frame { id, run, stop, detail });
    });
}

pub fn explain(handle: BridgeHandle, st: AppState, run: u64, cycle: u32, node: u32, plugin: String, score: bool) {
    st.set_explain_failed.set(None);
    handle.update_value(|b| {
        let id = b.id();
        b.explain_id = id;
        b.explain_waiting = Some(ExplainAsk {
            id,
            run,
            cycle,
            node,
            plugin: plugin.clone(),
            score,
        });
        if std::mem::take(&mut b.crash_next_explain) {
            // The test hook: the worker panics while the page waits for this explanation.
            b.post(&Request::Crash { id, how: CrashKind::Panic });
            return;
        }
        b.post(&Request::Explain {
            id,
            run,
            cycle,
            node,
            plugin,
            score,
        });
    });
}

pub fn generated_text(handle: BridgeHandle, spec: GenSpec, then: impl FnOnce(String) + 'static) {
    handle.update_value(|b| {
        let id = b.id();
        b.text_waiter = Some((id, Box::new(then)));
        b.post(&Request::GeneratedText { id, spec });
    });
}

/// Asks the worker to import a cluster dump; `then` gets the scenario and the report (only the
/// newest request's answer is delivered).
pub fn import(handle: BridgeHandle, text: String, then: impl FnOnce(String, schedlab_view::import::ImportReport) + 'static) {
    handle.update_value(|b| {
        let id = b.id();
        b.import_waiter = Some((id, Box::new(then)));
        b.post(&Request::Import { id, text });
    });
}

/// Asks the worker for the YAML documents of `texts` (the page has no YAML parser); `then`
/// gets them, per text, as JSON.
pub fn documents(handle: BridgeHandle, texts: Vec<String>, then: impl FnOnce(Vec<Vec<serde_json::Value>>) + 'static) {
    handle.update_value(|b| {
        let id = b.id();
        b.docs_waiters.push((id, Box::new(then)));
        b.post(&Request::Documents { id, texts });
    });
}

fn on_response(st: AppState, handle: BridgeHandle, r: Response) {
    match r {
        Response::Documents { id, docs } => {
            let waiter = handle
                .try_update_value(|b| {
                    b.docs_waiters
                        .iter()
                        .position(|(i, _)| *i == id)
                        .map(|k| b.docs_waiters.remove(k).1)
                })
                .flatten();
            if let Some(then) = waiter {
                then(docs);
            }
        }
        Response::Ready => handle.update_value(|b| {
            b.ready = true;
            if let Some(w) = &b.worker {
                for bytes in b.backlog.drain(..) {
                    send(w, &bytes);
                }
            }
        }),
        Response::Progress { cycles, pods, .. } => st.set_busy.set(Busy::Running { cycles, pods }),
        Response::Loaded {
            id,
            run,
            summary,
            run_ms,
            load_ms,
        } => {
            // A newer scenario is already waiting: this run is superseded and never shown.
            let job = handle.try_update_value(|b| b.load_in_flight.take_if(|j| j.id == id)).flatten();
            let superseded = job.is_none() || handle.with_value(|b| b.load_next.is_some());
            if superseded {
                finish_load(st, handle);
                return;
            }
            let summary = Arc::new(*summary);
            // Keep the playhead at the same cycle and phase when the scenario was edited.
            let keep = handle.with_value(|b| b.keep_playhead);
            let old = st.summary.get_untracked();
            let old_stop = st.stop.get_untracked();
            // A new large scenario opens at its end (the final placement), so the first frame
            // asked for is that one.
            let linked = handle
                .try_update_value(|b| b.seek_after_load.take())
                .flatten()
                .and_then(|(cycle, phase)| {
                    let stage = phase.as_deref().and_then(schedlab_view::view::Stage::from_label);
                    summary.stop_at(cycle, stage)
                });
            let held = handle.try_update_value(|b| b.hold_playhead.take()).flatten();
            let stop = match (&old, keep, linked) {
                (_, _, Some(stop)) => stop,
                _ if held.is_some() => held.map(|h| h.0).unwrap_or(0).min(summary.stops.saturating_sub(1)),
                (Some(old), true, _) => map_playhead(old, old_stop, &summary),
                _ if summary.model.large => summary.stops.saturating_sub(1),
                _ => 0,
            };
            let detail = !summary.detail_all && !st.playing.get_untracked();
            handle.update_value(|b| {
                let job = job.expect("not superseded");
                b.last_run = b.last_run.max(run);
                b.pending = Some(PendingRun {
                    run,
                    summary,
                    stop,
                    run_ms: run_ms + load_ms,
                    source: job.source,
                    fallback: job.fallback,
                    linked: linked.is_some(),
                    resume: held.is_some_and(|h| h.1),
                    recovery: job.recovery,
                });
                // Frames of the old run still asked for are of no use now.
                b.frame_next = None;
                b.frame_in_flight = true;
                b.frame_last = Some((run, stop, detail));
                let id = b.id();
                b.frame_id = id;
                b.post(&Request::Frame { id, run, stop, detail });
            });
            finish_load(st, handle);
        }
        Response::Invalid { id, issues } => {
            let job = handle.try_update_value(|b| b.load_in_flight.take_if(|j| j.id == id)).flatten();
            let superseded = job.is_none() || handle.with_value(|b| b.load_next.is_some());
            if superseded {
                finish_load(st, handle);
                return;
            }
            let job = job.expect("not superseded");
            handle.update_value(|b| b.hold_playhead = None);
            if job.fallback {
                // The last good scenario no longer loads (a newer release?): nothing to show.
                finish_load(st, handle);
                return;
            }
            let map = job.map;
            let placed = issues
                .into_iter()
                .map(|i| match map.locate(i.line) {
                    Some((part, line)) if i.line > 0 => Issue {
                        part: Some(part),
                        line,
                        column: i.column,
                        message: i.message,
                    },
                    _ => Issue {
                        part: None,
                        line: 0,
                        column: 0,
                        message: i.message,
                    },
                })
                .collect();
            st.set_issues.set(placed);
            // Keep the run on screen for a reload: the scenario that produced it becomes the
            // last good one. With nothing on screen yet (a reload of an invalid scenario), show
            // that one's run beside the errors.
            let nothing_shown = st.run.get_untracked() == 0 && handle.with_value(|b| b.pending.is_none());
            if !st.embed {
                handle.update_value(|b| {
                    if let Some((good, written)) = &mut b.good {
                        if !*written {
                            crate::storage::save_good(good);
                            *written = true;
                        }
                    }
                });
            }
            finish_load(st, handle);
            if nothing_shown && !st.embed {
                if let Some(good) = crate::storage::load_good() {
                    submit(handle, st, good, true);
                }
            }
        }
        Response::Frame { run, frame, .. } => {
            let pending = handle.try_update_value(|b| b.pending.take_if(|p| p.run == run)).flatten();
            if let Some(p) = pending {
                // The new run goes on screen whole: summary, playhead and frame in one go.
                st.set_summary.set(Some(p.summary));
                if !p.fallback && !p.recovery {
                    st.set_issues.set(Vec::new());
                }
                handle.update_value(|b| {
                    b.good = Some((p.source, p.fallback));
                    b.recovering = false;
                });
                st.set_run_ms.set(p.run_ms);
                // The same run in a new worker: the explanation (or its failure) stays open.
                if !p.recovery {
                    st.set_cell.set(None);
                    st.set_explanation.set(None);
                }
                if p.linked {
                    st.set_fresh.set(false);
                    st.set_playing.set(false);
                }
                if p.resume {
                    st.set_playing.set(true);
                }
                st.set_stop.set(p.stop);
                st.set_run.set(run);
                st.set_frame.set(Some(Arc::new(*frame)));
            } else if run == st.run.get_untracked() && handle.with_value(|b| b.pending.is_none()) {
                st.set_frame.set(Some(Arc::new(*frame)));
            }
            handle.update_value(Bridge::frame_answered);
        }
        Response::Explained { id, run, explanation } => {
            handle.update_value(|b| {
                b.explain_waiting.take_if(|a| a.id == id);
            });
            if handle.with_value(|b| b.explain_id == id) && run == st.run.get_untracked() {
                st.set_explanation.set(Some(explanation));
            }
        }
        Response::Text { id, text } => {
            let waiter = handle.try_update_value(|b| match b.text_waiter.take() {
                Some((i, f)) if i == id => Some(f),
                other => {
                    b.text_waiter = other;
                    None
                }
            });
            if let Some(Some(f)) = waiter {
                f(text);
            }
        }
        Response::Imported { id, text, report } => {
            let waiter = handle.try_update_value(|b| match b.import_waiter.take() {
                Some((i, f)) if i == id => Some(f),
                other => {
                    b.import_waiter = other;
                    None
                }
            });
            if let Some(Some(f)) = waiter {
                f(text, *report);
            }
        }
        Response::Failed { id, message } => {
            if message != "stale run" {
                web_sys::console::warn_1(&format!("schedlab worker: {message}").into());
            }
            // A refused frame request must not leave the next one waiting forever.
            if handle.with_value(|b| b.frame_id == id) {
                handle.update_value(Bridge::frame_answered);
            }
            handle.update_value(|b| {
                b.explain_waiting.take_if(|a| a.id == id);
            });
        }
        Response::Crashed { id, panic } => lost(st, handle, id, Some(panic), None),
    }
}

/// After a load answered: start the next waiting one, or go idle.
fn finish_load(st: AppState, handle: BridgeHandle) {
    let more = handle.try_update_value(|b| {
        b.load_in_flight = None;
        if let Some((req, job)) = b.load_next.take() {
            b.load_in_flight = Some(job);
            b.post(&req);
            true
        } else {
            false
        }
    });
    if more != Some(true) {
        st.set_busy.set(Busy::Idle);
    }
}

/// The stop in the new run at the same cycle and phase (by offset within the cycle) as `stop`
/// in the old one.
fn map_playhead(old: &schedlab_view::view::Summary, stop: u32, new: &schedlab_view::view::Summary) -> u32 {
    let last_new = new.stops.saturating_sub(1);
    if stop + 1 >= old.stops {
        return last_new;
    }
    let c = old.cycle_first_stop.partition_point(|&f| f <= stop);
    if c == 0 {
        return stop.min(new.cycle_first_stop.first().copied().unwrap_or(last_new));
    }
    let offset = stop - old.cycle_first_stop[c - 1];
    match new.cycle_first_stop.get(c - 1) {
        Some(&f) => {
            let end = new.cycle_first_stop.get(c).copied().unwrap_or(last_new);
            (f + offset).min(end.saturating_sub(1).max(f))
        }
        None => last_new,
    }
}
