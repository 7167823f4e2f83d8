//! NodeResourcesFitArgs: the v1 kind, its defaults and validation, and the args the plugin
//! runs with. Unlike the other kinds, these are not validated with the configuration
//! (upstream registers the validator under the kind's name, not the plugin's, so it never
//! runs there): the plugin validates them when it is built, with paths relative to the args.

use crate::apimachinery::golang::{go_quote, json_quote};
use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{
    default_resource_spec, default_resources, nd, resource_specs, resources_json, shape_json, shape_points, ArgsCodec, ResourceSpec,
    UtilizationShapePoint, V1Kind, V1ResourceSpec, V1Shape,
};
use crate::framework::config_error::ConfigError;
use crate::framework::config_error::{invalid, label_name, not_supported, required};
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1FitArgs>("NodeResourcesFitArgs");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ScoringStrategyType {
    LeastAllocated,
    MostAllocated,
    RequestedToCapacityRatio,
}

impl ScoringStrategyType {
    pub fn as_str(self) -> &'static str {
        match self {
            ScoringStrategyType::LeastAllocated => "LeastAllocated",
            ScoringStrategyType::MostAllocated => "MostAllocated",
            ScoringStrategyType::RequestedToCapacityRatio => "RequestedToCapacityRatio",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoringStrategy {
    #[serde(rename = "type")]
    pub kind: ScoringStrategyType,
    pub resources: Vec<ResourceSpec>,
    /// Only for RequestedToCapacityRatio.
    pub shape: Vec<UtilizationShapePoint>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeResourcesFitArgs {
    pub ignored_resources: Vec<String>,
    pub ignored_resource_groups: Vec<String>,
    pub scoring_strategy: ScoringStrategy,
}

impl Default for NodeResourcesFitArgs {
    fn default() -> Self {
        NodeResourcesFitArgs {
            ignored_resources: vec![],
            ignored_resource_groups: vec![],
            scoring_strategy: ScoringStrategy {
                kind: ScoringStrategyType::LeastAllocated,
                resources: default_resource_spec(),
                shape: vec![],
            },
        }
    }
}

impl Args for NodeResourcesFitArgs {
    const PLUGIN: PluginName = PluginName::NodeResourcesFit;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1FitArgs {
    #[serde(default, deserialize_with = "nd")]
    pub ignored_resources: Vec<String>,
    #[serde(default, deserialize_with = "nd")]
    pub ignored_resource_groups: Vec<String>,
    pub scoring_strategy: Option<V1ScoringStrategy>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1ScoringStrategy {
    #[serde(rename = "type", default, deserialize_with = "nd")]
    pub kind: String,
    #[serde(default, deserialize_with = "nd")]
    pub resources: Vec<V1ResourceSpec>,
    pub requested_to_capacity_ratio: Option<V1Rtcr>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Rtcr {
    #[serde(default, deserialize_with = "nd")]
    pub shape: Vec<V1Shape>,
}

const STRATEGIES: &[&str] = &["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"];

/// The field errors of NodeResourcesFitArgs at `path`.
pub(crate) fn validate_fit_args(path: &FieldPath, a: &V1FitArgs) -> Vec<ConfigError> {
    let mut errs = Vec::new();
    let rp = path.child("ignoredResources");
    for (i, r) in a.ignored_resources.iter().enumerate() {
        errs.extend(label_name(&rp.index(i), r));
    }
    let gp = path.child("ignoredResourceGroups");
    for (i, g) in a.ignored_resource_groups.iter().enumerate() {
        let p = gp.index(i);
        if g.contains('/') {
            errs.push(invalid(&p, &go_quote(g), "resource group name can't contain '/'"));
        }
        errs.extend(label_name(&p, g));
    }
    let sp = path.child("scoringStrategy");
    if let Some(s) = &a.scoring_strategy {
        if !STRATEGIES.contains(&s.kind.as_str()) {
            errs.push(not_supported(&sp.child("type"), &json_quote(&s.kind), STRATEGIES));
        }
        resources(&s.resources, &sp.child("resources"), &mut errs);
        if let Some(r) = &s.requested_to_capacity_ratio {
            function_shape(&r.shape, &sp.child("shape"), &mut errs);
        }
    }
    errs
}

fn function_shape(shape: &[V1Shape], path: &FieldPath, errs: &mut Vec<ConfigError>) {
    if shape.is_empty() {
        errs.push(required(path, "at least one point must be specified"));
        return;
    }
    for i in 1..shape.len() {
        if shape[i - 1].utilization >= shape[i].utilization {
            errs.push(invalid(
                &path.index(i).child("utilization"),
                &shape[i].utilization.to_string(),
                "values must be sorted in increasing order",
            ));
            break;
        }
    }
    for (i, p) in shape.iter().enumerate() {
        if !(0..=100).contains(&p.utilization) {
            errs.push(invalid(
                &path.index(i).child("utilization"),
                &p.utilization.to_string(),
                "not in valid range [0, 100]",
            ));
        }
        if !(0..=10).contains(&p.score) {
            errs.push(invalid(
                &path.index(i).child("score"),
                &p.score.to_string(),
                "not in valid range [0, 10]",
            ));
        }
    }
}

fn resources(resources: &[V1ResourceSpec], path: &FieldPath, errs: &mut Vec<ConfigError>) {
    for (i, r) in resources.iter().enumerate() {
        if r.weight <= 0 || r.weight > 100 {
            errs.push(invalid(
                &path.index(i).child("weight"),
                &r.weight.to_string(),
                &format!("resource weight of {} not in valid range (0, 100]", r.name),
            ));
        }
    }
}

impl V1Kind for V1FitArgs {
    type Internal = NodeResourcesFitArgs;

    fn set_defaults(&mut self) {
        let s = self.scoring_strategy.get_or_insert_with(|| V1ScoringStrategy {
            kind: "LeastAllocated".into(),
            resources: vec![],
            requested_to_capacity_ratio: None,
        });
        default_resources(&mut s.resources);
    }

    /// Nothing with the configuration: see the module's comment.
    fn validate(&self, _path: &FieldPath) -> Vec<ConfigError> {
        vec![]
    }

    /// The plugin's construction (`NewFit`): validation with no path prefix, then the args.
    /// kube-scheduler dereferences a missing `requestedToCapacityRatio` for the
    /// RequestedToCapacityRatio strategy and crashes; that is reported as an error here.
    fn convert(&self) -> Result<NodeResourcesFitArgs, Vec<ConfigError>> {
        let errs = validate_fit_args(&FieldPath::root(), self);
        if !errs.is_empty() {
            return Err(errs);
        }
        let unusable = |path: FieldPath, detail: String| vec![ConfigError::Unusable { path, detail }];
        let sp = FieldPath::new("scoringStrategy");
        let Some(s) = &self.scoring_strategy else {
            return Err(unusable(sp, "scoring strategy not specified".into()));
        };
        let kind = match s.kind.as_str() {
            "LeastAllocated" => ScoringStrategyType::LeastAllocated,
            "MostAllocated" => ScoringStrategyType::MostAllocated,
            "RequestedToCapacityRatio" => ScoringStrategyType::RequestedToCapacityRatio,
            other => return Err(unusable(sp.child("type"), format!("scoring strategy {other} is not supported"))),
        };
        if kind == ScoringStrategyType::RequestedToCapacityRatio && s.requested_to_capacity_ratio.is_none() {
            return Err(unusable(sp, "runtime error: invalid memory address or nil pointer dereference (scoringStrategy.requestedToCapacityRatio is required for the RequestedToCapacityRatio strategy)".into()));
        }
        Ok(NodeResourcesFitArgs {
            ignored_resources: self.ignored_resources.clone(),
            ignored_resource_groups: self.ignored_resource_groups.clone(),
            scoring_strategy: ScoringStrategy {
                kind,
                resources: resource_specs(&s.resources),
                shape: s
                    .requested_to_capacity_ratio
                    .as_ref()
                    .map(|r| shape_points(&r.shape))
                    .unwrap_or_default(),
            },
        })
    }

    fn print(a: &NodeResourcesFitArgs, m: &mut Map<String, Value>) {
        if !a.ignored_resources.is_empty() {
            m.insert("ignoredResources".into(), json!(a.ignored_resources));
        }
        if !a.ignored_resource_groups.is_empty() {
            m.insert("ignoredResourceGroups".into(), json!(a.ignored_resource_groups));
        }
        let s = &a.scoring_strategy;
        let mut sm = Map::new();
        sm.insert("type".into(), json!(s.kind.as_str()));
        if !s.resources.is_empty() {
            sm.insert("resources".into(), resources_json(&s.resources));
        }
        if !s.shape.is_empty() {
            sm.insert("requestedToCapacityRatio".into(), json!({"shape": shape_json(&s.shape)}));
        }
        m.insert("scoringStrategy".into(), Value::Object(sm));
    }
}

#[cfg(test)]
mod tests {
    use crate::framework::args_codec::testing::{decode_errors, init_errors};
    use crate::vocabulary::PluginName;

    /// The args are checked when the plugin is built (one aggregated error), and only then.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn validated_when_the_plugin_is_built() {
        let cases: &[(&str, &str, &str)] = &[
        (
            "NodeResourcesFit validates its own args (no field path prefix)",
            "scoringStrategy:\n  type: MostAllocated\n  resources:\n  - name: cpu\n    weight: 101",
            "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]",
        ),
        (
            "several NodeResourcesFit errors aggregate",
            "ignoredResourceGroups: [a/b]\nscoringStrategy:\n  type: Fancy\n  requestedToCapacityRatio:\n    shape:\n    - utilization: 50\n      score: 11\n    - utilization: 40\n      score: 0",
            "[ignoredResourceGroups[0]: Invalid value: \"a/b\": resource group name can't contain '/', scoringStrategy.type: Unsupported value: \"Fancy\": supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\", scoringStrategy.shape[1].utilization: Invalid value: 40: values must be sorted in increasing order, scoringStrategy.shape[0].score: Invalid value: 11: not in valid range [0, 10]]",
        ),
        (
            "an empty shape",
            "scoringStrategy:\n  type: RequestedToCapacityRatio\n  resources:\n  - name: cpu\n    weight: 1\n  - name: memory\n    weight: 1\n  requestedToCapacityRatio:\n    shape: []",
            "scoringStrategy.shape: Required value: at least one point must be specified",
        ),
        ];
        for (what, args, want) in cases {
            assert_eq!(init_errors(PluginName::NodeResourcesFit, args), [want.to_string()], "{what}");
        }
        assert!(decode_errors("profiles:\n- plugins:\n    multiPoint:\n      disabled:\n      - name: NodeResourcesFit\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: Fancy\n").is_empty());
    }
}
