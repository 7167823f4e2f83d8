//! NodeResourcesBalancedAllocationArgs: the v1 kind, its defaults and validation, and the
//! args the plugin runs with.

use crate::apimachinery::golang::go_quote;
use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{
    default_resource_spec, default_resources, nd, resource_specs, resources_json, ArgsCodec, ResourceSpec, V1Kind, V1ResourceSpec,
};
use crate::framework::config_error::ConfigError;
use crate::framework::config_error::{duplicate, invalid};
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1BalancedArgs>("NodeResourcesBalancedAllocationArgs");

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeResourcesBalancedAllocationArgs {
    pub resources: Vec<ResourceSpec>,
}

impl Default for NodeResourcesBalancedAllocationArgs {
    fn default() -> Self {
        NodeResourcesBalancedAllocationArgs {
            resources: default_resource_spec(),
        }
    }
}

impl Args for NodeResourcesBalancedAllocationArgs {
    const PLUGIN: PluginName = PluginName::NodeResourcesBalancedAllocation;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1BalancedArgs {
    #[serde(default, deserialize_with = "nd")]
    pub resources: Vec<V1ResourceSpec>,
}

impl V1Kind for V1BalancedArgs {
    type Internal = NodeResourcesBalancedAllocationArgs;

    fn set_defaults(&mut self) {
        default_resources(&mut self.resources);
    }

    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        let mut errs = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        let rp = path.child("resources");
        for (i, r) in self.resources.iter().enumerate() {
            if seen.contains(&r.name.as_str()) {
                errs.push(duplicate(&rp.index(i).child("name"), &go_quote(&r.name)));
            } else {
                seen.push(&r.name);
            }
            if r.weight != 1 {
                errs.push(invalid(&rp.index(i).child("weight"), &r.weight.to_string(), "must be 1"));
            }
        }
        errs
    }

    fn convert(&self) -> Result<NodeResourcesBalancedAllocationArgs, Vec<ConfigError>> {
        Ok(NodeResourcesBalancedAllocationArgs {
            resources: resource_specs(&self.resources),
        })
    }

    fn print(a: &NodeResourcesBalancedAllocationArgs, m: &mut Map<String, Value>) {
        m.insert("resources".into(), resources_json(&a.resources));
    }
}

#[cfg(test)]
mod tests {
    use crate::framework::args_codec::testing::args_errors;
    use crate::vocabulary::PluginName;

    /// Each case's field errors, relative to the args.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn validation() {
        let cases: &[(&str, &str, &[&str])] = &[(
            "BalancedAllocation resources",
            "resources:\n- name: cpu\n  weight: 2\n- name: cpu",
            &[
                "resources[0].weight: Invalid value: 2: must be 1",
                "resources[1].name: Duplicate value: \"cpu\"",
            ],
        )];
        for (what, args, want) in cases {
            assert_eq!(args_errors(PluginName::NodeResourcesBalancedAllocation, args), *want, "{what}");
        }
    }
}
