//! Each goal: the checks its definition needs beyond decoding (`problems`), its sentence
//! (`describe`) and its verdict on a run's facts (`evaluate`), with the reason naming what it
//! saw.

use super::facts::{PodFact, RunFacts};
use super::{Goal, GoalVerdict};
use crate::api::LabelSelector;
use crate::labels::Selector;
use std::collections::BTreeMap;


fn selector_text(s: &LabelSelector) -> String {
    let mut parts: Vec<String> = s.match_labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    for e in &s.match_expressions {
        parts.push(match e.operator.as_str() {
            "Exists" => e.key.clone(),
            "DoesNotExist" => format!("!{}", e.key),
            op => format!("{} {} ({})", e.key, op.to_lowercase(), e.values.join(",")),
        });
    }
    if parts.is_empty() {
        "every pod".into()
    } else {
        format!("pods {}", parts.join(","))
    }
}

fn profile_text(p: &Option<String>) -> String {
    match p {
        Some(p) => format!(" in profile {p}"),
        None => String::new(),
    }
}

fn bounds_text(lo: Option<u32>, hi: Option<u32>) -> String {
    match (lo, hi) {
        (Some(l), Some(h)) if l == h => format!("exactly {l}"),
        (Some(l), Some(h)) => format!("between {l} and {h}"),
        (Some(l), None) => format!("at least {l}"),
        (None, Some(h)) => format!("at most {h}"),
        (None, None) => "any number of".into(),
    }
}

/// The goal in words.
pub(super) fn describe(g: &Goal) -> String {
    match g {
        Goal::RunsOn(x) => format!("pod {} runs on node {}", x.pod, x.node),
        Goal::NotOn(x) => match (&x.pod, &x.selector) {
            (Some(p), _) => format!("pod {p} does not run on node {}", x.node),
            (None, Some(s)) => format!("none of {} runs on node {}", selector_text(s), x.node),
            (None, None) => format!("nothing runs on node {}", x.node),
        },
        Goal::RunsIn(x) => format!("pod {} runs in {}={}", x.pod, x.topology_key, x.value),
        Goal::Pending(x) => match &x.message {
            Some(m) => format!("pod {} stays Pending, its FailedScheduling message saying {m:?}", x.pod),
            None => format!("pod {} stays Pending", x.pod),
        },
        Goal::Preempted(x) => format!("pod {} is preempted", x.pod),
        Goal::Preempts(x) => format!("pod {} preempts exactly {} pod{}", x.pod, x.count, if x.count == 1 { "" } else { "s" }),
        Goal::Spread(x) => format!("{} spread over {} with skew at most {}", selector_text(&x.selector), x.topology_key, x.max_skew),
        Goal::OnePerNode(x) => format!("no node runs two of {}", selector_text(&x.selector)),
        Goal::NodesUsed(x) => {
            let of = x.selector.as_ref().map(|s| format!(" by {}", selector_text(s))).unwrap_or_default();
            format!("{} nodes used{of}", bounds_text(x.at_least, x.at_most))
        }
        Goal::BoundBy(x) => format!("{} bound by {}", selector_text(&x.selector), x.time),
        Goal::PluginEnabled(x) => format!(
            "{} enabled{}{}",
            x.plugin,
            x.point.as_ref().map(|p| format!(" at {p}")).unwrap_or_default(),
            profile_text(&x.profile)
        ),
        Goal::PluginDisabled(x) => format!(
            "{} not enabled{}{}",
            x.plugin,
            x.point.as_ref().map(|p| format!(" at {p}")).unwrap_or_default(),
            profile_text(&x.profile)
        ),
        Goal::ScoringStrategy(x) => format!("NodeResourcesFit scores with {}{}", x.kind, profile_text(&x.profile)),
        Goal::PluginWeight(x) => format!("{}'s score weight is {}{}", x.plugin, x.weight, profile_text(&x.profile)),
        Goal::Attempts(x) => {
            let n = x.at_most.or(x.at_least).unwrap_or(0);
            format!("pod {} is tried {} time{}", x.pod, bounds_text(x.at_least, x.at_most), if n == 1 { "" } else { "s" })
        }
    }
}

