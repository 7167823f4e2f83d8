//! Configuration errors. Each one reads as kube-scheduler words it and carries the field path
//! it is about (`profiles[0].pluginConfig[1].args.scoringStrategy.type`), so that the loader can
//! place it at that field's line and column.

use crate::apimachinery::golang::{go_quote, json_quote};
use crate::apimachinery::names::is_qualified_name;
use crate::apimachinery::FieldPath;
use crate::vocabulary::ExtensionPoint;

/// The configuration's API group and version.
pub const GROUP: &str = "kubescheduler.config.k8s.io";
pub const GROUP_VERSION: &str = "kubescheduler.config.k8s.io/v1";
/// Where kube-scheduler's decoding errors say their scheme was built.
pub(crate) const SCHEME_NAME: &str = "pkg/scheduler/apis/config/scheme/scheme.go:29";

/// What is wrong with a KubeSchedulerConfiguration, at which field. The text is kube-scheduler's
/// (`path()` is where it points; some texts show a shorter path, as upstream prints them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Strict decoding: a field the v1 type does not have.
    #[error("strict decoding error: unknown field {}", go_quote(&.path.render()))]
    UnknownField { path: FieldPath },
    /// Typed decoding failed (a value of the wrong type): fatal, reported alone. `object` is
    /// what was decoded (`KubeSchedulerConfiguration`, `args for plugin X`).
    #[error("{}", decode_text(.object, .path, .detail))]
    Decode { object: String, path: FieldPath, detail: String },
    /// Typed decoding failed in one of the fields Go decodes itself (durations), worded by Go.
    #[error("{detail}")]
    GoDecode { path: FieldPath, detail: String },
    /// An error of a `pluginConfig` entry's args (decoded as the plugin's args kind); the
    /// inner error's path is relative to the args.
    #[error("{}", args_text(.entry, .plugin, .error))]
    PluginArgs {
        entry: FieldPath,
        plugin: String,
        error: Box<ConfigError>,
    },
    /// The args' apiVersion or kind cannot be read.
    #[error("couldn't get version/kind; json parse error: {detail}")]
    ArgsTypeMeta { path: FieldPath, detail: String },
    /// The args' apiVersion is not a group/version.
    #[error("unexpected GroupVersion string: {value}")]
    GroupVersion { path: FieldPath, value: String },
    /// The args name a kind the scheme does not have.
    #[error("no kind {} is registered for version {} in scheme {}", go_quote(.kind), go_quote(.group_version), go_quote(SCHEME_NAME))]
    NotRegistered {
        path: FieldPath,
        kind: String,
        group_version: String,
    },
    /// The args are of another plugin's registered kind.
    #[error("decoding .{entry}: args for plugin {plugin} were not of type {plugin}Args.{GROUP}, got {kind}.{GROUP}")]
    ArgsKind { entry: FieldPath, plugin: String, kind: String },

    // Validation (apimachinery's field errors).
    #[error("{path}: Invalid value: {value}{}", detail_text(.detail))]
    Invalid { path: FieldPath, value: String, detail: String },
    #[error("{path}: Required value{}", detail_text(.detail))]
    Required { path: FieldPath, detail: String },
    #[error("{path}: Duplicate value: {value}")]
    Duplicate { path: FieldPath, value: String },
    #[error("{path}: Forbidden{}", detail_text(.detail))]
    Forbidden { path: FieldPath, detail: String },
    #[error("{path}: Unsupported value: {value}{}", supported_text(.supported))]
    NotSupported {
        path: FieldPath,
        value: String,
        supported: Vec<String>,
    },

    // Building the scheduler (`scheduler.New`).
    /// A plugin refused its args when built (NodeResourcesFit validates its own, with paths
    /// relative to the args, which `args` locates).
    #[error("initializing profiles: creating profile for scheduler name {scheduler_name}: initializing plugin {}: {}", go_quote(.plugin), aggregate_text(.errors))]
    PluginInit {
        args: FieldPath,
        scheduler_name: String,
        plugin: String,
        errors: Vec<ConfigError>,
    },
    /// What a plugin cannot use although validation let it through.
    #[error("{detail}")]
    Unusable { path: FieldPath, detail: String },
    /// A profile's framework cannot be built.
    #[error("initializing profiles: creating profile for scheduler name {scheduler_name}: {error}")]
    Framework {
        path: FieldPath,
        scheduler_name: String,
        error: FrameworkError,
    },
    #[error("initializing profiles: scheduler name is needed")]
    NoSchedulerName { path: FieldPath },
    #[error("initializing profiles: duplicate profile with scheduler name {}", go_quote(.scheduler_name))]
    DuplicateProfile { path: FieldPath, scheduler_name: String },
    #[error("initializing profiles: different queue sort plugins for profile {}: {}, first: {}", go_quote(.scheduler_name), go_quote(.plugin), go_quote(.first))]
    QueueSortDiffers {
        path: FieldPath,
        scheduler_name: String,
        plugin: String,
        first: String,
    },
    #[error("initializing profiles: different queue sort plugin args for profile {}", go_quote(.scheduler_name))]
    QueueSortArgsDiffer { path: FieldPath, scheduler_name: String },
    /// A CEL expression in a build without the CEL interpreter (the `cel` feature off): the
    /// configuration is the full engine's to judge (`ErrorReason::NeedsCel` when loaded).
    #[error("{path}: {}", crate::dra::cel::NOT_COMPILED_IN)]
    NeedsCel { path: FieldPath },
    /// Extenders' ignored resources cannot reach NodeResourcesFit.
    #[error("couldn't build extenders: {detail}")]
    Extenders { path: FieldPath, detail: String },
}

