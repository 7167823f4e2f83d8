//! NodeResourcesBalancedAllocation: favours nodes whose resource usage fractions (after placing
//! the pod) are close to each other, scoring `(1 - standard deviation) * 100`.

pub mod args;

use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, Status, MAX_NODE_SCORE};
use crate::plugins::resource_allocation::ResourceAllocationScorer;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::NodeResourcesBalancedAllocationArgs;
use std::borrow::Cow;
use std::sync::Arc;

pub struct BalancedAllocation {
    scorer: ResourceAllocationScorer,
}

/// The pod's request per configured resource, computed at PreScore.
#[derive(Clone, Debug)]
struct PreScoreState {
    pod_requests: Arc<Vec<i64>>,
}

impl BalancedAllocation {
    /// The pod's requests as Score reads them: PreScore's, or computed when PreScore did not run
    /// (an explanation scoring one node); `None` for a best-effort pod computed so, which
    /// scores 0 everywhere (PreScore skips this plugin for one).
    fn score_requests<'a>(&self, state: &'a CycleState, pod: &PodInfo) -> Option<Cow<'a, [i64]>> {
        match state.read::<PreScoreState>(PluginName::NodeResourcesBalancedAllocation) {
            Some(s) => Some(Cow::Borrowed(&s.pod_requests[..])),
            None => {
                let computed = self.scorer.pod_request_list(pod);
                (!ResourceAllocationScorer::is_best_effort(&computed)).then_some(Cow::Owned(computed))
            }
        }
    }

    pub fn new(args: &NodeResourcesBalancedAllocationArgs) -> BalancedAllocation {
        BalancedAllocation {
            // Actual requests (no 100m/200Mi defaults), pod-level resources honoured.
            scorer: ResourceAllocationScorer::new(&args.resources, true, true),
        }
    }
}

/// Upstream balancedResourceScorer, in the same float64 operations and order so the truncated
/// result matches bit for bit.
fn balanced_resource_score(requested: &[i64], allocatable: &[i64]) -> i64 {
    // At most a handful of resources: keep the fractions on the stack when possible.
    let mut inline = [0f64; 8];
    let mut heap: Vec<f64> = Vec::new();
    let mut count = 0usize;
    let mut total = 0f64;
    for i in 0..requested.len() {
        if allocatable[i] == 0 {
            continue;
        }
        let mut fraction = requested[i] as f64 / allocatable[i] as f64;
        if fraction > 1.0 {
            fraction = 1.0;
        }
        total += fraction;
        if count < inline.len() {
            inline[count] = fraction;
        } else {
            if heap.is_empty() {
                heap.extend_from_slice(&inline);
            }
            heap.push(fraction);
        }
        count += 1;
    }
    let fractions: &[f64] = if count <= inline.len() { &inline[..count] } else { &heap };
    let std = match fractions.len() {
        0 | 1 => 0.0,
        // With two resources the deviation is half their distance.
        2 => ((fractions[0] - fractions[1]) / 2.0).abs(),
        n => {
            let mean = total / n as f64;
            let mut sum = 0f64;
            for &f in fractions {
                sum += (f - mean) * (f - mean);
            }
            (sum / n as f64).sqrt()
        }
    };
    ((1.0 - std) * MAX_NODE_SCORE as f64) as i64
}

/// `balanced_resource_score` over the two resources of the cpu-and-memory configuration, for
/// the per-node loop: the same float64 operations, without the general case's buffers.
#[inline(always)]
fn balanced_resource_score2(requested: [i64; 2], allocatable: [i64; 2]) -> i64 {
    let fraction = |i: usize| {
        let f = requested[i] as f64 / allocatable[i] as f64;
        if f > 1.0 {
            1.0
        } else {
            f
        }
    };
    let std = if allocatable[0] != 0 && allocatable[1] != 0 {
        ((fraction(0) - fraction(1)) / 2.0).abs()
    } else {
        // One fraction or none: no deviation.
        0.0
    };
    ((1.0 - std) * MAX_NODE_SCORE as f64) as i64
}

impl Plugin for BalancedAllocation {
    fn name(&self) -> PluginName {
        PluginName::NodeResourcesBalancedAllocation
    }

    fn pre_score(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo, _nodes: &[&NodeInfo]) -> Status {
        let reqs = self.scorer.pod_request_list(pod);
        // A pod requesting none of the resources cannot unbalance anything.
        if ResourceAllocationScorer::is_best_effort(&reqs) {
            return Status::skip();
        }
        state.write(
            PluginName::NodeResourcesBalancedAllocation,
            PreScoreState {
                pod_requests: Arc::new(reqs),
            },
        );
        Status::success()
    }

    fn score(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        match self.score_requests(state, pod) {
            Some(reqs) => self.scorer.score(node, &reqs, balanced_resource_score),
            None => Ok(0),
        }
    }

