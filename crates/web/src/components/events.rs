//! The Events tab: the pods' Kubernetes events up to the playhead, as `kubectl get events`
//! lists them (Scheduled, FailedScheduling, Preempted). A row jumps to its cycle.

use crate::state::use_app;
use leptos::html;
use leptos::prelude::*;
use schedlab_view::view::EventLine;

#[component]
pub fn Events() -> impl IntoView {
    let st = use_app();
    let events = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.events.clone()).unwrap_or_default()));
    let total = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.events_total).unwrap_or(0)));
    let current = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.cycle).unwrap_or(0)));
    let scroller = NodeRef::<html::Div>::new();
    // The newest event stays in view as the playhead moves.
    Effect::new(move |_| {
        events.track();
        if let Some(el) = scroller.get() {
            request_animation_frame(move || el.set_scroll_top(el.scroll_height()));
        }
    });
    let row = move |e: EventLine| {
        let cycle = e.cycle;
        let pod = st.pod_name(e.pod);
        let namespace = st.summary.with_untracked(|s| {
            s.as_ref()
                .and_then(|s| s.model.pods.get(e.pod as usize))
                .map(|p| p.namespace.clone())
                .unwrap_or_default()
        });
        view! {
            <tr
                class:warning=e.warning
                class:current=move || current.get() == cycle
                on:click=move |_| {
                    st.pause_at(crate::player::Seek::Cycle(cycle));
                }
                title=format!("Go to cycle {cycle}")
            >
                <td class="num">{e.seq}</td>
                <td class="num">{cycle}</td>
                <td class="k-type">{if e.warning { "Warning" } else { "Normal" }}</td>
                <td class="k-reason">{e.reason.as_str()}</td>
                <td class="obj">{format!("pod/{pod}")}<span class="muted ns">{namespace}</span></td>
                <td class="msg">{e.message}</td>
            </tr>
        }
    };
    view! {
        <div class="events" node_ref=scroller>
            <Show
                when=move || { total.get() > 0 }
                fallback=|| view! {
                    <div class="placeholder">
                        <p><strong>"No events yet."</strong>" The scheduler records an event when it binds a pod (Scheduled), gives up on one for now (FailedScheduling) or evicts a victim (Preempted)."</p>
                    </div>
                }
            >
                <p class="events-note muted">
                    {move || {
                        let (n, t) = (events.with(Vec::len) as u32, total.get());
                        if n < t {
                            format!("The newest {n} of {t} events up to the playhead. Click one to go to its cycle.")
                        } else {
                            format!("{} up to the playhead, as kubectl get events lists them. Click one to go to its cycle.", crate::fmt::count(t as usize, "event"))
                        }
                    }}
                </p>
                <table class="events-table">
                    <thead>
                        <tr>
                            <th class="num" title="Sequence number in the trace">"#"</th>
                            <th class="num">"Cycle"</th>
                            <th>"Type"</th>
                            <th>"Reason"</th>
                            <th>"Object"</th>
                            <th>"Message"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=move || events.get() key=|e| e.seq children=row/>
                    </tbody>
                </table>
            </Show>
        </div>
    }
}
