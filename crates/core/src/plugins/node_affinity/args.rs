//! NodeAffinityArgs: the v1 kind, its validation (the node selector's parse errors) and the
//! args the plugin runs with. The kind has no defaults.

use crate::api;
use crate::apimachinery::golang::{go_quote, json_quote};
use crate::apimachinery::names::{is_qualified_name, is_valid_label_value};
use crate::apimachinery::FieldPath;
use crate::framework::args::Args;
use crate::framework::args_codec::{nd, ArgsCodec, V1Kind};
use crate::framework::config_error::ConfigError;
use crate::framework::config_error::{invalid, json_strings, not_supported};
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1NodeAffinityArgs>("NodeAffinityArgs");

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeAffinityArgs {
    pub added_affinity: Option<api::NodeAffinity>,
}

impl Args for NodeAffinityArgs {
    const PLUGIN: PluginName = PluginName::NodeAffinity;
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1NodeAffinityArgs {
    pub added_affinity: Option<V1NodeAffinity>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1NodeAffinity {
    pub required_during_scheduling_ignored_during_execution: Option<V1NodeSelector>,
    #[serde(default, deserialize_with = "nd")]
    pub preferred_during_scheduling_ignored_during_execution: Vec<V1PreferredTerm>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1NodeSelector {
    #[serde(default, deserialize_with = "nd")]
    pub node_selector_terms: Vec<V1Term>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Term {
    #[serde(default, deserialize_with = "nd")]
    pub match_expressions: Vec<V1Requirement>,
    #[serde(default, deserialize_with = "nd")]
    pub match_fields: Vec<V1Requirement>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Requirement {
    #[serde(default, deserialize_with = "nd")]
    pub key: String,
    #[serde(default, deserialize_with = "nd")]
    pub operator: String,
    /// `None` when absent or null (Go's nil slice prints as `null`).
    pub values: Option<Vec<String>>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1PreferredTerm {
    #[serde(default, deserialize_with = "nd")]
    pub weight: i32,
    #[serde(default, deserialize_with = "nd")]
    pub preference: V1Term,
}

// ---------------------------------------------------------------------------------------------
// Validation.

const SELECTOR_OPERATORS: &[&str] = &["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];

/// `labels.NewRequirement`'s checks.
fn check_requirement(path: &FieldPath, r: &V1Requirement, errs: &mut Vec<ConfigError>) {
    let key_errs = is_qualified_name(&r.key);
    if !key_errs.is_empty() {
        errs.push(invalid(&path.child("key"), &go_quote(&r.key), &key_errs.join("; ")));
    }
    let vp = path.child("values");
    let values: &[String] = r.values.as_deref().unwrap_or(&[]);
    let vals_json = json_strings(r.values.as_deref());
    match r.operator.as_str() {
        "In" | "NotIn" if values.is_empty() => {
            errs.push(invalid(&vp, &vals_json, "for 'in', 'notin' operators, values set can't be empty"))
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            errs.push(invalid(&vp, &vals_json, "values set must be empty for exists and does not exist"))
        }
        "Gt" | "Lt" => {
            if values.len() != 1 {
                errs.push(invalid(&vp, &vals_json, "for 'Gt', 'Lt' operators, exactly one value is required"));
            }
            for (i, v) in values.iter().enumerate() {
                if v.parse::<i64>().is_err() {
                    errs.push(invalid(
                        &vp.index(i),
                        &go_quote(v),
                        "for 'Gt', 'Lt' operators, the value must be an integer",
                    ));
                }
            }
        }
        _ => {}
    }
    for (i, v) in values.iter().enumerate() {
        let ve = is_valid_label_value(v);
        if !ve.is_empty() {
            errs.push(invalid(&vp.index(i).key(&r.key), &go_quote(v), &ve.join("; ")));
        }
    }
}

fn term_is_empty(t: &V1Term) -> bool {
    t.match_expressions.is_empty() && t.match_fields.is_empty()
}

/// A node selector term's parse errors (component-helpers' nodeaffinity).
fn check_term(path: &FieldPath, t: &V1Term, errs: &mut Vec<ConfigError>) {
    if !t.match_expressions.is_empty() {
        let p = path.child("matchExpressions");
        for (i, r) in t.match_expressions.iter().enumerate() {
            let pi = p.index(i);
            if !SELECTOR_OPERATORS.contains(&r.operator.as_str()) {
                errs.push(not_supported(&pi.child("operator"), &json_quote(&r.operator), SELECTOR_OPERATORS));
                continue;
            }
            check_requirement(&pi, r, errs);
        }
    }
    if !t.match_fields.is_empty() {
        let p = path.child("matchFields");
        for (i, r) in t.match_fields.iter().enumerate() {
            let pi = p.index(i);
            match r.operator.as_str() {
                "In" | "NotIn" => {
                    if r.values.as_ref().map_or(0, |v| v.len()) != 1 {
                        errs.push(invalid(
                            &pi.child("values"),
                            &json_strings(r.values.as_deref()),
                            "must have one element",
                        ));
                    }
                }
                _ => errs.push(not_supported(&pi.child("operator"), &json_quote(&r.operator), &["In", "NotIn"])),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Conversion. The API types are built field by field from their defaults, so that fields
// added to them later keep compiling here.

#[allow(clippy::field_reassign_with_default)]
fn requirement(r: &V1Requirement) -> api::NodeSelectorRequirement {
    let mut out = api::NodeSelectorRequirement::default();
    out.key = r.key.clone();
    out.operator = r.operator.clone();
    out.values = r.values.clone().unwrap_or_default();
    out
}

#[allow(clippy::field_reassign_with_default)]
fn term(t: &V1Term) -> api::NodeSelectorTerm {
    let mut out = api::NodeSelectorTerm::default();
    out.match_expressions = t.match_expressions.iter().map(requirement).collect();
    out.match_fields = t.match_fields.iter().map(requirement).collect();
    out
}

#[allow(clippy::field_reassign_with_default)]
fn node_affinity(a: &V1NodeAffinity) -> api::NodeAffinity {
    let mut out = api::NodeAffinity::default();
    out.required_during_scheduling_ignored_during_execution = a.required_during_scheduling_ignored_during_execution.as_ref().map(|ns| {
        let mut sel = api::NodeSelector::default();
        sel.node_selector_terms = ns.node_selector_terms.iter().map(term).collect();
        sel
    });
    out.preferred_during_scheduling_ignored_during_execution = a
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .map(|p| {
            let mut t = api::PreferredSchedulingTerm::default();
            t.weight = p.weight;
            t.preference = term(&p.preference);
            t
        })
        .collect();
    out
}

impl V1Kind for V1NodeAffinityArgs {
    type Internal = NodeAffinityArgs;

    fn set_defaults(&mut self) {}

    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        let mut errs = Vec::new();
        let Some(aff) = &self.added_affinity else { return errs };
        let base = path.child("addedAffinity");
        if let Some(ns) = &aff.required_during_scheduling_ignored_during_execution {
            let p = base
                .child("requiredDuringSchedulingIgnoredDuringExecution")
                .child("nodeSelectorTerms");
            for (i, t) in ns.node_selector_terms.iter().enumerate() {
                if !term_is_empty(t) {
                    check_term(&p.index(i), t, &mut errs);
                }
            }
        }
        let p = base.child("preferredDuringSchedulingIgnoredDuringExecution");
        for (i, t) in aff.preferred_during_scheduling_ignored_during_execution.iter().enumerate() {
            if t.weight == 0 || term_is_empty(&t.preference) {
                continue;
            }
            check_term(&p.index(i), &t.preference, &mut errs);
        }
        errs
    }

    fn convert(&self) -> Result<NodeAffinityArgs, Vec<ConfigError>> {
        Ok(NodeAffinityArgs {
            added_affinity: self.added_affinity.as_ref().map(node_affinity),
        })
    }

    fn print(a: &NodeAffinityArgs, m: &mut Map<String, Value>) {
        if let Some(aff) = &a.added_affinity {
            m.insert("addedAffinity".into(), serde_json::to_value(aff).unwrap_or(Value::Null));
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
            "NodeAffinity addedAffinity",
            "addedAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
    nodeSelectorTerms:
    - matchExpressions:
      - key: pool
        operator: Near
      - key: bad key
        operator: Exists
        values: [x]
      - key: n
        operator: Gt
        values: [one]
      - key: p
        operator: In
    - {}
    - matchFields:
      - key: metadata.name
        operator: In
        values: [a, b]
      - key: metadata.name
        operator: Exists
  preferredDuringSchedulingIgnoredDuringExecution:
  - weight: 0
    preference:
      matchExpressions:
      - key: ignored
        operator: Bogus
  - weight: 1
    preference:
      matchExpressions:
      - key: zone
        operator: In
        values: [-bad-]
",
            &[
                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"Near\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"",
                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Invalid value: [\"x\"]: values set must be empty for exists and does not exist",
                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values[0]: Invalid value: \"one\": for 'Gt', 'Lt' operators, the value must be an integer",
                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[2].matchFields[0].values: Invalid value: [\"a\",\"b\"]: must have one element",
                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[2].matchFields[1].operator: Unsupported value: \"Exists\": supported values: \"In\", \"NotIn\"",
                "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].matchExpressions[0].values[0][zone]: Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ],
        ),
        ];
        for (what, args, want) in cases {
            assert_eq!(args_errors(PluginName::NodeAffinity, args), *want, "{what}");
        }
    }
}
