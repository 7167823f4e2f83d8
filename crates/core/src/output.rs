//! Views of a finished run: the conformance JSON schema and kubectl-describe-like text.

use crate::engine::{Engine, Phase};
use serde_json::{json, Map, Value};

/// The conformance schema (see tests/conformance/README.md; with a timeline or pod durations,
/// tests/conformance/timeline/README.md).
pub fn conformance_json(e: &Engine) -> Value {
    if e.timed {
        return timed_json(e);
    }
    let mut pods = Vec::new();
    let mut evicted = Vec::new();
    let mut scores = Map::new();
    for p in &e.pods {
        if p.evicted {
            evicted.push(Value::String(p.info.key.clone()));
        }
        pods.push(json!({
            "namespace": p.info.namespace(),
            "name": p.info.name(),
            // A finished (Succeeded/Failed) pod still names the node it ran on.
            "node": if p.phase == Phase::Running || p.phase.is_finished() { p.node.clone().map(Value::String).unwrap_or(Value::Null) } else { Value::Null },
            "nominatedNode": p.nominated_node.clone(),
            "message": p.message.clone(),
            "attempts": p.attempts,
            "evicted": p.evicted,
            "tiedNodes": if p.attempts > 0 && p.phase == Phase::Running { p.tied_nodes.clone() } else { vec![] },
        }));
        if let (Some(s), Phase::Running) = (&p.scores, p.phase) {
            if p.attempts > 0 {
                scores.insert(
                    p.info.key.clone(),
                    json!({
                        "node": p.node,
                        "feasibleNodes": s.feasible_nodes,
                        "evaluatedNodes": s.evaluated_nodes,
                        "final": s.totals,
                        "plugins": s.plugins,
                        "weights": s.weights,
                        "tiedNodes": s.tied,
                    }),
                );
            }
        }
    }
    let events: Vec<Value> = e
        .events
        .iter()
        .map(|ev| json!({"reason": ev.reason, "object": e.pods[ev.pod].info.key, "message": ev.message, "cycle": ev.cycle}))
        .collect();
    let cycles: Vec<Value> = e.cycles.iter().map(|&i| Value::String(e.pods[i].info.key.clone())).collect();
    let mut out = json!({
        "kubernetesVersion": e.config.features.version(),
        "pods": pods,
        "evicted": evicted,
        "scores": scores,
        "events": events,
        "cycles": cycles,
    });
    if e.cluster.dra.reported {
        out["claims"] = e.cluster.dra.claims_json();
    }
    out
}

/// The conformance schema of a run under the timeline rules: each pod's phase; `node` stays
/// the node the pod ran on; events carry their logical time; `evicted` lists preemption
/// victims only.
fn timed_json(e: &Engine) -> Value {
    let mut pods = Vec::new();
    let mut evicted = Vec::new();
    let mut scores = Map::new();
    for p in &e.pods {
        if p.evicted {
            evicted.push(Value::String(p.info.key.clone()));
        }
        let bound = p.ran_on.is_some() && p.attempts > 0;
        pods.push(json!({
            "namespace": p.info.namespace(),
            "name": p.info.name(),
            "node": p.ran_on,
            "phase": p.phase.as_str(),
            "nominatedNode": p.nominated_node,
            "message": p.message,
            "attempts": p.attempts,
            "evicted": p.evicted,
            "tiedNodes": if bound { p.tied_nodes.clone() } else { vec![] },
        }));
        if let (Some(s), true) = (&p.scores, bound) {
            scores.insert(
                p.info.key.clone(),
                json!({
                    "node": p.ran_on,
                    "attempt": p.attempts,
                    "feasibleNodes": s.feasible_nodes,
                    "evaluatedNodes": s.evaluated_nodes,
                    "final": s.totals,
                    "plugins": s.plugins,
                    "weights": s.weights,
                    "tiedNodes": s.tied,
                }),
            );
        }
    }
    let events: Vec<Value> = e
        .events
        .iter()
        .map(|ev| json!({"reason": ev.reason, "object": e.pods[ev.pod].info.key, "message": ev.message, "cycle": ev.cycle, "at": ev.at_ms}))
        .collect();
    let cycles: Vec<Value> = e.cycles.iter().map(|&i| Value::String(e.pods[i].info.key.clone())).collect();
    json!({
        "kubernetesVersion": e.config.features.version(),
        "pods": pods,
        "evicted": evicted,
        "events": events,
        "scores": scores,
        "cycles": cycles,
    })
}

