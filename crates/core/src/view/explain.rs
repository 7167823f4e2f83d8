//! Explanations of single cells of the filter matrix and the score table, in sentences with the
//! numbers filled in.
//!
//! The trace says *what* each plugin decided; the numbers behind it (what a node had free, which
//! taint was not tolerated, the per-resource shares a score came from) are taken from the
//! engine's own state just before the cycle, recovered by re-running the scenario to that point.
//! For plugins that keep per-cycle state (topology spread, inter-pod affinity, the volume
//! plugins), PreFilter and PreScore are replayed on that state and the plugins' own code reports
//! what it counted (`pub(crate)` views in the plugin modules), so the sentences use the very
//! numbers the verdict came from. Where a formula is shown, it is recomputed from those numbers
//! and shown only if it gives the very verdict or score the engine recorded; otherwise the
//! explanation stays with the recorded values.

use super::{Session, ROW_LIMIT};
use crate::api::{NodeSelectorTerm, Taint};
use crate::engine::{Engine, EngineOptions, StepOutcome};
use crate::framework::{Ctx, CycleState, NodeInfo, PodInfo, RESOURCE_CPU, RESOURCE_MEMORY};
use crate::labels::{Op, Selector};
use crate::plugins::helper::tolerations_tolerate_taint;
use crate::plugins::inter_pod_affinity::args::InterPodAffinityArgs;
use crate::plugins::inter_pod_affinity::ScoreSource;
use crate::plugins::node_affinity::args::NodeAffinityArgs;
use crate::plugins::node_resources_balanced_allocation::args::NodeResourcesBalancedAllocationArgs;
use crate::plugins::node_resources_fit::args::{NodeResourcesFitArgs, ScoringStrategyType};
use crate::plugins::resource_allocation::ResourceAllocationScorer;
use crate::plugins::{
    image_locality, inter_pod_affinity, node_resources_fit, node_volume_limits, pod_topology_spread, volume_binding, volume_restrictions,
    volume_zone,
};
use crate::trace::{Detail, PluginScoreRow, TraceEvent};
use crate::vocabulary::PluginName;
use schedlab_view::view::{format_amount, format_bytes, Explanation};
use std::collections::BTreeMap;

/// The engine just before cycle `c` begins (after cycle c-1 and everything it caused).
fn engine_before(s: &Session, c: u32) -> Engine {
    let mut e = Engine::new(
        s.scenario.clone(),
        EngineOptions {
            seed: s.seed,
            detail: Detail::None,
        },
    );
    while e.cycle + 1 < c {
        if e.step() == StepOutcome::Quiet {
            break;
        }
    }
    e
}

fn taint_str(t: &Taint) -> String {
    match t.value.as_deref() {
        Some(v) if !v.is_empty() => format!("{}={}:{}", t.key, v, t.effect),
        _ => format!("{}:{}", t.key, t.effect),
    }
}

pub(super) fn explain(s: &mut Session, cycle: u32, node: u32, plugin: &str, score: bool) -> Explanation {
    let Some(ci) = s.cycles.get((cycle as usize).wrapping_sub(1)) else {
        return Explanation {
            title: "No such cycle".into(),
            lines: vec![],
        };
    };
    let pod = ci.pod;
    let (events, _) = s.cycle_events(cycle, true);
    let node_name = s.model.nodes.get(node as usize).map(|n| n.name.clone()).unwrap_or_default();
    let pod_key = s.model.pods[pod as usize].key();
    if score {
        explain_score(s, &events, cycle, pod, node, &node_name, &pod_key, plugin)
    } else {
        explain_filter(s, &events, cycle, pod, node, &node_name, &pod_key, plugin)
    }
}

#[allow(clippy::too_many_arguments)]
fn explain_filter(
    s: &Session,
    events: &[TraceEvent],
    cycle: u32,
    pod: u32,
    node: u32,
    node_name: &str,
    pod_key: &str,
    plugin: &str,
) -> Explanation {
    let title = if plugin.is_empty() {
        format!("Filter · {node_name}")
    } else {
        format!("{plugin} · {node_name}")
    };
    let mut lines = Vec::new();
    let filter = events.iter().find_map(|e| match e {
        TraceEvent::Filter {
            verdicts,
            num_to_find,
            nominated_first,
            ..
        } => Some((verdicts, *num_to_find, *nominated_first)),
        _ => None,
    });
    let skipped: Vec<String> = events
        .iter()
        .find_map(|e| match e {
            TraceEvent::PreFilter { skipped, .. } => Some(skipped.iter().map(|p| p.as_str().to_string()).collect()),
            _ => None,
        })
        .unwrap_or_default();
    let Some((verdicts, num_to_find, nominated_first)) = filter else {
        lines.push("Filter did not run in this cycle (PreFilter rejected the pod for every node).".into());
        return Explanation { title, lines };
    };
    let Some(verdicts) = verdicts else {
        lines.push("Per-node verdicts were not recorded for this cycle.".into());
        return Explanation { title, lines };
    };
    let Some(v) = verdicts.iter().find(|v| v.node == node) else {
        lines.push(if nominated_first {
            format!("{node_name} was not evaluated: the pod's nominated node was tried first and passed every filter, so no other node was needed.")
        } else {
            format!(
                "{node_name} was not evaluated: the scheduler stops filtering once it has found {num_to_find} feasible node(s) (percentageOfNodesToScore), and it had them before reaching this node."
            )
        });
        return Explanation { title, lines };
    };
    let profile = &s.model.pods[pod as usize].profile;
    let filter_plugins: Vec<String> = s
        .model
        .profiles
        .iter()
        .find(|p| &p.name == profile)
        .and_then(|p| p.points.iter().find(|(n, _)| n == "Filter"))
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let failed_at = v
        .failed
        .as_ref()
        .and_then(|f| filter_plugins.iter().position(|p| p == f.plugin.as_str()));
    let here = filter_plugins.iter().position(|p| p == plugin);
    if !plugin.is_empty() && skipped.iter().any(|p| p == plugin) {
        lines.push(format!(
            "{plugin} was skipped for {pod_key}: its PreFilter found nothing to check for this pod, so it passes every node."
        ));
        return Explanation { title, lines };
    }
    if let (Some(f), Some(h)) = (failed_at, here) {
        if h > f {
            lines.push(format!(
                "{plugin} did not run on {node_name}: {} had already rejected the node, and Filter stops at the first plugin that rejects.",
                filter_plugins[f]
            ));
            return Explanation { title, lines };
        }
    }
    let e = engine_before(s, cycle);
    let pi = e.pods[pod as usize].info.clone();
    let Some(ni) = e.snapshot.nodes().get(node as usize) else {
        return Explanation { title, lines };
    };
    let rejected_here = match (&v.failed, plugin) {
        (Some(f), "") => Some(f),
        (Some(f), p) if f.plugin.as_str() == p => Some(f),
        _ => None,
    };
    let subject = if plugin.is_empty() {
        v.failed.as_ref().map(|f| f.plugin.as_str().to_string()).unwrap_or_default()
    } else {
        plugin.to_string()
    };
    match rejected_here {
        Some(f) => {
            lines.push(format!(
                "{} rejected {node_name} ({}): {}.",
                f.plugin.as_str(),
                f.code.as_str(),
                f.reasons.join("; ")
            ));
        }
        None if plugin.is_empty() => lines.push(format!("{node_name} passed every filter plugin: it is feasible for {pod_key}.")),
        None => lines.push(format!("{plugin} passed {node_name}.")),
    }
    lines.extend(filter_detail(&e, &subject, &pi, ni, rejected_here.is_none()));
    Explanation { title, lines }
}

