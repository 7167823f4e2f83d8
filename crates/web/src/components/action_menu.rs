//! The actions menu of a node card or a pod chip: act on the cluster at the playhead. Each
//! action is added to the Timeline tab as a step at the logical time on screen (`actions.rs`
//! writes the text); the scenario is then re-run and playback goes on from the same stop.

use crate::actions::{self, Action, Docs, DrainFate, DrainPlan, DrainPod};
use crate::editor_js::EditorHandle;
use schedlab_view::words::Taint;
use crate::fmt;
use crate::scenario::Part;
use crate::state::{use_app, AppState, Menu, MenuTarget};
use leptos::prelude::*;
use schedlab_view::view::{Marker, Stage};
use std::sync::Arc;

/// Adds the action's steps at the playhead's time and re-runs.
pub fn act(st: AppState, ed: EditorHandle, action: Action) {
    st.set_menu.set(None);
    if st.saved.with_untracked(|s| s.generated.is_some()) {
        st.flash("A generated cluster has no editable text: load its YAML into the editor first");
        return;
    }
    // The Timeline tab's pending edit (if any) first.
    ed.with_value(|e| {
        if let Some(e) = e {
            e.flush()
        }
    });
    let at_ms = st.frame.with_untracked(|f| f.as_ref().map(|f| f.clock_ms)).unwrap_or(0);
    match st.saved.with_untracked(|s| actions::apply(&s.parts, at_ms, &action)) {
        Err(why) => st.flash(format!("No step added: {why}")),
        Ok(text) => {
            st.hold_playhead();
            st.set_fresh.set(false);
            ed.with_value(|e| {
                if let Some(e) = e {
                    e.replace_doc(Part::Timeline.id(), &text)
                }
            });
            st.set_saved.update(|s| {
                s.parts.timeline = text;
                s.preset = None;
            });
            st.flash(format!(
                "At t = {}: {} — a step in the Timeline tab",
                fmt::clock(at_ms),
                action.describe()
            ));
        }
    }
}

#[component]
pub fn ActionMenu() -> impl IntoView {
    let st = use_app();
    // The scenario's own objects (a node to copy, a pod's owner), read by the worker from the
    // editor's text when the menu opens (the page has no YAML parser): the menu they were read
    // for, and the documents.
    let (docs, set_docs) = signal(None::<(Menu, Arc<Docs>)>);
    Effect::new(move |_| match st.menu.get() {
        None => set_docs.set(None),
        Some(m) => {
            let texts = st.saved.with_untracked(|s| Docs::texts(&s.parts));
            st.documents(texts, move |d| {
                if st.menu.get_untracked() == Some(m) {
                    set_docs.set(Some((m, Arc::new(Docs::from_answer(d)))));
                }
            });
        }
    });
    view! {
        {move || {
            st.menu.get().map(|m| {
                let vw = window().inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(1280.0);
                let left = m.x.min(vw - 300.0).max(4.0);
                let body = match (docs.get().filter(|(dm, _)| *dm == m), m.target) {
                    (Some((_, d)), MenuTarget::Node(n)) => view! { <NodeActions node=n docs=d/> }.into_any(),
                    (Some((_, d)), MenuTarget::Pod(p)) => view! { <PodActions pod=p docs=d/> }.into_any(),
                    (None, _) => view! { <p class="muted menu-note">"Reading the scenario…"</p> }.into_any(),
                };
                view! {
                    <div class="menu-backdrop" on:click=move |_| st.set_menu.set(None)></div>
                    <div
                        class="action-menu"
                        role="menu"
                        style:left=format!("{left:.0}px")
                        style:top=format!("{:.0}px", m.y)
                        style:max-height=format!("calc(100vh - {:.0}px - 8px)", m.y)
                        on:keydown=move |e: web_sys::KeyboardEvent| {
                            if e.key() == "Escape" {
                                st.set_menu.set(None);
                            }
                        }
                    >
                        {body}
                        <p class="menu-foot muted">
                            {move || format!("Each action is a timeline step at t = {} (the Timeline tab); the run is recomputed and plays on from here.", fmt::clock(st.frame.with_untracked(|f| f.as_ref().map(|f| f.clock_ms)).unwrap_or(0)))}
                        </p>
                    </div>
                }
            })
        }}
    }
}

