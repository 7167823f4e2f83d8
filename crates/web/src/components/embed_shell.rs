//! The embedded playground (`?embed`): a one-line header with the cycle and a real link to the
//! full playground, the panels the author chose, and the transport — laid out for the iframe's
//! size. From 900×600 up the cycle shows its tables; below, summaries replace what would not
//! fit (nothing scrolls sideways). No toasts, no dialogs, no editor, no autosave.

use crate::components::{
    cluster::ClusterView,
    compare_link,
    cycle::CycleBody,
    embed_compare::EmbedCompare,
    embed_summary::{EmbedSummary, QueueStrip},
    events::Events,
    explain_panel::ExplainPanel,
    lesson_goals::LessonGoals,
    pipeline::Pipeline,
    queue::QueuePanel,
    transport::Transport,
};
use crate::embed::{EmbedOptions, Panels};
use crate::state::use_app;
use crate::storage;
use leptos::ev;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// How much room the embed has (its iframe's viewport).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// ≥ 900×600: the full cycle panel with its tables, the queue beside the cluster.
    Full,
    /// From 600×420: cluster, the pipeline and a summary of the cycle.
    Medium,
    /// Below: the same, tighter.
    Small,
}

impl Size {
    pub fn of(w: f64, h: f64) -> Size {
        if w >= 900.0 && h >= 600.0 {
            Size::Full
        } else if w >= 600.0 && h >= 420.0 {
            Size::Medium
        } else {
            Size::Small
        }
    }
    fn name(self) -> &'static str {
        match self {
            Size::Full => "full",
            Size::Medium => "medium",
            Size::Small => "small",
        }
    }
}

fn viewport() -> (f64, f64) {
    let w = window();
    let num = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    (num(w.inner_width()), num(w.inner_height()))
}

/// `url` with `query` as its query string (before any `#`), replacing the query it had.
pub fn with_query(url: &str, query: &str) -> String {
    let (base, hash) = match url.find('#') {
        Some(i) => url.split_at(i),
        None => (url, ""),
    };
    let base = base.split('?').next().unwrap_or(base);
    if query.is_empty() {
        format!("{base}{hash}")
    } else {
        format!("{base}?{query}{hash}")
    }
}

#[component]
pub fn EmbedShell(opts: EmbedOptions) -> impl IntoView {
    let st = use_app();
    let (size, set_size) = signal({
        let (w, h) = viewport();
        Size::of(w, h)
    });
    let _ = window_event_listener(ev::resize, move |_| {
        let (w, h) = viewport();
        let s = Size::of(w, h);
        if size.get_untracked() != s {
            set_size.set(s);
        }
    });
    // `?embed&compare=…`: the comparison instead of the panels (and no transport of run A's).
    if let Some(with) = compare_link::read() {
        let autoplay = opts.autoplay && !crate::embed::reduced_motion();
        return view! {
            <div class="app embed" data-size=move || size.get().name() data-compare="true">
                <EmbedBar compare=true/>
                <EmbedCompare with=with autoplay=autoplay/>
            </div>
        }
        .into_any();
    }
    let Panels {
        cluster,
        queue,
        cycle,
        events,
    } = opts.panels;
    let (lower_events, set_lower_events) = signal(events && !cycle);
    let panels_attr = opts.panels.list().replace(',', " ");
    let full = move || size.get() == Size::Full;
    let lower = cycle || events;
    let tabs = cycle && events;
    let lower_view = move || {
        let tab_btn = move |label: &'static str, is_events: bool| {
            view! {
                <button
                    role="tab"
                    class="tab"
                    class:active=move || lower_events.get() == is_events
                    aria-selected=move || (lower_events.get() == is_events).to_string()
                    on:click=move |_| set_lower_events.set(is_events)
                >
                    {label}
                </button>
            }
        };
        view! {
            <section class="panel lower-panel" aria-label="Scheduling cycle">
                {tabs.then(|| view! {
                    <div class="panel-head embed-tabs">
                        <div class="tabs" role="tablist" aria-label="Lower panel">
                            {tab_btn("Scheduling cycle", false)}
                            {tab_btn("Events", true)}
                        </div>
                    </div>
                })}
                {move || {
                    if lower_events.get() {
                        view! { <Events/> }.into_any()
                    } else if full() {
                        view! { <div class="lower"><CycleBody/></div><ExplainPanel/> }.into_any()
                    } else {
                        view! { <CompactCycle queue=queue/> }.into_any()
                    }
                }}
            </section>
        }
    };
    view! {
        <div class="app embed" data-size=move || size.get().name() data-panels=panels_attr>
            <EmbedBar/>
            // A lesson's goals stay visible above the panels (a docs page embeds an exercise).
            <Show when=move || st.lesson.with(Option::is_some)>
                <section class="panel embed-lesson" aria-label="Lesson goals">
                    <div class="embed-lesson-title">
                        <strong>{move || st.lesson.with(|l| l.as_ref().map(|l| l.info.title.clone()))}</strong>
                    </div>
                    <LessonGoals/>
                </section>
            </Show>
            <main class="workspace embed-workspace" class:no-lower=!lower class:no-cluster=!cluster>
                {cluster.then(|| view! {
                    <section class="panel cluster-panel" aria-label="Cluster">
                        <ClusterView/>
                    </section>
                })}
                {move || (queue && (full() || !lower)).then(|| view! {
                    <section class="panel queue-panel" aria-label="Scheduling queue">
                        <QueuePanel/>
                    </section>
                })}
                {lower.then(lower_view)}
            </main>
            <Transport/>
        </div>
    }
    .into_any()
}