/// Numbers behind a filter plugin's verdict on one node (`passed`: the recorded verdict).
fn filter_detail(e: &Engine, plugin: &str, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    match plugin {
        "NodeResourcesFit" => {
            let r = &pod.resource.resource;
            // Higher-or-equal priority pods nominated to the node count as if running there.
            let nominated: Vec<&std::sync::Arc<PodInfo>> = e
                .nominator
                .pods_for_node(name)
                .iter()
                .filter(|p| p.key != pod.key && p.priority >= pod.priority)
                .collect();
            let mut rows: Vec<(String, i64, i64, i64, i64)> = Vec::new();
            let nom = |f: &dyn Fn(&PodInfo) -> i64| nominated.iter().map(|p| f(p)).sum::<i64>();
            rows.push((
                RESOURCE_CPU.into(),
                r.milli_cpu,
                ni.allocatable.milli_cpu,
                ni.requested.milli_cpu,
                nom(&|p| p.resource.resource.milli_cpu),
            ));
            rows.push((
                RESOURCE_MEMORY.into(),
                r.memory,
                ni.allocatable.memory,
                ni.requested.memory,
                nom(&|p| p.resource.resource.memory),
            ));
            if r.ephemeral_storage > 0 {
                rows.push((
                    "ephemeral-storage".into(),
                    r.ephemeral_storage,
                    ni.allocatable.ephemeral_storage,
                    ni.requested.ephemeral_storage,
                    nom(&|p| p.resource.resource.ephemeral_storage),
                ));
            }
            for (n, v) in &r.scalar {
                if *v > 0 {
                    let n2 = n.clone();
                    rows.push((
                        n.clone(),
                        *v,
                        ni.allocatable.scalar(n),
                        ni.requested.scalar(n),
                        nom(&move |p: &PodInfo| p.resource.resource.scalar(&n2)),
                    ));
                }
            }
            let pods_now = ni.pods.len() as i64 + nominated.len() as i64;
            out.push(format!(
                "Pods: {} of {} allowed already on the node{}; this pod would be number {}.",
                ni.pods.len(),
                ni.allocatable.allowed_pod_number,
                if nominated.is_empty() {
                    String::new()
                } else {
                    format!(" (+{} nominated)", nominated.len())
                },
                pods_now + 1
            ));
            for (res, want, alloc, used, nom_used) in rows {
                if want == 0 && res != RESOURCE_CPU && res != RESOURCE_MEMORY {
                    continue;
                }
                let free = alloc - used - nom_used;
                let verdict = if want <= free { "fits" } else { "does not fit" };
                let nom_txt = if nom_used > 0 {
                    format!(" + {} for nominated pods", format_amount(&res, nom_used))
                } else {
                    String::new()
                };
                out.push(format!(
                    "{res}: the pod requests {}; the node has {} allocatable, {} already requested{nom_txt}, so {} free — it {verdict}.",
                    format_amount(&res, want),
                    format_amount(&res, alloc),
                    format_amount(&res, used),
                    format_amount(&res, free),
                ));
            }
        }
        "TaintToleration" => {
            let taints: Vec<&Taint> = ni
                .node
                .spec
                .taints
                .iter()
                .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
                .collect();
            if taints.is_empty() {
                out.push(format!("{name} has no NoSchedule/NoExecute taints."));
            }
            for t in taints {
                let ok = tolerations_tolerate_taint(&pod.pod.spec.tolerations, t);
                out.push(format!(
                    "Taint {}: {}.",
                    taint_str(t),
                    if ok { "tolerated by the pod" } else { "not tolerated by the pod" }
                ));
            }
        }
        "NodeUnschedulable" => {
            let cordoned = ni.node.spec.unschedulable.unwrap_or(false);
            out.push(if cordoned {
                format!("{name} is cordoned (spec.unschedulable: true); only pods tolerating node.kubernetes.io/unschedulable:NoSchedule may go there.")
            } else {
                format!("{name} is not cordoned.")
            });
        }
        "NodeName" => match pod.pod.spec.node_name.as_deref() {
            Some(n) if !n.is_empty() => out.push(format!("The pod asks for node {n} (spec.nodeName).")),
            _ => out.push("The pod does not ask for a particular node (no spec.nodeName).".into()),
        },
        "NodeAffinity" => {
            if !pod.pod.spec.node_selector.is_empty() {
                let sel: Vec<String> = pod.pod.spec.node_selector.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let has: Vec<String> = pod
                    .pod
                    .spec
                    .node_selector
                    .keys()
                    .map(|k| match ni.labels().get(k) {
                        Some(v) => format!("{k}={v}"),
                        None => format!("no {k} label"),
                    })
                    .collect();
                out.push(format!("nodeSelector wants {}; {name} has {}.", sel.join(", "), has.join(", ")));
            }
            let required = pod
                .pod
                .spec
                .affinity
                .as_ref()
                .and_then(|a| a.node_affinity.as_ref())
                .and_then(|na| na.required_during_scheduling_ignored_during_execution.as_ref());
            let term_lines = |who: &str, terms: &[NodeSelectorTerm], out: &mut Vec<String>| {
                let ok = |t: &NodeSelectorTerm| crate::labels::CompiledNodeSelectorTerm::compile(t).matches(name, ni.labels());
                let verdict = |t: &NodeSelectorTerm| if ok(t) { "matches" } else { "does not match" };
                if let [t] = terms {
                    let has = if ok(t) {
                        String::new()
                    } else {
                        format!(" (it has {})", term_keys_str(ni, terms))
                    };
                    out.push(format!("{who}: {} — {name} {}{has}.", node_term_str(t), verdict(t)));
                    return;
                }
                out.push(format!("{who} has {} terms; any one must match.", terms.len()));
                for (i, t) in terms.iter().enumerate() {
                    out.push(format!("Term {}: {} — {name} {}.", i + 1, node_term_str(t), verdict(t)));
                }
                if !terms.iter().any(ok) {
                    out.push(format!("{name} has {}.", term_keys_str(ni, terms)));
                }
            };
            if let Some(r) = required {
                term_lines("The pod's required node affinity", &r.node_selector_terms, &mut out);
            }
            let added = e
                .frameworks
                .get(pod.scheduler_name())
                .and_then(|fw| fw.profile.args.get::<NodeAffinityArgs>()?.added_affinity.as_ref())
                .and_then(|a| a.required_during_scheduling_ignored_during_execution.as_ref());
            if let Some(r) = added {
                term_lines(
                    "The scheduler profile also requires (addedAffinity)",
                    &r.node_selector_terms,
                    &mut out,
                );
            }
        }
        "NodePorts" => {
            let ports: Vec<String> = pod.host_ports.iter().map(port_str).collect();
            out.push(format!("The pod wants host port(s) {}.", ports.join(", ")));
            // The node as Filter saw it (with nominated pods when they decided).
            let (_, node, nominated) = replay_filter(e, pod, ni, PluginName::NodePorts);
            out.extend(nominated_note(name, nominated));
            for hp in pod.host_ports.iter().filter(|hp| node.used_ports.check_conflict(hp)) {
                let holders: Vec<String> = node
                    .pods
                    .iter()
                    .filter(|p| {
                        let mut theirs = crate::framework::HostPortInfo::default();
                        p.host_ports.iter().for_each(|h| theirs.add(h));
                        theirs.check_conflict(hp)
                    })
                    .map(|p| p.key.clone())
                    .collect();
                out.push(format!(
                    "{} is already taken on {name}{} — rejected.",
                    port_str(hp),
                    if holders.is_empty() {
                        String::new()
                    } else {
                        format!(" by {}", list_limited(&holders))
                    }
                ));
            }
            let used: Vec<String> = ni
                .pods
                .iter()
                .flat_map(|p| p.host_ports.iter().map(move |hp| format!("{} ({})", port_str(hp), p.name())))
                .collect();
            out.push(if used.is_empty() {
                format!("No pod on {name} uses a host port.")
            } else {
                format!("In use on {name}: {}.", used.join(", "))
            });
        }
        "PodTopologySpread" => out.extend(spread_filter_lines(e, pod, ni, passed)),
        "InterPodAffinity" => out.extend(affinity_filter_lines(e, pod, ni, passed)),
        "VolumeZone" => out.extend(volume_zone_lines(e, pod, ni, passed)),
        "VolumeBinding" => out.extend(volume_binding_lines(e, pod, ni, passed)),
        "VolumeRestrictions" => out.extend(volume_restrictions_lines(e, pod, ni, passed)),
        "NodeVolumeLimits" => out.extend(volume_limits_lines(e, pod, ni, passed)),
        "DynamicResources" => out.extend(dra_filter_lines(e, pod, ni, passed)),
        _ => {}
    }
    out
}