#[component]
fn NodeActions(node: u32, docs: Arc<Docs>) -> impl IntoView {
    let st = use_app();
    let ed: EditorHandle = expect_context();
    let name = st.node_name(node);
    let live = st
        .frame
        .with_untracked(|f| f.as_ref().and_then(|f| f.nodes.get(node as usize).cloned()))
        .unwrap_or_default();
    let do_ = move |a: Action| act(st, ed, a);
    let (taint_text, set_taint_text) = signal(String::new());
    let (label_text, set_label_text) = signal(String::new());
    let (problem, set_problem) = signal(None::<String>);

    let n = name.clone();
    let cordon = live.unschedulable;
    let (drain_pods, set_drain_pods) = signal(None::<Vec<DrainPod>>);
    let drain = move |_| {
        // The pods on the node now; what drain does to each is shown before it happens.
        let pods: Vec<DrainPod> = st.frame.with_untracked(|f| {
            let Some(l) = f.as_ref().and_then(|f| f.nodes.get(node as usize)) else {
                return Vec::new();
            };
            st.summary.with_untracked(|s| {
                let Some(s) = s else { return Vec::new() };
                l.pods
                    .iter()
                    .filter_map(|&p| s.model.pods.get(p as usize))
                    .map(|p| DrainPod {
                        namespace: p.namespace.clone(),
                        name: p.name.clone(),
                        created_by: p.created_by.clone(),
                    })
                    .collect()
            })
        });
        set_drain_pods.set(Some(pods));
    };
    let docs2 = docs.clone();
    let n3 = name.clone();
    let copy = move |_| {
        let taken: Vec<String> = st.summary.with_untracked(|s| {
            s.as_ref()
                .map(|s| s.model.nodes.iter().map(|n| n.name.clone()).collect())
                .unwrap_or_default()
        });
        match st.saved.with_untracked(|s| actions::copy_node(&s.parts, &docs, &n3, &taken)) {
            Some(obj) => do_(Action::Create(obj)),
            None => st.flash(format!("The text of node {n3} was not found in the scenario")),
        }
    };
    let n4 = name.clone();
    let current_taints: Vec<Taint> = live.taints.clone();
    let ct = current_taints.clone();
    let add_taint = move |e: leptos::ev::SubmitEvent| {
        e.prevent_default();
        let text = taint_text.get_untracked();
        match actions::parse_taint(&text) {
            Some(t) => {
                let mut all: Vec<Taint> = ct.iter().filter(|c| !(c.key == t.key && c.effect == t.effect)).cloned().collect();
                all.push(t);
                do_(Action::SetTaints(n4.clone(), all));
            }
            None => set_problem.set(Some(
                "A taint is key=value:Effect (NoSchedule, PreferNoSchedule or NoExecute)".into(),
            )),
        }
    };
    let n5 = name.clone();
    let add_label = move |e: leptos::ev::SubmitEvent| {
        e.prevent_default();
        let text = label_text.get_untracked();
        match text.split_once('=').map(|(k, v)| (k.trim().to_string(), v.trim().to_string())) {
            Some((k, v)) if !k.is_empty() => do_(Action::Label(n5.clone(), k, Some(v))),
            _ => set_problem.set(Some("A label is key=value".into())),
        }
    };
    let remove_taints = current_taints
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let rest: Vec<Taint> = current_taints.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, t)| t.clone()).collect();
            let n = name.clone();
            let text = t.to_string();
            view! {
                <button class="menu-chip" role="menuitem" title=format!("Remove the taint {text}") on:click=move |_| do_(Action::SetTaints(n.clone(), rest.clone()))>"✕ "{text.clone()}</button>
            }
        })
        .collect_view();
    let remove_labels = live
        .labels
        .iter()
        .map(|(k, v)| {
            let n = name.clone();
            let key = k.clone();
            let short = k.rsplit('/').next().unwrap_or(k);
            let text = if v.is_empty() { short.to_string() } else { format!("{short}={v}") };
            view! {
                <button class="menu-chip" role="menuitem" title=format!("Remove the label {k}") on:click=move |_| do_(Action::Label(n.clone(), key.clone(), None))>"✕ "{text}</button>
            }
        })
        .collect_view();
    let n6 = name.clone();
    let n7 = name.clone();
    let n2 = name.clone();
    let confirm = move || {
        drain_pods.get().map(|pods| {
            let controllers = st.saved.with_untracked(|s| s.controllers);
            view! {
                <DrainConfirm node=n2.clone() pods=pods docs=docs2.clone() controllers=controllers
                    on_cancel=Callback::new(move |_| set_drain_pods.set(None)) on_do=Callback::new(do_)/>
            }
        })
    };
    let choosing = move || drain_pods.with(Option::is_some);
    view! {
        {confirm}
        <div class="node-actions" class:hidden=choosing>
        <div class="menu-title">"Node "<strong>{name.clone()}</strong></div>
        <div class="menu-items">
            <button role="menuitem" data-action="cordon" on:click=move |_| do_(Action::Cordon(n.clone(), !cordon))
                title="spec.unschedulable: new pods are no longer placed here; running ones stay">
                {if cordon { "Uncordon" } else { "Cordon" }}
            </button>
            <button role="menuitem" data-action="drain" on:click=drain title="Cordon, then delete its pods as kubectl drain does (DaemonSet pods stay)">"Drain"</button>
            <button role="menuitem" data-action="copy" on:click=copy title="A create step with a copy of this node (edit it in the Timeline tab)">"Add a node like this"</button>
            <button role="menuitem" class="danger" data-action="delete-node" on:click=move |_| do_(Action::DeleteNode(n6.clone())) title="Delete the node: its pods are deleted first">"Delete node"</button>
        </div>
        <form class="menu-form" on:submit=add_taint>
            <input type="text" aria-label=format!("Taint to add to {n7}") placeholder="key=value:NoSchedule"
                prop:value=taint_text on:input=move |e| set_taint_text.set(event_target_value(&e))/>
            <button type="submit" class="btn small" data-action="taint">"Add taint"</button>
        </form>
        {(!live.taints.is_empty()).then(|| view! { <div class="menu-chips">{remove_taints}</div> })}
        <form class="menu-form" on:submit=add_label>
            <input type="text" aria-label="Label to add" placeholder="key=value"
                prop:value=label_text on:input=move |e| set_label_text.set(event_target_value(&e))/>
            <button type="submit" class="btn small" data-action="label">"Add label"</button>
        </form>
        <div class="menu-chips">{remove_labels}</div>
        {move || problem.get().map(|p| view! { <p class="menu-problem">{p}</p> })}
        </div>
    }
}

