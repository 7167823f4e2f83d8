//! `schedlab bench`: schedules a synthetic conformance-style cluster and reports throughput and
//! peak memory. N nodes of 32 cpu / 128Gi / 110 pods spread over 3 zones, M pending pods of
//! 100m / 256Mi, the default profile.
//!
//! Then the growth table: 1k, 5k and 20k nodes with 2 pods per node, the time per pod beside
//! the nodes each pod is filtered and scored on (the adaptive percentageOfNodesToScore), with
//! the target that the first grows no faster than the second (`--no-growth` skips it).
//!
//! `schedlab bench --scenario FILE` instead does natively exactly what the playground's worker
//! does with a scenario text: load it, run it into a `view::Session` and serialize its summary
//! (the figures `scripts/bench-web.sh` sets beside the worker's).

use schedlab_core::api::{Container, Node, ObjectMeta, Pod, ResourceRequirements};
use schedlab_core::load::Scenario;
use schedlab_core::quantity::Quantity;
use schedlab_core::trace::Detail;
use schedlab_core::{Engine, EngineOptions};
use std::process::ExitCode;
use std::time::Instant;

/// A resource list from (name, quantity) pairs.
fn resources(kv: &[(&str, &str)]) -> schedlab_core::api::ResourceList {
    kv.iter()
        .map(|(k, v)| (k.to_string(), Quantity::parse(v).expect("valid quantity")))
        .collect()
}

/// The synthetic scenario (already defaulted, as the loader would leave it).
pub fn synthetic(nodes: usize, pods: usize, features: &schedlab_core::version::Features) -> Scenario {
    let mut sc = Scenario {
        config: schedlab_core::config::SchedulerConfig::defaults(features),
        ..Scenario::default()
    };
    let zones = ["zone-a", "zone-b", "zone-c"];
    sc.nodes.reserve_exact(nodes);
    sc.pods.reserve_exact(pods);
    sc.pod_docs.reserve_exact(pods);
    for i in 0..nodes {
        let name = format!("node-{i:05}");
        let mut n = Node {
            api_version: "v1".into(),
            kind: "Node".into(),
            ..Default::default()
        };
        n.metadata = ObjectMeta {
            name: name.clone(),
            uid: Some(format!("uid-node--{name}")),
            ..Default::default()
        };
        n.metadata.labels.insert("kubernetes.io/hostname".into(), name.clone());
        n.metadata.labels.insert("topology.kubernetes.io/zone".into(), zones[i % 3].into());
        let cap = resources(&[("cpu", "32"), ("memory", "128Gi"), ("pods", "110"), ("ephemeral-storage", "500Gi")]);
        n.status.capacity = cap.clone();
        n.status.allocatable = cap;
        sc.nodes.push(std::sync::Arc::new(n));
    }
    for i in 0..pods {
        let name = format!("pod-{i:05}");
        let mut p = Pod {
            api_version: "v1".into(),
            kind: "Pod".into(),
            ..Default::default()
        };
        p.metadata = ObjectMeta {
            name: name.clone(),
            namespace: Some("default".into()),
            uid: Some(format!("uid-pod-default-{name}")),
            ..Default::default()
        };
        p.metadata.labels.insert("app".into(), "bench".into());
        p.spec.scheduler_name = Some("default-scheduler".into());
        p.spec.priority = Some(0);
        p.spec.preemption_policy = Some("PreemptLowerPriority".into());
        let requests = resources(&[("cpu", "100m"), ("memory", "256Mi")]);
        // One container in a vector of its size, as the loader leaves it (a `push` would
        // reserve room for four: 1.2 KB more per pod).
        p.spec.containers = vec![Container {
            name: "app".into(),
            image: Some("registry.example.com/app:1.0".into()),
            resources: ResourceRequirements {
                requests,
                ..Default::default()
            },
            ..Default::default()
        }];
        sc.pods.push(std::sync::Arc::new(p));
        sc.pod_docs.push(nodes + i);
    }
    sc.documents = nodes + pods;
    for n in ["default", "kube-system", "kube-public", "kube-node-lease"] {
        let mut ns = schedlab_core::api::Namespace::default();
        ns.metadata.name = n.into();
        ns.metadata.labels.insert("kubernetes.io/metadata.name".into(), n.into());
        sc.cluster.namespaces.insert(n.into(), ns);
    }
    sc
}

