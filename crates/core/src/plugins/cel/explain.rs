//! The CEL plugin's cells explained: the expression, and what it gives on the node, evaluated
//! again by the plugin's own code (`Cel::eval_filter`, `Cel::eval_score`); the score's
//! normalization is the clamp to 0..100.

use super::args::CelArgs;
use super::{normalize, Cel, MAX_SCORE, MIN_SCORE};
use crate::framework::args::PluginArgs;
use crate::framework::explain::{ExplainCtx, Explainers, ScoreCell, ScoreLines};

pub(super) const EXPLAINERS: Explainers = Explainers::both(filter, score).with_profile(profile);

/// The plugin as the pod's profile built it.
fn plugin(x: &ExplainCtx) -> Cel {
    Cel::new(&x.framework.profile.args.get_or_default::<CelArgs>())
}

fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    let cel = plugin(x);
    let node = x.node_name();
    let Some(text) = cel.filter_text() else {
        return vec![format!(
            "No filter expression is set (pluginConfig args.filter): node {node} passes."
        )];
    };
    vec![
        format!("Filter expression: {text}"),
        match cel.eval_filter(&x.pod.pod, &x.node.node) {
            Ok(true) => format!("On node {node} it is true: the node passes."),
            Ok(false) => format!("On node {node} it is false: the node is rejected."),
            Err(e) => format!("On node {node} it fails ({e}): an Error status, which stops the scheduling cycle."),
        },
    ]
}

fn score(x: &ExplainCtx, cell: &ScoreCell) -> ScoreLines {
    let cel = plugin(x);
    let node = x.node_name();
    let Some(text) = cel.score_text() else {
        return vec![format!(
            "No score expression is set (pluginConfig args.score): raw 0 on node {node}."
        )]
        .into();
    };
    let mut lines = vec![format!("Score expression: {text}")];
    match cel.eval_score(&x.pod.pod, &x.node.node) {
        Ok(raw) => lines.push(format!("On node {node} it gives {raw}.")),
        Err(e) => lines.push(format!("On node {node} it fails: {e}.")),
    }
    let (raw, normalized) = (cell.raw_here(), cell.normalized[cell.k]);
    let normalization = (normalize(raw) == normalized).then(|| {
        if raw == normalized {
            format!("NormalizeScore clamps raw scores to {MIN_SCORE}..{MAX_SCORE}: {raw} is within, kept.")
        } else {
            format!("NormalizeScore clamps raw scores to {MIN_SCORE}..{MAX_SCORE}: {raw} → {normalized}.")
        }
    });
    ScoreLines { lines, normalization }
}

fn profile(args: &PluginArgs) -> String {
    let a = args.get_or_default::<CelArgs>();
    let mut parts = Vec::new();
    if let Some(f) = &a.filter {
        parts.push(format!("filters with {f}"));
    }
    if let Some(s) = &a.score {
        parts.push(format!("scores with {s} (clamped to {MIN_SCORE}..{MAX_SCORE})"));
    }
    if parts.is_empty() {
        parts.push("has no expression".to_string());
    }
    format!(
        "schedlab.dev/CEL {} — a schedlab extension: a real kube-scheduler would need a Go plugin.",
        parts.join(" and ")
    )
}
