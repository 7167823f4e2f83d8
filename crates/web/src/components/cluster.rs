//! The cluster: node cards grouped by zone, or a utilisation heatmap for large clusters.

use crate::components::{heatmap::Heatmap, node_card::NodeCard, story::Story};
use crate::fmt;
use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn ClusterView() -> impl IntoView {
    let st = use_app();
    let large = Memo::new(move |_| st.summary.with(|s| s.as_ref().is_some_and(|s| s.model.large)));
    // (zone name, node indices in document order), zones in order of first appearance.
    let zones = Memo::new(move |_| {
        st.summary.with(|s| {
            let Some(s) = s else { return Vec::new() };
            let m = &s.model;
            let mut out: Vec<(String, Vec<u32>)> = m.zones.iter().map(|z| (z.clone(), Vec::new())).collect();
            for &n in &m.display_order {
                let z = m.nodes[n as usize].zone as usize;
                if let Some(e) = out.get_mut(z) {
                    e.1.push(n);
                }
            }
            out.retain(|z| !z.1.is_empty());
            out
        })
    });
    // The pods at the playhead (the top bar's are at the run's end; at the last stop they agree).
    let counts = move || {
        st.frame.with(|f| {
            f.as_ref()
                .map(|f| format!("at the playhead: {}", fmt::pod_counts(f.running, f.pending, f.evicted)))
                .unwrap_or_default()
        })
    };
    let counts_title = move || {
        st.frame.with(|f| {
            f.as_ref()
                .map(|f| {
                    format!(
                        "Pods at the playhead (t = {}): on a node, waiting to be scheduled, evicted so far. The top bar counts them at the end of the run.",
                        fmt::clock(f.clock_ms)
                    )
                })
                .unwrap_or_default()
        })
    };
    view! {
        <div class="panel-head">
            <h2>"Cluster"</h2>
            // The compare view (components/compare_dialog.rs); not in an embed. On the left: the answers panel floats on the right.
            {use_context::<crate::components::answers_panel::Questions>().filter(|_| !st.embed).map(|q| view! {
                <button class="btn small" data-action="open-compare" aria-haspopup="dialog" title="Run this scenario beside another configuration, the scenario before the last edit, or another seed: the pods that land differently, per-pod scores, summary figures, the configuration diff"
                    on:click=move |_| { st.close_popovers(); q.set_compare.set(true) }>"Compare…"</button>
            })}
            <span class="muted counts" data-testid="playhead-counts" title=counts_title>{counts}</span>
            <span class="spacer"></span>
            <span class="legend" aria-label="Legend">
                <span class="chip-legend new">"★ just placed"</span>
                <span class="chip-legend victim">"⚔ victim"</span>
                <span class="chip-legend nominated">"⚑ nominated"</span>
            </span>
        </div>
        <div class="cluster-body">
            <Story/>
            <Show
                when=move || large.get()
                fallback=move || {
                    view! {
                        <div class="zones">
                            <For
                                each=move || zones.get()
                                key=|z| z.clone()
                                children=move |(zone, nodes)| {
                                    let label = if zone.is_empty() { "no zone".to_string() } else { zone.clone() };
                                    let many = zones.with_untracked(|z| z.len() > 1) || !zone.is_empty();
                                    view! {
                                        <section class="zone" aria-label=format!("Zone {label}")>
                                            {many.then(|| view! { <h3 class="zone-name">{label.clone()}</h3> })}
                                            <div class="nodes">
                                                {nodes.into_iter().map(|n| view! { <NodeCard node=n/> }).collect_view()}
                                            </div>
                                        </section>
                                    }
                                }
                            />
                        </div>
                    }
                }
            >
                <Heatmap/>
            </Show>
        </div>
    }
}
