//! The full engine worker (with the `cel` feature: web/index.html): the page starts it when the
//! light one (src/main.rs) answers `Response::NeedsFullEngine`.

fn main() {
    #[cfg(target_arch = "wasm32")]
    schedlab_worker::browser::start();
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("schedlab-worker-full runs in a browser's Web Worker; build it with Trunk (scripts/serve.sh).");
}