fn find<'r>(run: &'r RunFacts, pod: &str) -> Result<&'r PodFact, String> {
    let (ns, name) = pod.split_once('/').unwrap_or(("default", pod));
    run.pods
        .iter()
        .find(|p| p.namespace == ns && p.name == name)
        .ok_or_else(|| format!("there is no pod {pod} in the run"))
}

/// Where a pod is, in words: `runs on node-a`, `is Pending (0/3 nodes are available: …)`.
fn whereabouts(p: &PodFact) -> String {
    match (&p.node, p.phase) {
        (Some(n), "Running") => format!("runs on {n}"),
        (Some(n), phase) => format!("ran on {n} ({phase})"),
        (None, "Pending") => match &p.message {
            Some(m) => format!("is Pending: {m}"),
            None if p.attempts == 0 => "is Pending, never tried".to_string(),
            None => "is Pending".to_string(),
        },
        (None, "Deleted") if p.preempted => "was preempted".to_string(),
        (None, phase) => format!("is {phase}"),
    }
}

fn matching<'r>(run: &'r RunFacts, s: &LabelSelector) -> Vec<&'r PodFact> {
    let sel = Selector::from_label_selector(Some(s)).unwrap_or(Selector::Nothing);
    run.pods.iter().filter(|p| sel.matches(&p.labels)).collect()
}

fn running(p: &PodFact) -> bool {
    p.phase == "Running" && p.node.is_some()
}

fn profile<'r>(run: &'r RunFacts, name: &Option<String>) -> Result<&'r super::facts::ProfileFact, String> {
    match name {
        None => run.profiles.first().ok_or_else(|| "the configuration has no profile".to_string()),
        Some(n) => run.profiles.iter().find(|p| &p.scheduler_name == n).ok_or_else(|| {
            let names: Vec<&str> = run.profiles.iter().map(|p| p.scheduler_name.as_str()).collect();
            format!("there is no profile {n} (the profiles: {})", names.join(", "))
        }),
    }
}

fn verdict(g: &Goal, r: Result<(bool, String), String>) -> GoalVerdict {
    let (pass, reason) = r.unwrap_or_else(|e| (false, e));
    GoalVerdict {
        goal: describe(g),
        pass,
        reason,
    }
}

