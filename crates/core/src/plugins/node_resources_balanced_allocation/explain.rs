//! NodeResourcesBalancedAllocation's score cells explained: the share of each resource the node
//! would have in use, and how far apart they are.

use super::args::NodeResourcesBalancedAllocationArgs;
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};
use crate::plugins::explain_util::resource_shares;
use crate::plugins::resource_allocation::ResourceAllocationScorer;

pub(super) const EXPLAINERS: Explainers = Explainers::score(score);

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let raw = cell.raw_here();
    let args = x.framework.profile.args.get_or_default::<NodeResourcesBalancedAllocationArgs>();
    let scorer = ResourceAllocationScorer::new(&args.resources, true, true);
    let shares = resource_shares(&scorer, x.pod, x.node);
    let (requested, allocatable) = (&shares.requested, &shares.allocatable);
    let mut out = vec![shares.line.clone()];
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
    out.into()
}