/// DynamicResources on one node: each claim (allocated where, reserved for whom, usable here or
/// not) and what the allocator finds for the claims still to allocate, recomputed with the
/// plugin's own allocator on the cluster as it was before the cycle.
fn dra_filter_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    if pod.pod.spec.resource_claims.is_empty() {
        out.push("The pod uses no resource claims (dynamic resource allocation), so there is nothing to check.".into());
        return out;
    }
    let pl = crate::plugins::dynamic_resources::DynamicResources::new(&Default::default());
    let view = match pl.filter_view(&ctx(e), pod, ni) {
        Ok(v) => v,
        Err(why) => {
            out.push(format!("A claim of the pod is not usable: {why}."));
            return out;
        }
    };
    let name = ni.name();
    for c in &view.claims {
        let who = if c.reserved_for.is_empty() {
            "reserved for no pod".to_string()
        } else {
            format!("reserved for {}", c.reserved_for.join(", "))
        };
        match &c.allocated {
            Some(devs) => {
                let devs: Vec<String> = devs.iter().map(ToString::to_string).collect();
                out.push(format!(
                    "Claim {} is already allocated ({}), {who}; its allocation {} usable on {name}.",
                    c.key,
                    devs.join(", "),
                    if c.available_here { "is" } else { "is not" }
                ));
            }
            None => out.push(format!(
                "Claim {} is not allocated yet: the allocator looks for devices on {name}.",
                c.key
            )),
        }
    }
    match &view.allocation {
        None => {}
        Some(Err(why)) => out.push(format!("The allocator cannot evaluate the claims: {why}.")),
        Some(Ok(None)) => out.push(format!(
            "No set of free devices usable from {name} satisfies every request, selector and constraint of the claims to allocate (devices allocated to other claims are busy)."
        )),
        Some(Ok(Some(found))) => {
            for (k, devs) in found {
                let devs: Vec<String> = devs.iter().map(ToString::to_string).collect();
                out.push(format!(
                    "{} {k} would get {} (the first free devices that fit, in slice order).",
                    if passed { "Claim" } else { "On its own, claim" },
                    devs.join(", ")
                ));
            }
        }
    }
    out
}

/// A host port: "8080/TCP", with its host IP when it is not the wildcard.
fn port_str(hp: &crate::framework::HostPort) -> String {
    if hp.ip.is_empty() || hp.ip == "0.0.0.0" {
        format!("{}/{}", hp.port, hp.protocol)
    } else {
        format!("{}/{} on {}", hp.port, hp.protocol, hp.ip)
    }
}

