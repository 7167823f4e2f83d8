//! Decoding a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration the way kube-scheduler
//! loads its `--config` file, then defaulting, validating and building the profiles.
//!
//! The pipeline, and which errors each stage reports (each a `ConfigError` with the field path
//! it is about, so that the loader places it at that field):
//! 1. Typed decoding of the document over the v1 structs below (a type error is fatal and
//!    reported alone).
//! 2. Strict decoding, by the same pass (`serde_ignored` reports each field a struct does not
//!    have): every unknown field of the document, then of every typed plugin args object
//!    (`pluginConfig[].args`, decoded as its own `<Plugin>Args` kind), each its own
//!    `strict decoding error: unknown field "..."` (kube-scheduler joins them in one message).
//! 3. v1 defaulting (`SetDefaults_KubeSchedulerConfiguration`): scalars, leader election, client
//!    connection, the default plugins merged into each profile, and default args appended for
//!    every enabled plugin that has an args kind and no `pluginConfig` entry.
//! 4. Validation (`ValidateKubeSchedulerConfiguration` and the plugin args validators): every
//!    error, each one message.
//! 5. Building the scheduler: extenders, then each profile's framework (plugin instantiation,
//!    extension point lists, multiPoint expansion, weights); the first error stops it.

use super::golang::GoDuration;
use super::validate;
use super::*;
use crate::api;
use crate::load::FieldPath;
use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use serde_json::Value as Json;

/// The API group and version of the configuration and of every plugin args kind.
pub const GROUP: &str = "kubescheduler.config.k8s.io";
pub const GROUP_VERSION: &str = "kubescheduler.config.k8s.io/v1";
/// The name kube-scheduler's scheme carries in "not registered" errors.
pub(crate) const SCHEME_NAME: &str = "pkg/scheduler/apis/config/scheme/scheme.go:29";
/// Kinds registered for kubescheduler.config.k8s.io/v1.
const REGISTERED_KINDS: &[&str] = &[
    "KubeSchedulerConfiguration",
    "DefaultPreemptionArgs",
    "InterPodAffinityArgs",
    "NodeResourcesBalancedAllocationArgs",
    "NodeResourcesFitArgs",
    "PodTopologySpreadArgs",
    "VolumeBindingArgs",
    "NodeAffinityArgs",
    "DynamicResourcesArgs",
];

/// Plugins whose args have a registered kind (`<name>Args`).
pub const TYPED_ARGS_PLUGINS: &[&str] = &[
    "DefaultPreemption",
    "InterPodAffinity",
    "NodeAffinity",
    "NodeResourcesBalancedAllocation",
    "NodeResourcesFit",
    "PodTopologySpread",
    "VolumeBinding",
    "DynamicResources",
];

// ---------------------------------------------------------------------------------------------
// Null-tolerant field decoding: Go decodes `null` into a non-pointer field as its zero value.

fn nd<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A `metav1.Duration` field: a JSON string parsed by Go's `time.ParseDuration`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Dur(pub GoDuration);

impl<'de> Deserialize<'de> for Dur {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dur, D::Error> {
        let v = Json::deserialize(d)?;
        match v {
            Json::String(s) => GoDuration::parse(&s).map(Dur).map_err(serde::de::Error::custom),
            other => Err(serde::de::Error::custom(format!(
                "json: cannot unmarshal {} into Go value of type string",
                json_type(&other)
            ))),
        }
    }
}

