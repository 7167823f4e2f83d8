//! DynamicResourcesArgs: the v1 kind, its defaults and validation, and the args the plugin
//! runs with.

use crate::apimachinery::golang::Dur;
use crate::apimachinery::golang::{json_quote, GoDuration, SECOND};
use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{ArgsCodec, V1Kind};
use crate::framework::config_error::{forbidden, invalid};
use crate::framework::config_error::ConfigError;
use crate::version::{Features, Gate};
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
    /// How long PreBind may wait for device binding conditions (v1.35, with
    /// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus on: 10 minutes by default);
    /// `None` when those gates are off. No device here has binding conditions, so nothing
    /// waits: the value is kept and printed.
    pub binding_timeout: Option<GoDuration>,
}

impl Default for DynamicResourcesArgs {
    fn default() -> Self {
        DynamicResourcesArgs {
            filter_timeout_seconds: Some(10.0),
            binding_timeout: None,
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
    /// From v1.35 (`version::Release::missing_args_fields` makes it unknown before).
    pub binding_timeout: Option<Dur>,
}

/// Whether `bindingTimeout` means something: both gates it depends on are on.
fn binding_conditions(features: &Features) -> bool {
    features.enabled(Gate::DRADeviceBindingConditions) && features.enabled(Gate::DRAResourceClaimDeviceStatus)
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

    fn set_defaults_for(&mut self, features: &Features) {
        self.set_defaults();
        if self.binding_timeout.is_none() && binding_conditions(features) {
            self.binding_timeout = Some(Dur(GoDuration::from_secs(600)));
        }
    }

    fn validate_for(&self, path: &FieldPath, features: &Features) -> Vec<ConfigError> {
        let mut errs = self.validate(path);
        match self.binding_timeout {
            Some(d) if binding_conditions(features) && d.0 .0 < SECOND => errs.push(invalid(
                &path.child("bindingTimeout"),
                &json_quote(&d.0.to_string()),
                "must be at least 1 second",
            )),
            Some(_) if !binding_conditions(features) => errs.push(forbidden(
                &path.child("bindingTimeout"),
                "DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled",
            )),
            _ => {}
        }
        errs
    }

    fn convert(&self) -> Result<DynamicResourcesArgs, Vec<ConfigError>> {
        Ok(DynamicResourcesArgs {
            filter_timeout_seconds: self.filter_timeout.map(|d| d.0.as_secs_f64()),
            binding_timeout: self.binding_timeout.map(|d| d.0),
        })
    }

    fn print(a: &DynamicResourcesArgs, m: &mut Map<String, Value>) {
        let t = a
            .filter_timeout_seconds
            .map(|s| GoDuration((s * SECOND as f64).round() as i64).to_string());
        m.insert("filterTimeout".into(), json!(t));
        if let Some(b) = a.binding_timeout {
            m.insert("bindingTimeout".into(), json!(b.to_string()));
        }
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

    /// `bindingTimeout`: unknown to v1.34; from v1.35 it needs DRADeviceBindingConditions and
    /// DRAResourceClaimDeviceStatus (the first is off by default), then at least a second.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn binding_timeout_per_version_and_gates() {
        use crate::framework::args_codec::testing::{decode_errors_for, with_args};
        use crate::version::{Features, KubeVersion};
        let on = "DRADeviceBindingConditions=true";
        let cases: &[(KubeVersion, &str, &str, &[&str])] = &[
            (
                KubeVersion::V1_34,
                "",
                "bindingTimeout: 5s",
                &["strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin DynamicResources: strict decoding error: unknown field \"bindingTimeout\""],
            ),
            (
                KubeVersion::V1_35,
                "",
                "bindingTimeout: 5s",
                &["profiles[0].pluginConfig[0].args.bindingTimeout: Forbidden: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled"],
            ),
            (KubeVersion::V1_35, on, "bindingTimeout: 5s", &[]),
            (KubeVersion::V1_35, on, "filterTimeout: 1s", &[]),
            (
                KubeVersion::V1_35,
                on,
                "bindingTimeout: 500ms",
                &["profiles[0].pluginConfig[0].args.bindingTimeout: Invalid value: \"500ms\": must be at least 1 second"],
            ),
        ];
        for (v, gates, args, want) in cases {
            let f = Features::with_gates(*v, gates).unwrap();
            let got = decode_errors_for(&with_args(PluginName::DynamicResources, args), &f);
            let got: Vec<&str> = got.iter().map(|e| e.split('\n').next().unwrap()).collect();
            assert_eq!(got.len(), want.len(), "{v} {gates} {args}: {got:?}");
            for (g, w) in got.iter().zip(want.iter()) {
                assert!(g.starts_with(w), "{v} {gates} {args}: {g}");
            }
        }
    }
}
