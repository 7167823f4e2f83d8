//! Keyboard shortcuts (not while typing): each key says an intent to the player.

use crate::editor_js::EditorHandle;
use crate::player::{Intent, Seek};
use crate::state::AppState;
use leptos::ev;
use leptos::prelude::*;

/// Whether a key went to a text field or the editor.
fn typing(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .map(|el| {
            let tag = el.tag_name().to_ascii_lowercase();
            matches!(tag.as_str(), "input" | "textarea" | "select") || el.closest(".cm-editor").ok().flatten().is_some()
        })
        .unwrap_or(false)
}

pub fn install(st: AppState, editor: EditorHandle) {
    let _ = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let key = e.key();
        if key == "Escape" {
            st.close_explanation();
            st.set_show_help.set(false);
            st.set_show_generate.set(false);
            st.close_popovers();
            return;
        }
        if typing(&e) {
            return;
        }
        let seek = |to, pause| st.act(Intent::Seek { to, pause });
        let mut handled = true;
        match key.as_str() {
            " " | "k" => st.toggle_play(),
            "ArrowRight" if e.shift_key() => seek(Seek::Pod { forward: true }, true),
            "ArrowLeft" if e.shift_key() => seek(Seek::Pod { forward: false }, true),
            "ArrowRight" | "l" => seek(Seek::Phase { forward: true }, true),
            "ArrowLeft" | "j" => seek(Seek::Phase { forward: false }, true),
            "Home" => seek(Seek::Stop(0), false),
            "End" => seek(Seek::End, false),
            "1" | "2" | "3" | "4" => st.set_speed.set(key.parse().unwrap_or(2)),
            "?" if st.show_help.get_untracked() => st.set_show_help.set(false),
            "?" => st.open_help(),
            "e" => editor.with_value(|ed| {
                if let Some(ed) = ed {
                    ed.focus()
                }
            }),
            _ => handled = false,
        }
        if handled {
            e.prevent_default();
        }
    });
}
