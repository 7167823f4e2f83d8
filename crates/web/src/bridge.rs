//! The page's side of the engine worker, transport only: it starts the worker (the first one
//! is started by index.html before the page's wasm loads, and taken over here), posts requests
//! (at once: the worker's loader keeps them until its engine is up), hands each answer to whoever waits for it
//! (documents, generated texts, imports: by request id) or to the page's playback
//! (`crate::playback`, which feeds `crate::player::Player`), and says when the worker stopped
//! (its panic hook's `Response::Crashed`, or an `error` event). What to do then is the
//! player's (`Player::lost`, with `crate::recovery`); this module terminates the old worker
//! and starts the next one when told to.
//!
//! There are two engines: the light worker (built without CEL), which the page starts, and the
//! full one. When the light one answers `Response::NeedsFullEngine` (what it was asked holds
//! CEL), the page replaces it by the full one for the rest of the session (`Bridge::upgrade`,
//! `Player::upgrade`) and asks that again what the light one had not answered.

use crate::protocol::{Request, Response};
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

/// The worker's loader when index.html does not name it: the site's files carry content hashes
/// in their names (web/hash-names.mjs), and index.html names the loader in
/// `window.schedlabWorkerUrl`.
const WORKER_URL: &str = "./schedlab-worker_loader.js";
/// The full worker's loader (with CEL), named in `window.schedlabFullWorkerUrl`.
const FULL_WORKER_URL: &str = "./schedlab-worker-full_loader.js";

fn worker_url(full: bool) -> String {
    let (name, default) = match full {
        false => ("schedlabWorkerUrl", WORKER_URL),
        true => ("schedlabFullWorkerUrl", FULL_WORKER_URL),
    };
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str(name)).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| default.to_string())
}

/// Called with the answer to a request the page waits for by id.
pub type Waiter = Box<dyn FnOnce(Response)>;

/// Which kind of answer a waiter waits for. For generated texts and imports only the newest
/// request's answer is delivered; every documents request is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    Documents,
    Text,
    Import,
    Export,
    /// A lesson's solved text (`Request::Solve`).
    Solve,
    /// The answers panel's `Why`, the compare view's `Compare`, a suggestion's `ApplyEdits`:
    /// a `Failed` or `Stale` answer, or the worker stopping, reaches the waiter too.
    Why,
    Compare,
    Edit,
    /// "Play both": the comparison's second run (`Request::SecondRun`) and both runs' frames
    /// at one cycle (`Request::Both`).
    Second,
    Both,
}

/// What the worker said, for the page.
pub enum Event {
    /// An answer nobody waits for by id (loads, frames, explanations, progress).
    Answer(Response),
    /// The worker stopped: `crashed` is the request it was answering when its panic hook said
    /// so, `cause` how it stopped, in a line (`crate::recovery::cause`).
    Lost { crashed: Option<u64>, cause: String },
    /// The light worker cannot answer a request (it holds CEL): the full one must.
    NeedsFullEngine,
}

/// Where the page's playback hears the worker.
pub type Listener = Rc<dyn Fn(Event)>;

#[derive(Default)]
pub struct Bridge {
    worker: Option<Worker>,
    /// Counts the workers started: events of a replaced worker are ignored.
    pub generation: u32,
    /// What was asked while no worker ran; sent to the next one when it starts.
    backlog: Vec<Vec<u8>>,
    /// When the worker last said anything, or was last asked while idle (ms,
    /// `performance.now()`).
    pub last_heard: f64,
    /// Why the worker cannot be used (it failed to start or crashed).
    pub dead: Option<String>,
    waiters: Vec<(u64, Wait, Waiter)>,
    /// The worker started is the full engine (with CEL): from the first
    /// `Response::NeedsFullEngine` on, for the rest of the session.
    pub full: bool,
    /// What the light worker was asked and has not answered yet, to ask the full one again
    /// (typed copies: decoding the sent bytes back would link a Request decoder into the page).
    asked: Vec<Request>,
}

pub type BridgeHandle = StoredValue<Bridge, LocalStorage>;

