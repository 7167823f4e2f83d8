//! Fixture builders for table-driven plugin tests, after upstream's `st.MakePod()`.

use crate::api::{self, Container, ContainerPort, Node, Pod, ResourceRequirements, Taint, Toleration};
use crate::cluster::{Cluster, Nominator, Snapshot};
use crate::framework::{Ctx, CycleState, NodeInfo, Plugin, PodInfo, Status};
use crate::quantity::Quantity;
use std::sync::Arc;

fn rl(kv: &[(&str, &str)]) -> api::ResourceList {
    kv.iter()
        .map(|(k, v)| (k.to_string(), Quantity::parse(v).expect("valid quantity")))
        .collect()
}

#[derive(Clone, Default)]
pub struct MakePod {
    pub pod: Pod,
}

impl MakePod {
    pub fn new(name: &str) -> MakePod {
        let mut pod = Pod::default();
        pod.metadata.name = name.to_string();
        pod.metadata.namespace = Some("default".into());
        pod.metadata.uid = Some(format!("uid-pod-default-{name}"));
        pod.spec.scheduler_name = Some("default-scheduler".into());
        MakePod { pod }
    }
    pub fn namespace(mut self, ns: &str) -> Self {
        self.pod.metadata.namespace = Some(ns.into());
        self.pod.metadata.uid = Some(format!("uid-pod-{ns}-{}", self.pod.metadata.name));
        self
    }
    pub fn label(mut self, k: &str, v: &str) -> Self {
        self.pod.metadata.labels.insert(k.into(), v.into());
        self
    }
    pub fn priority(mut self, p: i32) -> Self {
        self.pod.spec.priority = Some(p);
        self
    }
    pub fn node(mut self, n: &str) -> Self {
        self.pod.spec.node_name = Some(n.into());
        self
    }
    pub fn scheduler_name(mut self, n: &str) -> Self {
        self.pod.spec.scheduler_name = Some(n.into());
        self
    }
    /// Adds a container with these requests.
    pub fn req(mut self, kv: &[(&str, &str)]) -> Self {
        let n = self.pod.spec.containers.len();
        self.pod.spec.containers.push(Container {
            name: format!("c{n}"),
            image: Some("image".into()),
            resources: ResourceRequirements {
                requests: rl(kv),
                ..Default::default()
            },
            ..Default::default()
        });
        self
    }
    pub fn init_req(mut self, kv: &[(&str, &str)], sidecar: bool) -> Self {
        let n = self.pod.spec.init_containers.len();
        self.pod.spec.init_containers.push(Container {
            name: format!("init{n}"),
            resources: ResourceRequirements {
                requests: rl(kv),
                ..Default::default()
            },
            restart_policy: sidecar.then(|| "Always".to_string()),
            ..Default::default()
        });
        self
    }
    pub fn image(mut self, image: &str) -> Self {
        let n = self.pod.spec.containers.len();
        self.pod.spec.containers.push(Container {
            name: format!("c{n}"),
            image: Some(image.into()),
            ..Default::default()
        });
        self
    }
    pub fn host_port(mut self, port: i32, protocol: &str, ip: &str) -> Self {
        let n = self.pod.spec.containers.len();
        self.pod.spec.containers.push(Container {
            name: format!("c{n}"),
            ports: vec![ContainerPort {
                container_port: port,
                host_port: Some(port),
                protocol: Some(protocol.into()),
                host_ip: (!ip.is_empty()).then(|| ip.to_string()),
                ..Default::default()
            }],
            ..Default::default()
        });
        self
    }
    pub fn toleration(mut self, key: &str, op: &str, value: &str, effect: &str) -> Self {
        self.pod.spec.tolerations.push(Toleration {
            key: (!key.is_empty()).then(|| key.to_string()),
            operator: Some(op.into()),
            value: (!value.is_empty()).then(|| value.to_string()),
            effect: (!effect.is_empty()).then(|| effect.to_string()),
            toleration_seconds: None,
        });
        self
    }
    pub fn node_selector(mut self, k: &str, v: &str) -> Self {
        self.pod.spec.node_selector.insert(k.into(), v.into());
        self
    }
    pub fn affinity(mut self, a: api::Affinity) -> Self {
        self.pod.spec.affinity = Some(Box::new(a));
        self
    }
    pub fn spread(mut self, c: api::TopologySpreadConstraint) -> Self {
        self.pod.spec.topology_spread_constraints.push(c);
        self
    }
    pub fn pvc(mut self, claim: &str) -> Self {
        self.pod.spec.volumes.push(api::Volume {
            name: claim.into(),
            persistent_volume_claim: Some(api::PersistentVolumeClaimVolumeSource {
                claim_name: claim.into(),
                read_only: None,
            }),
            ..Default::default()
        });
        self
    }
    pub fn gate(mut self, g: &str) -> Self {
        self.pod.spec.scheduling_gates.push(api::PodSchedulingGate { name: g.into() });
        self
    }
    pub fn preempt_never(mut self) -> Self {
        self.pod.spec.preemption_policy = Some("Never".into());
        self
    }
    pub fn obj(self) -> Pod {
        self.pod
    }
    pub fn info(self) -> PodInfo {
        PodInfo::new(self.pod, 0)
    }
    pub fn arc(self) -> Arc<PodInfo> {
        Arc::new(self.info())
    }
}

