//! NodeAffinity: the pod's nodeSelector and required node affinity (plus the scheduler-enforced
//! `addedAffinity` of NodeAffinityArgs) must match the node (Filter); matching preferred terms
//! add their weights (Score, normalized to 0..100). PreFilter narrows the candidate nodes when
//! every required term pins `metadata.name` with `In`.

pub mod args;

use crate::api::{Node, Pod, PreferredSchedulingTerm};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, NodeScore, Plugin, PodInfo, PreFilterResult, Status, MAX_NODE_SCORE};
use crate::labels::{CompiledNodeSelector, CompiledNodeSelectorTerm};
use crate::plugins::helper::{default_normalize_score, RequiredNodeAffinity};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::NodeAffinityArgs;
use std::collections::BTreeSet;

pub const ERR_REASON_POD: &str = "node(s) didn't match Pod's node affinity/selector";
pub const ERR_REASON_ENFORCED: &str = "node(s) didn't match scheduler-enforced node affinity";
pub const ERR_REASON_CONFLICT: &str = "pod affinity terms conflict";

const OBJECT_NAME_FIELD: &str = "metadata.name";

/// Compiled preferred terms: weight-0 and empty terms are dropped, as upstream does.
#[derive(Clone, Debug, Default)]
pub struct PreferredTerms {
    terms: Vec<(CompiledNodeSelectorTerm, i64)>,
}

impl PreferredTerms {
    /// Fails when any kept term does not parse.
    pub fn compile(terms: &[PreferredSchedulingTerm]) -> Result<PreferredTerms, String> {
        let mut out = Vec::with_capacity(terms.len());
        for (i, t) in terms.iter().enumerate() {
            let p = &t.preference;
            if t.weight == 0 || (p.match_expressions.is_empty() && p.match_fields.is_empty()) {
                continue;
            }
            let c = CompiledNodeSelectorTerm::compile(p);
            if c.invalid {
                return Err(format!("[{i}]: invalid preferred node selector term"));
            }
            out.push((c, t.weight as i64));
        }
        Ok(PreferredTerms { terms: out })
    }
    /// Sum of the weights of the terms the node matches.
    pub fn score(&self, node: &Node) -> i64 {
        self.terms
            .iter()
            .filter(|(t, _)| t.matches(&node.metadata.name, &node.metadata.labels))
            .map(|(_, w)| *w)
            .sum()
    }
}

/// The pod's own preferred terms; `None` when it has none.
fn pod_preferred(pod: &Pod) -> Result<Option<PreferredTerms>, String> {
    match pod.spec.affinity.as_ref().and_then(|a| a.node_affinity.as_ref()) {
        Some(na) if !na.preferred_during_scheduling_ignored_during_execution.is_empty() => {
            PreferredTerms::compile(&na.preferred_during_scheduling_ignored_during_execution).map(Some)
        }
        _ => Ok(None),
    }
}

#[derive(Clone, Debug)]
struct PreFilterState {
    required: RequiredNodeAffinity,
}

#[derive(Clone, Debug)]
struct PreScoreState {
    preferred: Option<PreferredTerms>,
}

pub struct NodeAffinity {
    added_node_selector: Option<CompiledNodeSelector>,
    added_preferred: Option<PreferredTerms>,
}

impl NodeAffinity {
    pub fn new(args: &NodeAffinityArgs) -> NodeAffinity {
        let added = args.added_affinity.as_ref();
        let added_node_selector = added
            .and_then(|a| a.required_during_scheduling_ignored_during_execution.as_ref())
            .map(CompiledNodeSelector::compile);
        // Invalid added terms are rejected when the configuration is validated.
        let added_preferred = added
            .map(|a| &a.preferred_during_scheduling_ignored_during_execution)
            .filter(|t| !t.is_empty())
            .map(|t| PreferredTerms::compile(t).unwrap_or_default());
        NodeAffinity {
            added_node_selector,
            added_preferred,
        }
    }

    fn added_selector_rejects(&self, node: &Node) -> bool {
        self.added_node_selector
            .as_ref()
            .is_some_and(|s| !s.matches(&node.metadata.name, &node.metadata.labels))
    }
}

