//! Plugin args, from the configuration's side. A plugin with an args kind declares, beside it
//! (`plugins/<name>/args.rs`), its v1 type and implements `V1Kind` for it: v1 defaulting,
//! validation, conversion into the args type it runs with (`framework::args::Args`) and how
//! that type prints in the effective configuration. `ArgsCodec::of` turns that into the
//! type-erased codec its descriptor carries; decoding, defaulting, validation, building and
//! printing iterate the registry's codecs and name no plugin.
//!
//! Below the codec: the pieces several kinds share (resource specs, utilization shapes, Go's
//! null-tolerant field decoding).

use super::args::{Args, PluginArgs};
use super::config_error::{ConfigError, GROUP_VERSION};
use crate::apimachinery::FieldPath;
use crate::version::Features;
use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value as Json};
use std::any::Any;
use std::fmt::Debug;

/// A v1 args kind (`<Plugin>Args` of kubescheduler.config.k8s.io/v1) as decoded from a
/// `pluginConfig` entry: a strict serde struct whose `Default` is the kind's zero value (what
/// `args: null` or `{}` decode to).
pub trait V1Kind: DeserializeOwned + Default + Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The type the plugin runs with.
    type Internal: Args;
    /// v1 defaulting (`SetDefaults_<Kind>`), under v1.34's default feature gates.
    fn set_defaults(&mut self);
    /// The apimachinery field errors of the defaulted args; `path` is where the args sit in
    /// the document.
    fn validate(&self, path: &FieldPath) -> Vec<ConfigError>;
    /// Defaulting under the run's version and feature gates: the same as `set_defaults`
    /// unless the kind has defaults that depend on them.
    fn set_defaults_for(&mut self, _features: &Features) {
        self.set_defaults()
    }
    /// Validation under the run's version and feature gates: the same as `validate` unless
    /// the kind has fields that depend on them.
    fn validate_for(&self, path: &FieldPath, _features: &Features) -> Vec<ConfigError> {
        self.validate(path)
    }
    /// The defaulted, validated args as the plugin runs with them. An error here is the
    /// plugin refusing its args when it is built (field paths relative to the args).
    fn convert(&self) -> Result<Self::Internal, Vec<ConfigError>>;
    /// The args' fields in the effective configuration (after `apiVersion` and `kind`).
    fn print(args: &Self::Internal, out: &mut Map<String, Json>);
}

/// What typed, strict decoding gives: the value and the paths of the fields its kind does
/// not have, or the fatal error.
pub(crate) type Decoded = Result<(V1Value, Vec<FieldPath>), ConfigError>;

/// One plugin's args codec, as its descriptor carries it (built by `ArgsCodec::of`).
pub struct ArgsCodec {
    /// The registered kind (`<Plugin>Args`).
    pub kind: &'static str,
    decode: fn(&Json, &str) -> Decoded,
    defaulted: fn(&Features) -> V1Value,
    print: fn(&PluginArgs, &mut Map<String, Json>),
}

impl ArgsCodec {
    pub const fn of<T: V1Kind>(kind: &'static str) -> ArgsCodec {
        ArgsCodec {
            kind,
            decode: decode_as::<T>,
            defaulted: defaulted_as::<T>,
            print: print_as::<T>,
        }
    }

    /// Typed, strict decoding of `v` (`null` is the zero value): the value and the path of
    /// every field the kind does not have, or the fatal type error (`what` names the object
    /// in it).
    pub(crate) fn decode(&self, v: &Json, what: &str) -> Decoded {
        (self.decode)(v, what)
    }

    /// The defaulted args appended for an enabled plugin that has no `pluginConfig` entry.
    pub(crate) fn defaulted(&self, features: &Features) -> V1Value {
        (self.defaulted)(features)
    }

    /// The plugin's args as printed in the effective configuration, header included.
    pub(crate) fn print(&self, args: &PluginArgs) -> Json {
        let mut m = Map::new();
        m.insert("apiVersion".into(), json!(GROUP_VERSION));
        m.insert("kind".into(), json!(self.kind));
        (self.print)(args, &mut m);
        Json::Object(m)
    }
}

impl Debug for ArgsCodec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ArgsCodec({})", self.kind)
    }
}

fn decode_as<T: V1Kind>(v: &Json, what: &str) -> Decoded {
    if v.is_null() {
        return Ok((V1Value::new(T::default()), vec![]));
    }
    strict::<T>(v, what).map(|(t, unknown)| (V1Value::new(t), unknown))
}

