//! The facts of a finished run the goals read: each pod's final state (phase, node, attempts,
//! last FailedScheduling message, whether it was preempted, when it was bound, whom its
//! preemptions deleted), the nodes at the end with their labels, and each profile's effective
//! plugins, weights and scoring strategy. Taken from the engine's own record (its pods, its
//! Kubernetes events and its effective configuration), never recomputed.

use super::CheckOptions;
use crate::api::Labels;
use crate::engine::{Engine, EngineOptions, Phase};
use crate::plugins::node_resources_fit::args::NodeResourcesFitArgs;
use crate::trace::Detail;
use schedlab_view::EventReason;
use crate::vocabulary::ExtensionPoint;
use std::collections::BTreeMap;

/// What a finished run left (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunFacts {
    pub pods: Vec<PodFact>,
    /// The nodes at the end of the run, in the scenario's order.
    pub nodes: Vec<(String, Labels)>,
    pub profiles: Vec<ProfileFact>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodFact {
    pub namespace: String,
    pub name: String,
    pub labels: Labels,
    /// `Pending`, `Running`, `Succeeded`, `Failed` or `Deleted`.
    pub phase: &'static str,
    /// The node it runs on (or ran on, when it finished).
    pub node: Option<String>,
    pub attempts: u32,
    /// The last FailedScheduling message.
    pub message: Option<String>,
    /// Deleted as a preemption victim.
    pub preempted: bool,
    /// Logical time of its last binding, ms (0 for a pod bound in the file).
    pub bound_at_ms: Option<i64>,
    /// The `namespace/name` of the pods its preemptions deleted.
    pub victims: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileFact {
    pub scheduler_name: String,
    /// Each extension point's plugins, in the order they run.
    pub points: Vec<(&'static str, Vec<String>)>,
    /// Score plugins' weights.
    pub weights: BTreeMap<String, i32>,
    /// NodeResourcesFit's scoring strategy type.
    pub scoring_strategy: String,
}

impl RunFacts {
    /// The facts of the engine's run so far (read once it is finished).
    pub fn from_engine(e: &Engine) -> RunFacts {
        let mut pods: Vec<PodFact> = e
            .pods()
            .iter()
            .map(|p| {
                let node = match p.phase {
                    Phase::Running => p.node.clone(),
                    Phase::Succeeded | Phase::Failed => p.ran_on.clone().or(p.node.clone()),
                    _ => None,
                };
                PodFact {
                    namespace: p.info.namespace().to_string(),
                    name: p.info.name().to_string(),
                    labels: p.info.pod.metadata.labels.clone(),
                    phase: p.phase.as_str(),
                    bound_at_ms: (p.attempts == 0 && node.is_some()).then_some(0),
                    node,
                    attempts: p.attempts,
                    message: p.message.clone(),
                    preempted: p.evicted,
                    victims: Vec::new(),
                }
            })
            .collect();
        let mut victims: Vec<(usize, String)> = Vec::new();
        for ev in e.events() {
            match ev.reason {
                EventReason::Scheduled => pods[ev.pod].bound_at_ms = Some(ev.at_ms),
                EventReason::Preempted => {
                    if let Some(by) = ev.preemptor {
                        victims.push((by, e.pods()[ev.pod].info.key.clone()));
                    }
                }
                _ => {}
            }
        }
        for (i, v) in victims {
            pods[i].victims.push(v);
        }
        let nodes = e.snapshot().nodes().iter().map(|n| (n.node.metadata.name.clone(), n.node.metadata.labels.clone())).collect();
        let profiles = e
            .config()
            .profiles
            .iter()
            .map(|p| ProfileFact {
                scheduler_name: p.scheduler_name.clone(),
                points: ExtensionPoint::CONFIGURABLE
                    .iter()
                    .map(|&pt| (pt.as_str(), p.plugins.list(pt).iter().map(|n| n.as_str().to_string()).collect()))
                    .collect(),
                weights: crate::sort::map_of(p.weights.iter().map(|(n, w)| (n.as_str().to_string(), *w))),
                scoring_strategy: format!("{:?}", p.args.get_or_default::<NodeResourcesFitArgs>().scoring_strategy.kind),
            })
            .collect();
        RunFacts { pods, nodes, profiles }
    }

    /// Runs a loaded scenario as `schedlab run` does (the controllers first, and reacting under
    /// a timeline, when asked) and returns its facts.
    pub fn run(mut sc: crate::Scenario, opts: CheckOptions) -> RunFacts {
        let mut ctl = None;
        if opts.controllers {
            let mut c = crate::controllers::Controllers::new(opts.seed);
            c.reconcile(&mut sc);
            ctl = Some(c);
        }
        let mut e = Engine::new(sc, EngineOptions { seed: opts.seed, detail: Detail::None });
        if let Some(c) = ctl {
            e.enable_controllers(c);
        }
        e.run();
        RunFacts::from_engine(&e)
    }
}