/// The node's values for the keys the terms look at ("no <key>" when it lacks one).
fn term_keys_str(ni: &NodeInfo, terms: &[NodeSelectorTerm]) -> String {
    let mut keys: Vec<&str> = terms
        .iter()
        .flat_map(|t| t.match_expressions.iter().map(|r| r.key.as_str()))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.iter()
        .map(|k| match ni.labels().get(*k) {
            Some(v) => format!("{k}={v}"),
            None => format!("no {k}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[allow(clippy::too_many_arguments)]
fn explain_score(
    s: &Session,
    events: &[TraceEvent],
    cycle: u32,
    pod: u32,
    node: u32,
    node_name: &str,
    pod_key: &str,
    plugin: &str,
) -> Explanation {
    let title = if plugin.is_empty() {
        format!("Score · {node_name}")
    } else {
        format!("{plugin} · {node_name}")
    };
    let mut lines = Vec::new();
    let score = events.iter().find_map(|e| match e {
        TraceEvent::Score { table, selected, tied, .. } => Some((table, *selected, tied.clone())),
        _ => None,
    });
    let Some((Some(t), selected, tied)) = score else {
        lines.push("No score table for this cycle (a single feasible node is chosen without scoring).".into());
        return Explanation { title, lines };
    };
    let Some(k) = t.nodes.iter().position(|&n| n == node) else {
        lines.push(format!(
            "{node_name} was not scored: it did not pass Filter (or was not evaluated)."
        ));
        return Explanation { title, lines };
    };
    let sel_name = s.model.nodes.get(selected as usize).map(|n| n.name.as_str()).unwrap_or("");
    if plugin.is_empty() {
        let parts: Vec<String> = t
            .plugins
            .iter()
            .map(|p| format!("{} {}×{}", p.plugin.as_str(), p.normalized[k], p.weight))
            .collect();
        lines.push(format!("Total for {node_name}: {} = {}.", parts.join(" + "), t.totals[k]));
        let max = t.totals.iter().copied().max().unwrap_or(0);
        if tied.len() > 1 && tied.contains(&node) {
            let names: Vec<&str> = tied
                .iter()
                .filter_map(|&n| s.model.nodes.get(n as usize).map(|m| m.name.as_str()))
                .collect();
            lines.push(format!(
                "{} nodes share the top total {max} ({}); the scheduler picks one of them at random: {sel_name}.",
                tied.len(),
                names.join(", ")
            ));
        } else if node == selected {
            lines.push(format!("{node_name} has the highest total: the pod goes here."));
        } else {
            lines.push(format!(
                "The best total is {max} on {sel_name}; {node_name} is {} behind.",
                max - t.totals[k]
            ));
        }
        return Explanation { title, lines };
    }
    let Some(row) = t.plugins.iter().find(|p| p.plugin.as_str() == plugin) else {
        lines.push(format!("{plugin} did not score this pod (skipped at PreScore or not enabled)."));
        return Explanation { title, lines };
    };
    let (raw, norm, w) = (row.raw[k], row.normalized[k], row.weight);
    lines.push(format!(
        "{plugin} gave {node_name} a raw score of {raw}; after NormalizeScore {norm}; × weight {w} = {}.",
        norm * w
    ));
    let _ = pod_key;
    let mut normalization = None;
    if t.plugins.len() <= ROW_LIMIT {
        let e = engine_before(s, cycle);
        let pi = e.pods[pod as usize].info.clone();
        if let Some(ni) = e.snapshot.nodes().get(node as usize) {
            let names: Vec<String> = t
                .nodes
                .iter()
                .map(|&n| e.snapshot.nodes().get(n as usize).map(|x| x.name().to_string()).unwrap_or_default())
                .collect();
            let scored = ScoredNodes { names: &names, row, k };
            let (detail, norm_line) = score_detail(&e, plugin, &pi, ni, &t.nodes, &scored);
            lines.extend(detail);
            normalization = norm_line;
        }
    }
    lines.push(normalization.unwrap_or_else(|| generic_normalization(row, k)));
    lines.retain(|l| !l.is_empty());
    Explanation { title, lines }
}

/// The recorded scores of one plugin, with the scored nodes' names; `k` is the explained node.
struct ScoredNodes<'a> {
    names: &'a [String],
    row: &'a PluginScoreRow,
    k: usize,
}

/// The normalization that reproduces the recorded values on every scored node, when it is one
/// of the common shapes (empty otherwise).
fn generic_normalization(row: &PluginScoreRow, k: usize) -> String {
    let (raw, norm) = (row.raw[k], row.normalized[k]);
    let max_raw = row.raw.iter().copied().max().unwrap_or(0);
    let check = |f: &dyn Fn(i64) -> i64| row.raw.iter().zip(&row.normalized).all(|(&r, &n)| f(r) == n);
    if row.raw == row.normalized {
        "NormalizeScore leaves this plugin's scores as they are (already 0–100).".into()
    } else if max_raw > 0 && check(&|r| 100 * r / max_raw) {
        format!("NormalizeScore scales by the highest raw score ({max_raw}): 100 × {raw} / {max_raw} = {norm}.")
    } else if max_raw > 0 && check(&|r| 100 - 100 * r / max_raw) {
        format!(
            "NormalizeScore reverses (fewer is better), scaled by the highest raw score ({max_raw}): 100 − 100 × {raw} / {max_raw} = {norm}."
        )
    } else if max_raw == 0 && row.normalized.iter().all(|&n| n == 100) {
        "Every node scored 0 raw, so the reversed normalization gives all of them 100.".into()
    } else {
        String::new()
    }
}

/// Numbers behind a score plugin's raw score on one node, and for some plugins the sentence
/// on normalization; formulas are shown only when they reproduce the recorded scores.
/// `scored` are the snapshot positions of the nodes scored in the cycle.
fn score_detail(
    e: &Engine,
    plugin: &str,
    pod: &PodInfo,
    ni: &NodeInfo,
    scored: &[u32],
    rec: &ScoredNodes,
) -> (Vec<String>, Option<String>) {
    let raw = rec.row.raw[rec.k];
    let mut out = Vec::new();
    let Some(fw) = e.frameworks.get(pod.scheduler_name()) else {
        return (out, None);
    };
    let args = &fw.profile.args;
    match plugin {
        "NodeResourcesFit" | "NodeResourcesBalancedAllocation" => {
            let fit = plugin == "NodeResourcesFit";
            let (specs, kind) = if fit {
                (
                    args.get_or_default::<NodeResourcesFitArgs>().scoring_strategy.resources.clone(),
                    Some(args.get_or_default::<NodeResourcesFitArgs>().scoring_strategy.kind),
                )
            } else {
                (args.get_or_default::<NodeResourcesBalancedAllocationArgs>().resources.clone(), None)
            };
            let scorer = ResourceAllocationScorer::new(&specs, !fit, !fit);
            let reqs = scorer.pod_request_list(pod);
            let mut pairs: (Vec<i64>, Vec<i64>) = (vec![], vec![]);
            let _ = scorer.score(ni, &reqs, |r, a| {
                pairs = (r.to_vec(), a.to_vec());
                0
            });
            let (requested, allocatable) = pairs;
            let mut shares = Vec::new();
            for (i, sr) in scorer.resources.iter().enumerate() {
                if allocatable.get(i).copied().unwrap_or(0) == 0 {
                    continue;
                }
                shares.push(format!(
                    "{}: {} of {} requested with the pod ({}%)",
                    sr.name,
                    format_amount(&sr.name, requested[i]),
                    format_amount(&sr.name, allocatable[i]),
                    requested[i] * 100 / allocatable[i].max(1)
                ));
            }
            let missing = pod.pod.spec.containers.iter().any(|c| {
                let r = &c.resources.requests;
                !r.contains_key(RESOURCE_CPU) || !r.contains_key(RESOURCE_MEMORY)
            });
            if fit && missing {
                out.push("(Containers without a cpu/memory request count as 100m / 200Mi here, as the scheduler's scoring does.)".into());
            }
            out.push(format!("On {}: {}.", ni.name(), shares.join("; ")));
            match kind {
                Some(ScoringStrategyType::LeastAllocated) | Some(ScoringStrategyType::MostAllocated) => {
                    let least = kind == Some(ScoringStrategyType::LeastAllocated);
                    let mut terms = Vec::new();
                    let (mut sum, mut wsum) = (0i64, 0i64);
                    for (i, sr) in scorer.resources.iter().enumerate() {
                        let (r, a) = (requested[i], allocatable[i]);
                        if a == 0 {
                            continue;
                        }
                        let s = if least {
                            if r > a {
                                0
                            } else {
                                (a - r) * 100 / a
                            }
                        } else {
                            r.min(a) * 100 / a
                        };
                        terms.push(format!("{} {s}×{}", sr.name, sr.weight));
                        sum += s * sr.weight;
                        wsum += sr.weight;
                    }
                    if wsum > 0 && sum / wsum == raw {
                        out.push(format!(
                            "{}: each resource scores {} share × 100, averaged by weight: ({}) / {wsum} = {raw}.",
                            if least { "LeastAllocated" } else { "MostAllocated" },
                            if least { "its free" } else { "its used" },
                            terms.join(" + ")
                        ));
                    }
                }
                Some(ScoringStrategyType::RequestedToCapacityRatio) => {
                    let fit_args = args.get_or_default::<NodeResourcesFitArgs>();
                    let points = node_resources_fit::shape_points(&fit_args, &requested, &allocatable).unwrap_or_default();
                    let (mut mapped, mut terms) = (Vec::new(), Vec::new());
                    let (mut sum, mut wsum) = (0i64, 0i64);
                    for (sr, p) in scorer.resources.iter().zip(&points) {
                        let Some((used, score)) = *p else { continue };
                        mapped.push(format!("{} {used}% → {score}", sr.name));
                        if score > 0 {
                            terms.push(format!("{score}×{}", sr.weight));
                            sum += score * sr.weight;
                            wsum += sr.weight;
                        }
                    }
                    let mean = if wsum == 0 { 0.0 } else { sum as f64 / wsum as f64 };
                    if !mapped.is_empty() && mean.round() as i64 == raw {
                        out.push(format!(
                            "RequestedToCapacityRatio maps each resource's use through the configured shape: {}.",
                            mapped.join(", ")
                        ));
                        out.push(if wsum == 0 {
                            "Every resource scores 0, so the node scores 0.".into()
                        } else {
                            format!(
                                "Weighted mean of the non-zero scores: ({}) / {wsum} = {} → {raw}.",
                                terms.join(" + "),
                                dec(mean)
                            )
                        });
                    }
                }
                None => {
                    let fr: Vec<f64> = (0..scorer.resources.len())
                        .filter(|&i| allocatable[i] > 0)
                        .map(|i| (requested[i] as f64 / allocatable[i] as f64).min(1.0))
                        .collect();
                    let std = match fr.len() {
                        0 | 1 => 0.0,
                        2 => ((fr[0] - fr[1]) / 2.0).abs(),
                        n => {
                            let mean = fr.iter().sum::<f64>() / n as f64;
                            (fr.iter().map(|f| (f - mean) * (f - mean)).sum::<f64>() / n as f64).sqrt()
                        }
                    };
                    if ((1.0 - std) * 100.0) as i64 == raw {
                        let fs: Vec<String> = fr.iter().map(|f| format!("{f:.3}")).collect();
                        out.push(format!(
                            "BalancedAllocation rewards even use: the shares are {}; their standard deviation is {std:.3}, so (1 − {std:.3}) × 100 = {raw}.",
                            fs.join(", ")
                        ));
                    }
                }
            }
        }
        "TaintToleration" => {
            let prefer: Vec<&Taint> = ni.node.spec.taints.iter().filter(|t| t.effect == "PreferNoSchedule").collect();
            let bad: Vec<String> = prefer
                .iter()
                .filter(|t| !tolerations_tolerate_taint(&pod.pod.spec.tolerations, t))
                .map(|t| taint_str(t))
                .collect();
            if bad.len() as i64 == raw {
                out.push(if bad.is_empty() {
                    format!(
                        "{} has no PreferNoSchedule taint the pod does not tolerate (raw 0 is best).",
                        ni.name()
                    )
                } else {
                    format!(
                        "Raw = the number of PreferNoSchedule taints the pod does not tolerate: {} ({}).",
                        bad.len(),
                        bad.join(", ")
                    )
                });
            }
        }
        "NodeAffinity" => {
            if let Some(na) = pod.pod.spec.affinity.as_ref().and_then(|a| a.node_affinity.as_ref()) {
                let terms = &na.preferred_during_scheduling_ignored_during_execution;
                if !terms.is_empty() {
                    let mut parts = Vec::new();
                    for t in terms {
                        let one = crate::plugins::node_affinity::PreferredTerms::compile(std::slice::from_ref(t))
                            .map(|c| c.score(&ni.node))
                            .unwrap_or(0);
                        parts.push(format!(
                            "weight {} {}",
                            t.weight,
                            if one > 0 { "matches" } else { "does not match" }
                        ));
                    }
                    out.push(format!(
                        "Raw = the sum of the weights of the preferred terms {} matches: {} → {raw}.",
                        ni.name(),
                        parts.join(", ")
                    ));
                }
            }
        }
        "ImageLocality" => out.extend(image_locality_lines(e, pod, ni, raw)),
        "PodTopologySpread" => return spread_score_lines(e, pod, ni, scored, rec),
        "InterPodAffinity" => return affinity_score_lines(e, pod, ni, rec),
        _ => {}
    }
    (out, None)
}

/// Said instead of numbers when replaying the cycle does not give the recorded result.
const NOT_REPRODUCED: &str = "(Replaying the cycle did not reproduce this result, so no further numbers are shown.)";

/// How many names a sentence lists before saying "and N more".
const LIST_LIMIT: usize = 6;

fn ctx(e: &Engine) -> Ctx<'_> {
    Ctx {
        snapshot: &e.snapshot,
        cluster: &e.cluster,
        nominator: &e.nominator,
    }
}

/// The cycle state after PreFilter, replayed on the engine as it was before the cycle.
fn replay_pre_filter(e: &Engine, pod: &PodInfo) -> CycleState {
    let mut state = CycleState::new();
    if let Some(fw) = e.frameworks.get(pod.scheduler_name()) {
        let _ = fw.run_pre_filter(&ctx(e), &mut state, pod);
    }
    state
}

/// The cycle state after PreScore on the scored nodes (snapshot positions).
fn replay_pre_score(e: &Engine, pod: &PodInfo, scored: &[u32]) -> CycleState {
    let mut state = replay_pre_filter(e, pod);
    if let Some(fw) = e.frameworks.get(pod.scheduler_name()) {
        let nodes: Vec<&NodeInfo> = scored.iter().filter_map(|&n| e.snapshot.nodes().get(n as usize)).collect();
        let _ = fw.run_pre_score(&ctx(e), &mut state, pod, &nodes);
    }
    state
}

/// What `plugin`'s Filter saw on `ni`. Filter runs first with the node's nominated pods of
/// equal or higher priority counted in and, when that passes, again without them; this returns
/// the state and node of the pass that decided, and how many nominated pods it counted.
fn replay_filter(e: &Engine, pod: &PodInfo, ni: &NodeInfo, plugin: PluginName) -> (CycleState, NodeInfo, usize) {
    let state = replay_pre_filter(e, pod);
    let cx = ctx(e);
    let nominated: Vec<_> = e
        .nominator
        .pods_for_node(ni.name())
        .iter()
        .filter(|p| p.priority >= pod.priority && p.uid != pod.uid)
        .cloned()
        .collect();
    let fw = e.frameworks.get(pod.scheduler_name());
    let pl = fw.and_then(|fw| fw.instances().find(|(n, _)| *n == plugin).map(|(_, p)| p));
    if let (Some(fw), Some(pl), false) = (fw, pl, nominated.is_empty()) {
        let mut node_with = ni.clone();
        let mut state_with = state.clone();
        for p in &nominated {
            node_with.add_pod(p.clone());
            let _ = fw.run_pre_filter_extension_add_pod(&cx, &mut state_with, pod, p, &node_with);
        }
        if !pl.filter(&cx, &state_with, pod, &node_with).is_success() {
            return (state_with, node_with, nominated.len());
        }
    }
    (state, ni.clone(), 0)
}

fn nominated_note(name: &str, n: usize) -> Option<String> {
    (n > 0).then(|| format!("These numbers count {n} pod(s) nominated to {name} by an earlier preemption, as the scheduler does."))
}

/// A label selector the way kubectl prints one.
fn selector_str(sel: &Selector) -> String {
    match sel {
        Selector::Nothing => "nothing (no selector)".into(),
        Selector::Reqs(r) if r.is_empty() => "every pod".into(),
        Selector::Reqs(reqs) => reqs
            .iter()
            .map(|r| match (r.op, r.values.len()) {
                (Op::In, 1) => format!("{}={}", r.key, r.values[0]),
                (Op::NotIn, 1) => format!("{}!={}", r.key, r.values[0]),
                (Op::In, _) => format!("{} in ({})", r.key, r.values.join(", ")),
                (Op::NotIn, _) => format!("{} notin ({})", r.key, r.values.join(", ")),
                (Op::Exists, _) => r.key.clone(),
                (Op::DoesNotExist, _) => format!("!{}", r.key),
                (Op::Gt, _) => format!("{} > {}", r.key, r.values.first().map_or("", String::as_str)),
                (Op::Lt, _) => format!("{} < {}", r.key, r.values.first().map_or("", String::as_str)),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A node selector term, requirements joined by "and".
fn node_term_str(t: &NodeSelectorTerm) -> String {
    let reqs: Vec<String> = t
        .match_expressions
        .iter()
        .chain(&t.match_fields)
        .map(|r| match r.operator.as_str() {
            "In" if r.values.len() == 1 => format!("{}={}", r.key, r.values[0]),
            "In" => format!("{} in ({})", r.key, r.values.join(", ")),
            "NotIn" => format!("{} notin ({})", r.key, r.values.join(", ")),
            "Exists" => format!("{} exists", r.key),
            "DoesNotExist" => format!("no {}", r.key),
            "Gt" => format!("{} > {}", r.key, r.values.join(", ")),
            "Lt" => format!("{} < {}", r.key, r.values.join(", ")),
            op => format!("{} {op} ({})", r.key, r.values.join(", ")),
        })
        .collect();
    if reqs.is_empty() {
        "(empty term)".into()
    } else {
        reqs.join(" and ")
    }
}

/// The word for one domain of a topology key ("zone", "node", …; the key itself otherwise).
fn domain_word(key: &str) -> &str {
    match key {
        pod_topology_spread::LABEL_HOSTNAME => "node",
        "topology.kubernetes.io/zone" | "failure-domain.beta.kubernetes.io/zone" => "zone",
        "topology.kubernetes.io/region" | "failure-domain.beta.kubernetes.io/region" => "region",
        k => k,
    }
}

/// "on the same node" / "in the same zone".
fn same_domain(key: &str) -> String {
    if key == pod_topology_spread::LABEL_HOSTNAME {
        "on the same node".into()
    } else {
        format!("in the same {}", domain_word(key))
    }
}

/// "on node-a" / "in zone zone-a".
fn at_domain(key: &str, value: &str) -> String {
    if key == pod_topology_spread::LABEL_HOSTNAME {
        format!("on {value}")
    } else {
        format!("in {} {value}", domain_word(key))
    }
}

/// The subject of a sentence about a node's domain: "node-a" itself for the hostname key,
/// "node-a is in zone zone-a, which" otherwise.
fn domain_subject(name: &str, key: &str, value: &str) -> String {
    if key == pod_topology_spread::LABEL_HOSTNAME {
        name.to_string()
    } else {
        format!("{name} is in {} {value}, which", domain_word(key))
    }
}

/// "1 matching pod" / "2 matching pods".
fn matching(n: i64) -> String {
    format!("{n} matching {}", pods_word(n))
}

/// At most LIST_LIMIT items, then "and N more".
fn list_limited(items: &[String]) -> String {
    if items.len() <= LIST_LIMIT {
        return items.join(", ");
    }
    format!("{} and {} more", items[..LIST_LIMIT].join(", "), items.len() - LIST_LIMIT)
}

/// Bytes in mebibytes, up to two decimals (image sizes and their thresholds).
fn mebibytes(v: i64) -> String {
    let s = format!("{:.2}", v as f64 / (1 << 20) as f64);
    format!("{}Mi", s.trim_end_matches('0').trim_end_matches('.'))
}

/// A decimal with up to three places.
fn dec(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// An integer as a term after "−": negative numbers in parentheses.
fn paren(v: i64) -> String {
    if v < 0 {
        format!("(−{})", -v)
    } else {
        v.to_string()
    }
}

fn signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", -v)
    } else {
        format!("+{v}")
    }
}

fn pods_word(n: i64) -> &'static str {
    if n == 1 {
        "pod"
    } else {
        "pods"
    }
}

/// Per-domain counts, the node's own domain marked; long lists keep the node's domain and the
/// lowest ones.
fn domains_str(domains: &[(String, i64)], own: Option<&str>) -> String {
    let show = |d: &(String, i64)| {
        if Some(d.0.as_str()) == own {
            format!("{} {} (this node)", d.0, d.1)
        } else {
            format!("{} {}", d.0, d.1)
        }
    };
    if domains.len() <= LIST_LIMIT * 2 {
        return domains.iter().map(show).collect::<Vec<_>>().join(", ");
    }
    let mut by_count: Vec<&(String, i64)> = domains.iter().collect();
    by_count.sort_by_key(|d| d.1);
    let mut picked: Vec<&(String, i64)> = by_count.into_iter().take(3).collect();
    if let Some(o) = domains.iter().find(|d| Some(d.0.as_str()) == own) {
        if !picked.contains(&o) {
            picked.push(o);
        }
    }
    format!(
        "{} … ({} in all)",
        picked.into_iter().map(show).collect::<Vec<_>>().join(", "),
        domains.len()
    )
}

fn spread_filter_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    let (state, node, nominated) = replay_filter(e, pod, ni, PluginName::PodTopologySpread);
    let Some(cs) = pod_topology_spread::explain_filter(&ctx(e), &state, pod, &node) else {
        return out;
    };
    if cs.iter().all(|c| c.fits) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    out.extend(nominated_note(name, nominated));
    let many = cs.len() > 1;
    for (i, c) in cs.iter().enumerate() {
        let word = domain_word(&c.topology_key);
        let min_domains = if c.min_domains > 1 {
            format!(", minDomains {}", c.min_domains)
        } else {
            String::new()
        };
        out.push(format!(
            "{}Spread pods matching {} across {} (maxSkew {}{min_domains}, DoNotSchedule).",
            if many { format!("Constraint {}: ", i + 1) } else { String::new() },
            selector_str(&c.selector),
            c.topology_key,
            c.max_skew,
        ));
        let Some(value) = &c.node_value else {
            out.push(format!(
                "{name} has no {} label, so it belongs to no {word}: rejected.",
                c.topology_key
            ));
            break;
        };
        out.push(format!(
            "Matching pods per {word}: {}.",
            domains_str(&c.domains, Some(value.as_str()))
        ));
        for (by_affinity, why) in [
            (true, "outside the pod's node selector/affinity"),
            (false, "a taint the pod does not tolerate"),
        ] {
            let nodes: Vec<String> = c
                .excluded_nodes
                .iter()
                .filter(|(_, a)| *a == by_affinity)
                .map(|(n, _)| n.clone())
                .collect();
            if !nodes.is_empty() {
                out.push(format!("Not counted ({why}): {}.", list_limited(&nodes)));
            }
        }
        if c.nodes_missing_keys > 0 {
            out.push(format!(
                "{} node(s) lack a topology label of the constraints and never count.",
                c.nodes_missing_keys
            ));
        }
        let lowest = c.domains.iter().map(|d| d.1).min();
        if (c.domains.len() as i64) < c.min_domains as i64 {
            out.push(format!(
                "Only {} {word}(s) count, fewer than minDomains {}, so the minimum is taken as 0.",
                c.domains.len(),
                c.min_domains
            ));
        } else if lowest == Some(c.min_match) {
            out.push(format!("The lowest count (the global minimum) is {}.", c.min_match));
        } else {
            out.push(format!("The global minimum is {}.", c.min_match));
        }
        let after = c.match_num + c.self_match;
        let how = if c.self_match == 1 {
            format!("Placing the pod here makes {value} {after}")
        } else {
            format!("The pod does not match the selector itself, so {value} stays at {after}")
        };
        let skew = after - c.min_match;
        if c.fits {
            out.push(format!(
                "{how}: skew {after} − {} = {skew} ≤ maxSkew {}: fits.",
                c.min_match, c.max_skew
            ));
        } else {
            out.push(format!(
                "{how}: skew {after} − {} = {skew} > maxSkew {}: rejected.",
                c.min_match, c.max_skew
            ));
            break;
        }
    }
    out
}

fn namespaces_str(all: bool, namespaces: &[String]) -> String {
    if all {
        "in any namespace".into()
    } else if namespaces.len() == 1 {
        format!("in namespace {}", namespaces[0])
    } else if namespaces.is_empty() {
        "in no namespace".into()
    } else {
        format!("in namespaces {}", namespaces.join(", "))
    }
}

fn affinity_filter_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    let (state, node, nominated) = replay_filter(e, pod, ni, PluginName::InterPodAffinity);
    let Some(v) = inter_pod_affinity::explain_filter(&ctx(e), &state, pod, &node) else {
        return out;
    };
    if (v.affinity_ok && v.anti_affinity_ok && v.existing_anti_affinity_ok) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    out.extend(nominated_note(name, nominated));
    let pod_list = |pods: &[(String, String)]| {
        let items: Vec<String> = pods.iter().map(|(p, n)| format!("{p} on {n}")).collect();
        list_limited(&items)
    };
    for (i, t) in v.affinity.iter().enumerate() {
        out.push(format!(
            "Required affinity{}: the pod must run {} as a pod matching {} ({}).",
            if v.affinity.len() > 1 {
                format!(" term {}", i + 1)
            } else {
                String::new()
            },
            same_domain(&t.topology_key),
            selector_str(&t.selector),
            namespaces_str(t.all_namespaces, &t.namespaces)
        ));
        match &t.node_value {
            None => out.push(format!("{name} has no {} label, so the term cannot be met.", t.topology_key)),
            Some(value) if t.count > 0 => out.push(format!(
                "{} has {}: {}.",
                domain_subject(name, &t.topology_key, value),
                matching(t.count),
                pod_list(&t.pods)
            )),
            Some(value) => out.push(format!("{} has no matching pod.", domain_subject(name, &t.topology_key, value))),
        }
    }
    if !v.affinity.is_empty() {
        if v.affinity_ok && v.affinity.iter().any(|t| t.count == 0) {
            out.push("No matching pod runs anywhere yet and the pod matches its own terms, so it may start the group here.".into());
        }
        if !v.affinity_ok {
            out.push(if v.affinity_matches_nowhere && !v.matches_own_affinity {
                "No matching pod runs anywhere, and the pod does not match its own terms: rejected.".into()
            } else {
                format!("The required affinity is not met on {name}: rejected.")
            });
            return out;
        }
    }
    for (i, t) in v.anti_affinity.iter().enumerate() {
        out.push(format!(
            "Required anti-affinity{}: no pod matching {} ({}) may run {}.",
            if v.anti_affinity.len() > 1 {
                format!(" term {}", i + 1)
            } else {
                String::new()
            },
            selector_str(&t.selector),
            namespaces_str(t.all_namespaces, &t.namespaces),
            same_domain(&t.topology_key)
        ));
        match &t.node_value {
            None => out.push(format!("{name} has no {} label, so the term does not apply.", t.topology_key)),
            Some(value) if t.count > 0 => out.push(format!(
                "{} already has {}: {} — rejected.",
                domain_subject(name, &t.topology_key, value),
                matching(t.count),
                pod_list(&t.pods)
            )),
            Some(value) => out.push(format!("{} has none.", domain_subject(name, &t.topology_key, value))),
        }
    }
    if !v.anti_affinity_ok {
        return out;
    }
    if v.existing_anti.is_empty() {
        out.push(format!("No running pod's required anti-affinity keeps this pod away from {name}."));
    } else {
        let items: Vec<String> = v
            .existing_anti
            .iter()
            .map(|x| {
                if x.topology_key == pod_topology_spread::LABEL_HOSTNAME {
                    format!("{} on {}", x.pod, x.node)
                } else {
                    format!("{} on {} ({})", x.pod, x.node, at_domain(&x.topology_key, &x.value))
                }
            })
            .collect();
        out.push(format!(
            "Running pods whose required anti-affinity matches this pod: {} — rejected.",
            list_limited(&items)
        ));
    }
    out
}

fn volume_zone_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    let Ok((checks, has_topology)) = volume_zone::explain_filter(&ctx(e), pod, ni) else {
        return out;
    };
    if (!has_topology || checks.iter().all(|c| c.matches)) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    if checks.is_empty() {
        out.push("None of the pod's bound volumes carries zone or region labels.".into());
    }
    for c in &checks {
        let word = domain_word(c.key);
        let allowed = if c.values.len() == 1 {
            format!("{word} {}", c.values[0])
        } else {
            format!("{word}s {}", c.values.join(", "))
        };
        let here = match &c.node_value {
            Some(v) => format!("{name} is in {word} {v}"),
            None => format!("{name} has no {word} label"),
        };
        out.push(format!(
            "Claim {} is bound to volume {}, which is in {allowed}; {here}{}.",
            c.claim,
            c.volume,
            if !has_topology {
                ""
            } else if c.matches {
                " — match"
            } else {
                " — no match"
            }
        ));
    }
    if !has_topology {
        out.push(format!("{name} has no zone or region labels at all, so it accepts any volume."));
    }
    out
}

fn volume_binding_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    let (state, node, _) = replay_filter(e, pod, ni, PluginName::VolumeBinding);
    let Some(Ok(volume_binding::BindingView { claims, reasons })) = volume_binding::explain_filter(&ctx(e), &state, &node) else {
        return out;
    };
    if reasons.is_empty() != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    for c in claims {
        match c {
            volume_binding::ClaimView::Bound { claim, volume, node_ok } => match volume {
                None => out.push(format!("Claim {claim} is bound to a volume that does not exist.")),
                Some(pv) => {
                    let terms: Vec<String> = pv
                        .spec
                        .node_affinity
                        .as_ref()
                        .and_then(|a| a.required.as_ref())
                        .map(|r| r.node_selector_terms.iter().map(node_term_str).collect())
                        .unwrap_or_default();
                    if terms.is_empty() {
                        out.push(format!(
                            "Claim {claim} is bound to volume {}, which has no node affinity: any node can use it.",
                            pv.metadata.name
                        ));
                    } else {
                        out.push(format!(
                            "Claim {claim} is bound to volume {}, usable only on nodes with {}; {name} {}.",
                            pv.metadata.name,
                            terms.join(" or "),
                            if node_ok { "qualifies" } else { "does not" }
                        ));
                    }
                }
            },
            volume_binding::ClaimView::Delayed {
                claim,
                binds_to,
                provisioned,
            } => {
                let size = claim
                    .spec
                    .resources
                    .requests
                    .get("storage")
                    .map(|q| format!("{}, ", format_bytes(q.value())))
                    .unwrap_or_default();
                let class = crate::plugins::volume_util::pvc_class(&claim);
                let what = match (binds_to, provisioned) {
                    (Some(pv), _) => format!("on {name} it would bind the free volume {pv}"),
                    (None, true) => {
                        let by = e
                            .cluster
                            .storage_classes
                            .get(class)
                            .map(|c| format!(" by {}", c.provisioner))
                            .unwrap_or_default();
                        format!("on {name} a new volume would be provisioned{by}")
                    }
                    (None, false) => format!("on {name} no free volume fits it and none can be provisioned"),
                };
                out.push(format!(
                    "Claim {} ({size}class {class}) waits for its first pod: {what}.",
                    claim.metadata.name
                ));
            }
        }
    }
    out
}

