//! Why a pod is pending, and the changes that would make it schedule (each verified).

use super::{apply_edits, cell, cycle_events, cycles_of, lands_on, node_name, same, RunOptions};
use crate::engine::Engine;
use crate::framework::Code;
use crate::quantity::Quantity;
use crate::trace::TraceEvent;
use crate::vocabulary::PluginName;
use schedlab_view::answer::{CellRef, Edit, ReasonGroup, Suggestion, WhyPending};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// At most this many candidate changes are verified (each is one re-run).
const MAX_CANDIDATES: usize = 24;
/// A topology spread's maxSkew is tried up to this much larger.
const MAX_SKEW_STEP: i64 = 3;

/// A candidate change before it is verified.
pub(super) struct Candidate {
    pub sentence: String,
    pub edits: Vec<Edit>,
    pub size: (u32, i64),
    pub cells: Vec<CellRef>,
}

pub(super) fn why_pending(text: &str, e: &Engine, key: &str, opts: &RunOptions) -> WhyPending {
    let idx = e.pod_by_key(key).expect("the caller found the pod");
    let p = &e.pods()[idx];
    let cycle = cycles_of(e, key).last().copied().unwrap_or(0);
    let mut out = WhyPending {
        cycle,
        attempts: p.attempts,
        message: p.message.clone().unwrap_or_default(),
        reasons: Vec::new(),
        preemption: Vec::new(),
        suggestions: Vec::new(),
        tried: 0,
    };
    if cycle == 0 {
        let pod = super::trace_pod(e, key);
        let gate = e.trace().events.iter().rev().find_map(|ev| match ev {
            TraceEvent::Gated { pod: g, plugin, message } if Some(*g) == pod => Some(format!("{plugin}: {message}")),
            _ => None,
        });
        out.message = gate.unwrap_or_else(|| "it never reached a scheduling cycle".to_string());
        return out;
    }
    // Rejections by (plugin, reason), the nodes in visiting order.
    let mut groups: Vec<ReasonGroup> = Vec::new();
    let mut rejected: Vec<(String, PluginName, Vec<String>)> = Vec::new();
    for ev in cycle_events(e, cycle) {
        match ev {
            TraceEvent::PreFilter { results, .. } => {
                for r in results
                    .iter()
                    .filter(|r| matches!(r.code, Code::Unschedulable | Code::UnschedulableAndUnresolvable | Code::Error))
                {
                    for reason in &r.reasons {
                        push_group(&mut groups, r.plugin, reason, None);
                    }
                }
            }
            TraceEvent::Filter { verdicts, .. } => {
                for v in verdicts.iter().flatten() {
                    let Some(f) = &v.failed else { continue };
                    let n = node_name(e, v.node);
                    for reason in &f.reasons {
                        push_group(&mut groups, f.plugin, reason, Some(&n));
                    }
                    rejected.push((n, f.plugin, f.reasons.clone()));
                }
            }
            TraceEvent::PostFilter { message, preemption, .. } => {
                if !message.is_empty() {
                    out.preemption.push(format!("Preemption: {}.", message.trim_end_matches('.')));
                }
                if let Some(d) = preemption {
                    if d.candidates.is_empty() {
                        out.preemption
                            .push("No node could be freed by evicting lower-priority pods.".to_string());
                    }
                    for c in &d.candidates {
                        out.preemption.push(format!(
                            "Evicting {} on {} would make room ({} PodDisruptionBudget violation(s)).",
                            c.victims.join(", "),
                            c.node,
                            c.num_pdb_violations
                        ));
                    }
                    if let Some(ch) = &d.chosen {
                        out.preemption.push(format!(
                            "{ch} was chosen and the pod nominated there; it was still pending when the run ended."
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    out.reasons = groups;
    let errored = cycle_events(e, cycle).any(|ev| {
        matches!(
            ev,
            TraceEvent::CycleEnd {
                outcome: crate::trace::CycleOutcome::Error,
                ..
            }
        )
    });
    let mut cands = candidates(text, e, key, cycle, &rejected, errored.then_some(out.message.as_str()));
    crate::sort::sort_by(&mut cands, |a, b| a.size.cmp(&b.size).then_with(|| a.sentence.cmp(&b.sentence)));
    let mut seen = Vec::new();
    cands.retain(|c| {
        let dup = seen.contains(&c.edits);
        seen.push(c.edits.clone());
        !dup
    });
    cands.truncate(MAX_CANDIDATES);
    out.tried = cands.len();
    for c in cands {
        let Ok(edited) = apply_edits(text, &c.edits) else { continue };
        if let Ok(Some(node)) = lands_on(&edited, key, opts) {
            out.suggestions.push(Suggestion {
                sentence: format!("{} (verified: it then schedules on {node}).", c.sentence),
                edits: c.edits,
                lands_on: node,
                size: c.size,
                cells: c.cells,
            });
        }
    }
    out
}

fn push_group(groups: &mut Vec<ReasonGroup>, plugin: PluginName, reason: &str, node: Option<&str>) {
    let i = match groups.iter().position(|g| g.plugin == plugin.as_str() && g.reason == reason) {
        Some(i) => i,
        None => {
            groups.push(ReasonGroup {
                plugin: plugin.to_string(),
                reason: reason.to_string(),
                nodes: Vec::new(),
            });
            groups.len() - 1
        }
    };
    if let Some(n) = node {
        groups[i].nodes.push(n.to_string());
    }
}

/// The candidate changes, from the rejections of the pod's last cycle.
///
/// `failed`: the cycle's error, if it ended with one (a plugin's Error status stops the cycle
/// before its verdicts are recorded).
fn candidates(
    text: &str,
    e: &Engine,
    key: &str,
    cycle: u32,
    rejected: &[(String, PluginName, Vec<String>)],
    failed: Option<&str>,
) -> Vec<Candidate> {
    let docs = crate::load::documents(text);
    let (ns, name) = key.split_once('/').unwrap_or(("default", key));
    let pod_doc = docs.iter().find(|d| same(d, "Pod", name, Some(ns))).cloned();
    let pod_edit = |merge: Value| Edit::Patch {
        kind: "Pod".into(),
        namespace: Some(ns.to_string()),
        name: name.to_string(),
        merge,
    };
    let node_edit = |node: &str, merge: Value| Edit::Patch {
        kind: "Node".into(),
        namespace: None,
        name: node.to_string(),
        merge,
    };
    let pod = &e.pods()[e.pod_by_key(key).expect("found")].info;
    let mut out = Vec::new();
    let mut copied = Vec::new();
    let by_cel: Vec<&str> = rejected.iter().filter(|r| r.1 == PluginName::Cel).map(|r| r.0.as_str()).collect();
    out.extend(super::cel::candidates(&docs, e, key, cycle, &by_cel, failed));
    for (node, plugin, reasons) in rejected {
        let cells = vec![cell(cycle, node, plugin.as_str(), "Filter")];
        let ni = e.snapshot().get(node);
        match plugin {
            PluginName::NodeResourcesFit => {
                let Some(ni) = ni else { continue };
                let (mut alloc, mut cap, mut said) = (json!({}), json!({}), Vec::new());
                let mut size = 0;
                for r in reasons {
                    let (res, need, q) = if r == "Too many pods" {
                        let need = ni.pods.len() as i64 + 1 - ni.allocatable.allowed_pod_number;
                        ("pods".to_string(), need, Quantity::from_value(need))
                    } else if let Some(res) = r.strip_prefix("Insufficient ") {
                        let (want, have, used) = match res {
                            "cpu" => (pod.resource.resource.milli_cpu, ni.allocatable.milli_cpu, ni.requested.milli_cpu),
                            "memory" => (pod.resource.resource.memory, ni.allocatable.memory, ni.requested.memory),
                            "ephemeral-storage" => (
                                pod.resource.resource.ephemeral_storage,
                                ni.allocatable.ephemeral_storage,
                                ni.requested.ephemeral_storage,
                            ),
                            s => (pod.resource.resource.scalar(s), ni.allocatable.scalar(s), ni.requested.scalar(s)),
                        };
                        let need = want - (have - used);
                        let q = if res == "cpu" {
                            Quantity::from_milli(need)
                        } else {
                            Quantity::from_value(need)
                        };
                        (res.to_string(), need, q)
                    } else {
                        continue;
                    };
                    if need <= 0 {
                        continue;
                    }
                    let a = ni.node.status.allocatable.get(&res).copied().unwrap_or_default().saturating_add(q);
                    alloc[&res] = json!(a.to_string());
                    if let Some(c) = ni.node.status.capacity.get(&res) {
                        cap[&res] = json!(c.saturating_add(q).max(a).to_string());
                    }
                    said.push(format!("{} more {res}", schedlab_view::view::format_amount(&res, need)));
                    let whole = ni.node.status.allocatable.get(&res).map(|x| x.milli_value()).unwrap_or(0).max(1);
                    size = size.max(q.milli_value().saturating_mul(1000) / whole);
                }
                if said.is_empty() {
                    continue;
                }
                let mut status = json!({ "allocatable": alloc });
                if cap.as_object().is_some_and(|m| !m.is_empty()) {
                    status["capacity"] = cap;
                }
                out.push(Candidate {
                    sentence: format!("Give {node} {} (the shortfall there)", said.join(" and ")),
                    edits: vec![node_edit(node, json!({ "status": status }))],
                    size: (2, size),
                    cells: cells.clone(),
                });
                // A victim's priority: above every pod on the node, so preemption may free it.
                if let Some(doc) = &pod_doc {
                    if !ni.pods.is_empty() && doc["spec"]["preemptionPolicy"] != json!("Never") {
                        let top = ni.pods.iter().map(|p| p.priority).max().unwrap_or(0);
                        let value = top.saturating_add(1).max(pod.priority.saturating_add(1));
                        let class = format!("{name}-above-{node}");
                        out.push(Candidate {
                            sentence: format!(
                                "Raise {key}'s priority to {value} (a new PriorityClass {class}), above every pod on {node}, so preemption can evict them"
                            ),
                            edits: vec![
                                Edit::Add {
                                    document: json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": class}, "value": value}),
                                },
                                pod_edit(json!({"spec": {"priorityClassName": class, "priority": null}})),
                            ],
                            size: (3, i64::from(value) - i64::from(pod.priority)),
                            cells: cells.clone(),
                        });
                    }
                }
            }
            PluginName::TaintToleration => {
                let (Some(ni), Some(doc)) = (ni, &pod_doc) else { continue };
                let mut tols = doc["spec"]["tolerations"].as_array().cloned().unwrap_or_default();
                let mut said = Vec::new();
                for t in ni.taints().iter().filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute") {
                    let mut tol = json!({"key": t.key, "operator": "Equal", "effect": t.effect});
                    match &t.value {
                        Some(v) if !v.is_empty() => tol["value"] = json!(v),
                        _ => tol["operator"] = json!("Exists"),
                    }
                    if !tols.contains(&tol) {
                        tols.push(tol);
                        said.push(format!("{}={}:{}", t.key, t.value.as_deref().unwrap_or(""), t.effect));
                    }
                }
                if said.is_empty() {
                    continue;
                }
                out.push(Candidate {
                    sentence: format!("Let {key} tolerate {} (the taint(s) of {node})", said.join(", ")),
                    size: (1, said.len() as i64),
                    edits: vec![pod_edit(json!({"spec": {"tolerations": tols}}))],
                    cells: cells.clone(),
                });
            }
            PluginName::NodeUnschedulable => out.push(Candidate {
                sentence: format!("Uncordon {node} (spec.unschedulable)"),
                edits: vec![node_edit(node, json!({"spec": {"unschedulable": null}}))],
                size: (1, 1),
                cells: cells.clone(),
            }),
            PluginName::NodeAffinity => {
                let Some(doc) = &pod_doc else { continue };
                if doc["spec"]["nodeSelector"].is_object() {
                    out.push(Candidate {
                        sentence: format!("Remove {key}'s nodeSelector"),
                        edits: vec![pod_edit(json!({"spec": {"nodeSelector": null}}))],
                        size: (1, 1),
                        cells: cells.clone(),
                    });
                }
                if !doc["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"].is_null() {
                    out.push(Candidate {
                        sentence: format!("Remove {key}'s required node affinity"),
                        edits: vec![pod_edit(
                            json!({"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": null}}}}),
                        )],
                        size: (1, 2),
                        cells: cells.clone(),
                    });
                }
            }
            PluginName::PodTopologySpread => {
                let Some(doc) = &pod_doc else { continue };
                let Some(list) = doc["spec"]["topologySpreadConstraints"].as_array() else {
                    continue;
                };
                for (i, c) in list.iter().enumerate() {
                    if c["whenUnsatisfiable"] != json!("DoNotSchedule") {
                        continue;
                    }
                    let skew = c["maxSkew"].as_i64().unwrap_or(1);
                    let topo = c["topologyKey"].as_str().unwrap_or("");
                    for k in 1..=MAX_SKEW_STEP {
                        let mut l = list.clone();
                        l[i]["maxSkew"] = json!(skew + k);
                        out.push(Candidate {
                            sentence: format!("Relax {key}'s topology spread over {topo} to maxSkew {}", skew + k),
                            edits: vec![pod_edit(json!({"spec": {"topologySpreadConstraints": l}}))],
                            size: (1, k),
                            cells: cells.clone(),
                        });
                    }
                    let mut l = list.clone();
                    l[i]["whenUnsatisfiable"] = json!("ScheduleAnyway");
                    // minDomains is only allowed with DoNotSchedule.
                    if let Some(o) = l[i].as_object_mut() {
                        o.remove("minDomains");
                    }
                    out.push(Candidate {
                        sentence: format!("Make {key}'s topology spread over {topo} ScheduleAnyway"),
                        edits: vec![pod_edit(json!({"spec": {"topologySpreadConstraints": l}}))],
                        size: (1, MAX_SKEW_STEP + 1),
                        cells: cells.clone(),
                    });
                    // A node like this one in a new domain of the constraint's key.
                    if let Some((mut d, new)) = node_copy(&docs, node, e) {
                        let old = d["metadata"]["labels"][topo].as_str().unwrap_or("").to_string();
                        let domain = if topo == "kubernetes.io/hostname" {
                            new.clone()
                        } else {
                            format!("{old}-new")
                        };
                        if !old.is_empty() || topo == "kubernetes.io/hostname" {
                            d["metadata"]["labels"][topo] = json!(domain);
                            out.push(Candidate {
                                sentence: format!("Add a node like {node} ({new}) in a new {topo} domain {domain}"),
                                edits: vec![Edit::Add { document: d }],
                                size: (4, 2),
                                cells: cells.clone(),
                            });
                        }
                    }
                }
            }
            _ => {}
        }
        // Any rejection: one more node like this one, empty, in the same domains.
        let zone = ni.and_then(|n| n.node.metadata.labels.get("topology.kubernetes.io/zone").cloned());
        let shape = (plugin.as_str(), zone);
        if !copied.contains(&shape) {
            copied.push(shape);
            if let Some(c) = node_copy(&docs, node, e) {
                out.push(Candidate {
                    sentence: format!("Add a node like {node} ({}), without its pods", c.1),
                    edits: vec![Edit::Add { document: c.0 }],
                    size: (4, 1),
                    cells: cells.clone(),
                });
            }
        }
    }
    out
}

/// A copy of node `node`'s document under a free name, and that name.
fn node_copy(docs: &[Value], node: &str, e: &Engine) -> Option<(Value, String)> {
    let mut d = docs.iter().find(|d| same(d, "Node", node, None))?.clone();
    let taken: BTreeMap<&str, ()> = crate::sort::map_of(e.trace().header.nodes.iter().map(|n| (n.as_str(), ())));
    let name = (2..).map(|i| format!("{node}-{i}")).find(|n| !taken.contains_key(n.as_str()))?;
    d["metadata"]["name"] = json!(name);
    if let Some(l) = d["metadata"]["labels"].as_object_mut() {
        if l.contains_key("kubernetes.io/hostname") {
            l.insert("kubernetes.io/hostname".into(), json!(name));
        }
    }
    if let Some(m) = d["metadata"].as_object_mut() {
        m.remove("uid");
    }
    Some((d, name))
}

/// The answer's sentences for a pending pod.
pub(super) fn sentences(key: &str, p: &WhyPending) -> Vec<String> {
    let mut s = Vec::new();
    if p.cycle == 0 {
        s.push(format!("{key} is pending: {}.", p.message));
        return s;
    }
    let groups: Vec<String> = p
        .reasons
        .iter()
        .map(|g| {
            if g.nodes.is_empty() {
                format!("{} ({})", g.reason, g.plugin)
            } else {
                format!("{} on {} node(s) ({}: {})", g.reason, g.nodes.len(), g.plugin, g.nodes.join(", "))
            }
        })
        .collect();
    s.push(format!(
        "{key} is pending after {} attempt(s); in its last cycle ({}) {}.",
        p.attempts,
        p.cycle,
        if groups.is_empty() && !p.message.is_empty() {
            format!("no node was rejected by a plugin; it ended with: {}", p.message)
        } else if groups.is_empty() {
            "no node was rejected by a plugin".to_string()
        } else {
            groups.join("; ")
        }
    ));
    s.extend(p.preemption.iter().cloned());
    match p.suggestions.first() {
        Some(x) => s.push(format!("Smallest fix: {}", x.sentence)),
        None => s.push(format!("None of the {} change(s) tried makes it schedule.", p.tried)),
    }
    s
}