fn defaulted_as<T: V1Kind>(features: &Features) -> V1Value {
    let mut t = T::default();
    t.set_defaults_for(features);
    V1Value::new(t)
}

fn print_as<T: V1Kind>(args: &PluginArgs, out: &mut Map<String, Json>) {
    T::print(&args.get_or_default::<T::Internal>(), out)
}

/// What a v1 value needs with its type erased.
trait V1Obj: Any + Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn clone_box(&self) -> Box<dyn V1Obj>;
    fn same(&self, other: &dyn V1Obj) -> bool;
    fn set_defaults(&mut self, features: &Features);
    fn validate(&self, path: &FieldPath, features: &Features) -> Vec<ConfigError>;
    fn convert_into(&self, out: &mut PluginArgs) -> Result<(), Vec<ConfigError>>;
}

impl<T: V1Kind> V1Obj for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn V1Obj> {
        Box::new(self.clone())
    }
    fn same(&self, other: &dyn V1Obj) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn set_defaults(&mut self, features: &Features) {
        V1Kind::set_defaults_for(self, features)
    }
    fn validate(&self, path: &FieldPath, features: &Features) -> Vec<ConfigError> {
        V1Kind::validate_for(self, path, features)
    }
    fn convert_into(&self, out: &mut PluginArgs) -> Result<(), Vec<ConfigError>> {
        out.set(self.convert()?);
        Ok(())
    }
}

/// One plugin's decoded v1 args (then defaulted), of the plugin's own kind.
#[derive(Debug)]
pub(crate) struct V1Value(Box<dyn V1Obj>);

impl V1Value {
    fn new<T: V1Kind>(t: T) -> V1Value {
        V1Value(Box::new(t))
    }
    pub(crate) fn set_defaults(&mut self, features: &Features) {
        self.0.set_defaults(features)
    }
    pub(crate) fn validate(&self, path: &FieldPath, features: &Features) -> Vec<ConfigError> {
        self.0.validate(path, features)
    }
    /// Converts the args and puts them in their plugin's slot.
    pub(crate) fn convert_into(&self, out: &mut PluginArgs) -> Result<(), Vec<ConfigError>> {
        self.0.convert_into(out)
    }
    pub(crate) fn downcast_mut<T: V1Kind>(&mut self) -> Option<&mut T> {
        self.0.as_any_mut().downcast_mut::<T>()
    }
}

impl Clone for V1Value {
    fn clone(&self) -> Self {
        V1Value(self.0.clone_box())
    }
}

impl PartialEq for V1Value {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(other.0.as_ref())
    }
}

// ---------------------------------------------------------------------------------------------
// Shared by several kinds.

/// Null-tolerant field decoding: Go decodes `null` into a non-pointer field as its zero value.
pub(crate) fn nd<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A v1 ResourceSpec.
#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1ResourceSpec {
    #[serde(default, deserialize_with = "nd")]
    pub name: String,
    #[serde(default, deserialize_with = "nd")]
    pub weight: i64,
}

/// A v1 UtilizationShapePoint.
#[derive(Deserialize, Default, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Shape {
    #[serde(default, deserialize_with = "nd")]
    pub utilization: i32,
    #[serde(default, deserialize_with = "nd")]
    pub score: i32,
}

/// v1 defaulting of a resource list: cpu and memory when empty, and weight 1 where unset.
pub(crate) fn default_resources(v: &mut Vec<V1ResourceSpec>) {
    if v.is_empty() {
        *v = ["cpu", "memory"]
            .into_iter()
            .map(|name| V1ResourceSpec {
                name: name.into(),
                weight: 1,
            })
            .collect();
    }
    for r in v.iter_mut() {
        if r.weight == 0 {
            r.weight = 1;
        }
    }
}

/// A resource and its weight, as the scorers use them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSpec {
    pub name: String,
    pub weight: i64,
}

