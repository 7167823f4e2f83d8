//! ImageLocality: favours nodes that already hold the pod's container images, weighting each
//! image's size by the share of nodes that have it (so images present everywhere count less).

use crate::api::Container;
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, ImageStateSummary, NodeInfo, Plugin, PodInfo, Status, MAX_NODE_SCORE};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use std::borrow::Cow;

const MB: i64 = 1024 * 1024;
/// Below this total the score is 0.
const MIN_THRESHOLD: i64 = 23 * MB;
/// Per container: at or above this the score is 100.
const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;

/// Adds the `:latest` tag when the image reference has none (a `:` after the last `/`).
/// Node-reported names are not normalized; only the pod's references are.
pub fn normalized_image_name(name: &str) -> Cow<'_, str> {
    match normalized_image_name_kind(name) {
        NameKind::Untagged => Cow::Owned(format!("{name}:latest")),
        NameKind::Tagged => Cow::Borrowed(name),
    }
}

/// An image's size scaled by the fraction of all nodes holding it, truncated as Go's int64().
fn scaled_image_score(state: &ImageStateSummary, total_nodes: usize) -> i64 {
    let spread = state.num_nodes as f64 / total_nodes as f64;
    (state.size as f64 * spread) as i64
}

/// Looks an image reference up among the node's images after normalizing it, without a heap
/// allocation for ordinary-length names (this runs for every node).
fn lookup<'a>(node: &'a NodeInfo, image: &str) -> Option<&'a ImageStateSummary> {
    const SUFFIX: &str = ":latest";
    if !node.has_images {
        return None;
    }
    let needs_tag = matches!(normalized_image_name_kind(image), NameKind::Untagged);
    if !needs_tag {
        return node.image_states.get(image);
    }
    let mut buf = [0u8; 256];
    let len = image.len() + SUFFIX.len();
    if len > buf.len() {
        return node.image_states.get(normalized_image_name(image).as_ref());
    }
    buf[..image.len()].copy_from_slice(image.as_bytes());
    buf[image.len()..len].copy_from_slice(SUFFIX.as_bytes());
    let key = std::str::from_utf8(&buf[..len]).expect("concatenation of two str is UTF-8");
    node.image_states.get(key)
}

enum NameKind {
    Tagged,
    Untagged,
}

fn normalized_image_name_kind(name: &str) -> NameKind {
    let colon = name.rfind(':').map_or(-1, |i| i as isize);
    let slash = name.rfind('/').map_or(-1, |i| i as isize);
    if colon <= slash {
        NameKind::Untagged
    } else {
        NameKind::Tagged
    }
}

fn sum_image_scores<'c>(node: &NodeInfo, containers: impl Iterator<Item = &'c Container>, total_nodes: usize) -> i64 {
    let mut sum = 0;
    for c in containers {
        if let Some(state) = lookup(node, c.image.as_deref().unwrap_or("")) {
            sum += scaled_image_score(state, total_nodes);
        }
    }
    sum
}

/// Maps the summed image score onto 0..=100 between the thresholds (integer arithmetic).
fn calculate_priority(sum: i64, num_containers: usize) -> i64 {
    let max_threshold = MAX_CONTAINER_THRESHOLD * num_containers as i64;
    let clamped = if sum < MIN_THRESHOLD {
        MIN_THRESHOLD
    } else if sum > max_threshold {
        max_threshold
    } else {
        sum
    };
    MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) / (max_threshold - MIN_THRESHOLD)
}

/// One container image's part of a node's score, for the playground's explanations.
#[derive(Clone, Debug)]
struct ImageView {
    /// The image as the pod names it.
    pub image: String,
    /// Its size and how many nodes have it, when the node has it.
    pub state: Option<ImageStateSummary>,
    /// size × (nodes having it / all nodes), truncated; 0 when absent.
    pub scaled: i64,
}

/// The numbers behind ImageLocality's raw score on one node.
#[derive(Clone, Debug)]
struct ImageLocalityView {
    /// Init containers first, then app containers (the order Score adds them in).
    pub images: Vec<ImageView>,
    pub total_nodes: usize,
    pub sum: i64,
    /// The thresholds the sum is clamped to: 23Mi, and 1000Mi per container.
    pub min_threshold: i64,
    pub max_threshold: i64,
    pub raw: i64,
}

/// Explains Score on `node` with the plugin's own lookups and arithmetic.
fn explain_score(cx: &Ctx, pod: &PodInfo, node: &NodeInfo) -> ImageLocalityView {
    let spec = &pod.pod.spec;
    let total_nodes = cx.snapshot.len();
    let containers = spec.init_containers.len() + spec.containers.len();
    let images: Vec<ImageView> = spec
        .init_containers
        .iter()
        .chain(&spec.containers)
        .map(|c| {
            let state = lookup(node, c.image.as_deref().unwrap_or("")).copied();
            ImageView {
                image: c.image.clone().unwrap_or_default(),
                scaled: state.map_or(0, |s| scaled_image_score(&s, total_nodes)),
                state,
            }
        })
        .collect();
    let sum = images.iter().map(|i| i.scaled).sum();
    ImageLocalityView {
        images,
        total_nodes,
        sum,
        min_threshold: MIN_THRESHOLD,
        max_threshold: MAX_CONTAINER_THRESHOLD * containers as i64,
        raw: calculate_priority(sum, containers),
    }
}

pub struct ImageLocality;

impl Plugin for ImageLocality {
    fn name(&self) -> PluginName {
        PluginName::ImageLocality
    }