fn volume_restrictions_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    let (state, node, nominated) = replay_filter(e, pod, ni, PluginName::VolumeRestrictions);
    let Some(v) = volume_restrictions::explain_filter(&ctx(e), &state, pod, &node) else {
        return out;
    };
    if (v.disk_conflicts.is_empty() && v.rwop_in_use == 0) != passed {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    out.extend(nominated_note(name, nominated));
    if !v.inline_disks.is_empty() {
        if v.disk_conflicts.is_empty() {
            out.push(format!(
                "The pod's disks that only one pod may write ({}) are not used by any pod on {name}.",
                v.inline_disks.join(", ")
            ));
        } else {
            let items: Vec<String> = v.disk_conflicts.iter().map(|(vol, p)| format!("{vol} by {p}")).collect();
            out.push(format!(
                "On {name}, the same disk is already in use: {} — rejected.",
                list_limited(&items)
            ));
        }
    }
    if !v.rwop_claims.is_empty() {
        let one = v.rwop_claims.len() == 1;
        let head = if one {
            format!("Claim {} allows only one pod (ReadWriteOncePod)", v.rwop_claims[0])
        } else {
            format!("Claims {} allow only one pod each (ReadWriteOncePod)", v.rwop_claims.join(", "))
        };
        if v.rwop_in_use == 0 {
            out.push(format!("{head}, and no other pod uses {}.", if one { "it" } else { "them" }));
        } else {
            let users: Vec<String> = v.rwop_users.iter().map(|(c, p, n)| format!("{c} by {p} on {n}")).collect();
            let users = if users.is_empty() {
                String::new()
            } else {
                format!(": {}", list_limited(&users))
            };
            out.push(if one {
                format!("{head}, and it is already in use{users} — so no node can take this pod.")
            } else {
                format!(
                    "{head}; {} of them already in use{users} — so no node can take this pod.",
                    v.rwop_in_use
                )
            });
        }
    }
    out
}

