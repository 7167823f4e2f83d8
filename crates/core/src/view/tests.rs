use super::*;
use crate::load_str;

const SCENARIO: &str = r#"
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
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a, topology.kubernetes.io/zone: za}}
status: {capacity: {cpu: '4', memory: 16Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b, topology.kubernetes.io/zone: zb}}
spec:
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status: {capacity: {cpu: '8', memory: 16Gi, pods: '110'}}
---
apiVersion: v1
kind: Pod
metadata: {name: victim}
spec:
  nodeName: node-a
  priorityClassName: low
  containers: [{name: c, image: x, resources: {requests: {cpu: '3'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: small}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: '500m'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: urgent}
spec:
  priorityClassName: high
  containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: huge}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: '16'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: gated}
spec:
  schedulingGates: [{name: example.com/quota}]
  containers: [{name: c, image: x}]
"#;

fn session(detail_all: bool) -> Session {
    let sc = load_str(SCENARIO, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    Session::with_detail(sc, 1, detail_all, &mut |_| {})
}

fn pod(s: &Session, name: &str) -> u32 {
    s.model.pods.iter().position(|p| p.name == name).unwrap() as u32
}

fn node(s: &Session, name: &str) -> u32 {
    s.model.nodes.iter().position(|n| n.name == name).unwrap() as u32
}

/// The first stop of `stage` in the cycle that tried `pod`, from `after` on.
fn stop_of(s: &Session, pod_ix: u32, stage: Stage) -> u32 {
    let sum = s.summary();
    for (c, &p) in sum.cycle_pod.iter().enumerate() {
        if p != pod_ix {
            continue;
        }
        let first = sum.cycle_first_stop[c] as usize;
        if let Some(k) = s.stops()[first..]
            .iter()
            .take_while(|st| st.cycle == c as u32 + 1)
            .position(|st| st.stage == stage)
        {
            return (first + k) as u32;
        }
    }
    panic!("no {stage:?} stop for pod {pod_ix}");
}

#[test]
fn stops_cover_every_cycle_in_order() {
    let s = session(true);
    let stops = s.stops();
    assert_eq!(stops.first().unwrap().stage, Stage::Ready);
    assert_eq!(stops.last().unwrap().stage, Stage::Quiet);
    assert!(stops.windows(2).all(|w| w[0].pos <= w[1].pos), "positions never go back");
    let sum = s.summary();
    assert_eq!(sum.cycle_first_stop.len(), sum.cycle_pod.len());
    for (c, &f) in sum.cycle_first_stop.iter().enumerate() {
        assert_eq!(stops[f as usize].stage, Stage::QueueSort);
        assert_eq!(stops[f as usize].cycle, c as u32 + 1);
    }
    // urgent preempts (a cycle with an eviction), huge fails, small binds.
    let markers: Vec<Marker> = sum.markers().collect();
    assert_eq!(markers.len(), sum.cycle_pod.len());
    assert!(markers.contains(&Marker::Preempted));
    assert!(markers.contains(&Marker::Bound));
    assert!(markers.contains(&Marker::Unschedulable));
}

#[test]
fn the_summary_names_each_stops_stage_and_seeks_to_a_cycle_and_phase() {
    let s = session(true);
    let sum = s.summary();
    assert_eq!(sum.stop_stages.chars().count(), s.stops().len());
    for (i, stop) in s.stops().iter().enumerate() {
        assert_eq!(sum.stop_stage(i as u32), Some(stop.stage), "stop {i}");
        assert_eq!(sum.cycle_of(i as u32), stop.cycle, "stop {i}");
    }
    for stage in Stage::ALL {
        assert_eq!(Stage::from_code(stage.code()), Some(stage));
        assert_eq!(Stage::from_name(stage.label()), Some(stage));
        assert_eq!(Stage::from_name(&stage.label().to_ascii_lowercase()), Some(stage));
    }
    assert_eq!(Stage::from_name("Failed"), Some(Stage::Failed));
    assert_eq!(Stage::from_name("Nope"), None);
    // A cycle's stop at a phase, its first stop when it never reaches the phase, none past the
    // end.
    let urgent = pod(&s, "urgent");
    let c = sum.cycle_pod.iter().position(|&p| p == urgent).unwrap() as u32 + 1;
    let post = stop_of(&s, urgent, Stage::PostFilter);
    assert_eq!(sum.stop_at(c, Some(Stage::PostFilter)), Some(post));
    assert_eq!(sum.stop_at(c, Some(Stage::Filter)), Some(stop_of(&s, urgent, Stage::Filter)));
    assert_eq!(sum.stop_at(c, None), Some(sum.cycle_first_stop[c as usize - 1]));
    let first = sum.cycle_first_stop[c as usize - 1];
    let end = sum.cycle_first_stop.get(c as usize).copied().unwrap_or(sum.stops);
    if !(first..end).any(|i| sum.stop_stage(i) == Some(Stage::Permit)) {
        assert_eq!(sum.stop_at(c, Some(Stage::Permit)), Some(first));
    }
    assert_eq!(sum.stop_at(0, None), Some(0));
    assert_eq!(sum.stop_at(10_000, Some(Stage::Bind)), None);
}

#[test]
fn ready_frame_queues_by_priority_and_shows_gates() {
    let mut s = session(true);
    let f = s.frame(0, false);
    assert_eq!(f.stage, Stage::Ready);
    let order: Vec<&str> = f.queue.active.iter().map(|q| s.model.pods[q.pod as usize].name.as_str()).collect();
    assert_eq!(order, ["urgent", "small", "huge"]);
    assert_eq!(f.queue.gated.len(), 1);
    assert!(f.queue.gated[0].note.as_deref().unwrap().contains("example.com/quota"));
    let a = node(&s, "node-a") as usize;
    assert_eq!(f.nodes[a].pods, vec![pod(&s, "victim")]);
    assert_eq!(f.nodes[a].used[0], 3000, "victim's 3 cpu");
}

#[test]
fn preemption_marks_victims_then_evicts_them() {
    let mut s = session(true);
    let urgent = pod(&s, "urgent");
    let victim = pod(&s, "victim");
    let a = node(&s, "node-a") as usize;
    let pf = stop_of(&s, urgent, Stage::PostFilter);
    let f = s.frame(pf, false);
    let cv = f.cycle_view.as_ref().unwrap();
    let post = cv.post_filter.as_ref().unwrap();
    let chosen: Vec<&CandidateView> = post.candidates.iter().filter(|c| c.chosen).collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].node, "node-a");
    assert_eq!(chosen[0].victims, vec![victim]);
    assert_eq!(f.nodes[a].victims, vec![victim]);
    assert!(f.nodes[a].pods.contains(&victim), "not gone yet");
    let ev = stop_of(&s, urgent, Stage::Evict);
    let f = s.frame(ev, false);
    assert!(!f.nodes[a].pods.contains(&victim));
    assert_eq!(f.nodes[a].leaving, vec![victim]);
    assert_eq!(f.nodes[a].nominated, vec![urgent]);
    let msg = f.cycle_view.unwrap().message.unwrap();
    assert!(msg.starts_with("0/2 nodes are available:"), "{msg}");
    // Later, urgent is bound on node-a.
    let bind = stop_of(&s, urgent, Stage::Bind);
    let f = s.frame(bind, false);
    assert_eq!(f.bound, Some((urgent, a as u32)));
    assert!(f.nodes[a].pods.contains(&urgent));
}

