//! The static model of a run: what the scenario declares, in the units the scheduler uses
//! (resource columns, nodes in visiting and display order, pods, profiles, DRA devices).

use super::changes::view_taint;
use super::dra::BuildDra;
use super::*;
use crate::plugins::IN_TREE;
use crate::vocabulary::ExtensionPoint;
use schedlab_view::view::{DraModel, Model, NodeModel, PodModel, ProfileModel, ResourceCol, Unit};

/// Building the model (the type is `schedlab-view`'s, the engine fills it in).
pub(super) trait BuildModel: Sized {
    /// Adds the pods and nodes a timeline created during the run (appended to the trace
    /// header, so indices keep matching). Created pods are not running from the start.
    fn add_created(&mut self, e: &Engine);
    /// Builds the model from the scenario (for document order) and the engine before it ran.
    fn build(sc: &Scenario, e: &Engine) -> Self;
}

/// A resource column's amount in `r`, in the column's unit (as NodeResourcesFit counts it).
fn amount(r: &Resource, col: &ResourceCol) -> i64 {
    match col.name.as_str() {
        RESOURCE_CPU => r.milli_cpu,
        RESOURCE_MEMORY => r.memory,
        RESOURCE_PODS => r.allowed_pod_number,
        RESOURCE_EPHEMERAL_STORAGE => r.ephemeral_storage,
        n => r.scalar(n),
    }
}

impl BuildModel for Model {
    fn add_created(&mut self, e: &Engine) {
        if e.pods.len() > self.pods.len() {
            self.created_pods_from = Some(self.pods.len() as u32);
        }
        if e.trace.header.nodes.len() > self.nodes.len() {
            self.created_nodes_from = Some(self.nodes.len() as u32);
        }
        // Pods created while the cluster ran: when, and by which controller (a timeline step's
        // pod has no creator).
        let created: HashMap<u32, (i64, Option<ObjectRef>)> = e
            .trace
            .events
            .iter()
            .filter_map(|ev| match ev {
                TraceEvent::Change {
                    at_ms,
                    action,
                    pod: Some(p),
                    by,
                    skipped: None,
                    ..
                } if *action == ChangeAction::Create => Some((*p, (*at_ms, by.as_deref().cloned()))),
                _ => None,
            })
            .collect();
        for (i, p) in e.pods.iter().enumerate().skip(self.pods.len()) {
            let info = &p.info;
            self.pods.push(PodModel {
                created_by: created.get(&(i as u32)).and_then(|(_, by)| by.clone()),
                created_at_ms: created.get(&(i as u32)).map(|(at, _)| *at),
                name: info.name().to_string(),
                namespace: info.namespace().to_string(),
                priority: info.priority,
                priority_class: info.pod.spec.priority_class_name.clone().filter(|s| !s.is_empty()),
                profile: info.scheduler_name().to_string(),
                has_profile: e.frameworks.contains_key(info.scheduler_name()),
                requests: if self.large {
                    Vec::new()
                } else {
                    self.resources
                        .iter()
                        .map(|c| {
                            if c.name == RESOURCE_PODS {
                                1
                            } else {
                                amount(&info.resource.resource, c)
                            }
                        })
                        .collect()
                },
                gates: info.pod.spec.scheduling_gates.iter().map(|g| g.name.clone()).collect(),
                node: None,
                nominated: None,
                finished: false,
            });
        }
        for name in e.trace.header.nodes.iter().skip(self.nodes.len()) {
            let created = e.timeline_steps().iter().rev().find_map(|s| match &s.change {
                crate::timeline::Change::Create(o) => match &**o {
                    crate::timeline::Object::Node(n) if &n.metadata.name == name => Some(n),
                    _ => None,
                },
                _ => None,
            });
            let Some(n) = created else { continue };
            let z = zone_of(&n.metadata.labels).to_string();
            let zone = match self.zones.iter().position(|x| *x == z) {
                Some(i) => i as u32,
                None => {
                    self.zones.push(z);
                    (self.zones.len() - 1) as u32
                }
            };
            let alloc = Resource::from_list(&n.status.allocatable);
            self.display_order.push(self.nodes.len() as u32);
            self.nodes.push(NodeModel {
                name: name.clone(),
                zone,
                labels: shown_labels(&n.metadata.labels),
                taints: n.spec.taints.iter().filter_map(view_taint).collect(),
                unschedulable: n.spec.unschedulable.unwrap_or(false),
                allocatable: self.resources.iter().map(|c| amount(&alloc, c)).collect(),
            });
        }
    }

