//! The scoring machinery NodeResourcesFit and NodeResourcesBalancedAllocation share (upstream's
//! noderesources/resource_allocation.go): the pod's request per configured resource, and for a
//! node the (allocatable, requested-after-placing-the-pod) pair of each resource, handed to a
//! strategy-specific combiner.

use crate::api::ResourceList;
use crate::framework::args_codec::ResourceSpec;
use crate::framework::{
    is_scalar_resource_name, pod_requests_with, NodeInfo, PodInfo, Status, DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST, RESOURCE_CPU,
    RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY,
};
use crate::quantity::Quantity;

/// How a configured resource name is looked up on a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Cpu,
    Memory,
    EphemeralStorage,
    /// Any other name; `scalar` records whether upstream counts it as a scalar resource (a
    /// scalar resource the pod does not request is left out of the score).
    Other {
        scalar: bool,
    },
}

/// One entry of the plugin's `resources` list, resolved once at construction.
#[derive(Clone, Debug)]
pub struct ScoredResource {
    pub name: String,
    pub weight: i64,
    kind: Kind,
}

/// Up to this many resources are scored without a heap allocation per node.
const INLINE: usize = 8;

/// Shared state of the two resource scoring plugins.
#[derive(Clone, Debug)]
pub struct ResourceAllocationScorer {
    pub resources: Vec<ScoredResource>,
    /// Score on the node's actual requests and the pod's plain requests (BalancedAllocation);
    /// otherwise cpu and memory use the non-zero (defaulted) requests (Fit).
    pub use_requested: bool,
    /// Whether the pod's request honours pod-level `spec.resources` (upstream only turns the
    /// PodLevelResources gate on for BalancedAllocation's scorer, not for Fit's).
    pub pod_level_resources: bool,
}

impl ResourceAllocationScorer {
    pub fn new(specs: &[ResourceSpec], use_requested: bool, pod_level_resources: bool) -> ResourceAllocationScorer {
        let resources = specs
            .iter()
            .map(|s| ScoredResource {
                name: s.name.clone(),
                weight: s.weight,
                kind: match s.name.as_str() {
                    RESOURCE_CPU => Kind::Cpu,
                    RESOURCE_MEMORY => Kind::Memory,
                    RESOURCE_EPHEMERAL_STORAGE => Kind::EphemeralStorage,
                    n => Kind::Other {
                        scalar: is_scalar_resource_name(n),
                    },
                },
            })
            .collect();
        ResourceAllocationScorer {
            resources,
            use_requested,
            pod_level_resources,
        }
    }

    /// The pod's request for each configured resource, in the configured order (cpu in
    /// millicores, everything else in units). Without `use_requested`, containers that request
    /// no cpu/memory count as 100m / 200Mi.
    pub fn pod_request_list(&self, pod: &PodInfo) -> Vec<i64> {
        // Without pod-level resources, the precomputed accounting already holds these values:
        // the plain requests (`resource`) and the requests with the 100m / 200Mi defaults
        // (`non0_*`), computed by the same aggregation.
        if !crate::framework::pod_level_requests_set(&pod.pod) {
            let fast: Option<Vec<i64>> = self
                .resources
                .iter()
                .map(|r| match r.kind {
                    Kind::Cpu => Some(if self.use_requested {
                        pod.resource.resource.milli_cpu
                    } else {
                        pod.resource.non0_cpu
                    }),
                    Kind::Memory => Some(if self.use_requested {
                        pod.resource.resource.memory
                    } else {
                        pod.resource.non0_mem
                    }),
                    Kind::EphemeralStorage => Some(pod.resource.resource.ephemeral_storage),
                    Kind::Other { scalar: true } => Some(pod.resource.resource.scalar(&r.name)),
                    Kind::Other { scalar: false } => None,
                })
                .collect();
            if let Some(v) = fast {
                debug_assert_eq!(v, self.pod_request_list_slow(pod), "fast request list differs");
                return v;
            }
        }
        self.pod_request_list_slow(pod)
    }

    fn pod_request_list_slow(&self, pod: &PodInfo) -> Vec<i64> {
        let defaults: ResourceList;
        let non_missing = if self.use_requested {
            None
        } else {
            defaults = ResourceList::from([
                (RESOURCE_CPU.to_string(), Quantity::from_milli(DEFAULT_MILLI_CPU_REQUEST)),
                (RESOURCE_MEMORY.to_string(), Quantity::from_value(DEFAULT_MEMORY_REQUEST)),
            ]);
            Some(&defaults)
        };
        let reqs = pod_requests_with(&pod.pod, non_missing, !self.pod_level_resources);
        self.resources
            .iter()
            .map(|r| match reqs.get(&r.name) {
                None => 0,
                Some(q) if r.kind == Kind::Cpu => q.milli_value(),
                Some(q) => q.value(),
            })
            .collect()
    }

