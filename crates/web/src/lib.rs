//! The schedlab playground: a Leptos (client-side rendered) app. The page edits the scenario and
//! renders views; the engine runs in a Web Worker (`schedlab-worker`), which owns the run and
//! answers with the views of `schedlab_view` (the page does not link the engine: `schedlab-core`
//! is only a dev-dependency, for unit tests). No scheduling logic lives in this crate.

/// In wasm, Talc instead of Rust's default allocator (dlmalloc): 1.2 KB smaller (gzip), and as
/// fast as measured in the browser (docs/web.md). Natively the system's allocator stays.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub mod actions;
pub mod bridge;
pub mod components;
pub mod editor_js;
pub mod embed;
pub mod fmt;
pub mod lessons;
pub mod link;
pub mod markdown;
pub mod paint;
pub mod playback;
pub mod player;
pub mod recent;
pub mod recovery;
pub use schedlab_view::protocol;
pub mod scenario;
pub mod shell;
pub mod state;
pub mod storage;
pub mod theme;
pub mod timeline_text;
