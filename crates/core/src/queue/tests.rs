use super::*;
use crate::config::{PluginArgs, Profile};
use crate::framework::events::{ClusterEventWithHint, QueueingHint};
use crate::framework::{Plugin, Status};
use crate::plugins::testing::MakePod;

/// A stand-in plugin with chosen events, hint and gate.
struct Fake {
    name: PluginName,
    events: Vec<ClusterEventWithHint>,
    hint: fn(&PodInfo, &EventObject) -> QueueingHint,
    gate_on_scheduling_gates: bool,
}

impl Plugin for Fake {
    fn name(&self) -> PluginName {
        self.name
    }
    fn pre_enqueue(&self, _cx: &Ctx, pod: &PodInfo) -> Status {
        if self.gate_on_scheduling_gates && !pod.pod.spec.scheduling_gates.is_empty() {
            return Status::unresolvable("waiting for scheduling gates");
        }
        Status::success()
    }
    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        self.events.clone()
    }
    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, _ev: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        Ok((self.hint)(pod, obj))
    }
}

fn deleted_pod_was_placed(_pod: &PodInfo, obj: &EventObject) -> QueueingHint {
    match obj {
        EventObject::Pod { old: Some(p), new: None } if p.node_name().is_some() || p.nominated_node_name().is_some() => QueueingHint::Queue,
        _ => QueueingHint::Skip,
    }
}

fn gates_removed(pod: &PodInfo, obj: &EventObject) -> QueueingHint {
    match obj {
        EventObject::Pod { new: Some(p), .. } if p.key == pod.key && p.pod.spec.scheduling_gates.is_empty() => QueueingHint::Queue,
        _ => QueueingHint::Skip,
    }
}

fn always(_pod: &PodInfo, _obj: &EventObject) -> QueueingHint {
    QueueingHint::Queue
}

struct World {
    frameworks: BTreeMap<String, Framework>,
    snapshot: Snapshot,
    cluster: Cluster,
    nominator: Nominator,
}

impl World {
    /// The default profile with stand-ins: SchedulingGates gates gated pods; NodeResourcesFit
    /// hears pod deletions (Queue when the pod was placed); InterPodAffinity hears pod
    /// additions without a hint.
    fn new() -> World {
        let mut fw = Framework::new(
            Profile::new(
                "default-scheduler",
                None,
                PluginArgs::default(),
                None,
                &crate::version::Features::new(crate::version::KubeVersion::V1_34),
            )
            .unwrap(),
            &crate::plugins::IN_TREE,
        );
        fw.set_instance(Box::new(Fake {
            name: PluginName::SchedulingGates,
            events: vec![ClusterEventWithHint::hinted(
                EventResource::Pod,
                ActionType::UPDATE_POD_SCHEDULING_GATES_ELIMINATED,
            )],
            hint: gates_removed,
            gate_on_scheduling_gates: true,
        }));
        fw.set_instance(Box::new(Fake {
            name: PluginName::NodeResourcesFit,
            events: vec![
                ClusterEventWithHint::hinted(EventResource::Pod, ActionType::DELETE),
                ClusterEventWithHint::hinted(EventResource::Node, ActionType::ADD),
            ],
            hint: deleted_pod_was_placed,
            gate_on_scheduling_gates: false,
        }));
        fw.set_instance(Box::new(Fake {
            name: PluginName::InterPodAffinity,
            events: vec![ClusterEventWithHint::unhinted(EventResource::Pod, ActionType::ADD)],
            hint: always,
            gate_on_scheduling_gates: false,
        }));
        World {
            frameworks: [("default-scheduler".to_string(), fw)].into(),
            snapshot: Snapshot::default(),
            cluster: Cluster::default(),
            nominator: Nominator::default(),
        }
    }
    fn env(&self) -> QueueEnv<'_> {
        QueueEnv::new(&self.frameworks, &self.snapshot, &self.cluster, &self.nominator)
    }
    fn queue(&self) -> SchedulingQueue {
        SchedulingQueue::with_profiles(1, 10, &self.frameworks)
    }
    /// A queue holding new pods (name, priority), added at times 1, 2, ...
    fn queue_of(&self, pods: &[(&str, i32)]) -> SchedulingQueue {
        let mut q = self.queue();
        for (i, &(name, prio)) in pods.iter().enumerate() {
            q.add(&self.env(), qpi(name, prio), i as i64 + 1);
        }
        q
    }
}

