//! The lower panel: the scheduling cycle at the playhead (pipeline, filter matrix, score table,
//! preemption, the FailedScheduling message) or the profiles.

use crate::components::{
    claims::Claims, events::Events, filter_matrix::FilterMatrix, pipeline::Pipeline, preemption::Preemption, profiles::Profiles,
    score_table::ScoreTable,
};
use crate::fmt;
use crate::state::{use_app, LowerTab};
use leptos::prelude::*;
use schedlab_view::view::{CycleView, Marker, Stage};
use schedlab_view::words::EventReason;

#[component]
pub fn LowerPanel() -> impl IntoView {
    let st = use_app();
    let events = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.events_total).unwrap_or(0)));
    let has_dra = Memo::new(move |_| st.summary.with(|s| s.as_ref().is_some_and(|s| s.model.dra.is_some())));
    let tab_btn = move |t: LowerTab, label: &'static str| {
        view! {
            <button
                role="tab"
                class="tab"
                class:active=move || st.lower.get() == t
                aria-selected=move || (st.lower.get() == t).to_string()
                on:click=move |_| st.set_lower.set(t)
            >
                {label}
                {(t == LowerTab::Events).then(|| view! { <span class="count">{move || events.get()}</span> })}
            </button>
        }
    };
    view! {
        <div class="lower">
            <div class="panel-head">
                <div class="tabs" role="tablist" aria-label="Lower panel">
                    {tab_btn(LowerTab::Cycle, "Scheduling cycle")}
                    {tab_btn(LowerTab::Events, "Events")}
                    {tab_btn(LowerTab::Profiles, "Profiles")}
                    {move || has_dra.get().then(|| tab_btn(LowerTab::Claims, "Claims"))}
                </div>
                <CycleTitle/>
            </div>
            {move || match st.lower.get() {
                LowerTab::Cycle => view! { <CycleBody/> }.into_any(),
                LowerTab::Events => view! { <Events/> }.into_any(),
                LowerTab::Profiles => view! { <Profiles/> }.into_any(),
                LowerTab::Claims => view! { <Claims/> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn CycleTitle() -> impl IntoView {
    let st = use_app();
    let title = move || {
        st.frame.with(|f| {
            let f = f.as_ref()?;
            let cv = f.cycle_view.as_ref()?;
            let pod = st.pod_name(cv.pod);
            Some(format!(
                "cycle {} · pod {pod} · attempt {} · {} · t = {}",
                cv.cycle,
                cv.attempt,
                cv.profile,
                fmt::clock(cv.time_ms)
            ))
        })
    };
    view! { <span class="cycle-title">{title}</span> }
}

#[component]
pub fn CycleBody() -> impl IntoView {
    let st = use_app();
    let cv = Memo::new(move |_| st.frame.with(|f| f.as_ref().and_then(|f| f.cycle_view.clone())));
    let stage = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.stage)));
    view! {
        {move || match (cv.get(), stage.get()) {
            (Some(_), _) => view! { <CycleDetail cv=cv/> }.into_any(),
            (None, Some(Stage::Ready)) => view! {
                <div class="placeholder">
                    <p><strong>"Every pending pod is queued."</strong>" Press "<kbd>"Space"</kbd>" to play, "<kbd>"→"</kbd>" to step one phase."</p>
                    <p class="muted">"Each cycle pops one pod and runs the extension points in order: PreFilter, Filter (every node), PostFilter (preemption) when no node fits, then Score, Reserve, Permit and Bind."</p>
                </div>
            }
            .into_any(),
            (None, Some(Stage::Change)) => {
                let what: Vec<String> = st.frame.with(|f| f.as_ref().map(|f| f.changes.iter().map(|c| format!("t = {}: {}.", fmt::clock(c.at_ms), c.sentence)).collect()).unwrap_or_default());
                view! {
                    <div class="placeholder" data-placeholder="change">
                        <p><strong>"The cluster changed."</strong>" "{what.join(" ")}</p>
                        <p class="muted">"No pod is being scheduled at this stop. The change reached the scheduler as an informer event: the queue panel shows, for each pending pod, which queueing hint answered and where the pod went. Steps come from the Timeline tab (or the ⋯ menus of the cluster view)."</p>
                    </div>
                }
                .into_any()
            }
            (None, Some(Stage::Quiet)) => {
                let totals = st.summary.with(|s| {
                    s.as_ref()
                        .map(|s| {
                            format!(
                                "{}: {} running, {} pending, {} evicted.",
                                fmt::count(s.cycle_pod.len(), "cycle"),
                                fmt::count(s.bound as usize, "pod"),
                                s.pending,
                                s.evicted
                            )
                        })
                        .unwrap_or_default()
                });
                view! {
                    <div class="placeholder">
                        <p><strong>"Quiet."</strong>" No pod can make progress any more: the run is over. "{totals}</p>
                        <p class="muted">"Pending pods wait in the queue with their last FailedScheduling message. Step back with "<kbd>"←"</kbd>", or jump to a cycle on the timeline."</p>
                    </div>
                }
                .into_any()
            }
            _ if st.summary.with(|s| s.is_none()) && st.issues.with(|i| !i.is_empty()) => view! {
                <div class="placeholder muted">"The scenario has errors (listed beside the editor) and no earlier version of it ran. Fix them to see it scheduled."</div>
            }
            .into_any(),
            _ => view! { <div class="placeholder muted">"Loading…"</div> }.into_any(),
        }}
    }
}

// Over 150 lines, for a reason: the cycle's outcome sentence (FailedScheduling reasons with
// the nodes each counts, to highlight on hover) and the stage's table are one view of one
// `CycleView` Memo; its pieces are already components (pipeline, matrix, scores, preemption).
#[component]
fn CycleDetail(cv: Memo<Option<CycleView>>) -> impl IntoView {
    let st = use_app();
    let stage = Memo::new(move |_| cv.with(|c| c.as_ref().map(|c| c.stage).unwrap_or(Stage::QueueSort)));
    let outcome = move || {
        cv.with(|c| {
            let c = c.as_ref()?;
            if let Some(msg) = &c.message {
                let pod = st.pod_name(c.pod);
                // Which nodes each reason counts (from the filter verdicts).
                let mut by_reason: Vec<(String, Vec<u32>)> = Vec::new();
                if let Some(f) = c.filter.as_ref().filter(|f| f.detail) {
                    for r in f.rows.iter().filter(|r| r.visit.is_some() && !r.feasible) {
                        for reason in &r.reasons {
                            match by_reason.iter_mut().find(|(x, _)| x == reason) {
                                Some((_, v)) => v.push(r.node),
                                None => by_reason.push((reason.clone(), vec![r.node])),
                            }
                        }
                    }
                }
                by_reason.sort();
                let reasons = (!by_reason.is_empty()).then(|| {
                    view! {
                        <ul class="reasons" aria-label="Which nodes each reason counts">
                            {by_reason
                                .into_iter()
                                .map(|(reason, nodes)| {
                                    let names = nodes.iter().map(|&n| st.node_name(n)).collect::<Vec<_>>().join(", ");
                                    let hl = nodes.clone();
                                    let count = nodes.len();
                                    view! {
                                        <li
                                            tabindex="0"
                                            on:mouseenter=move |_| st.set_highlight.set(hl.clone())
                                            on:focus=move |_| st.set_highlight.set(nodes.clone())
                                            on:mouseleave=move |_| st.set_highlight.set(Vec::new())
                                            on:blur=move |_| st.set_highlight.set(Vec::new())
                                        >
                                            <span class="r-count">{format!("{count} ×")}</span>
                                            <span class="r-text">{reason}</span>
                                            <span class="r-nodes muted">{names}</span>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                });
                return Some(
                    view! {
                        <div class="outcome failed" role="status">
                            <div class="kubectl" aria-label=format!("{} event, as kubectl describe shows it", EventReason::FailedScheduling)>
                                <span class="k-type">"Warning"</span>
                                <span class="k-reason">{EventReason::FailedScheduling.as_str()}</span>
                                <span class="k-obj">{format!("pod/{pod}")}</span>
                                <div class="k-msg" data-testid="failed-message">{msg.clone()}</div>
                            </div>
                            {reasons}
                        </div>
                    }
                    .into_any(),
                );
            }
            if let Some(msg) = &c.scheduled {
                return Some(
                    view! {
                        <div class="outcome bound" role="status">
                            <div class="kubectl">
                                <span class="k-type">"Normal"</span>
                                <span class="k-reason">{EventReason::Scheduled.as_str()}</span>
                                <div class="k-msg">{msg.clone()}</div>
                            </div>
                        </div>
                    }
                    .into_any(),
                );
            }
            match c.outcome {
                Some(Marker::Error) => Some(view! { <div class="outcome failed">"The attempt ended with an error."</div> }.into_any()),
                _ => None,
            }
        })
    };
    let show_filter = Memo::new(move |_| {
        cv.with(|c| {
            c.as_ref()
                .is_some_and(|c| c.filter.is_some() || c.pre_filter.as_ref().is_some_and(|p| p.failed_plugin.is_some()))
        })
    });
    let show_score = Memo::new(move |_| cv.with(|c| c.as_ref().is_some_and(|c| c.score.is_some())));
    let show_post = Memo::new(move |_| cv.with(|c| c.as_ref().is_some_and(|c| c.post_filter.is_some())));
    let prefilter_fail = move || {
        cv.with(|c| {
            let p = c.as_ref()?.pre_filter.as_ref()?;
            let plugin = p.failed_plugin.clone()?;
            Some(view! {
                <div class="prefilter-fail">
                    <strong>{format!("PreFilter: {plugin} rejected the pod")}</strong>
                    {format!(" ({}): {}", p.code.clone().unwrap_or_default(), p.reasons.join("; "))}
                    <div class="muted">"No node is filtered when PreFilter rejects: every node gets this verdict."</div>
                </div>
            })
        })
    };
    let prefilter_note = move || {
        cv.with(|c| {
            let c = c.as_ref()?;
            if c.filter.is_some() {
                return None;
            }
            let p = c.pre_filter.as_ref()?;
            if p.failed_plugin.is_some() {
                return None;
            }
            let mut parts = vec!["PreFilter passed: every plugin precomputed what Filter needs for this pod.".to_string()];
            if !p.skipped.is_empty() {
                parts.push(format!(
                    "Nothing to check for: {} (they will pass every node).",
                    p.skipped.join(", ")
                ));
            }
            if let Some(n) = &p.narrowed_to {
                parts.push(format!("Only these nodes can fit: {}.", n.join(", ")));
            }
            Some(view! { <div class="box prefilter-box wide current">{parts.join(" ")}</div> })
        })
    };
    let queued_note = move || {
        cv.with(|c| {
            let c = c.as_ref()?;
            (c.stage == Stage::QueueSort).then(|| {
                let pod = st.pod_name(c.pod);
                view! {
                    <div class="box wide current">
                        <strong>{pod}</strong>
                        " leaves the queue: QueueSort (PrioritySort) put it first — highest priority, then earliest in the queue. Its profile is "
                        <code>{c.profile.clone()}</code>
                        "."
                    </div>
                }
            })
        })
    };
    view! {
        <div class="cycle" data-stage=move || format!("{:?}", stage.get())>
            <Pipeline cv=cv/>
            <div class="cycle-grid">
                {queued_note}
                {prefilter_note}
                <Show when=move || show_filter.get()>
                    <div class="box filter-box" class:current=move || stage.get() == Stage::Filter>
                        {prefilter_fail}
                        <FilterMatrix cv=cv/>
                    </div>
                </Show>
                <Show when=move || show_score.get()>
                    <div class="box score-box" class:current=move || matches!(stage.get(), Stage::Score | Stage::NormalizeScore)>
                        <ScoreTable cv=cv/>
                    </div>
                </Show>
                <Show when=move || show_post.get()>
                    <div class="box post-box" class:current=move || stage.get() == Stage::PostFilter>
                        <Preemption cv=cv/>
                    </div>
                </Show>
                <div class="box outcome-box">{outcome}</div>
            </div>
        </div>
    }
}