/// The JSON type name Go's decoder uses in its messages.
fn json_type(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

// ---------------------------------------------------------------------------------------------
// The v1 document.

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Config {
    // apiVersion and kind are checked by the loader.
    pub parallelism: Option<i32>,
    #[serde(default, deserialize_with = "nd")]
    pub leader_election: V1LeaderElection,
    #[serde(default, deserialize_with = "nd")]
    pub client_connection: V1ClientConnection,
    pub enable_profiling: Option<bool>,
    pub enable_contention_profiling: Option<bool>,
    pub percentage_of_nodes_to_score: Option<i32>,
    pub pod_initial_backoff_seconds: Option<i64>,
    pub pod_max_backoff_seconds: Option<i64>,
    #[serde(default, deserialize_with = "nd")]
    pub profiles: Vec<V1Profile>,
    #[serde(default, deserialize_with = "nd")]
    pub extenders: Vec<V1Extender>,
    #[serde(default, deserialize_with = "nd")]
    pub delay_cache_until_active: bool,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1LeaderElection {
    pub leader_elect: Option<bool>,
    #[serde(default, deserialize_with = "nd")]
    pub lease_duration: Dur,
    #[serde(default, deserialize_with = "nd")]
    pub renew_deadline: Dur,
    #[serde(default, deserialize_with = "nd")]
    pub retry_period: Dur,
    #[serde(default, deserialize_with = "nd")]
    pub resource_lock: String,
    #[serde(default, deserialize_with = "nd")]
    pub resource_name: String,
    #[serde(default, deserialize_with = "nd")]
    pub resource_namespace: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1ClientConnection {
    #[serde(default, deserialize_with = "nd")]
    pub kubeconfig: String,
    #[serde(default, deserialize_with = "nd")]
    pub accept_content_types: String,
    #[serde(default, deserialize_with = "nd")]
    pub content_type: String,
    #[serde(default, deserialize_with = "nd")]
    pub qps: f32,
    #[serde(default, deserialize_with = "nd")]
    pub burst: i32,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Profile {
    pub scheduler_name: Option<String>,
    pub percentage_of_nodes_to_score: Option<i32>,
    pub plugins: Option<V1Plugins>,
    #[serde(default, deserialize_with = "nd")]
    pub plugin_config: Vec<V1PluginConfig>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Plugins {
    #[serde(default, deserialize_with = "nd")]
    pub pre_enqueue: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub queue_sort: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub pre_filter: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub filter: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub post_filter: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub pre_score: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub score: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub reserve: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub permit: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub pre_bind: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub bind: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub post_bind: V1PluginSet,
    #[serde(default, deserialize_with = "nd")]
    pub multi_point: V1PluginSet,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1PluginSet {
    #[serde(default, deserialize_with = "nd")]
    pub enabled: Vec<V1Plugin>,
    #[serde(default, deserialize_with = "nd")]
    pub disabled: Vec<V1Plugin>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Plugin {
    #[serde(default, deserialize_with = "nd")]
    pub name: String,
    pub weight: Option<i32>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1PluginConfig {
    #[serde(default, deserialize_with = "nd")]
    pub name: String,
    /// A RawExtension: decoded separately, as the plugin's args kind.
    #[serde(default)]
    pub args: Option<Json>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Extender {
    #[serde(default, deserialize_with = "nd")]
    pub url_prefix: String,
    #[serde(default, deserialize_with = "nd")]
    pub filter_verb: String,
    #[serde(default, deserialize_with = "nd")]
    pub preempt_verb: String,
    #[serde(default, deserialize_with = "nd")]
    pub prioritize_verb: String,
    #[serde(default, deserialize_with = "nd")]
    pub weight: i64,
    #[serde(default, deserialize_with = "nd")]
    pub bind_verb: String,
    #[serde(default, deserialize_with = "nd", rename = "enableHTTPS")]
    pub enable_https: bool,
    pub tls_config: Option<V1ExtenderTls>,
    #[serde(default, deserialize_with = "nd")]
    pub http_timeout: Dur,
    #[serde(default, deserialize_with = "nd")]
    pub node_cache_capable: bool,
    #[serde(default, deserialize_with = "nd")]
    pub managed_resources: Vec<V1ManagedResource>,
    #[serde(default, deserialize_with = "nd")]
    pub ignorable: bool,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1ExtenderTls {
    #[serde(default, deserialize_with = "nd")]
    pub insecure: bool,
    #[serde(default, deserialize_with = "nd")]
    pub server_name: String,
    #[serde(default, deserialize_with = "nd")]
    pub cert_file: String,
    #[serde(default, deserialize_with = "nd")]
    pub key_file: String,
    #[serde(default, deserialize_with = "nd", rename = "caFile")]
    pub ca_file: String,
    #[serde(default, deserialize_with = "nd")]
    pub cert_data: String,
    #[serde(default, deserialize_with = "nd")]
    pub key_data: String,
    #[serde(default, deserialize_with = "nd", rename = "caData")]
    pub ca_data: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1ManagedResource {
    #[serde(default, deserialize_with = "nd")]
    pub name: String,
    #[serde(default, deserialize_with = "nd")]
    pub ignored_by_scheduler: bool,
}

// ---------------------------------------------------------------------------------------------
// Plugin args kinds (v1). After `default_args` they hold the defaulted values.

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1ResourceSpec {
    #[serde(default, deserialize_with = "nd")]
    pub name: String,
    #[serde(default, deserialize_with = "nd")]
    pub weight: i64,
}

#[derive(Deserialize, Default, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Shape {
    #[serde(default, deserialize_with = "nd")]
    pub utilization: i32,
    #[serde(default, deserialize_with = "nd")]
    pub score: i32,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1DefaultPreemptionArgs {
    pub min_candidate_nodes_percentage: Option<i32>,
    pub min_candidate_nodes_absolute: Option<i32>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1InterPodAffinityArgs {
    pub hard_pod_affinity_weight: Option<i32>,
    #[serde(default, deserialize_with = "nd")]
    pub ignore_preferred_terms_of_existing_pods: bool,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1FitArgs {
    #[serde(default, deserialize_with = "nd")]
    pub ignored_resources: Vec<String>,
    #[serde(default, deserialize_with = "nd")]
    pub ignored_resource_groups: Vec<String>,
    pub scoring_strategy: Option<V1ScoringStrategy>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1ScoringStrategy {
    #[serde(rename = "type", default, deserialize_with = "nd")]
    pub kind: String,
    #[serde(default, deserialize_with = "nd")]
    pub resources: Vec<V1ResourceSpec>,
    pub requested_to_capacity_ratio: Option<V1Rtcr>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1Rtcr {
    #[serde(default, deserialize_with = "nd")]
    pub shape: Vec<V1Shape>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1BalancedArgs {
    #[serde(default, deserialize_with = "nd")]
    pub resources: Vec<V1ResourceSpec>,
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
    pub match_labels: Option<Json>,
    #[serde(default, deserialize_with = "nd")]
    pub match_expressions: Vec<V1SelectorRequirement>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1SelectorRequirement {
    #[serde(default)]
    pub key: Option<Json>,
    #[serde(default)]
    pub operator: Option<Json>,
    #[serde(default)]
    pub values: Option<Json>,
}

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1VolumeBindingArgs {
    pub bind_timeout_seconds: Option<i64>,
    /// Present (even empty) versus absent matters to validation.
    pub shape: Option<Vec<V1Shape>>,
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

#[derive(Deserialize, Default, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct V1DynamicResourcesArgs {
    pub filter_timeout: Option<Dur>,
}

/// One `pluginConfig` entry's args after decoding (and, later, defaulting).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum V1Args {
    /// No registered args kind (or no args given for such a plugin): kept as given.
    Unknown(Option<Json>),
    DefaultPreemption(V1DefaultPreemptionArgs),
    InterPodAffinity(V1InterPodAffinityArgs),
    NodeAffinity(V1NodeAffinityArgs),
    Balanced(V1BalancedArgs),
    Fit(V1FitArgs),
    Spread(V1SpreadArgs),
    VolumeBinding(V1VolumeBindingArgs),
    DynamicResources(V1DynamicResourcesArgs),
}

// ---------------------------------------------------------------------------------------------
// Typed, strict decoding.

/// A field path from serde_ignored's.
fn ignored_path(p: &serde_ignored::Path) -> FieldPath {
    use serde_ignored::Path as P;
    match p {
        P::Root => FieldPath::root(),
        P::Seq { parent, index } => ignored_path(parent).index(*index),
        P::Map { parent, key } => ignored_path(parent).child(key),
        P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => ignored_path(parent),
    }
}

/// A field path from serde_path_to_error's (up to the first step it cannot name).
fn error_path(p: &serde_path_to_error::Path) -> FieldPath {
    use serde_path_to_error::Segment;
    let mut out = FieldPath::root();
    for s in p.iter() {
        out = match s {
            Segment::Seq { index } => out.index(*index),
            Segment::Map { key } => out.child(key),
            Segment::Enum { variant } => out.child(variant),
            Segment::Unknown => break,
        };
    }
    out
}

/// Typed decoding of `v` as `T` (a v1 kind, `object` in messages), strict as kube-scheduler's
/// decoder is: the value and the path of every field `T` does not have, in document order
/// (`apiVersion` and `kind` at the root belong to every kind); or the type error, which is
/// fatal.
fn strict<T: DeserializeOwned>(v: &Json, object: &str) -> Result<(T, Vec<FieldPath>), ConfigError> {
    let mut unknown = Vec::new();
    let mut note = |p: serde_ignored::Path| {
        if !matches!(&p, serde_ignored::Path::Map { parent: serde_ignored::Path::Root, key } if key == "apiVersion" || key == "kind") {
            unknown.push(ignored_path(&p));
        }
    };
    // Go's decoder: a struct only from an object (serde_json's would take an array too).
    let de = crate::load::json::Strict(v.clone());
    let got = serde_path_to_error::deserialize::<_, T>(serde_ignored::Deserializer::new(de, &mut note));
    match got {
        Ok(t) => Ok((t, unknown)),
        Err(e) => {
            let path = error_path(e.path());
            let detail = e.inner().to_string();
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

/// `schema.GroupVersion.String()`.
fn gv_string(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// Decodes one plugin's args (the `pluginConfig` entry at `entry`) as its `<name>Args` kind.
/// `Ok((args, unknown field errors))`, or the fatal error.
fn decode_args(entry: &FieldPath, name: &str, args: Option<&Json>) -> Result<(V1Args, Vec<ConfigError>), ConfigError> {
    if !TYPED_ARGS_PLUGINS.contains(&name) {
        return Ok((V1Args::Unknown(args.cloned()), vec![]));
    }
    let null = Json::Null;
    let v = args.unwrap_or(&null);
    let ctx = |error: ConfigError| ConfigError::PluginArgs {
        entry: entry.clone(),
        plugin: name.to_string(),
        error: Box::new(error),
    };
    // The serializer first reads apiVersion/kind.
    let (mut api_version, mut kind) = (String::new(), String::new());
    match v {
        Json::Null => {}
        Json::Object(m) => {
            for (field, slot) in [("apiVersion", &mut api_version), ("kind", &mut kind)] {
                match m.get(field) {
                    None | Some(Json::Null) => {}
                    Some(Json::String(s)) => *slot = s.clone(),
                    Some(other) => {
                        return Err(ctx(ConfigError::ArgsTypeMeta {
                            path: FieldPath::new(field),
                            detail: format!(
                                "json: cannot unmarshal {} into Go struct field .{field} of type string",
                                json_type(other)
                            ),
                        }))
                    }
                }
            }
        }
        other => {
            return Err(ctx(ConfigError::ArgsTypeMeta {
                path: FieldPath::root(),
                detail: format!(
                    "json: cannot unmarshal {} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }}",
                    json_type(other)
                ),
            }))
        }
    }
    let (mut group, mut version) = match api_version.matches('/').count() {
        _ if api_version.is_empty() || api_version == "/" => (String::new(), String::new()),
        0 => (String::new(), api_version.clone()),
        1 => {
            let (g, ver) = api_version.split_once('/').unwrap_or_default();
            (g.to_string(), ver.to_string())
        }
        _ => {
            return Err(ctx(ConfigError::GroupVersion {
                path: FieldPath::new("apiVersion"),
                value: api_version,
            }))
        }
    };
    let default_kind = format!("{name}Args");
    if kind.is_empty() {
        kind = default_kind.clone();
    }
    if version.is_empty() && group.is_empty() {
        group = GROUP.to_string();
        version = "v1".to_string();
    }
    if version.is_empty() && group == GROUP {
        version = "v1".to_string();
    }
    if group != GROUP || version != "v1" || !REGISTERED_KINDS.contains(&kind.as_str()) {
        let field = if group != GROUP || version != "v1" { "apiVersion" } else { "kind" };
        return Err(ctx(ConfigError::NotRegistered {
            path: FieldPath::new(field),
            kind,
            group_version: gv_string(&group, &version),
        }));
    }
    if kind != default_kind {
        return Err(ConfigError::ArgsKind {
            entry: entry.clone(),
            plugin: name.to_string(),
            kind,
        });
    }
    let what = format!("args for plugin {name}");
    let (args, unknown) = match name {
        "DefaultPreemption" => typed_args(v, &what, V1Args::DefaultPreemption),
        "InterPodAffinity" => typed_args(v, &what, V1Args::InterPodAffinity),
        "NodeAffinity" => typed_args(v, &what, V1Args::NodeAffinity),
        "NodeResourcesBalancedAllocation" => typed_args(v, &what, V1Args::Balanced),
        "NodeResourcesFit" => typed_args(v, &what, V1Args::Fit),
        "PodTopologySpread" => typed_args(v, &what, V1Args::Spread),
        "VolumeBinding" => typed_args(v, &what, V1Args::VolumeBinding),
        _ => typed_args(v, &what, V1Args::DynamicResources),
    }
    .map_err(ctx)?;
    Ok((
        args,
        unknown.into_iter().map(|path| ctx(ConfigError::UnknownField { path })).collect(),
    ))
}

/// Strict decoding of one args kind (`null` is the kind's zero value).
fn typed_args<T: DeserializeOwned + Default>(v: &Json, what: &str, wrap: fn(T) -> V1Args) -> Result<(V1Args, Vec<FieldPath>), ConfigError> {
    if v.is_null() {
        return Ok((wrap(T::default()), vec![]));
    }
    strict(v, what).map(|(t, unknown)| (wrap(t), unknown))
}

// ---------------------------------------------------------------------------------------------
// Defaulting.

fn default_resources() -> Vec<V1ResourceSpec> {
    vec![
        V1ResourceSpec {
            name: "cpu".into(),
            weight: 1,
        },
        V1ResourceSpec {
            name: "memory".into(),
            weight: 1,
        },
    ]
}

/// The `SetDefaults_<Kind>Args` functions (v1.34 default feature gates).
pub(crate) fn default_args(a: &mut V1Args) {
    match a {
        V1Args::DefaultPreemption(x) => {
            x.min_candidate_nodes_percentage.get_or_insert(10);
            x.min_candidate_nodes_absolute.get_or_insert(100);
        }
        V1Args::InterPodAffinity(x) => {
            x.hard_pod_affinity_weight.get_or_insert(1);
        }
        V1Args::Balanced(x) => {
            if x.resources.is_empty() {
                x.resources = default_resources();
            }
            for r in &mut x.resources {
                if r.weight == 0 {
                    r.weight = 1;
                }
            }
        }
        V1Args::Fit(x) => {
            let s = x.scoring_strategy.get_or_insert_with(|| V1ScoringStrategy {
                kind: "LeastAllocated".into(),
                resources: default_resources(),
                requested_to_capacity_ratio: None,
            });
            if s.resources.is_empty() {
                s.resources = default_resources();
            }
            for r in &mut s.resources {
                if r.weight == 0 {
                    r.weight = 1;
                }
            }
        }
        V1Args::Spread(x) => {
            if x.defaulting_type.is_empty() {
                x.defaulting_type = "System".into();
            }
        }
        V1Args::VolumeBinding(x) => {
            // StorageCapacityScoring is off by default in v1.34: no default shape.
            x.bind_timeout_seconds.get_or_insert(600);
        }
        V1Args::DynamicResources(x) => {
            // DRASchedulerFilterTimeout is on by default in v1.34.
            if x.filter_timeout.is_none() {
                x.filter_timeout = Some(Dur(GoDuration::from_secs(10)));
            }
        }
        V1Args::Unknown(_) | V1Args::NodeAffinity(_) => {}
    }
}

/// The defaulted args of a plugin that has an args kind, as appended by defaulting.
pub(crate) fn defaulted_args_for(name: &str) -> Option<V1Args> {
    let mut a = match name {
        "DefaultPreemption" => V1Args::DefaultPreemption(Default::default()),
        "InterPodAffinity" => V1Args::InterPodAffinity(Default::default()),
        "NodeAffinity" => V1Args::NodeAffinity(Default::default()),
        "NodeResourcesBalancedAllocation" => V1Args::Balanced(Default::default()),
        "NodeResourcesFit" => V1Args::Fit(Default::default()),
        "PodTopologySpread" => V1Args::Spread(Default::default()),
        "VolumeBinding" => V1Args::VolumeBinding(Default::default()),
        "DynamicResources" => V1Args::DynamicResources(Default::default()),
        _ => return None,
    };
    default_args(&mut a);
    Some(a)
}

/// One profile after v1 defaulting.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DefaultedProfile {
    pub scheduler_name: String,
    pub percentage_of_nodes_to_score: Option<i32>,
    pub plugins: PluginsCfg,
    /// The profile's own `plugins` (before the defaults were merged in), to place errors.
    pub user_plugins: Option<PluginsCfg>,
    pub plugin_config: Vec<(String, V1Args)>,
}

/// The whole configuration after v1 defaulting (kube-scheduler's internal form).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Defaulted {
    pub parallelism: i32,
    pub leader_election: LeaderElectionConfig,
    pub client_connection: ClientConnectionConfig,
    pub enable_profiling: bool,
    pub enable_contention_profiling: bool,
    pub percentage_of_nodes_to_score: i32,
    pub pod_initial_backoff_seconds: i64,
    pub pod_max_backoff_seconds: i64,
    pub profiles: Vec<DefaultedProfile>,
    pub extenders: Vec<ExtenderConfig>,
    pub delay_cache_until_active: bool,
}

fn plugin_set(s: V1PluginSet) -> PluginSetCfg {
    PluginSetCfg {
        enabled: s
            .enabled
            .into_iter()
            .map(|p| PluginRef {
                name: p.name,
                weight: p.weight,
            })
            .collect(),
        disabled: s.disabled.into_iter().map(|p| p.name).collect(),
    }
}

fn plugins_cfg(pl: V1Plugins) -> PluginsCfg {
    PluginsCfg {
        pre_enqueue: plugin_set(pl.pre_enqueue),
        queue_sort: plugin_set(pl.queue_sort),
        pre_filter: plugin_set(pl.pre_filter),
        filter: plugin_set(pl.filter),
        post_filter: plugin_set(pl.post_filter),
        pre_score: plugin_set(pl.pre_score),
        score: plugin_set(pl.score),
        reserve: plugin_set(pl.reserve),
        permit: plugin_set(pl.permit),
        pre_bind: plugin_set(pl.pre_bind),
        bind: plugin_set(pl.bind),
        post_bind: plugin_set(pl.post_bind),
        multi_point: plugin_set(pl.multi_point),
    }
}

fn apply_defaults(raw: V1Config, args: Vec<Vec<V1Args>>) -> Defaulted {
    let le = raw.leader_election;
    let mut resource_lock = le.resource_lock;
    if resource_lock.is_empty() {
        resource_lock = "leases".into();
    }
    let or = |d: Dur, def: i64| if d.0 == GoDuration(0) { GoDuration::from_secs(def) } else { d.0 };
    let leader_election = LeaderElectionConfig {
        leader_elect: le.leader_elect.unwrap_or(true),
        lease_duration: or(le.lease_duration, 15),
        renew_deadline: or(le.renew_deadline, 10),
        retry_period: or(le.retry_period, 2),
        resource_lock,
        resource_name: if le.resource_name.is_empty() {
            "kube-scheduler".into()
        } else {
            le.resource_name
        },
        resource_namespace: if le.resource_namespace.is_empty() {
            "kube-system".into()
        } else {
            le.resource_namespace
        },
    };
    let cc = raw.client_connection;
    let client_connection = ClientConnectionConfig {
        kubeconfig: cc.kubeconfig,
        accept_content_types: cc.accept_content_types,
        content_type: if cc.content_type.is_empty() {
            "application/vnd.kubernetes.protobuf".into()
        } else {
            cc.content_type
        },
        qps: if cc.qps == 0.0 { 50.0 } else { cc.qps },
        burst: if cc.burst == 0 { 100 } else { cc.burst },
    };
    let enable_profiling = raw.enable_profiling.unwrap_or(true);
    let enable_contention_profiling = raw.enable_contention_profiling.unwrap_or(enable_profiling);

    let mut profiles_raw = raw.profiles;
    let mut args = args;
    if profiles_raw.is_empty() {
        profiles_raw.push(V1Profile::default());
        args.push(vec![]);
    }
    let single = profiles_raw.len() == 1;
    let mut profiles = Vec::new();
    for (p, mut pargs) in profiles_raw.into_iter().zip(args) {
        let scheduler_name = match p.scheduler_name {
            Some(n) => n,
            None if single => DEFAULT_SCHEDULER_NAME.to_string(),
            None => String::new(),
        };
        let user_plugins = p.plugins.map(plugins_cfg);
        let plugins = merge_plugins(user_plugins.as_ref());
        let mut plugin_config: Vec<(String, V1Args)> = Vec::new();
        for (pc, a) in p.plugin_config.into_iter().zip(pargs.iter_mut()) {
            default_args(a);
            plugin_config.push((pc.name, a.clone()));
        }
        let existing: Vec<String> = plugin_config.iter().map(|(n, _)| n.clone()).collect();
        for name in plugins.enabled_names() {
            if existing.contains(&name) {
                continue;
            }
            if let Some(a) = defaulted_args_for(&name) {
                plugin_config.push((name, a));
            }
        }
        profiles.push(DefaultedProfile {
            scheduler_name,
            percentage_of_nodes_to_score: p.percentage_of_nodes_to_score,
            plugins,
            user_plugins,
            plugin_config,
        });
    }
    let extenders = raw
        .extenders
        .into_iter()
        .map(|e| ExtenderConfig {
            url_prefix: e.url_prefix,
            filter_verb: e.filter_verb,
            preempt_verb: e.preempt_verb,
            prioritize_verb: e.prioritize_verb,
            weight: e.weight,
            bind_verb: e.bind_verb,
            enable_https: e.enable_https,
            tls_config: e.tls_config.map(|t| ExtenderTlsConfig {
                insecure: t.insecure,
                server_name: t.server_name,
                cert_file: t.cert_file,
                key_file: t.key_file,
                ca_file: t.ca_file,
                cert_data: t.cert_data,
                key_data: t.key_data,
                ca_data: t.ca_data,
            }),
            http_timeout: e.http_timeout.0,
            node_cache_capable: e.node_cache_capable,
            managed_resources: e
                .managed_resources
                .into_iter()
                .map(|r| ExtenderManagedResource {
                    name: r.name,
                    ignored_by_scheduler: r.ignored_by_scheduler,
                })
                .collect(),
            ignorable: e.ignorable,
        })
        .collect();
    Defaulted {
        parallelism: raw.parallelism.unwrap_or(16),
        leader_election,
        client_connection,
        enable_profiling,
        enable_contention_profiling,
        percentage_of_nodes_to_score: raw.percentage_of_nodes_to_score.unwrap_or(0),
        pod_initial_backoff_seconds: raw.pod_initial_backoff_seconds.unwrap_or(1),
        pod_max_backoff_seconds: raw.pod_max_backoff_seconds.unwrap_or(10),
        profiles,
        extenders,
        delay_cache_until_active: raw.delay_cache_until_active,
    }
}

// ---------------------------------------------------------------------------------------------
// From the defaulted v1 args to the engine's args.

fn shape_points(v: &[V1Shape]) -> Vec<UtilizationShapePoint> {
    v.iter()
        .map(|s| UtilizationShapePoint {
            utilization: s.utilization,
            score: s.score,
        })
        .collect()
}

fn resource_specs(v: &[V1ResourceSpec]) -> Vec<ResourceSpec> {
    v.iter()
        .map(|r| ResourceSpec {
            name: r.name.clone(),
            weight: r.weight,
        })
        .collect()
}

// The API types are built field by field from their defaults, so that fields added to them
// later keep compiling here.
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
pub(crate) fn node_affinity(a: &V1NodeAffinity) -> api::NodeAffinity {
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

#[allow(clippy::field_reassign_with_default)]
fn constraint(c: &V1Constraint) -> api::TopologySpreadConstraint {
    let mut out = api::TopologySpreadConstraint::default();
    out.max_skew = c.max_skew;
    out.topology_key = c.topology_key.clone();
    out.when_unsatisfiable = c.when_unsatisfiable.clone();
    out.min_domains = c.min_domains;
    out.node_affinity_policy = c.node_affinity_policy.clone();
    out.node_taints_policy = c.node_taints_policy.clone();
    out.match_label_keys = c.match_label_keys.clone();
    out
}

/// NodeResourcesFit's construction (`NewFit`): args validation (with no field path prefix),
/// then the engine args. kube-scheduler dereferences a missing `requestedToCapacityRatio` for
/// the RequestedToCapacityRatio strategy and crashes; that is reported as an error here.
pub(crate) fn new_fit_args(a: &V1FitArgs) -> Result<NodeResourcesFitArgs, Vec<ConfigError>> {
    let errs = validate::fit_args(&FieldPath::root(), a);
    if !errs.is_empty() {
        return Err(errs);
    }
    let unusable = |path: FieldPath, detail: String| vec![ConfigError::Unusable { path, detail }];
    let sp = FieldPath::new("scoringStrategy");
    let Some(s) = &a.scoring_strategy else {
        return Err(unusable(sp, "scoring strategy not specified".into()));
    };
    let kind = match s.kind.as_str() {
        "LeastAllocated" => ScoringStrategyType::LeastAllocated,
        "MostAllocated" => ScoringStrategyType::MostAllocated,
        "RequestedToCapacityRatio" => ScoringStrategyType::RequestedToCapacityRatio,
        other => return Err(unusable(sp.child("type"), format!("scoring strategy {other} is not supported"))),
    };
    if kind == ScoringStrategyType::RequestedToCapacityRatio && s.requested_to_capacity_ratio.is_none() {
        return Err(unusable(sp, "runtime error: invalid memory address or nil pointer dereference (scoringStrategy.requestedToCapacityRatio is required for the RequestedToCapacityRatio strategy)".into()));
    }
    Ok(NodeResourcesFitArgs {
        ignored_resources: a.ignored_resources.clone(),
        ignored_resource_groups: a.ignored_resource_groups.clone(),
        scoring_strategy: ScoringStrategy {
            kind,
            resources: resource_specs(&s.resources),
            shape: s
                .requested_to_capacity_ratio
                .as_ref()
                .map(|r| shape_points(&r.shape))
                .unwrap_or_default(),
        },
    })
}

/// Applies one (validated) entry to the engine's args.
fn apply_engine_args(out: &mut PluginArgs, a: &V1Args) {
    match a {
        V1Args::Unknown(_) | V1Args::Fit(_) => {}
        V1Args::DefaultPreemption(x) => {
            out.default_preemption = DefaultPreemptionArgs {
                min_candidate_nodes_percentage: x.min_candidate_nodes_percentage.unwrap_or(10),
                min_candidate_nodes_absolute: x.min_candidate_nodes_absolute.unwrap_or(100),
            }
        }
        V1Args::InterPodAffinity(x) => {
            out.inter_pod_affinity = InterPodAffinityArgs {
                hard_pod_affinity_weight: x.hard_pod_affinity_weight.unwrap_or(1),
                ignore_preferred_terms_of_existing_pods: x.ignore_preferred_terms_of_existing_pods,
            }
        }
        V1Args::NodeAffinity(x) => {
            out.node_affinity = NodeAffinityArgs {
                added_affinity: x.added_affinity.as_ref().map(node_affinity),
            }
        }
        V1Args::Balanced(x) => {
            out.node_resources_balanced_allocation = NodeResourcesBalancedAllocationArgs {
                resources: resource_specs(&x.resources),
            }
        }
        V1Args::Spread(x) => {
            out.pod_topology_spread = PodTopologySpreadArgs {
                default_constraints: x.default_constraints.iter().map(constraint).collect(),
                defaulting_type: if x.defaulting_type == "List" {
                    DefaultingType::List
                } else {
                    DefaultingType::System
                },
            }
        }
        V1Args::VolumeBinding(x) => {
            out.volume_binding = VolumeBindingArgs {
                bind_timeout_seconds: x.bind_timeout_seconds.unwrap_or(600),
                shape: x.shape.as_deref().map(shape_points).unwrap_or_default(),
            }
        }
        V1Args::DynamicResources(x) => {
            out.dynamic_resources = DynamicResourcesArgs {
                filter_timeout_seconds: x.filter_timeout.map(|d| d.0.as_secs_f64()),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The pipeline.

/// Stages 1-3: typed + strict decoding, then defaulting.
pub(crate) fn decode_and_default(json: &Json) -> Result<Defaulted, Vec<ConfigError>> {
    let (raw, unknown): (V1Config, _) = strict(json, "KubeSchedulerConfiguration").map_err(|e| vec![e])?;
    let mut errs: Vec<ConfigError> = unknown.into_iter().map(|path| ConfigError::UnknownField { path }).collect();
    let mut all_args: Vec<Vec<V1Args>> = Vec::new();
    for (i, p) in raw.profiles.iter().enumerate() {
        let mut list = Vec::new();
        for (j, pc) in p.plugin_config.iter().enumerate() {
            let entry = FieldPath::new("profiles").index(i).child("pluginConfig").index(j);
            // `args: null` is the same as no args.
            let (a, unknown) = decode_args(&entry, &pc.name, pc.args.as_ref()).map_err(|e| vec![e])?;
            errs.extend(unknown);
            list.push(a);
        }
        all_args.push(list);
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(apply_defaults(raw, all_args))
}

/// The whole pipeline on a configuration document (as JSON): every decoding error (or the
/// one fatal one), else every validation error, else the first error building the scheduler.
pub fn decode_json(json: &Json) -> Result<SchedulerConfig, Vec<ConfigError>> {
    let cfg = decode_and_default(json)?;
    let errs = validate::validate_config(&cfg);
    if !errs.is_empty() {
        return Err(errs);
    }
    build(cfg).map_err(|e| vec![e])
}

/// Where a framework error points: the plugin entry (its name) when it is about one, else the
/// profile's plugins. Specific extension points have no default plugins, so their merged set
/// is the user's; a multiPoint entry is found by name (the last one, as merging does).
fn framework_path(profile: &FieldPath, user: Option<&PluginsCfg>, e: &FrameworkError) -> FieldPath {
    let plugins = profile.child("plugins");
    let Some((point, multi_point, index, name)) = e.plugin() else {
        return plugins;
    };
    let (key, at) = if multi_point {
        let at = user.and_then(|u| u.multi_point.enabled.iter().rposition(|p| p.name == name));
        ("multiPoint", at)
    } else {
        (point.config_key(), Some(index))
    };
    let set = plugins.child(key).child("enabled");
    match at {
        Some(k) => set.index(k).child("name"),
        None => set,
    }
}

/// Stage 5: what `scheduler.New` does with a valid configuration.
pub(crate) fn build(mut cfg: Defaulted) -> Result<SchedulerConfig, ConfigError> {
    // Extenders' ignored resources replace NodeResourcesFit's ignoredResources in every profile.
    let ignored: Vec<String> = cfg
        .extenders
        .iter()
        .flat_map(|e| e.managed_resources.iter())
        .filter(|r| r.ignored_by_scheduler)
        .map(|r| r.name.clone())
        .collect();
    if !ignored.is_empty() {
        for (i, p) in cfg.profiles.iter_mut().enumerate() {
            let detail = match p.plugin_config.iter_mut().find(|(n, _)| n == "NodeResourcesFit") {
                Some((_, V1Args::Fit(a))) => {
                    a.ignored_resources = ignored.clone();
                    continue;
                }
                Some(_) => "want args to be of type NodeResourcesFitArgs, got *runtime.Unknown",
                None => "can't find NodeResourcesFitArgs in plugin config",
            };
            return Err(ConfigError::Extenders {
                path: FieldPath::new("profiles").index(i),
                detail: detail.into(),
            });
        }
    }
    let mut profiles: Vec<Profile> = Vec::new();
    let mut first_queue_sort: Option<(String, Option<Json>)> = None;
    for (i, p) in cfg.profiles.iter().enumerate() {
        let path = FieldPath::new("profiles").index(i);
        let entry = |name: &str| match p.plugin_config.iter().position(|(n, _)| n == name) {
            Some(j) => path.child("pluginConfig").index(j),
            None => path.child("pluginConfig"),
        };
        let mut args = PluginArgs::default();
        let mut extra = BTreeMap::new();
        let needed = p.plugins.enabled_names();
        for (name, a) in &p.plugin_config {
            apply_engine_args(&mut args, a);
            if let V1Args::Unknown(Some(raw)) = a {
                extra.entry(name.clone()).or_insert_with(|| raw.clone());
            }
        }
        // Plugin instantiation: NodeResourcesFit validates its args itself.
        if needed.iter().any(|n| n == "NodeResourcesFit") {
            if let Some((_, V1Args::Fit(a))) = p.plugin_config.iter().find(|(n, _)| n == "NodeResourcesFit") {
                args.node_resources_fit = new_fit_args(a).map_err(|errors| ConfigError::PluginInit {
                    args: entry("NodeResourcesFit").child("args"),
                    scheduler_name: p.scheduler_name.clone(),
                    plugin: "NodeResourcesFit".into(),
                    errors,
                })?;
            }
        }
        let mut profile =
            Profile::from_merged(&p.scheduler_name, p.plugins.clone(), args, p.percentage_of_nodes_to_score).map_err(|error| {
                ConfigError::Framework {
                    path: framework_path(&path, p.user_plugins.as_ref(), &error),
                    scheduler_name: p.scheduler_name.clone(),
                    error,
                }
            })?;
        profile.extra_plugin_args = extra;
        // The profile map's checks: a name, unique, and one queue sort plugin (with the same
        // args) for all profiles.
        if p.scheduler_name.is_empty() {
            return Err(ConfigError::NoSchedulerName {
                path: path.child("schedulerName"),
            });
        }
        if profiles.iter().any(|q| q.scheduler_name == p.scheduler_name) {
            return Err(ConfigError::DuplicateProfile {
                path: path.child("schedulerName"),
                scheduler_name: p.scheduler_name.clone(),
            });
        }
        let qs = profile.plugins.queue_sort[0].as_str().to_string();
        let qs_args = p
            .plugin_config
            .iter()
            .find(|(n, _)| *n == qs)
            .and_then(|(_, a)| if let V1Args::Unknown(x) = a { x.clone() } else { None });
        match &first_queue_sort {
            None => first_queue_sort = Some((qs, qs_args)),
            Some((first, first_args)) => {
                if *first != qs {
                    return Err(ConfigError::QueueSortDiffers {
                        path: path.child("plugins").child("queueSort"),
                        scheduler_name: p.scheduler_name.clone(),
                        plugin: qs,
                        first: first.clone(),
                    });
                }
                if *first_args != qs_args {
                    return Err(ConfigError::QueueSortArgsDiffer {
                        path: entry(&qs),
                        scheduler_name: p.scheduler_name.clone(),
                    });
                }
            }
        }
        profiles.push(profile);
    }
    Ok(SchedulerConfig {
        parallelism: cfg.parallelism,
        leader_election: cfg.leader_election,
        client_connection: cfg.client_connection,
        enable_profiling: cfg.enable_profiling,
        enable_contention_profiling: cfg.enable_contention_profiling,
        percentage_of_nodes_to_score: cfg.percentage_of_nodes_to_score,
        pod_initial_backoff_seconds: cfg.pod_initial_backoff_seconds,
        pod_max_backoff_seconds: cfg.pod_max_backoff_seconds,
        profiles,
        extenders: cfg.extenders,
        delay_cache_until_active: cfg.delay_cache_until_active,
    })
}