/// The cycle in a small embed: the pipeline, the summary line and the message (and the queue
/// in one line when the author asked for the queue).
#[component]
fn CompactCycle(queue: bool) -> impl IntoView {
    let st = use_app();
    let cv = Memo::new(move |_| st.frame.with(|f| f.as_ref().and_then(|f| f.cycle_view.clone())));
    view! {
        <div class="compact-cycle">
            <Show when=move || cv.with(Option::is_some)>
                <Pipeline cv=cv/>
            </Show>
            <EmbedSummary/>
            {queue.then(|| view! { <QueueStrip/> })}
        </div>
    }
}

/// The header: where the playhead is, and "Open in schedlab ↗", a real link to the full
/// playground with this scenario at this cycle and phase (with `compare`: the compare view).
#[component]
fn EmbedBar(#[prop(optional)] compare: bool) -> impl IntoView {
    let st = use_app();
    // The scenario's share payload, encoded again whenever the scenario changes.
    let (payload, set_payload) = signal(None::<String>);
    Effect::new(move |_| {
        let saved = st.saved.get();
        spawn_local(async move {
            set_payload.set(storage::encode(&saved).await);
        });
    });
    let href = move || {
        let p = payload.get()?;
        st.stop.track();
        let (cycle, phase) = st.playhead();
        let link = crate::link::LinkState {
            payload: Some(p),
            cycle: (cycle > 0).then_some(cycle),
            phase: (cycle > 0).then(|| phase.label().to_string()),
            ..Default::default()
        };
        let query = compare
            .then(compare_link::read)
            .flatten()
            .and_then(|w| compare_link::pair(&w))
            .unwrap_or_default();
        Some(with_query(&storage::share_url(&link, None), &query))
    };
    let title = move || {
        if compare {
            return (String::new(), "Two runs compared".to_string(), String::new());
        }
        st.frame.with(|f| {
            let Some(f) = f.as_ref() else {
                return ("".to_string(), "Loading…".to_string(), String::new());
            };
            match &f.cycle_view {
                Some(cv) => (
                    format!("cycle {} · ", cv.cycle),
                    st.pod_name(cv.pod),
                    format!(" · {}", f.stage.label()),
                ),
                None => (String::new(), String::new(), f.stage.label().to_string()),
            }
        })
    };
    let status = move || {
        if st.busy.get() == crate::state::Busy::LoadingEngine {
            return "loading the full engine…".to_string();
        }
        st.summary.with(|s| {
            s.as_ref()
                .map(|s| {
                    format!(
                        "v{} · {} · {}",
                        s.kubernetes_version,
                        crate::fmt::count(s.model.nodes.len(), "node"),
                        crate::fmt::count(s.model.pods.len(), "pod")
                    )
                })
                .unwrap_or_else(|| "starting the engine…".into())
        })
    };
    view! {
        <header class="topbar embed-bar">
            <span class="logo" aria-hidden="true">"⎈"</span>
            <span class="embed-title" aria-live="polite">
                {move || {
                    let (c, pod, stage) = title();
                    view! {
                        <span class="t-cycle">{c}</span>
                        <strong class="t-pod">{pod}</strong>
                        <span class="t-stage">{stage}</span>
                    }
                }}
            </span>
            <span class="status muted" data-busy=move || (st.busy.get() != crate::state::Busy::Idle).to_string()>{status}</span>
            <a
                class="btn open-full"
                href=move || href().unwrap_or_else(|| "./".into())
                target="_blank"
                rel="noopener"
                aria-label="Open this scenario in the full playground"
                title="Open this scenario, at this cycle and phase, in the full playground (new tab)"
            >
                <span class="long">"Open in schedlab"</span>
                <span class="short">"schedlab"</span>
                " ↗"
            </a>
        </header>
    }
}