/// Events per pod, like the Events section of `kubectl describe pod`.
pub fn describe_text(e: &Engine) -> String {
    let mut out = format!("Scheduled as kube-scheduler v{} would\n\n", e.config.features.version());
    for (i, p) in e.pods.iter().enumerate() {
        let on = p.ran_on.as_deref().unwrap_or("?");
        let status = match p.phase {
            Phase::Running if e.timed => format!("Running on {on}"),
            Phase::Succeeded | Phase::Failed if e.timed => format!("{} on {on}", p.phase.as_str()),
            Phase::Deleted if e.timed && p.evicted => format!("Deleted on {on} (preempted)"),
            Phase::Deleted if e.timed && p.ran_on.is_some() => format!("Deleted on {on}"),
            Phase::Deleted if e.timed => "Deleted".to_string(),
            Phase::Running => format!("Running on {}", p.node.as_deref().unwrap_or("?")),
            Phase::Pending => "Pending".to_string(),
            Phase::Succeeded | Phase::Failed => "Finished".to_string(),
            Phase::Deleted => "Deleted (preempted)".to_string(),
        };
        out.push_str(&format!("Pod {}  ({status})\n", p.info.key));
        if let Some(n) = &p.nominated_node {
            out.push_str(&format!("  Nominated node: {n}\n"));
        }
        let evs: Vec<_> = e.events.iter().filter(|ev| ev.pod == i).collect();
        if evs.is_empty() {
            out.push_str("  Events: <none>\n\n");
            continue;
        }
        out.push_str("  Events:\n    Type     Reason            Cycle  Message\n    ----     ------            -----  -------\n");
        for ev in evs {
            let ty = if ev.reason.is_warning() { "Warning" } else { "Normal" };
            out.push_str(&format!("    {:<8} {:<17} {:<6} {}\n", ty, ev.reason, ev.cycle, ev.message));
        }
        out.push('\n');
    }
    if e.timed {
        out.push_str(&timeline_text(e));
    }
    out
}

/// Under a timeline: everything in logical-time order, the cluster's changes between the pods'
/// events.
fn timeline_text(e: &Engine) -> String {
    use crate::trace::{ChangeCause, TraceEvent};
    let mut out = String::from("Timeline (logical time):\n");
    let mut t = 0i64;
    let secs = |ms: i64| format!("{}.{:03}s", ms / 1000, ms % 1000);
    let pod = |i: &u32| e.trace.header.pods.get(*i as usize).cloned().unwrap_or_default();
    for ev in &e.trace.events {
        match ev {
            TraceEvent::Clock { time_ms } | TraceEvent::CycleStart { time_ms, .. } => t = *time_ms,
            TraceEvent::Change {
                at_ms,
                cause,
                step,
                action,
                object,
                phase,
                skipped,
                by,
                ..
            } => {
                t = *at_ms;
                let what = match cause {
                    ChangeCause::Step => format!("step {}", step.map_or(0, |s| s + 1)),
                    ChangeCause::Finish => "duration".into(),
                    ChangeCause::Flush => "flush".into(),
                    ChangeCause::Api => "change".into(),
                    // The controller's kind names the line; its name follows the object.
                    ChangeCause::Controller => "controller".into(),
                };
                let mut line = format!("  {:>10}  {:<16} {action}", secs(t), what);
                if let Some(o) = object {
                    line.push_str(&format!(" {o}"));
                }
                if *cause == ChangeCause::Flush {
                    line.push_str(" (pods unschedulable for more than 5 minutes are retried)");
                }
                if let Some(p) = phase {
                    line.push_str(&format!(" ({p})"));
                }
                if let Some(b) = by {
                    line.push_str(&format!(" (by {b})"));
                }
                if let Some(why) = skipped {
                    line.push_str(&format!(" (skipped: {why})"));
                }
                out.push_str(&line);
                out.push('\n');
            }
            TraceEvent::KubeEvent {
                cycle,
                reason,
                pod: p,
                message,
            } => {
                out.push_str(&format!(
                    "  {:>10}  {:<16} {} (cycle {cycle}): {message}\n",
                    secs(t),
                    reason,
                    pod(p)
                ));
            }
            _ => {}
        }
    }
    out
}