    /// A pod requesting none of the configured resources.
    pub fn is_best_effort(pod_requests: &[i64]) -> bool {
        pod_requests.iter().all(|&r| r == 0)
    }

    /// The node's allocatable amount of resource `i` and what would be requested there with
    /// the pod placed; (0, 0) leaves the resource out of the score.
    fn allocatable_and_requested(&self, node: &NodeInfo, i: usize, pod_request: i64) -> (i64, i64) {
        let r = &self.resources[i];
        let requested = if self.use_requested {
            &node.requested
        } else {
            &node.non_zero_requested
        };
        match r.kind {
            Kind::Cpu => (node.allocatable.milli_cpu, requested.milli_cpu + pod_request),
            Kind::Memory => (node.allocatable.memory, requested.memory + pod_request),
            // Ephemeral storage and scalars always use the actual requests.
            Kind::EphemeralStorage => (node.allocatable.ephemeral_storage, node.requested.ephemeral_storage + pod_request),
            Kind::Other { scalar } => {
                if pod_request == 0 && scalar {
                    return (0, 0);
                }
                if node.allocatable.has_scalar(&r.name) {
                    (node.allocatable.scalar(&r.name), node.requested.scalar(&r.name) + pod_request)
                } else {
                    (0, 0)
                }
            }
        }
    }

    /// `score` for each of `nodes`, appended to `out`, with the configuration's dispatch (the
    /// cpu-and-memory fast path or the general one) decided once. `combine2` is `combine` for
    /// the cpu-and-memory configuration (the default one), over arrays, so that the per-node
    /// arithmetic inlines into the loop.
    pub fn score_nodes(
        &self,
        nodes: &[&NodeInfo],
        pod_requests: &[i64],
        out: &mut Vec<i64>,
        combine: impl Fn(&[i64], &[i64]) -> i64,
        combine2: impl Fn([i64; 2], [i64; 2]) -> i64,
    ) -> Result<(), Status> {
        let n = self.resources.len();
        if n == 0 {
            return Err(Status::error("resources not found"));
        }
        if n == 2 && self.resources[0].kind == Kind::Cpu && self.resources[1].kind == Kind::Memory && pod_requests.len() == 2 {
            let (pod_cpu, pod_mem) = (pod_requests[0], pod_requests[1]);
            let use_requested = self.use_requested;
            out.extend(nodes.iter().map(|node| {
                let requested = if use_requested { &node.requested } else { &node.non_zero_requested };
                let alloc = [node.allocatable.milli_cpu, node.allocatable.memory];
                let mut req = [requested.milli_cpu + pod_cpu, requested.memory + pod_mem];
                for i in 0..2 {
                    if alloc[i] == 0 {
                        req[i] = 0;
                    }
                }
                combine2(req, alloc)
            }));
            return Ok(());
        }
        for node in nodes {
            out.push(self.score(node, pod_requests, &combine)?);
        }
        Ok(())
    }

    /// The two weights of the cpu-and-memory configuration (`score_nodes`' `combine2`).
    pub fn weights2(&self) -> [i64; 2] {
        [
            self.resources.first().map_or(0, |r| r.weight),
            self.resources.get(1).map_or(0, |r| r.weight),
        ]
    }

    /// Fills the requested/allocatable vectors for `node` (resources absent from the node stay
    /// at zero) and lets `combine` turn them into the node's score.
    pub fn score(&self, node: &NodeInfo, pod_requests: &[i64], combine: impl FnOnce(&[i64], &[i64]) -> i64) -> Result<i64, Status> {
        let n = self.resources.len();
        if n == 0 {
            return Err(Status::error("resources not found"));
        }
        // The common configuration, cpu then memory, without the general per-resource dispatch.
        if n == 2 && self.resources[0].kind == Kind::Cpu && self.resources[1].kind == Kind::Memory && pod_requests.len() == 2 {
            let requested = if self.use_requested {
                &node.requested
            } else {
                &node.non_zero_requested
            };
            let alloc = [node.allocatable.milli_cpu, node.allocatable.memory];
            let mut req = [requested.milli_cpu + pod_requests[0], requested.memory + pod_requests[1]];
            for i in 0..2 {
                if alloc[i] == 0 {
                    req[i] = 0;
                }
            }
            return Ok(combine(&req, &alloc));
        }
        let mut req_inline = [0i64; INLINE];
        let mut alloc_inline = [0i64; INLINE];
        let mut req_heap = Vec::new();
        let mut alloc_heap = Vec::new();
        let (requested, allocatable): (&mut [i64], &mut [i64]) = if n <= INLINE {
            (&mut req_inline[..n], &mut alloc_inline[..n])
        } else {
            req_heap.resize(n, 0);
            alloc_heap.resize(n, 0);
            (&mut req_heap[..], &mut alloc_heap[..])
        };
        for i in 0..n {
            let (alloc, req) = self.allocatable_and_requested(node, i, pod_requests.get(i).copied().unwrap_or(0));
            if alloc == 0 {
                continue;
            }
            allocatable[i] = alloc;
            requested[i] = req;
        }
        Ok(combine(requested, allocatable))
    }
}

