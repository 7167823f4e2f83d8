//! InterPodAffinityArgs: the v1 kind, its defaults and validation, and the args the plugin
//! runs with.

use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{nd, ArgsCodec, V1Kind};
use crate::framework::config_error::invalid;
use crate::framework::config_error::ConfigError;
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1InterPodAffinityArgs>("InterPodAffinityArgs");

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InterPodAffinityArgs {
    pub hard_pod_affinity_weight: i32,
    pub ignore_preferred_terms_of_existing_pods: bool,
}

impl Default for InterPodAffinityArgs {
    fn default() -> Self {
        InterPodAffinityArgs {
            hard_pod_affinity_weight: 1,
            ignore_preferred_terms_of_existing_pods: false,
        }
    }
}

impl Args for InterPodAffinityArgs {
    const PLUGIN: PluginName = PluginName::InterPodAffinity;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1InterPodAffinityArgs {
    pub hard_pod_affinity_weight: Option<i32>,
    #[serde(default, deserialize_with = "nd")]
    pub ignore_preferred_terms_of_existing_pods: bool,
}

impl V1Kind for V1InterPodAffinityArgs {
    type Internal = InterPodAffinityArgs;

    fn set_defaults(&mut self) {
        self.hard_pod_affinity_weight.get_or_insert(1);
    }

    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        let w = self.hard_pod_affinity_weight.unwrap_or(1);
        if !(0..=100).contains(&w) {
            return vec![invalid(
                &path.child("hardPodAffinityWeight"),
                &w.to_string(),
                "not in valid range [0, 100]",
            )];
        }
        vec![]
    }

    fn convert(&self) -> Result<InterPodAffinityArgs, Vec<ConfigError>> {
        Ok(InterPodAffinityArgs {
            hard_pod_affinity_weight: self.hard_pod_affinity_weight.unwrap_or(1),
            ignore_preferred_terms_of_existing_pods: self.ignore_preferred_terms_of_existing_pods,
        })
    }

    fn print(a: &InterPodAffinityArgs, m: &mut Map<String, Value>) {
        m.insert("hardPodAffinityWeight".into(), json!(a.hard_pod_affinity_weight));
        m.insert(
            "ignorePreferredTermsOfExistingPods".into(),
            json!(a.ignore_preferred_terms_of_existing_pods),
        );
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
            "InterPodAffinity weight",
            "hardPodAffinityWeight: 101",
            &["hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"],
        )];
        for (what, args, want) in cases {
            assert_eq!(args_errors(PluginName::InterPodAffinity, args), *want, "{what}");
        }
    }
}
