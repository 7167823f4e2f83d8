//! The handle between the editor and the cluster: drag it (or focus it and use the arrow keys)
//! to give the editor more or less width. The width is remembered.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

const KEY: &str = "schedlab.editorWidth";
const MIN: f64 = 260.0;

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// Sets the editor's width (px) on the workspace, within bounds; returns the width used.
fn apply(width: f64) -> Option<f64> {
    let ws = document().query_selector(".workspace").ok().flatten()?;
    let total = ws.get_bounding_client_rect().width();
    let w = width.clamp(MIN, (total * 0.6).max(MIN));
    ws.dyn_ref::<web_sys::HtmlElement>()?
        .style()
        .set_property("--editor-w", &format!("{w:.0}px"))
        .ok()?;
    Some(w)
}

fn current() -> f64 {
    document()
        .query_selector(".editor-panel")
        .ok()
        .flatten()
        .map(|e| e.get_bounding_client_rect().width())
        .unwrap_or(360.0)
}

#[component]
pub fn Splitter() -> impl IntoView {
    let dragging = StoredValue::new(false);
    // The remembered width, once the workspace is laid out.
    request_animation_frame(|| {
        if let Some(w) = storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .and_then(|v| v.parse::<f64>().ok())
        {
            apply(w);
        }
    });
    let save = |w: f64| {
        if let Some(s) = storage() {
            let _ = s.set_item(KEY, &format!("{w:.0}"));
        }
    };
    let down = move |e: web_sys::PointerEvent| {
        dragging.set_value(true);
        if let Some(t) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            let _ = t.set_pointer_capture(e.pointer_id());
        }
        e.prevent_default();
    };
    let moved = move |e: web_sys::PointerEvent| {
        if !dragging.get_value() {
            return;
        }
        let left = document()
            .query_selector(".workspace")
            .ok()
            .flatten()
            .map(|w| w.get_bounding_client_rect().left())
            .unwrap_or(0.0);
        apply(e.client_x() as f64 - left - 6.0);
    };
    let up = move |_e: web_sys::PointerEvent| {
        if dragging.get_value() {
            dragging.set_value(false);
            save(current());
        }
    };
    let key = move |e: web_sys::KeyboardEvent| {
        let step = if e.shift_key() { 80.0 } else { 20.0 };
        let w = match e.key().as_str() {
            "ArrowLeft" => current() - step,
            "ArrowRight" => current() + step,
            _ => return,
        };
        e.prevent_default();
        e.stop_propagation();
        if let Some(w) = apply(w) {
            save(w);
        }
    };
    view! {
        <div
            class="splitter"
            role="separator"
            aria-orientation="vertical"
            aria-label="Resize the editor (arrow keys)"
            title="Drag to resize the editor"
            tabindex="0"
            on:pointerdown=down
            on:pointermove=moved
            on:pointerup=up
            on:pointercancel=up
            on:keydown=key
        ></div>
    }
}
