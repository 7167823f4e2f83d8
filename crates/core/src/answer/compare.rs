//! Two runs side by side: the same scenario under two configurations, two seeds, or two
//! versions of the scenario.

use super::{run_text, RunOptions};
use crate::engine::{Engine, Phase};
use schedlab_view::answer::{Comparison, PodComparison, RunFigures, Utilisation};

/// One side of a comparison: a scenario text, its name, how it runs, and its label.
pub struct Side<'a> {
    pub text: &'a str,
    pub file: &'a str,
    pub opts: RunOptions,
    pub label: String,
}

/// Runs both sides and compares them.
pub fn compare(a: &Side, b: &Side) -> Result<Comparison, String> {
    let ea = run_text(a.text, a.file, &a.opts).map_err(|e| e.to_string())?;
    let eb = run_text(b.text, b.file, &b.opts).map_err(|e| e.to_string())?;
    Ok(compare_engines(&ea, &a.label, &eb, &b.label))
}

/// The text of scenario `text` with its KubeSchedulerConfiguration replaced by (or, without
/// one, added as) the configuration document(s) of `config`.
pub fn with_config(text: &str, config: &str) -> String {
    let is_config = |d: &serde_json::Value| d.get("kind").and_then(|k| k.as_str()) == Some("KubeSchedulerConfiguration");
    let mut docs: Vec<serde_json::Value> = crate::load::documents(text).into_iter().filter(|d| !is_config(d)).collect();
    docs.extend(crate::load::documents(config).into_iter().filter(is_config));
    let texts: Vec<String> = docs.iter().map(|d| serde_json::to_string(d).expect("JSON")).collect();
    texts.join("\n---\n") + "\n"
}

/// Compares two finished runs.
pub fn compare_engines(ea: &Engine, la: &str, eb: &Engine, lb: &str) -> Comparison {
    let mut keys: Vec<&str> = ea.pods().iter().map(|p| p.info.key.as_str()).collect();
    for p in eb.pods() {
        if ea.pod_by_key(&p.info.key).is_none() {
            keys.push(&p.info.key);
        }
    }
    // Each pod's node as `schedlab run --output json` reports it (a pod that ran and was
    // deleted by a timeline still names its node there).
    let placed = |e: &Engine| -> std::collections::HashMap<String, Option<String>> {
        let j = crate::output::conformance_json(e);
        j["pods"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let key = format!("{}/{}", p["namespace"].as_str().unwrap_or(""), p["name"].as_str().unwrap_or(""));
                (key, p["node"].as_str().map(str::to_string))
            })
            .collect()
    };
    let (pa, pb) = (placed(ea), placed(eb));
    let side = |e: &Engine, placed: &std::collections::HashMap<String, Option<String>>, k: &str| {
        let node = placed.get(k).cloned().flatten();
        let score = e
            .pod_by_key(k)
            .and_then(|i| Some(e.pods()[i].scores.as_ref()?.totals.get(node.as_ref()?)?).copied());
        (node, score)
    };
    let mut pods = Vec::new();
    let mut differing = Vec::new();
    for k in keys {
        let ((a, sa), (b, sb)) = (side(ea, &pa, k), side(eb, &pb, k));
        if a != b {
            differing.push(k.to_string());
        }
        pods.push(PodComparison {
            pod: k.to_string(),
            score_difference: sa.zip(sb).map(|(x, y)| y - x),
            a,
            b,
            score_a: sa,
            score_b: sb,
        });
    }
    let (ca, cb) = (ea.config().to_effective_yaml(), eb.config().to_effective_yaml());
    Comparison {
        a: figures(ea, la),
        b: figures(eb, lb),
        differing,
        pods,
        config_diff: line_diff(&ca, &cb),
    }
}

fn figures(e: &Engine, label: &str) -> RunFigures {
    let nodes = e.snapshot().nodes();
    let mut utilisation = Vec::new();
    for (res, get) in [
        (
            "cpu",
            (|r: &crate::model::Resource| r.milli_cpu) as fn(&crate::model::Resource) -> i64,
        ),
        ("memory", |r| r.memory),
    ] {
        let per: Vec<f64> = nodes
            .iter()
            .filter(|n| get(&n.allocatable) > 0)
            .map(|n| 100.0 * get(&n.requested) as f64 / get(&n.allocatable) as f64)
            .collect();
        if per.is_empty() {
            continue;
        }
        let (req, alloc): (i64, i64) = nodes
            .iter()
            .map(|n| (get(&n.requested), get(&n.allocatable)))
            .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
        let mean = per.iter().sum::<f64>() / per.len() as f64;
        let var = per.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / per.len() as f64;
        utilisation.push(Utilisation {
            resource: res.to_string(),
            overall: round1(100.0 * req as f64 / alloc.max(1) as f64),
            min: round1(per.iter().copied().fold(f64::INFINITY, f64::min)),
            max: round1(per.iter().copied().fold(0.0, f64::max)),
            stddev: round1(var.sqrt()),
        });
    }
    RunFigures {
        label: label.to_string(),
        nodes_used: nodes.iter().filter(|n| !n.pods.is_empty()).count(),
        nodes: nodes.len(),
        pods_pending: e.pods().iter().filter(|p| p.phase == Phase::Pending).count(),
        preemptions: e.events().iter().filter(|x| x.reason == schedlab_view::EventReason::Preempted).count(),
        attempts: e.pods().iter().map(|p| u64::from(p.attempts)).sum(),
        utilisation,
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The lines only in `a` (`- `) and only in `b` (`+ `), in order (a longest common subsequence).
fn line_diff(a: &str, b: &str) -> Vec<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let mut l = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            l[i][j] = if a[i] == b[j] {
                l[i + 1][j + 1] + 1
            } else {
                l[i + 1][j].max(l[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || l[i + 1][j] >= l[i][j + 1]) {
            out.push(format!("- {}", a[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::line_diff;

    #[test]
    fn the_config_diff_keeps_common_lines_out() {
        assert_eq!(line_diff("a\nb\nc\n", "a\nx\nc\n"), vec!["- b", "+ x"]);
        assert!(line_diff("a\nb\n", "a\nb\n").is_empty());
        assert_eq!(line_diff("", "z"), vec!["+ z"]);
    }
}