    fn score_nodes(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut Vec<i64>) -> Result<(), Status> {
        match self.score_requests(state, pod) {
            Some(reqs) => self.scorer.score_nodes(nodes, &reqs, out, balanced_resource_score, balanced_resource_score2),
            None => {
                out.extend(nodes.iter().map(|_| 0));
                Ok(())
            }
        }
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::NodeResourcesBalancedAllocation,
    points: ExtensionPoints::of(&[Ep::PreScore, Ep::Score]),
    short: "Balanced",
    args: Some(&args::CODEC),
    new: |args, _| {
        Box::new(BalancedAllocation::new(
            &args.get_or_default::<NodeResourcesBalancedAllocationArgs>(),
        ))
    },
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
#[allow(clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::framework::args_codec::ResourceSpec;
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    fn args(names: &[&str]) -> NodeResourcesBalancedAllocationArgs {
        NodeResourcesBalancedAllocationArgs {
            resources: names
                .iter()
                .map(|n| ResourceSpec {
                    name: n.to_string(),
                    weight: 1,
                })
                .collect(),
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn scores() {
        let cm = &["cpu", "memory"];
        let cases: Vec<(&str, &[&str], Vec<(&str, &str)>, Vec<crate::api::Pod>, PodInfo, i64)> = vec![
            // 0.75 and 0.5: std 0.125.
            (
                "two resources",
                cm,
                vec![("cpu", "4"), ("memory", "10000")],
                vec![],
                MakePod::new("p").req(&[("cpu", "3"), ("memory", "5000")]).info(),
                87,
            ),
            // 0.6 and 0.8: (1 - 0.1) * 100 is 89.99999999999999 in float64, truncated to 89.
            (
                "float truncation",
                cm,
                vec![("cpu", "5"), ("memory", "5")],
                vec![],
                MakePod::new("p").req(&[("cpu", "3"), ("memory", "4")]).info(),
                89,
            ),
            (
                "requests of pods already there (not their defaults) count",
                cm,
                vec![("cpu", "10"), ("memory", "10")],
                vec![
                    MakePod::new("r").node("n").req(&[("cpu", "6")]).obj(),
                    MakePod::new("be").node("n").image("x").obj(),
                ],
                MakePod::new("p").req(&[("cpu", "1"), ("memory", "1")]).info(),
                // 0.7 and 0.1: std 0.3.
                70,
            ),
            (
                "fractions are capped at one",
                cm,
                vec![("cpu", "10"), ("memory", "10")],
                vec![],
                MakePod::new("p").req(&[("cpu", "12"), ("memory", "2")]).info(),
                60,
            ),
            (
                "three resources: population standard deviation",
                &["cpu", "memory", "ephemeral-storage"],
                vec![("cpu", "4"), ("memory", "10000"), ("ephemeral-storage", "10")],
                vec![],
                MakePod::new("p")
                    .req(&[("cpu", "3"), ("memory", "5000"), ("ephemeral-storage", "1")])
                    .info(),
                73,
            ),
            (
                "resource missing on the node is left out",
                &["cpu", "memory", "example.com/foo"],
                vec![("cpu", "4"), ("memory", "10000")],
                vec![],
                MakePod::new("p")
                    .req(&[("cpu", "3"), ("memory", "5000"), ("example.com/foo", "1")])
                    .info(),
                87,
            ),
            (
                "a single resource is perfectly balanced",
                &["cpu"],
                vec![("cpu", "4")],
                vec![],
                MakePod::new("p").req(&[("cpu", "3")]).info(),
                100,
            ),
        ];
        for (name, res, cap, pods, pod, want) in cases {
            let env = Env::new(vec![MakeNode::new("n").capacity(&cap).obj()], pods);
            let pl = BalancedAllocation::new(&args(res));
            let mut state = CycleState::new();
            let nodes = [env.node("n")];
            assert!(pl.pre_score(&env.cx(), &mut state, &pod, &nodes).is_success(), "{name}");
            assert_eq!(pl.score(&env.cx(), &state, &pod, nodes[0]).unwrap(), want, "{name}");
            assert_eq!(pl.score(&env.cx(), &CycleState::new(), &pod, nodes[0]).unwrap(), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn two_resource_score_is_the_general_one() {
        let values = [0, 1, 3, 7, 99, 100, 4000, 4001, 1 << 31, 3 << 40, i64::MAX / 1000];
        for &a0 in &values {
            for &a1 in &values {
                for &r0 in &values {
                    for &r1 in &values {
                        let (r, a) = ([r0, r1], [a0, a1]);
                        assert_eq!(balanced_resource_score2(r, a), balanced_resource_score(&r, &a), "{r:?} {a:?}");
                    }
                }
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn best_effort_pods_skip() {
        let env = Env::new(vec![MakeNode::new("n").capacity(&[("cpu", "4"), ("memory", "1Gi")]).obj()], vec![]);
        let pl = BalancedAllocation::new(&NodeResourcesBalancedAllocationArgs::default());
        let nodes = [env.node("n")];
        for (pod, skip) in [
            (MakePod::new("be").image("x").info(), true),
            (MakePod::new("gpu").req(&[("example.com/gpu", "1")]).info(), true),
            (MakePod::new("cpu").req(&[("cpu", "1")]).info(), false),
        ] {
            let mut state = CycleState::new();
            assert_eq!(pl.pre_score(&env.cx(), &mut state, &pod, &nodes).is_skip(), skip, "{}", pod.name());
            if skip {
                assert_eq!(pl.score(&env.cx(), &state, &pod, nodes[0]).unwrap(), 0);
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn many_resources_spill_to_the_heap() {
        let req: Vec<i64> = (1..=10).collect();
        let alloc = vec![10i64; 10];
        // Fractions 0.1..1.0: mean 0.55, population variance 0.0825.
        let want = ((1.0 - (0.0825f64).sqrt()) * 100.0) as i64;
        assert_eq!(balanced_resource_score(&req, &alloc), want);
        assert_eq!(balanced_resource_score(&[], &[]), 100);
    }
}