fn qpi(name: &str, prio: i32) -> QueuedPodInfo {
    QueuedPodInfo::new(MakePod::new(name).priority(prio).arc(), 0)
}

fn pod_event(action: ActionType, old: Option<Arc<PodInfo>>) -> (ClusterEvent, EventObject) {
    (
        ClusterEvent::new(EventResource::AssignedPod, action),
        EventObject::Pod { old, new: None },
    )
}

/// The deletion of a pod running on n1 (NodeResourcesFit's hint says Queue).
fn victim_deleted() -> (ClusterEvent, EventObject) {
    pod_event(ActionType::DELETE, Some(MakePod::new("victim").node("n1").arc()))
}

/// The deletion of a pod that never ran (NodeResourcesFit's hint says Skip).
fn pending_deleted() -> (ClusterEvent, EventObject) {
    pod_event(ActionType::DELETE, Some(MakePod::new("pending").arc()))
}

/// A pod added to n1 (heard by InterPodAffinity only).
fn pod_added() -> (ClusterEvent, EventObject) {
    (
        ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD),
        EventObject::Pod {
            old: None,
            new: Some(MakePod::new("other").node("n1").arc()),
        },
    )
}

/// Pops a pod and sends it back rejected by `rejected` (and `pending`).
fn fail(q: &mut SchedulingQueue, env: &QueueEnv, now: i64, rejected: &[PluginName], pending: &[PluginName]) -> (String, Move) {
    let (mut p, _) = q.pop(env, now).expect("a pod to pop");
    for &r in rejected {
        p.unschedulable_plugins.insert(r);
    }
    for &r in pending {
        p.pending_plugins.insert(r);
    }
    let key = p.pod.key.clone();
    (key, q.add_unschedulable(env, p, now + 1))
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn active_queue_orders_by_priority_then_time() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue();
    for (i, (name, prio)) in [("zero", 0), ("mid-1", 100), ("top", 1000), ("mid-2", 100)].into_iter().enumerate() {
        let m = q.add(&env, qpi(name, prio), i as i64 + 1);
        assert_eq!((m.from, m.to), (QueueName::None, QueueName::ActiveQ));
        assert_eq!(m.event.as_deref(), Some("UnschedulablePodAdd"));
    }
    let order: Vec<String> = q.active_in_order(&env).iter().map(|p| p.pod.name().to_string()).collect();
    assert_eq!(order, ["top", "mid-1", "mid-2", "zero"]);
    let mut popped = Vec::new();
    while let Some((p, from)) = q.pop(&env, 10) {
        assert_eq!(from, QueueName::ActiveQ);
        assert_eq!(p.attempts, 1);
        popped.push(p.pod.name().to_string());
        q.done(&p.pod.key);
    }
    assert_eq!(popped, order);
    assert_eq!(q.scheduling_cycle(), 4);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn heap_is_logarithmic_and_keeps_order_after_deletes() {
    let n = 10_000usize;
    let mut h = PodHeap::default();
    let comparisons = std::cell::Cell::new(0usize);
    let less = |a: &QueuedPodInfo, b: &QueuedPodInfo| {
        comparisons.set(comparisons.get() + 1);
        (a.pod.priority, -a.timestamp) > (b.pod.priority, -b.timestamp)
    };
    for i in 0..n {
        let mut p = qpi(&format!("p{i}"), ((i * 7919) % 97) as i32);
        p.timestamp = i as i64;
        h.add_or_update(p, &less);
    }
    for i in (0..n).step_by(3) {
        assert!(h.remove(&format!("default/p{i}"), &less).is_some());
    }
    assert!(h.remove("default/p0", &less).is_none());
    let mut out = Vec::new();
    while let Some(p) = h.pop(&less) {
        out.push((p.pod.priority, p.timestamp));
    }
    assert_eq!(out.len(), n - n.div_ceil(3));
    assert!(out.windows(2).all(|w| (w[0].0, -w[0].1) > (w[1].0, -w[1].1)), "pop order is sorted");
    // About 2 log2(n) comparisons per push, pop and remove.
    let ops = n + n.div_ceil(3) + out.len();
    assert!(
        comparisons.get() < ops * 2 * 14,
        "{} comparisons for {ops} operations",
        comparisons.get()
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn backoff_doubles_to_the_maximum_in_whole_windows() {
    let q = SchedulingQueue::new(1, 10);
    let with = |unsched: u32, errors: u32, ts: i64| {
        let mut p = qpi("p", 0);
        p.unschedulable_count = unsched;
        p.consecutive_errors = errors;
        p.timestamp = ts;
        p
    };
    let s = NS_PER_SEC;
    let cases = [
        ("never tried", with(0, 0, 5), NO_BACKOFF),
        ("first failure", with(1, 0, 0), s),
        ("second", with(2, 0, 0), 2 * s),
        ("third", with(3, 0, 0), 4 * s),
        ("fourth", with(4, 0, 0), 8 * s),
        ("capped", with(5, 0, 0), 10 * s),
        ("capped far out", with(100, 0, 0), 10 * s),
        ("errors count instead", with(5, 2, 0), 2 * s),
        ("truncated to the window", with(1, 0, s + s / 2), 2 * s),
    ];
    for (name, p, want) in cases {
        assert_eq!(q.backoff_time(&p), want, "{name}");
    }
    assert_eq!(
        SchedulingQueue::new(1, 0).backoff_time(&with(3, 0, 0)),
        NO_BACKOFF,
        "backoff disabled"
    );

    let p = with(1, 0, s); // expires at 2 s
    assert!(q.is_backing_off(&p, s + 900 * NS_PER_MS));
    assert!(q.is_backing_off(&p, 2 * s + 500 * NS_PER_MS), "still in the expiry's window");
    assert!(!q.is_backing_off(&p, 3 * s));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn rejected_pods_wait_for_an_event_their_plugin_hears() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue_of(&[("p", 0)]);
    let (key, m) = fail(&mut q, &env, 2, &[PluginName::NodeResourcesFit], &[]);
    assert_eq!((m.from, m.to), (QueueName::InFlight, QueueName::Unschedulable));
    assert_eq!(q.in_flight(), 0);

    // NodeResourcesFit does not listen to pod additions.
    let (ev, obj) = pod_added();
    assert!(q.on_event(&env, ev, &obj, 5).is_empty());
    // The deletion of an unplaced pod: the hint says Skip.
    let (ev, obj) = pending_deleted();
    assert!(q.on_event(&env, ev, &obj, 6).is_empty());
    // The deletion of a running pod: after backoff.
    let (ev, obj) = victim_deleted();
    let moves = q.on_event(&env, ev, &obj, 7);
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].from, moves[0].to), (QueueName::Unschedulable, QueueName::BackoffQ));
    assert_eq!(moves[0].event.as_deref(), Some("AssignedPodDelete"));
    assert_eq!(moves[0].backoff_until_ns, Some(NS_PER_SEC));
    assert_eq!(q.get(&key).map(|(_, n)| n), Some(QueueName::BackoffQ));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pending_plugins_skip_the_backoff() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue_of(&[("p", 0)]);
    fail(&mut q, &env, 2, &[], &[PluginName::NodeResourcesFit]);
    let (ev, obj) = victim_deleted();
    let moves = q.on_event(&env, ev, &obj, 7);
    assert_eq!(moves[0].to, QueueName::ActiveQ);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn events_during_the_attempt_are_replayed() {
    let w = World::new();
    let env = w.env();
    for (name, (ev, obj), want) in [
        ("a deletion the plugin cares about", victim_deleted(), QueueName::BackoffQ),
        ("a deletion it does not", pending_deleted(), QueueName::Unschedulable),
        ("an event for another plugin", pod_added(), QueueName::Unschedulable),
    ] {
        let mut q = w.queue_of(&[("p", 0)]);
        let (mut p, _) = q.pop(&env, 2).unwrap();
        q.on_event(&env, ev, &obj, 3);
        assert_eq!(q.in_flight.len(), 2, "{name}: the event is kept for the in-flight pod");
        p.unschedulable_plugins.insert(PluginName::NodeResourcesFit);
        let m = q.add_unschedulable(&env, p, 4);
        assert_eq!(m.to, want, "{name}");
        assert!(q.in_flight.is_empty(), "{name}: pruned once no pod needs it");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn errors_wait_in_the_error_backoff_queue() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue_of(&[("p", 0)]);
    let (key, m) = fail(&mut q, &env, 2, &[], &[]);
    assert_eq!(m.to, QueueName::BackoffQ);
    assert!(q.error_backoff.contains(&key));
    // Not popped early, unlike rejected pods.
    assert!(q.pop(&env, 4).is_none());
    let t = q.next_flush_time().unwrap();
    assert_eq!(t, 2 * NS_PER_SEC);
    assert!(q.flush_if_due(&env, t - 1).is_empty());
    let moves = q.flush_if_due(&env, t);
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].from, moves[0].to), (QueueName::BackoffQ, QueueName::ActiveQ));
    let (p, _) = q.pop(&env, t + 1).unwrap();
    assert_eq!((p.attempts, p.consecutive_errors), (2, 1));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn backoff_queue_pops_when_active_is_empty_by_window_then_priority() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue_of(&[("low", 1), ("high", 100), ("twice", 1000)]);
    // All three fail once (1 s backoff, the same window): priority decides.
    let rejected = [PluginName::NodeResourcesFit];
    let keys: Vec<String> = [4, 6, 8].into_iter().map(|t| fail(&mut q, &env, t, &rejected, &[]).0).collect();
    assert_eq!(keys, ["default/twice", "default/high", "default/low"]);
    let (ev, obj) = victim_deleted();
    assert_eq!(q.on_event(&env, ev, &obj, 9).len(), 3);
    let (mut p, from) = q.pop(&env, 10).unwrap();
    assert_eq!(
        (p.pod.name(), from),
        ("twice", QueueName::BackoffQ),
        "popped early: activeQ is empty"
    );
    // A second failure (with a helpful event in flight): 2 s, a later window.
    let (ev, obj) = victim_deleted();
    q.on_event(&env, ev, &obj, 10);
    p.unschedulable_plugins.insert(PluginName::NodeResourcesFit);
    let m = q.add_unschedulable(&env, p, 11);
    assert_eq!(m.backoff_until_ns, Some(2 * NS_PER_SEC));
    let mut order = Vec::new();
    while let Some((p, from)) = q.pop(&env, 20) {
        assert_eq!(from, QueueName::BackoffQ);
        order.push(p.pod.name().to_string());
        q.done(&p.pod.key);
    }
    assert_eq!(order, ["high", "low", "twice"]);
    // An active pod goes first.
    let mut q = w.queue_of(&[("a", 0), ("b", 0)]);
    fail(&mut q, &env, 3, &rejected, &[]);
    assert_eq!(
        q.pop(&env, 5).map(|(p, from)| (p.pod.name().to_string(), from)),
        Some(("b".into(), QueueName::ActiveQ))
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn gated_pods_wait_for_their_gating_plugin() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue();
    let gated = MakePod::new("g").gate("example.com/wait").arc();
    let m = q.add(&env, QueuedPodInfo::new(gated.clone(), 0), 1);
    assert_eq!(m.to, QueueName::Gated);
    assert_eq!(m.gated_by.as_ref().map(|g| g.0), Some(PluginName::SchedulingGates));
    assert!(q.pop(&env, 2).is_none());

    // A deletion NodeResourcesFit would hear does not concern the gate.
    let (ev, obj) = victim_deleted();
    assert!(q.on_event(&env, ev, &obj, 3).is_empty());
    // An update that keeps the gate.
    let mut relabeled = (*gated).clone();
    Arc::make_mut(&mut relabeled.pod).metadata.labels.insert("x".into(), "y".into());
    assert!(q.update(&env, &gated, Arc::new(relabeled.clone()), 4).is_empty());
    assert_eq!(q.get("default/g").map(|(_, n)| n), Some(QueueName::Gated));
    // Removing the gate releases the pod straight to activeQ.
    let mut open = relabeled.clone();
    Arc::make_mut(&mut open.pod).spec.scheduling_gates.clear();
    let moves = q.update(&env, &relabeled, Arc::new(open), 5);
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].from, moves[0].to), (QueueName::Gated, QueueName::ActiveQ));
    assert_eq!(
        moves[0].event.as_deref(),
        Some("UnschedulablePodUpdatePodSchedulingGatesEliminated")
    );
    assert!(q.pop(&env, 6).is_some());
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn precheck_limits_the_pods_an_event_reaches() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue_of(&[("low", 10), ("high", 1000)]);
    let rejected = [PluginName::NodeResourcesFit];
    fail(&mut q, &env, 3, &rejected, &[]);
    fail(&mut q, &env, 5, &rejected, &[]);
    let nominated = {
        let mut p = MakePod::new("preemptor").priority(100).obj();
        p.status.nominated_node_name = Some("n1".into());
        Arc::new(PodInfo::new(p, 9))
    };
    let (ev, obj) = pod_event(ActionType::DELETE, Some(nominated));
    let moves = q.move_all(&env, ev, &obj, Some(&|p: &PodInfo| p.priority <= 100), 7);
    assert_eq!(moves.iter().map(|m| m.key.as_str()).collect::<Vec<_>>(), ["default/low"]);
    assert_eq!(q.get("default/high").map(|(_, n)| n), Some(QueueName::Unschedulable));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn delete_and_update_in_every_pool() {
    let w = World::new();
    let env = w.env();
    let mut q = w.queue_of(&[("a", 0), ("b", 0), ("c", 0), ("d", 0)]);
    fail(&mut q, &env, 10, &[PluginName::NodeResourcesFit], &[]); // a: unschedulable
    fail(&mut q, &env, 12, &[], &[]); // b: error backoff
    let (mut c, _) = q.pop(&env, 14).unwrap();
    c.unschedulable_plugins.insert(PluginName::InterPodAffinity);
    let (ev, obj) = pod_event(ActionType::ADD, None);
    q.on_event(&env, ev, &obj, 15);
    q.add_unschedulable(&env, c, 16); // c: backoff (the event was seen in flight)
    assert_eq!(q.get("default/a").unwrap().1, QueueName::Unschedulable);
    assert_eq!(q.get("default/b").unwrap().1, QueueName::BackoffQ);
    assert_eq!(q.get("default/c").unwrap().1, QueueName::BackoffQ);
    assert_eq!(q.get("default/d").unwrap().1, QueueName::ActiveQ);
    assert_eq!(q.len(), 4);

    // Updating keeps the pod where it is, with the new object.
    let old = q.get("default/d").unwrap().0.pod.clone();
    let mut new = (*old).clone();
    Arc::make_mut(&mut new.pod).status.nominated_node_name = Some("n1".into());
    assert!(q.update(&env, &old, Arc::new(new), 20).is_empty());
    assert_eq!(q.get("default/d").unwrap().0.pod.nominated_node_name(), Some("n1"));

    for (key, from) in [
        ("default/a", QueueName::Unschedulable),
        ("default/b", QueueName::BackoffQ),
        ("default/c", QueueName::BackoffQ),
        ("default/d", QueueName::ActiveQ),
    ] {
        assert_eq!(q.delete(&env, key), Some(from));
        assert_eq!(q.delete(&env, key), None);
    }
    assert!(q.is_empty());
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn event_matching_and_labels() {
    use ActionType as A;
    use EventResource as R;
    let ev = ClusterEvent::new;
    let cases = [
        (
            "Pod covers assigned pods",
            ev(R::Pod, A::DELETE),
            ev(R::AssignedPod, A::DELETE),
            true,
        ),
        ("and unscheduled ones", ev(R::Pod, A::ADD), ev(R::UnscheduledPod, A::ADD), true),
        (
            "a general update does not reach a specific one",
            ev(R::Pod, A::UPDATE_POD_SCALE_DOWN.union(A::DELETE)),
            ev(R::UnscheduledPod, A::UPDATE),
            false,
        ),
        (
            "All covers a general update",
            ev(R::Pod, A::ALL),
            ev(R::AssignedPod, A::UPDATE),
            true,
        ),
        (
            "the wildcard covers everything",
            ev(R::WildCard, A::ALL),
            ev(R::Node, A::UPDATE_NODE_TAINT),
            true,
        ),
        (
            "other resources do not match",
            ev(R::Node, A::ADD),
            ev(R::AssignedPod, A::ADD),
            false,
        ),
        ("nor other actions", ev(R::Node, A::ADD), ev(R::Node, A::DELETE), false),
    ];
    for (name, registered, incoming, want) in cases {
        assert_eq!(registered.matches(&incoming), want, "{name}");
    }
    assert_eq!(ev(R::AssignedPod, A::DELETE).label(), "AssignedPodDelete");
    assert_eq!(ev(R::UnscheduledPod, A::UPDATE).label(), "UnschedulablePodUpdate");
    assert_eq!(ev(R::CSINode, A::ADD).label(), "storage.k8s.io/CSINodeAdd");
    assert_eq!(ev(R::WildCard, A::ALL).label(), "*All");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pod_update_events_name_what_changed() {
    let base = MakePod::new("p").req(&[("cpu", "2")]).label("a", "1");
    let old = base.clone().info();
    let kinds = |new: PodInfo| pod_update_events(&old, &new).into_iter().map(|e| e.action).collect::<Vec<_>>();
    assert_eq!(kinds(base.clone().label("a", "2").info()), [ActionType::UPDATE_POD_LABEL]);
    assert_eq!(
        kinds(MakePod::new("p").req(&[("cpu", "1")]).label("a", "1").info()),
        [ActionType::UPDATE_POD_SCALE_DOWN]
    );
    assert_eq!(
        kinds(base.clone().toleration("k", "Exists", "", "").info()),
        [ActionType::UPDATE_POD_TOLERATION]
    );
    let mut nominated = base.clone().info();
    Arc::make_mut(&mut nominated.pod).status.nominated_node_name = Some("n".into());
    assert_eq!(kinds(nominated), [ActionType::UPDATE]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn an_update_that_changes_priority_reorders_active_q() {
    // QueueSort reads the priority each queue entry holds (QueuedPodInfo::set_pod keeps it
    // with the pod): raising a waiting pod's priority must move it to the front.
    let w = World::new();
    let env = w.env();
    let mut q = w.queue_of(&[("a", 10), ("b", 5), ("c", 1)]);
    let old = q.get("default/c").unwrap().0.pod.clone();
    let mut new = (*old).clone();
    new.priority = 100;
    assert!(q.update(&env, &old, Arc::new(new), 20).is_empty());
    let order: Vec<String> = std::iter::from_fn(|| q.pop(&env, 30).map(|(p, _)| p.pod.key.clone())).collect();
    assert_eq!(order, ["default/c", "default/a", "default/b"]);
}
