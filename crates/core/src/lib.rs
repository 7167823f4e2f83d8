//! schedlab-core: a deterministic, no-IO re-implementation of kube-scheduler v1.34.
//!
//! Inputs in (a scenario: YAML text, a seed), events out (the trace). The engine never reads a
//! clock, never does IO and has no global state; the caller steps it.

pub mod answer;
pub mod api;
pub mod apimachinery;
pub mod cluster;
pub mod config;
pub mod conformance;
pub mod controllers;
pub mod dra;
pub mod engine;
pub mod export;
pub mod framework;
pub mod import;
pub mod labels;
pub mod lesson;
pub mod load;
pub mod model;
pub mod output;
pub mod plugins;
pub mod quantity;
pub mod queue;
pub mod rng;
pub mod sort;
pub mod timeline;
pub mod trace;
pub mod version;
pub mod view;
pub mod vocabulary;

pub use engine::{Engine, EngineOptions};
/// Whether this build evaluates CEL (the `cel` feature, on by default). Without it a scenario
/// holding a CEL expression does not load (`LoadErrors::needs_cel`).
pub const CEL: bool = dra::cel::AVAILABLE;
pub use load::{load_str, LoadErrors, Scenario};

// Unit tests also run compiled to wasm32, in headless Chromium (scripts/test.sh).
#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
