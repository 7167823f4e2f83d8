//! Property test: random but valid scenarios (zones, taints, cordons, priorities, affinity,
//! anti-affinity, spread constraints, host ports, gates, PDBs, pre-bound pods) run through the
//! whole engine. It must never panic, must terminate, and what it binds must respect the
//! scheduler's hard rules: a pod the engine bound fits the node's allocatable (counting every
//! pod on it), tolerates its NoSchedule taints, matches its nodeSelector, and no two pods bound
//! by the engine share a host port on a node; the same seed gives the same trace.

use schedlab_core::engine::Phase;
use schedlab_core::trace::Detail;
use schedlab_core::{Engine, EngineOptions};
use std::collections::BTreeMap;
use std::fmt::Write;
use wasm_bindgen_test::wasm_bindgen_test;

/// The scenarios and snapshots here are kube-scheduler v1.34's.
fn load_v1_34(text: &str, file: &str) -> Result<schedlab_core::Scenario, schedlab_core::LoadErrors> {
    schedlab_core::load::load_str_for(
        text,
        file,
        &schedlab_core::version::Features::new(schedlab_core::version::KubeVersion::V1_34),
    )
}

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
}

const ZONES: [&str; 3] = ["zone-a", "zone-b", "zone-c"];

fn scenario(rng: &mut Rng) -> String {
    let mut s = String::new();
    writeln!(
        s,
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 1000\n---"
    )
    .unwrap();
    writeln!(
        s,
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: low\nvalue: 10\n---"
    )
    .unwrap();
    let nodes = 1 + rng.below(8);
    for n in 0..nodes {
        let zone = ZONES[rng.below(3) as usize];
        writeln!(
            s,
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-{n}\n  labels:\n    kubernetes.io/hostname: node-{n}"
        )
        .unwrap();
        if rng.chance(80) {
            writeln!(s, "    topology.kubernetes.io/zone: {zone}").unwrap();
        }
        if rng.chance(30) {
            writeln!(s, "    disk: ssd").unwrap();
        }
        writeln!(s, "spec:").unwrap();
        if rng.chance(10) {
            writeln!(s, "  unschedulable: true").unwrap();
        }
        if rng.chance(25) {
            let effect = ["NoSchedule", "PreferNoSchedule", "NoExecute"][rng.below(3) as usize];
            writeln!(s, "  taints:\n  - key: dedicated\n    value: gpu\n    effect: {effect}").unwrap();
        }
        let cpu = 1 + rng.below(8);
        let mem = 1 + rng.below(16);
        writeln!(
            s,
            "status:\n  capacity:\n    cpu: '{cpu}'\n    memory: {mem}Gi\n    pods: '{}'\n---",
            2 + rng.below(10)
        )
        .unwrap();
    }
    let pods = 1 + rng.below(14);
    for p in 0..pods {
        let app = ["web", "db", "cache"][rng.below(3) as usize];
        writeln!(
            s,
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-{p}\n  labels:\n    app: {app}\nspec:"
        )
        .unwrap();
        let prebound = rng.chance(15);
        if prebound {
            writeln!(s, "  nodeName: node-{}", rng.below(nodes)).unwrap();
        }
        if rng.chance(40) {
            writeln!(s, "  priorityClassName: {}", if rng.chance(50) { "high" } else { "low" }).unwrap();
        }
        if !prebound && rng.chance(10) {
            writeln!(s, "  schedulingGates:\n  - name: example.com/hold").unwrap();
        }
        if rng.chance(20) {
            writeln!(s, "  nodeSelector:\n    disk: ssd").unwrap();
        }
        if rng.chance(25) {
            writeln!(s, "  tolerations:\n  - key: dedicated\n    operator: Exists").unwrap();
        }
        if rng.chance(30) {
            let kind = if rng.chance(50) { "podAffinity" } else { "podAntiAffinity" };
            let key = if rng.chance(50) {
                "kubernetes.io/hostname"
            } else {
                "topology.kubernetes.io/zone"
            };
            let other = ["web", "db", "cache"][rng.below(3) as usize];
            if rng.chance(50) {
                writeln!(s, "  affinity:\n    {kind}:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - topologyKey: {key}\n        labelSelector:\n          matchLabels:\n            app: {other}").unwrap();
            } else {
                writeln!(s, "  affinity:\n    {kind}:\n      preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: {}\n        podAffinityTerm:\n          topologyKey: {key}\n          labelSelector:\n            matchLabels:\n              app: {other}", 1 + rng.below(100)).unwrap();
            }
        }
        if rng.chance(25) {
            let when = if rng.chance(50) { "DoNotSchedule" } else { "ScheduleAnyway" };
            writeln!(s, "  topologySpreadConstraints:\n  - maxSkew: {}\n    topologyKey: topology.kubernetes.io/zone\n    whenUnsatisfiable: {when}\n    labelSelector:\n      matchLabels:\n        app: {app}", 1 + rng.below(2)).unwrap();
            if when == "DoNotSchedule" && rng.chance(30) {
                writeln!(s, "    minDomains: {}", 1 + rng.below(4)).unwrap();
            }
        }
        writeln!(s, "  containers:\n  - name: c\n    image: registry.example.com/{app}:1").unwrap();
        if rng.chance(15) {
            writeln!(s, "    ports:\n    - containerPort: 80\n      hostPort: {}", 8080 + rng.below(2)).unwrap();
        }
        writeln!(
            s,
            "    resources:\n      requests:\n        cpu: {}m\n        memory: {}Mi\n---",
            100 + rng.below(3000),
            64 + rng.below(4096)
        )
        .unwrap();
    }
    if rng.chance(30) {
        writeln!(s, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: pdb\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: db").unwrap();
    }
    s
}

fn check(text: &str, seed: u64) -> Result<(), String> {
    let Ok(sc) = load_v1_34(text, "random.yaml") else { return Ok(()) };
    let prebound: Vec<bool> = sc.pods.iter().map(|p| p.spec.node_name.is_some()).collect();
    let mut e = Engine::new(sc.clone(), EngineOptions { seed, detail: Detail::All });
    e.run();
    // Determinism.
    let mut again = Engine::new(sc.clone(), EngineOptions { seed, detail: Detail::All });
    again.run();
    let (a, b) = (
        serde_json::to_string(e.trace()).unwrap(),
        serde_json::to_string(again.trace()).unwrap(),
    );
    if a != b {
        return Err("two runs with the same seed differ".into());
    }
    let mut cpu: BTreeMap<String, i64> = BTreeMap::new();
    let mut ports: BTreeMap<(String, i32), usize> = BTreeMap::new();
    for p in e.pods() {
        if p.phase != Phase::Running {
            continue;
        }
        let node = p.node.clone().ok_or("running pod without node")?;
        *cpu.entry(node.clone()).or_default() += p.info.resource.resource.milli_cpu;
    }
    for (i, p) in e.pods().iter().enumerate() {
        if p.phase != Phase::Running || prebound[i] {
            continue;
        }
        let node = p.node.clone().unwrap();
        let n = e.snapshot().get(&node).ok_or("bound to an unknown node")?;
        if cpu[&node] > n.allocatable.milli_cpu
            && e.pods()
                .iter()
                .enumerate()
                .all(|(j, q)| !(prebound[j] && q.node.as_deref() == Some(node.as_str())))
        {
            return Err(format!("{} overcommits cpu on {node}", p.info.key));
        }
        for t in n.taints() {
            if t.effect == "NoSchedule" && p.info.pod.spec.tolerations.is_empty() {
                return Err(format!("{} placed on {node} despite taint {}", p.info.key, t.key));
            }
        }
        for (k, v) in &p.info.pod.spec.node_selector {
            if n.labels().get(k) != Some(v) {
                return Err(format!("{} placed on {node} without {k}={v}", p.info.key));
            }
        }
        for hp in &p.info.host_ports {
            let c = ports.entry((node.clone(), hp.port)).or_default();
            *c += 1;
            if *c > 1 {
                return Err(format!("host port {} used twice on {node}", hp.port));
            }
        }
    }
    Ok(())
}

#[wasm_bindgen_test(unsupported = test)]
fn random_scenarios_respect_hard_rules() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut loaded = 0;
    for i in 0..250 {
        let text = scenario(&mut rng);
        match load_v1_34(&text, "random.yaml") {
            Ok(_) => loaded += 1,
            Err(e) if std::env::var_os("SHOW_ERRORS").is_some() => eprintln!("{e}"),
            Err(_) => {}
        }
        if let Err(e) = check(&text, i) {
            panic!("scenario {i}: {e}\n{text}");
        }
    }
    assert!(loaded > 200, "the generator should produce valid scenarios ({loaded}/250 loaded)");
}
