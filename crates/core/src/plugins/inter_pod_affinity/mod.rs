//! InterPodAffinity: required pod affinity / anti-affinity (both the incoming pod's terms and
//! the required anti-affinity of pods already running) as a filter, and preferred terms (plus
//! existing pods' required affinity, weighted by hardPodAffinityWeight) as a score.
//!
//! Terms of the incoming pod have their namespaceSelector resolved to namespace names once per
//! cycle, so they match other pods without looking at those pods' namespace labels. Terms of
//! existing pods are matched against the incoming pod with the labels of its namespace.

pub mod args;

use crate::api::{self, Labels, Node};
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::registry::Descriptor;
use crate::framework::{
    AffinityTerm, Code, Ctx, CycleState, NodeInfo, NodeScore, Plugin, PodInfo, PreFilterResult, Status, WeightedAffinityTerm,
    MAX_NODE_SCORE,
};
use crate::labels::Selector;
use crate::plugins::helper::PreStates;
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::InterPodAffinityArgs;
use std::collections::HashMap;
use std::sync::Arc;

pub const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't satisfy existing pods anti-affinity rules";
pub const ERR_REASON_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't match pod affinity rules";
pub const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't match pod anti-affinity rules";

/// The label set used where upstream passes no namespace labels at all: a selector that
/// matches everything still matches it, any real requirement does not.
static NO_LABELS: Labels = Labels::new();

/// Pod label keys merged into the label selectors of pod (anti-)affinity terms when a pod is
/// created (the apiserver's handling of `matchLabelKeys` / `mismatchLabelKeys`, feature
/// MatchLabelKeysInPodAffinity, GA in v1.33). For each listed key the pod carries, the term's
/// selector gains `key In (value)` (matchLabelKeys) or `key NotIn (value)` (mismatchLabelKeys).
/// Terms without a label selector are left alone (a nil selector matches nothing anyway).
/// The key lists themselves are kept, as the apiserver keeps them.
pub fn merge_match_label_keys(pod: &mut api::Pod) {
    let labels = pod.metadata.labels.clone();
    let Some(aff) = pod.spec.affinity.as_mut() else { return };
    let apply = |term: &mut api::PodAffinityTerm| {
        if term.match_label_keys.is_empty() && term.mismatch_label_keys.is_empty() {
            return;
        }
        let Some(sel) = term.label_selector.as_mut() else { return };
        for (keys, op) in [(&term.match_label_keys, "In"), (&term.mismatch_label_keys, "NotIn")] {
            for key in keys {
                if let Some(v) = labels.get(key) {
                    sel.match_expressions.push(api::LabelSelectorRequirement {
                        key: key.clone(),
                        operator: op.into(),
                        values: vec![v.clone()],
                    });
                }
            }
        }
    };
    for pa in [aff.pod_affinity.as_mut(), aff.pod_anti_affinity.as_mut()].into_iter().flatten() {
        for w in &mut pa.preferred_during_scheduling_ignored_during_execution {
            apply(&mut w.pod_affinity_term);
        }
        for t in &mut pa.required_during_scheduling_ignored_during_execution {
            apply(t);
        }
    }
}

/// Counts per topology pair (key, value). Entries that drop to zero are removed, so `len` is
/// the number of pairs with a non-zero count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct TopologyCounts {
    by_key: HashMap<String, HashMap<String, i64>>,
    len: usize,
}

impl TopologyCounts {
    fn get(&self, key: &str, value: &str) -> i64 {
        self.by_key.get(key).and_then(|m| m.get(value)).copied().unwrap_or(0)
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Adds `delta` to the pair (`key`, the node's value for `key`) when the node has the key.
    fn update(&mut self, node: &Node, key: &str, delta: i64) {
        let Some(value) = node.metadata.labels.get(key) else { return };
        let values = match self.by_key.get_mut(key) {
            Some(m) => m,
            None => self.by_key.entry(key.to_string()).or_default(),
        };
        match values.get_mut(value.as_str()) {
            Some(c) => {
                *c += delta;
                if *c == 0 {
                    values.remove(value.as_str());
                    self.len -= 1;
                    if values.is_empty() {
                        self.by_key.remove(key);
                    }
                }
            }
            None if delta != 0 => {
                values.insert(value.clone(), delta);
                self.len += 1;
            }
            None => {}
        }
    }
    /// For every term, counts the pair of the node when `pod` matches all `terms`.
    fn update_with_affinity_terms(&mut self, terms: &[AffinityTerm], pod: &PodInfo, node: &Node, delta: i64) {
        if pod_matches_all_affinity_terms(terms, pod) {
            for t in terms {
                self.update(node, &t.topology_key, delta);
            }
        }
    }
    /// Counts the node's pair for each term that `pod` matches.
    fn update_with_anti_affinity_terms(&mut self, terms: &[AffinityTerm], pod: &PodInfo, ns_labels: &Labels, node: &Node, delta: i64) {
        for t in terms {
            if t.matches(pod, Some(ns_labels)) {
                self.update(node, &t.topology_key, delta);
            }
        }
    }
}

/// Whether `pod` matches every one of the (incoming pod's, namespace-resolved) terms; false for
/// no terms.
fn pod_matches_all_affinity_terms(terms: &[AffinityTerm], pod: &PodInfo) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(pod, Some(&NO_LABELS)))
}

/// Replaces a term's namespaceSelector by the names of the namespaces it selects. An empty
/// selector (all namespaces) is kept as it is.
fn resolve_namespaces(cx: &Ctx, term: &mut AffinityTerm) {
    if term.namespace_selector.is_everything() {
        return;
    }
    for (name, ns) in &cx.cluster.namespaces {
        if term.namespace_selector.matches(&ns.metadata.labels) {
            term.namespaces.push(name.clone());
        }
    }
    term.namespace_selector = crate::labels::Selector::Nothing;
}

fn resolved_terms(cx: &Ctx, terms: &[AffinityTerm]) -> Vec<AffinityTerm> {
    terms
        .iter()
        .map(|t| {
            let mut t = t.clone();
            resolve_namespaces(cx, &mut t);
            t
        })
        .collect()
}

fn resolved_weighted_terms(cx: &Ctx, terms: &[WeightedAffinityTerm]) -> Vec<WeightedAffinityTerm> {
    terms
        .iter()
        .map(|t| {
            let mut t = t.clone();
            resolve_namespaces(cx, &mut t.term);
            t
        })
        .collect()
}

fn namespace_labels(cx: &Ctx, ns: &str) -> Labels {
    cx.cluster.namespace_labels(ns).cloned().unwrap_or_default()
}

/// The incoming pod's required terms, namespace-resolved, shared by clones of the state.
#[derive(Debug)]
struct IncomingRequired {
    affinity: Vec<AffinityTerm>,
    anti_affinity: Vec<AffinityTerm>,
    namespace_labels: Labels,
}

#[derive(Clone, Debug)]
struct PreFilterState {
    /// Pairs where running pods have required anti-affinity terms matching the incoming pod.
    existing_anti_affinity: TopologyCounts,
    /// Pairs of running pods matching all of the incoming pod's required affinity terms.
    affinity: TopologyCounts,
    /// Pairs of running pods matching the incoming pod's required anti-affinity terms.
    anti_affinity: TopologyCounts,
    incoming: Arc<IncomingRequired>,
}

