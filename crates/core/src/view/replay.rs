//! Replay: the cluster and the queue at a position of the trace, rebuilt event by event.

use super::*;

#[derive(Clone, Debug)]
pub(super) struct PodLive {
    pub(super) queue: QueueName,
    pub(super) node: Option<u32>,
    /// Trace index of the pod's last (re)entry into the queue (its queue timestamp's order).
    pub(super) since: u32,
    pub(super) backoff_until_ms: Option<i64>,
    pub(super) nominated: Option<u32>,
    /// Trace index of the last FailedScheduling event.
    pub(super) message: Option<u32>,
    /// Trace index of the last Gated event.
    pub(super) gated: Option<u32>,
    pub(super) deleted: bool,
    /// Cycle in which the pod was bound (for the "just placed" highlight).
    pub(super) bound_cycle: u32,
    /// The pod exists (pods created while the cluster runs exist from their change on).
    pub(super) exists: bool,
    /// Succeeded or Failed.
    pub(super) finished: bool,
    /// Deleted by a change (not by a preemption).
    pub(super) removed: bool,
}

#[derive(Clone, Debug)]
pub(super) struct Replay {
    pub(super) pos: usize,
    pub(super) clock_ms: i64,
    pub(super) node_pods: Vec<Vec<u32>>,
    pub(super) used: Vec<Vec<i64>>,
    pub(super) pods: Vec<PodLive>,
    pub(super) cycle: u32,
    /// DRA claims by `namespace/name`.
    pub(super) claims: BTreeMap<String, ClaimLive>,
    /// Per node: in the cluster at this point, and its live state.
    pub(super) present: Vec<bool>,
    pub(super) node_state: Vec<changes::NodeState>,
}

impl Replay {
    pub(super) fn new(model: &Model) -> Replay {
        let ncol = model.resources.len();
        let mut r = Replay {
            pos: 0,
            clock_ms: 0,
            node_pods: vec![Vec::new(); model.nodes.len()],
            used: vec![vec![0; ncol]; model.nodes.len()],
            pods: model
                .pods
                .iter()
                .map(|p| PodLive {
                    queue: QueueName::None,
                    node: None,
                    since: 0,
                    backoff_until_ms: None,
                    nominated: p.nominated,
                    message: None,
                    gated: None,
                    deleted: false,
                    bound_cycle: 0,
                    exists: true,
                    finished: p.finished,
                    removed: false,
                })
                .collect(),
            cycle: 0,
            claims: crate::sort::map_of(model.initial_claims.iter().map(|c| (c.key.clone(), c.clone()))),
            present: vec![true; model.nodes.len()],
            node_state: model
                .nodes
                .iter()
                .map(|n| changes::NodeState {
                    unschedulable: n.unschedulable,
                    taints: n.taints.clone(),
                    labels: n.labels.clone(),
                })
                .collect(),
        };
        if let Some(from) = model.created_pods_from {
            for p in r.pods.iter_mut().skip(from as usize) {
                p.exists = false;
            }
        }
        if let Some(from) = model.created_nodes_from {
            for p in r.present.iter_mut().skip(from as usize) {
                *p = false;
            }
        }
        for (i, p) in model.pods.iter().enumerate() {
            if let (Some(n), false) = (p.node, p.finished) {
                r.place(model, i as u32, n);
            }
        }
        r
    }

    pub(super) fn place(&mut self, model: &Model, pod: u32, node: u32) {
        let (n, p) = (node as usize, pod as usize);
        if n >= self.node_pods.len() {
            return;
        }
        self.node_pods[n].push(pod);
        for (u, r) in self.used[n].iter_mut().zip(&model.pods[p].requests) {
            *u += r;
        }
        self.pods[p].node = Some(node);
    }