fn volume_limits_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, passed: bool) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    let (_, node, nominated) = replay_filter(e, pod, ni, PluginName::NodeVolumeLimits);
    let Ok(counts) = node_volume_limits::volume_counts(&ctx(e), pod, &node) else {
        return out;
    };
    let vols = |n: i64| if n == 1 { "volume" } else { "volumes" };
    match counts {
        node_volume_limits::VolumeCounts::NoNewVolumes => {
            if !passed {
                out.push(NOT_REPRODUCED.into());
            } else {
                out.push("The pod has no volume that counts against a node's attach limits.".into());
            }
        }
        node_volume_limits::VolumeCounts::NoLimits { new } => {
            if !passed {
                out.push(NOT_REPRODUCED.into());
                return out;
            }
            let items: Vec<String> = new.iter().map(|(d, n)| format!("{n} {} of {d}", vols(*n))).collect();
            out.push(format!(
                "The pod attaches {}; {name} has no attach limits (none in its CSINode), so nothing is counted.",
                items.join(", ")
            ));
        }
        node_volume_limits::VolumeCounts::Counted { limits, attached, new } => {
            let fits = new
                .iter()
                .all(|(d, n)| limits.get(d).is_none_or(|&max| attached.get(d).copied().unwrap_or(0) + n <= max));
            if fits != passed {
                out.push(NOT_REPRODUCED.into());
                return out;
            }
            out.extend(nominated_note(name, nominated));
            for (d, n) in &new {
                let have = attached.get(d).copied().unwrap_or(0);
                match limits.get(d) {
                    None => out.push(format!(
                        "{d}: the pod attaches {n} {}; {name} sets no limit for this driver.",
                        vols(*n)
                    )),
                    Some(&max) => out.push(format!(
                        "{d}: {name} can attach {max} {}; {have} already attached + {n} for this pod = {} {} {max}{}.",
                        vols(max),
                        have + n,
                        if have + n > max { ">" } else { "≤" },
                        if have + n > max { " — rejected" } else { "" }
                    )),
                }
            }
            if new.is_empty() {
                out.push(format!(
                    "All of the pod's volumes are already attached to {name}, so nothing new counts."
                ));
            }
        }
    }
    out
}

