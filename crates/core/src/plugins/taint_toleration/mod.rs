//! TaintToleration: a node's NoSchedule/NoExecute taints must be tolerated (Filter); nodes with
//! fewer untolerated PreferNoSchedule taints score higher (Score + reversed normalization).

use crate::api::{Taint, Toleration};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, NodeScore, Plugin, PodInfo, Status, MAX_NODE_SCORE};
use crate::plugins::helper::{default_normalize_score, find_untolerated_taint, tolerations_tolerate_taint};
use crate::version::{Features, TaintFilterReason};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};

const EFFECT_NO_SCHEDULE: &str = "NoSchedule";
const EFFECT_NO_EXECUTE: &str = "NoExecute";
const EFFECT_PREFER_NO_SCHEDULE: &str = "PreferNoSchedule";

/// The taints Filter enforces.
fn is_do_not_schedule(t: &Taint) -> bool {
    t.effect == EFFECT_NO_SCHEDULE || t.effect == EFFECT_NO_EXECUTE
}

fn first_untolerated<'a>(taints: &'a [Taint], tols: &[Toleration]) -> Option<&'a Taint> {
    find_untolerated_taint(taints, tols, is_do_not_schedule)
}

/// The pod's tolerations that can apply to PreferNoSchedule taints (that effect or any effect).
#[derive(Clone, Debug)]
struct PreScoreState {
    tolerations: Vec<Toleration>,
}

fn count_intolerable_prefer_no_schedule(taints: &[Taint], tols: &[Toleration]) -> i64 {
    taints
        .iter()
        .filter(|t| t.effect == EFFECT_PREFER_NO_SCHEDULE && !tolerations_tolerate_taint(tols, t))
        .count() as i64
}

pub struct TaintToleration {
    /// How the version words a rejected node (`version::Behaviour::taint_filter_reason`).
    reason: TaintFilterReason,
}

impl TaintToleration {
    pub fn new(features: &Features) -> TaintToleration {
        TaintToleration {
            reason: features.behaviour().taint_filter_reason,
        }
    }
}

