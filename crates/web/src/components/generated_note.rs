//! A generated cluster's note above the editor: its size, and a button that writes its YAML into
//! the editor (it is not loaded there by itself: it would be megabytes).

use crate::scenario::Saved;
use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn GeneratedNote() -> impl IntoView {
    let st = use_app();
    let generated = Memo::new(move |_| st.saved.with(|s| s.generated.clone()));
    let to_yaml = move |_| {
        let Some(spec) = generated.get_untracked() else { return };
        st.flash("Writing the generated cluster into the editor…");
        let seed = st.saved.with_untracked(|s| s.seed);
        st.generated_text(spec, move |text| {
            let (nodes, pods) = text.split_once('\u{0}').unwrap_or((&text, ""));
            let parts = crate::scenario::Parts {
                nodes: nodes.to_string(),
                pods: pods.to_string(),
                ..Default::default()
            };
            let _ = st.replace_scenario(Saved {
                parts,
                seed,
                preset: None,
                generated: None,
                controllers: st.saved.with_untracked(|s| s.controllers),
                kubernetes_version: st.saved.with_untracked(|s| s.kubernetes_version),
                feature_gates: st.saved.with_untracked(|s| s.feature_gates.clone()),
                lesson: None,
            });
        });
    };

    view! {
            {move || {
                generated
                    .get()
                    .map(|g| {
                        view! {
                            <div class="generated-note" role="note">
                                <strong>{format!("Generated cluster: {}, {}, {}.", crate::fmt::count(g.nodes as usize, "node"), crate::fmt::count(g.pods as usize, "pod"), crate::fmt::count(g.zones as usize, "zone"))}</strong>
                                " Its YAML is not loaded into the editor (it would be megabytes). "
                                <button class="btn small" on:click=to_yaml>"Load the YAML into the editor"</button>
                            </div>
                        }
                    })
            }}
    }
}
