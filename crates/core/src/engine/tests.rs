use super::*;
use crate::framework::events::{ActionType, EventResource};
use crate::framework::{Ctx, Plugin, Status};
use crate::version::{Features, KubeVersion};
use crate::vocabulary::PluginName;

const NODES: &str = r#"
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 100
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
status: {capacity: {cpu: '4', memory: 16Gi, pods: '110'}}
"#;

fn pod(name: &str, extra: &str, cpu: &str) -> String {
    format!("---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n{extra}  containers: [{{name: c, image: x, resources: {{requests: {{cpu: '{cpu}'}}}}}}]\n")
}

/// The engine of v1.34, which these tests were written for.
fn engine(docs: &[String]) -> Engine {
    engine_at(KubeVersion::V1_34, docs)
}

fn engine_at(v: KubeVersion, docs: &[String]) -> Engine {
    let text = format!("{NODES}{}", docs.concat());
    let sc = crate::load::load_str_for(&text, "test.yaml", &Features::new(v)).unwrap_or_else(|e| panic!("{e}"));
    Engine::new(sc, EngineOptions::default())
}

fn state<'a>(e: &'a Engine, name: &str) -> &'a PodState {
    &e.pods[e.pod_by_key(&format!("default/{name}")).unwrap()]
}

/// A PreFilter that always fails with an error.
struct Broken;
impl Plugin for Broken {
    fn name(&self) -> PluginName {
        PluginName::NodeAffinity
    }
    fn pre_filter(&self, _cx: &Ctx, _state: &mut CycleState, _pod: &PodInfo) -> (Option<crate::framework::PreFilterResult>, Status) {
        (None, Status::error("boom"))
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pods_of_other_schedulers_are_not_queued() {
    let mut e = engine(&[pod("mine", "", "1"), pod("theirs", "  schedulerName: someone-else\n", "1")]);
    e.run();
    assert_eq!(state(&e, "mine").phase, Phase::Running);
    let theirs = state(&e, "theirs");
    assert_eq!(
        (theirs.phase, theirs.attempts, theirs.message.as_deref()),
        (Phase::Pending, 0, None)
    );
    assert_eq!(e.cycles.len(), 1);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn error_pods_are_not_retried_in_an_unchanged_cluster() {
    let mut e = engine(&[pod("p", "", "1")]);
    e.frameworks.get_mut("default-scheduler").unwrap().set_instance(Box::new(Broken));
    e.run();
    let p = state(&e, "p");
    assert_eq!((p.attempts, p.phase), (1, Phase::Pending));
    assert_eq!(p.message.as_deref(), Some("running PreFilter plugin \"NodeAffinity\": boom"));
    assert_eq!(e.queue.backoff().count(), 1, "waits in the error backoff queue");
    // Once the cluster changes it is retried, when its backoff ends (the clock jumps).
    e.cluster_event(
        ClusterEvent::new(EventResource::AssignedPod, ActionType::ADD),
        EventObject::Pod { old: None, new: None },
    );
    e.run();
    assert_eq!(state(&e, "p").attempts, 2);
    assert_eq!(e.now_ms(), 2000);
}

/// Preemption, and what the preemptor's binding does to a pod that failed while it was
/// nominated: in v1.34 the binding reached the queue as a nominated pod's deletion and moved
/// it (a second, failing attempt); from v1.35 it does not (kubernetes#134157).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn preemption_nominates_evicts_and_retries_preemptor_binding_wakes_no_pod_from_v1_35_kubernetes_134157() {
    /// (version, attempts of `small`, the events as (reason, pod))
    type Case<'a> = (KubeVersion, u32, &'a [(&'a str, &'a str)]);
    let cases: &[Case] = &[
        (
            KubeVersion::V1_34,
            2,
            &[
                ("FailedScheduling", "urgent"),
                ("Preempted", "victim"),
                ("FailedScheduling", "small"),
                ("Scheduled", "urgent"),
                ("FailedScheduling", "small"),
            ],
        ),
        (
            KubeVersion::V1_35,
            1,
            &[
                ("FailedScheduling", "urgent"),
                ("Preempted", "victim"),
                ("FailedScheduling", "small"),
                ("Scheduled", "urgent"),
            ],
        ),
    ];
    for &(v, small_attempts, want) in cases {
        let mut e = engine_at(
            v,
            &[
                pod("victim", "  nodeName: node-a\n  priorityClassName: low\n", "3"),
                pod("urgent", "  priorityClassName: high\n", "2"),
                pod("small", "", "3"),
            ],
        );
        e.run();
        let urgent = state(&e, "urgent");
        assert_eq!(urgent.node.as_deref(), Some("node-a"), "{v}");
        assert_eq!(urgent.nominated_node.as_deref(), Some("node-a"), "{v}: kept after binding");
        assert_eq!(urgent.attempts, 2, "{v}");
        assert!(state(&e, "victim").evicted, "{v}");
        assert!(e.nominator.is_empty(), "{v}");
        let small = state(&e, "small");
        assert_eq!((small.attempts, small.phase), (small_attempts, Phase::Pending), "{v}");
        let reasons: Vec<(&str, &str)> = e.events.iter().map(|ev| (ev.reason.as_str(), e.pods[ev.pod].info.name())).collect();
        assert_eq!(reasons, want, "{v}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn lower_priority_nominations_on_the_chosen_node_are_cleared() {
    // `mid` already carries a nomination for node-a; `urgent` preempts there.
    let mut e = engine(&[
        pod("victim", "  nodeName: node-a\n  priorityClassName: low\n", "3"),
        pod("urgent", "  priorityClassName: high\n", "2"),
        pod("mid", "  priority: 500\n", "1") + "status: {nominatedNodeName: node-a}\n",
    ]);
    let on_a = |e: &Engine| -> Vec<String> { e.nominator.pods_for_node("node-a").iter().map(|p| p.name().to_string()).collect() };
    assert_eq!(on_a(&e), ["mid"]);
    assert_eq!(e.step(), StepOutcome::Unschedulable { pod: 1 });
    assert_eq!(state(&e, "mid").nominated_node, None, "priority 500 < 1000: the nomination goes");
    assert_eq!(state(&e, "urgent").nominated_node.as_deref(), Some("node-a"));
    assert_eq!(on_a(&e), ["urgent"]);
}

/// Binding records the node on the pod's `PodInfo` (what the plugins and the queue read,
/// through `node_name`) and leaves the pod object shared with the scenario, not copied.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn binding_records_the_node_without_copying_the_pod() {
    let text = format!("{NODES}{}", pod("p", "", "1"));
    let sc = crate::load::load_str_for(&text, "test.yaml", &Features::new(KubeVersion::V1_34)).unwrap_or_else(|e| panic!("{e}"));
    let scenario_pod = sc.pods[0].clone();
    let mut e = Engine::new(sc, EngineOptions::default());
    assert_eq!(state(&e, "p").info.node_name(), None);
    e.run();
    let st = state(&e, "p");
    assert_eq!((st.phase, st.node.as_deref()), (Phase::Running, Some("node-a")));
    assert_eq!(st.info.node_name(), Some("node-a"));
    assert!(Arc::ptr_eq(&st.info.pod, &scenario_pod), "the bound pod's object is the scenario's");
    assert_eq!(st.info.pod.spec.node_name, None);
    let on_node = &e.snapshot().get("node-a").expect("node-a").pods;
    assert_eq!(on_node.iter().map(|p| p.node_name()).collect::<Vec<_>>(), [Some("node-a")]);
}