impl PreFilterState {
    /// Accounts for `other` being added (delta 1) to or removed (delta -1) from `node`.
    fn update_with_pod(&mut self, pod: &PodInfo, other: &PodInfo, node: &Node, delta: i64) {
        let inc = &self.incoming;
        self.existing_anti_affinity.update_with_anti_affinity_terms(
            &other.required_anti_affinity_terms,
            pod,
            &inc.namespace_labels,
            node,
            delta,
        );
        self.affinity.update_with_affinity_terms(&inc.affinity, other, node, delta);
        self.anti_affinity
            .update_with_anti_affinity_terms(&inc.anti_affinity, other, &NO_LABELS, node, delta);
    }
}

#[derive(Clone, Debug)]
struct PreScoreState {
    /// topology key -> value -> summed weight.
    topology_score: HashMap<String, HashMap<String, i64>>,
}

/// Scoring inputs of one cycle.
struct ScoreInputs<'a> {
    pod: &'a PodInfo,
    preferred_affinity: Vec<WeightedAffinityTerm>,
    preferred_anti_affinity: Vec<WeightedAffinityTerm>,
    namespace_labels: Labels,
    hard_weight: i32,
}

fn add_score(scores: &mut HashMap<String, HashMap<String, i64>>, term: &AffinityTerm, node: &Node, weight: i64) -> bool {
    let Some(value) = node.metadata.labels.get(&term.topology_key) else {
        return false;
    };
    let values = match scores.get_mut(term.topology_key.as_str()) {
        Some(m) => m,
        None => scores.entry(term.topology_key.clone()).or_default(),
    };
    match values.get_mut(value.as_str()) {
        Some(c) => *c += weight,
        None => {
            values.insert(value.clone(), weight);
        }
    }
    true
}

/// Which term a contribution to the topology scores comes from (index into the pod's terms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum ScoreSource {
    /// The incoming pod's preferred affinity term matches the running pod.
    Preferred(usize),
    /// The incoming pod's preferred anti-affinity term matches the running pod.
    PreferredAnti(usize),
    /// The running pod's required affinity term matches the incoming pod.
    ExistingRequired(usize),
    /// The running pod's preferred affinity term matches the incoming pod.
    ExistingPreferred(usize),
    /// The running pod's preferred anti-affinity term matches the incoming pod.
    ExistingPreferredAnti(usize),
}

/// Where PreScore's contributions go: the topology score map, or a recorder for explanations.
trait ScoreSink {
    /// Adds `weight` for the node's pair of the term's key; false when the node lacks the key.
    fn add(&mut self, term: &AffinityTerm, node: &Node, weight: i64, source: ScoreSource) -> bool;
}

impl ScoreSink for HashMap<String, HashMap<String, i64>> {
    #[inline]
    fn add(&mut self, term: &AffinityTerm, node: &Node, weight: i64, _source: ScoreSource) -> bool {
        add_score(self, term, node, weight)
    }
}

impl ScoreInputs<'_> {
    /// Adds what one running pod contributes to the topology scores; true if it contributed.
    fn process_existing_pod<S: ScoreSink>(&self, existing: &PodInfo, node: &Node, scores: &mut S) -> bool {
        if node.metadata.labels.is_empty() {
            return false;
        }
        let mut any = false;
        // The incoming pod's preferences towards the running pod.
        any |= process_weighted(
            &self.preferred_affinity,
            existing,
            &NO_LABELS,
            node,
            1,
            ScoreSource::Preferred,
            scores,
        );
        any |= process_weighted(
            &self.preferred_anti_affinity,
            existing,
            &NO_LABELS,
            node,
            -1,
            ScoreSource::PreferredAnti,
            scores,
        );
        // The running pod's terms towards the incoming pod.
        if self.hard_weight > 0 {
            for (i, t) in existing.required_affinity_terms.iter().enumerate() {
                if t.matches(self.pod, Some(&self.namespace_labels)) {
                    any |= scores.add(t, node, self.hard_weight as i64, ScoreSource::ExistingRequired(i));
                }
            }
        }
        any |= process_weighted(
            &existing.preferred_affinity_terms,
            self.pod,
            &self.namespace_labels,
            node,
            1,
            ScoreSource::ExistingPreferred,
            scores,
        );
        any |= process_weighted(
            &existing.preferred_anti_affinity_terms,
            self.pod,
            &self.namespace_labels,
            node,
            -1,
            ScoreSource::ExistingPreferredAnti,
            scores,
        );
        any
    }
}

/// Adds each term's weight (times `sign`) for the node's pair when `target` matches the term.
fn process_weighted<S: ScoreSink>(
    terms: &[WeightedAffinityTerm],
    target: &PodInfo,
    ns_labels: &Labels,
    node: &Node,
    sign: i32,
    source: fn(usize) -> ScoreSource,
    scores: &mut S,
) -> bool {
    let mut any = false;
    for (i, t) in terms.iter().enumerate() {
        if t.term.matches(target, Some(ns_labels)) {
            any |= scores.add(&t.term, node, (t.weight * sign) as i64, source(i));
        }
    }
    any
}

pub struct InterPodAffinity {
    args: InterPodAffinityArgs,
}

impl InterPodAffinity {
    pub fn new(args: &InterPodAffinityArgs) -> InterPodAffinity {
        InterPodAffinity { args: *args }
    }
}

impl InterPodAffinity {
    /// PreScore's inputs, and whether the pod has preferred terms of its own; None when
    /// PreScore skips the plugin.
    fn score_inputs<'a>(&self, cx: &Ctx, pod: &'a PodInfo) -> Result<Option<(ScoreInputs<'a>, bool)>, Status> {
        let aff = pod.pod.spec.affinity.as_ref();
        let has_preferred_affinity = aff
            .and_then(|a| a.pod_affinity.as_ref())
            .is_some_and(|p| !p.preferred_during_scheduling_ignored_during_execution.is_empty());
        let has_preferred_anti_affinity = aff
            .and_then(|a| a.pod_anti_affinity.as_ref())
            .is_some_and(|p| !p.preferred_during_scheduling_ignored_during_execution.is_empty());
        let has_constraints = has_preferred_affinity || has_preferred_anti_affinity;
        if self.args.ignore_preferred_terms_of_existing_pods && !has_constraints {
            return Ok(None);
        }
        if let Some(e) = &pod.affinity_parse_error {
            return Err(Status::error(format!("failed to parse pod: {e}")));
        }
        // Fast path: nothing to score against.
        if !has_constraints && !cx.snapshot.has_pods_with_affinity() {
            return Ok(None);
        }
        let inputs = ScoreInputs {
            pod,
            preferred_affinity: resolved_weighted_terms(cx, &pod.preferred_affinity_terms),
            preferred_anti_affinity: resolved_weighted_terms(cx, &pod.preferred_anti_affinity_terms),
            namespace_labels: namespace_labels(cx, pod.namespace()),
            hard_weight: self.args.hard_pod_affinity_weight,
        };
        Ok(Some((inputs, has_constraints)))
    }
}

fn missing_state(what: &str) -> Status {
    Status::error(format!("error reading \"{what}InterPodAffinity\" from cycleState: not found"))
}

/// Whether the node satisfies the incoming pod's required affinity.
fn satisfy_pod_affinity(s: &PreFilterState, pod: &PodInfo, node: &NodeInfo) -> bool {
    let labels = node.labels();
    let mut pods_exist = true;
    for t in &s.incoming.affinity {
        match labels.get(&t.topology_key) {
            Some(v) => {
                if s.affinity.get(&t.topology_key, v) <= 0 {
                    pods_exist = false;
                }
            }
            None => return false,
        }
    }
    if pods_exist {
        return true;
    }
    // No pod anywhere matches the terms yet: the pod may still go ahead when it matches its
    // own terms (the first of a group of pods with affinity to each other).
    s.affinity.is_empty() && pod_matches_all_affinity_terms(&s.incoming.affinity, pod)
}