/// The default resources of the scoring strategies: cpu and memory, weight 1 each.
pub fn default_resource_spec() -> Vec<ResourceSpec> {
    vec![
        ResourceSpec {
            name: "cpu".into(),
            weight: 1,
        },
        ResourceSpec {
            name: "memory".into(),
            weight: 1,
        },
    ]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct UtilizationShapePoint {
    pub utilization: i32,
    pub score: i32,
}

pub(crate) fn resource_specs(v: &[V1ResourceSpec]) -> Vec<ResourceSpec> {
    v.iter()
        .map(|r| ResourceSpec {
            name: r.name.clone(),
            weight: r.weight,
        })
        .collect()
}

pub(crate) fn shape_points(v: &[V1Shape]) -> Vec<UtilizationShapePoint> {
    v.iter()
        .map(|s| UtilizationShapePoint {
            utilization: s.utilization,
            score: s.score,
        })
        .collect()
}

/// A resource list as v1 prints it (a zero weight is omitted).
pub(crate) fn resources_json(r: &[ResourceSpec]) -> Json {
    Json::Array(
        r.iter()
            .map(|r| {
                let mut m = Map::new();
                m.insert("name".into(), json!(r.name));
                if r.weight != 0 {
                    m.insert("weight".into(), json!(r.weight));
                }
                Json::Object(m)
            })
            .collect(),
    )
}

pub(crate) fn shape_json(s: &[UtilizationShapePoint]) -> Json {
    Json::Array(s.iter().map(|p| json!({"utilization": p.utilization, "score": p.score})).collect())
}

// ---------------------------------------------------------------------------------------------
// Typed, strict decoding of a v1 kind (the configuration document and each plugin's args).

/// A field path from the decoder's steps (up to the first step it cannot name).
fn segments_path<'a>(steps: impl IntoIterator<Item = &'a crate::apimachinery::json::Segment>) -> FieldPath {
    use crate::apimachinery::json::Segment;
    let mut out = FieldPath::root();
    for s in steps {
        out = match s {
            Segment::Seq(index) => out.index(*index),
            Segment::Map(key) | Segment::Enum(key) => out.child(key),
            Segment::Unknown => break,
        };
    }
    out
}

/// A field path from the decoder's error.
fn error_path(e: &crate::apimachinery::json::Error) -> FieldPath {
    segments_path(e.path())
}

/// Typed decoding of `v` as `T` (a v1 kind, `object` in messages), strict as kube-scheduler's
/// decoder is: the value and the path of every field `T` does not have, in document order
/// (`apiVersion` and `kind` at the root belong to every kind); or the type error, which is
/// fatal.
pub(crate) fn strict<T: DeserializeOwned>(v: &Json, object: &str) -> Result<(T, Vec<FieldPath>), ConfigError> {
    // Go's decoder: a struct only from an object (serde_json's would take an array too). The
    // decoder notes the fields `T` does not have (the values it ignores).
    let ignored = crate::apimachinery::json::Ignored::default();
    let got = T::deserialize(crate::apimachinery::json::Strict::noting_ignored(v.clone(), &ignored));
    let is_type_meta = |p: &[crate::apimachinery::json::Segment]| matches!(p, [crate::apimachinery::json::Segment::Map(k)] if k == "apiVersion" || k == "kind");
    let all_ignored = ignored.into_paths();
    let unknown: Vec<FieldPath> = all_ignored
        .iter()
        .filter(|p| !is_type_meta(p))
        .map(|p| segments_path(p.iter()))
        .collect();
    #[cfg(test)]
    {
        // The same fields as serde_ignored finds, and the same error paths as serde_path_to_error.
        crate::load::strict_path_tests::same_as_path_to_error(
            &got,
            serde_path_to_error::deserialize(crate::apimachinery::json::Strict::new(v.clone())),
        );
        fn ignored_path(p: &serde_ignored::Path) -> FieldPath {
            use serde_ignored::Path as P;
            match p {
                P::Root => FieldPath::root(),
                P::Seq { parent, index } => ignored_path(parent).index(*index),
                P::Map { parent, key } => ignored_path(parent).child(key),
                P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => ignored_path(parent),
            }
        }
        let mut theirs = Vec::new();
        let _ = T::deserialize(serde_ignored::Deserializer::new(
            crate::apimachinery::json::Strict::new(v.clone()),
            &mut |p| theirs.push(ignored_path(&p).to_string()),
        ));
        if got.is_ok() {
            // Every ignored value, `apiVersion` and `kind` included.
            let ours: Vec<String> = all_ignored.iter().map(|p| segments_path(p.iter()).to_string()).collect();
            assert_eq!(ours, theirs, "ignored fields of {v}");
        }
    }
    match got {
        Ok(t) => Ok((t, unknown)),
        Err(e) => {
            let path = error_path(&e);
            let detail = e.to_string();
            // Errors raised by our own Go-compatible field decoders are already in Go's words.
            if detail.starts_with("time: ") || detail.starts_with("json: ") {
                Err(ConfigError::GoDecode { path, detail })
            } else {
                Err(ConfigError::Decode {
                    object: object.to_string(),
                    path,
                    detail,
                })
            }
        }
    }
}

