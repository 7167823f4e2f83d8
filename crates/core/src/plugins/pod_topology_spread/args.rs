//! PodTopologySpreadArgs: the v1 kind, its defaults and validation, and the args the plugin
//! runs with.

use crate::api::TopologySpreadConstraint;
use crate::apimachinery::golang::{go_quote, json_quote};
use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{nd, ArgsCodec, V1Kind};
use crate::framework::config_error::ConfigError;
use crate::framework::config_error::{duplicate, forbidden, invalid, label_name, not_supported, required};
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1SpreadArgs>("PodTopologySpreadArgs");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DefaultingType {
    System,
    List,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTopologySpreadArgs {
    pub default_constraints: Vec<TopologySpreadConstraint>,
    pub defaulting_type: DefaultingType,
}

impl Default for PodTopologySpreadArgs {
    fn default() -> Self {
        PodTopologySpreadArgs {
            default_constraints: vec![],
            defaulting_type: DefaultingType::System,
        }
    }
}

impl Args for PodTopologySpreadArgs {
    const PLUGIN: PluginName = PluginName::PodTopologySpread;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1SpreadArgs {
    #[serde(default, deserialize_with = "nd")]
    pub default_constraints: Vec<V1Constraint>,
    #[serde(default, deserialize_with = "nd")]
    pub defaulting_type: String,
}

/// A v1.TopologySpreadConstraint as Go decodes it (missing fields are zero values).
#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Constraint {
    #[serde(default, deserialize_with = "nd")]
    pub max_skew: i32,
    #[serde(default, deserialize_with = "nd")]
    pub topology_key: String,
    #[serde(default, deserialize_with = "nd")]
    pub when_unsatisfiable: String,
    /// Only its presence matters (validation forbids it); typed so that strict decoding sees
    /// its fields.
    pub label_selector: Option<V1LabelSelector>,
    pub min_domains: Option<i32>,
    pub node_affinity_policy: Option<String>,
    pub node_taints_policy: Option<String>,
    #[serde(default, deserialize_with = "nd")]
    pub match_label_keys: Vec<String>,
}

/// A metav1.LabelSelector, as far as strict decoding needs it (the label map and the values
/// are not looked into).
#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1LabelSelector {
    #[serde(default)]
    pub match_labels: Option<Value>,
    #[serde(default, deserialize_with = "nd")]
    pub match_expressions: Vec<V1SelectorRequirement>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1SelectorRequirement {
    #[serde(default)]
    pub key: Option<Value>,
    #[serde(default)]
    pub operator: Option<Value>,
    #[serde(default)]
    pub values: Option<Value>,
}

// The API type is built field by field from its default, so that fields added to it later
// keep compiling here.
#[allow(clippy::field_reassign_with_default)]
fn constraint(c: &V1Constraint) -> TopologySpreadConstraint {
    let mut out = TopologySpreadConstraint::default();
    out.max_skew = c.max_skew;
    out.topology_key = c.topology_key.clone();
    out.when_unsatisfiable = c.when_unsatisfiable.clone();
    out.min_domains = c.min_domains;
    out.node_affinity_policy = c.node_affinity_policy.clone();
    out.node_taints_policy = c.node_taints_policy.clone();
    out.match_label_keys = c.match_label_keys.clone();
    out
}

impl V1Kind for V1SpreadArgs {
    type Internal = PodTopologySpreadArgs;

    fn set_defaults(&mut self) {
        if self.defaulting_type.is_empty() {
            self.defaulting_type = "System".into();
        }
    }

    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        let mut errs = Vec::new();
        let dt = &self.defaulting_type;
        let dtp = path.child("defaultingType");
        if dt != "System" && dt != "List" {
            errs.push(not_supported(&dtp, &json_quote(dt), &["System", "List"]));
        } else if dt == "System" && !self.default_constraints.is_empty() {
            errs.push(invalid(&dtp, &json_quote(dt), "when .defaultConstraints are not empty"));
        }
        let cp = path.child("defaultConstraints");
        for (i, c) in self.default_constraints.iter().enumerate() {
            let p = cp.index(i);
            if c.max_skew <= 0 {
                errs.push(invalid(&p.child("maxSkew"), &c.max_skew.to_string(), "not in valid range (0, inf)"));
            }
            let tk = p.child("topologyKey");
            if c.topology_key.is_empty() {
                errs.push(required(&tk, "can not be empty"));
            } else {
                errs.extend(label_name(&tk, &c.topology_key));
            }
            let wu = p.child("whenUnsatisfiable");
            if c.when_unsatisfiable.is_empty() {
                errs.push(required(&wu, "can not be empty"));
            } else if c.when_unsatisfiable != "DoNotSchedule" && c.when_unsatisfiable != "ScheduleAnyway" {
                errs.push(not_supported(
                    &wu,
                    &json_quote(&c.when_unsatisfiable),
                    &["DoNotSchedule", "ScheduleAnyway"],
                ));
            }
            if c.label_selector.is_some() {
                errs.push(forbidden(
                    &p.child("labelSelector"),
                    "constraint must not define a selector, as they deduced for each pod",
                ));
            }
            let repeated = self.default_constraints[..i]
                .iter()
                .any(|o: &V1Constraint| o.topology_key == c.topology_key && o.when_unsatisfiable == c.when_unsatisfiable);
            if repeated {
                errs.push(duplicate(
                    &p,
                    &go_quote(&format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable)),
                ));
            }
        }
        errs
    }

    fn convert(&self) -> Result<PodTopologySpreadArgs, Vec<ConfigError>> {
        Ok(PodTopologySpreadArgs {
            default_constraints: self.default_constraints.iter().map(constraint).collect(),
            defaulting_type: if self.defaulting_type == "List" {
                DefaultingType::List
            } else {
                DefaultingType::System
            },
        })
    }

    fn print(a: &PodTopologySpreadArgs, m: &mut Map<String, Value>) {
        if !a.default_constraints.is_empty() {
            m.insert(
                "defaultConstraints".into(),
                serde_json::to_value(&a.default_constraints).unwrap_or(Value::Null),
            );
        }
        let dt = match a.defaulting_type {
            DefaultingType::System => "System",
            DefaultingType::List => "List",
        };
        m.insert("defaultingType".into(), json!(dt));
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
            "PodTopologySpread: System with constraints, bad constraints",
            "defaultConstraints:
- maxSkew: 0
  topologyKey: ''
  whenUnsatisfiable: Sometimes
  labelSelector: {}
- maxSkew: 1
  topologyKey: bad key
  whenUnsatisfiable: ''
- maxSkew: 1
  topologyKey: zone
  whenUnsatisfiable: DoNotSchedule
- maxSkew: 2
  topologyKey: zone
  whenUnsatisfiable: DoNotSchedule
",
            &[
                "defaultingType: Invalid value: \"System\": when .defaultConstraints are not empty",
                "defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)",
                "defaultConstraints[0].topologyKey: Required value: can not be empty",
                "defaultConstraints[0].whenUnsatisfiable: Unsupported value: \"Sometimes\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
                "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod",
                "defaultConstraints[1].topologyKey: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "defaultConstraints[1].whenUnsatisfiable: Required value: can not be empty",
                "defaultConstraints[3]: Duplicate value: \"{zone, DoNotSchedule}\"",
            ],
        ),
        (
            "PodTopologySpread defaultingType",
            "defaultingType: Sometimes",
            &["defaultingType: Unsupported value: \"Sometimes\": supported values: \"System\", \"List\""],
        ),
        ];
        for (what, args, want) in cases {
            assert_eq!(args_errors(PluginName::PodTopologySpread, args), *want, "{what}");
        }
    }
}
