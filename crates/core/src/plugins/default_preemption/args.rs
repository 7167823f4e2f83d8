//! DefaultPreemptionArgs: the v1 kind, its defaults and validation, and the args the plugin
//! runs with.

use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{ArgsCodec, V1Kind};
use crate::framework::config_error::invalid;
use crate::framework::config_error::ConfigError;
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1DefaultPreemptionArgs>("DefaultPreemptionArgs");

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefaultPreemptionArgs {
    pub min_candidate_nodes_percentage: i32,
    pub min_candidate_nodes_absolute: i32,
}

impl Default for DefaultPreemptionArgs {
    fn default() -> Self {
        DefaultPreemptionArgs {
            min_candidate_nodes_percentage: 10,
            min_candidate_nodes_absolute: 100,
        }
    }
}

impl Args for DefaultPreemptionArgs {
    const PLUGIN: PluginName = PluginName::DefaultPreemption;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1DefaultPreemptionArgs {
    pub min_candidate_nodes_percentage: Option<i32>,
    pub min_candidate_nodes_absolute: Option<i32>,
}

impl V1Kind for V1DefaultPreemptionArgs {
    type Internal = DefaultPreemptionArgs;

    fn set_defaults(&mut self) {
        self.min_candidate_nodes_percentage.get_or_insert(10);
        self.min_candidate_nodes_absolute.get_or_insert(100);
    }

    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        let mut errs = Vec::new();
        let pct = self.min_candidate_nodes_percentage.unwrap_or(10);
        let abs = self.min_candidate_nodes_absolute.unwrap_or(100);
        let pp = path.child("minCandidateNodesPercentage");
        let ap = path.child("minCandidateNodesAbsolute");
        if !(0..=100).contains(&pct) {
            errs.push(invalid(&pp, &pct.to_string(), "not in valid range [0, 100]"));
        }
        if abs < 0 {
            errs.push(invalid(&ap, &abs.to_string(), "not in valid range [0, inf)"));
        }
        if pct == 0 && abs == 0 {
            errs.push(invalid(&pp, "0", "cannot be zero at the same time as minCandidateNodesAbsolute"));
            errs.push(invalid(&ap, "0", "cannot be zero at the same time as minCandidateNodesPercentage"));
        }
        errs
    }

    fn convert(&self) -> Result<DefaultPreemptionArgs, Vec<ConfigError>> {
        Ok(DefaultPreemptionArgs {
            min_candidate_nodes_percentage: self.min_candidate_nodes_percentage.unwrap_or(10),
            min_candidate_nodes_absolute: self.min_candidate_nodes_absolute.unwrap_or(100),
        })
    }

    fn print(a: &DefaultPreemptionArgs, m: &mut Map<String, Value>) {
        m.insert("minCandidateNodesPercentage".into(), json!(a.min_candidate_nodes_percentage));
        m.insert("minCandidateNodesAbsolute".into(), json!(a.min_candidate_nodes_absolute));
    }
}

#[cfg(test)]
mod tests {
    use crate::framework::args_codec::testing::args_errors;
    use crate::vocabulary::PluginName;

    /// Each case's field errors, relative to the args.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn validation() {
        let cases: &[(&str, &str, &[&str])] = &[
            (
                "DefaultPreemption ranges",
                "minCandidateNodesPercentage: 101\nminCandidateNodesAbsolute: -1",
                &[
                    "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]",
                    "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)",
                ],
            ),
            (
                "DefaultPreemption both zero",
                "minCandidateNodesPercentage: 0\nminCandidateNodesAbsolute: 0",
                &[
                    "minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute",
                    "minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage",
                ],
            ),
        ];
        for (what, args, want) in cases {
            assert_eq!(args_errors(PluginName::DefaultPreemption, args), *want, "{what}");
        }
    }
}
