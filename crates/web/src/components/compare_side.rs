//! One run of "Play both" (components/compare_play.rs): the run's nodes with their pods at the
//! moment both runs are shown, the pods that land differently in the two runs marked on each
//! side, and this run's pod of the current cycle named with where it went. Drawn from the
//! worker's frame and the run's summary; nothing is computed about scheduling here.

use leptos::prelude::*;
use schedlab_view::view::{Frame, Marker, Summary};
use std::sync::Arc;

/// What the line above the nodes says: this run's cycle at the moment shown.
fn now_line(s: &Summary, f: &Frame, cycle: u32) -> (String, Option<String>) {
    let cycles = s.cycle_pod.len() as u32;
    if cycle == 0 {
        return ("before the first cycle".into(), None);
    }
    let c = cycle.min(cycles);
    let Some(pod) = s
        .cycle_pod
        .get((c as usize).wrapping_sub(1))
        .and_then(|&p| s.model.pods.get(p as usize))
    else {
        return ("no scheduling cycle".into(), None);
    };
    let key = pod.key();
    let node = f
        .nodes
        .iter()
        .position(|n| n.pods.iter().any(|&p| s.model.pods.get(p as usize).is_some_and(|q| q.key() == key)));
    let outcome = match (s.cycle_markers.chars().nth(c as usize - 1).map(Marker::from_code), node) {
        (Some(Marker::Bound), Some(n)) => format!("→ {}", s.model.nodes[n].name),
        (Some(Marker::Bound), None) => "bound (gone since)".into(),
        (Some(Marker::Preempted), _) => "unschedulable; preemption evicted pods".into(),
        (Some(Marker::Error), _) => "error".into(),
        _ => "unschedulable".into(),
    };
    let when = if cycle > cycles {
        format!("ended after cycle {cycles}: ")
    } else {
        format!("cycle {c}: ")
    };
    (format!("{when}{key} {outcome}"), Some(key))
}

#[component]
pub fn CompareSide(
    /// "A" or "B".
    side: &'static str,
    label: String,
    summary: Signal<Option<Arc<Summary>>>,
    frame: Signal<Option<Frame>>,
    cycle: ReadSignal<u32>,
    /// The pods (`namespace/name`) whose node differs between the runs.
    differing: StoredValue<Vec<String>>,
) -> impl IntoView {
    // (node name, [(pod key, pod name)]) in document order, and the line above them.
    let shown = Memo::new(move |_| {
        summary.with(|s| {
            frame.with(|f| {
                let (Some(s), Some(f)) = (s, f) else { return None };
                let nodes: Vec<(String, Vec<(String, String)>)> = s
                    .model
                    .display_order
                    .iter()
                    .filter_map(|&n| {
                        let live = f.nodes.get(n as usize)?;
                        let pods = live
                            .pods
                            .iter()
                            .filter_map(|&p| s.model.pods.get(p as usize).map(|m| (m.key(), m.name.clone())))
                            .collect();
                        Some((s.model.nodes.get(n as usize)?.name.clone(), pods))
                    })
                    .collect();
                Some((now_line(s, f, cycle.get()), nodes, f.pending))
            })
        })
    });
    let large = move || summary.with(|s| s.as_ref().is_some_and(|s| s.model.large));
    let chip = move |(key, name): (String, String), now: Option<String>| {
        let differs = differing.with_value(|d| d.contains(&key));
        let current = now.as_deref() == Some(key.as_str());
        let title = if differs {
            format!("{key}: lands differently in the other run")
        } else {
            key.clone()
        };
        view! {
            <span class="chip running" class:new=current class:differs=differs data-pod=key title=title>
                {differs.then_some("≠\u{a0}")}{current.then_some("★\u{a0}")}<span class="chip-name">{name}</span>
            </span>
        }
    };
    view! {
        <section class="compare-side" data-side=side aria-label=format!("Run {side}")>
            <h4>{format!("{side}: {label}")}</h4>
            {move || {
                if large() {
                    return view! { <p class="muted">"Too many nodes to draw one by one: see the figures above."</p> }.into_any();
                }
                let Some(((line, now), nodes, pending)) = shown.get() else {
                    return view! { <p class="muted">"Loading…"</p> }.into_any();
                };
                view! {
                    <p class="compare-now" data-pod=now.clone().unwrap_or_default()>{line}</p>
                    <div class="compare-nodes">
                        {nodes.into_iter().map(|(name, pods)| {
                            let (now, key) = (now.clone(), name.clone());
                            view! {
                                <div class="compare-node" data-node=key>
                                    <span class="compare-node-name">{name}</span>
                                    <span class="pods">{pods.into_iter().map(|p| chip(p, now.clone())).collect_view()}</span>
                                </div>
                            }
                        }).collect_view()}
                    </div>
                    <p class="muted compare-pending">{crate::fmt::count(pending as usize, "pod")}" pending"</p>
                }.into_any()
            }}
        </section>
    }
}