    fn score(&self, cx: &Ctx, _state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        let spec = &pod.pod.spec;
        let total_nodes = cx.snapshot.len();
        // Init containers (of any kind) count as well as app containers.
        let sum = sum_image_scores(node, spec.init_containers.iter().chain(&spec.containers), total_nodes);
        Ok(calculate_priority(sum, spec.init_containers.len() + spec.containers.len()))
    }

    fn score_nodes(&self, cx: &Ctx, _state: &CycleState, pod: &PodInfo, nodes: &[&NodeInfo], out: &mut Vec<i64>) -> Result<(), Status> {
        let spec = &pod.pod.spec;
        let total_nodes = cx.snapshot.len();
        let containers = spec.init_containers.len() + spec.containers.len();
        // A node without images sums to 0: its score is the same for every such node.
        let empty = calculate_priority(0, containers);
        out.extend(nodes.iter().map(|node| {
            if !node.has_images {
                return empty;
            }
            let sum = sum_image_scores(node, spec.init_containers.iter().chain(&spec.containers), total_nodes);
            calculate_priority(sum, containers)
        }));
        Ok(())
    }
}

mod explain;

/// This plugin, for the registry (`plugins::registry`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::ImageLocality,
    points: ExtensionPoints::of(&[Ep::Score]),
    short: "Images",
    args: None,
    new: |_, _| Box::new(ImageLocality),
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn normalization() {
        let cases = [
            ("nginx", "nginx:latest"),
            ("nginx:1.25", "nginx:1.25"),
            ("registry.example.com:5000/app", "registry.example.com:5000/app:latest"),
            ("registry.example.com:5000/app:v2", "registry.example.com:5000/app:v2"),
            ("gcr.io/project/img", "gcr.io/project/img:latest"),
            ("", ":latest"),
        ];
        for (input, want) in cases {
            assert_eq!(normalized_image_name(input), want, "{input}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn calculate_priority_thresholds() {
        let cases = [
            ("below minimum", 10 * MB, 1, 0),
            ("at minimum", 23 * MB, 1, 0),
            ("above maximum", 2000 * MB, 1, 100),
            ("middle", 250 * MB, 1, 23),
            ("two containers raise the maximum", 1000 * MB, 2, 49),
        ];
        for (name, sum, n, want) in cases {
            assert_eq!(calculate_priority(sum, n), want, "{name}");
        }
    }

    fn scores(pod: MakePod, nodes: Vec<MakeNode>) -> Vec<i64> {
        let env = Env::new(nodes.into_iter().map(|n| n.obj()).collect(), vec![]);
        let pod = pod.info();
        env.snapshot
            .nodes()
            .iter()
            .map(|n| ImageLocality.score(&env.cx(), &CycleState::new(), &pod, n).unwrap())
            .collect()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn score() {
        let cases = [
            (
                "image on one of two nodes is halved",
                MakePod::new("p").image("big:1.0"),
                vec![MakeNode::new("a").image("big:1.0", 600 * MB), MakeNode::new("b")],
                // 300MB spread-scaled: 100 * (300-23) / (1000-23) = 28
                vec![28, 0],
            ),
            (
                "image everywhere is not halved",
                MakePod::new("p").image("big:1.0"),
                vec![
                    MakeNode::new("a").image("big:1.0", 600 * MB),
                    MakeNode::new("b").image("big:1.0", 600 * MB),
                ],
                vec![59, 59],
            ),
            (
                "untagged reference matches :latest",
                MakePod::new("p").image("big"),
                vec![MakeNode::new("a").image("big:latest", 2000 * MB)],
                vec![100],
            ),
            (
                "node names are used verbatim",
                MakePod::new("p").image("big:latest"),
                vec![MakeNode::new("a").image("big", 2000 * MB)],
                vec![0],
            ),
            (
                "two containers sum",
                MakePod::new("p").image("x:1").image("y:1"),
                vec![MakeNode::new("a").image("x:1", 500 * MB).image("y:1", 700 * MB)],
                // 1200MB of 2000MB max: 100 * (1200-23) / (2000-23) = 59
                vec![59],
            ),
            (
                "small images score zero",
                MakePod::new("p").image("tiny:1"),
                vec![MakeNode::new("a").image("tiny:1", 5 * MB)],
                vec![0],
            ),
        ];
        for (name, pod, nodes, want) in cases {
            assert_eq!(scores(pod, nodes), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn shared_image_summary() {
        let cases = [
            (
                "size is the one the first node reported",
                vec![
                    MakeNode::new("a").image("big:1", 600 * MB),
                    MakeNode::new("b").image("big:1", 2000 * MB),
                ],
                vec![59, 59],
            ),
            (
                "a name listed twice on one node counts once, first size",
                vec![
                    MakeNode::new("a").image("big:1", 600 * MB).image("big:1", 2000 * MB),
                    MakeNode::new("b"),
                ],
                vec![28, 0],
            ),
        ];
        for (name, nodes, want) in cases {
            assert_eq!(scores(MakePod::new("p").image("big:1"), nodes), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn init_containers_count() {
        let mut pod = MakePod::new("p").image("app:1");
        pod.pod.spec.init_containers.push(Container {
            name: "init".into(),
            image: Some("setup:1".into()),
            ..Default::default()
        });
        let nodes = vec![MakeNode::new("a").image("setup:1", 1000 * MB)];
        // 1000MB of a 2000MB maximum (two containers): 100 * 977 / 1977 = 49
        assert_eq!(scores(pod, nodes), vec![49]);
    }
}