fn image_locality_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, raw: i64) -> Vec<String> {
    let mut out = Vec::new();
    let name = ni.name();
    let v = image_locality::explain_score(&ctx(e), pod, ni);
    if v.raw != raw {
        out.push(NOT_REPRODUCED.into());
        return out;
    }
    for img in &v.images {
        match img.state {
            Some(st) => out.push(format!(
                "{}: {} on {name}; {} of {} nodes {} it, so it counts {} × {}/{} = {}.",
                img.image,
                mebibytes(st.size),
                st.num_nodes,
                v.total_nodes,
                if st.num_nodes == 1 { "has" } else { "have" },
                mebibytes(st.size),
                st.num_nodes,
                v.total_nodes,
                mebibytes(img.scaled)
            )),
            None => out.push(format!("{}: not on {name}, counts 0.", img.image)),
        }
    }
    let containers = match v.images.len() {
        1 => "1 container".to_string(),
        n => format!("{n} containers"),
    };
    let (lo, hi) = (v.min_threshold, v.max_threshold);
    let sum = mebibytes(v.sum);
    if v.sum <= lo {
        out.push(format!(
            "The total, {}, is not above the {} floor: raw 0.",
            if v.sum == 0 { "0".into() } else { sum },
            mebibytes(lo)
        ));
    } else if v.sum >= hi {
        out.push(format!(
            "The total, {sum}, reaches the ceiling of {} ({containers} × 1000Mi): raw 100.",
            mebibytes(hi)
        ));
    } else if 100 * (v.sum - lo) / (hi - lo) == raw {
        out.push(format!(
            "The total is {sum}; between the {} floor and the {} ceiling ({containers} × 1000Mi) it scores 100 × ({sum} − {}) / ({} − {}) = {raw}.",
            mebibytes(lo),
            mebibytes(hi),
            mebibytes(lo),
            mebibytes(hi),
            mebibytes(lo)
        ));
    }
    out
}

