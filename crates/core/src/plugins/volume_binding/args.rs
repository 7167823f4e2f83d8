//! VolumeBindingArgs: the v1 kind, its defaults and validation, and the args the plugin runs
//! with.

use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{shape_json, shape_points, ArgsCodec, UtilizationShapePoint, V1Kind, V1Shape};
use crate::framework::config_error::invalid;
use crate::framework::config_error::ConfigError;
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1VolumeBindingArgs>("VolumeBindingArgs");

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeBindingArgs {
    pub bind_timeout_seconds: i64,
    /// StorageCapacityScoring is off by default in v1.34, so this stays empty unless configured.
    pub shape: Vec<UtilizationShapePoint>,
}

impl Default for VolumeBindingArgs {
    fn default() -> Self {
        VolumeBindingArgs {
            bind_timeout_seconds: 600,
            shape: vec![],
        }
    }
}

impl Args for VolumeBindingArgs {
    const PLUGIN: PluginName = PluginName::VolumeBinding;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1VolumeBindingArgs {
    pub bind_timeout_seconds: Option<i64>,
    /// Present (even empty) versus absent matters to validation.
    pub shape: Option<Vec<V1Shape>>,
}

impl V1Kind for V1VolumeBindingArgs {
    type Internal = VolumeBindingArgs;

    fn set_defaults(&mut self) {
        // StorageCapacityScoring is off by default in v1.34: no default shape.
        self.bind_timeout_seconds.get_or_insert(600);
    }

    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        let mut errs = Vec::new();
        let t = self.bind_timeout_seconds.unwrap_or(600);
        if t < 0 {
            errs.push(invalid(
                &path.child("bindTimeoutSeconds"),
                &t.to_string(),
                "invalid BindTimeoutSeconds, should not be a negative value",
            ));
        }
        // StorageCapacityScoring is off by default: any shape, even empty, is refused.
        if let Some(shape) = &self.shape {
            let items: Vec<String> = shape
                .iter()
                .map(|s| format!("{{\"Utilization\":{},\"Score\":{}}}", s.utilization, s.score))
                .collect();
            errs.push(invalid(
                &path.child("shape"),
                &format!("[{}]", items.join(",")),
                "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring",
            ));
        }
        errs
    }

    fn convert(&self) -> Result<VolumeBindingArgs, Vec<ConfigError>> {
        Ok(VolumeBindingArgs {
            bind_timeout_seconds: self.bind_timeout_seconds.unwrap_or(600),
            shape: self.shape.as_deref().map(shape_points).unwrap_or_default(),
        })
    }

    fn print(a: &VolumeBindingArgs, m: &mut Map<String, Value>) {
        m.insert("bindTimeoutSeconds".into(), json!(a.bind_timeout_seconds));
        if !a.shape.is_empty() {
            m.insert("shape".into(), shape_json(&a.shape));
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
        let cases: &[(&str, &str, &[&str])] = &[
        (
            "VolumeBinding timeout and shape (StorageCapacityScoring is off)",
            "bindTimeoutSeconds: -1\nshape: []",
            &[
                "bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value",
                "shape: Invalid value: []: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring",
            ],
        ),
        (
            "VolumeBinding shape values",
            "shape:\n- utilization: 0\n  score: 10",
            &["shape: Invalid value: [{\"Utilization\":0,\"Score\":10}]: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"],
        ),
        ];
        for (what, args, want) in cases {
            assert_eq!(args_errors(PluginName::VolumeBinding, args), *want, "{what}");
        }
    }
}
