//! Decoding a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration the way kube-scheduler
//! loads its `--config` file, then defaulting, validating and building the profiles.
//!
//! The pipeline, and which errors each stage reports (each a `ConfigError` with the field path
//! it is about, so that the loader places it at that field):
//! 1. Typed decoding of the document over the v1 structs below (a type error is fatal and
//!    reported alone).
//! 2. Strict decoding, by the same pass (`serde_ignored` reports each field a struct does not
//!    have): every unknown field of the document, then of every typed plugin args object
//!    (`pluginConfig[].args` of a plugin whose descriptor has an args codec, decoded by it as
//!    the plugin's own `<Plugin>Args` kind), each its own
//!    `strict decoding error: unknown field "..."` (kube-scheduler joins them in one message).
//! 3. v1 defaulting (`SetDefaults_KubeSchedulerConfiguration`): scalars, leader election, client
//!    connection, the default plugins merged into each profile, each codec's defaults applied to
//!    its args, and its default args appended for every enabled plugin that has an args kind
//!    and no `pluginConfig` entry.
//! 4. Validation (`ValidateKubeSchedulerConfiguration`, and each codec validating its args):
//!    every error, each one message.
//! 5. Building the scheduler: extenders, then each profile's args (each codec converting its
//!    args into the plugin's slot) and framework (plugin instantiation, extension point lists,
//!    multiPoint expansion, weights); the first error stops it.
//!
//! The plugins' args kinds live beside their plugins (`plugins/<name>/args.rs`); this file
//! reaches them only through the registry (`IN_TREE`) and names none, except for
//! NodeResourcesFit's, which extenders write into (as upstream's `scheduler.New` does).

use super::validate;
use super::*;
use crate::apimachinery::golang::{json_type, Dur, GoDuration};
use crate::apimachinery::FieldPath;
pub(crate) use crate::framework::args_codec::strict;
use crate::framework::args_codec::{nd, V1Value};
pub use crate::framework::config_error::{GROUP, GROUP_VERSION};
use crate::plugins::node_resources_fit::args::V1FitArgs;
use crate::plugins::IN_TREE;
use serde::Deserialize;
use serde_json::Value as Json;

/// The API group and version of the configuration and of every plugin args kind.
/// The name kube-scheduler's scheme carries in "not registered" errors.
/// The kinds registered for kubescheduler.config.k8s.io/v1 besides the plugins' args kinds
/// (those are the registry's codecs).
const CONFIG_KIND: &str = "KubeSchedulerConfiguration";

/// Whether a kind is registered for kubescheduler.config.k8s.io/v1.
fn registered(kind: &str) -> bool {
    kind == CONFIG_KIND || IN_TREE.iter().any(|d| d.args.is_some_and(|c| c.kind == kind))
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

/// One `pluginConfig` entry's args after decoding (and, later, defaulting).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum V1Args {
    /// No registered args kind (or no args given for such a plugin): kept as given.
    Unknown(Option<Json>),
    /// The plugin's own args kind, decoded by its codec.
    Typed(V1Value),
}

