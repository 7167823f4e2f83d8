//! Messages that stay until the user acts: another tab changed the scenario, a link that could
//! not be read, an engine that does not answer.

use crate::state::use_app;
use crate::storage;
use leptos::prelude::*;

#[component]
pub fn Notices() -> impl IntoView {
    let st = use_app();
    let keep_mine = move |_| {
        let saved = st.saved.get_untracked();
        storage::save(&saved, true);
        st.set_conflict.set(false);
    };
    let load_theirs = move |_| {
        st.set_conflict.set(false);
        match storage::take_theirs() {
            Some(theirs) => {
                // Ours joins the recent scenarios (replace_scenario never drops an edited one).
                let _ = st.replace_scenario(theirs);
            }
            None => st
                .set_notice
                .set(Some("The other tab's scenario could not be read; yours is kept.".into())),
        }
    };
    view! {
        <div class="notices" role="region" aria-label="Notices">
            <Show when=move || st.conflict.get()>
                <div class="notice warn" role="alertdialog" aria-label="The scenario changed in another tab">
                    <span>
                        <strong>"Another tab changed your saved scenario."</strong>
                        " Nothing is overwritten until you choose."
                    </span>
                    <button class="btn small" on:click=keep_mine title="Save this tab's scenario over the other tab's">"Keep mine"</button>
                    <button class="btn small" on:click=load_theirs title="Load the other tab's scenario; this tab's stays available among the recent scenarios of the preset list">"Load theirs"</button>
                </div>
            </Show>
            {move || {
                st.notice
                    .get()
                    .map(|msg| {
                        view! {
                            <div class="notice error" role="alert">
                                <span>{msg}</span>
                                <button class="btn small icon" aria-label="Dismiss" title="Dismiss" on:click=move |_| st.set_notice.set(None)>"×"</button>
                            </div>
                        }
                    })
            }}
            {move || {
                st.engine_note
                    .get()
                    .map(|msg| {
                        view! {
                            <div class="notice warn" role="status">
                                <span>{msg}</span>
                            </div>
                        }
                    })
            }}
        </div>
    }
}
