//! Cluster changes in the view: what each `change` of the trace does to the cluster the page
//! shows (a node added, patched or deleted, a pod created, finished or deleted), the sentence
//! that tells it, and the queue's answer to it (`ChangeView`).
//!
//! The trace records which object changed; how a node looks after a patch is worked out here
//! from the timeline's steps (the same merge patches the engine applied), once per session.

use super::{shown_labels, ChangeView, MoveView};
use crate::api;
use crate::engine::Engine;
use crate::timeline::{Change, Object};
use crate::trace::{ChangeAction, ChangeCause, FinishedPhase, QueueName, TraceEvent};
use schedlab_view::words::{ObjectKind, Taint, TaintEffect};
use crate::vocabulary::PluginName;
use std::collections::{BTreeMap, HashMap};

/// A node's live state as the cards show it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct NodeState {
    pub unschedulable: bool,
    pub taints: Vec<Taint>,
    pub labels: Vec<(String, String)>,
}

impl NodeState {
    pub fn of(n: &api::Node) -> NodeState {
        NodeState {
            unschedulable: n.spec.unschedulable.unwrap_or(false),
            taints: n.spec.taints.iter().filter_map(view_taint).collect(),
            labels: shown_labels(&n.metadata.labels),
        }
    }
}

/// A node's taint as the views show it (`None` for an effect the loader would have refused).
pub(super) fn view_taint(t: &api::Taint) -> Option<Taint> {
    Some(Taint {
        key: t.key.clone(),
        value: t.value.clone().unwrap_or_default(),
        effect: TaintEffect::from_api(&t.effect)?,
    })
}

/// What a `change` does to the shown cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Effect {
    /// The node is (now) in the cluster, in this state.
    Node(u32, NodeState),
    /// The node is deleted, and the pods on it with it.
    NodeGone(u32),
    /// The pod leaves its node: finished (true) or deleted (false).
    PodGone(u32, bool),
    /// The pod now exists, running on a node when given.
    PodCreated(u32, Option<u32>),
}

/// Each `change`'s effect and sentence, by trace index.
#[derive(Clone, Debug, Default)]
pub(super) struct Changes {
    pub effects: HashMap<usize, Effect>,
    pub sentences: HashMap<usize, String>,
}

/// A pod key shown without the default namespace.
fn short(key: &str) -> &str {
    key.strip_prefix("default/").unwrap_or(key)
}

