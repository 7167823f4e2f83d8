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
    use super::explain::format_amount;
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
