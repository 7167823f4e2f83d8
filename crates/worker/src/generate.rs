//! Synthetic clusters for trying the playground at scale: `nodes` nodes of 4–16 cpu spread over
//! `zones` zones and `pods` pending pods of assorted sizes (about two thirds of the cpu for
//! 2 pods per node), as compact (flow-style) YAML. Sizes come
//! from a small deterministic generator, so a spec always gives the same text.

use schedlab_core::rng::Rng;
use schedlab_view::protocol::{clamp, GenSpec};
use std::fmt::Write;

/// Sizes drawn from core's generator (`schedlab_core::rng::Rng`, SplitMix64), started at
/// `seed` itself.
struct Mix(Rng);

impl Mix {
    fn new(seed: u64) -> Mix {
        // `Rng::new` mixes its seed with this constant; undone, the stream starts at `seed`.
        Mix(Rng::new(seed ^ 0x9E37_79B9_7F4A_7C15))
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[(self.0.next_u64() % v.len() as u64) as usize]
    }
}

fn zone_name(z: u32) -> String {
    format!("zone-{}", (b'a' + z as u8) as char)
}

/// The YAML of a generated scenario, split into (nodes, pods).
pub fn generate(spec: &GenSpec) -> (String, String) {
    let spec = clamp(spec);
    let mut rng = Mix::new(0x5eed ^ ((spec.nodes as u64) << 32) ^ spec.pods as u64);
    let width = spec.nodes.max(spec.pods).to_string().len().max(4);
    let mut nodes = String::with_capacity(spec.nodes as usize * 200);
    for i in 0..spec.nodes {
        let name = format!("node-{:0width$}", i + 1);
        let zone = zone_name(i % spec.zones);
        let (cpu, mem) = rng.pick(&[(4, 16), (8, 32), (8, 32), (16, 64)]);
        if i > 0 {
            nodes.push_str("---\n");
        }
        let _ = writeln!(
            nodes,
            "apiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}, topology.kubernetes.io/zone: {zone}}}}}\nstatus: {{capacity: {{cpu: '{cpu}', memory: {mem}Gi, pods: '110'}}}}"
        );
    }
    let mut pods = String::with_capacity(spec.pods as usize * 220);
    for i in 0..spec.pods {
        let name = format!("pod-{:0width$}", i + 1);
        let app = i % 50;
        let cpu = rng.pick(&["250m", "500m", "1", "2", "2", "3", "4", "6"]);
        let mem = rng.pick(&["512Mi", "1Gi", "2Gi", "4Gi", "6Gi", "8Gi"]);
        if i > 0 {
            pods.push_str("---\n");
        }
        let _ = writeln!(
            pods,
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, labels: {{app: app-{app}}}}}\nspec: {{containers: [{{name: c, image: 'registry.example.com/app-{app}:1', resources: {{requests: {{cpu: '{cpu}', memory: {mem}}}}}}}]}}"
        );
    }
    (nodes, pods)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_scenarios_load() {
        let spec = GenSpec {
            nodes: 30,
            pods: 60,
            zones: 3,
        };
        let (n, p) = generate(&spec);
        let sc = schedlab_core::load_str(&format!("{n}---\n{p}"), "gen.yaml").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((sc.nodes.len(), sc.pods.len()), (30, 60));
        assert_eq!(generate(&spec), (n, p), "deterministic");
    }

    /// The sizes of a small spec, as the generator drew them before it used core's `Rng`
    /// (SplitMix64 from the seed itself): the same spec still gives the same text.
    #[test]
    fn sizes_are_the_stream_of_the_seed() {
        let (n, p) = generate(&GenSpec {
            nodes: 4,
            pods: 4,
            zones: 2,
        });
        let cpus: Vec<&str> = n.lines().filter_map(|l| l.split("cpu: '").nth(1)?.split('\'').next()).collect();
        assert_eq!(cpus, ["16", "8", "16", "16"]);
        let sizes: Vec<&str> = p.lines().filter_map(|l| l.split("requests: ").nth(1)).collect();
        assert_eq!(
            sizes,
            [
                "{cpu: '250m', memory: 2Gi}}}]}",
                "{cpu: '500m', memory: 1Gi}}}]}",
                "{cpu: '2', memory: 1Gi}}}]}",
                "{cpu: '250m', memory: 2Gi}}}]}"
            ]
        );
    }
}
