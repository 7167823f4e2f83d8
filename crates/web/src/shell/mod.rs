//! The app shell's work outside the components: reading the address at start-up, autosave,
//! keeping the address in step with the screen, keyboard shortcuts and what the page writes on
//! its document element. `components::app::App` calls each once.

pub mod address;
pub mod autosave;
pub mod document;
pub mod keyboard;
pub mod startup;
