//! The page's side of the engine worker: sends requests (coalescing loads and frames so that a
//! burst of edits or a fast playback never piles up work), and turns responses into state.

use crate::protocol::{GenSpec, Request, Response};
use crate::scenario::LineMap;
use crate::state::{AppState, Busy, Issue};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

/// Where Trunk puts the worker's loader (Trunk.toml turns file hashing off).
const WORKER_URL: &str = "./schedlab-worker_loader.js";

#[derive(Default)]
pub struct Bridge {
    worker: Option<Worker>,
    ready: bool,
    backlog: Vec<String>,
    next_id: u64,
    /// The load being run and its line map (to place errors in their part).
    load_in_flight: Option<(u64, LineMap)>,
    /// The newest load waiting for the one in flight.
    load_next: Option<(Request, LineMap)>,
    frame_in_flight: bool,
    frame_next: Option<(u64, u32, bool)>,
    /// The last frame asked for (not asked again).
    frame_last: Option<(u64, u32, bool)>,
    explain_id: u64,
    text_waiter: Option<(u64, Box<dyn FnOnce(String)>)>,
    /// Playhead to restore after the next successful load: (cycle, offset within it, at end).
    pub keep_playhead: bool,
}

pub type BridgeHandle = StoredValue<Bridge, LocalStorage>;

impl Bridge {
    fn post(&mut self, req: &Request) {
        let Ok(text) = serde_json::to_string(req) else { return };
        match (&self.worker, self.ready) {
            (Some(w), true) => {
                let _ = w.post_message(&JsValue::from_str(&text));
            }
            _ => self.backlog.push(text),
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

/// Starts the worker and wires its responses to the state.
pub fn start(st: AppState) -> BridgeHandle {
    let handle: BridgeHandle = StoredValue::new_local(Bridge::default());
    let worker = match Worker::new(WORKER_URL) {
        Ok(w) => w,
        Err(e) => {
            web_sys::console::error_2(&"schedlab: cannot start the engine worker".into(), &e);
            return handle;
        }
    };
    let debug = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item("schedlab.debug").ok().flatten())
        .is_some();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
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
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        web_sys::console::error_2(&"schedlab: engine worker error".into(), &ev);
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    handle.update_value(|b| b.worker = Some(worker));
    handle
}

/// Runs a scenario (the newest one wins; an invalid one keeps the last good run).
pub fn load(handle: BridgeHandle, st: AppState, text: String, map: LineMap, seed: u64) {
    handle.update_value(|b| {
        let id = b.id();
        let req = Request::Load { id, text, seed };
        if b.load_in_flight.is_some() {
            b.load_next = Some((req, map));
        } else {
            b.load_in_flight = Some((id, map));
            b.post(&req);
        }
    });
    st.set_busy.set(Busy::Running { cycles: 0, pods: 0 });
}

pub fn generate(handle: BridgeHandle, st: AppState, spec: GenSpec, seed: u64) {
    handle.update_value(|b| {
        let id = b.id();
        let req = Request::Generate { id, spec, seed };
        if b.load_in_flight.is_some() {
            b.load_next = Some((req, LineMap::default()));
        } else {
            b.load_in_flight = Some((id, LineMap::default()));
            b.post(&req);
        }
    });
    st.set_busy.set(Busy::Running { cycles: 0, pods: 0 });
}

/// Asks for the frame at `stop` (only the newest request waits while one is in flight).
pub fn request_frame(handle: BridgeHandle, run: u64, stop: u32, detail: bool) {
    handle.update_value(|b| {
        let want = (run, stop, detail);
        if b.frame_last == Some(want) {
            return;
        }
        if b.frame_in_flight {
            b.frame_next = Some(want);
            return;
        }
        b.frame_in_flight = true;
        b.frame_last = Some(want);
        let id = b.id();
        b.post(&Request::Frame { id, run, stop, detail });
    });
}

pub fn explain(handle: BridgeHandle, run: u64, cycle: u32, node: u32, plugin: String, score: bool) {
    handle.update_value(|b| {
        let id = b.id();
        b.explain_id = id;
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

fn on_response(st: AppState, handle: BridgeHandle, r: Response) {
    match r {
        Response::Ready => handle.update_value(|b| {
            b.ready = true;
            if let Some(w) = &b.worker {
                for text in b.backlog.drain(..) {
                    let _ = w.post_message(&JsValue::from_str(&text));
                }
            }
        }),
        Response::Progress { cycles, pods, .. } => st.set_busy.set(Busy::Running { cycles, pods }),
        Response::Loaded {
            run,
            summary,
            run_ms,
            load_ms,
            ..
        } => {
            let summary = Arc::new(*summary);
            // Keep the playhead at the same cycle and phase when the scenario was edited.
            let keep = handle.with_value(|b| b.keep_playhead);
            let old = st.summary.get_untracked();
            let old_stop = st.stop.get_untracked();
            // A new large scenario opens at its end (the final placement), so the first frame
            // asked for is that one.
            let new_stop = match (&old, keep) {
                (Some(old), true) => map_playhead(old, old_stop, &summary),
                _ if summary.model.large => summary.stops.saturating_sub(1),
                _ => 0,
            };
            // The old frame's indices mean nothing in the new run: clear it until the new one
            // arrives (also spares rendering stale views).
            if !keep {
                st.set_frame.set(None);
            }
            st.set_summary.set(Some(summary));
            st.set_issues.set(Vec::new());
            st.set_run_ms.set(run_ms + load_ms);
            st.set_cell.set(None);
            st.set_explanation.set(None);
            st.set_stop.set(new_stop);
            st.set_run.set(run);
            finish_load(st, handle);
        }
        Response::Invalid { id, issues } => {
            let map = handle.with_value(|b| b.load_in_flight.as_ref().filter(|(i, _)| *i == id).map(|(_, m)| m.clone()));
            let map = map.unwrap_or_default();
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
            finish_load(st, handle);
        }
        Response::Frame { run, frame, .. } => {
            if run == st.run.get_untracked() {
                st.set_frame.set(Some(Arc::new(*frame)));
            }
            handle.update_value(|b| {
                b.frame_in_flight = false;
                if let Some((run, stop, detail)) = b.frame_next.take() {
                    if b.frame_last != Some((run, stop, detail)) {
                        b.frame_in_flight = true;
                        b.frame_last = Some((run, stop, detail));
                        let id = b.id();
                        b.post(&Request::Frame { id, run, stop, detail });
                    }
                }
            });
        }
        Response::Explained { id, explanation, .. } => {
            if handle.with_value(|b| b.explain_id == id) {
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
        Response::Failed { message, .. } => {
            if message != "stale run" {
                web_sys::console::warn_1(&format!("schedlab worker: {message}").into());
            }
            handle.update_value(|b| b.frame_in_flight = false);
        }
    }
}

/// After a load answered: start the next waiting one, or go idle.
fn finish_load(st: AppState, handle: BridgeHandle) {
    let more = handle.try_update_value(|b| {
        b.load_in_flight = None;
        b.frame_last = None;
        if let Some((req, map)) = b.load_next.take() {
            let id = match &req {
                Request::Load { id, .. } | Request::Generate { id, .. } => *id,
                _ => 0,
            };
            b.load_in_flight = Some((id, map));
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
fn map_playhead(old: &schedlab_core::view::Summary, stop: u32, new: &schedlab_core::view::Summary) -> u32 {
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
