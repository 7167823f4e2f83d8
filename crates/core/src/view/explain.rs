//! Explanations of single cells of the filter matrix and the score table, in sentences with the
//! numbers filled in.
//!
//! The trace says *what* each plugin decided; the numbers behind it (what a node had free, which
//! taint was not tolerated, the per-resource shares a score came from) are taken from the
//! engine's own state just before the cycle, recovered by re-running the scenario to that point.
//! Where a formula is shown, it is recomputed from those numbers and shown only if it gives the
//! very score the engine recorded; otherwise the explanation stays with the recorded values.

use super::{Session, ROW_LIMIT};
use crate::api::Taint;
use crate::config::ScoringStrategyType;
use crate::engine::{Engine, EngineOptions, StepOutcome};
use crate::framework::{NodeInfo, PodInfo, RESOURCE_CPU, RESOURCE_MEMORY};
use crate::plugins::helper::tolerations_tolerate_taint;
use crate::plugins::resource_allocation::ResourceAllocationScorer;
use crate::trace::{Detail, TraceEvent};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub title: String,
    pub lines: Vec<String>,
}

/// A resource amount in the units people read: cores, binary bytes, counts.
pub fn format_amount(resource: &str, v: i64) -> String {
    if resource == RESOURCE_CPU {
        if v % 1000 == 0 {
            format!("{}", v / 1000)
        } else if v.abs() >= 1000 {
            let s = format!("{:.3}", v as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            format!("{v}m")
        }
    } else if resource == RESOURCE_MEMORY || resource == "ephemeral-storage" || resource.starts_with("hugepages-") {
        format_bytes(v)
    } else {
        v.to_string()
    }
}

pub fn format_bytes(v: i64) -> String {
    const UNITS: [(&str, i64); 4] = [("Ti", 1 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)];
    for (u, s) in UNITS {
        if v.abs() >= s {
            if v % s == 0 {
                return format!("{}{u}", v / s);
            }
            let x = v as f64 / s as f64;
            let t = format!("{x:.2}");
            return format!("{}{u}", t.trim_end_matches('0').trim_end_matches('.'));
        }
    }
    v.to_string()
}

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
    let Some(ni) = e.snapshot.nodes.get(node as usize) else {
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
    lines.extend(filter_detail(&e, &subject, &pi, ni));
    Explanation { title, lines }
}

/// Numbers behind a filter plugin's verdict on one node.
fn filter_detail(e: &Engine, plugin: &str, pod: &PodInfo, ni: &NodeInfo) -> Vec<String> {
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
            if let Some(r) = required {
                out.push(format!(
                    "The pod's required node affinity has {} term(s) (any one must match); {name}'s labels: {}.",
                    r.node_selector_terms.len(),
                    labels_str(ni)
                ));
            }
        }
        "NodePorts" => {
            let ports: Vec<String> = pod.host_ports.iter().map(|p| format!("{}/{}", p.port, p.protocol)).collect();
            out.push(format!("The pod wants host port(s) {}.", ports.join(", ")));
            let used: Vec<String> = ni
                .pods
                .iter()
                .flat_map(|p| {
                    p.host_ports
                        .iter()
                        .map(move |hp| format!("{}/{} ({})", hp.port, hp.protocol, p.name()))
                })
                .collect();
            out.push(if used.is_empty() {
                format!("No pod on {name} uses a host port.")
            } else {
                format!("In use on {name}: {}.", used.join(", "))
            });
        }
        "PodTopologySpread" | "InterPodAffinity" | "VolumeZone" => {
            out.push(format!("{name}'s topology labels: {}.", labels_str(ni)));
            out.push(format!("{} pod(s) run on {name}.", ni.pods.len()));
        }
        _ => {}
    }
    out
}

fn labels_str(ni: &NodeInfo) -> String {
    let l: Vec<String> = ni.labels().iter().map(|(k, v)| format!("{k}={v}")).collect();
    if l.is_empty() {
        "none".into()
    } else {
        l.join(", ")
    }
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
    let max_raw = row.raw.iter().copied().max().unwrap_or(0);
    // Which normalization explains the recorded values (checked on every scored node).
    let check = |f: &dyn Fn(i64) -> i64| row.raw.iter().zip(&row.normalized).all(|(&r, &n)| f(r) == n);
    if row.raw == row.normalized {
        lines.push("NormalizeScore leaves this plugin's scores as they are (already 0–100).".into());
    } else if max_raw > 0 && check(&|r| 100 * r / max_raw) {
        lines.push(format!(
            "NormalizeScore scales by the highest raw score ({max_raw}): 100 × {raw} / {max_raw} = {norm}."
        ));
    } else if max_raw > 0 && check(&|r| 100 - 100 * r / max_raw) {
        lines.push(format!(
            "NormalizeScore reverses (fewer is better), scaled by the highest raw score ({max_raw}): 100 − 100 × {raw} / {max_raw} = {norm}."
        ));
    } else if max_raw == 0 && row.normalized.iter().all(|&n| n == 100) {
        lines.push("Every node scored 0 raw, so the reversed normalization gives all of them 100.".into());
    }
    if t.plugins.len() > ROW_LIMIT {
        return Explanation { title, lines };
    }
    let e = engine_before(s, cycle);
    let pi = e.pods[pod as usize].info.clone();
    if let Some(ni) = e.snapshot.nodes.get(node as usize) {
        lines.extend(score_detail(&e, plugin, &pi, ni, raw));
    }
    let _ = pod_key;
    Explanation { title, lines }
}

/// Numbers behind a score plugin's raw score on one node; formulas are shown only when they
/// reproduce `raw`.
fn score_detail(e: &Engine, plugin: &str, pod: &PodInfo, ni: &NodeInfo, raw: i64) -> Vec<String> {
    let mut out = Vec::new();
    let Some(fw) = e.frameworks.get(pod.scheduler_name()) else {
        return out;
    };
    let args = &fw.profile.args;
    match plugin {
        "NodeResourcesFit" | "NodeResourcesBalancedAllocation" => {
            let fit = plugin == "NodeResourcesFit";
            let (specs, kind) = if fit {
                (
                    args.node_resources_fit.scoring_strategy.resources.clone(),
                    Some(args.node_resources_fit.scoring_strategy.kind),
                )
            } else {
                (args.node_resources_balanced_allocation.resources.clone(), None)
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
                    out.push("RequestedToCapacityRatio: each resource's utilisation is mapped through the configured shape, then averaged by weight.".into());
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
        "ImageLocality" => {
            let imgs: Vec<String> = pod
                .pod
                .spec
                .containers
                .iter()
                .filter_map(|c| c.image.as_deref())
                .map(|img| {
                    let have = ni.node.status.images.iter().any(|i| i.names.iter().any(|n| n == img));
                    format!("{img} {}", if have { "present" } else { "absent" })
                })
                .collect();
            out.push(format!("Images on {}: {}.", ni.name(), imgs.join(", ")));
        }
        _ => {}
    }
    out
}
