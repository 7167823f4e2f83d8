//! NodeResourcesFit's cells explained: per resource, what the pod requests against what the
//! node has free (nominated pods counted in); the score from the shares of each resource under
//! the profile's scoring strategy.

use super::args::{NodeResourcesFitArgs, ScoringStrategyType};
use super::shape_points;
use crate::framework::args::PluginArgs;
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};
use crate::framework::{PodInfo, RESOURCE_CPU, RESOURCE_MEMORY};
use crate::plugins::explain_util::{dec, resource_shares};
use crate::plugins::resource_allocation::ResourceAllocationScorer;
use schedlab_view::view::format_amount;
use std::sync::Arc;

pub(super) const EXPLAINERS: Explainers = Explainers::both(filter, score).with_profile(profile);

/// The profile's scoring strategy and its resource weights.
fn profile(args: &PluginArgs) -> String {
    let fit = args.get_or_default::<NodeResourcesFitArgs>();
    let ss = &fit.scoring_strategy;
    let res: Vec<String> = ss.resources.iter().map(|r| format!("{}×{}", r.name, r.weight)).collect();
    format!("NodeResourcesFit scores with {:?} ({})", ss.kind, res.join(", "))
}

fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    let (pod, ni) = (x.pod, x.node);
    let mut out = Vec::new();
    let r = &pod.resource.resource;
    // Higher-or-equal priority pods nominated to the node count as if running there.
    let nominated: Vec<&Arc<PodInfo>> =
        x.cx.nominator
            .pods_for_node(ni.name())
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
    out
}

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let (pod, ni) = (x.pod, x.node);
    let raw = cell.raw_here();
    let args = &*x.framework.profile.args.get_or_default::<NodeResourcesFitArgs>();
    let kind = args.scoring_strategy.kind;
    let scorer = ResourceAllocationScorer::new(&args.scoring_strategy.resources, false, false);
    let shares = resource_shares(&scorer, pod, ni);
    let (requested, allocatable) = (&shares.requested, &shares.allocatable);
    let mut out = Vec::new();
    let missing = pod.pod.spec.containers.iter().any(|c| {
        let r = &c.resources.requests;
        !r.contains_key(RESOURCE_CPU) || !r.contains_key(RESOURCE_MEMORY)
    });
    if missing {
        out.push("(Containers without a cpu/memory request count as 100m / 200Mi here, as the scheduler's scoring does.)".into());
    }
    out.push(shares.line.clone());
    match kind {
        ScoringStrategyType::LeastAllocated | ScoringStrategyType::MostAllocated => {
            let least = kind == ScoringStrategyType::LeastAllocated;
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
        ScoringStrategyType::RequestedToCapacityRatio => {
            let points = shape_points(args, requested, allocatable).unwrap_or_default();
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
    }
    out.into()
}