/// Node names a set of required terms is pinned to: `None` when some term does not pin
/// `metadata.name` (terms are ORed, so then every node stays possible).
fn pinned_node_names(pod: &Pod) -> Option<BTreeSet<String>> {
    let terms = &pod
        .spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?
        .node_selector_terms;
    if terms.is_empty() {
        return None;
    }
    let mut all = BTreeSet::new();
    for t in terms {
        let mut term_names: Option<BTreeSet<String>> = None;
        for r in &t.match_fields {
            if r.key != OBJECT_NAME_FIELD || r.operator != "In" {
                continue;
            }
            let vals: BTreeSet<String> = crate::sort::set_of(r.values.iter().cloned());
            term_names = Some(match term_names {
                None => vals,
                Some(prev) => crate::sort::set_of(prev.intersection(&vals).cloned()),
            });
        }
        all.extend(term_names?);
    }
    Some(all)
}

impl Plugin for NodeAffinity {
    fn name(&self) -> PluginName {
        PluginName::NodeAffinity
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![ClusterEventWithHint::hinted(
            EventResource::Node,
            ActionType::ADD.union(ActionType::UPDATE_NODE_LABEL),
        )]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        let EventObject::Node { old, new: Some(new) } = obj else {
            return Err(format!("unexpected object for event {}", event.label()));
        };
        if self.added_selector_rejects(new) {
            return Ok(QueueingHint::Skip);
        }
        let required = RequiredNodeAffinity::of(&pod.pod);
        if !required.matches(new) {
            return Ok(QueueingHint::Skip);
        }
        // A new matching node helps; an updated node helps only if it did not match before.
        Ok(match old {
            Some(old) if required.matches(old) => QueueingHint::Skip,
            _ => QueueingHint::Queue,
        })
    }