impl ConfigError {
    /// The field the error is about, from the document's root.
    pub fn path(&self) -> FieldPath {
        use ConfigError::*;
        match self {
            PluginArgs { entry, error, .. } => entry.child("args").join(&error.path()),
            ArgsKind { entry, .. } => entry.child("args").child("kind"),
            PluginInit { args, errors, .. } => match errors.first() {
                Some(e) => args.join(&e.path()),
                None => args.clone(),
            },
            UnknownField { path }
            | Decode { path, .. }
            | GoDecode { path, .. }
            | ArgsTypeMeta { path, .. }
            | GroupVersion { path, .. }
            | NotRegistered { path, .. }
            | Invalid { path, .. }
            | Required { path, .. }
            | Duplicate { path, .. }
            | Forbidden { path, .. }
            | NotSupported { path, .. }
            | Unusable { path, .. }
            | Framework { path, .. }
            | NoSchedulerName { path }
            | DuplicateProfile { path, .. }
            | QueueSortDiffers { path, .. }
            | QueueSortArgsDiffer { path, .. }
            | Extenders { path, .. }
            | NeedsCel { path } => path.clone(),
        }
    }

    /// Whether the error is about a field's value (placed at the value) rather than about the
    /// field itself (placed at its key: an unknown field, a missing value).
    pub fn about_value(&self) -> bool {
        use ConfigError::*;
        match self {
            PluginArgs { error, .. } => error.about_value(),
            PluginInit { errors, .. } => errors.first().is_none_or(ConfigError::about_value),
            UnknownField { .. } | Required { .. } | Forbidden { .. } => false,
            _ => true,
        }
    }

    /// Whether the error is a CEL expression this build cannot evaluate (`NeedsCel`, also
    /// inside a plugin's args).
    pub fn needs_cel(&self) -> bool {
        match self {
            ConfigError::NeedsCel { .. } => true,
            ConfigError::PluginArgs { error, .. } => error.needs_cel(),
            ConfigError::PluginInit { errors, .. } => errors.iter().any(ConfigError::needs_cel),
            _ => false,
        }
    }

    /// Whether the document failed to decode (rather than to validate or build).
    pub fn is_decoding(&self) -> bool {
        use ConfigError::*;
        matches!(
            self,
            UnknownField { .. }
                | Decode { .. }
                | GoDecode { .. }
                | PluginArgs { .. }
                | ArgsTypeMeta { .. }
                | GroupVersion { .. }
                | NotRegistered { .. }
                | ArgsKind { .. }
        )
    }
}

/// Why a profile's framework cannot be built (the framework constructor's errors). The
/// plugin errors say at which extension point (`point`) and at which index of
/// the merged set (`index`; `multi_point` when it comes from multiPoint).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameworkError {
    #[error("{} {} does not exist", .point.interface_name(), go_quote(.name))]
    NotExist {
        point: ExtensionPoint,
        multi_point: bool,
        index: usize,
        name: String,
    },
    #[error("plugin {} does not extend {} plugin", go_quote(.name), .point.interface_name())]
    NotExtend {
        point: ExtensionPoint,
        multi_point: bool,
        index: usize,
        name: String,
    },
    #[error("plugin {} already registered as {}", go_quote(.name), go_quote(.point.interface_name()))]
    AlreadyRegistered {
        point: ExtensionPoint,
        multi_point: bool,
        index: usize,
        name: String,
    },
    #[error("only one queue sort plugin required for profile with scheduler name {}, but got {got}", go_quote(.profile))]
    QueueSortCount { profile: String, got: usize },
    #[error("at least one bind plugin is needed for profile with scheduler name {}", go_quote(.profile))]
    NoBind { profile: String },
    #[error("total score of Score plugins could overflow")]
    ScoreOverflow,
    #[error("score plugin {} is not configured with weight", go_quote(.name))]
    NoWeight { name: String },
}

