//! The top bar's Kubernetes version (which kube-scheduler runs the scenario) and the run's
//! feature gates. Both are settings of the run kept with the scenario (`Saved`), so they are
//! saved and travel in a share link; changing either re-runs from the start. The gates are
//! kube-scheduler's `--feature-gates` command-line flag, not a field of the
//! KubeSchedulerConfiguration, and the popover says so.

use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::KubeVersion;

#[component]
pub fn VersionSelect() -> impl IntoView {
    let st = use_app();
    let version = Memo::new(move |_| st.saved.with(|s| s.kubernetes_version));
    let gates = Memo::new(move |_| st.saved.with(|s| s.feature_gates.clone()));
    let on_version = move |ev: leptos::ev::Event| {
        if let Some(v) = KubeVersion::parse(&event_target_value(&ev)) {
            if v != version.get_untracked() {
                // Another scheduler: play it from the start.
                st.set_fresh.set(true);
                st.set_saved.update(|s| s.kubernetes_version = v);
            }
        }
    };
    let on_gates = move |ev: leptos::ev::Event| {
        let g = event_target_value(&ev).trim().to_string();
        if g != gates.get_untracked() {
            st.set_fresh.set(true);
            st.set_saved.update(|s| s.feature_gates = g);
        }
    };
    // How many gates are set (shown beside the word, or alone beside the glyph when the bar is
    // narrow).
    let gates_count = move || {
        let n = gates.with(|g| g.split(',').filter(|e| !e.trim().is_empty()).count());
        (n > 0).then(|| format!(" ({n})"))
    };
    view! {
        <label class="field version">
            <span class="label">"Kubernetes"</span>
            <select
                aria-label="Kubernetes version"
                title="The kube-scheduler version whose behaviour the engine reproduces"
                data-version=move || version.get().as_str()
                on:change=on_version
                prop:value=move || version.get().as_str()
            >
                {KubeVersion::ALL
                    .into_iter()
                    .map(|v| view! { <option value=v.as_str() selected=move || version.get() == v>{format!("v{v}")}</option> })
                    .collect_view()}
            </select>
        </label>
        <details class="gates">
            <summary
                class="btn"
                class:set=move || gates.with(|g| !g.is_empty())
                aria-label="Feature gates"
                title="kube-scheduler's --feature-gates flag for this run"
            >
                <span class="g-glyph" aria-hidden="true">"⚑"</span>
                <span class="g-word">" Gates"</span>
                <span class="g-count">{gates_count}</span>
            </summary>
            <div class="gates-popover" role="group" aria-label="Feature gates">
                <label class="gates-field">
                    <span class="label">"kube-scheduler --feature-gates"</span>
                    <input
                        type="text"
                        spellcheck="false"
                        placeholder="Name=true,Other=false"
                        aria-label="kube-scheduler --feature-gates"
                        prop:value=move || gates.get()
                        on:change=on_gates
                    />
                </label>
                <p class="muted">
                    "A command-line flag of kube-scheduler, not part of the KubeSchedulerConfiguration: it is kept with this scenario beside the version, not in its text. Empty: "
                    {move || format!("v{}", version.get())}
                    "'s defaults. A gate the version does not know is an error."
                </p>
            </div>
        </details>
    }
}