pub(super) fn compute(e: &Engine, initial_nodes: &[std::sync::Arc<api::Node>]) -> Changes {
    let mut out = Changes::default();
    let steps = e.timeline_steps();
    let header = &e.trace.header;
    // The nodes as the changes leave them (shared with the scenario until one is replaced).
    let mut nodes: BTreeMap<String, std::sync::Arc<api::Node>> =
        crate::sort::map_of(initial_nodes.iter().map(|n| (n.metadata.name.clone(), n.clone())));
    for (i, ev) in e.trace.events.iter().enumerate() {
        let TraceEvent::Change {
            cause,
            step,
            action,
            object,
            pod,
            node,
            phase,
            skipped,
            by,
            ..
        } = ev
        else {
            continue;
        };
        let change = step.and_then(|s| steps.get(s as usize)).map(|s| &s.change);
        let kind = object.as_ref().map(|o| &o.kind);
        let object_name = object.as_ref().map(|o| o.name.as_str()).unwrap_or("");
        let object_text = object.as_ref().map(ToString::to_string).unwrap_or_default();
        let controller = by.as_ref().map_or_else(|| "a controller".to_string(), ToString::to_string);
        let pod_name = pod.and_then(|p| header.pods.get(p as usize)).map(|k| short(k).to_string());
        let node_name = node.and_then(|n| header.nodes.get(n as usize)).cloned();
        let on_node = node_name.as_ref().map(|n| format!(" on {n}")).unwrap_or_default();
        let is_node = kind == Some(&ObjectKind::Node);
        let is_pod = kind == Some(&ObjectKind::Pod);
        let mut effect = None;
        let sentence = match action {
            ChangeAction::Flush => "the periodic flush retries the pods unschedulable for more than 5 minutes".to_string(),
            ChangeAction::Finish => {
                if let Some(p) = pod {
                    effect = Some(Effect::PodGone(*p, true));
                }
                format!(
                    "pod {} finished ({}){on_node}: its schedlab.dev/duration ran out",
                    pod_name.clone().unwrap_or_default(),
                    phase.unwrap_or(FinishedPhase::Succeeded)
                )
            }
            ChangeAction::Create if is_node => {
                let name = object_name.to_string();
                if let (Some(Change::Create(o)), Some(n)) = (change, node) {
                    if let Object::Node(obj) = &**o {
                        effect = Some(Effect::Node(*n, NodeState::of(obj)));
                        nodes.insert(name.clone(), std::sync::Arc::new(obj.clone()));
                    }
                }
                format!("{name} was added")
            }
            ChangeAction::Create if is_pod => {
                if let Some(p) = pod {
                    effect = Some(Effect::PodCreated(*p, *node));
                }
                let what = pod_name.clone().unwrap_or_else(|| object_name.to_string());
                if *cause == ChangeCause::Controller {
                    format!("{controller} created pod {what}{on_node}")
                } else {
                    format!("pod {what} was created{on_node}")
                }
            }
            ChangeAction::Create => format!("{object_text} was created"),
            ChangeAction::Delete if is_node => {
                let name = object_name.to_string();
                if let Some(n) = node {
                    effect = Some(Effect::NodeGone(*n));
                }
                nodes.remove(&name);
                format!("{name} was deleted, and its pods with it")
            }
            ChangeAction::Delete if is_pod => {
                if let Some(p) = pod {
                    effect = Some(Effect::PodGone(*p, false));
                }
                let what = pod_name.clone().unwrap_or_else(|| object_name.to_string());
                if *cause == ChangeCause::Controller {
                    format!("{controller} deleted pod {what}{on_node}")
                } else {
                    format!("pod {what} was deleted{on_node}")
                }
            }
            ChangeAction::Patch if is_node => {
                let name = object_name.to_string();
                match (change, nodes.get(&name)) {
                    (Some(Change::Patch(_, merge)), Some(old)) if skipped.is_none() => match crate::timeline::patch_node(old, merge) {
                        Ok(new) => {
                            let s = node_patch_sentence(&name, old, &new);
                            if let Some(n) = node {
                                effect = Some(Effect::Node(*n, NodeState::of(&new)));
                            }
                            nodes.insert(name, std::sync::Arc::new(new));
                            s
                        }
                        Err(_) => format!("{name} was patched"),
                    },
                    _ => format!("{name} was patched"),
                }
            }
            ChangeAction::Patch if is_pod => {
                let what = pod_name.clone().unwrap_or_else(|| object_name.to_string());
                match change {
                    Some(Change::Patch(_, merge)) => {
                        let phase = merge.pointer("/status/phase").and_then(|v| v.as_str());
                        if let (Some(ph), Some(p), None) = (phase, pod, skipped) {
                            effect = Some(Effect::PodGone(*p, true));
                            format!("pod {what} was marked {ph}{on_node}")
                        } else {
                            let mut parts = Vec::new();
                            if merge.pointer("/spec/schedulingGates").is_some() {
                                parts.push("scheduling gates were lifted");
                            }
                            if merge.pointer("/spec/tolerations").is_some() {
                                parts.push("tolerations were added");
                            }
                            if merge.pointer("/metadata/labels").is_some() {
                                parts.push("labels changed");
                            }
                            if parts.is_empty() {
                                format!("pod {what} was patched")
                            } else {
                                format!("pod {what}'s {}", parts.join(", "))
                            }
                        }
                    }
                    _ => format!("pod {what} was patched"),
                }
            }
            ChangeAction::Patch => {
                let replicas = match change {
                    Some(Change::Patch(t, merge)) => crate::timeline::patch_replicas(merge, t.kind.as_str()).ok(),
                    _ => None,
                };
                match (replicas, kind) {
                    (Some(r), Some(kind)) => format!("{kind} {object_name} was scaled to {r} replicas"),
                    _ => format!("{object_text} was patched"),
                }
            }
            ChangeAction::Delete => format!("delete {object_text}"),
        };
        let sentence = match skipped {
            Some(why) => format!("{sentence} — skipped: {why}"),
            None => {
                if let Some(eff) = effect {
                    out.effects.insert(i, eff);
                }
                sentence
            }
        };
        out.sentences.insert(i, sentence);
    }
    out
}

