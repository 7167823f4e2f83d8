//! What the page writes on its document: the theme, whether it is a development build, and a
//! bound pod's flight from the queue to its node.

use crate::state::{AppState, Theme};
use leptos::prelude::*;

pub fn install(st: AppState) {
    // A development build says so on the document element (the browser test that collects
    // Leptos' warnings, which only development builds log, checks it runs against one).
    if cfg!(debug_assertions) {
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-debug-build", "true");
        }
    }

    // Theme on the document element.
    Effect::new(move |_| {
        let t = st.theme.get();
        let name = if t == Theme::Dark { "dark" } else { "light" };
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-theme", name);
        }
    });

    // A bound pod flies from the queue to its node (FLIP: it is drawn in place, then animated
    // from where the queue showed it). Skipped when the user prefers reduced motion.
    Effect::new(move |_| {
        let Some((pod, _node)) = st.frame.with(|f| f.as_ref().and_then(|f| f.bound)) else {
            return;
        };
        if crate::embed::reduced_motion() {
            return;
        }
        let name = st.pod_name(pod);
        request_animation_frame(move || fly_from_queue(&name));
    });
}

/// Animates the just-placed chip of `pod` from the queue's in-flight slot to where it is now.
fn fly_from_queue(pod: &str) {
    use wasm_bindgen::JsCast;
    let doc = document();
    let Ok(Some(src)) = doc.query_selector(".queue-panel .inflight .chip") else {
        return;
    };
    let sel = format!(".cluster-panel .chip.new[data-pod=\"{}\"]", pod.replace('"', ""));
    let Ok(Some(dst)) = doc.query_selector(&sel) else { return };
    let a = src.get_bounding_client_rect();
    let b = dst.get_bounding_client_rect();
    let (dx, dy) = (a.left() - b.left(), a.top() - b.top());
    let frame = |t: &str, o: &str| {
        let f = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&f, &"transform".into(), &t.into());
        let _ = js_sys::Reflect::set(&f, &"opacity".into(), &o.into());
        f
    };
    let frames = js_sys::Array::of2(
        &frame(&format!("translate({dx}px, {dy}px) scale(1.15)"), "0.9"),
        &frame("none", "1"),
    );
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"duration".into(), &520.into());
    let _ = js_sys::Reflect::set(&opts, &"easing".into(), &"cubic-bezier(.2,.7,.2,1)".into());
    if let Ok(f) = js_sys::Reflect::get(&dst, &"animate".into()) {
        if let Ok(f) = f.dyn_into::<js_sys::Function>() {
            let _ = f.call2(&dst, &frames, &opts);
        }
    }
}