#[cfg(test)]
#[allow(clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::framework::args_codec::default_resource_spec;
    use crate::plugins::testing::{MakeNode, MakePod};
    use std::sync::Arc;

    fn spec(kv: &[(&str, i64)]) -> Vec<ResourceSpec> {
        kv.iter()
            .map(|(n, w)| ResourceSpec {
                name: n.to_string(),
                weight: *w,
            })
            .collect()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_request_lists() {
        let mut pod_level = MakePod::new("pl").req(&[("cpu", "1")]).req(&[]).obj();
        pod_level.spec.resources = Some(Box::new(crate::api::ResourceRequirements {
            requests: [("cpu".to_string(), Quantity::parse("3").unwrap())].into_iter().collect(),
            ..Default::default()
        }));
        let pod_level = PodInfo::new(pod_level, 0);
        let cases: Vec<(&str, PodInfo, bool, bool, Vec<ResourceSpec>, Vec<i64>)> = vec![
            (
                "non-zero defaults per container",
                MakePod::new("a").req(&[("cpu", "1")]).req(&[]).info(),
                false,
                false,
                default_resource_spec(),
                vec![1100, 2 * DEFAULT_MEMORY_REQUEST],
            ),
            (
                "plain requests",
                MakePod::new("a").req(&[("cpu", "1")]).req(&[]).info(),
                true,
                true,
                default_resource_spec(),
                vec![1000, 0],
            ),
            (
                "fit's scorer ignores pod-level requests",
                pod_level.clone(),
                false,
                false,
                default_resource_spec(),
                vec![1100, 2 * DEFAULT_MEMORY_REQUEST],
            ),
            (
                "balanced allocation honours pod-level requests",
                pod_level,
                true,
                true,
                default_resource_spec(),
                vec![3000, 0],
            ),
            (
                "scalar and unknown names",
                MakePod::new("a")
                    .req(&[("example.com/gpu", "2"), ("ephemeral-storage", "1Gi")])
                    .info(),
                true,
                true,
                spec(&[("example.com/gpu", 1), ("ephemeral-storage", 1), ("foo", 1)]),
                vec![2, 1 << 30, 0],
            ),
        ];
        for (name, pod, use_requested, pod_level, specs, want) in cases {
            let s = ResourceAllocationScorer::new(&specs, use_requested, pod_level);
            assert_eq!(s.pod_request_list(&pod), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn requested_and_allocatable_per_node() {
        let mut node = MakeNode::new("n")
            .capacity(&[
                ("cpu", "4"),
                ("memory", "8Gi"),
                ("ephemeral-storage", "10Gi"),
                ("example.com/gpu", "4"),
            ])
            .info();
        // A best-effort pod: counts 100m/200Mi in the non-zero totals only.
        node.add_pod(Arc::new(MakePod::new("be").node("n").image("x").info()));
        node.add_pod(Arc::new(
            MakePod::new("gpu")
                .node("n")
                .req(&[("cpu", "1"), ("example.com/gpu", "1"), ("ephemeral-storage", "1Gi")])
                .info(),
        ));
        let specs = spec(&[
            ("cpu", 1),
            ("memory", 1),
            ("ephemeral-storage", 1),
            ("example.com/gpu", 1),
            ("example.com/fpga", 1),
        ]);
        let capture = |use_requested: bool, pod_req: &[i64]| -> (Vec<i64>, Vec<i64>) {
            let s = ResourceAllocationScorer::new(&specs, use_requested, true);
            let mut out = (vec![], vec![]);
            s.score(&node, pod_req, |r, a| {
                out = (r.to_vec(), a.to_vec());
                0
            })
            .unwrap();
            out
        };
        let (req, alloc) = capture(false, &[500, 100, 1, 1, 1]);
        assert_eq!(alloc, vec![4000, 8 << 30, 10 << 30, 4, 0]);
        assert_eq!(req, vec![1100 + 500, 2 * DEFAULT_MEMORY_REQUEST + 100, (1 << 30) + 1, 2, 0]);
        let (req, _) = capture(true, &[500, 100, 1, 0, 1]);
        // The gpu is not requested by the pod: left out entirely.
        assert_eq!(req, vec![1000 + 500, 100, (1 << 30) + 1, 0, 0]);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn empty_resources_is_an_error() {
        let s = ResourceAllocationScorer::new(&[], false, false);
        let node = MakeNode::new("n").capacity(&[("cpu", "1")]).info();
        assert_eq!(s.score(&node, &[], |_, _| 0).unwrap_err().message(), "resources not found");
    }
}