/// Whether the node satisfies the incoming pod's required anti-affinity.
fn satisfy_pod_anti_affinity(s: &PreFilterState, node: &NodeInfo) -> bool {
    if s.anti_affinity.is_empty() {
        return true;
    }
    let labels = node.labels();
    !s.incoming.anti_affinity.iter().any(|t| {
        labels
            .get(&t.topology_key)
            .is_some_and(|v| s.anti_affinity.get(&t.topology_key, v) > 0)
    })
}

/// Whether placing the pod on the node breaks no running pod's required anti-affinity.
fn satisfy_existing_pods_anti_affinity(s: &PreFilterState, node: &NodeInfo) -> bool {
    if s.existing_anti_affinity.is_empty() {
        return true;
    }
    !node.labels().iter().any(|(k, v)| s.existing_anti_affinity.get(k, v) > 0)
}

impl Plugin for InterPodAffinity {
    fn name(&self) -> PluginName {
        PluginName::InterPodAffinity
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        vec![
            ClusterEventWithHint::hinted(
                EventResource::Pod,
                ActionType::ADD.union(ActionType::UPDATE_POD_LABEL).union(ActionType::DELETE),
            ),
            // With queueing hints on, node taint updates are not registered.
            ClusterEventWithHint::hinted(EventResource::Node, ActionType::ADD.union(ActionType::UPDATE_NODE_LABEL)),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::Pod { old, new } => pod_change_hint(pod, old.as_deref(), new.as_deref()),
            EventObject::Node { old, new: Some(new) } => node_change_hint(pod, old.as_deref(), new),
            _ => Err(format!("unexpected object for event {}", event.label())),
        }
    }

    fn pre_filter(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        if let Some(e) = &pod.affinity_parse_error {
            return (None, Status::unresolvable(format!("parsing pod: {e}")));
        }
        // Fast path: no terms of its own and no running pod with required anti-affinity.
        if pod.required_affinity_terms.is_empty()
            && pod.required_anti_affinity_terms.is_empty()
            && !cx.snapshot.has_pods_with_required_anti_affinity()
        {
            return (None, Status::skip());
        }
        let incoming = IncomingRequired {
            affinity: resolved_terms(cx, &pod.required_affinity_terms),
            anti_affinity: resolved_terms(cx, &pod.required_anti_affinity_terms),
            namespace_labels: namespace_labels(cx, pod.namespace()),
        };

        let mut existing_anti_affinity = TopologyCounts::default();
        for n in cx.snapshot.nodes() {
            for existing in &n.pods_with_required_anti_affinity {
                existing_anti_affinity.update_with_anti_affinity_terms(
                    &existing.required_anti_affinity_terms,
                    pod,
                    &incoming.namespace_labels,
                    &n.node,
                    1,
                );
            }
        }

        let mut affinity = TopologyCounts::default();
        let mut anti_affinity = TopologyCounts::default();
        if !incoming.affinity.is_empty() || !incoming.anti_affinity.is_empty() {
            for n in cx.snapshot.nodes() {
                for existing in &n.pods {
                    affinity.update_with_affinity_terms(&incoming.affinity, existing, &n.node, 1);
                    anti_affinity.update_with_anti_affinity_terms(&incoming.anti_affinity, existing, &NO_LABELS, &n.node, 1);
                }
            }
        }

        if existing_anti_affinity.is_empty() && incoming.affinity.is_empty() && incoming.anti_affinity.is_empty() {
            return (None, Status::skip());
        }
        CycleData::slot(state, PluginName::InterPodAffinity).pre_filter = Some(PreFilterState {
            existing_anti_affinity,
            affinity,
            anti_affinity,
            incoming: Arc::new(incoming),
        });
        (None, Status::success())
    }

    fn has_pre_filter_extensions(&self) -> bool {
        true
    }

    fn add_pod(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_add: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        let Some(s) = CycleData::pre_filter_mut(state, PluginName::InterPodAffinity) else {
            return missing_state("PreFilter");
        };
        s.update_with_pod(pod, to_add, &node.node, 1);
        Status::success()
    }

    fn remove_pod(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo, to_remove: &Arc<PodInfo>, node: &NodeInfo) -> Status {
        let Some(s) = CycleData::pre_filter_mut(state, PluginName::InterPodAffinity) else {
            return missing_state("PreFilter");
        };
        s.update_with_pod(pod, to_remove, &node.node, -1);
        Status::success()
    }