#[derive(Clone, Default)]
pub struct MakeNode {
    pub node: Node,
}

impl MakeNode {
    pub fn new(name: &str) -> MakeNode {
        let mut node = Node::default();
        node.metadata.name = name.to_string();
        node.metadata.labels.insert("kubernetes.io/hostname".into(), name.into());
        MakeNode { node }
    }
    pub fn label(mut self, k: &str, v: &str) -> Self {
        self.node.metadata.labels.insert(k.into(), v.into());
        self
    }
    /// Sets capacity and allocatable.
    pub fn capacity(mut self, kv: &[(&str, &str)]) -> Self {
        self.node.status.capacity = rl(kv);
        self.node.status.allocatable = rl(kv);
        self
    }
    pub fn taint(mut self, key: &str, value: &str, effect: &str) -> Self {
        self.node.spec.taints.push(Taint {
            key: key.into(),
            value: (!value.is_empty()).then(|| value.to_string()),
            effect: effect.into(),
            time_added: None,
        });
        self
    }
    pub fn unschedulable(mut self) -> Self {
        self.node.spec.unschedulable = Some(true);
        self
    }
    pub fn image(mut self, name: &str, size: i64) -> Self {
        self.node.status.images.push(api::ContainerImage {
            names: vec![name.into()],
            size_bytes: size,
        });
        self
    }
    pub fn obj(self) -> Node {
        self.node
    }
    pub fn info(self) -> NodeInfo {
        NodeInfo::new(Arc::new(self.node))
    }
}

/// A snapshot of nodes with pods placed on them (pods must name their node).
pub fn snapshot(nodes: Vec<Node>, pods: Vec<Pod>) -> Snapshot {
    let mut s = Snapshot::new(nodes.into_iter().map(Arc::new).collect());
    for (i, p) in pods.into_iter().enumerate() {
        let node = p.spec.node_name.clone().expect("fixture pods on a snapshot need spec.nodeName");
        let info = Arc::new(PodInfo::new(p, i));
        let idx = s.position(&node).expect("node exists");
        s.add_pod(idx, info);
    }
    s
}

/// Everything a plugin test needs to build a `Ctx`.
pub struct Env {
    pub snapshot: Snapshot,
    pub cluster: Cluster,
    pub nominator: Nominator,
}

impl Env {
    pub fn new(nodes: Vec<Node>, pods: Vec<Pod>) -> Env {
        Env {
            snapshot: snapshot(nodes, pods),
            cluster: Cluster::default(),
            nominator: Nominator::default(),
        }
    }
    pub fn cx(&self) -> Ctx<'_> {
        Ctx {
            snapshot: &self.snapshot,
            cluster: &self.cluster,
            nominator: &self.nominator,
        }
    }
    pub fn node(&self, name: &str) -> &NodeInfo {
        self.snapshot.get(name).expect("node exists")
    }
}

/// PreFilter, then Filter on the node named `node`, as the framework runs them: after a
/// PreFilter Skip the node passes; any other PreFilter failure is the answer.
pub fn pre_filter_then_filter(pl: &dyn Plugin, env: &Env, pod: &PodInfo, node: &str) -> Status {
    let mut state = CycleState::new();
    let (_, s) = pl.pre_filter(&env.cx(), &mut state, pod);
    if s.is_skip() {
        return Status::success();
    }
    if !s.is_success() {
        return s;
    }
    pl.filter(&env.cx(), &state, pod, env.node(node))
}