    fn pre_filter(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        let spec = &pod.pod.spec;
        let has_required = spec
            .affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref())
            .is_some_and(|na| na.required_during_scheduling_ignored_during_execution.is_some());
        if !has_required && self.added_node_selector.is_none() && spec.node_selector.is_empty() {
            return (None, Status::skip());
        }
        state.write(
            PluginName::NodeAffinity,
            PreFilterState {
                required: RequiredNodeAffinity::of(&pod.pod),
            },
        );
        match pinned_node_names(&pod.pod) {
            None => (None, Status::success()),
            Some(names) if names.is_empty() => (None, Status::unresolvable(ERR_REASON_CONFLICT)),
            Some(names) => (Some(PreFilterResult { node_names: Some(names) }), Status::success()),
        }
    }

    fn filter(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        if self.added_selector_rejects(&node.node) {
            return Status::unresolvable(ERR_REASON_ENFORCED);
        }
        let matched = match state.read::<PreFilterState>(PluginName::NodeAffinity) {
            Some(s) => s.required.matches(&node.node),
            // PreFilter disabled: work it out here.
            None => RequiredNodeAffinity::of(&pod.pod).matches(&node.node),
        };
        if matched {
            Status::success()
        } else {
            Status::unresolvable(ERR_REASON_POD)
        }
    }

    fn pre_score(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo, _nodes: &[&NodeInfo]) -> Status {
        let preferred = match pod_preferred(&pod.pod) {
            Ok(p) => p,
            Err(e) => return Status::error(e),
        };
        if preferred.is_none() && self.added_preferred.is_none() {
            return Status::skip();
        }
        state.write(PluginName::NodeAffinity, PreScoreState { preferred });
        Status::success()
    }

    fn score(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let mut count = self.added_preferred.as_ref().map_or(0, |t| t.score(&node.node));
        match state.read::<PreScoreState>(PluginName::NodeAffinity) {
            Some(s) => count += s.preferred.as_ref().map_or(0, |t| t.score(&node.node)),
            // PreScore disabled: work it out here.
            None => {
                if let Some(t) = pod_preferred(&pod.pod).map_err(Status::error)? {
                    count += t.score(&node.node);
                }
            }
        }
        Ok(count)
    }

    fn has_normalize_score(&self) -> bool {
        true
    }

    fn normalize_score(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        default_normalize_score(MAX_NODE_SCORE, false, scores);
        Status::success()
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::NodeAffinity,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::PreScore, Ep::Score, Ep::EnqueueExtensions]),
    short: "NodeAff",
    args: Some(&args::CODEC),
    new: |args, _| Box::new(NodeAffinity::new(&args.get_or_default::<NodeAffinityArgs>())),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{self, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};
    use crate::framework::Code;
    use crate::plugins::testing::{pre_filter_then_filter, Env, MakeNode, MakePod};
    use std::sync::Arc;

    fn req(key: &str, op: &str, vals: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: vals.iter().map(|v| v.to_string()).collect(),
        }
    }
    fn term(exprs: Vec<NodeSelectorRequirement>, fields: Vec<NodeSelectorRequirement>) -> NodeSelectorTerm {
        NodeSelectorTerm {
            match_expressions: exprs,
            match_fields: fields,
        }
    }
    fn required(terms: Vec<NodeSelectorTerm>) -> api::NodeAffinity {
        api::NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: terms,
            }),
            ..Default::default()
        }
    }
    fn preferred(terms: Vec<(i32, NodeSelectorTerm)>) -> api::NodeAffinity {
        api::NodeAffinity {
            preferred_during_scheduling_ignored_during_execution: terms
                .into_iter()
                .map(|(weight, preference)| PreferredSchedulingTerm { weight, preference })
                .collect(),
            ..Default::default()
        }
    }
    fn with_na(pod: MakePod, na: api::NodeAffinity) -> MakePod {
        pod.affinity(api::Affinity {
            node_affinity: Some(na),
            ..Default::default()
        })
    }
    fn args(na: api::NodeAffinity) -> NodeAffinityArgs {
        NodeAffinityArgs { added_affinity: Some(na) }
    }

    /// Runs PreFilter then Filter as the framework does (Skip => Filter not run).
    fn run_filter(pl: &NodeAffinity, pod: &PodInfo, node: MakeNode) -> Status {
        let name = node.node.metadata.name.clone();
        let env = Env::new(vec![node.obj()], vec![]);
        pre_filter_then_filter(pl, &env, pod, &name)
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter() {
        let plain = NodeAffinity::new(&NodeAffinityArgs::default());
        let enforced = NodeAffinity::new(&args(required(vec![term(vec![req("pool", "In", &["a"])], vec![])])));
        let zone_b = || with_na(MakePod::new("p"), required(vec![term(vec![req("zone", "In", &["b"])], vec![])]));
        let cases: Vec<(&str, &NodeAffinity, MakePod, MakeNode, Option<&str>)> = vec![
            ("nothing to match", &plain, MakePod::new("p"), MakeNode::new("n"), None),
            (
                "nodeSelector matches",
                &plain,
                MakePod::new("p").node_selector("zone", "a"),
                MakeNode::new("n").label("zone", "a"),
                None,
            ),
            (
                "nodeSelector does not match",
                &plain,
                MakePod::new("p").node_selector("zone", "a"),
                MakeNode::new("n").label("zone", "b"),
                Some(ERR_REASON_POD),
            ),
            (
                "required term matches",
                &plain,
                zone_b(),
                MakeNode::new("n").label("zone", "b"),
                None,
            ),
            (
                "required term does not match",
                &plain,
                zone_b(),
                MakeNode::new("n").label("zone", "a"),
                Some(ERR_REASON_POD),
            ),
            (
                "nodeSelector and affinity are ANDed",
                &plain,
                zone_b().node_selector("disk", "ssd"),
                MakeNode::new("n").label("zone", "b"),
                Some(ERR_REASON_POD),
            ),
            (
                "terms are ORed",
                &plain,
                with_na(
                    MakePod::new("p"),
                    required(vec![
                        term(vec![req("zone", "In", &["x"])], vec![]),
                        term(vec![req("zone", "Exists", &[])], vec![]),
                    ]),
                ),
                MakeNode::new("n").label("zone", "a"),
                None,
            ),
            (
                "an empty term matches nothing",
                &plain,
                with_na(MakePod::new("p"), required(vec![term(vec![], vec![])])),
                MakeNode::new("n"),
                Some(ERR_REASON_POD),
            ),
            (
                "Gt compares integers",
                &plain,
                with_na(MakePod::new("p"), required(vec![term(vec![req("cores", "Gt", &["4"])], vec![])])),
                MakeNode::new("n").label("cores", "16"),
                None,
            ),
            (
                "matchFields on the node name",
                &plain,
                with_na(
                    MakePod::new("p"),
                    required(vec![term(vec![], vec![req("metadata.name", "NotIn", &["n"])])]),
                ),
                MakeNode::new("n"),
                Some(ERR_REASON_POD),
            ),
            (
                "enforced affinity rejects first",
                &enforced,
                MakePod::new("p").node_selector("zone", "a"),
                MakeNode::new("n").label("zone", "b"),
                Some(ERR_REASON_ENFORCED),
            ),
            (
                "enforced affinity applies to pods without affinity",
                &enforced,
                MakePod::new("p"),
                MakeNode::new("n"),
                Some(ERR_REASON_ENFORCED),
            ),
            (
                "enforced affinity satisfied, pod selector checked",
                &enforced,
                MakePod::new("p").node_selector("zone", "a"),
                MakeNode::new("n").label("pool", "a").label("zone", "b"),
                Some(ERR_REASON_POD),
            ),
            (
                "both satisfied",
                &enforced,
                MakePod::new("p").node_selector("zone", "a"),
                MakeNode::new("n").label("pool", "a").label("zone", "a"),
                None,
            ),
        ];
        for (name, pl, pod, node, want) in cases {
            let s = run_filter(pl, &pod.info(), node);
            match want {
                None => assert!(s.is_success(), "{name}: {s:?}"),
                Some(msg) => {
                    assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
                    assert_eq!(s.message(), msg, "{name}");
                }
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_filter() {
        let plain = NodeAffinity::new(&NodeAffinityArgs::default());
        let names = |v: &[&str]| Some(PreFilterResult::nodes(v.iter().map(|s| s.to_string())));
        let name_in = |vals: &[&str]| req("metadata.name", "In", vals);
        let cases: Vec<(&str, MakePod, Option<PreFilterResult>, Code, &str)> = vec![
            ("no affinity: skip", MakePod::new("p"), None, Code::Skip, ""),
            (
                "only nodeSelector",
                MakePod::new("p").node_selector("a", "b"),
                None,
                Code::Success,
                "",
            ),
            (
                "only preferred terms: skip",
                with_na(MakePod::new("p"), preferred(vec![(1, term(vec![req("a", "Exists", &[])], vec![]))])),
                None,
                Code::Skip,
                "",
            ),
            (
                "label terms do not narrow",
                with_na(MakePod::new("p"), required(vec![term(vec![req("a", "Exists", &[])], vec![])])),
                None,
                Code::Success,
                "",
            ),
            (
                "one pinned term",
                with_na(MakePod::new("p"), required(vec![term(vec![], vec![name_in(&["n1"])])])),
                names(&["n1"]),
                Code::Success,
                "",
            ),
            (
                "pinned terms are unioned",
                with_na(
                    MakePod::new("p"),
                    required(vec![term(vec![], vec![name_in(&["n1"])]), term(vec![], vec![name_in(&["n2"])])]),
                ),
                names(&["n1", "n2"]),
                Code::Success,
                "",
            ),
            (
                "a term without a pin keeps all nodes",
                with_na(
                    MakePod::new("p"),
                    required(vec![
                        term(vec![], vec![name_in(&["n1"])]),
                        term(vec![req("a", "Exists", &[])], vec![]),
                    ]),
                ),
                None,
                Code::Success,
                "",
            ),
            (
                "NotIn does not pin",
                with_na(
                    MakePod::new("p"),
                    required(vec![term(vec![], vec![req("metadata.name", "NotIn", &["n1"])])]),
                ),
                None,
                Code::Success,
                "",
            ),
            (
                "pins within a term are intersected",
                with_na(
                    MakePod::new("p"),
                    required(vec![term(vec![], vec![name_in(&["n1", "n2"]), name_in(&["n2", "n3"])])]),
                ),
                names(&["n2"]),
                Code::Success,
                "",
            ),
            (
                "conflicting pins",
                with_na(
                    MakePod::new("p"),
                    required(vec![term(vec![], vec![name_in(&["n1"]), name_in(&["n2"])])]),
                ),
                None,
                Code::UnschedulableAndUnresolvable,
                ERR_REASON_CONFLICT,
            ),
            ("no terms", with_na(MakePod::new("p"), required(vec![])), None, Code::Success, ""),
        ];
        let env = Env::new(vec![], vec![]);
        for (name, pod, want_res, want_code, want_msg) in cases {
            let mut state = CycleState::new();
            let (res, s) = plain.pre_filter(&env.cx(), &mut state, &pod.info());
            assert_eq!(res, want_res, "{name}");
            assert_eq!(s.code, want_code, "{name}");
            assert_eq!(s.message(), want_msg, "{name}");
        }
        // An enforced selector means PreFilter never skips.
        let enforced = NodeAffinity::new(&args(required(vec![term(vec![req("pool", "In", &["a"])], vec![])])));
        let (_, s) = enforced.pre_filter(&env.cx(), &mut CycleState::new(), &MakePod::new("p").info());
        assert!(s.is_success());
    }

    fn run_score(pl: &NodeAffinity, pod: MakePod, nodes: Vec<MakeNode>) -> Option<(Vec<i64>, Vec<i64>)> {
        let env = Env::new(nodes.into_iter().map(|n| n.obj()).collect(), vec![]);
        let pod = pod.info();
        let cx = env.cx();
        let infos: Vec<&NodeInfo> = env.snapshot.nodes().iter().collect();
        let mut state = CycleState::new();
        let s = pl.pre_score(&cx, &mut state, &pod, &infos);
        if s.is_skip() {
            return None;
        }
        assert!(s.is_success());
        let mut scores: Vec<NodeScore> = infos
            .iter()
            .enumerate()
            .map(|(i, n)| NodeScore {
                node: i,
                score: pl.score(&cx, &state, &pod, n).unwrap(),
            })
            .collect();
        let raw = scores.iter().map(|s| s.score).collect();
        assert!(pl.normalize_score(&cx, &state, &pod, &mut scores).is_success());
        Some((raw, scores.iter().map(|s| s.score).collect()))
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score() {
        let plain = NodeAffinity::new(&NodeAffinityArgs::default());
        let added = NodeAffinity::new(&args(preferred(vec![(5, term(vec![req("pool", "In", &["a"])], vec![]))])));
        let nodes = || {
            vec![
                MakeNode::new("n1").label("zone", "a").label("disk", "ssd"),
                MakeNode::new("n2").label("zone", "a").label("pool", "a"),
                MakeNode::new("n3").label("zone", "b"),
            ]
        };
        let pod_pref = || {
            with_na(
                MakePod::new("p"),
                preferred(vec![
                    (2, term(vec![req("zone", "In", &["a"])], vec![])),
                    (5, term(vec![req("disk", "In", &["ssd"])], vec![])),
                    (9, term(vec![], vec![])),
                    (0, term(vec![req("zone", "In", &["b"])], vec![])),
                ]),
            )
        };
        type Case<'a> = (&'a str, &'a NodeAffinity, MakePod, Option<(Vec<i64>, Vec<i64>)>);
        let cases: Vec<Case> = vec![
            ("no preferences: skip", &plain, MakePod::new("p"), None),
            (
                "required only: skip",
                &plain,
                with_na(MakePod::new("p"), required(vec![term(vec![req("zone", "Exists", &[])], vec![])])),
                None,
            ),
            (
                "weights summed; empty and zero-weight terms ignored",
                &plain,
                pod_pref(),
                Some((vec![7, 2, 0], vec![100, 28, 0])),
            ),
            (
                "added preferences only",
                &added,
                MakePod::new("p"),
                Some((vec![0, 5, 0], vec![0, 100, 0])),
            ),
            (
                "pod and added preferences add up",
                &added,
                pod_pref(),
                Some((vec![7, 7, 0], vec![100, 100, 0])),
            ),
        ];
        for (name, pl, pod, want) in cases {
            assert_eq!(run_score(pl, pod, nodes()), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_hints() {
        let env = Env::new(vec![], vec![]);
        let plain = NodeAffinity::new(&NodeAffinityArgs::default());
        let enforced = NodeAffinity::new(&args(required(vec![term(vec![req("pool", "In", &["a"])], vec![])])));
        let pod = MakePod::new("p").node_selector("zone", "a").info();
        let ev = ClusterEvent::new(EventResource::Node, ActionType::UPDATE_NODE_LABEL);
        let node = |kv: &[(&str, &str)]| {
            let mut n = MakeNode::new("n");
            for (k, v) in kv {
                n = n.label(k, v);
            }
            Arc::new(n.obj())
        };
        let cases = [
            ("new matching node", &plain, None, node(&[("zone", "a")]), QueueingHint::Queue),
            ("new non-matching node", &plain, None, node(&[("zone", "b")]), QueueingHint::Skip),
            ("label added", &plain, Some(node(&[])), node(&[("zone", "a")]), QueueingHint::Queue),
            (
                "already matched",
                &plain,
                Some(node(&[("zone", "a")])),
                node(&[("zone", "a"), ("x", "y")]),
                QueueingHint::Skip,
            ),
            (
                "enforced affinity not met",
                &enforced,
                None,
                node(&[("zone", "a")]),
                QueueingHint::Skip,
            ),
            (
                "enforced affinity met",
                &enforced,
                None,
                node(&[("zone", "a"), ("pool", "a")]),
                QueueingHint::Queue,
            ),
        ];
        for (name, pl, old, new, want) in cases {
            let obj = EventObject::Node { old, new: Some(new) };
            assert_eq!(pl.queueing_hint(&env.cx(), &pod, ev, &obj), Ok(want), "{name}");
        }
    }
}
