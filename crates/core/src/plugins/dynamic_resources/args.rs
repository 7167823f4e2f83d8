//! DynamicResourcesArgs: the v1 kind, its defaults and validation, and the args the plugin
//! runs with.

use crate::apimachinery::golang::Dur;
use crate::apimachinery::golang::{json_quote, GoDuration, SECOND};
use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{ArgsCodec, V1Kind};
use crate::framework::config_error::invalid;
use crate::framework::config_error::ConfigError;
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1DynamicResourcesArgs>("DynamicResourcesArgs");

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DynamicResourcesArgs {
    /// Filter timeout in seconds (DRASchedulerFilterTimeout is on by default: 10 s); `None`
    /// or zero means no timeout.
    pub filter_timeout_seconds: Option<f64>,
}

impl Default for DynamicResourcesArgs {
    fn default() -> Self {
        DynamicResourcesArgs {
            filter_timeout_seconds: Some(10.0),
        }
    }
}

impl Args for DynamicResourcesArgs {
    const PLUGIN: PluginName = PluginName::DynamicResources;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1DynamicResourcesArgs {
    pub filter_timeout: Option<Dur>,
}

impl V1Kind for V1DynamicResourcesArgs {
    type Internal = DynamicResourcesArgs;

    fn set_defaults(&mut self) {
        // DRASchedulerFilterTimeout is on by default in v1.34.
        if self.filter_timeout.is_none() {
            self.filter_timeout = Some(Dur(GoDuration::from_secs(10)));
        }
    }

    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        // DRASchedulerFilterTimeout is on by default in v1.34.
        match self.filter_timeout {
            Some(d) if d.0 .0 < 0 => vec![invalid(
                &path.child("filterTimeout"),
                &json_quote(&d.0.to_string()),
                "must be zero or positive",
            )],
            _ => vec![],
        }
    }

    fn convert(&self) -> Result<DynamicResourcesArgs, Vec<ConfigError>> {
        Ok(DynamicResourcesArgs {
            filter_timeout_seconds: self.filter_timeout.map(|d| d.0.as_secs_f64()),
        })
    }

    fn print(a: &DynamicResourcesArgs, m: &mut Map<String, Value>) {
        let t = a
            .filter_timeout_seconds
            .map(|s| GoDuration((s * SECOND as f64).round() as i64).to_string());
        m.insert("filterTimeout".into(), json!(t));
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
            "DynamicResources filterTimeout",
            "filterTimeout: -1s",
            &["filterTimeout: Invalid value: \"-1s\": must be zero or positive"],
        )];
        for (what, args, want) in cases {
            assert_eq!(args_errors(PluginName::DynamicResources, args), *want, "{what}");
        }
    }
}
