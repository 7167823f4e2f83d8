//! The engine's load and run behind three plain wasm exports, for `profile.mjs`: `buf(n)` gives
//! a buffer for the scenario's text, `load()` reads it (as the worker's `Request::Load` does,
//! at v1.34) and `run()` schedules it (controllers on). Nothing is freed: each instance is used
//! for a few runs and dropped.

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use schedlab_core::load::Scenario;
use schedlab_core::version::{Features, KubeVersion};
use schedlab_core::view::{Session, SessionOptions};
use std::cell::RefCell;

thread_local! {
    static TEXT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static LOADED: RefCell<Option<Scenario>> = const { RefCell::new(None) };
}

/// A buffer of `n` bytes for the scenario's text; the caller writes it through the memory.
#[no_mangle]
pub extern "C" fn buf(n: usize) -> *mut u8 {
    TEXT.with(|t| {
        let mut t = t.borrow_mut();
        *t = vec![0; n];
        t.as_mut_ptr()
    })
}

/// Loads the text in the buffer; returns its pods (0: it did not load).
#[no_mangle]
pub extern "C" fn load() -> u32 {
    let loaded = TEXT.with(|t| {
        let t = t.borrow();
        let text = std::str::from_utf8(&t).ok()?;
        let features = Features::with_gates(KubeVersion::V1_34, "").ok()?;
        schedlab_core::load::load_str_for(text, "scenario.yaml", &features).ok()
    });
    let pods = loaded.as_ref().map_or(0, |sc| sc.pods.len() as u32);
    LOADED.with(|l| *l.borrow_mut() = loaded);
    pods
}

/// Runs the scenario `load` read; returns 1 (0: nothing was loaded).
#[no_mangle]
pub extern "C" fn run() -> u32 {
    let Some(sc) = LOADED.with(|l| l.borrow_mut().take()) else { return 0 };
    let (session, spent) = Session::with_options_spent(sc, SessionOptions { seed: 1, controllers: true }, &mut |_| {});
    // Freeing tens of thousands of objects is not what is measured.
    std::mem::forget((session, spent));
    1
}