/// CPU time (user + system) this process has used, in seconds (Linux), if known. Unlike wall
/// time it is not inflated when other processes compete for the core.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Peak resident memory of this process in bytes (Linux), if known.
fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The worker's work on one scenario file, timed phase by phase.
fn scenario(file: &str, seed: u64, features: &schedlab_core::version::Features) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t0 = Instant::now();
    let cpu0 = cpu_seconds();
    let sc = match schedlab_core::load::load_str_for(&text, file, features) {
        Ok(sc) => sc,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let (nodes, pods) = (sc.nodes.len(), sc.pods.len());
    let load = t0.elapsed();
    let t1 = Instant::now();
    let opts = schedlab_core::view::SessionOptions { seed, controllers: false };
    let (session, spent) = schedlab_core::view::Session::with_options_spent(sc, opts, &mut |_| {});
    let run = t1.elapsed();
    let t2 = Instant::now();
    let summary = session.summary();
    let bytes = serde_json::to_vec(&summary).map(|b| b.len()).unwrap_or(0);
    let ser = t2.elapsed();
    // The worker frees the run's engine state after it has answered: timed apart.
    let t3 = Instant::now();
    drop(spent);
    let freed = t3.elapsed();
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    outln!("scenario: {file} ({} bytes)", text.len());
    outln!("kubernetes version: {}", features.version());
    outln!("nodes: {nodes}");
    outln!("pods: {pods}");
    outln!("scheduled: {}", summary.bound);
    outln!("cycles: {}", summary.cycle_pod.len());
    outln!("load: {:.3} s", load.as_secs_f64());
    let rate = text.len() as f64 / load.as_secs_f64().max(1e-9) / 1e6;
    outln!("reading: {rate:.1} MB/s (target: 60 MB/s)");
    outln!("scheduling: {:.3} s", run.as_secs_f64());
    outln!("summary: {:.3} s ({bytes} bytes of JSON)", ser.as_secs_f64());
    outln!("freeing the engine's state, after the answer: {:.3} s", freed.as_secs_f64());
    if let Some(c) = cpu.filter(|c| *c > 0.0) {
        outln!("cpu time: {c:.2} s");
    }
    ExitCode::SUCCESS
}

/// `schedlab bench [--nodes N] [--pods M] [--seed N]`, or `--scenario FILE`.
#[derive(clap::Args)]
pub struct Args {
    /// Nodes of the synthetic cluster (32 cpu / 128Gi / 110 pods, over 3 zones)
    #[arg(long, default_value_t = 5000, conflicts_with = "scenario")]
    nodes: usize,
    /// Pending pods of the synthetic cluster (100m / 256Mi each)
    #[arg(long, default_value_t = 10000, conflicts_with = "scenario")]
    pods: usize,
    /// The seed of the tie-break RNG
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Instead, do natively what the playground's worker does with FILE, and time each phase
    #[arg(long, value_name = "FILE")]
    scenario: Option<String>,
    /// Skip the growth table (1k/5k/20k nodes x 2 pods per node)
    #[arg(long)]
    no_growth: bool,
    #[command(flatten)]
    version: crate::VersionArgs,
}

