//! The Web Worker's wiring to the browser (wasm32 only): receives requests through postMessage
//! and answers with responses (`schedlab_view::protocol`), both `schedlab_view::wire`-encoded
//! in transferred buffers. Both worker binaries (`src/main.rs`, the light one without CEL,
//! and `src/full.rs`, with it) start here; Trunk builds each as a no-modules worker.
//!
//! A panic cannot be caught on wasm32 (panic = abort: the instance traps). The panic hook
//! answers the request being handled with `Response::Crashed` (the message and where), marks
//! the worker stopped (later messages are ignored: the page replaces this worker) and sets
//! `self.schedlabPanicReported`, so that web/schedlab-worker_loader.js keeps the trap that
//! follows from reaching the page a second time as an `error` event.

thread_local! {
    /// The id of the request being answered, for the panic hook.
    static CURRENT: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
    /// The hook ran: the instance has trapped (or is about to) and answers nothing more.
    static STOPPED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// A request has come: the warm-up is no longer worth its time.
    static ASKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The idle warm-up (`Request::WarmUp`) has started: asked again, it does not start over.
    static WARMING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs slice `k` of the idle warm-up (`crate::warm_slice`) and schedules the next one in a task
/// of its own, so that requests that arrive meanwhile are answered between slices.
fn warm_from(k: u32) {
    use wasm_bindgen::JsCast;
    if STOPPED.get() || k >= crate::WARM_SLICES {
        return;
    }
    crate::warm_slice(k);
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let next = wasm_bindgen::closure::Closure::once_into_js(move || warm_from(k + 1));
    let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(next.unchecked_ref(), 0);
}

/// Answers the page's requests until the worker is terminated.
pub fn start() {
    use crate::WorkerState;
    use schedlab_view::protocol::{Request, Response};
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    std::panic::set_hook(Box::new(on_panic));
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // The state is taken out while a request is handled, never borrowed across it: a trap
    // then leaves it out (and the worker answers nothing more) rather than borrowed forever.
    let state = Rc::new(RefCell::new(Some(WorkerState::default())));
    let perf = scope.performance();
    let clock = move || perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
    let now = clock.clone();
    let handled = state.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        if STOPPED.get() {
            return;
        }
        // Requests come `schedlab_view::wire`-encoded in a transferred buffer (the page's bridge).
        let Ok(arr) = ev.data().dyn_into::<js_sys::Uint8Array>() else {
            return;
        };
        let bytes = arr.to_vec();
        match schedlab_view::wire::from_bytes::<Request>(&bytes) {
            Ok(Request::WarmUp) => {
                if !WARMING.replace(true) {
                    warm_from(0);
                }
            }
            Ok(req) => {
                ASKED.set(true);
                let Some(mut ws) = handled.borrow_mut().take() else {
                    // A trap no hook saw left the state out: this instance has stopped.
                    return;
                };
                CURRENT.set(req.id());
                ws.handle(req, &mut post, &now);
                CURRENT.set(None);
                *handled.borrow_mut() = Some(ws);
            }
            Err(e) => post(Response::Failed {
                id: 0,
                message: format!("bad request: {e}"),
            }),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(Response::Ready);
    // While the page is still starting (index.html starts this worker before the page's own
    // wasm has loaded), run the opening scenario as the page will ask for it and keep the run
    // (`WorkerState::prepare_opening`): the page's first load is then answered as soon as it
    // arrives, and the browser has compiled the engine's functions meanwhile. In a task of its
    // own, after `Ready` has gone out, and only if the page has asked nothing yet (what it asked
    // before the engine was up is handed over first: web/schedlab-worker_loader.js).
    let warm = Closure::once_into_js(move || {
        if STOPPED.get() || ASKED.get() {
            return;
        }
        // Taken out as for a request (a trap leaves it out), in a statement of its own: the
        // borrow ends before the state is put back.
        let taken = state.borrow_mut().take();
        if let Some(mut ws) = taken {
            ws.prepare_opening(&clock);
            *state.borrow_mut() = Some(ws);
        }
    });
    let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(warm.unchecked_ref(), 0);
}

/// Posts a response `schedlab_view::wire`-encoded in a transferred ArrayBuffer: no UTF-16 string
/// to build and copy on the page's side (large summaries would cost the page a long task).
fn post(r: schedlab_view::protocol::Response) {
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if let Ok(bytes) = schedlab_view::wire::to_bytes(&r) {
        let arr = js_sys::Uint8Array::from(&bytes[..]);
        let transfer = js_sys::Array::of1(&arr.buffer());
        let _ = scope.post_message_with_transfer(&arr, &transfer);
    }
}

fn on_panic(info: &std::panic::PanicHookInfo<'_>) {
    use schedlab_view::protocol::{PanicReport, Response};
    // A panic while reporting one: the first report stands.
    if STOPPED.replace(true) {
        return;
    }
    console_error_panic_hook::hook(info);
    let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = info.payload().downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    };
    let (file, line, column) = info
        .location()
        .map(|l| (l.file().to_string(), l.line(), l.column()))
        .unwrap_or_default();
    post(Response::Crashed {
        id: CURRENT.get(),
        panic: PanicReport {
            message,
            file,
            line,
            column,
        },
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &"schedlabPanicReported".into(), &true.into());
}