/// Posts a request `schedlab_view::wire`-encoded in a transferred buffer: a load of a large scenario (megabytes
/// of YAML) then costs the page one copy out of wasm memory, not a UTF-16 string to build and a
/// structured clone of it (together some 40 ms per edit of a 3 MB scenario).
fn send(w: &Worker, bytes: &[u8]) {
    let arr = js_sys::Uint8Array::from(bytes);
    let _ = w.post_message_with_transfer(&arr, &js_sys::Array::of1(&arr.buffer()));
}

impl Bridge {
    pub fn post(&mut self, req: &Request) {
        let Ok(bytes) = schedlab_view::wire::to_bytes(req) else { return };
        match &self.worker {
            Some(w) => send(w, &bytes),
            None => self.backlog.push(bytes),
        }
        // Frames and explanations are of a run the full worker does not have, and the player
        // sends the loads again itself (`Player::upgrade`): it asks again for what it wants.
        let again = !matches!(
            req,
            Request::Frame { .. } | Request::Explain { .. } | Request::Crash { .. } | Request::Load { .. } | Request::Generate { .. }
        );
        if !self.full && again && req.id().is_some() {
            self.asked.push(req.clone());
        }
    }

    /// Request `id` has its answer.
    fn answered(&mut self, id: u64) {
        if !self.asked.is_empty() {
            self.asked.retain(|r| r.id() != Some(id));
        }
    }

    /// From now on the full worker: the light one is terminated (its waiters keep waiting) and
    /// what it had not answered is returned, but the loads, which the player sends again
    /// (`Player::upgrade`).
    pub fn upgrade(&mut self) -> Vec<Request> {
        self.full = true;
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
        self.backlog.clear();
        std::mem::take(&mut self.asked)
    }

    /// Delivers the answer to request `id` to `then`.
    pub fn wait(&mut self, id: u64, kind: Wait, then: Waiter) {
        if kind != Wait::Documents {
            self.waiters.retain(|(_, k, _)| *k != kind);
        }
        self.waiters.push((id, kind, then));
    }

    /// Whether a worker is running.
    pub fn alive(&self) -> bool {
        self.worker.is_some()
    }

    /// Terminates the worker and forgets what it was asked.
    pub fn terminate(&mut self) {
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
        self.backlog.clear();
        self.waiters.clear();
        self.asked.clear();
    }

    /// The waiters of requests that fail when the worker stops (`Wait::Why`, `Compare`, `Edit`,
    /// `Second`, `Both`),
    /// taken out to be told so.
    pub fn orphans(&mut self) -> Vec<(u64, Waiter)> {
        let (gone, keep) = std::mem::take(&mut self.waiters)
            .into_iter()
            .partition(|(_, k, _)| matches!(k, Wait::Why | Wait::Compare | Wait::Edit | Wait::Second | Wait::Both));
        self.waiters = keep;
        gone.into_iter().map(|(id, _, w)| (id, w)).collect()
    }

    fn waiter(&mut self, id: u64) -> Option<Waiter> {
        let k = self.waiters.iter().position(|(i, _, _)| *i == id)?;
        Some(self.waiters.remove(k).2)
    }
}

pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// The light worker index.html started before the page's wasm had loaded, with the events it
/// sent before anyone listened; there is one, taken once, by the first light bridge.
fn prestarted() -> Option<(Worker, Vec<web_sys::Event>)> {
    let window = web_sys::window()?;
    let take = js_sys::Reflect::get(&window, &JsValue::from_str("schedlabTakeWorker"))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let taken = js_sys::Array::from(&take.call0(&window).ok()?);
    let worker = taken.get(0).dyn_into::<Worker>().ok()?;
    let early = js_sys::Array::from(&taken.get(1))
        .iter()
        .filter_map(|e| e.dyn_into::<web_sys::Event>().ok())
        .collect();
    Some((worker, early))
}

