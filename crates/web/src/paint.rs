//! Canvases (the heatmap, the timeline) are the outside world: they are painted in an animation
//! frame, after the browser's own layout, which the canvas size depends on.

use leptos::prelude::*;

/// Paints with `paint` in the next animation frame whenever what `track` reads changes, at most
/// once per frame: changes that come together (a new run's summary and its first frame) ask for
/// one paint, which reads what is current when it runs. Nothing is painted once the component
/// that called this is gone.
pub fn each_frame(track: impl Fn() + 'static, paint: impl Fn() + Copy + 'static) {
    let queued = StoredValue::new(false);
    Effect::new(move |_| {
        track();
        if queued.try_get_value() != Some(false) {
            return;
        }
        queued.set_value(true);
        request_animation_frame(move || {
            if queued.try_set_value(false).is_none() {
                paint();
            }
        });
    });
}