#[test]
fn a_preemption_says_which_rule_chose_the_node_and_the_retry_why_it_did_not_wait() {
    let mut s = session(true);
    let urgent = pod(&s, "urgent");
    let pf = stop_of(&s, urgent, Stage::PostFilter);
    let post = s.frame(pf, false).cycle_view.unwrap().post_filter.unwrap();
    assert_eq!(
        post.decided_by.as_deref(),
        Some(crate::framework::PickRule::OnlyCandidate.sentence())
    );
    // The first attempt came from activeQ; the retry after the eviction is popped from backoffQ
    // (activeQ is empty) with its whole 1 s backoff left, as the logical clock has not moved.
    let sum = s.summary();
    let tries: Vec<u32> = (0..sum.cycle_pod.len())
        .filter(|&c| sum.cycle_pod[c] == urgent)
        .map(|c| sum.cycle_first_stop[c])
        .collect();
    assert_eq!(tries.len(), 2, "{tries:?}");
    assert_eq!(s.frame(tries[0], false).cycle_view.unwrap().backoff_left_ms, None);
    assert_eq!(s.frame(tries[1], false).cycle_view.unwrap().backoff_left_ms, Some(1000));
}

#[test]
fn a_cycle_and_phase_name_a_stop_and_back() {
    let s = session(true);
    let sum = s.summary();
    assert_eq!(sum.stop_stages.chars().count() as u32, sum.stops);
    for stop in 0..sum.stops {
        let (cycle, stage) = sum.playhead(stop);
        assert_eq!(stage, Some(s.stops()[stop as usize].stage));
        let back = sum.stop_at(cycle, stage).unwrap();
        // The first stop of that stage in the cycle (a stage can repeat only at its end).
        assert_eq!(sum.playhead(back), (cycle, stage), "stop {stop}");
        assert!(back <= stop);
    }
    assert_eq!(sum.stop_at(99, Some(Stage::Filter)), None);
    // A stage the cycle never reached: its first stop.
    assert_eq!(sum.stop_at(1, Some(Stage::Bind)), Some(sum.cycle_first_stop[0]));
    for stage in Stage::ALL {
        assert_eq!(Stage::from_code(stage.code()), Some(stage));
        assert_eq!(Stage::from_label(stage.label()), Some(stage));
    }
}

#[test]
fn filter_matrix_and_score_table_follow_the_trace() {
    let mut s = session(true);
    let small = pod(&s, "small");
    // One feasible node: scoring is skipped, so there is a Score stop and no NormalizeScore.
    assert!(std::panic::catch_unwind(|| stop_of(&session(true), small, Stage::NormalizeScore)).is_err());
    let st = stop_of(&s, small, Stage::Score);
    let f = s.frame(st, false);
    let cv = f.cycle_view.unwrap();
    let fv = cv.filter.unwrap();
    assert!(fv.detail);
    assert_eq!(fv.plugins.first().map(String::as_str), Some("NodeUnschedulable"));
    let b = node(&s, "node-b");
    let row_b = fv.rows.iter().find(|r| r.node == b).unwrap();
    assert!(!row_b.feasible);
    assert_eq!(fv.plugins[row_b.failed_at.unwrap() as usize], "TaintToleration");
    // One feasible node: no score table.
    let sv = cv.score.unwrap();
    assert!(sv.single_feasible);
    assert!(cv.pipeline.iter().any(|p| p.point == "Score" && p.state == PointState::NotRun));
}

#[test]
fn recovered_detail_equals_recorded_detail() {
    let mut all = session(true);
    let mut none = session(false);
    assert_eq!(all.stops(), none.stops());
    for stop in 0..all.stops().len() as u32 {
        let a = all.frame(stop, true);
        let b = none.frame(stop, true);
        assert_eq!(a, b, "stop {stop}");
    }
    // Without asking, the cheap view has no verdicts.
    let small = pod(&none, "small");
    let st = stop_of(&none, small, Stage::Filter);
    let f = none.frame(st, false);
    assert!(!f.cycle_view.unwrap().filter.unwrap().detail);
}

#[test]
fn seeking_backwards_gives_the_same_frames() {
    let mut s = session(true);
    let n = s.stops().len() as u32;
    let forward: Vec<Frame> = (0..n).map(|i| s.frame(i, false)).collect();
    for i in (0..n).rev() {
        assert_eq!(s.frame(i, false), forward[i as usize], "stop {i}");
    }
}