fn spread_score_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, scored: &[u32], rec: &ScoredNodes) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    let name = ni.name();
    let raw = rec.row.raw[rec.k];
    let state = replay_pre_score(e, pod, scored);
    let Some(v) = pod_topology_spread::explain_score(&state, pod, ni, scored.len()) else {
        return (out, None);
    };
    if v.raw != raw {
        out.push(NOT_REPRODUCED.into());
        return (out, None);
    }
    let ignored = v.ignored_nodes.iter().any(|n| n == name);
    if ignored {
        out.push(format!(
            "{name} lacks the topology label of a constraint, so it is left out: raw 0, and 0 after NormalizeScore."
        ));
    } else {
        let many = v.constraints.len() > 1;
        let mut parts = Vec::new();
        for (i, c) in v.constraints.iter().enumerate() {
            let word = domain_word(&c.topology_key);
            out.push(format!(
                "{}Spread pods matching {} across {} (maxSkew {}, ScheduleAnyway).",
                if many { format!("Constraint {}: ", i + 1) } else { String::new() },
                selector_str(&c.selector),
                c.topology_key,
                c.max_skew
            ));
            let Some(value) = &c.node_value else {
                out.push(format!("{name} has no {} label: this constraint adds nothing.", c.topology_key));
                continue;
            };
            if !c.domain_counts.is_empty() {
                out.push(format!(
                    "Matching pods per {word} (of the feasible nodes): {}.",
                    domains_str(&c.domain_counts, Some(value.as_str()))
                ));
            }
            let weight = match c.domains {
                Some(n) => format!("weight ln({n} {word}s + 2) = {}", dec(c.weight)),
                None => format!("weight {}", dec(c.weight)),
            };
            out.push(format!(
                "{} {} counted for {name}; {weight}; {} × {} + ({} − 1) = {}.",
                c.count,
                pods_word(c.count),
                c.count,
                dec(c.weight),
                c.max_skew,
                dec(c.part)
            ));
            parts.push(dec(c.part));
        }
        if !parts.is_empty() {
            out.push(format!(
                "Raw = round({}) = {raw}: the fewer matching pods, the lower (better).",
                parts.join(" + ")
            ));
        }
    }
    // NormalizeScore: fewer is better, ignored nodes get 0.
    let row = rec.row;
    let is_ignored = |i: usize| v.ignored_nodes.iter().any(|n| *n == rec.names[i]);
    let counted: Vec<i64> = (0..row.raw.len()).filter(|&i| !is_ignored(i)).map(|i| row.raw[i]).collect();
    let min = counted.iter().copied().min().unwrap_or(0);
    let max = counted.iter().copied().max().unwrap_or(0).max(0);
    let reproduces = (0..row.raw.len()).all(|i| {
        let want = if is_ignored(i) {
            0
        } else if max == 0 {
            100
        } else {
            100 * (max + min - row.raw[i]) / max
        };
        want == row.normalized[i]
    });
    let norm = row.normalized[rec.k];
    let line = reproduces.then(|| {
        if ignored {
            String::new()
        } else if max == 0 {
            "Every counted node scored 0 raw, so NormalizeScore gives each of them 100.".into()
        } else {
            format!(
                "NormalizeScore turns it around between the highest ({max}) and lowest ({min}) raw scores: 100 × ({max} + {min} − {raw}) / {max} = {norm}."
            )
        }
    });
    (out, line)
}

/// What one kind of contribution to InterPodAffinity's score is called in a sentence.
fn source_str(pod: &PodInfo, source: ScoreSource, weight: i64, pod_name: &str) -> String {
    let sel = |t: Option<&crate::framework::WeightedAffinityTerm>| t.map(|t| selector_str(&t.term.selector)).unwrap_or_default();
    match source {
        ScoreSource::Preferred(i) => format!(
            "Preferred affinity{} (weight {weight}) to pods matching {}",
            if pod.preferred_affinity_terms.len() > 1 {
                format!(" term {}", i + 1)
            } else {
                String::new()
            },
            sel(pod.preferred_affinity_terms.get(i))
        ),
        ScoreSource::PreferredAnti(i) => format!(
            "Preferred anti-affinity{} (weight {}) to pods matching {}",
            if pod.preferred_anti_affinity_terms.len() > 1 {
                format!(" term {}", i + 1)
            } else {
                String::new()
            },
            -weight,
            sel(pod.preferred_anti_affinity_terms.get(i))
        ),
        ScoreSource::ExistingRequired(_) => {
            format!("{pod_name} has required affinity matching this pod (counted with hardPodAffinityWeight {weight})")
        }
        ScoreSource::ExistingPreferred(_) => format!("{pod_name} has preferred affinity (weight {weight}) matching this pod"),
        ScoreSource::ExistingPreferredAnti(_) => {
            format!("{pod_name} has preferred anti-affinity (weight {}) matching this pod", -weight)
        }
    }
}

fn affinity_score_lines(e: &Engine, pod: &PodInfo, ni: &NodeInfo, rec: &ScoredNodes) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    let name = ni.name();
    let raw = rec.row.raw[rec.k];
    let Some(fw) = e.frameworks.get(pod.scheduler_name()) else {
        return (out, None);
    };
    let args = fw.profile.args.get_or_default::<InterPodAffinityArgs>();
    let Some(cs) = inter_pod_affinity::explain_score(&args, &ctx(e), pod, ni) else {
        return (out, None);
    };
    if cs.iter().map(|c| c.weight).sum::<i64>() != raw {
        out.push(NOT_REPRODUCED.into());
        return (out, None);
    }
    // The incoming pod's terms are grouped per term and domain; running pods' terms per pod.
    type Key = (ScoreSource, String, String, String, i64);
    let mut groups: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for c in &cs {
        let own = matches!(c.source, ScoreSource::Preferred(_) | ScoreSource::PreferredAnti(_));
        let key = (
            c.source,
            c.topology_key.clone(),
            c.value.clone(),
            if own { String::new() } else { c.pod.clone() },
            c.weight,
        );
        groups.entry(key).or_default().push(format!("{} on {}", c.pod, c.pod_node));
    }
    let mut sums = Vec::new();
    for ((source, key, value, by, weight), pods) in &groups {
        let n = pods.len() as i64;
        let total = weight * n;
        sums.push(total);
        if by.is_empty() {
            out.push(format!(
                "{}: {} {} ({}) → {}.",
                source_str(pod, *source, *weight, ""),
                matching(n),
                at_domain(key, value),
                list_limited(pods),
                signed(total)
            ));
        } else {
            let whom = if key == pod_topology_spread::LABEL_HOSTNAME {
                pods[0].clone()
            } else {
                format!("{} ({})", pods[0], at_domain(key, value))
            };
            out.push(format!("{} → {}.", source_str(pod, *source, *weight, &whom), signed(total)));
        }
    }
    if sums.is_empty() {
        out.push(format!("No affinity term involving this pod reaches {name}'s domains: raw 0."));
    } else {
        let mut expr = String::new();
        for (i, v) in sums.iter().enumerate() {
            if i == 0 {
                expr.push_str(&if *v < 0 { format!("−{}", -v) } else { v.to_string() });
            } else if *v < 0 {
                expr.push_str(&format!(" − {}", -v));
            } else {
                expr.push_str(&format!(" + {v}"));
            }
        }
        out.push(if sums.len() > 1 {
            format!("Raw = {expr} = {raw}.")
        } else {
            format!("Raw = {raw}.")
        });
    }
    // NormalizeScore: min–max scaling over the scored nodes.
    let row = rec.row;
    let min = row.raw.iter().copied().min().unwrap_or(0);
    let max = row.raw.iter().copied().max().unwrap_or(0);
    let diff = max - min;
    let scale = |r: i64| {
        if diff > 0 {
            (100.0 * ((r - min) as f64 / diff as f64)) as i64
        } else {
            0
        }
    };
    let norm = row.normalized[rec.k];
    let line = row.raw.iter().zip(&row.normalized).all(|(&r, &n)| scale(r) == n).then(|| {
        if diff == 0 {
            "Every scored node has the same raw score, so NormalizeScore gives each of them 0.".into()
        } else {
            format!(
                "NormalizeScore scales between the lowest ({min}) and highest ({max}) raw scores: 100 × ({raw} − {}) / {diff} = {norm}.",
                paren(min)
            )
        }
    });
    (out, line)
}
