//! Mounts the playground.

fn main() {
    console_error_panic_hook::set_once();
    // The browser finishes compiling the wasm in the task that calls `main`; mounting in the
    // next task keeps that compilation and the first render from adding up to one long task
    // (bench.mjs: the longest main-thread task at start-up).
    leptos::prelude::set_timeout(|| leptos::mount::mount_to_body(schedlab_web::components::app::App), std::time::Duration::ZERO);
}
