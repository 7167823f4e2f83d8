//! The scheduling queue at the playhead: the pod in flight, activeQ in pop order, backoffQ with
//! the remaining backoff, the unschedulable pool with reasons, gated pods with their gates.

use crate::components::change_story::ChangeStory;
use crate::components::owner::{self, QueueEntry};
use crate::components::pod_chip::{ChipState, PodChip};
use crate::fmt;
use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::view::{QueueItem, QueueView};
use schedlab_view::words::ObjectRef;

#[component]
pub fn QueuePanel() -> impl IntoView {
    let st = use_app();
    let q = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.queue.clone()).unwrap_or_default()));
    let clock = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.clock_ms).unwrap_or(0)));
    // Pods a change at this stop moved to another pool: highlighted where they arrived.
    let moved = Memo::new(move |_| {
        st.frame.with(|f| {
            f.as_ref()
                .map(|f| {
                    f.changes
                        .iter()
                        .flat_map(|c| c.moves.iter())
                        .filter(|m| m.moved)
                        .map(|m| m.pod)
                        .collect::<Vec<u32>>()
                })
                .unwrap_or_default()
        })
    });
    provide_context(MovedPods(moved));
    let in_flight = move || {
        q.with(|q| q.in_flight).map(|p| {
            let (prio, needs) = st.summary.with_untracked(|s| {
                let Some(s) = s.as_ref() else { return (0, String::new()) };
                let Some(m) = s.model.pods.get(p as usize) else {
                    return (0, String::new());
                };
                let needs: Vec<String> = s
                    .model
                    .resources
                    .iter()
                    .zip(&m.requests)
                    .filter(|(c, &v)| v > 0 && c.name != "pods")
                    .map(|(c, &v)| format!("{} {}", fmt::resource_label(&c.name), fmt::amount(c, v)))
                    .collect();
                (m.priority, needs.join(", "))
            });
            // Popped from backoffQ before its backoff ended: say why it did not wait.
            let early = st.frame.with_untracked(|f| f.as_ref().and_then(|f| f.cycle_view.as_ref()).and_then(|c| c.backoff_left_ms));
            view! {
                <div class="inflight" data-inflight=p>
                    <span class="q-label">"Being scheduled"</span>
                    <PodChip pod=p state=ChipState::InFlight/>
                    <span class="muted">"priority "{prio}{(!needs.is_empty()).then(|| format!(" · needs {needs}"))}</span>
                    {early.map(|left| view! {
                        <p class="q-why" data-why="backoff-pop">
                            {if left > 0 {
                                format!("Popped from backoffQ with {} of backoff left: ", fmt::clock(left))
                            } else {
                                "Popped from backoffQ: ".to_string()
                            }}
                            "activeQ was empty, and kube-scheduler v1.34 then takes the next pod from backoffQ instead of waiting (the SchedulerPopFromBackoffQ feature, on by default)."
                        </p>
                    })}
                </div>
            }
        })
    };
    view! {
        <div class="panel-head">
            <h2>"Queue"</h2>
            <span class="muted">{move || format!("t = {}", fmt::clock(clock.get()))}</span>
        </div>
        <div class="queue-body">
            <ChangeStory/>
            {in_flight}
            <QueueSection
                title="activeQ"
                hint="Ready to be scheduled, in the order they will be popped (priority, then arrival)"
                state=ChipState::Queued
                items=Signal::derive(move || q.with(|q| q.active.clone()))
                total=Signal::derive(move || q.with(|q| q.active_total))
                clock=clock
            />
            <QueueSection
                title="backoffQ"
                hint="Failed recently; retried when the backoff ends"
                state=ChipState::Backoff
                items=Signal::derive(move || q.with(|q| q.backoff.clone()))
                total=Signal::derive(move || q.with(|q| q.backoff_total))
                clock=clock
            />
            <QueueSection
                title="Unschedulable"
                hint="Waiting for a cluster event that could make them schedulable"
                state=ChipState::Unschedulable
                items=Signal::derive(move || q.with(|q| q.unschedulable.clone()))
                total=Signal::derive(move || q.with(|q| q.unschedulable_total))
                clock=clock
            />
            <QueueSection
                title="Gated"
                hint="Held back by PreEnqueue (scheduling gates): never tried until the gates are removed"
                state=ChipState::Gated
                items=Signal::derive(move || q.with(|q| q.gated.clone()))
                total=Signal::derive(move || q.with(|q| q.gated_total))
                clock=clock
            />
            <Foreign q=q/>
        </div>
    }
}

/// The pods moved between pools at the stop on screen.
#[derive(Clone, Copy)]
struct MovedPods(Memo<Vec<u32>>);