/// Helpers for the args tests beside each plugin: its args run through the whole pipeline.
#[cfg(test)]
pub(crate) mod testing {
    use crate::vocabulary::PluginName;

    /// Every error (as printed) of a configuration (the text after `apiVersion` and `kind`).
    pub(crate) fn decode_errors(body: &str) -> Vec<String> {
        decode_errors_for(body, &crate::version::Features::new(crate::version::KubeVersion::V1_34))
    }

    /// `decode_errors` for a given version and gates.
    pub(crate) fn decode_errors_for(body: &str, features: &crate::version::Features) -> Vec<String> {
        let text = format!("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n{body}");
        let (docs, errs) = crate::load::yaml::read_documents(&text);
        assert!(errs.is_empty(), "bad test YAML: {errs:?}\n{text}");
        match crate::config::decode::decode_json(&docs[0].to_json(), features) {
            Ok(_) => vec![],
            Err(e) => e.iter().map(ToString::to_string).collect(),
        }
    }

    /// A configuration whose only profile gives `plugin` the `args` (YAML as at the top level).
    pub(crate) fn with_args(plugin: PluginName, args: &str) -> String {
        let indented: String = args.lines().map(|l| format!("      {l}\n")).collect();
        format!("profiles:\n- pluginConfig:\n  - name: {plugin}\n    args:\n{indented}")
    }

    /// The validation errors of `plugin`'s `args`, each with its path relative to the args.
    pub(crate) fn args_errors(plugin: PluginName, args: &str) -> Vec<String> {
        decode_errors(&with_args(plugin, args))
            .into_iter()
            .map(|e| match e.strip_prefix("profiles[0].pluginConfig[0].args.") {
                Some(rest) => rest.to_string(),
                None => panic!("not an error of the args: {e}"),
            })
            .collect()
    }

    /// The errors of building `plugin` with `args` (a plugin that checks its args itself),
    /// without the profile's and plugin's prefix.
    pub(crate) fn init_errors(plugin: PluginName, args: &str) -> Vec<String> {
        let prefix =
            format!("initializing profiles: creating profile for scheduler name default-scheduler: initializing plugin \"{plugin}\": ");
        decode_errors(&with_args(plugin, args))
            .into_iter()
            .map(|e| match e.strip_prefix(&prefix) {
                Some(rest) => rest.to_string(),
                None => panic!("not an error of building {plugin}: {e}"),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::plugins::IN_TREE;

    /// Every codec's defaults agree with its plugin's: `{}` and `null` decoded then defaulted
    /// are the appended defaults, and convert to the args type's `Default`.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn each_codec_round_trips_its_defaults() {
        let mut n = 0;
        for d in IN_TREE.iter() {
            let Some(codec) = d.args else { continue };
            n += 1;
            // An extension's kind is its unqualified name's (`schedlab.dev/CEL`: `CELArgs`).
            let unqualified = d.name.as_str().rsplit('/').next().unwrap_or_default();
            assert_eq!(codec.kind, format!("{unqualified}Args"), "{}", d.name);
            for (v, f) in [serde_json::json!({}), serde_json::Value::Null]
                .into_iter()
                .flat_map(|v| crate::version::KubeVersion::ALL.map(|k| (v.clone(), crate::version::Features::new(k))))
            {
                let (mut a, unknown) = codec.decode(&v, "test").unwrap();
                assert!(unknown.is_empty());
                a.set_defaults(&f);
                assert_eq!(a, codec.defaulted(&f), "{}", d.name);
                assert!(a.validate(&crate::apimachinery::FieldPath::root(), &f).is_empty(), "{}", d.name);
                let mut args = super::PluginArgs::default();
                a.convert_into(&mut args).unwrap();
                assert_eq!(args, super::PluginArgs::default(), "{}", d.name);
                assert_eq!(codec.print(&args), codec.print(&super::PluginArgs::default()), "{}", d.name);
            }
        }
        assert_eq!(n, 9);
    }
}
