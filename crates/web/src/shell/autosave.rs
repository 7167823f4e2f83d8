//! Autosave (not when embedded: a docs page must not overwrite the visitor's own work), in a
//! task of its own `save_delay` after the last change: serializing and storing a large scenario
//! (megabytes of YAML) then never lengthens the task that handles a keystroke, and, the larger
//! the scenario, the longer the pause in typing it waits for. Leaving or hiding the page saves
//! at once. A save never writes over another tab's newer one: the user is asked instead.

use crate::editor_js::EditorHandle;
use crate::state::AppState;
use crate::storage;
use leptos::ev;
use leptos::prelude::*;
use std::time::Duration;

/// How long after the last change a scenario of `bytes` is autosaved: 100 ms, and a tenth of
/// a second more per 400 KB, at most two seconds. Storing a 10 000-pod scenario is a task of
/// tens of milliseconds; a keystroke that came meanwhile would wait for it.
fn save_delay(bytes: usize) -> Duration {
    Duration::from_millis((100 + bytes as u64 / 4000).min(2000))
}

/// `data-saving` on the document element says a save is waiting (tests wait for it to clear
/// before reading storage).
fn mark_saving(on: bool) {
    if let Some(el) = document().document_element() {
        let _ = el.set_attribute("data-saving", if on { "true" } else { "false" });
    }
}

pub fn install(st: AppState, editor: EditorHandle) {
    if st.embed {
        return;
    }
    let save_pending = StoredValue::new_local(None::<TimeoutHandle>);
    let save_conflicting = move || {
        if !st.conflict.get_untracked() && st.saved.with_untracked(|s| storage::save(s, false)) == storage::SaveOutcome::Conflict {
            st.set_conflict.set(true);
        }
    };
    Effect::new(move |_| {
        st.saved.track();
        st.conflict.track();
        if let Some(h) = save_pending.try_update_value(Option::take).flatten() {
            h.clear();
        }
        let h = set_timeout_with_handle(
            move || {
                save_pending.set_value(None);
                save_conflicting();
                mark_saving(false);
            },
            save_delay(st.saved.with_untracked(|s| s.parts.len())),
        );
        mark_saving(h.is_ok());
        save_pending.set_value(h.ok());
    });
    // Another tab saved: ask (keep mine / load theirs).
    let _ = window_event_listener(ev::storage, move |e: web_sys::StorageEvent| {
        if st.saved.with_untracked(|ours| storage::changed_elsewhere(e.key(), ours)) {
            st.set_conflict.set(true);
        }
    });
    // Leaving or hiding the page: the editor's pending change is saved now, not after its
    // debounce (a reload right after typing keeps the edit).
    let flush = move || {
        if let Some(h) = save_pending.try_update_value(Option::take).flatten() {
            h.clear();
            mark_saving(false);
        }
        editor.with_value(|e| {
            if let Some(e) = e {
                e.flush()
            }
        });
        let saved = st.saved.get_untracked();
        if st.conflict.get_untracked() {
            // Unresolved: keep this tab's scenario aside rather than over the other's.
            storage::keep_recent(&saved);
        } else if storage::save(&saved, false) == storage::SaveOutcome::Conflict {
            storage::keep_recent(&saved);
            st.set_conflict.set(true);
        }
    };
    let _ = window_event_listener(ev::pagehide, move |_| flush());
    let _ = window_event_listener(ev::visibilitychange, move |_| {
        if document().visibility_state() == web_sys::VisibilityState::Hidden {
            flush()
        }
    });
}

#[cfg(test)]
mod tests {
    use super::save_delay;
    use std::time::Duration;

    #[test]
    fn a_larger_scenario_waits_for_a_longer_pause_up_to_two_seconds() {
        assert_eq!(save_delay(0), Duration::from_millis(100));
        assert_eq!(save_delay(6_000), Duration::from_millis(101));
        assert_eq!(save_delay(3_000_000), Duration::from_millis(850));
        assert_eq!(save_delay(100_000_000), Duration::from_millis(2000));
    }
}