/// One group of a drain's pods: a heading and the pods with their reasons.
fn drain_group(plan: &DrainPlan, fate: &'static str, title: &str, pick: fn(&DrainFate) -> bool) -> Option<AnyView> {
    let pods = plan.with(pick);
    if pods.is_empty() {
        return None;
    }
    let items = pods
        .into_iter()
        .map(|(p, f)| {
            let why = match f {
                DrainFate::Replaced { by } => format!("{by} makes a new one"),
                DrainFate::Gone(w) | DrainFate::Ignored(w) | DrainFate::Refused(w) => w.clone(),
            };
            let name = if p.namespace == "default" {
                p.name.clone()
            } else {
                format!("{}/{}", p.namespace, p.name)
            };
            view! { <li><code>{name}</code>" "<span class="muted">{why}</span></li> }
        })
        .collect_view();
    let n = plan.with(pick).len();
    Some(
        view! {
            <section class="drain-group" data-fate=fate>
                <h4>{format!("{title} ({n})")}</h4>
                <ul>{items}</ul>
            </section>
        }
        .into_any(),
    )
}

/// What draining the node will do, pod by pod, before it is done: evicted and replaced, evicted
/// for good, refused (no controller: Force deletes them), left (DaemonSet pods).
#[component]
fn DrainConfirm(
    node: String,
    pods: Vec<DrainPod>,
    docs: Arc<Docs>,
    controllers: bool,
    on_cancel: Callback<()>,
    on_do: Callback<Action>,
) -> impl IntoView {
    let (force, set_force) = signal(false);
    let bare = actions::drain_plan(&docs, &node, &pods, controllers, false).refused();
    let node2 = node.clone();
    let plan = Memo::new(move |_| actions::drain_plan(&docs, &node2, &pods, controllers, force.get()));
    let groups = move || {
        plan.with(|p| {
            let none = p
                .pods
                .is_empty()
                .then(|| view! { <p class="muted menu-note">"No pod runs on the node: drain only cordons it."</p> }.into_any());
            [
                none,
                drain_group(
                    p,
                    "refused",
                    "Refused: kubectl drain deletes a pod no controller owns only with --force",
                    |f| matches!(f, DrainFate::Refused(_)),
                ),
                drain_group(p, "replaced", "Evicted, replaced by their controller", |f| {
                    matches!(f, DrainFate::Replaced { .. })
                }),
                drain_group(p, "gone", "Evicted, will not come back", |f| matches!(f, DrainFate::Gone(_))),
                drain_group(
                    p,
                    "ignored",
                    "Ignored: DaemonSet pods stay on the node (--ignore-daemonsets)",
                    |f| matches!(f, DrainFate::Ignored(_)),
                ),
            ]
            .into_iter()
            .flatten()
            .collect_view()
        })
    };
    let go = move |_| on_do.run(plan.with_untracked(DrainPlan::action));
    view! {
        <div class="drain-confirm" role="group" aria-label=format!("Drain {node}")>
            <div class="menu-title">"Drain "<strong>{node.clone()}</strong>" — what will happen"</div>
            <p class="muted menu-note">"As kubectl drain --ignore-daemonsets: cordon the node, then evict its pods."</p>
            {groups}
            {bare.then(|| view! {
                <label class="drain-force">
                    <input type="checkbox" data-action="drain-force" prop:checked=force
                        on:change=move |e| set_force.set(event_target_checked(&e))/>
                    " Force: delete the pods no controller owns too (kubectl drain --force); they will not come back"
                </label>
            })}
            {move || plan.with(DrainPlan::refused).then(|| view! {
                <p class="menu-problem">"Without Force, kubectl drain cordons the node and stops: no pod is evicted."</p>
            })}
            <div class="drain-buttons">
                <button class="btn small primary" data-action="drain-confirm" on:click=go>
                    {move || if plan.with(DrainPlan::refused) { "Cordon only" } else { "Drain" }}
                </button>
                <button class="btn small" data-action="drain-cancel" on:click=move |_| on_cancel.run(())>"Cancel"</button>
            </div>
        </div>
    }
}

