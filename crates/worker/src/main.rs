//! The Web Worker that runs the engine: receives JSON requests through postMessage and answers
//! with JSON responses (see `schedlab_view::protocol`), both as UTF-8 bytes in transferred buffers. Built by Trunk as a no-modules worker.

#[cfg(target_arch = "wasm32")]
fn main() {
    use schedlab_view::protocol::{Request, Response};
    use schedlab_worker::WorkerState;
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let state = Rc::new(RefCell::new(WorkerState::default()));
    let post_scope = scope.clone();
    // Responses travel as UTF-8 JSON in a transferred ArrayBuffer: no UTF-16 string to build
    // and copy on the page's side (large summaries would cost the page a long task).
    let post = move |r: Response| {
        if let Ok(bytes) = serde_json::to_vec(&r) {
            let arr = js_sys::Uint8Array::from(&bytes[..]);
            let transfer = js_sys::Array::of1(&arr.buffer());
            let _ = post_scope.post_message_with_transfer(&arr, &transfer);
        }
    };
    let perf = scope.performance();
    let now = move || perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        // Requests come as UTF-8 JSON in a transferred buffer (see the page's bridge).
        let Ok(arr) = ev.data().dyn_into::<js_sys::Uint8Array>() else {
            return;
        };
        let bytes = arr.to_vec();
        let mut post = post.clone();
        match serde_json::from_slice::<Request>(&bytes) {
            Ok(req) => state.borrow_mut().handle(req, &mut post, &now),
            Err(e) => post(Response::Failed {
                id: 0,
                message: format!("bad request: {e}"),
            }),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post_ready(&scope);
}

#[cfg(target_arch = "wasm32")]
fn post_ready(scope: &web_sys::DedicatedWorkerGlobalScope) {
    if let Ok(bytes) = serde_json::to_vec(&schedlab_view::protocol::Response::Ready) {
        let arr = js_sys::Uint8Array::from(&bytes[..]);
        let _ = scope.post_message(&arr);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("schedlab-worker runs in a browser's Web Worker; build it with Trunk (scripts/serve.sh).");
}