    pub(super) fn unplace(&mut self, model: &Model, pod: u32, node: u32) {
        let (n, p) = (node as usize, pod as usize);
        if n >= self.node_pods.len() {
            return;
        }
        if let Some(i) = self.node_pods[n].iter().position(|&q| q == pod) {
            self.node_pods[n].remove(i);
            for (u, r) in self.used[n].iter_mut().zip(&model.pods[p].requests) {
                *u -= r;
            }
        }
        self.pods[p].node = None;
    }

    pub(super) fn apply(
        &mut self,
        model: &Model,
        node_index: &HashMap<String, u32>,
        effects: &HashMap<usize, changes::Effect>,
        i: usize,
        e: &TraceEvent,
    ) {
        match e {
            TraceEvent::Change { at_ms, .. } => {
                self.clock_ms = self.clock_ms.max(*at_ms);
                match effects.get(&i) {
                    Some(changes::Effect::Node(n, st)) => {
                        if let Some(p) = self.present.get_mut(*n as usize) {
                            *p = true;
                            self.node_state[*n as usize] = st.clone();
                        }
                    }
                    Some(changes::Effect::NodeGone(n)) => {
                        if let Some(p) = self.present.get_mut(*n as usize) {
                            *p = false;
                            for pod in self.node_pods[*n as usize].clone() {
                                self.unplace(model, pod, *n);
                                self.pods[pod as usize].removed = true;
                            }
                        }
                    }
                    Some(changes::Effect::PodGone(p, finished)) => {
                        if let Some(n) = self.pods[*p as usize].node {
                            self.unplace(model, *p, n);
                        }
                        let live = &mut self.pods[*p as usize];
                        if *finished {
                            live.finished = true;
                        } else {
                            live.removed = true;
                        }
                    }
                    Some(changes::Effect::PodCreated(p, node)) => {
                        self.pods[*p as usize].exists = true;
                        if let Some(n) = node {
                            self.place(model, *p, *n);
                        }
                    }
                    None => {}
                }
            }
            TraceEvent::Clock { time_ms } => self.clock_ms = *time_ms,
            TraceEvent::QueueMove {
                pod,
                from,
                to,
                backoff_until_ms,
                ..
            } => {
                let p = &mut self.pods[*pod as usize];
                p.queue = *to;
                if matches!(from, QueueName::None | QueueName::InFlight) && *to != QueueName::None && *to != QueueName::InFlight {
                    p.since = i as u32;
                }
                p.backoff_until_ms = if *to == QueueName::BackoffQ { *backoff_until_ms } else { None };
                if *to != QueueName::Gated {
                    p.gated = None;
                }
            }
            TraceEvent::Gated { pod, .. } => self.pods[*pod as usize].gated = Some(i as u32),
            TraceEvent::CycleStart { cycle, time_ms, .. } => {
                self.cycle = *cycle;
                self.clock_ms = *time_ms;
            }
            TraceEvent::Bind { pod, node, cycle, .. } => {
                self.place(model, *pod, *node);
                self.pods[*pod as usize].bound_cycle = *cycle;
            }
            TraceEvent::Nominated { pod, node } => {
                self.pods[*pod as usize].nominated = node.as_deref().and_then(|n| node_index.get(n).copied());
            }
            TraceEvent::Deleted { pod, node } => {
                self.unplace(model, *pod, *node);
                self.pods[*pod as usize].deleted = true;
            }
            TraceEvent::KubeEvent {
                reason: EventReason::FailedScheduling,
                pod,
                ..
            } => {
                self.pods[*pod as usize].message = Some(i as u32);
            }
            TraceEvent::Claim {
                claim,
                devices,
                reserved_for,
                deleted,
            } => {
                if *deleted {
                    self.claims.remove(claim);
                } else {
                    self.claims.insert(
                        claim.clone(),
                        ClaimLive {
                            key: claim.clone(),
                            devices: devices.clone(),
                            reserved_for: reserved_for.clone(),
                        },
                    );
                }
            }
            _ => {}
        }
    }
}