impl Plugin for TaintToleration {
    fn name(&self) -> PluginName {
        PluginName::TaintToleration
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::hinted(EventResource::Node, ActionType::ADD.union(ActionType::UPDATE_NODE_TAINT)),
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::UPDATE_POD_TOLERATION),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        let tols = &pod.pod.spec.tolerations;
        match (event.resource, obj) {
            (EventResource::Node, EventObject::Node { old, new: Some(new) }) => {
                // Only a change from "some taint untolerated" (or no node) to "all tolerated" helps.
                let was_untolerated = old.as_ref().is_none_or(|o| first_untolerated(&o.spec.taints, tols).is_some());
                let is_untolerated = first_untolerated(&new.spec.taints, tols).is_some();
                Ok(if was_untolerated && !is_untolerated {
                    QueueingHint::Queue
                } else {
                    QueueingHint::Skip
                })
            }
            (_, EventObject::Pod { new: Some(modified), .. }) => Ok(if modified.uid == pod.uid {
                QueueingHint::Queue
            } else {
                QueueingHint::Skip
            }),
            _ => Err(format!("unexpected object for event {}", event.label())),
        }
    }

    fn filter(&self, _cx: &Ctx, _state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        match (first_untolerated(node.taints(), &pod.pod.spec.tolerations), self.reason) {
            (None, _) => Status::success(),
            (Some(t), TaintFilterReason::NamesTheTaint) => Status::unresolvable(format!(
                "node(s) had untolerated taint {{{}: {}}}",
                t.key,
                t.value.as_deref().unwrap_or("")
            )),
            (Some(_), TaintFilterReason::Generic) => Status::unresolvable("node(s) had untolerated taint(s)"),
        }
    }

    fn filter_nodes(&self, cx: &Ctx, state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut [Option<Status>]) -> bool {
        // A node without taints passes whatever the pod tolerates.
        let mut wrote = false;
        for (node, o) in nodes.iter().zip(out.iter_mut()) {
            if o.is_none() && node.has_taints() {
                let s = self.filter(cx, state, pod, node);
                if !s.is_success() {
                    *o = Some(s);
                    wrote = true;
                }
            }
        }
        wrote
    }

    fn pre_score(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo, _nodes: &[&NodeInfo]) -> Status {
        let tolerations = pod
            .pod
            .spec
            .tolerations
            .iter()
            .filter(|t| t.effect.as_deref().is_none_or(|e| e.is_empty() || e == EFFECT_PREFER_NO_SCHEDULE))
            .cloned()
            .collect();
        state.write(PluginName::TaintToleration, PreScoreState { tolerations });
        Status::success()
    }

    fn score(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let s = state
            .read::<PreScoreState>(PluginName::TaintToleration)
            .ok_or_else(|| Status::error("failed to read \"PreScoreTaintToleration\" from cycleState: not found"))?;
        Ok(count_intolerable_prefer_no_schedule(node.taints(), &s.tolerations))
    }

    fn score_nodes(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, nodes: &[&NodeInfo], out: &mut Vec<i64>) -> Result<(), Status> {
        let s = state
            .read::<PreScoreState>(PluginName::TaintToleration)
            .ok_or_else(|| Status::error("failed to read \"PreScoreTaintToleration\" from cycleState: not found"))?;
        // Most nodes have no taints: their count is 0 without a look at the tolerations.
        out.extend(nodes.iter().map(|n| {
            if !n.has_taints() {
                0
            } else {
                count_intolerable_prefer_no_schedule(n.taints(), &s.tolerations)
            }
        }));
        Ok(())
    }

    fn has_normalize_score(&self) -> bool {
        true
    }

    fn normalize_score(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        default_normalize_score(MAX_NODE_SCORE, true, scores);
        Status::success()
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::TaintToleration,
    points: ExtensionPoints::of(&[Ep::Filter, Ep::PreScore, Ep::Score, Ep::EnqueueExtensions]),
    short: "Taints",
    args: None,
    new: |_, features| Box::new(TaintToleration::new(features)),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Code;
    use crate::plugins::testing::{Env, MakeNode, MakePod};
    use std::sync::Arc;

    /// The plugin as v1.34.1 words its Filter reason.
    const TT: TaintToleration = TaintToleration {
        reason: TaintFilterReason::NamesTheTaint,
    };

    /// kubernetes#134740 (v1.35): the Filter reason no longer names the taint, so one reason
    /// counts every node a taint rejects, whichever taint it is.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_reason_is_generic_from_v1_35_kubernetes_134740() {
        use crate::version::{Features, KubeVersion};
        let cases = [
            (KubeVersion::V1_34, "dedicated", "node(s) had untolerated taint {dedicated: gpu}"),
            (KubeVersion::V1_35, "dedicated", "node(s) had untolerated taint(s)"),
            (KubeVersion::V1_35, "other", "node(s) had untolerated taint(s)"),
        ];
        for (version, key, want) in cases {
            let env = Env::new(vec![MakeNode::new("n").taint(key, "gpu", "NoSchedule").obj()], vec![]);
            let plugin = TaintToleration::new(&Features::new(version));
            let s = plugin.filter(&env.cx(), &CycleState::new(), &MakePod::new("p").info(), env.node("n"));
            assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{version} {key}");
            assert_eq!(s.message(), want, "{version} {key}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter() {
        let cases = [
            ("no taints", MakePod::new("p"), MakeNode::new("n"), None),
            (
                "untolerated NoSchedule",
                MakePod::new("p"),
                MakeNode::new("n").taint("dedicated", "gpu", "NoSchedule"),
                Some("node(s) had untolerated taint {dedicated: gpu}"),
            ),
            (
                "value-less NoExecute",
                MakePod::new("p"),
                MakeNode::new("n").taint("maintenance", "", "NoExecute"),
                Some("node(s) had untolerated taint {maintenance: }"),
            ),
            (
                "PreferNoSchedule is not enforced",
                MakePod::new("p"),
                MakeNode::new("n").taint("soft", "x", "PreferNoSchedule"),
                None,
            ),
            (
                "tolerated with Equal",
                MakePod::new("p").toleration("dedicated", "Equal", "gpu", "NoSchedule"),
                MakeNode::new("n").taint("dedicated", "gpu", "NoSchedule"),
                None,
            ),
            (
                "wrong value",
                MakePod::new("p").toleration("dedicated", "Equal", "ml", "NoSchedule"),
                MakeNode::new("n").taint("dedicated", "gpu", "NoSchedule"),
                Some("node(s) had untolerated taint {dedicated: gpu}"),
            ),
            (
                "first untolerated taint is reported",
                MakePod::new("p").toleration("a", "Exists", "", ""),
                MakeNode::new("n")
                    .taint("a", "1", "NoSchedule")
                    .taint("soft", "", "PreferNoSchedule")
                    .taint("b", "2", "NoExecute")
                    .taint("c", "3", "NoSchedule"),
                Some("node(s) had untolerated taint {b: 2}"),
            ),
        ];
        for (name, pod, node, want) in cases {
            let env = Env::new(vec![node.obj()], vec![]);
            let s = TT.filter(&env.cx(), &CycleState::new(), &pod.info(), env.node("n"));
            match want {
                None => assert!(s.is_success(), "{name}: {s:?}"),
                Some(msg) => {
                    assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
                    assert_eq!(s.message(), msg, "{name}");
                }
            }
        }
    }

    fn run_scores(pod: MakePod, nodes: Vec<MakeNode>) -> (Vec<i64>, Vec<i64>) {
        let env = Env::new(nodes.into_iter().map(|n| n.obj()).collect(), vec![]);
        let pod = pod.info();
        let cx = env.cx();
        let mut state = CycleState::new();
        let infos: Vec<&NodeInfo> = env.snapshot.nodes().iter().collect();
        assert!(TT.pre_score(&cx, &mut state, &pod, &infos).is_success());
        let mut scores: Vec<NodeScore> = infos
            .iter()
            .enumerate()
            .map(|(i, n)| NodeScore {
                node: i,
                score: TT.score(&cx, &state, &pod, n).unwrap(),
            })
            .collect();
        let raw = scores.iter().map(|s| s.score).collect();
        assert!(TT.normalize_score(&cx, &state, &pod, &mut scores).is_success());
        (raw, scores.iter().map(|s| s.score).collect())
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score() {
        let cases = [
            (
                "no taints anywhere",
                MakePod::new("p"),
                vec![MakeNode::new("a"), MakeNode::new("b")],
                vec![0, 0],
                vec![100, 100],
            ),
            (
                "count untolerated PreferNoSchedule taints",
                MakePod::new("p").toleration("t1", "Equal", "v", "PreferNoSchedule"),
                vec![
                    MakeNode::new("a").taint("t1", "v", "PreferNoSchedule"),
                    MakeNode::new("b").taint("t2", "v", "PreferNoSchedule"),
                    MakeNode::new("c")
                        .taint("t2", "v", "PreferNoSchedule")
                        .taint("t3", "", "PreferNoSchedule")
                        .taint("t4", "v", "PreferNoSchedule"),
                ],
                vec![0, 1, 3],
                vec![100, 67, 0],
            ),
            (
                "NoSchedule taints and NoSchedule-only tolerations do not count",
                MakePod::new("p").toleration("t1", "Exists", "", "NoSchedule"),
                vec![
                    MakeNode::new("a").taint("t1", "v", "NoSchedule"),
                    MakeNode::new("b").taint("t1", "v", "PreferNoSchedule"),
                ],
                vec![0, 1],
                vec![100, 0],
            ),
            (
                "effect-less toleration applies",
                MakePod::new("p").toleration("t1", "Exists", "", ""),
                vec![MakeNode::new("a").taint("t1", "v", "PreferNoSchedule"), MakeNode::new("b")],
                vec![0, 0],
                vec![100, 100],
            ),
        ];
        for (name, pod, nodes, want_raw, want_norm) in cases {
            let (raw, norm) = run_scores(pod, nodes);
            assert_eq!(raw, want_raw, "{name}");
            assert_eq!(norm, want_norm, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score_without_pre_score_errors() {
        let env = Env::new(vec![MakeNode::new("a").obj()], vec![]);
        let r = TT.score(&env.cx(), &CycleState::new(), &MakePod::new("p").info(), env.node("a"));
        assert_eq!(r.unwrap_err().code, Code::Error);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_hints() {
        let env = Env::new(vec![], vec![]);
        let pod = MakePod::new("p").toleration("ok", "Exists", "", "").info();
        let ev = ClusterEvent::new(EventResource::Node, ActionType::UPDATE_NODE_TAINT);
        let plain = || Arc::new(MakeNode::new("n").obj());
        let tainted = |k: &str, e: &str| Arc::new(MakeNode::new("n").taint(k, "", e).obj());
        let cases = [
            ("new untainted node", None, plain(), QueueingHint::Queue),
            (
                "new node with an untolerated taint",
                None,
                tainted("bad", "NoSchedule"),
                QueueingHint::Skip,
            ),
            (
                "new node with a tolerated taint",
                None,
                tainted("ok", "NoSchedule"),
                QueueingHint::Queue,
            ),
            (
                "untolerated taint removed",
                Some(tainted("bad", "NoExecute")),
                plain(),
                QueueingHint::Queue,
            ),
            (
                "untolerated taint added",
                Some(plain()),
                tainted("bad", "NoSchedule"),
                QueueingHint::Skip,
            ),
            (
                "was already fine",
                Some(plain()),
                tainted("soft", "PreferNoSchedule"),
                QueueingHint::Skip,
            ),
        ];
        for (name, old, new, want) in cases {
            let obj = EventObject::Node { old, new: Some(new) };
            assert_eq!(TT.queueing_hint(&env.cx(), &pod, ev, &obj), Ok(want), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_hints() {
        let env = Env::new(vec![], vec![]);
        let pod = MakePod::new("p").info();
        let ev = ClusterEvent::new(EventResource::Pod, ActionType::UPDATE_POD_TOLERATION);
        let cases = [("same pod", "p", QueueingHint::Queue), ("other pod", "q", QueueingHint::Skip)];
        for (name, modified, want) in cases {
            let obj = EventObject::Pod {
                old: None,
                new: Some(MakePod::new(modified).arc()),
            };
            assert_eq!(TT.queueing_hint(&env.cx(), &pod, ev, &obj), Ok(want), "{name}");
        }
    }
}
