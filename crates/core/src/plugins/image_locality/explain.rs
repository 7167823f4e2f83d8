//! ImageLocality's score cells explained: the size of each of the pod's images on the node,
//! scaled by how many nodes have it, and where the total falls between floor and ceiling.

use super::explain_score;
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};
use crate::plugins::explain_util::NOT_REPRODUCED;

pub(super) const EXPLAINERS: Explainers = Explainers::score(score);

/// Bytes in mebibytes, up to two decimals (image sizes and their thresholds).
fn mebibytes(v: i64) -> String {
    let s = format!("{:.2}", v as f64 / (1 << 20) as f64);
    format!("{}Mi", s.trim_end_matches('0').trim_end_matches('.'))
}

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let mut out = Vec::new();
    let name = x.node_name();
    let raw = cell.raw_here();
    let v = explain_score(&x.cx, x.pod, x.node);
    if v.raw != raw {
        out.push(NOT_REPRODUCED.into());
        return out.into();
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
    out.into()
}
