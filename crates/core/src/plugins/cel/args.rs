//! CELArgs: the CEL plugin's args — a `filter` expression, a `score` expression, either or
//! both — compiled when the configuration is validated, so that an invalid expression is a
//! configuration error at its line (`profiles[0].pluginConfig[0].args.filter: Invalid value`).

use crate::apimachinery::golang::json_quote;
use crate::apimachinery::FieldPath;
use crate::dra::cel::compile_expression;
use crate::framework::args::Args;
use crate::framework::args_codec::{nd, ArgsCodec, V1Kind};
use crate::framework::config_error::{invalid, ConfigError};
use crate::vocabulary::PluginName;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub static CODEC: ArgsCodec = ArgsCodec::of::<V1CelArgs>("CELArgs");

/// The expressions the plugin runs with; `None` where the args set none (Filter then passes
/// every node, Score gives every node 0).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CelArgs {
    pub filter: Option<String>,
    pub score: Option<String>,
}

impl Args for CelArgs {
    const PLUGIN: PluginName = PluginName::Cel;
}

/// The v1 shape: two strings, empty when unset.
#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1CelArgs {
    #[serde(default, deserialize_with = "nd")]
    pub filter: String,
    #[serde(default, deserialize_with = "nd")]
    pub score: String,
}

fn set(s: &str) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.to_string())
}

impl V1Kind for V1CelArgs {
    type Internal = CelArgs;

    fn set_defaults(&mut self) {}

    /// Each expression must compile; the error names the field and quotes the expression.
    fn validate(&self, path: &FieldPath) -> Vec<ConfigError> {
        [("filter", &self.filter), ("score", &self.score)]
            .into_iter()
            .filter(|(_, e)| set(e).is_some())
            .filter_map(|(field, e)| {
                if !crate::dra::cel::AVAILABLE {
                    return Some(ConfigError::NeedsCel { path: path.child(field) });
                }
                compile_expression(e)
                    .err()
                    .map(|msg| invalid(&path.child(field), &json_quote(e), &msg))
            })
            .collect()
    }

    fn convert(&self) -> Result<CelArgs, Vec<ConfigError>> {
        Ok(CelArgs {
            filter: set(&self.filter),
            score: set(&self.score),
        })
    }

    fn print(a: &CelArgs, m: &mut Map<String, Value>) {
        for (field, e) in [("filter", &a.filter), ("score", &a.score)] {
            if let Some(e) = e {
                m.insert(field.into(), json!(e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::framework::args_codec::testing::args_errors;
    use crate::vocabulary::PluginName;

    /// Each case's field errors, relative to the args: every expression that does not parse,
    /// by field; none for expressions that parse (types are checked when they run).
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn validation() {
        let cases: &[(&str, &str, &[&str])] = &[
            ("empty", "{}", &[]),
            ("both valid", "filter: 'node.metadata.name != \"a\"'\nscore: '10'", &[]),
            ("type errors wait for run time", "score: '\"x\" + 1'", &[]),
            (
                "filter does not parse",
                "filter: 'pod.metadata.name =='",
                &["filter: Invalid value: \"pod.metadata.name ==\": compilation failed: "],
            ),
            (
                "both do not parse",
                "filter: '('\nscore: '1 +'",
                &[
                    "filter: Invalid value: \"(\": compilation failed: ",
                    "score: Invalid value: \"1 +\": compilation failed: ",
                ],
            ),
        ];
        for (what, args, want) in cases {
            let got = args_errors(PluginName::Cel, args);
            assert_eq!(got.len(), want.len(), "{what}: {got:?}");
            for (g, w) in got.iter().zip(want.iter()) {
                assert!(g.starts_with(w), "{what}: {g}");
            }
        }
    }

    /// An unknown field is a strict decoding error, as for every args kind.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn unknown_fields_are_errors() {
        let got = crate::framework::args_codec::testing::decode_errors(&crate::framework::args_codec::testing::with_args(
            PluginName::Cel,
            "filters: 'true'",
        ));
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("unknown field \"filters\""), "{}", got[0]);
    }
}

/// One instance per profile: a second `pluginConfig` entry for the plugin is refused, as for
/// every plugin (docs/cel-plugin.md says so).
#[cfg(test)]
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn one_entry_per_profile() {
    let body = "profiles:\n- pluginConfig:\n  - name: schedlab.dev/CEL\n    args: {filter: 'true'}\n\
                \x20 - name: schedlab.dev/CEL\n    args: {score: '1'}\n";
    let got = crate::framework::args_codec::testing::decode_errors(body);
    assert!(
        got.iter()
            .any(|e| e.starts_with("profiles[0].pluginConfig[1]: Duplicate value: \"schedlab.dev/CEL\"")),
        "{got:?}"
    );
}
