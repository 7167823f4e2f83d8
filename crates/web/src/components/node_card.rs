//! One node: capacity bars, labels and taints, the pods on it, and its part in the current
//! scheduling cycle.

use crate::components::devices::NodeDevices;
use crate::components::pod_chip::{ChipState, PodChip};
use crate::fmt;
use crate::state::{use_app, CellRef, MenuTarget};
use leptos::prelude::*;
use schedlab_view::view::{NodeLive, Stage};

/// The node's part in the cycle on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    None,
    Feasible,
    Filtered { plugin: String, reason: String },
    NotEvaluated(String),
    Chosen,
    Candidate { victims: usize, chosen: bool },
}

// Over 150 lines, for a reason: the card's role in the cycle (`Role`, a Memo of the frame) and
// its markup (header, capacity bars, labels and taints, chips, status badges) share half a dozen
// memos of one node; split into sub-components they would be passed around as props. Left
// whole while the views' strings (taints, causes) move to typed enums in another branch.
#[component]
pub fn NodeCard(node: u32) -> impl IntoView {
    let st = use_app();
    let model = Memo::new(move |_| {
        st.summary
            .with(|s| s.as_ref().and_then(|s| s.model.nodes.get(node as usize).cloned()))
    });
    let cols = Memo::new(move |_| {
        st.summary
            .with(|s| s.as_ref().map(|s| s.model.resources.clone()).unwrap_or_default())
    });
    let live = Memo::new(move |_| {
        st.frame
            .with(|f| f.as_ref().and_then(|f| f.nodes.get(node as usize).cloned()))
            .unwrap_or_default()
    });
    let role = Memo::new(move |_| {
        st.frame.with(|f| {
            let Some(cv) = f.as_ref().and_then(|f| f.cycle_view.as_ref()) else {
                return Role::None;
            };
            if cv.stage >= Stage::Reserve && cv.node == Some(node) && cv.outcome != Some(schedlab_view::view::Marker::Unschedulable) {
                return Role::Chosen;
            }
            if cv.stage >= Stage::NormalizeScore && cv.node == Some(node) {
                return Role::Chosen;
            }
            if let Some(pf) = &cv.post_filter {
                let name = model.with_untracked(|m| m.as_ref().map(|m| m.name.clone()).unwrap_or_default());
                if let Some(c) = pf.candidates.iter().find(|c| c.node == name) {
                    return Role::Candidate {
                        victims: c.victims.len() + c.other_victims.len(),
                        chosen: c.chosen,
                    };
                }
            }
            let Some(fv) = &cv.filter else { return Role::None };
            let Some(row) = fv.rows.iter().find(|r| r.node == node) else {
                return Role::None;
            };
            if row.feasible {
                Role::Feasible
            } else if let Some(i) = row.failed_at {
                Role::Filtered {
                    plugin: fv.plugins.get(i as usize).cloned().unwrap_or_default(),
                    reason: row.reasons.join("; "),
                }
            } else if row.visit.is_some() {
                Role::Filtered {
                    plugin: row.code.clone().unwrap_or_default(),
                    reason: row.reasons.join("; "),
                }
            } else {
                Role::NotEvaluated(row.note.clone().unwrap_or_default())
            }
        })
    });
    let current_cycle = Memo::new(move |_| st.frame.with(|f| f.as_ref().map(|f| f.cycle).unwrap_or(0)));
    let bound_here = Memo::new(move |_| {
        st.frame.with(|f| {
            f.as_ref()
                .and_then(|f| f.cycle_view.as_ref())
                .filter(|cv| cv.stage >= Stage::Bind && cv.outcome != Some(schedlab_view::view::Marker::Unschedulable))
                .and_then(|cv| (cv.node == Some(node)).then_some(cv.pod))
        })
    });
    // The node the cycle chose, from Score on (where the score table names it) through Reserve:
    // its card is scrolled into the cluster panel's view at each of those phases, so the story
    // above the cards never hides it.
    let focus = Memo::new(move |_| {
        st.frame.with(|f| {
            let cv = f.as_ref()?.cycle_view.as_ref()?;
            let shown = matches!(cv.stage, Stage::Score | Stage::NormalizeScore | Stage::Reserve)
                && cv.node == Some(node)
                && cv.outcome != Some(schedlab_view::view::Marker::Unschedulable);
            shown.then_some((cv.cycle, cv.stage))
        })
    });
    let card = NodeRef::<leptos::html::Article>::new();
    Effect::new(move |_| {
        if focus.get().is_some() {
            if let Some(el) = card.get_untracked() {
                scroll_into_panel(&el);
            }
        }
    });
    let explain = move |e: web_sys::MouseEvent| {
        let cycle = current_cycle.get_untracked();
        let has_filter = st
            .frame
            .with_untracked(|f| f.as_ref().and_then(|f| f.cycle_view.as_ref()).is_some_and(|cv| cv.filter.is_some()));
        if cycle > 0 && has_filter {
            st.select_cell(
                CellRef {
                    cycle,
                    node,
                    plugin: String::new(),
                    score: false,
                },
                &e,
            );
        }
    };

    let name = move || model.with(|m| m.as_ref().map(|m| m.name.clone()).unwrap_or_default());
    let bars = move || {
        let cols = cols.get();
        let l: NodeLive = live.get();
        let (alloc, shown) = model.with(|m| m.as_ref().map(|m| (m.allocatable.clone(), m.bars(&l))).unwrap_or_default());
        shown
            .into_iter()
            .filter_map(|i| cols.get(i).map(|c| (i, c)))
            .map(|(i, c)| {
                let used = l.used.get(i).copied().unwrap_or(0);
                let total = alloc.get(i).copied().unwrap_or(0);
                let pct = fmt::percent(used, total);
                let over = used > total;
                let text = format!("{}/{}", fmt::amount(c, used), fmt::amount(c, total));
                let label = fmt::resource_label(&c.name).to_string();
                let aria = format!("{}: {} of {} requested ({:.0}%)", c.name, fmt::amount(c, used), fmt::amount(c, total), pct);
                view! {
                    <div class=format!("bar{}{}", if over { " over" } else { "" }, if pct >= 85.0 { " high" } else { "" }) data-res=c.name.clone() role="meter" aria-label=aria.clone() title=aria
                        aria-valuemin="0" aria-valuemax="100" aria-valuenow=format!("{pct:.0}")>
                        <span class="bar-label">{label}</span>
                        <span class="bar-track"><span class="bar-fill" style:width=format!("{pct:.1}%")></span></span>
                        <span class="bar-text">{text}</span>
                    </div>
                }
            })
            .collect_view()
    };
    // Cordon, taints and labels as they are at the playhead (the timeline may change them).
    let badges = move || {
        live.with(|m| {
            let mut v: Vec<(String, &'static str, String)> = Vec::new();
            if m.unschedulable {
                v.push(("⚠ cordoned".into(), "taint", "spec.unschedulable: true".into()));
            }
            for t in &m.taints {
                v.push((format!("☂ {t}"), "taint", format!("Taint {t}")));
            }
            for (k, val) in &m.labels {
                // A deprecated beta.* label beside its stable twin says the same thing.
                if let Some(stable) = k.strip_prefix("beta.") {
                    if m.labels.iter().any(|(k2, v2)| k2 == stable && v2 == val) {
                        continue;
                    }
                }
                let short = k.rsplit('/').next().unwrap_or(k);
                // A label with an empty value is a flag (node-role.kubernetes.io/master=).
                let (text, title) = if val.is_empty() {
                    (short.to_string(), format!("Label {k} (empty value)"))
                } else {
                    (format!("{short}={val}"), format!("Label {k}={val}"))
                };
                if v.iter().any(|(t, kind, _)| *kind == "label" && *t == text) {
                    continue;
                }
                v.push((text, "label", title));
            }
            v
        })
        .into_iter()
        .map(|(text, kind, title)| view! { <span class=format!("badge {kind}") title=title>{text}</span> })
        .collect_view()
    };
    let role_view = move || match role.get() {
        Role::None => None,
        Role::Feasible => Some(view! { <span class="role feasible">"✓ feasible"</span> }.into_any()),
        Role::Chosen => Some(view! { <span class="role chosen">"★ chosen"</span> }.into_any()),
        Role::Filtered { plugin, reason } => Some(
            view! { <span class="role filtered" title=reason.clone()>"✗ "{st.plugin_short(&plugin)}": "{reason.clone()}</span> }.into_any(),
        ),
        Role::NotEvaluated(note) => Some(view! { <span class="role skipped" title=note>"— not evaluated"</span> }.into_any()),
        Role::Candidate { victims, chosen } => Some(
            view! {
                <span class="role candidate" class:chosen=chosen>
                    {if chosen { "⚔ preempt here: " } else { "candidate: " }}
                    {fmt::count(victims, "victim")}
                </span>
            }
            .into_any(),
        ),
    };
    let role_class = move || match role.get() {
        Role::None => "",
        Role::Feasible => "is-feasible",
        Role::Chosen => "is-chosen",
        Role::Filtered { .. } => "is-filtered",
        Role::NotEvaluated(_) => "is-skipped",
        Role::Candidate { chosen: true, .. } => "is-candidate chosen",
        Role::Candidate { .. } => "is-candidate",
    };
    let chips = move || {
        let l = live.get();
        let just = bound_here.get();
        let mut out: Vec<(u32, ChipState)> = Vec::new();
        for &p in &l.pods {
            let s = if l.victims.contains(&p) {
                ChipState::Victim
            } else if Some(p) == just {
                ChipState::New
            } else {
                ChipState::Running
            };
            out.push((p, s));
        }
        for &p in &l.leaving {
            out.push((p, ChipState::Leaving));
        }
        for &p in &l.nominated {
            out.push((p, ChipState::Nominated));
        }
        out
    };
    view! {
        <article node_ref=card class=move || format!("node-card {}{}{}", role_class(), if st.highlight.with(|h| h.contains(&node)) { " highlight" } else { "" }, if live.with(|l| l.absent) { " absent" } else { "" })
            data-node=name aria-label=move || format!("Node {}", name())>
            <header class="node-head">
                <button class="node-name linklike" on:click=explain title="Explain this node's filter verdict">
                    {name}
                </button>
                {role_view}
                // An embed has no editor and no timeline to write a step into: no menu there.
                {(!st.embed).then(|| view! {
                    <button class="node-menu btn small icon" aria-haspopup="menu" title="Act on this node at the playhead (adds a timeline step)"
                        aria-label=move || format!("Actions on node {}", name())
                        on:click=move |e| st.open_menu(MenuTarget::Node(node), &e)>"⋯"</button>
                })}
            </header>
            <div class="bars">{bars}</div>
            <div class="badges">{badges}</div>
            <NodeDevices node=node/>
            <div class="pods" aria-label="Pods on this node">
                <For
                    each=move || {
                        let run = st.run.get();
                        chips().into_iter().map(move |(p, s)| (run, p, s)).collect::<Vec<_>>()
                    }
                    key=|k| *k
                    children=move |(_, p, s)| view! { <PodChip pod=p state=s menu=true/> }
                />
            </div>
        </article>
    }
}

/// Scrolls the cluster panel (only it: never the page, nor a page embedding this one) so that
/// the card is in view, by as little as needed.
fn scroll_into_panel(card: &web_sys::Element) {
    let Ok(Some(panel)) = card.closest(".cluster-body") else { return };
    let c = card.get_bounding_client_rect();
    let p = panel.get_bounding_client_rect();
    let top = panel.scroll_top() as f64;
    let delta = if c.height() > p.height() || c.top() < p.top() {
        c.top() - p.top() - 4.0
    } else if c.bottom() > p.bottom() {
        c.bottom() - p.bottom() + 4.0
    } else {
        return;
    };
    panel.set_scroll_top((top + delta).max(0.0) as i32);
}