#[component]
fn PodActions(pod: u32, docs: Arc<Docs>) -> impl IntoView {
    let st = use_app();
    let ed: EditorHandle = expect_context();
    let do_ = move |a: Action| act(st, ed, a);
    let Some(model) = st
        .summary
        .with_untracked(|s| s.as_ref().and_then(|s| s.model.pods.get(pod as usize).cloned()))
    else {
        return view! { <div class="menu-title">"Unknown pod"</div> }.into_any();
    };
    let (gated, present) = st.frame.with_untracked(|f| {
        let Some(f) = f else { return (false, false) };
        let q = &f.queue;
        let gated = q.gated.iter().any(|i| i.pod == pod);
        let queued = q.in_flight == Some(pod)
            || [&q.active, &q.backoff, &q.unschedulable, &q.gated]
                .iter()
                .any(|l| l.iter().any(|i| i.pod == pod));
        (gated, queued || f.nodes.iter().any(|n| n.pods.contains(&pod)))
    });
    // Pending at the playhead after a failed attempt: its last failed cycle so far, where the
    // FailedScheduling message says why (the run's summary marks each cycle's outcome).
    let pending = st.frame.with_untracked(|f| {
        f.as_ref().is_some_and(|f| {
            let q = &f.queue;
            [&q.active, &q.backoff, &q.unschedulable]
                .iter()
                .any(|l| l.iter().any(|i| i.pod == pod))
        })
    });
    let last_failed = pending
        .then(|| {
            // The menu is a snapshot of the moment it opened: nothing here re-renders it.
            let now = untrack(|| st.cycle_of(st.stop.get_untracked()));
            st.summary.with_untracked(|s| {
                let s = s.as_ref()?;
                let markers: Vec<char> = s.cycle_markers.chars().collect();
                (1..=now.min(s.cycle_pod.len() as u32)).rev().find(|&c| {
                    s.cycle_pod[c as usize - 1] == pod
                        && markers.get(c as usize - 1).is_some_and(|&m| Marker::from_code(m) != Marker::Bound)
                })
            })
        })
        .flatten();
    let why = last_failed.map(|c| {
        view! {
            <button role="menuitem" data-action="why-pending" title=format!("Go to cycle {c}, its last attempt: the FailedScheduling message says why")
                on:click=move |_| {
                    st.set_menu.set(None);
                    st.pause_at(crate::player::Seek::At(c, Some(Stage::Failed)));
                }>{format!("Why pending? (cycle {c})")}</button>
        }
    });
    let ask = use_context::<crate::components::answers_panel::Questions>().map(|q| {
        let key = format!("{}/{}", model.namespace, model.name);
        view! {
            <button role="menuitem" data-action="ask-why" title="The engine's answer at the end of the run: why on its node (against the runner-up), or why pending and the smallest verified changes that would schedule it"
                on:click=move |_| {
                    st.set_menu.set(None);
                    q.set_pod.set(Some(key.clone()));
                }>"Why here / why pending? (the run's end)"</button>
        }
    });
    let at_ms = st.frame.with_untracked(|f| f.as_ref().map(|f| f.clock_ms)).unwrap_or(0);
    let owner = actions::owner_workload(&docs, &model.namespace, &model.name, model.created_by.as_ref(), at_ms);
    let (ns, name) = (model.namespace.clone(), model.name.clone());
    let (ns2, name2) = (ns.clone(), name.clone());
    let gates = model.gates.clone();
    let per_gate = (gates.len() > 1)
        .then(|| {
            gates
                .iter()
                .map(|g| {
                    let keep: Vec<String> = gates.iter().filter(|x| *x != g).cloned().collect();
                    let (ns, name) = (ns.clone(), name.clone());
                    view! { <button class="menu-chip" role="menuitem" on:click=move |_| do_(Action::SetGates(ns.clone(), name.clone(), keep.clone()))>"✕ "{g.clone()}</button> }
                })
                .collect_view()
        });
    let scale = owner.map(|w| {
        let (w1, w2) = (w.clone(), w.clone());
        view! {
            <div class="menu-scale">
                <span>{format!("{} {}: {}", w.kind, w.name, fmt::count(w.replicas.max(0) as usize, "replica"))}</span>
                <button class="btn small" data-action="scale-down" aria-label="One replica fewer" disabled=w.replicas <= 0
                    on:click=move |_| do_(Action::Scale(w1.kind.clone(), w1.namespace.clone(), w1.name.clone(), w1.replicas - 1))>"−"</button>
                <button class="btn small" data-action="scale-up" aria-label="One replica more"
                    on:click=move |_| do_(Action::Scale(w2.kind.clone(), w2.namespace.clone(), w2.name.clone(), w2.replicas + 1))>"+"</button>
            </div>
        }
    });
    view! {
        <div class="menu-title">"Pod "<strong>{model.name.clone()}</strong></div>
        <div class="menu-items">
            {ask}
            {why}
            {gated.then(|| view! {
                <button role="menuitem" data-action="lift-gates" title="Patch spec.schedulingGates away: the pod enters the queue"
                    on:click=move |_| do_(Action::SetGates(ns2.clone(), name2.clone(), Vec::new()))>"Lift scheduling gates"</button>
            })}
            {gated.then_some(per_gate).flatten().map(|v| view! { <div class="menu-chips">{v}</div> })}
            <button role="menuitem" class="danger" data-action="delete-pod" disabled=!present
                on:click=move |_| do_(Action::DeletePod(ns.clone(), name.clone()))>"Delete pod"</button>
            {scale}
        </div>
        {fmt::created(model.created_by.as_ref(), model.created_at_ms).map(|c| view! { <p class="muted menu-note">{fmt::sentence_case(&c)}</p> })}
    }
    .into_any()
}
