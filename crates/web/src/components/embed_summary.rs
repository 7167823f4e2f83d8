//! What an embed shows instead of tables that would not fit: the cycle in one line
//! ("Filter 3/5 feasible · Score ★ node-b2 391"), its outcome message, and the queue in one
//! line.

use crate::components::pod_chip::{ChipState, PodChip};
use crate::fmt;
use crate::state::{use_app, AppState};
use leptos::prelude::*;
use schedlab_view::view::{CycleView, Frame, Marker, Stage};

/// One part of the summary line: text and a class for its colour (the text carries the glyph).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Part {
    class: &'static str,
    text: String,
}

fn part(class: &'static str, text: impl Into<String>) -> Part {
    Part { class, text: text.into() }
}

/// The cycle's filter, preemption and score results so far, in words.
fn cycle_parts(st: &AppState, cv: &CycleView, nodes: usize) -> Vec<Part> {
    let mut out = Vec::new();
    if let Some(p) = &cv.pre_filter {
        if let Some(plugin) = &p.failed_plugin {
            out.push(part("bad", format!("PreFilter ✗ {plugin}")));
        }
    }
    if let Some(f) = &cv.filter {
        let total = if f.rows_total > 0 { f.rows_total as usize } else { nodes };
        let class = if f.feasible == 0 { "bad" } else { "ok" };
        let glyph = if f.feasible == 0 { "✗" } else { "✓" };
        let mut text = format!("Filter {glyph} {}/{total} feasible", f.feasible);
        if (f.evaluated as usize) < total && f.feasible > 0 {
            text.push_str(&format!(" ({} evaluated)", f.evaluated));
        }
        out.push(part(class, text));
    }
    if let Some(pf) = &cv.post_filter {
        match pf.candidates.iter().find(|c| c.chosen) {
            Some(c) => out.push(part(
                "purple",
                format!(
                    "Preemption ⚔ {} ({})",
                    c.node,
                    fmt::count(c.victims.len() + c.other_victims.len(), "victim")
                ),
            )),
            None if cv.stage >= Stage::PostFilter => out.push(part("bad", "Preemption: no candidate")),
            None => {}
        }
    }
    if let Some(s) = &cv.score {
        if s.single_feasible {
            out.push(part(
                "gold",
                format!("Score skipped: ★ {} is the only feasible node", st.node_name(s.selected)),
            ));
        } else if let Some(w) = s.rows.iter().find(|r| r.node == s.selected) {
            let tie = if s.tied.len() > 1 {
                format!(" (tie of {})", s.tied.len())
            } else {
                String::new()
            };
            out.push(part("gold", format!("Score ★ {} {}{tie}", st.node_name(s.selected), w.total)));
        } else {
            out.push(part("gold", format!("Score ★ {}", st.node_name(s.selected))));
        }
    }
    if cv.stage >= Stage::Bind && cv.outcome == Some(Marker::Bound) {
        if let Some(n) = cv.node {
            out.push(part("ok", format!("bound to {}", st.node_name(n))));
        }
    }
    out
}

/// The frame's cycle in one line, or what the page is doing before and after the cycles.
fn summary_parts(st: &AppState, f: Option<&Frame>, nodes: usize) -> Vec<Part> {
    let Some(f) = f else { return vec![part("muted", "Loading…")] };
    match (&f.cycle_view, f.stage) {
        (Some(cv), _) => {
            let mut v = vec![part("pod", format!("▶ {}", st.pod_name(cv.pod)))];
            v.extend(cycle_parts(st, cv, nodes));
            if v.len() == 1 {
                v.push(part("muted", format!("{} …", cv.stage.label())));
            }
            v
        }
        (None, Stage::Ready) => vec![part(
            "muted",
            format!("{} queued: press ▶ to schedule them", fmt::count(f.pending as usize, "pending pod")),
        )],
        (None, Stage::Quiet) => vec![part(
            "muted",
            format!("Quiet: {}", fmt::pod_counts(f.running, f.pending, f.evicted)),
        )],
        (None, s) => vec![part("muted", s.label().to_string())],
    }
}

/// The summary line and the cycle's outcome (the FailedScheduling or Scheduled message).
#[component]
pub fn EmbedSummary() -> impl IntoView {
    let st = use_app();
    let nodes = Memo::new(move |_| st.summary.with(|s| s.as_ref().map(|s| s.model.nodes.len()).unwrap_or(0)));
    let parts = Memo::new(move |_| st.frame.with(|f| summary_parts(&st, f.as_deref(), nodes.get())));
    let message = Memo::new(move |_| {
        st.frame.with(|f| {
            let cv = f.as_ref()?.cycle_view.as_ref()?;
            match (&cv.message, &cv.scheduled) {
                (Some(m), _) => Some(("failed", "Warning FailedScheduling", m.clone())),
                (None, Some(m)) => Some(("bound", "Normal Scheduled", m.clone())),
                _ => None,
            }
        })
    });
    view! {
        <div class="embed-summary" data-testid="cycle-summary">
            <p class="summary-line" aria-label="This cycle in short">
                {move || {
                    parts
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, p)| {
                            view! {
                                {(i > 0).then(|| view! { <span class="sep" aria-hidden="true">" · "</span> })}
                                <span class=format!("sp {}", p.class)>{p.text}</span>
                            }
                        })
                        .collect_view()
                }}
            </p>
            {move || {
                message
                    .get()
                    .map(|(class, what, msg)| {
                        let title = msg.clone();
                        view! {
                            <p class=format!("summary-msg {class}") title=title>
                                <span class="what">{what}</span>
                                " "
                                <span class="msg">{msg}</span>
                            </p>
                        }
                    })
            }}
        </div>
    }
}

/// The queue in one line: the pod in flight and how many wait where.
#[component]
pub fn QueueStrip() -> impl IntoView {
    let st = use_app();
    let q = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.queue.clone()).unwrap_or_default()));
    view! {
        <div class="queue-strip" aria-label="Scheduling queue">
            <span class="q-label">"Queue"</span>
            {move || q.with(|q| q.in_flight).map(|p| view! { <PodChip pod=p state=ChipState::InFlight/> })}
            {move || {
                q.with(|q| {
                    [
                        ("activeQ", q.active_total, ""),
                        ("backoffQ", q.backoff_total, "↻ "),
                        ("unschedulable", q.unschedulable_total, "◷ "),
                        ("gated", q.gated_total, "⊘ "),
                    ]
                    .into_iter()
                    .filter(|(name, n, _)| *n > 0 || *name == "activeQ")
                    .map(|(name, n, glyph)| view! { <span class="q-count">{format!("{glyph}{name} {n}")}</span> })
                    .collect_view()
                })
            }}
        </div>
    }
}