fn counted(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// The goal's verdict on the run, with the reason naming what it saw.
pub(super) fn evaluate(g: &Goal, run: &RunFacts) -> GoalVerdict {
    let r = match g {
        Goal::RunsOn(x) => find(run, &x.pod).map(|p| {
            let on = running(p) && p.node.as_deref() == Some(x.node.as_str());
            let tail = if on || !running(p) { String::new() } else { format!(", not on {}", x.node) };
            (on, format!("pod {} {}{tail}", x.pod, whereabouts(p)))
        }),
        Goal::NotOn(x) => match (&x.pod, &x.selector) {
            (Some(pod), _) => find(run, pod).map(|p| {
                let on = running(p) && p.node.as_deref() == Some(x.node.as_str());
                (!on, format!("pod {pod} {}", whereabouts(p)))
            }),
            (None, sel) => {
                let all = LabelSelector::default();
                let on: Vec<&str> = matching(run, sel.as_ref().unwrap_or(&all))
                    .into_iter()
                    .filter(|p| running(p) && p.node.as_deref() == Some(x.node.as_str()))
                    .map(|p| p.name.as_str())
                    .collect();
                Ok(match on.len() {
                    0 => (true, format!("node {} runs none of {}", x.node, selector_text(sel.as_ref().unwrap_or(&all)))),
                    _ => (false, format!("node {} runs {}", x.node, on.join(" and "))),
                })
            }
        },
        Goal::RunsIn(x) => find(run, &x.pod).map(|p| match p.node.as_deref().filter(|_| running(p)) {
            None => (false, format!("pod {} {}", x.pod, whereabouts(p))),
            Some(n) => {
                let v = run.nodes.iter().find(|(name, _)| name == n).and_then(|(_, l)| l.get(&x.topology_key));
                match v {
                    Some(v) => (v == &x.value, format!("pod {} runs on {n}, in {}={v}", x.pod, x.topology_key)),
                    None => (false, format!("pod {} runs on {n}, which has no label {}", x.pod, x.topology_key)),
                }
            }
        }),
        Goal::Pending(x) => find(run, &x.pod).map(|p| {
            if p.phase != "Pending" {
                return (false, format!("pod {} {}", x.pod, whereabouts(p)));
            }
            match (&x.message, &p.message) {
                (None, _) => (true, format!("pod {} {}", x.pod, whereabouts(p))),
                (Some(want), Some(m)) => (m.contains(want.as_str()), format!("pod {} is Pending: {m}", x.pod)),
                (Some(_), None) => (false, format!("pod {} is Pending without a FailedScheduling message", x.pod)),
            }
        }),
        Goal::Preempted(x) => find(run, &x.pod).map(|p| (p.preempted, format!("pod {} {}", x.pod, if p.preempted { "was preempted".to_string() } else { whereabouts(p) }))),
        Goal::Preempts(x) => find(run, &x.pod).map(|p| {
            let n = p.victims.len();
            let who = if n == 0 { String::new() } else { format!(" ({})", p.victims.join(", ")) };
            (n as u32 == x.count, format!("pod {}'s preemptions deleted {}{who}", x.pod, counted(n, "pod")))
        }),
        Goal::Spread(x) => {
            let mut domains: BTreeMap<&str, u32> = BTreeMap::new();
            for (_, l) in &run.nodes {
                if let Some(v) = l.get(&x.topology_key) {
                    domains.entry(v.as_str()).or_insert(0);
                }
            }
            let node_domain: BTreeMap<&str, &str> = crate::sort::map_of(run.nodes.iter().filter_map(|(n, l)| l.get(&x.topology_key).map(|v| (n.as_str(), v.as_str()))));
            let pods = matching(run, &x.selector);
            let mut pending = 0;
            for p in &pods {
                match p.node.as_deref().filter(|_| running(p)).and_then(|n| node_domain.get(n)) {
                    Some(d) => *domains.get_mut(d).expect("every node's domain is listed") += 1,
                    None if p.phase == "Pending" => pending += 1,
                    None => {}
                }
            }
            if domains.is_empty() {
                Ok((false, format!("no node has the label {}", x.topology_key)))
            } else {
                let max = domains.values().max().copied().unwrap_or(0);
                let min = domains.values().min().copied().unwrap_or(0);
                let counts: Vec<String> = domains.iter().map(|(d, n)| format!("{d}: {n}")).collect();
                let pend = if pending > 0 { format!("; {} Pending", counted(pending, "pod")) } else { String::new() };
                Ok((max - min <= x.max_skew && !pods.is_empty(), format!("{} per {}: {}; skew {}{pend}", selector_text(&x.selector), x.topology_key, counts.join(", "), max - min)))
            }
        }
        Goal::OnePerNode(x) => {
            let mut per: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for p in matching(run, &x.selector).into_iter().filter(|p| running(p)) {
                per.entry(p.node.as_deref().expect("running")).or_default().push(&p.name);
            }
            match per.iter().find(|(_, ps)| ps.len() > 1) {
                Some((n, ps)) => Ok((false, format!("node {n} runs {}", ps.join(" and ")))),
                None => Ok((true, format!("{} on {}, one each", counted(per.values().map(Vec::len).sum(), "pod"), counted(per.len(), "node")))),
            }
        }
        Goal::NodesUsed(x) => {
            let pods: Vec<&PodFact> = match &x.selector {
                Some(s) => matching(run, s),
                None => run.pods.iter().collect(),
            };
            let used: std::collections::BTreeSet<&str> = crate::sort::set_of(pods.iter().filter(|p| running(p)).filter_map(|p| p.node.as_deref()));
            let n = used.len() as u32;
            let ok = x.at_least.is_none_or(|l| n >= l) && x.at_most.is_none_or(|h| n <= h);
            let list: Vec<&str> = used.into_iter().collect();
            Ok((ok, format!("{} used: {}", counted(n as usize, "node"), if list.is_empty() { "none".into() } else { list.join(", ") })))
        }
        Goal::BoundBy(x) => {
            let t = schedlab_view::parse_go_duration(&x.time).unwrap_or(0) / 1_000_000;
            // Pods deleted by the end (evicted, preempted, deleted by a step) are gone.
            let pods: Vec<&PodFact> = matching(run, &x.selector).into_iter().filter(|p| p.phase != "Deleted").collect();
            if pods.is_empty() {
                Ok((false, format!("no pod matches {}", selector_text(&x.selector))))
            } else {
                let late: Vec<String> = pods
                    .iter()
                    .filter_map(|p| match (p.bound_at_ms, running(p) || p.node.is_some()) {
                        (Some(at), true) if at <= t => None,
                        (Some(at), true) => Some(format!("{} bound at {}", p.name, schedlab_view::format_go_duration(at * 1_000_000))),
                        _ => Some(format!("{} {}", p.name, whereabouts(p))),
                    })
                    .collect();
                match late.first() {
                    None => {
                        let last = pods.iter().filter_map(|p| p.bound_at_ms).max().unwrap_or(0);
                        let at = schedlab_view::format_go_duration(last * 1_000_000);
                        Ok((true, match pods.len() {
                            1 => format!("{} was bound at {at}", pods[0].name),
                            n => format!("all {n} pods bound, the last at {at}"),
                        }))
                    }
                    Some(first) => Ok((false, format!("{} of {} not bound by {}: {first}", late.len(), counted(pods.len(), "pod"), x.time))),
                }
            }
        }
        Goal::PluginEnabled(x) | Goal::PluginDisabled(x) => profile(run, &x.profile).map(|p| {
            let at: Vec<&str> = p.points.iter().filter(|(pt, ps)| x.point.as_deref().is_none_or(|w| w == *pt) && ps.contains(&x.plugin)).map(|(pt, _)| *pt).collect();
            let want = matches!(g, Goal::PluginEnabled(_));
            let said = if at.is_empty() {
                format!("{} is not enabled{} in profile {}", x.plugin, x.point.as_ref().map(|p| format!(" at {p}")).unwrap_or_default(), p.scheduler_name)
            } else {
                format!("{} is enabled at {} in profile {}", x.plugin, at.join(", "), p.scheduler_name)
            };
            (want != at.is_empty(), said)
        }),
        Goal::ScoringStrategy(x) => profile(run, &x.profile).map(|p| (p.scoring_strategy == x.kind, format!("NodeResourcesFit scores with {} in profile {}", p.scoring_strategy, p.scheduler_name))),
        Goal::PluginWeight(x) => profile(run, &x.profile).map(|p| match p.weights.get(&x.plugin).filter(|_| p.points.iter().any(|(pt, ps)| *pt == "Score" && ps.contains(&x.plugin))) {
            Some(w) => (*w == x.weight, format!("{}'s weight is {w} in profile {}", x.plugin, p.scheduler_name)),
            None => (false, format!("{} does not score in profile {}", x.plugin, p.scheduler_name)),
        }),
        Goal::Attempts(x) => find(run, &x.pod).map(|p| {
            let n = p.attempts;
            let ok = x.at_least.is_none_or(|l| n >= l) && x.at_most.is_none_or(|h| n <= h);
            (ok, format!("pod {} was tried {} and {}", x.pod, counted(n as usize, "time"), whereabouts(p)))
        }),
    };
    verdict(g, r)
}