pub fn main(a: Args) -> ExitCode {
    let (nodes, pods, seed) = (a.nodes, a.pods, a.seed);
    let features = match a.version.features() {
        Ok(f) => f,
        Err(c) => return c,
    };
    if let Some(file) = &a.scenario {
        return scenario(file, seed, &features);
    }
    let r = synthetic_run(nodes, pods, seed, &features);
    let secs = r.secs;
    let rate = if secs > 0.0 { r.bound as f64 / secs } else { f64::INFINITY };
    let peak = peak_rss_bytes();
    outln!("kubernetes version: {}", features.version());
    outln!("nodes: {nodes}");
    outln!("pods: {pods}");
    outln!("scheduled: {}", r.bound);
    outln!("cycles: {}", r.cycles);
    outln!("trace events: {}", r.events);
    outln!("setup: {:.3} s", r.setup);
    outln!("scheduling: {secs:.3} s");
    outln!("throughput: {rate:.0} pods/s (target: 40000 pods/s at 5000 x 10000)");
    if let Some(c) = r.cpu {
        outln!("cpu time: {c:.2} s ({:.0} pods per cpu-second)", r.bound as f64 / c);
    }
    match peak {
        Some(b) => outln!("peak memory: {:.1} MB (target: 100 MB at 5000 x 10000)", b as f64 / 1e6),
        None => outln!("peak memory: unknown"),
    }
    if r.bound != pods {
        eprintln!("warning: {} pods were not scheduled", pods - r.bound);
    }
    if !a.no_growth {
        growth(seed, &features);
    }
    ExitCode::SUCCESS
}

/// One run of the synthetic cluster, timed.
struct Run {
    setup: f64,
    secs: f64,
    /// CPU seconds of the scheduling, when known and above zero.
    cpu: Option<f64>,
    bound: usize,
    cycles: u32,
    events: usize,
}

fn synthetic_run(nodes: usize, pods: usize, seed: u64, features: &schedlab_core::version::Features) -> Run {
    let t0 = Instant::now();
    let sc = synthetic(nodes, pods, features);
    let mut engine = Engine::new(
        sc,
        EngineOptions {
            seed,
            detail: Detail::None,
        },
    );
    let setup = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let cpu0 = cpu_seconds();
    let cycles = engine.run();
    let secs = t1.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a).filter(|c| *c > 0.0);
    Run {
        setup,
        secs,
        cpu,
        bound: engine.pods().iter().filter(|p| p.node.is_some()).count(),
        cycles,
        events: engine.trace().events.len(),
    }
}

/// The growth table: how the time per pod grows with the cluster, beside how the nodes each pod
/// is filtered and scored on grow (the default profile's adaptive percentage).
fn growth(seed: u64, features: &schedlab_core::version::Features) {
    outln!();
    outln!("growth (2 pods per node, default profile; time per pod in cpu time where known):");
    outln!("{:>7} {:>7} {:>12} {:>12} {:>14} {:>12} {:>10}", "nodes", "pods", "scheduling", "us per pod", "nodes scored", "ns per node", "growth");
    let mut first: Option<(f64, usize)> = None;
    for nodes in [1000, 5000, 20000] {
        let pods = 2 * nodes;
        // A small row is run again until it has taken half a second: CPU time is counted in
        // 10 ms ticks (/proc/self/stat), a tenth of a 1000-node run's.
        let (mut secs, mut time, mut runs) = (0.0, 0.0, 0u32);
        while runs == 0 || time < 0.5 {
            let r = synthetic_run(nodes, pods, seed, features);
            secs += r.secs;
            time += r.cpu.unwrap_or(r.secs);
            runs += 1;
        }
        let per_pod = time / runs as f64 / pods as f64;
        let scored = schedlab_core::engine::nodes_to_find(0, nodes);
        let (p0, s0) = *first.get_or_insert((per_pod, scored));
        outln!(
            "{nodes:>7} {pods:>7} {:>10.3} s {:>12.1} {scored:>14} {:>12.0} {:>4.2}x/{:.2}x",
            secs / runs as f64,
            per_pod * 1e6,
            per_pod * 1e9 / scored as f64,
            per_pod / p0,
            scored as f64 / s0 as f64,
        );
    }
    outln!("growth: time per pod / nodes scored per pod, against 1000 nodes");
    outln!("target: time per pod grows no faster than the nodes scored per pod");
}
