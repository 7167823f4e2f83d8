//! Synthetic clusters for trying the playground at scale: `nodes` nodes of 4–16 cpu spread over
//! `zones` zones and `pods` pending pods of assorted sizes (about two thirds of the cpu for
//! 2 pods per node), as compact (flow-style) YAML. Sizes come
//! from a small deterministic generator, so a spec always gives the same text.

use schedlab_view::protocol::{clamp, GenSpec};
use std::fmt::Write;

/// SplitMix64: a few lines, good enough to vary sizes.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[(self.next() % v.len() as u64) as usize]
    }
}

fn zone_name(z: u32) -> String {
    format!("zone-{}", (b'a' + z as u8) as char)
}

/// The YAML of a generated scenario, split into (nodes, pods).
pub fn generate(spec: &GenSpec) -> (String, String) {
    let spec = clamp(spec);
    let mut rng = Mix(0x5eed ^ ((spec.nodes as u64) << 32) ^ spec.pods as u64);
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
}