    fn filter(&self, _cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        let Some(s) = CycleData::pre_filter(state, PluginName::InterPodAffinity) else {
            return missing_state("PreFilter");
        };
        if !satisfy_pod_affinity(s, pod, node) {
            return Status::new(Code::UnschedulableAndUnresolvable, ERR_REASON_AFFINITY_RULES_NOT_MATCH);
        }
        if !satisfy_pod_anti_affinity(s, node) {
            return Status::unschedulable(ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
        }
        if !satisfy_existing_pods_anti_affinity(s, node) {
            return Status::unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
        }
        Status::success()
    }

    fn pre_score(&self, cx: &Ctx, state: &mut CycleState, pod: &PodInfo, _nodes: &[&NodeInfo]) -> Status {
        let (inputs, has_constraints) = match self.score_inputs(cx, pod) {
            Ok(Some(i)) => i,
            Ok(None) => return Status::skip(),
            Err(s) => return s,
        };
        let mut topology_score = HashMap::new();
        let mut any = false;
        for n in cx.snapshot.nodes() {
            // Without preferred terms of its own, only running pods with affinity can matter.
            let pods = if has_constraints { &n.pods } else { &n.pods_with_affinity };
            for existing in pods {
                any |= inputs.process_existing_pod(existing, &n.node, &mut topology_score);
            }
        }
        if !any {
            return Status::skip();
        }
        CycleData::slot(state, PluginName::InterPodAffinity).pre_score = Some(Arc::new(PreScoreState { topology_score }));
        Status::success()
    }

    fn score(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let Some(s) = CycleData::pre_score(state, PluginName::InterPodAffinity) else {
            return Err(Status::error(
                "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found",
            ));
        };
        let labels = node.labels();
        let mut score = 0;
        for (key, values) in &s.topology_score {
            if let Some(v) = labels.get(key) {
                score += values.get(v.as_str()).copied().unwrap_or(0);
            }
        }
        Ok(score)
    }

    fn has_normalize_score(&self) -> bool {
        true
    }

    fn normalize_score(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        let Some(s) = CycleData::pre_score(state, PluginName::InterPodAffinity) else {
            return Status::error("failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
        };
        if s.topology_score.is_empty() {
            return Status::success();
        }
        let min = scores.iter().map(|s| s.score).min().unwrap_or(i64::MAX);
        let max = scores.iter().map(|s| s.score).max().unwrap_or(i64::MIN);
        let diff = max.wrapping_sub(min);
        for s in scores.iter_mut() {
            let f = if diff > 0 {
                MAX_NODE_SCORE as f64 * ((s.score - min) as f64 / diff as f64)
            } else {
                0.0
            };
            s.score = f as i64;
        }
        Status::success()
    }
}

/// One required term of the incoming pod on one node, for the playground's explanations.
#[derive(Clone, Debug)]
struct RequiredTermView {
    pub topology_key: String,
    pub selector: Selector,
    /// The namespaces the term looks in, its namespace selector resolved; `all_namespaces` for
    /// an empty namespace selector.
    pub namespaces: Vec<String>,
    pub all_namespaces: bool,
    /// The node's value for the key (None: the node lacks the label).
    pub node_value: Option<String>,
    /// Matching pods in the node's domain, as the cycle state counts them.
    pub count: i64,
    /// Those pods (namespace/name, node), found by looking through the domain.
    pub pods: Vec<(String, String)>,
}

/// A running pod whose required anti-affinity term matches the incoming pod, in the node's
/// domain of the term's key.
#[derive(Clone, Debug)]
struct ExistingAntiView {
    pub pod: String,
    pub node: String,
    pub topology_key: String,
    pub value: String,
}

/// The numbers behind Filter's verdict on one node.
#[derive(Clone, Debug)]
struct AffinityFilterView {
    pub affinity: Vec<RequiredTermView>,
    pub anti_affinity: Vec<RequiredTermView>,
    pub existing_anti: Vec<ExistingAntiView>,
    /// No running pod anywhere matches all the affinity terms.
    pub affinity_matches_nowhere: bool,
    /// The incoming pod matches all of its own affinity terms.
    pub matches_own_affinity: bool,
    pub affinity_ok: bool,
    pub anti_affinity_ok: bool,
    pub existing_anti_affinity_ok: bool,
}

/// Explains Filter on `node` from the cycle state PreFilter wrote (None when it skipped the
/// plugin). `node` may carry nominated pods the snapshot's copy does not.
fn explain_filter(cx: &Ctx, state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Option<AffinityFilterView> {
    let s = CycleData::pre_filter(state, PluginName::InterPodAffinity)?;
    let inc = &s.incoming;
    let nodes = || {
        cx.snapshot
            .nodes()
            .iter()
            .map(move |n| if n.name() == node.name() { node } else { n })
    };
    let term_view = |t: &AffinityTerm, counts: &TopologyCounts, matches: &dyn Fn(&PodInfo) -> bool| {
        let node_value = node.labels().get(&t.topology_key).cloned();
        let mut pods = Vec::new();
        if let Some(v) = &node_value {
            for n in nodes().filter(|n| n.labels().get(&t.topology_key) == Some(v)) {
                for p in n.pods.iter().filter(|p| matches(p)) {
                    pods.push((p.key.clone(), n.name().to_string()));
                }
            }
        }
        RequiredTermView {
            topology_key: t.topology_key.clone(),
            selector: t.selector.clone(),
            namespaces: t.namespaces.clone(),
            all_namespaces: t.namespace_selector.is_everything(),
            count: node_value.as_ref().map_or(0, |v| counts.get(&t.topology_key, v)),
            node_value,
            pods,
        }
    };
    let affinity = inc
        .affinity
        .iter()
        .map(|t| term_view(t, &s.affinity, &|p| pod_matches_all_affinity_terms(&inc.affinity, p)))
        .collect();
    let anti_affinity = inc
        .anti_affinity
        .iter()
        .map(|t| term_view(t, &s.anti_affinity, &|p| t.matches(p, Some(&NO_LABELS))))
        .collect();
    let mut existing_anti = Vec::new();
    for n in nodes() {
        for e in &n.pods_with_required_anti_affinity {
            for t in e
                .required_anti_affinity_terms
                .iter()
                .filter(|t| t.matches(pod, Some(&inc.namespace_labels)))
            {
                let Some(v) = n.labels().get(&t.topology_key) else { continue };
                if node.labels().get(&t.topology_key) == Some(v) {
                    existing_anti.push(ExistingAntiView {
                        pod: e.key.clone(),
                        node: n.name().to_string(),
                        topology_key: t.topology_key.clone(),
                        value: v.clone(),
                    });
                }
            }
        }
    }
    Some(AffinityFilterView {
        affinity,
        anti_affinity,
        existing_anti,
        affinity_matches_nowhere: s.affinity.is_empty(),
        matches_own_affinity: pod_matches_all_affinity_terms(&inc.affinity, pod),
        affinity_ok: satisfy_pod_affinity(s, pod, node),
        anti_affinity_ok: satisfy_pod_anti_affinity(s, node),
        existing_anti_affinity_ok: satisfy_existing_pods_anti_affinity(s, node),
    })
}

/// One running pod's contribution to a node's raw score, for the playground's explanations.
#[derive(Clone, Debug)]
struct ScoreContribution {
    pub source: ScoreSource,
    /// The term's weight with its sign (hardPodAffinityWeight for a required term).
    pub weight: i64,
    pub topology_key: String,
    pub value: String,
    /// The running pod (namespace/name) and its node.
    pub pod: String,
    pub pod_node: String,
}

/// Records the contributions that land on one node's topology pairs.
struct ContributionRecorder<'a> {
    target: &'a Node,
    found: Vec<(ScoreSource, i64, String, String)>,
}

impl ScoreSink for ContributionRecorder<'_> {
    fn add(&mut self, term: &AffinityTerm, node: &Node, weight: i64, source: ScoreSource) -> bool {
        let Some(value) = node.metadata.labels.get(&term.topology_key) else {
            return false;
        };
        if self.target.metadata.labels.get(&term.topology_key) == Some(value) {
            self.found.push((source, weight, term.topology_key.clone(), value.clone()));
        }
        true
    }
}

/// Every contribution to `node`'s raw score (they sum to it), found the way PreScore finds
/// them; None when PreScore skips the plugin.
fn explain_score(args: &InterPodAffinityArgs, cx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> Option<Vec<ScoreContribution>> {
    let pl = InterPodAffinity::new(args);
    let (inputs, has_constraints) = pl.score_inputs(cx, pod).ok()??;
    let mut rec = ContributionRecorder {
        target: &node.node,
        found: Vec::new(),
    };
    let mut out = Vec::new();
    for n in cx.snapshot.nodes() {
        let pods = if has_constraints { &n.pods } else { &n.pods_with_affinity };
        for existing in pods {
            inputs.process_existing_pod(existing, &n.node, &mut rec);
            for (source, weight, topology_key, value) in rec.found.drain(..) {
                out.push(ScoreContribution {
                    source,
                    weight,
                    topology_key,
                    value,
                    pod: existing.key.clone(),
                    pod_node: n.name().to_string(),
                });
            }
        }
    }
    Some(out)
}

/// Queueing hint for a pod added, updated or deleted (upstream isSchedulableAfterPodChange).
fn pod_change_hint(pod: &PodInfo, old: Option<&PodInfo>, new: Option<&PodInfo>) -> Result<QueueingHint, String> {
    if new.is_some_and(|p| p.node_name().is_none()) || old.is_some_and(|p| p.node_name().is_none()) {
        return Ok(QueueingHint::Skip);
    }
    if let Some(e) = &pod.affinity_parse_error {
        return Err(e.clone());
    }
    // The pod's own terms as written: namespace selectors are matched with no namespace labels.
    let terms = &pod.required_affinity_terms;
    let anti_terms = &pod.required_anti_affinity_terms;
    match (old, new) {
        (Some(old), Some(new)) => {
            if !pod_matches_all_affinity_terms(terms, old) && pod_matches_all_affinity_terms(terms, new) {
                return Ok(QueueingHint::Queue);
            }
            if pod_matches_all_affinity_terms(anti_terms, old) && !pod_matches_all_affinity_terms(anti_terms, new) {
                return Ok(QueueingHint::Queue);
            }
            Ok(QueueingHint::Skip)
        }
        (None, Some(new)) => Ok(if pod_matches_all_affinity_terms(terms, new) {
            QueueingHint::Queue
        } else {
            QueueingHint::Skip
        }),
        (Some(old), None) => Ok(if pod_matches_all_affinity_terms(anti_terms, old) {
            QueueingHint::Queue
        } else {
            QueueingHint::Skip
        }),
        (None, None) => Ok(QueueingHint::Queue),
    }
}

/// Queueing hint for a node added or updated (upstream isSchedulableAfterNodeChange).
fn node_change_hint(pod: &PodInfo, old: Option<&Node>, new: &Node) -> Result<QueueingHint, String> {
    if let Some(e) = &pod.affinity_parse_error {
        return Err(e.clone());
    }
    let new_labels = &new.metadata.labels;
    for t in &pod.required_affinity_terms {
        let Some(old) = old else {
            if new_labels.contains_key(&t.topology_key) {
                return Ok(QueueingHint::Queue);
            }
            continue;
        };
        match (old.metadata.labels.get(&t.topology_key), new_labels.get(&t.topology_key)) {
            (None, Some(_)) => return Ok(QueueingHint::Queue),
            (Some(a), Some(b)) if a != b => return Ok(QueueingHint::Queue),
            _ => {}
        }
    }
    for t in &pod.required_anti_affinity_terms {
        let Some(old) = old else {
            // A new node: a node without the key always accepts the pod; one with it may.
            return Ok(QueueingHint::Queue);
        };
        match (old.metadata.labels.get(&t.topology_key), new_labels.get(&t.topology_key)) {
            (Some(_), None) => return Ok(QueueingHint::Queue),
            (Some(a), Some(b)) if a != b => return Ok(QueueingHint::Queue),
            _ => {}
        }
    }
    Ok(QueueingHint::Skip)
}

/// What the plugin keeps in its cycle-state slot.
type CycleData = PreStates<PreFilterState, PreScoreState>;

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::InterPodAffinity,
    points: ExtensionPoints::of(&[Ep::PreFilter, Ep::Filter, Ep::PreScore, Ep::Score, Ep::EnqueueExtensions]),
    short: "PodAff",
    args: Some(&args::CODEC),
    new: |args, _| Box::new(InterPodAffinity::new(&args.get_or_default::<InterPodAffinityArgs>())),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Affinity, LabelSelector, LabelSelectorRequirement, PodAffinity, PodAffinityTerm, WeightedPodAffinityTerm};
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    const ZONE: &str = "topology.kubernetes.io/zone";
    const HOST: &str = "kubernetes.io/hostname";