impl FrameworkError {
    /// The plugin entry the error is about: (extension point, from multiPoint, index in the
    /// merged set, name).
    pub fn plugin(&self) -> Option<(ExtensionPoint, bool, usize, &str)> {
        match self {
            FrameworkError::NotExist {
                point,
                multi_point,
                index,
                name,
            }
            | FrameworkError::NotExtend {
                point,
                multi_point,
                index,
                name,
            }
            | FrameworkError::AlreadyRegistered {
                point,
                multi_point,
                index,
                name,
            } => Some((*point, *multi_point, *index, name)),
            _ => None,
        }
    }
}

fn detail_text(detail: &str) -> String {
    if detail.is_empty() {
        String::new()
    } else {
        format!(": {detail}")
    }
}

fn supported_text(supported: &[String]) -> String {
    if supported.is_empty() {
        return String::new();
    }
    let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
    format!(": supported values: {}", list.join(", "))
}

fn decode_text(object: &str, path: &FieldPath, detail: &str) -> String {
    if path.is_root() {
        format!("error decoding {object}: {detail}")
    } else {
        format!("error decoding {object}: {path}: {detail}")
    }
}

fn args_text(entry: &FieldPath, plugin: &str, error: &ConfigError) -> String {
    match error {
        // Unknown fields come out of the strict decoder, which wraps them once more.
        ConfigError::UnknownField { .. } => {
            format!("strict decoding error: decoding .{entry}: strict decoding error: decoding args for plugin {plugin}: {error}")
        }
        _ => format!("decoding .{entry}: decoding args for plugin {plugin}: {error}"),
    }
}

/// `utilerrors.Aggregate.Error()`: one message as is, several in brackets (duplicates dropped).
pub(crate) fn aggregate_text(errs: &[ConfigError]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for e in errs {
        let s = e.to_string();
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    match seen.len() {
        0 => String::new(),
        1 => seen.remove(0),
        _ => format!("[{}]", seen.join(", ")),
    }
}
// ---------------------------------------------------------------------------------------------
// Field errors (k8s.io/apimachinery/pkg/util/validation/field), shared by the configuration's
// validation and the plugins' args validators (`plugins/<name>/args.rs`).

pub(crate) fn invalid(path: &FieldPath, value: &str, detail: &str) -> ConfigError {
    ConfigError::Invalid {
        path: path.clone(),
        value: value.to_string(),
        detail: detail.to_string(),
    }
}

pub(crate) fn required(path: &FieldPath, detail: &str) -> ConfigError {
    ConfigError::Required {
        path: path.clone(),
        detail: detail.to_string(),
    }
}

pub(crate) fn duplicate(path: &FieldPath, value: &str) -> ConfigError {
    ConfigError::Duplicate {
        path: path.clone(),
        value: value.to_string(),
    }
}

pub(crate) fn forbidden(path: &FieldPath, detail: &str) -> ConfigError {
    ConfigError::Forbidden {
        path: path.clone(),
        detail: detail.to_string(),
    }
}

pub(crate) fn not_supported(path: &FieldPath, value: &str, supported: &[&str]) -> ConfigError {
    ConfigError::NotSupported {
        path: path.clone(),
        value: value.to_string(),
        supported: supported.iter().map(|s| s.to_string()).collect(),
    }
}

/// A string list as `encoding/json` prints it (`null` for a nil slice).
pub(crate) fn json_strings(v: Option<&[String]>) -> String {
    match v {
        None => "null".into(),
        Some(v) => format!("[{}]", v.iter().map(|s| json_quote(s)).collect::<Vec<_>>().join(",")),
    }
}

// ---------------------------------------------------------------------------------------------
// Name validation (k8s.io/apimachinery/pkg/util/validation).

pub(crate) fn label_name(path: &FieldPath, name: &str) -> Vec<ConfigError> {
    is_qualified_name(name)
        .into_iter()
        .map(|m| invalid(path, &go_quote(name), &m))
        .collect()
}