#[component]
fn QueueSection(
    title: &'static str,
    hint: &'static str,
    state: ChipState,
    items: Signal<Vec<QueueItem>>,
    total: Signal<u32>,
    clock: Memo<i64>,
) -> impl IntoView {
    let st = use_app();
    let MovedPods(moved) = expect_context::<MovedPods>();
    view! {
        <section class="q-section" class:empty=move || total.get() == 0 aria-label=title>
            <h3 title=hint>
                {title}
                <span class="count">{move || total.get()}</span>
            </h3>
            <ol class="q-list">
                <For
                    each=move || {
                        let run = st.run.get();
                        let items = items.get();
                        let entries = st.summary.with_untracked(|s| {
                            owner::group(items, |p| s.as_ref().and_then(|s| s.model.pods.get(p as usize)).and_then(|m| m.created_by.clone()))
                        });
                        entries.into_iter().map(move |e| (run, e)).collect::<Vec<_>>()
                    }
                    key=move |(run, e)| (*run, format!("{e:?}"), moved.with_untracked(|m| e.pods().any(|p| m.contains(&p))))
                    children=move |(_, e)| match e {
                        QueueEntry::One(i) => view! { <QueueRow i=i state=state clock=clock/> }.into_any(),
                        QueueEntry::Group { owner, items } => view! { <QueueGroup owner=owner items=items state=state/> }.into_any(),
                    }
                />
            </ol>
            {move || {
                let shown = items.with(|v| v.len() as u32);
                let t = total.get();
                (t > shown).then(|| view! { <div class="muted more">{format!("… and {} more", t - shown)}</div> })
            }}
        </section>
    }
}

#[component]
fn QueueRow(i: QueueItem, state: ChipState, clock: Memo<i64>) -> impl IntoView {
    let st = use_app();
    let MovedPods(moved) = expect_context::<MovedPods>();
    let detail = match state {
        ChipState::Backoff => i.until_ms.map(|u| {
            let left = u - clock.get_untracked();
            if left > 0 {
                format!("retry in {}", fmt::clock(left))
            } else {
                "backoff over".to_string()
            }
        }),
        _ => None,
    };
    let nominated = i.nominated.map(|n| format!("nominated → {}", st.node_name(n)));
    view! {
        <li class="q-item" class:moved=moved.with_untracked(|m| m.contains(&i.pod))>
            <div class="q-row">
                <PodChip pod=i.pod state=state menu=true/>
                <span class="muted prio" title="priority">"p="{i.priority}</span>
                {detail.map(|d| view! { <span class="q-detail">{d}</span> })}
            </div>
            {nominated.map(|n| view! { <div class="q-nominated">"⚑ "{n}</div> })}
            {i.note.clone().map(|n| view! { <div class="q-note" title=n.clone()>{n.clone()}</div> })}
        </li>
    }
}

/// Consecutive pods of one controller: one line with the owner and the count, the pods' chips
/// below; a reason they share is said once.
#[component]
fn QueueGroup(owner: ObjectRef, items: Vec<QueueItem>, state: ChipState) -> impl IntoView {
    let MovedPods(moved) = expect_context::<MovedPods>();
    let n = items.len();
    let label = format!("{} ×{n}", owner::short_name(&owner));
    let title = format!("{} created by {owner}", fmt::count(n, "pod"));
    // Each distinct reason once (pods of one template usually wait for the same one).
    let mut notes: Vec<String> = Vec::new();
    for n in items.iter().filter_map(|i| i.note.clone()) {
        if !notes.contains(&n) {
            notes.push(n);
        }
    }
    let prios: Vec<i32> = items.iter().map(|i| i.priority).collect();
    let prio = if prios.iter().all(|p| *p == prios[0]) {
        format!("p={}", prios[0])
    } else {
        String::new()
    };
    view! {
        <li class="q-item q-group" data-owner=owner.to_string() data-count=n>
            <div class="q-row">
                <span class="q-group-label" title=title>
                    <span class="owner-mark">{owner::kind_mark(&owner)}</span>
                    {label}
                </span>
                <span class="muted prio" title="priority">{prio}</span>
            </div>
            <div class="q-row wrap q-group-pods">
                {items
                    .iter()
                    .map(|i| {
                        let here = moved.with_untracked(|m| m.contains(&i.pod));
                        view! { <span class="q-member" class:moved=here><PodChip pod=i.pod state=state menu=true/></span> }
                    })
                    .collect_view()}
            </div>
            {notes.into_iter().map(|n| view! { <div class="q-note" title=n.clone()>{n.clone()}</div> }).collect_view()}
        </li>
    }
}

#[component]
fn Foreign(q: Memo<QueueView>) -> impl IntoView {
    view! {
        <Show when=move || q.with(|q| !q.foreign.is_empty())>
            <section class="q-section" aria-label="Other schedulers">
                <h3 title="Their schedulerName names no profile here: this scheduler leaves them alone">
                    "Other schedulers"
                    <span class="count">{move || q.with(|q| q.foreign.len())}</span>
                </h3>
                <div class="q-row wrap">
                    {move || q.with(|q| q.foreign.iter().map(|&p| view! { <PodChip pod=p state=ChipState::Gated/> }).collect_view())}
                </div>
            </section>
        </Show>
    }
}
