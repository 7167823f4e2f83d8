//! The light engine worker (built without the `cel` feature: web/index.html): what the page
//! starts first. A scenario holding CEL is answered `Response::NeedsFullEngine`, and the page
//! asks `schedlab-worker-full` (src/full.rs) instead.

fn main() {
    #[cfg(target_arch = "wasm32")]
    schedlab_worker::browser::start();
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("schedlab-worker runs in a browser's Web Worker; build it with Trunk (scripts/serve.sh).");
}