/// `schema.GroupVersion.String()`.
fn gv_string(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// Decodes one plugin's args (the `pluginConfig` entry at `entry`) as its args kind, when
/// the registry gives the plugin one (else they are kept as given).
/// `Ok((args, unknown field errors))`, or the fatal error.
fn decode_args(entry: &FieldPath, name: &str, args: Option<&Json>, features: &Features) -> Result<(V1Args, Vec<ConfigError>), ConfigError> {
    let Some(codec) = IN_TREE.find(name).and_then(|d| d.args) else {
        return Ok((V1Args::Unknown(args.cloned()), vec![]));
    };
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
    if kind.is_empty() {
        kind = codec.kind.to_string();
    }
    if version.is_empty() && group.is_empty() {
        group = GROUP.to_string();
        version = "v1".to_string();
    }
    if version.is_empty() && group == GROUP {
        version = "v1".to_string();
    }
    if group != GROUP || version != "v1" || !registered(&kind) {
        let field = if group != GROUP || version != "v1" { "apiVersion" } else { "kind" };
        return Err(ctx(ConfigError::NotRegistered {
            path: FieldPath::new(field),
            kind,
            group_version: gv_string(&group, &version),
        }));
    }
    if kind != codec.kind {
        return Err(ConfigError::ArgsKind {
            entry: entry.clone(),
            plugin: name.to_string(),
            kind,
        });
    }
    let what = format!("args for plugin {name}");
    let (args, mut unknown) = codec.decode(v, &what).map_err(ctx)?;
    // Fields this version's kind does not have yet (the type is the newest version's).
    if let Json::Object(m) = v {
        for (kind, field) in features.missing_args_fields() {
            if *kind == codec.kind && m.contains_key(*field) {
                unknown.push(FieldPath::new(field));
            }
        }
    }
    Ok((
        V1Args::Typed(args),
        unknown.into_iter().map(|path| ctx(ConfigError::UnknownField { path })).collect(),
    ))
}

// ---------------------------------------------------------------------------------------------
// Defaulting.

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
pub(crate) type Defaulted = SchedulerConfigOf<DefaultedProfile>;

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

fn apply_defaults(raw: V1Config, args: Vec<Vec<V1Args>>, features: &Features) -> Defaulted {
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
        let plugins = merge_plugins(user_plugins.as_ref(), features);
        let mut plugin_config: Vec<(String, V1Args)> = Vec::new();
        for (pc, a) in p.plugin_config.into_iter().zip(pargs.iter_mut()) {
            if let V1Args::Typed(a) = a {
                a.set_defaults(features);
            }
            plugin_config.push((pc.name, a.clone()));
        }
        let existing: Vec<String> = plugin_config.iter().map(|(n, _)| n.clone()).collect();
        for name in plugins.enabled_names() {
            if existing.contains(&name) {
                continue;
            }
            if let Some(codec) = IN_TREE.find(&name).and_then(|d| d.args) {
                plugin_config.push((name, V1Args::Typed(codec.defaulted(features))));
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
    SchedulerConfigOf {
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
        features: features.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// The pipeline.

/// Stages 1-3: typed + strict decoding, then defaulting.
pub(crate) fn decode_and_default(json: &Json, features: &Features) -> Result<Defaulted, Vec<ConfigError>> {
    let (raw, unknown): (V1Config, _) = strict(json, "KubeSchedulerConfiguration").map_err(|e| vec![e])?;
    let mut errs: Vec<ConfigError> = unknown.into_iter().map(|path| ConfigError::UnknownField { path }).collect();
    let mut all_args: Vec<Vec<V1Args>> = Vec::new();
    for (i, p) in raw.profiles.iter().enumerate() {
        let mut list = Vec::new();
        for (j, pc) in p.plugin_config.iter().enumerate() {
            let entry = FieldPath::new("profiles").index(i).child("pluginConfig").index(j);
            // `args: null` is the same as no args.
            let (a, unknown) = decode_args(&entry, &pc.name, pc.args.as_ref(), features).map_err(|e| vec![e])?;
            errs.extend(unknown);
            list.push(a);
        }
        all_args.push(list);
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(apply_defaults(raw, all_args, features))
}

/// The whole pipeline on a configuration document (as JSON): every decoding error (or the
/// one fatal one), else every validation error, else the first error building the scheduler,
/// as the given version (with its gates) decodes it.
pub fn decode_json(json: &Json, features: &Features) -> Result<SchedulerConfig, Vec<ConfigError>> {
    let cfg = decode_and_default(json, features)?;
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
        let fit = PluginName::NodeResourcesFit.as_str();
        for (i, p) in cfg.profiles.iter_mut().enumerate() {
            let detail = match p.plugin_config.iter_mut().find(|(n, _)| n == fit) {
                Some((_, a)) => match a {
                    V1Args::Typed(a) => match a.downcast_mut::<V1FitArgs>() {
                        Some(a) => {
                            a.ignored_resources = ignored.clone();
                            continue;
                        }
                        None => "want args to be of type NodeResourcesFitArgs, got *runtime.Unknown",
                    },
                    V1Args::Unknown(_) => "want args to be of type NodeResourcesFitArgs, got *runtime.Unknown",
                },
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
        // Each typed entry converted into its plugin's slot. A conversion can refuse the args
        // (the plugin validating them when it is built): that stops the build when the profile
        // instantiates the plugin, and leaves its defaults otherwise. (Validation refused
        // duplicate entries, so each plugin has one at most.)
        let mut args = PluginArgs::default();
        let mut extra = BTreeMap::new();
        let needed = p.plugins.enabled_names();
        for (j, (name, a)) in p.plugin_config.iter().enumerate() {
            match a {
                V1Args::Typed(v) => {
                    if let Err(errors) = v.convert_into(&mut args) {
                        if needed.contains(name) {
                            return Err(ConfigError::PluginInit {
                                args: path.child("pluginConfig").index(j).child("args"),
                                scheduler_name: p.scheduler_name.clone(),
                                plugin: name.clone(),
                                errors,
                            });
                        }
                    }
                }
                V1Args::Unknown(Some(raw)) => {
                    extra.entry(name.clone()).or_insert_with(|| raw.clone());
                }
                V1Args::Unknown(None) => {}
            }
        }
        let mut profile = Profile::from_merged(
            &p.scheduler_name,
            p.plugins.clone(),
            args,
            p.percentage_of_nodes_to_score,
            &cfg.features,
        )
        .map_err(|error| ConfigError::Framework {
            path: framework_path(&path, p.user_plugins.as_ref(), &error),
            scheduler_name: p.scheduler_name.clone(),
            error,
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
    Ok(cfg.with_profiles(profiles))
}
