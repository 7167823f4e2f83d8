//! A pod as a chip: its name, a glyph for its state (colour is never the only signal) and its
//! priority and requests on hover.

use crate::components::owner;
use crate::fmt;
use crate::state::use_app;
use leptos::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChipState {
    Running,
    /// Bound in the cycle on screen.
    New,
    /// Chosen as a preemption victim, not deleted yet.
    Victim,
    /// Deleted by a preemption in this cycle.
    Leaving,
    /// Pending, nominated to this node.
    Nominated,
    Queued,
    InFlight,
    Unschedulable,
    Backoff,
    Gated,
}

impl ChipState {
    fn class(self) -> &'static str {
        match self {
            ChipState::Running => "running",
            ChipState::New => "new",
            ChipState::Victim => "victim",
            ChipState::Leaving => "leaving",
            ChipState::Nominated => "nominated",
            ChipState::Queued => "queued",
            ChipState::InFlight => "inflight",
            ChipState::Unschedulable => "unschedulable",
            ChipState::Backoff => "backoff",
            ChipState::Gated => "gated",
        }
    }
    fn glyph(self) -> &'static str {
        match self {
            ChipState::Running => "",
            ChipState::New => "★ ",
            ChipState::Victim => "⚔ ",
            ChipState::Leaving => "✝ ",
            ChipState::Nominated => "⚑ ",
            ChipState::Queued => "",
            ChipState::InFlight => "▶ ",
            ChipState::Unschedulable => "◷ ",
            ChipState::Backoff => "↻ ",
            ChipState::Gated => "⊘ ",
        }
    }
    fn word(self) -> &'static str {
        match self {
            ChipState::Running => "running",
            ChipState::New => "just placed",
            ChipState::Victim => "preemption victim",
            ChipState::Leaving => "evicted",
            ChipState::Nominated => "nominated here, waiting",
            ChipState::Queued => "in activeQ",
            ChipState::InFlight => "being scheduled",
            ChipState::Unschedulable => "unschedulable",
            ChipState::Backoff => "backing off",
            ChipState::Gated => "gated",
        }
    }
}

/// `menu`: a click opens the pod's actions menu (cluster and queue views; never in an embed).
/// A pod a workload
/// controller made carries a mark naming it.
#[component]
pub fn PodChip(pod: u32, state: ChipState, #[prop(optional)] menu: bool) -> impl IntoView {
    let st = use_app();
    // Read reactively: a chip kept across runs (same index, same state) shows the name of the
    // run on screen, never the one it was made in.
    let info = Memo::new(move |_| {
        st.summary
            .with(|s| {
                s.as_ref().and_then(|s| {
                    let p = s.model.pods.get(pod as usize)?;
                    let mut req: Vec<String> = Vec::new();
                    for (i, c) in s.model.resources.iter().enumerate() {
                        let v = p.requests.get(i).copied().unwrap_or(0);
                        if v > 0 && c.name != "pods" {
                            req.push(format!("{} {}", c.name, fmt::amount(c, v)));
                        }
                    }
                    let created = fmt::created(p.created_by.as_ref(), p.created_at_ms);
                    Some((
                        p.name.clone(),
                        p.priority,
                        req.join(", "),
                        p.profile.clone(),
                        p.created_by.clone(),
                        created,
                    ))
                })
            })
            .unwrap_or_else(|| (format!("#{pod}"), 0, String::new(), String::new(), None, None))
    });
    let name = move || info.with(|i| i.0.clone());
    let title = move || {
        info.with(|(name, prio, req, profile, _, created)| {
            let mut t = if req.is_empty() {
                format!("{name} — {}; priority {prio}; scheduler {profile}", state.word())
            } else {
                format!("{name} — {}; priority {prio}; requests {req}; scheduler {profile}", state.word())
            };
            if let Some(c) = created {
                t.push_str("; ");
                t.push_str(c);
            }
            t
        })
    };
    let mark = move || {
        info.with(|i| i.4.clone().map(|o| (o, i.5.clone().unwrap_or_default())))
            .map(|(o, t)| {
                view! { <span class="owner-mark" data-owner=o.to_string() title=t>{owner::kind_mark(&o)}</span> }
            })
    };
    // An embed shows no actions menu (it has no timeline to write a step into).
    if menu && !st.embed {
        return view! {
            <button class=format!("chip menu-chip-btn {}", state.class()) data-pod=name data-state=state.class() title=title aria-label=title
                aria-haspopup="menu" on:click=move |e| st.open_menu(crate::state::MenuTarget::Pod(pod), &e)>
                {state.glyph()}
                <span class="chip-name">{name}</span>
                {mark}
            </button>
        }
        .into_any();
    }
    view! {
        <span class=format!("chip {}", state.class()) data-pod=name data-state=state.class() title=title aria-label=title>
            {state.glyph()}
            <span class="chip-name">{name}</span>
            {mark}
        </span>
    }
    .into_any()
}