    fn labels(kv: &[(&str, &str)]) -> Labels {
        kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn term(key: &str, sel: &[(&str, &str)]) -> PodAffinityTerm {
        PodAffinityTerm {
            label_selector: Some(LabelSelector {
                match_labels: labels(sel),
                ..Default::default()
            }),
            topology_key: key.into(),
            ..Default::default()
        }
    }

    fn ns_term(key: &str, sel: &[(&str, &str)], ns_sel: Option<&[(&str, &str)]>, namespaces: &[&str]) -> PodAffinityTerm {
        PodAffinityTerm {
            namespace_selector: ns_sel.map(|s| LabelSelector {
                match_labels: labels(s),
                ..Default::default()
            }),
            namespaces: namespaces.iter().map(|s| s.to_string()).collect(),
            ..term(key, sel)
        }
    }

    #[derive(Default)]
    struct Aff {
        req: Vec<PodAffinityTerm>,
        anti: Vec<PodAffinityTerm>,
        pref: Vec<WeightedPodAffinityTerm>,
        pref_anti: Vec<WeightedPodAffinityTerm>,
    }

    impl Aff {
        fn req(mut self, t: PodAffinityTerm) -> Self {
            self.req.push(t);
            self
        }
        fn anti(mut self, t: PodAffinityTerm) -> Self {
            self.anti.push(t);
            self
        }
        fn pref(mut self, weight: i32, t: PodAffinityTerm) -> Self {
            self.pref.push(WeightedPodAffinityTerm {
                weight,
                pod_affinity_term: t,
            });
            self
        }
        fn pref_anti(mut self, weight: i32, t: PodAffinityTerm) -> Self {
            self.pref_anti.push(WeightedPodAffinityTerm {
                weight,
                pod_affinity_term: t,
            });
            self
        }
        fn build(self) -> Affinity {
            let pa = |req: Vec<PodAffinityTerm>, pref: Vec<WeightedPodAffinityTerm>| {
                (!req.is_empty() || !pref.is_empty()).then_some(PodAffinity {
                    required_during_scheduling_ignored_during_execution: req,
                    preferred_during_scheduling_ignored_during_execution: pref,
                })
            };
            Affinity {
                node_affinity: None,
                pod_affinity: pa(self.req, self.pref),
                pod_anti_affinity: pa(self.anti, self.pref_anti),
            }
        }
    }

    fn zone_node(name: &str, zone: &str) -> api::Node {
        MakeNode::new(name).label(ZONE, zone).obj()
    }

    fn namespace(name: &str, kv: &[(&str, &str)]) -> api::Namespace {
        let mut ns = api::Namespace::default();
        ns.metadata.name = name.into();
        ns.metadata.labels = labels(kv);
        ns.metadata.labels.insert("kubernetes.io/metadata.name".into(), name.into());
        ns
    }

    fn plugin() -> InterPodAffinity {
        InterPodAffinity::new(&InterPodAffinityArgs::default())
    }

    /// PreFilter then Filter on every node: the PreFilter status and, unless it skipped, each
    /// node's (code, message), in node name order.
    fn run_filter(env: &Env, pod: &PodInfo) -> (Code, Vec<(Code, String)>) {
        let pl = plugin();
        let cx = env.cx();
        let mut state = CycleState::new();
        let (_, s) = pl.pre_filter(&cx, &mut state, pod);
        if !s.is_success() {
            return (s.code, vec![]);
        }
        let out: std::collections::BTreeMap<&str, (Code, String)> = env
            .snapshot
            .nodes()
            .iter()
            .map(|n| {
                let st = pl.filter(&cx, &state, pod, n);
                (n.name(), (st.code, st.message()))
            })
            .collect();
        (s.code, out.into_values().collect())
    }

    const OK: (Code, &str) = (Code::Success, "");
    const AFF: (Code, &str) = (Code::UnschedulableAndUnresolvable, ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    const ANTI: (Code, &str) = (Code::Unschedulable, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
    const EXISTING: (Code, &str) = (Code::Unschedulable, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn filter_table() {
        let nodes = || {
            vec![
                zone_node("a1", "za"),
                zone_node("a2", "za"),
                zone_node("b1", "zb"),
                MakeNode::new("nozone").obj(),
            ]
        };
        let cache = MakePod::new("cache").label("app", "cache").node("a1").obj();
        type Case = (&'static str, Vec<api::Pod>, MakePod, Vec<(Code, &'static str)>);
        let cases: Vec<Case> = vec![
            (
                "zone affinity to an existing pod",
                vec![cache.clone()],
                MakePod::new("p").affinity(Aff::default().req(term(ZONE, &[("app", "cache")])).build()),
                vec![OK, OK, AFF, AFF],
            ),
            (
                "affinity to nothing, pod does not match itself",
                vec![cache.clone()],
                MakePod::new("p")
                    .label("app", "web")
                    .affinity(Aff::default().req(term(ZONE, &[("app", "db")])).build()),
                vec![AFF, AFF, AFF, AFF],
            ),
            (
                "first pod matching its own term: any node with the key",
                vec![cache.clone()],
                MakePod::new("p")
                    .label("app", "db")
                    .affinity(Aff::default().req(term(ZONE, &[("app", "db")])).build()),
                vec![OK, OK, OK, AFF],
            ),
            (
                "self match does not help once a matching pod exists elsewhere",
                vec![MakePod::new("db0").label("app", "db").node("b1").obj()],
                MakePod::new("p")
                    .label("app", "db")
                    .affinity(Aff::default().req(term(ZONE, &[("app", "db")])).build()),
                vec![AFF, AFF, OK, AFF],
            ),
            (
                "all affinity terms must be matched by one pod",
                vec![
                    MakePod::new("x").label("app", "cache").node("a1").obj(),
                    MakePod::new("y").label("tier", "fe").node("b1").obj(),
                ],
                MakePod::new("p").affinity(
                    Aff::default()
                        .req(term(ZONE, &[("app", "cache")]))
                        .req(term(ZONE, &[("tier", "fe")]))
                        .build(),
                ),
                vec![AFF, AFF, AFF, AFF],
            ),
            (
                "pods in other namespaces do not count",
                vec![MakePod::new("c").namespace("other").label("app", "cache").node("a1").obj()],
                MakePod::new("p").affinity(Aff::default().req(term(ZONE, &[("app", "cache")])).build()),
                vec![AFF, AFF, AFF, AFF],
            ),
            (
                "explicit namespaces list",
                vec![MakePod::new("c").namespace("other").label("app", "cache").node("a1").obj()],
                MakePod::new("p").affinity(Aff::default().req(ns_term(ZONE, &[("app", "cache")], None, &["other"])).build()),
                vec![OK, OK, AFF, AFF],
            ),
            (
                "empty namespaceSelector selects every namespace",
                vec![MakePod::new("c").namespace("other").label("app", "cache").node("b1").obj()],
                MakePod::new("p").affinity(Aff::default().req(ns_term(ZONE, &[("app", "cache")], Some(&[]), &[])).build()),
                vec![AFF, AFF, OK, AFF],
            ),
            (
                "namespaceSelector resolved through namespace labels",
                vec![
                    MakePod::new("c").namespace("prod").label("app", "cache").node("b1").obj(),
                    MakePod::new("d").namespace("dev").label("app", "cache").node("a1").obj(),
                ],
                MakePod::new("p").affinity(
                    Aff::default()
                        .req(ns_term(ZONE, &[("app", "cache")], Some(&[("env", "prod")]), &[]))
                        .build(),
                ),
                vec![AFF, AFF, OK, AFF],
            ),
            (
                "hostname anti-affinity",
                vec![MakePod::new("w0").label("app", "web").node("a1").obj()],
                MakePod::new("p")
                    .label("app", "web")
                    .affinity(Aff::default().anti(term(HOST, &[("app", "web")])).build()),
                vec![ANTI, OK, OK, OK],
            ),
            (
                "zone anti-affinity; a node without the key passes",
                vec![MakePod::new("w0").label("app", "web").node("a1").obj()],
                MakePod::new("p").affinity(Aff::default().anti(term(ZONE, &[("app", "web")])).build()),
                vec![ANTI, ANTI, OK, OK],
            ),
            (
                "existing pod's anti-affinity rejects the incoming pod",
                vec![MakePod::new("w0")
                    .label("app", "web")
                    .node("a2")
                    .affinity(Aff::default().anti(term(ZONE, &[("app", "web")])).build())
                    .obj()],
                MakePod::new("p").label("app", "web"),
                vec![EXISTING, EXISTING, OK, OK],
            ),
            (
                "existing pod's anti-affinity with a namespaceSelector uses the incoming pod's namespace labels",
                vec![MakePod::new("w0")
                    .namespace("dev")
                    .label("app", "web")
                    .node("b1")
                    .affinity(
                        Aff::default()
                            .anti(ns_term(HOST, &[("app", "web")], Some(&[("env", "prod")]), &[]))
                            .build(),
                    )
                    .obj()],
                MakePod::new("p").namespace("prod").label("app", "web"),
                vec![OK, OK, EXISTING, OK],
            ),
            (
                "affinity failure is reported before anti-affinity",
                vec![MakePod::new("w0").label("app", "web").node("a1").obj()],
                MakePod::new("p").affinity(
                    Aff::default()
                        .req(term(ZONE, &[("app", "db")]))
                        .anti(term(HOST, &[("app", "web")]))
                        .build(),
                ),
                vec![AFF, AFF, AFF, AFF],
            ),
        ];
        for (name, pods, pod, want) in cases {
            let mut env = Env::new(nodes(), pods);
            env.cluster.namespaces.insert("prod".into(), namespace("prod", &[("env", "prod")]));
            env.cluster.namespaces.insert("dev".into(), namespace("dev", &[("env", "dev")]));
            env.cluster.namespaces.insert("default".into(), namespace("default", &[]));
            let (code, got) = run_filter(&env, &pod.info());
            assert_eq!(code, Code::Success, "{name}: prefilter");
            let want: Vec<(Code, String)> = want.into_iter().map(|(c, m)| (c, m.to_string())).collect();
            assert_eq!(got, want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_filter_skips_when_nothing_applies() {
        let nodes = vec![zone_node("a1", "za")];
        // A running pod with required anti-affinity that does not match the incoming pod.
        let pods = vec![MakePod::new("w0")
            .label("app", "web")
            .node("a1")
            .affinity(Aff::default().anti(term(ZONE, &[("app", "web")])).build())
            .obj()];
        let env = Env::new(nodes, pods);
        let (code, _) = run_filter(&env, &MakePod::new("p").label("app", "db").info());
        assert_eq!(code, Code::Skip);
        let (code, _) = run_filter(&env, &MakePod::new("p").label("app", "web").info());
        assert_eq!(code, Code::Success);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn add_and_remove_pod_update_the_state() {
        let nodes = vec![zone_node("a1", "za"), zone_node("b1", "zb")];
        let cache = MakePod::new("cache").label("app", "cache").node("a1").arc();
        let env = Env::new(nodes, vec![(*cache.pod).clone()]);
        let cx = env.cx();
        let pl = plugin();
        let statuses = |state: &CycleState, pod: &PodInfo| -> Vec<Code> {
            env.snapshot.nodes().iter().map(|n| pl.filter(&cx, state, pod, n).code).collect()
        };

        // Affinity: removing the only matching pod leaves no node; adding one in zb opens zb.
        let pod = MakePod::new("p")
            .affinity(Aff::default().req(term(ZONE, &[("app", "cache")])).build())
            .info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_success());
        assert_eq!(statuses(&state, &pod), vec![Code::Success, Code::UnschedulableAndUnresolvable]);
        assert!(pl.remove_pod(&cx, &mut state, &pod, &cache, env.node("a1")).is_success());
        assert_eq!(
            statuses(&state, &pod),
            vec![Code::UnschedulableAndUnresolvable, Code::UnschedulableAndUnresolvable]
        );
        let other = MakePod::new("c2").label("app", "cache").node("b1").arc();
        assert!(pl.add_pod(&cx, &mut state, &pod, &other, env.node("b1")).is_success());
        assert_eq!(statuses(&state, &pod), vec![Code::UnschedulableAndUnresolvable, Code::Success]);

        // Existing anti-affinity: a nominated pod hating the incoming one blocks its zone.
        let pod = MakePod::new("p").label("app", "web").info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_skip());
        let hater = MakePod::new("h")
            .node("b1")
            .affinity(Aff::default().anti(term(ZONE, &[("app", "web")])).build())
            .arc();
        let env2 = Env::new(vec![zone_node("a1", "za"), zone_node("b1", "zb")], vec![(*hater.pod).clone()]);
        let cx2 = env2.cx();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx2, &mut state, &pod).1.is_success());
        assert_eq!(pl.filter(&cx2, &state, &pod, env2.node("b1")).code, Code::Unschedulable);
        assert!(pl.remove_pod(&cx2, &mut state, &pod, &hater, env2.node("b1")).is_success());
        assert_eq!(pl.filter(&cx2, &state, &pod, env2.node("b1")).code, Code::Success);

        // The incoming pod's anti-affinity: adding a matching pod blocks its node's zone.
        let pod = MakePod::new("p")
            .affinity(Aff::default().anti(term(ZONE, &[("app", "x")])).build())
            .info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_success());
        assert_eq!(statuses(&state, &pod), vec![Code::Success, Code::Success]);
        let x = MakePod::new("x").label("app", "x").node("b1").arc();
        assert!(pl.add_pod(&cx, &mut state, &pod, &x, env.node("b1")).is_success());
        assert_eq!(statuses(&state, &pod), vec![Code::Success, Code::Unschedulable]);
        assert!(pl.remove_pod(&cx, &mut state, &pod, &x, env.node("b1")).is_success());
        assert_eq!(statuses(&state, &pod), vec![Code::Success, Code::Success]);

        // Without PreFilter state the extensions fail.
        let mut empty = CycleState::new();
        assert_eq!(pl.add_pod(&cx, &mut empty, &pod, &x, env.node("b1")).code, Code::Error);
    }

    /// PreScore, Score and NormalizeScore over every node: None when PreScore skipped; raw and
    /// normalized scores in node name order.
    fn run_score(pl: &InterPodAffinity, env: &Env, pod: &PodInfo) -> Option<(Vec<i64>, Vec<i64>)> {
        let cx = env.cx();
        let mut state = CycleState::new();
        let nodes: Vec<&NodeInfo> = env.snapshot.nodes().iter().collect();
        let s = pl.pre_score(&cx, &mut state, pod, &nodes);
        if s.is_skip() {
            return None;
        }
        assert!(s.is_success(), "{s:?}");
        let mut scores: Vec<NodeScore> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| NodeScore {
                node: i,
                score: pl.score(&cx, &state, pod, n).unwrap(),
            })
            .collect();
        let by_name = |scores: &[NodeScore]| -> Vec<i64> {
            let m: std::collections::BTreeMap<&str, i64> = scores.iter().map(|s| (nodes[s.node].name(), s.score)).collect();
            m.into_values().collect()
        };
        let raw = by_name(&scores);
        assert!(pl.normalize_score(&cx, &state, pod, &mut scores).is_success());
        Some((raw, by_name(&scores)))
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score_table() {
        let nodes = || {
            vec![
                zone_node("a1", "za"),
                zone_node("a2", "za"),
                zone_node("b1", "zb"),
                MakeNode::new("nozone").obj(),
            ]
        };
        let args = |hard: i32, ignore: bool| InterPodAffinityArgs {
            hard_pod_affinity_weight: hard,
            ignore_preferred_terms_of_existing_pods: ignore,
        };
        type Case = (
            &'static str,
            InterPodAffinityArgs,
            Vec<api::Pod>,
            MakePod,
            Option<(Vec<i64>, Vec<i64>)>,
        );
        let cases: Vec<Case> = vec![
            (
                "no terms anywhere: skip",
                args(1, false),
                vec![MakePod::new("x").label("app", "cache").node("a1").obj()],
                MakePod::new("p"),
                None,
            ),
            (
                "preferred zone affinity",
                args(1, false),
                vec![MakePod::new("x").label("app", "cache").node("a1").obj()],
                MakePod::new("p").affinity(Aff::default().pref(5, term(ZONE, &[("app", "cache")])).build()),
                Some((vec![5, 5, 0, 0], vec![100, 100, 0, 0])),
            ),
            (
                "preferred affinity and anti-affinity combine",
                args(1, false),
                vec![
                    MakePod::new("x").label("app", "cache").node("a1").obj(),
                    MakePod::new("y").label("app", "noisy").node("b1").obj(),
                ],
                MakePod::new("p").affinity(
                    Aff::default()
                        .pref(10, term(HOST, &[("app", "cache")]))
                        .pref_anti(4, term(ZONE, &[("app", "noisy")]))
                        .build(),
                ),
                // min -4 max 10: (s+4)/14*100 truncated.
                Some((vec![10, 0, -4, 0], vec![100, 28, 0, 28])),
            ),
            (
                "preferred terms that match nothing: skip",
                args(1, false),
                vec![MakePod::new("x").label("app", "cache").node("a1").obj()],
                MakePod::new("p").affinity(Aff::default().pref(5, term(ZONE, &[("app", "db")])).build()),
                None,
            ),
            (
                "existing pod's required affinity weighs hardPodAffinityWeight",
                args(7, false),
                vec![MakePod::new("x")
                    .node("b1")
                    .affinity(Aff::default().req(term(ZONE, &[("app", "web")])).build())
                    .obj()],
                MakePod::new("p").label("app", "web"),
                Some((vec![0, 0, 7, 0], vec![0, 0, 100, 0])),
            ),
            (
                "hardPodAffinityWeight 0 ignores existing required affinity",
                args(0, false),
                vec![MakePod::new("x")
                    .node("b1")
                    .affinity(Aff::default().req(term(ZONE, &[("app", "web")])).build())
                    .obj()],
                MakePod::new("p").label("app", "web"),
                None,
            ),
            (
                "existing pods' preferred terms towards the incoming pod",
                args(1, false),
                vec![
                    MakePod::new("x")
                        .node("a1")
                        .affinity(Aff::default().pref(3, term(HOST, &[("app", "web")])).build())
                        .obj(),
                    MakePod::new("y")
                        .node("b1")
                        .affinity(Aff::default().pref_anti(6, term(ZONE, &[("app", "web")])).build())
                        .obj(),
                ],
                MakePod::new("p").label("app", "web"),
                Some((vec![3, 0, -6, 0], vec![100, 66, 0, 66])),
            ),
            (
                "ignorePreferredTermsOfExistingPods skips pods without preferred terms",
                args(1, true),
                vec![MakePod::new("x")
                    .node("a1")
                    .affinity(Aff::default().pref(3, term(HOST, &[("app", "web")])).build())
                    .obj()],
                MakePod::new("p").label("app", "web"),
                None,
            ),
            (
                "preferred term restricted by namespaceSelector",
                args(1, false),
                vec![
                    MakePod::new("m1").namespace("dev").label("app", "metrics").node("a1").obj(),
                    MakePod::new("m2").namespace("prod").label("app", "metrics").node("b1").obj(),
                ],
                MakePod::new("p").affinity(
                    Aff::default()
                        .pref(100, ns_term(HOST, &[("app", "metrics")], Some(&[("env", "prod")]), &[]))
                        .build(),
                ),
                Some((vec![0, 0, 100, 0], vec![0, 0, 100, 0])),
            ),
            (
                "all nodes equal: zero",
                args(1, false),
                vec![
                    MakePod::new("x").label("app", "c").node("a1").obj(),
                    MakePod::new("y").label("app", "c").node("b1").obj(),
                ],
                MakePod::new("p").affinity(Aff::default().pref(5, term("region", &[("app", "c")])).build()),
                None,
            ),
        ];
        for (name, a, pods, pod, want) in cases {
            let mut env = Env::new(nodes(), pods);
            env.cluster.namespaces.insert("prod".into(), namespace("prod", &[("env", "prod")]));
            env.cluster.namespaces.insert("dev".into(), namespace("dev", &[("env", "dev")]));
            let got = run_score(&InterPodAffinity::new(&a), &env, &pod.info());
            assert_eq!(got, want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_score_keeps_the_pre_filter_state() {
        let env = Env::new(
            vec![zone_node("a1", "za"), zone_node("b1", "zb")],
            vec![MakePod::new("x").label("app", "cache").node("a1").obj()],
        );
        let cx = env.cx();
        let pl = plugin();
        let pod = MakePod::new("p")
            .affinity(
                Aff::default()
                    .req(term(ZONE, &[("app", "cache")]))
                    .pref(3, term(ZONE, &[("app", "cache")]))
                    .build(),
            )
            .info();
        let mut state = CycleState::new();
        assert!(pl.pre_filter(&cx, &mut state, &pod).1.is_success());
        let nodes: Vec<&NodeInfo> = env.snapshot.nodes().iter().collect();
        assert!(pl.pre_score(&cx, &mut state, &pod, &nodes).is_success());
        assert_eq!(pl.score(&cx, &state, &pod, env.node("a1")), Ok(3));
        assert!(pl.filter(&cx, &state, &pod, env.node("a1")).is_success());
        let other = MakePod::new("y").label("app", "cache").node("b1").arc();
        assert!(pl.add_pod(&cx, &mut state, &pod, &other, env.node("b1")).is_success());
        assert!(pl.filter(&cx, &state, &pod, env.node("b1")).is_success());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn equal_scores_normalize_to_zero() {
        let nodes = vec![zone_node("a1", "za"), zone_node("b1", "zb")];
        let pods = vec![
            MakePod::new("x").label("app", "c").node("a1").obj(),
            MakePod::new("y").label("app", "c").node("b1").obj(),
        ];
        let env = Env::new(nodes, pods);
        let pod = MakePod::new("p").affinity(Aff::default().pref(5, term(ZONE, &[("app", "c")])).build());
        assert_eq!(run_score(&plugin(), &env, &pod.info()), Some((vec![5, 5], vec![0, 0])));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn match_label_keys_are_merged_into_selectors() {
        let mut t = term(ZONE, &[("app", "web")]);
        t.match_label_keys = vec!["version".into(), "absent".into()];
        t.mismatch_label_keys = vec!["tenant".into()];
        let mut no_selector = t.clone();
        no_selector.label_selector = None;
        let mut pod = MakePod::new("p")
            .label("version", "v2")
            .label("tenant", "t1")
            .affinity(Aff::default().req(t.clone()).anti(no_selector).pref(1, t).build())
            .obj();
        merge_match_label_keys(&mut pod);
        let aff = pod.spec.affinity.as_ref().unwrap();
        let want = vec![
            LabelSelectorRequirement {
                key: "version".into(),
                operator: "In".into(),
                values: vec!["v2".into()],
            },
            LabelSelectorRequirement {
                key: "tenant".into(),
                operator: "NotIn".into(),
                values: vec!["t1".into()],
            },
        ];
        let pa = aff.pod_affinity.as_ref().unwrap();
        let req = &pa.required_during_scheduling_ignored_during_execution[0];
        assert_eq!(req.label_selector.as_ref().unwrap().match_expressions, want);
        assert_eq!(req.match_label_keys.len(), 2, "keys are kept");
        let pref = &pa.preferred_during_scheduling_ignored_during_execution[0].pod_affinity_term;
        assert_eq!(pref.label_selector.as_ref().unwrap().match_expressions, want);
        let anti = &aff
            .pod_anti_affinity
            .as_ref()
            .unwrap()
            .required_during_scheduling_ignored_during_execution[0];
        assert!(anti.label_selector.is_none());

        // The merged selector then only matches pods of the same version and another tenant.
        let info = PodInfo::new(pod, 0);
        let t = &info.required_affinity_terms[0];
        let other = |v: &str, tenant: &str| {
            MakePod::new("o")
                .label("app", "web")
                .label("version", v)
                .label("tenant", tenant)
                .info()
        };
        assert!(t.matches(&other("v2", "t2"), Some(&NO_LABELS)));
        assert!(!t.matches(&other("v1", "t2"), Some(&NO_LABELS)));
        assert!(!t.matches(&other("v2", "t1"), Some(&NO_LABELS)));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_hints() {
        let pod = MakePod::new("p")
            .affinity(
                Aff::default()
                    .req(term(ZONE, &[("app", "cache")]))
                    .anti(term(HOST, &[("app", "noisy")]))
                    .build(),
            )
            .info();
        let bound = |l: &str| MakePod::new("o").label("app", l).node("n").info();
        let unbound = |l: &str| MakePod::new("o").label("app", l).info();
        let cases: Vec<(&str, Option<PodInfo>, Option<PodInfo>, QueueingHint)> = vec![
            ("unscheduled pod added", None, Some(unbound("cache")), QueueingHint::Skip),
            ("matching pod added", None, Some(bound("cache")), QueueingHint::Queue),
            ("unrelated pod added", None, Some(bound("other")), QueueingHint::Skip),
            ("anti-affinity target deleted", Some(bound("noisy")), None, QueueingHint::Queue),
            ("unrelated pod deleted", Some(bound("cache")), None, QueueingHint::Skip),
            (
                "label now matches affinity",
                Some(bound("x")),
                Some(bound("cache")),
                QueueingHint::Queue,
            ),
            (
                "label no longer matches anti-affinity",
                Some(bound("noisy")),
                Some(bound("x")),
                QueueingHint::Queue,
            ),
            ("unrelated label change", Some(bound("x")), Some(bound("y")), QueueingHint::Skip),
        ];
        let env = Env::new(vec![], vec![]);
        let cx = env.cx();
        for (name, old, new, want) in cases {
            let obj = EventObject::Pod {
                old: old.map(Arc::new),
                new: new.map(Arc::new),
            };
            let got = plugin().queueing_hint(&cx, &pod, ClusterEvent::new(EventResource::Pod, ActionType::ADD), &obj);
            assert_eq!(got, Ok(want), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_hints() {
        let aff_pod = MakePod::new("p")
            .affinity(Aff::default().req(term(ZONE, &[("app", "cache")])).build())
            .info();
        let anti_pod = MakePod::new("p")
            .affinity(Aff::default().anti(term(ZONE, &[("app", "cache")])).build())
            .info();
        let plain = MakeNode::new("n").obj();
        let za = zone_node("n", "za");
        let zb = zone_node("n", "zb");
        let cases: Vec<(&str, &PodInfo, Option<&Node>, &Node, QueueingHint)> = vec![
            ("affinity: node added with the key", &aff_pod, None, &za, QueueingHint::Queue),
            ("affinity: node added without the key", &aff_pod, None, &plain, QueueingHint::Skip),
            ("affinity: key added", &aff_pod, Some(&plain), &za, QueueingHint::Queue),
            ("affinity: value changed", &aff_pod, Some(&za), &zb, QueueingHint::Queue),
            ("affinity: key removed", &aff_pod, Some(&za), &plain, QueueingHint::Skip),
            ("anti-affinity: any node added", &anti_pod, None, &plain, QueueingHint::Queue),
            ("anti-affinity: key removed", &anti_pod, Some(&za), &plain, QueueingHint::Queue),
            ("anti-affinity: key added", &anti_pod, Some(&plain), &za, QueueingHint::Skip),
            ("anti-affinity: value changed", &anti_pod, Some(&za), &zb, QueueingHint::Queue),
        ];
        let env = Env::new(vec![], vec![]);
        let cx = env.cx();
        for (name, pod, old, new, want) in cases {
            let action = if old.is_some() {
                ActionType::UPDATE_NODE_LABEL
            } else {
                ActionType::ADD
            };
            let obj = EventObject::Node {
                old: old.map(|n| Arc::new(n.clone())),
                new: Some(Arc::new(new.clone())),
            };
            let got = plugin().queueing_hint(&cx, pod, ClusterEvent::new(EventResource::Node, action), &obj);
            assert_eq!(got, Ok(want), "{name}");
        }
    }
}
