//! Generate a large synthetic cluster (scheduled in the worker; the page stays responsive).

use crate::protocol::GenSpec;
use crate::scenario::{Parts, Saved};
use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn GenerateDialog() -> impl IntoView {
    let st = use_app();
    let (nodes, set_nodes) = signal(5000u32);
    let (pods, set_pods) = signal(10000u32);
    let (zones, set_zones) = signal(3u32);
    let go = move |_| {
        let spec = schedlab_view::protocol::clamp(&GenSpec {
            nodes: nodes.get_untracked(),
            pods: pods.get_untracked(),
            zones: zones.get_untracked(),
        });
        st.set_show_generate.set(false);
        let _ = st.replace_scenario(Saved {
            parts: Parts::default(),
            seed: st.saved.with_untracked(|s| s.seed),
            preset: None,
            generated: Some(spec),
            controllers: st.saved.with_untracked(|s| s.controllers),
            kubernetes_version: st.saved.with_untracked(|s| s.kubernetes_version),
            feature_gates: st.saved.with_untracked(|s| s.feature_gates.clone()),
            lesson: None,
        });
    };
    let num = move |label: &'static str, get: ReadSignal<u32>, set: WriteSignal<u32>, max: u32, name: &'static str| {
        view! {
            <label class="field">
                <span class="label">{label}</span>
                <input
                    type="number"
                    name=name
                    min="1"
                    max=max.to_string()
                    prop:value=move || get.get().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).trim().parse::<u32>() {
                            set.set(v)
                        }
                    }
                />
            </label>
        }
    };
    view! {
        <Show when=move || st.show_generate.get()>
            <div class="modal-backdrop" on:click=move |_| st.set_show_generate.set(false)>
                <div class="modal" role="dialog" aria-modal="true" aria-label="Generate a large cluster" on:click=|e| e.stop_propagation()>
                    <button class="btn icon close" aria-label="Close" on:click=move |_| st.set_show_generate.set(false)>"×"</button>
                    <h2>"Generate a large cluster"</h2>
                    <p class="muted">"Nodes of 4–16 cpu spread over the zones, and pending pods of assorted sizes (250m–6 cpu). The engine schedules them in a Web Worker; the cluster is shown as a heatmap."</p>
                    <div class="gen-fields">
                        {num("Nodes", nodes, set_nodes, schedlab_view::protocol::MAX_NODES, "nodes")}
                        {num("Pods", pods, set_pods, schedlab_view::protocol::MAX_PODS, "pods")}
                        {num("Zones", zones, set_zones, 26, "zones")}
                    </div>
                    <div class="modal-actions">
                        <button class="btn primary" on:click=go>"Generate and schedule"</button>
                    </div>
                </div>
            </div>
        </Show>
    }
}
