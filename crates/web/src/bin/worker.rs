//! The Web Worker that runs the engine: receives JSON requests through postMessage and answers
//! with JSON responses (see `schedlab_web::protocol`). Built by Trunk as a no-modules worker.

#[cfg(target_arch = "wasm32")]
fn main() {
    use schedlab_web::protocol::{Request, Response};
    use schedlab_web::worker::WorkerState;
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let state = Rc::new(RefCell::new(WorkerState::default()));
    let post_scope = scope.clone();
    let post = move |r: Response| {
        if let Ok(text) = serde_json::to_string(&r) {
            let _ = post_scope.post_message(&JsValue::from_str(&text));
        }
    };
    let perf = scope.performance();
    let now = move || perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let Some(text) = ev.data().as_string() else { return };
        let mut post = post.clone();
        match serde_json::from_str::<Request>(&text) {
            Ok(req) => state.borrow_mut().handle(req, &mut post, &now),
            Err(e) => post(Response::Failed {
                id: 0,
                message: format!("bad request: {e}"),
            }),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    if let Ok(text) = serde_json::to_string(&Response::Ready) {
        let _ = scope.post_message(&JsValue::from_str(&text));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("schedlab-worker runs in a browser's Web Worker; build it with Trunk (scripts/serve.sh).");
}