/// Starts a worker (the next generation) and wires its events to `listen`.
pub fn spawn(handle: BridgeHandle, listen: Listener) -> Result<(), JsValue> {
    let full = handle.try_with_value(|b| b.full).unwrap_or(false);
    let started = if full { None } else { prestarted() };
    let (worker, early) = match started {
        Some(started) => started,
        None => (Worker::new(&worker_url(full))?, Vec::new()),
    };
    let generation = handle.try_update_value(|b| {
        b.generation += 1;
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
    let on_listen = listen.clone();
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
        let parsed = schedlab_view::wire::from_bytes::<Response>(&bytes);
        let t2 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
        if let Some(id) = parsed.as_ref().ok().and_then(Response::id) {
            handle.update_value(|b| b.answered(id));
        }
        let kind = match &parsed {
            Ok(Response::Loaded { .. }) => "loaded",
            Ok(Response::Frame { .. }) => "frame",
            _ => "other",
        };
        match parsed {
            // A new run is applied in a task of its own: parsing a large summary and rendering
            // its views then stay two shorter tasks.
            Ok(r @ Response::Loaded { .. }) => {
                let listen = on_listen.clone();
                set_timeout(
                    move || {
                        if !current() {
                            return;
                        }
                        let t0 = now_ms();
                        listen(Event::Answer(r));
                        if debug {
                            web_sys::console::log_1(&format!("schedlab loaded applied in {:.1} ms", now_ms() - t0).into());
                        }
                    },
                    std::time::Duration::ZERO,
                )
            }
            Ok(r) => receive(handle, &on_listen, r),
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
        listen(Event::Lost {
            crashed: None,
            cause: crate::recovery::cause(None, Some(&message)),
        });
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    // The worker's loader keeps what it is asked before its engine is up
    // (web/schedlab-worker_loader.js): requests go out at once, not after its `Ready`.
    handle.update_value(|b| {
        for bytes in b.backlog.drain(..) {
            send(&worker, &bytes);
        }
        b.worker = Some(worker.clone());
    });
    // What a prestarted worker said before the page listened, heard now, in the order it came:
    // its messages (its `Ready`: the page's first load then goes out as soon as it is made, not
    // after a task) at once, last in this function; an error (a loader that failed) in a task of
    // its own, as if it had just arrived, for the restart it leads to.
    let (messages, errors): (Vec<_>, Vec<_>) = early.into_iter().partition(|e| e.is_instance_of::<MessageEvent>());
    if !errors.is_empty() {
        let worker = worker.clone();
        set_timeout(
            move || {
                for event in &errors {
                    let _ = worker.dispatch_event(event);
                }
            },
            std::time::Duration::ZERO,
        );
    }
    for event in &messages {
        let _ = worker.dispatch_event(event);
    }
    Ok(())
}

/// One answer: the transport's own, a waiter's, or the playback's.
fn receive(handle: BridgeHandle, listen: &Listener, r: Response) {
    match r {
        // Nothing waits for it: requests were sent at once (spawn), and the worker's loader
        // kept them until its engine was up.
        Response::Ready => {}
        // Only the light worker says so; the full one is started once.
        Response::NeedsFullEngine { .. } => {
            if !handle.try_with_value(|b| b.full).unwrap_or(true) {
                listen(Event::NeedsFullEngine)
            }
        }
        Response::Crashed { id, panic } => listen(Event::Lost {
            crashed: id,
            cause: crate::recovery::cause(Some(&panic), None),
        }),
        Response::Documents { id, .. }
        | Response::Text { id, .. }
        | Response::Imported { id, .. }
        | Response::Exported { id, .. }
        | Response::Answered { id, .. }
        | Response::Compared { id, .. }
        | Response::SecondRun { id, .. }
        | Response::Both { id, .. }
        | Response::Edited { id, .. } => {
            if let Some(then) = handle.try_update_value(|b| b.waiter(id)).flatten() {
                then(r);
            }
        }
        // A waiter's request refused: the waiter hears it; else the playback's.
        Response::Failed { id, .. } | Response::Stale { id, .. } => {
            if let Response::Failed { message, .. } = &r {
                web_sys::console::warn_1(&format!("schedlab worker: {message}").into());
            }
            match handle.try_update_value(|b| b.waiter(id)).flatten() {
                Some(then) => then(r),
                None => listen(Event::Answer(r)),
            }
        }
        r => listen(Event::Answer(r)),
    }
}
