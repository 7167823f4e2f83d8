//! The address always holds the current state (scenario and view, debounced), so copying it
//! shares what is on screen. A scenario too large for an address is left out (a reload still
//! has it from the autosave).

use crate::link;
use crate::state::AppState;
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::time::Duration;

/// The largest scenario payload the address bar is given (characters). Each change of the view
/// or the scenario rewrites the address, and the browser's `replaceState` costs about 0.3 ms
/// per KB of address on the main thread: a 200 KB payload (a 10 000-pod scenario) held each
/// edit's re-run back with a 50–70 ms task (web/bench/bench.mjs, typing). Share warns past
/// 8,000 characters anyway.
const MAX_ADDRESS_PAYLOAD: usize = 32 * 1024;

/// The link state of what is on screen, with the given scenario payload. It reads the state
/// untracked (Share calls it from an event handler); an effect that must follow the view tracks
/// what it reads with `track_link_state`.
pub fn link_state(st: AppState, payload: Option<String>) -> link::LinkState {
    let stop = st.stop.get_untracked();
    let (cycle, phase) = st
        .summary
        .with_untracked(|s| s.as_ref().map(|s| s.playhead(stop)))
        .map(|(c, p)| (Some(c), p.map(|p| p.label().to_string())))
        .unwrap_or((None, None));
    link::LinkState {
        payload,
        cycle,
        phase,
        tab: (!st.embed).then(|| st.tab.get_untracked().id().to_string()),
        view: Some(st.lower.get_untracked().id().to_string()),
        controllers: Some(st.saved.with_untracked(|s| s.controllers)),
    }
}

/// Subscribes the running effect to everything `link_state` reads.
fn track_link_state(st: AppState) {
    st.stop.track();
    st.summary.track();
    st.tab.track();
    st.lower.track();
    st.saved.track();
}

/// Keeps the address in step (not while a link's scenario is still being read).
pub fn install(st: AppState, link_pending: ReadSignal<bool>) {
    let (payload, set_payload) = signal::<Option<String>>(None);
    let encoding = StoredValue::new(0u64);
    Effect::new(move |_| {
        st.saved.track();
        if link_pending.get() {
            return;
        }
        let g = encoding.get_value() + 1;
        encoding.set_value(g);
        set_timeout(
            move || {
                if encoding.get_value() != g {
                    return;
                }
                let saved = st.saved.get_untracked();
                spawn_local(async move {
                    let p = storage::encode(&saved).await;
                    if encoding.get_value() == g {
                        set_payload.set(p);
                    }
                });
            },
            Duration::from_millis(300),
        );
    });
    let addressing = StoredValue::new(0u64);
    Effect::new(move |_| {
        let Some(p) = payload.get() else { return };
        track_link_state(st);
        let state = link_state(st, Some(p).filter(|p| p.len() <= MAX_ADDRESS_PAYLOAD));
        let g = addressing.get_value() + 1;
        addressing.set_value(g);
        set_timeout(
            move || {
                if addressing.get_value() == g {
                    // Only a full page remembers its own address (an embed has no autosave to
                    // prefer, and a tab it opens inherits this tab's session storage).
                    // (A scenario too large for the address forgets nothing: an address that
                    // still holds an older payload of this tab's is still its own.)
                    if let Some(p) = state.payload.as_deref().filter(|_| !st.embed) {
                        storage::remember_own_address_payload(p);
                    }
                    let loc = window().location();
                    storage::replace_url(&format!(
                        "{}{}{}",
                        loc.pathname().unwrap_or_default(),
                        loc.search().unwrap_or_default(),
                        link::to_hash(&state)
                    ));
                }
            },
            Duration::from_millis(250),
        );
    });
}