#[test]
fn explains_a_resource_rejection_with_numbers() {
    let mut s = session(true);
    let huge = pod(&s, "huge");
    let st = stop_of(&s, huge, Stage::Filter);
    let cycle = s.stops()[st as usize].cycle;
    let a = node(&s, "node-a");
    let e = s.explain(cycle, a, "NodeResourcesFit", false);
    let text = e.lines.join("\n");
    assert!(text.contains("Insufficient cpu"), "{text}");
    assert!(text.contains("the pod requests 16"), "{text}");
    assert!(text.contains("4 allocatable"), "{text}");
    // A plugin after the rejecting one did not run.
    let b = node(&s, "node-b");
    let e = s.explain(cycle, b, "NodeResourcesFit", false);
    assert!(e.lines[0].contains("did not run"), "{:?}", e.lines);
    // A name no plugin has.
    let e = s.explain(cycle, b, "NodeResourceFit", false);
    assert_eq!(e.lines, ["There is no plugin named NodeResourceFit."]);
}

#[test]
fn frames_round_trip_through_json() {
    let mut s = session(true);
    let n = s.stops().len() as u32;
    for i in 0..n {
        let f = s.frame(i, false);
        let j = serde_json::to_string(&f).unwrap();
        let back: Frame = serde_json::from_str(&j).unwrap();
        assert_eq!(back, f);
    }
    let sum = s.summary();
    let back: Summary = serde_json::from_str(&serde_json::to_string(&sum).unwrap()).unwrap();
    assert_eq!(back, sum);
}

#[test]
fn amounts_read_like_kubectl() {
    use schedlab_view::view::format_amount;
    assert_eq!(format_amount("cpu", 500), "500m");
    assert_eq!(format_amount("cpu", 2000), "2");
    assert_eq!(format_amount("cpu", 2500), "2.5");
    assert_eq!(format_amount("memory", 16 << 30), "16Gi");
    assert_eq!(format_amount("memory", 1536 << 20), "1.5Gi");
    assert_eq!(format_amount("pods", 110), "110");
}

/// Every frame of every corpus scenario: consistent counts, score totals that add up, a bound pod
/// on its node at its Bind stop, and views that survive JSON. (Reads the corpus from disk:
/// native only.)
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn corpus_frames_are_consistent() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "the corpus is there");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let sc = load_str(&text, &name).unwrap_or_else(|e| panic!("{e}"));
        let mut s = Session::new(sc, 1);
        let total = s.model.pods.iter().filter(|p| !p.finished).count() as u32;
        let n = s.stops().len() as u32;
        let mut last_cycle = 0;
        for stop in 0..n {
            let f = s.frame(stop, false);
            assert!(f.cycle >= last_cycle, "{name}: cycles never go back");
            last_cycle = f.cycle;
            assert_eq!(
                f.running + f.pending + f.evicted,
                total,
                "{name} stop {stop}: every pod is somewhere"
            );
            if let Some(cv) = &f.cycle_view {
                if let Some(sv) = cv.score.as_ref().filter(|s| s.detail) {
                    for r in &sv.rows {
                        assert_eq!(r.weighted.iter().sum::<i64>(), r.total, "{name}: totals add up");
                    }
                    let best = sv.rows.iter().map(|r| r.total).max().unwrap();
                    assert!(
                        sv.rows.iter().any(|r| r.selected && r.total == best),
                        "{name}: the winner has the best total"
                    );
                }
                if let Some(fv) = &cv.filter {
                    assert_eq!(
                        fv.rows.iter().filter(|r| r.visit.is_some()).count() as u32,
                        fv.evaluated,
                        "{name}: one row per evaluated node"
                    );
                    assert_eq!(fv.rows.iter().filter(|r| r.feasible).count() as u32, fv.feasible, "{name}");
                }
            }
            if let Some((pod, node)) = f.bound {
                if s.model.large {
                    assert!(
                        f.heat[node as usize] > 0 || s.model.pods[pod as usize].requests.iter().all(|&r| r == 0),
                        "{name}"
                    );
                } else {
                    assert!(f.nodes[node as usize].pods.contains(&pod), "{name}: bound pod on its node");
                }
            }
            let back: Frame = serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
            assert_eq!(back, f);
        }
    }
}