/// What a node patch did, in words ("node-a was cordoned", "node-a's taints are now ...").
fn node_patch_sentence(name: &str, old: &api::Node, new: &api::Node) -> String {
    let mut parts = Vec::new();
    let unsched = |n: &api::Node| n.spec.unschedulable.unwrap_or(false);
    match (unsched(old), unsched(new)) {
        (false, true) => parts.push("was cordoned".to_string()),
        (true, false) => parts.push("was uncordoned".to_string()),
        _ => {}
    }
    if old.spec.taints != new.spec.taints {
        let t: Vec<String> = new.spec.taints.iter().filter_map(view_taint).map(|t| t.to_string()).collect();
        parts.push(if t.is_empty() {
            "lost its taints".to_string()
        } else {
            format!("is now tainted {}", t.join(", "))
        });
    }
    let set: Vec<String> = (new.metadata.labels.iter())
        .filter(|(k, v)| old.metadata.labels.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let lost: Vec<String> = (old.metadata.labels.keys())
        .filter(|k| !new.metadata.labels.contains_key(*k))
        .cloned()
        .collect();
    if !set.is_empty() {
        parts.push(format!("got label {}", set.join(", ")));
    }
    if !lost.is_empty() {
        parts.push(format!("lost label {}", lost.join(", ")));
    }
    if old.status.allocatable != new.status.allocatable || old.status.capacity != new.status.capacity {
        parts.push("changed its capacity".to_string());
    }
    if parts.is_empty() {
        format!("{name} was patched")
    } else {
        format!("{name} {}", parts.join(" and "))
    }
}

/// Milliseconds as seconds with one decimal ("0.6 s").
fn secs(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// The change at trace index `at` and the queue's answer (the events up to `end`).
pub(super) fn view(events: &[TraceEvent], pods: &[String], changes: &Changes, at: usize, end: usize) -> Option<ChangeView> {
    let TraceEvent::Change {
        at_ms,
        cause,
        step,
        action,
        object,
        pod,
        node,
        skipped,
        by,
        ..
    } = events.get(at)?
    else {
        return None;
    };
    let sentence = changes.sentences.get(&at).cloned().unwrap_or_default();
    let mut moves = Vec::new();
    for ev in &events[at + 1..end.min(events.len())] {
        let TraceEvent::InformerEvent { event, pods: reached } = ev else {
            continue;
        };
        for r in reached {
            let decided = r.hints.last();
            let name = pods.get(r.pod as usize).map(|k| short(k).to_string()).unwrap_or_default();
            let why = match decided {
                Some(h) if h.unhinted => format!("{} registered {event} without a hint, so it is retried", h.plugin.as_str()),
                Some(h) if h.hint == crate::framework::events::QueueingHint::Queue => {
                    let may = if h.plugin == PluginName::NodeResourcesFit {
                        "fit"
                    } else {
                        "schedule"
                    };
                    format!("{}'s hint says it may {may} now", h.plugin.as_str())
                }
                Some(h) => format!("{}'s hint says this does not help it", h.plugin.as_str()),
                None => "no queueing hint applies".to_string(),
            };
            let whither = match (r.to, r.moved) {
                (QueueName::ActiveQ, true) => "→ activeQ".to_string(),
                (QueueName::BackoffQ, true) => match r.backoff_remaining_ms {
                    Some(ms) if ms > 0 => format!("→ backoffQ, {} of backoff left", secs(ms)),
                    _ => "→ backoffQ".to_string(),
                },
                (QueueName::Unschedulable, _) => "(stays in the unschedulable pool)".to_string(),
                (QueueName::Gated, _) => "(stays gated)".to_string(),
                (QueueName::BackoffQ, false) => "(stays in backoffQ)".to_string(),
                (QueueName::ActiveQ, false) => "(stays in activeQ)".to_string(),
                (q, _) => format!("→ {q:?}"),
            };
            moves.push(MoveView {
                event: event.clone(),
                pod: r.pod,
                plugin: decided.map(|h| h.plugin.as_str().to_string()),
                hint: decided.map(|h| format!("{:?}", h.hint)),
                unhinted: decided.is_some_and(|h| h.unhinted),
                to: r.to,
                moved: r.moved,
                backoff_left_ms: r.backoff_remaining_ms,
                sentence: format!("{sentence}: {name} — {why} {whither}"),
                pod_sentence: format!("{name} — {why} {whither}"),
            });
        }
    }
    Some(ChangeView {
        at_ms: *at_ms,
        cause: *cause,
        step: *step,
        action: *action,
        object: object.as_deref().cloned(),
        pod: *pod,
        node: *node,
        by: by.as_deref().cloned(),
        skipped: skipped.clone(),
        sentence,
        moves,
    })
}
