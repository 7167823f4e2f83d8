//! What a comparison found: the summary figures of both runs, every pod's node and bound
//! score in each (the pods that land differently marked), and the configurations' diff.

use leptos::prelude::*;
use schedlab_view::answer::{Comparison, RunFigures};

fn pct(v: f64) -> String {
    format!("{v:.1} %")
}

/// The figures' rows: a label and each run's value.
fn figures(a: &RunFigures, b: &RunFigures) -> Vec<(String, String, String)> {
    let mut rows = vec![
        ("Nodes used".into(), format!("{} of {}", a.nodes_used, a.nodes), format!("{} of {}", b.nodes_used, b.nodes)),
        ("Pods pending".into(), a.pods_pending.to_string(), b.pods_pending.to_string()),
        ("Preemptions".into(), a.preemptions.to_string(), b.preemptions.to_string()),
        ("Scheduling attempts".into(), a.attempts.to_string(), b.attempts.to_string()),
    ];
    for (ua, ub) in a.utilisation.iter().zip(&b.utilisation) {
        let show = |u: &schedlab_view::answer::Utilisation| {
            format!("{} (nodes {}–{}, σ {})", pct(u.overall), pct(u.min), pct(u.max), pct(u.stddev))
        };
        rows.push((format!("{} requested", ua.resource), show(ua), show(ub)));
    }
    rows
}

#[component]
pub fn CompareResult(comparison: Comparison) -> impl IntoView {
    let c = comparison;
    let n = c.differing.len();
    let rows = figures(&c.a, &c.b)
        .into_iter()
        .map(|(l, a, b)| view! { <tr><th scope="row">{l}</th><td>{a}</td><td>{b}</td></tr> })
        .collect_view();
    let pods = c
        .pods
        .iter()
        .map(|p| {
            let differs = c.differing.contains(&p.pod);
            let node = |n: &Option<String>| n.clone().unwrap_or_else(|| "pending".into());
            let score = |s: Option<i64>| s.map(|s| s.to_string()).unwrap_or_else(|| "–".into());
            let diff = p.score_difference.map(|d| format!("{d:+}")).unwrap_or_default();
            view! {
                <tr class:differs=differs data-pod=p.pod.clone()>
                    <th scope="row">{differs.then_some("≠ ")}{p.pod.clone()}</th>
                    <td>{node(&p.a)}</td><td>{node(&p.b)}</td>
                    <td class="num">{score(p.score_a)}</td><td class="num">{score(p.score_b)}</td><td class="num">{diff}</td>
                </tr>
            }
        })
        .collect_view();
    let diff = (!c.config_diff.is_empty()).then(|| {
        let lines = c
            .config_diff
            .iter()
            .map(|l| {
                let class = if l.starts_with('+') { "add" } else { "del" };
                view! { <span class=class>{l.clone()}"\n"</span> }
            })
            .collect_view();
        view! { <h3>"Configuration diff (effective configurations)"</h3><pre class="config-diff">{lines}</pre> }
    });
    view! {
        <div class="compare-result">
            <p class="compare-headline" data-differing=n>
                {if n == 0 { "Every pod lands on the same node in both runs.".to_string() } else { format!("{n} pod{} land{} differently (marked ≠).", if n == 1 { "" } else { "s" }, if n == 1 { "s" } else { "" }) }}
            </p>
            <table class="compare-figures">
                <thead><tr><th></th><th>{"A: "}{c.a.label.clone()}</th><th>{"B: "}{c.b.label.clone()}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <div class="compare-pods-wrap">
                <table class="compare-pods">
                    <thead><tr><th>"Pod"</th><th>"Node in A"</th><th>"Node in B"</th><th>"Score A"</th><th>"Score B"</th><th>"B − A"</th></tr></thead>
                    <tbody>{pods}</tbody>
                </table>
            </div>
            {diff}
        </div>
    }
}