/// A session over `yaml` with every cycle's detail recorded.
fn session_of(yaml: &str) -> Session {
    let sc = load_str(yaml, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    Session::with_detail(sc, 1, true, &mut |_| {})
}

/// The explanation of one cell, in the first cycle that tried `pod`, as one text.
fn explain_cell(s: &mut Session, pod_name: &str, node_name: &str, plugin: &str, score: bool) -> String {
    let p = pod(s, pod_name);
    let cycle = s.summary().cycle_pod.iter().position(|&c| c == p).expect("the pod had a cycle") as u32 + 1;
    let n = node(s, node_name);
    s.explain(cycle, n, plugin, score).lines.join("\n")
}

/// (pod, node, plugin, score cell?, sentences or parts of them the explanation must contain).
type ExplainCase = (&'static str, &'static str, &'static str, bool, &'static [&'static str]);

fn check_explanations(yaml: &str, cases: &[ExplainCase]) {
    let mut s = session_of(yaml);
    for (pod_name, node_name, plugin, score, want) in cases {
        let text = explain_cell(&mut s, pod_name, node_name, plugin, *score);
        assert!(!text.contains("Replaying"), "{pod_name} on {node_name}, {plugin}: {text}");
        for w in *want {
            assert!(text.contains(w), "{pod_name} on {node_name}, {plugin}: missing {w:?} in\n{text}");
        }
    }
}

const SPREAD: &str = include_str!("../../tests/explanations/spread-filter.yaml");

#[test]
fn explains_topology_spread_filter_with_counts_and_skew() {
    check_explanations(
        SPREAD,
        &[
            (
                "spread",
                "node-a",
                "PodTopologySpread",
                false,
                &[
                    "rejected node-a (Unschedulable)",
                    "Spread pods matching app=web across topology.kubernetes.io/zone (maxSkew 1, DoNotSchedule).",
                    "Matching pods per zone: zone-a 2 (this node), zone-b 1.",
                    "Not counted (a taint the pod does not tolerate): node-c.",
                    "1 node(s) lack a topology label of the constraints and never count.",
                    "The lowest count (the global minimum) is 1.",
                    "Placing the pod here makes zone-a 3: skew 3 − 1 = 2 > maxSkew 1: rejected.",
                ],
            ),
            (
                "spread",
                "node-b",
                "PodTopologySpread",
                false,
                &[
                    "passed node-b",
                    "Placing the pod here makes zone-b 2: skew 2 − 1 = 1 ≤ maxSkew 1: fits.",
                ],
            ),
            (
                "spread",
                "node-x",
                "PodTopologySpread",
                false,
                &[
                    "rejected node-x (UnschedulableAndUnresolvable)",
                    "node-x has no topology.kubernetes.io/zone label, so it belongs to no zone: rejected.",
                ],
            ),
            // The tainted node is rejected by TaintToleration first.
            ("spread", "node-c", "PodTopologySpread", false, &["did not run on node-c"]),
            // spread went to node-b; minDomains 3 with only 2 zones counting.
            (
                "spread-min",
                "node-b",
                "PodTopologySpread",
                false,
                &[
                    "(maxSkew 2, minDomains 3, DoNotSchedule)",
                    "Matching pods per zone: zone-a 2, zone-b 2 (this node).",
                    "Only 2 zone(s) count, fewer than minDomains 3, so the minimum is taken as 0.",
                    "Placing the pod here makes zone-b 3: skew 3 − 0 = 3 > maxSkew 2: rejected.",
                ],
            ),
        ],
    );
}

const SPREAD_SCORE: &str = include_str!("../../tests/explanations/spread-score.yaml");

#[test]
fn explains_topology_spread_score_and_its_normalization() {
    // zone-a holds 2 matching pods, zone-b 1; x has no zone and is left out. Two zones among the
    // feasible nodes: weight ln(4) = 1.386. Raw a1 = round(2.773) = 3, b1 = round(1.386) = 1;
    // normalized (fewer is better) 100 × (3 + 1 − raw) / 3.
    check_explanations(
        SPREAD_SCORE,
        &[
            (
                "cache",
                "a1",
                "PodTopologySpread",
                true,
                &[
                    "raw score of 3; after NormalizeScore 33",
                    "Spread pods matching app=cache across topology.kubernetes.io/zone (maxSkew 1, ScheduleAnyway).",
                    "Matching pods per zone (of the feasible nodes): zone-a 2 (this node), zone-b 1.",
                    "2 pods counted for a1; weight ln(2 zones + 2) = 1.386; 2 × 1.386 + (1 − 1) = 2.773.",
                    "Raw = round(2.773) = 3",
                    "NormalizeScore turns it around between the highest (3) and lowest (1) raw scores: 100 × (3 + 1 − 3) / 3 = 33.",
                ],
            ),
            (
                "cache",
                "b1",
                "PodTopologySpread",
                true,
                &[
                    "1 pod counted for b1; weight ln(2 zones + 2) = 1.386; 1 × 1.386 + (1 − 1) = 1.386.",
                    "Raw = round(1.386) = 1",
                    "100 × (3 + 1 − 1) / 3 = 100.",
                ],
            ),
            (
                "cache",
                "x",
                "PodTopologySpread",
                true,
                &["x lacks the topology label of a constraint, so it is left out: raw 0, and 0 after NormalizeScore."],
            ),
        ],
    );
}

const AFFINITY: &str = include_str!("../../tests/explanations/affinity-filter.yaml");

#[test]
fn explains_inter_pod_affinity_filter_with_the_pods_involved() {
    check_explanations(
        AFFINITY,
        &[
            (
                "front",
                "b1",
                "InterPodAffinity",
                false,
                &[
                    "rejected b1 (UnschedulableAndUnresolvable): node(s) didn't match pod affinity rules.",
                    "Required affinity: the pod must run in the same zone as a pod matching app=cache (in namespace default).",
                    "b1 is in zone zone-b, which has no matching pod.",
                    "The required affinity is not met on b1: rejected.",
                ],
            ),
            (
                "front",
                "a1",
                "InterPodAffinity",
                false,
                &[
                    "rejected a1 (Unschedulable): node(s) didn't match pod anti-affinity rules.",
                    "a1 is in zone zone-a, which has 1 matching pod: default/cache-1 on a1.",
                    "Required anti-affinity: no pod matching app=batch (in namespace default) may run on the same node.",
                    "a1 already has 1 matching pod: default/batch-1 on a1 — rejected.",
                ],
            ),
            (
                "front",
                "a2",
                "InterPodAffinity",
                false,
                &[
                    "rejected a2 (Unschedulable): node(s) didn't satisfy existing pods anti-affinity rules.",
                    "a2 is in zone zone-a, which has 1 matching pod: default/cache-1 on a1.",
                    "a2 has none.",
                    "Running pods whose required anti-affinity matches this pod: default/web-0 on a2 — rejected.",
                ],
            ),
        ],
    );
}

const AFFINITY_SCORE: &str = include_str!("../../tests/explanations/affinity-score.yaml");

#[test]
fn explains_inter_pod_affinity_score_term_by_term() {
    // Raw: zone-a 2 × 50 = 100 (a1, a2); b1 50 − 30 + 10 = 30; c1 0. Normalized between 0 and 100.
    check_explanations(
        AFFINITY_SCORE,
        &[
            (
                "web",
                "b1",
                "InterPodAffinity",
                true,
                &[
                    "raw score of 30; after NormalizeScore 30",
                    "Preferred affinity (weight 50) to pods matching app=cache: 1 matching pod in zone zone-b (default/cache-2 on b1) → +50.",
                    "Preferred anti-affinity (weight 30) to pods matching app=db: 1 matching pod on b1 (default/db-1 on b1) → −30.",
                    "default/db-1 on b1 (in zone zone-b) has preferred affinity (weight 10) matching this pod → +10.",
                    "Raw = 50 − 30 + 10 = 30.",
                    "NormalizeScore scales between the lowest (0) and highest (100) raw scores: 100 × (30 − 0) / 100 = 30.",
                ],
            ),
            (
                "web",
                "a1",
                "InterPodAffinity",
                true,
                &[
                    "2 matching pods in zone zone-a (default/cache-1 on a1, default/cache-3 on a2) → +100.",
                    "Raw = 100.",
                    "100 × (100 − 0) / 100 = 100.",
                ],
            ),
            (
                "web",
                "c1",
                "InterPodAffinity",
                true,
                &["No affinity term involving this pod reaches c1's domains: raw 0."],
            ),
        ],
    );
}

const IMAGES: &str = include_str!("../../tests/explanations/image-locality.yaml");

#[test]
fn explains_image_locality_with_sizes_spread_and_thresholds() {
    // n1: 900Mi × 2/3 + 100Mi × 1/3 = 633.33Mi; two containers: ceiling 2000Mi.
    // 100 × (633.33Mi − 23Mi) / (2000Mi − 23Mi) = 30; n2: 600Mi gives 29.
    check_explanations(
        IMAGES,
        &[
            (
                "app",
                "n1",
                "ImageLocality",
                true,
                &[
                    "raw score of 30",
                    "registry.example.com/big:1: 900Mi on n1; 2 of 3 nodes have it, so it counts 900Mi × 2/3 = 600Mi.",
                    "registry.example.com/small: 100Mi on n1; 1 of 3 nodes has it, so it counts 100Mi × 1/3 = 33.33Mi.",
                    "The total is 633.33Mi; between the 23Mi floor and the 2000Mi ceiling (2 containers × 1000Mi) it scores 100 × (633.33Mi − 23Mi) / (2000Mi − 23Mi) = 30.",
                ],
            ),
            (
                "app",
                "n2",
                "ImageLocality",
                true,
                &["registry.example.com/small: not on n2, counts 0.", "100 × (600Mi − 23Mi) / (2000Mi − 23Mi) = 29."],
            ),
            (
                "app",
                "n3",
                "ImageLocality",
                true,
                &["registry.example.com/big:1: not on n3, counts 0.", "The total, 0, is not above the 23Mi floor: raw 0."],
            ),
        ],
    );
}

const VOLUMES: &str = include_str!("../../tests/explanations/volumes.yaml");

#[test]
fn explains_volume_plugins_with_what_the_claims_need() {
    check_explanations(
        VOLUMES,
        &[
            (
                "a-logs",
                "node-a",
                "VolumeZone",
                false,
                &[
                    "rejected node-a (UnschedulableAndUnresolvable): node(s) had no available volume zone.",
                    "Claim logs is bound to volume logs-pv, which is in zone zone-b; node-a is in zone zone-a — no match.",
                ],
            ),
            (
                "a-logs",
                "node-b",
                "VolumeZone",
                false,
                &["Claim logs is bound to volume logs-pv, which is in zone zone-b; node-b is in zone zone-b — match."],
            ),
            (
                "b-data",
                "node-a",
                "VolumeBinding",
                false,
                &[
                    "rejected node-a (UnschedulableAndUnresolvable): node(s) didn't match PersistentVolume's node affinity.",
                    "Claim data is bound to volume data-pv, usable only on nodes with kubernetes.io/hostname=node-b; node-a does not.",
                ],
            ),
            (
                "b-data",
                "node-b",
                "VolumeBinding",
                false,
                &["usable only on nodes with kubernetes.io/hostname=node-b; node-b qualifies."],
            ),
            (
                "c-attach",
                "node-a",
                "NodeVolumeLimits",
                false,
                &[
                    "rejected node-a (Unschedulable): node(s) exceed max volume count.",
                    "ebs.csi.example.com: node-a can attach 1 volume; 1 already attached + 1 for this pod = 2 > 1 — rejected.",
                ],
            ),
            (
                "c-attach",
                "node-b",
                "NodeVolumeLimits",
                false,
                &["ebs.csi.example.com: node-b can attach 4 volumes; 0 already attached + 1 for this pod = 1 ≤ 4."],
            ),
            (
                "d-state",
                "node-b",
                "VolumeRestrictions",
                false,
                &[
                    "rejected node-b (Unschedulable)",
                    "Claim state allows only one pod (ReadWriteOncePod), and it is already in use: state by default/state-owner on node-a — so no node can take this pod.",
                ],
            ),
        ],
    );
}

/// Every explanation of the corpus's small scenarios replays to the recorded verdicts and
/// scores (the explanations never fall back to "not reproduced"). Native only: reads the corpus.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn corpus_explanations_reproduce_the_recorded_results() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut explained = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let mut s = session_of(&text);
        if s.model.nodes.len() > 20 {
            continue;
        }
        let plugins: Vec<String> = s
            .model
            .profiles
            .iter()
            .flat_map(|p| p.points.iter().flat_map(|(_, v)| v.clone()))
            .collect();
        let cycles = s.summary().cycle_pod.len() as u32;
        for c in 1..=cycles.min(20) {
            for n in 0..s.model.nodes.len() as u32 {
                for p in &plugins {
                    for score in [false, true] {
                        let e = s.explain(c, n, p, score);
                        assert!(
                            e.lines.iter().all(|l| !l.contains("Replaying")),
                            "{name} cycle {c} node {n} {p}: {:?}",
                            e.lines
                        );
                        explained += 1;
                    }
                }
            }
        }
    }
    assert!(explained > 1000, "{explained}");
}

const NODE_TERMS_AND_PORTS: &str = include_str!("../../tests/explanations/node-terms-and-ports.yaml");

#[test]
fn explains_node_affinity_terms_and_taken_host_ports() {
    check_explanations(
        NODE_TERMS_AND_PORTS,
        &[
            (
                "web",
                "n2",
                "NodeAffinity",
                false,
                &[
                    "The pod's required node affinity has 2 terms; any one must match.",
                    "Term 1: disk=ssd — n2 does not match.",
                    "Term 2: zone in (zb, zc) — n2 does not match.",
                    "n2 has disk=hdd, no zone.",
                ],
            ),
            ("web", "n1", "NodeAffinity", false, &["Term 1: disk=ssd — n1 matches."]),
            (
                "web",
                "n1",
                "NodePorts",
                false,
                &[
                    "The pod wants host port(s) 8080/TCP.",
                    "8080/TCP is already taken on n1 by default/ingress — rejected.",
                ],
            ),
        ],
    );
}

const SHAPE: &str = include_str!("../../tests/explanations/requested-to-capacity-shape.yaml");

#[test]
fn explains_requested_to_capacity_ratio_through_the_shape() {
    // n1: cpu 4/8 = 50% → 100, memory 8Gi/32Gi = 25% → 50; (100×2 + 50×1) / 3 = 83.3 → 83.
    // n2: 12% of both → 24.
    check_explanations(
        SHAPE,
        &[
            (
                "p",
                "n1",
                "NodeResourcesFit",
                true,
                &[
                    "raw score of 83",
                    "RequestedToCapacityRatio maps each resource's use through the configured shape: cpu 50% → 100, memory 25% → 50.",
                    "Weighted mean of the non-zero scores: (100×2 + 50×1) / 3 = 83.333 → 83.",
                ],
            ),
            (
                "p",
                "n2",
                "NodeResourcesFit",
                true,
                &["cpu 12% → 24, memory 12% → 24.", "(24×2 + 24×1) / 3 = 24 → 24."],
            ),
        ],
    );
}

/// The base scenario with a ReplicaSet `web` of `replicas` 100m pods, then `more`.
fn with_replica_set(replicas: u32, more: &str) -> String {
    format!(
        "{SCENARIO}---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {{name: web}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers: [{{name: c, image: x, resources: {{requests: {{cpu: 100m}}}}}}]
{more}"
    )
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn controllers_option_creates_marked_pods() {
    let text = with_replica_set(2, "");
    let sc = load_str(&text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let off = Session::with_options(
        sc.clone(),
        SessionOptions {
            seed: 1,
            controllers: false,
        },
        &mut |_| {},
    );
    assert!(off.controllers.is_none());
    assert!(off.model.pods.iter().all(|p| p.created_by.is_none()));
    let on = Session::with_options(
        sc,
        SessionOptions {
            seed: 1,
            controllers: true,
        },
        &mut |_| {},
    );
    let n = off.model.pods.len();
    assert_eq!(on.model.pods.len(), n + 2);
    assert!(on.model.pods[..n].iter().all(|p| p.created_by.is_none()));
    for p in &on.model.pods[n..] {
        assert!(p.name.starts_with("web-"), "{}", p.name);
        assert_eq!(p.created_by.as_ref().map(ToString::to_string).as_deref(), Some("ReplicaSet/web"));
    }
    assert_eq!(on.controllers.as_ref().map(|r| r.pods.len()), Some(2));
    // The model's JSON carries the mark only for created pods.
    let json = serde_json::to_string(&on.model.pods[n]).unwrap();
    assert!(json.contains(r#""createdBy":{"kind":"ReplicaSet","name":"web"}"#), "{json}");
    assert!(!serde_json::to_string(&on.model.pods[0]).unwrap().contains("createdBy"));
    // Created before the run: at time 0; the scenario's own pods have no creation time.
    assert!(on.model.pods[n..].iter().all(|p| p.created_at_ms == Some(0)));
    assert!(on.model.pods[..n].iter().all(|p| p.created_at_ms.is_none()));
}

/// Pods created while the cluster runs carry the instant of their creation, and the controller
/// when one made them (a timeline step's pod has none).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn pods_created_while_running_carry_when_and_by_whom() {
    let text = with_replica_set(
        1,
        "---
apiVersion: schedlab.dev/v1alpha1
kind: Timeline
steps:
- at: 2s
  patch: {kind: ReplicaSet, name: web}
  merge: {spec: {replicas: 2}}
- at: 3500ms
  create:
    apiVersion: v1
    kind: Pod
    metadata: {name: late, namespace: default}
    spec:
      containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
",
    );
    let sc = load_str(&text, "t.yaml").unwrap_or_else(|e| panic!("{e}"));
    let s = Session::with_options(
        sc,
        SessionOptions {
            seed: 1,
            controllers: true,
        },
        &mut |_| {},
    );
    let web: Vec<_> = s
        .model
        .pods
        .iter()
        .filter(|p| p.created_by.as_ref().is_some_and(|b| b.to_string() == "ReplicaSet/web"))
        .collect();
    let times: Vec<Option<i64>> = web.iter().map(|p| p.created_at_ms).collect();
    assert_eq!(times, [Some(0), Some(2000)], "{web:?}");
    let late = s.model.pods.iter().find(|p| p.name == "late").expect("the step's pod");
    assert_eq!((late.created_by.as_ref(), late.created_at_ms), (None, Some(3500)));
    let json = serde_json::to_string(late).unwrap();
    assert!(json.contains("\"createdAtMs\":3500"), "{json}");
}

const DRA_SCENARIO: &str =
    include_str!("../../../../tests/conformance/workloads-dra/scenarios/dra-pod-two-claims-shared-and-template.yaml");

/// Devices, claims at each stop, and DynamicResources' filter explanations.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn dra_devices_claims_and_explanations() {
    let mut s = session_of(DRA_SCENARIO);
    let dra = s.model.dra.clone().expect("a DRA scenario has a DRA model");
    let v1 = node(&s, "v-1");
    let on_v1: Vec<&str> = dra.devices.iter().filter(|d| d.nodes == vec![v1]).map(|d| d.id.as_str()).collect();
    assert_eq!(on_v1, vec!["vpu.example.org/v-1/vpu-0", "qat.example.org/v-1/qat-0"]);
    let enc1 = dra.claims.iter().find(|c| c.key == "default/enc-1-vpu").expect("generated claim");
    assert_eq!(enc1.owner, Some(pod(&s, "enc-1")));
    assert_eq!(enc1.requests, vec!["vpu: vpu.example.org ×1".to_string()]);
    // Before the first cycle nothing is allocated; at the end stream-key is shared by two pods.
    let first = s.frame(0, false);
    assert!(first.claims.iter().all(|c| c.devices.is_empty()));
    let last = s.frame(s.summary().stops - 1, false);
    let key = last.claims.iter().find(|c| c.key == "default/stream-key").unwrap();
    assert_eq!(key.devices, vec!["qat.example.org/v-1/qat-0".to_string()]);
    assert_eq!(key.reserved_for, vec!["enc-1".to_string(), "viewer".to_string()]);
    check_explanations(
        DRA_SCENARIO,
        &[
            (
                "enc-1",
                "v-1",
                "DynamicResources",
                false,
                &["Claim default/stream-key is not allocated yet", "would get qat.example.org/v-1/qat-0"],
            ),
            (
                "enc-2",
                "v-2",
                "DynamicResources",
                false,
                &["Claim default/stream-key is already allocated (qat.example.org/v-1/qat-0), reserved for enc-1; its allocation is not usable on v-2."],
            ),
            ("enc-2", "v-1", "DynamicResources", false, &["No set of free devices usable from v-1"]),
        ],
    );
}

/// Sessions over timeline scenarios (nodes and pods created while the run plays) replay every
/// stop; the summary lists the steps' times for the scrubber.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn timeline_sessions_replay_every_stop() {
    for (name, yaml) in [
        (
            "node-added",
            include_str!("../../../../tests/conformance/timeline/scenarios/timeline-node-added-pending-pods.yaml"),
        ),
        (
            "node-deleted",
            include_str!("../../../../tests/conformance/timeline/scenarios/timeline-node-deleted-with-pods.yaml"),
        ),
        (
            "same-instant",
            include_str!("../../../../tests/conformance/timeline/scenarios/timeline-same-instant-order.yaml"),
        ),
    ] {
        let sc = load_str(yaml, name).unwrap_or_else(|e| panic!("{e}"));
        let mut s = Session::with_detail(sc, 1, true, &mut |_| {});
        let sum = s.summary();
        assert!(!sum.timeline_steps_ms.is_empty(), "{name}");
        assert!(sum.timeline_steps_ms.windows(2).all(|w| w[0] <= w[1]), "{name}");
        for stop in 0..sum.stops {
            let f = s.frame(stop, true);
            assert!(f.clock_ms <= sum.end_clock_ms, "{name}");
        }
    }
}

// --- Cluster changes (timelines) -------------------------------------------------------------

/// A timeline scenario of the corpus, embedded (the tests also run in wasm, without a file
/// system).
fn timeline_session(file: &str) -> Session {
    let text = match file {
        "timeline-backoff-vs-active.yaml" => {
            include_str!("../../../../tests/conformance/timeline/scenarios/timeline-backoff-vs-active.yaml")
        }
        "timeline-cordon-uncordon.yaml" => include_str!("../../../../tests/conformance/timeline/scenarios/timeline-cordon-uncordon.yaml"),
        "timeline-gate-removed.yaml" => include_str!("../../../../tests/conformance/timeline/scenarios/timeline-gate-removed.yaml"),
        "timeline-labels-patched-affinity.yaml" => {
            include_str!("../../../../tests/conformance/timeline/scenarios/timeline-labels-patched-affinity.yaml")
        }
        "timeline-node-added-pending-pods.yaml" => {
            include_str!("../../../../tests/conformance/timeline/scenarios/timeline-node-added-pending-pods.yaml")
        }
        "timeline-node-deleted-with-pods.yaml" => {
            include_str!("../../../../tests/conformance/timeline/scenarios/timeline-node-deleted-with-pods.yaml")
        }
        other => panic!("{other} is not embedded"),
    };
    Session::new(load_str(text, file).expect("loads"), 1)
}

/// The `Change` stops' frames, in order.
fn change_frames(s: &mut Session) -> Vec<Frame> {
    let stops: Vec<u32> = (0..s.stops().len() as u32)
        .filter(|&i| s.stops()[i as usize].stage == Stage::Change)
        .collect();
    stops.into_iter().map(|i| s.frame(i, false)).collect()
}

/// Each change is a stop; the frame shows the cluster as it is then and tells the change and
/// the queue's answer in sentences.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn changes_are_stops_with_live_cluster_and_sentences() {
    // A node added: absent before, present after; the hint's answers per pod.
    let mut s = timeline_session("timeline-node-added-pending-pods.yaml");
    assert_eq!(s.summary().timeline_step_stops.len(), 2);
    assert!(s.summary().timeline_step_stops.iter().all(Option::is_some));
    let d = node(&s, "pool-a-4") as usize;
    assert!(s.frame(0, false).nodes[d].absent);
    let frames = change_frames(&mut s);
    assert_eq!(frames[0].changes[0].sentence, "pool-a-3 was added");
    assert!(frames[0].nodes[d].absent);
    assert!(!frames[1].nodes[d].absent);
    let sentences: Vec<&str> = frames[0].changes[0].moves.iter().map(|m| m.sentence.as_str()).collect();
    assert_eq!(
        sentences[0],
        "pool-a-3 was added: ml-trainer — NodeResourcesFit's hint says this does not help it (stays in the unschedulable pool)"
    );
    assert_eq!(
        sentences[1],
        "pool-a-3 was added: web-0 — NodeResourcesFit's hint says it may fit now → activeQ"
    );
    assert_eq!(frames[0].changes[0].moves[1].hint.as_deref(), Some("Queue"));
    // The page shows the pod's part under the change's sentence, as data (it never cuts the
    // change's sentence off the move's).
    assert_eq!(frames[0].changes[0].moves[1].pod_sentence, "web-0 — NodeResourcesFit's hint says it may fit now → activeQ");
    for c in frames.iter().flat_map(|f| &f.changes) {
        for m in &c.moves {
            assert_eq!(m.sentence, format!("{}: {}", c.sentence, m.pod_sentence));
        }
    }

    // A node deleted: absent, its pods gone (not counted as evicted).
    let mut s = timeline_session("timeline-node-deleted-with-pods.yaml");
    let spot = node(&s, "spot-1") as usize;
    let frames = change_frames(&mut s);
    assert_eq!(frames[0].changes[0].sentence, "spot-1 was deleted, and its pods with it");
    assert!(frames[0].nodes[spot].absent && frames[0].nodes[spot].pods.is_empty());
    assert_eq!(frames[0].evicted, 0);

    // Cordon and uncordon show on the card.
    let mut s = timeline_session("timeline-cordon-uncordon.yaml");
    let n1 = node(&s, "node-1") as usize;
    let frames = change_frames(&mut s);
    assert_eq!(frames[0].changes[0].sentence, "node-1 was cordoned");
    assert!(frames[0].nodes[n1].unschedulable);
    let last = frames.last().expect("changes");
    assert_eq!(last.changes[0].sentence, "node-1 was uncordoned");
    assert!(!last.nodes[n1].unschedulable);
    assert_eq!(
        last.changes[0].moves[0].sentence,
        "node-1 was uncordoned: reporting-batch — NodeUnschedulable's hint says it may schedule now → activeQ"
    );

    // A running pod deleted leaves its node; the backoff left is told.
    let mut s = timeline_session("timeline-backoff-vs-active.yaml");
    let frames = change_frames(&mut s);
    let del = frames.iter().find(|f| f.changes[0].action == crate::trace::ChangeAction::Delete).expect("a delete");
    assert_eq!(
        del.changes[0].moves[0].sentence,
        "pod log-compactor was deleted on node-1: fraud-scorer — NodeResourcesFit's hint says it may fit now → backoffQ, 0.5 s of backoff left"
    );
    let on_node: Vec<&str> = del.nodes[0].pods.iter().map(|&p| s.model.pods[p as usize].name.as_str()).collect();
    assert!(!on_node.contains(&"log-compactor"), "{on_node:?}");

    // Labels patched show on the card.
    let mut s = timeline_session("timeline-labels-patched-affinity.yaml");
    let n3 = node(&s, "node-3") as usize;
    let frames = change_frames(&mut s);
    let f = frames
        .iter()
        .find(|f| f.changes[0].sentence == "node-3 got label workload=analytics")
        .expect("label patch");
    assert!(f.nodes[n3].labels.contains(&("workload".to_string(), "analytics".to_string())));
    let f = frames
        .iter()
        .find(|f| f.changes[0].sentence == "node-3 lost label workload")
        .expect("label removal");
    assert!(!f.nodes[n3].labels.iter().any(|(k, _)| k == "workload"));

    // A lifted gate.
    let mut s = timeline_session("timeline-gate-removed.yaml");
    let frames = change_frames(&mut s);
    assert_eq!(frames[0].changes[0].sentence, "pod train-job-b's scheduling gates were lifted");
    // Change stops have no cycle view, and their stage code round-trips.
    assert!(frames.iter().all(|f| f.cycle_view.is_none() && f.stage == Stage::Change));
    assert_eq!(Stage::from_code(Stage::Change.code()), Some(Stage::Change));
}

/// schedlab-view cannot name core's constant: its copy of the default profile's name must agree.
#[test]
fn the_view_crate_knows_the_default_scheduler_name() {
    assert_eq!(schedlab_view::view::DEFAULT_SCHEDULER_NAME, crate::config::DEFAULT_SCHEDULER_NAME);
}

/// A profile that enables schedlab.dev/CEL says it is a schedlab extension, whether at Score
/// (with its expressions) or at Filter only.
#[test]
fn a_profile_with_the_cel_plugin_notes_it_is_a_schedlab_extension() {
    let node = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {capacity: {cpu: '1', pods: '10'}}\n";
    for (plugins, has_score) in [("{filter: {enabled: [{name: schedlab.dev/CEL}]}}", false), ("{multiPoint: {enabled: [{name: schedlab.dev/CEL}]}}", true)] {
        let yaml = format!(
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins: {plugins}\n  pluginConfig:\n  - name: schedlab.dev/CEL\n    args: {{filter: 'true'}}\n---\n{node}"
        );
        let s = session_of(&yaml);
        let notes = &s.model.profiles[0].notes;
        let cel: Vec<&String> = notes.iter().filter(|n| n.starts_with("schedlab.dev/CEL filters with true")).collect();
        assert_eq!(cel.len(), 1, "{plugins}: {notes:?}");
        assert!(cel[0].contains("a schedlab extension"), "{plugins}: {notes:?}");
        let scores = s.model.profiles[0].points.iter().any(|(p, v)| p == "Score" && v.iter().any(|n| n == "schedlab.dev/CEL"));
        assert_eq!(scores, has_score, "{plugins}");
    }
}