    /// Builds the model from the scenario (for document order) and the engine before it ran.
    fn build(sc: &Scenario, e: &Engine) -> Model {
        let large = e.snapshot.nodes().len() > CARD_NODE_LIMIT;
        // Columns: cpu, memory, pods, then ephemeral storage and scalar resources that a node
        // offers or a pod requests.
        let mut extra: BTreeSet<String> = BTreeSet::new();
        let mut eph = false;
        for n in e.snapshot.nodes() {
            for (name, _) in &n.allocatable.scalar {
                extra.insert(name.clone());
            }
        }
        for p in &e.pods {
            let r = &p.info.resource.resource;
            eph |= r.ephemeral_storage > 0;
            for (name, v) in &r.scalar {
                if *v > 0 {
                    extra.insert(name.clone());
                }
            }
        }
        let mut resources = vec![
            ResourceCol {
                name: RESOURCE_CPU.into(),
                unit: Unit::MilliCpu,
            },
            ResourceCol {
                name: RESOURCE_MEMORY.into(),
                unit: Unit::Bytes,
            },
            ResourceCol {
                name: RESOURCE_PODS.into(),
                unit: Unit::Count,
            },
        ];
        if eph {
            resources.push(ResourceCol {
                name: RESOURCE_EPHEMERAL_STORAGE.into(),
                unit: Unit::Bytes,
            });
        }
        for name in extra {
            let unit = if name.starts_with("hugepages-") { Unit::Bytes } else { Unit::Count };
            resources.push(ResourceCol { name, unit });
        }

        let node_index: HashMap<&str, u32> = e
            .trace
            .header
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i as u32))
            .collect();
        let mut zones: Vec<String> = Vec::new();
        let mut zone_ix: HashMap<String, u32> = HashMap::new();
        // Zones in document order of first appearance.
        for n in &sc.nodes {
            let z = zone_of(&n.metadata.labels).to_string();
            if !zone_ix.contains_key(&z) {
                zone_ix.insert(z.clone(), zones.len() as u32);
                zones.push(z);
            }
        }
        let nodes = e
            .snapshot
            .nodes()
            .iter()
            .map(|ni| {
                let n = &ni.node;
                let labels = if large { Vec::new() } else { shown_labels(&n.metadata.labels) };
                let taints = if large {
                    Vec::new()
                } else {
                    n.spec.taints.iter().filter_map(view_taint).collect()
                };
                NodeModel {
                    name: ni.name().to_string(),
                    zone: zone_ix.get(zone_of(&n.metadata.labels)).copied().unwrap_or(0),
                    labels,
                    taints,
                    unschedulable: n.spec.unschedulable.unwrap_or(false),
                    allocatable: resources.iter().map(|c| amount(&ni.allocatable, c)).collect(),
                }
            })
            .collect();
        let display_order = sc
            .nodes
            .iter()
            .filter_map(|n| node_index.get(n.metadata.name.as_str()).copied())
            .collect();
        let first_created = sc.pods.len().saturating_sub(sc.created_pods);
        let pods = e
            .pods
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let info = &p.info;
                let r = &info.resource.resource;
                PodModel {
                    name: info.name().to_string(),
                    namespace: info.namespace().to_string(),
                    priority: info.priority,
                    priority_class: info.pod.spec.priority_class_name.clone().filter(|s| !s.is_empty()),
                    profile: info.scheduler_name().to_string(),
                    has_profile: e.frameworks.contains_key(info.scheduler_name()),
                    requests: resources
                        .iter()
                        .map(|c| if c.name == RESOURCE_PODS { 1 } else { amount(r, c) })
                        .collect(),
                    gates: info.pod.spec.scheduling_gates.iter().map(|g| g.name.clone()).collect(),
                    node: if p.phase == crate::engine::Phase::Running {
                        p.node.as_deref().and_then(|n| node_index.get(n).copied())
                    } else {
                        None
                    },
                    nominated: p.nominated_node.as_deref().and_then(|n| node_index.get(n).copied()),
                    finished: p.phase.is_finished(),
                    created_by: (i >= first_created)
                        .then(|| info.pod.metadata.owner_references.iter().find(|o| o.controller == Some(true)))
                        .flatten()
                        .map(|o| ObjectRef::new(ObjectKind::from_api(&o.kind), None, o.name.clone())),
                    created_at_ms: (i >= first_created).then_some(0),
                }
            })
            .collect();
        let profiles = e
            .frameworks
            .values()
            .map(|fw| {
                let pl = &fw.profile.plugins;
                let points = ExtensionPoint::CONFIGURABLE
                    .iter()
                    .map(|&p| (p.as_str().to_string(), pl.list(p).iter().map(|n| n.as_str().to_string()).collect()))
                    .collect();
                let mut notes = Vec::new();
                // What a scoring plugin says of its args (NodeResourcesFit: the strategy), and
                // a schedlab extension enabled at Filter only (what it is, where it comes from).
                let extensions = pl.filter.iter().filter(|n| n.is_schedlab_extension() && !pl.score.contains(n));
                for name in pl.score.iter().chain(extensions) {
                    if let Some(note) = IN_TREE.get(*name).explain.profile {
                        notes.push(note(&fw.profile.args));
                    }
                }
                if let Some(p) = fw.profile.percentage_of_nodes_to_score {
                    notes.push(format!("percentageOfNodesToScore: {p}"));
                }
                ProfileModel {
                    name: fw.profile.scheduler_name.clone(),
                    points,
                    weights: fw.profile.weights.iter().map(|(k, v)| (k.as_str().to_string(), *v)).collect(),
                    percentage_of_nodes_to_score: fw.profile.percentage_of_nodes_to_score,
                    notes,
                }
            })
            .collect();
        Model {
            resources,
            zones,
            nodes,
            display_order,
            pods,
            profiles,
            large,
            dra: DraModel::build(e),
            initial_claims: dra::initial_claims(e).into_values().collect(),
            created_pods_from: None,
            created_nodes_from: None,
            plugin_labels: IN_TREE.iter().map(|d| (d.name.as_str().to_string(), d.short.to_string())).collect(),
        }
    }
}
