//! Validation of a defaulted KubeSchedulerConfiguration, as kube-scheduler's
//! `ValidateKubeSchedulerConfiguration` does it, with its field paths and messages (one string
//! per field error, duplicates dropped, in upstream's order). Each plugin's args are validated
//! by its codec (`plugins/<name>/args.rs`), with the field-error constructors of
//! `framework::config_error`.

use super::decode::{Defaulted, DefaultedProfile, V1Args, GROUP_VERSION};
use super::{PluginSetCfg, PluginsCfg};
use crate::apimachinery::golang::{go_quote, json_compact, json_quote, sorted_json};
pub(crate) use crate::apimachinery::names::{is_extended_resource_name, is_qualified_name};
use crate::apimachinery::FieldPath;
use crate::framework::config_error::ConfigError;
use crate::framework::config_error::{duplicate, invalid, required};

fn dedupe(errs: Vec<ConfigError>) -> Vec<ConfigError> {
    let mut out: Vec<ConfigError> = Vec::with_capacity(errs.len());
    for e in errs {
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// ValidateKubeSchedulerConfiguration.

/// Plugins removed from kubescheduler.config.k8s.io/v1.
const INVALID_PLUGINS: &[&str] = &["AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"];

fn invalid_plugin_detail() -> String {
    format!(
        "was invalid in version {} (KubeSchedulerConfiguration is version {})",
        go_quote(GROUP_VERSION),
        go_quote(GROUP_VERSION)
    )
}

fn percentage(path: &FieldPath, p: Option<i32>, errs: &mut Vec<ConfigError>) {
    if let Some(p) = p {
        if !(0..=100).contains(&p) {
            errs.push(invalid(path, &p.to_string(), "not in valid range [0-100]"));
        }
    }
}

pub(crate) fn validate_config(cfg: &Defaulted) -> Vec<ConfigError> {
    let mut errs = Vec::new();
    // Client connection and leader election (component-base).
    if cfg.client_connection.burst < 0 {
        errs.push(invalid(
            &FieldPath::new("clientConnection").child("burst"),
            &cfg.client_connection.burst.to_string(),
            "must be non-negative",
        ));
    }
    let le = &cfg.leader_election;
    if le.leader_elect {
        let dur = |d: super::GoDuration| json_quote(&d.to_string());
        for (name, d) in [
            ("leaseDuration", le.lease_duration),
            ("renewDeadline", le.renew_deadline),
            ("retryPeriod", le.retry_period),
        ] {
            if d.0 <= 0 {
                errs.push(invalid(
                    &FieldPath::new("leaderElection").child(name),
                    &dur(d),
                    "must be greater than zero",
                ));
            }
        }
        if le.lease_duration < le.renew_deadline {
            errs.push(invalid(
                &FieldPath::new("leaderElection").child("leaseDuration"),
                &dur(le.renew_deadline),
                "LeaseDuration must be greater than RenewDeadline",
            ));
        }
        for (name, v) in [
            ("resourceLock", &le.resource_lock),
            ("resourceNamespace", &le.resource_namespace),
            ("resourceName", &le.resource_name),
        ] {
            if v.is_empty() {
                errs.push(invalid(
                    &FieldPath::new("leaderElection").child(name),
                    &go_quote(v),
                    &format!("{name} is required"),
                ));
            }
        }
        if le.resource_lock != "leases" {
            errs.push(invalid(
                &FieldPath::new("leaderElection").child("resourceLock"),
                &go_quote(&le.resource_lock),
                "resourceLock value must be \"leases\"",
            ));
        }
    }
    if cfg.parallelism <= 0 {
        errs.push(invalid(
            &FieldPath::new("parallelism"),
            &cfg.parallelism.to_string(),
            "should be an integer value greater than zero",
        ));
    }
    if cfg.profiles.is_empty() {
        errs.push(required(&FieldPath::new("profiles"), ""));
    } else {
        let mut existing: Vec<&str> = Vec::new();
        for (i, p) in cfg.profiles.iter().enumerate() {
            let path = FieldPath::new("profiles").index(i);
            validate_profile(&path, p, &mut errs);
            if existing.contains(&p.scheduler_name.as_str()) {
                // The duplicate's "value" is a field path, which JSON-encodes as `{}`.
                errs.push(duplicate(&path.child("schedulerName"), "{}"));
            }
            existing.push(&p.scheduler_name);
        }
        common_queue_sort(&cfg.profiles, &mut errs);
    }
    percentage(
        &FieldPath::new("percentageOfNodesToScore"),
        Some(cfg.percentage_of_nodes_to_score),
        &mut errs,
    );
    if cfg.pod_initial_backoff_seconds <= 0 {
        errs.push(invalid(
            &FieldPath::new("podInitialBackoffSeconds"),
            &cfg.pod_initial_backoff_seconds.to_string(),
            "must be greater than 0",
        ));
    }
    if cfg.pod_max_backoff_seconds < cfg.pod_initial_backoff_seconds {
        errs.push(invalid(
            &FieldPath::new("podMaxBackoffSeconds"),
            &cfg.pod_max_backoff_seconds.to_string(),
            "must be greater than or equal to PodInitialBackoffSeconds",
        ));
    }
    extenders(cfg, &mut errs);
    dedupe(errs)
}

fn validate_profile(path: &FieldPath, p: &DefaultedProfile, errs: &mut Vec<ConfigError>) {
    if p.scheduler_name.is_empty() {
        errs.push(required(&path.child("schedulerName"), ""));
    }
    percentage(&path.child("percentageOfNodesToScore"), p.percentage_of_nodes_to_score, errs);
    // Removed plugins at the specific extension points (multiPoint is not checked here).
    let plugins_path = path.child("plugins");
    let stages: [(&str, &PluginSetCfg); 12] = [
        ("preEnqueue", &p.plugins.pre_enqueue),
        ("queueSort", &p.plugins.queue_sort),
        ("preFilter", &p.plugins.pre_filter),
        ("filter", &p.plugins.filter),
        ("postFilter", &p.plugins.post_filter),
        ("preScore", &p.plugins.pre_score),
        ("score", &p.plugins.score),
        ("reserve", &p.plugins.reserve),
        ("permit", &p.plugins.permit),
        ("preBind", &p.plugins.pre_bind),
        ("bind", &p.plugins.bind),
        ("postBind", &p.plugins.post_bind),
    ];
    for (stage, set) in stages {
        for (i, pl) in set.enabled.iter().enumerate() {
            if INVALID_PLUGINS.contains(&pl.name.as_str()) {
                errs.push(invalid(
                    &plugins_path.child(stage).child("enabled").index(i),
                    &go_quote(&pl.name),
                    &invalid_plugin_detail(),
                ));
            }
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for (j, (name, args)) in p.plugin_config.iter().enumerate() {
        let pc_path = path.child("pluginConfig").index(j);
        if seen.contains(&name.as_str()) {
            errs.push(duplicate(&pc_path, &go_quote(name)));
        } else {
            seen.push(name);
        }
        if INVALID_PLUGINS.contains(&name.as_str()) {
            errs.push(invalid(&pc_path, &go_quote(name), &invalid_plugin_detail()));
            continue;
        }
        // Typed args are validated by their plugin's codec.
        if let V1Args::Typed(a) = args {
            errs.extend(a.validate(&pc_path.child("args")));
        }
    }
}

/// Semantic equality of two plugin sets (an unset weight is 0; empty and missing lists agree).
fn same_set(a: &PluginSetCfg, b: &PluginSetCfg) -> bool {
    a.disabled == b.disabled
        && a.enabled.len() == b.enabled.len()
        && a.enabled
            .iter()
            .zip(&b.enabled)
            .all(|(x, y)| x.name == y.name && x.weight.unwrap_or(0) == y.weight.unwrap_or(0))
}

/// The internal PluginSet as `encoding/json` prints it (it has no JSON tags).
fn set_json(s: &PluginSetCfg) -> String {
    let enabled = if s.enabled.is_empty() {
        "null".to_string()
    } else {
        let items: Vec<String> = s
            .enabled
            .iter()
            .map(|p| format!("{{\"Name\":{},\"Weight\":{}}}", json_quote(&p.name), p.weight.unwrap_or(0)))
            .collect();
        format!("[{}]", items.join(","))
    };
    let disabled = if s.disabled.is_empty() {
        "null".to_string()
    } else {
        let items: Vec<String> = s
            .disabled
            .iter()
            .map(|n| format!("{{\"Name\":{},\"Weight\":0}}", json_quote(n)))
            .collect();
        format!("[{}]", items.join(","))
    };
    format!("{{\"Enabled\":{enabled},\"Disabled\":{disabled}}}")
}

fn args_json(a: Option<&V1Args>) -> String {
    match a {
        None | Some(V1Args::Unknown(None)) => "null".into(),
        Some(V1Args::Unknown(Some(v))) => json_compact(&sorted_json(v)),
        Some(_) => "{}".into(),
    }
}

fn same_args(a: Option<&V1Args>, b: Option<&V1Args>) -> bool {
    let norm = |x: Option<&V1Args>| match x {
        None => V1Args::Unknown(None),
        Some(v) => v.clone(),
    };
    norm(a) == norm(b)
}

fn common_queue_sort(profiles: &[DefaultedProfile], errs: &mut Vec<ConfigError>) {
    let first: &PluginsCfg = &profiles[0].plugins;
    let canon = &first.queue_sort;
    let name = canon.enabled.first().map(|p| p.name.clone()).unwrap_or_default();
    if canon.enabled.len() > 1 {
        errs.push(invalid(
            &FieldPath::new("profiles")
                .index(0)
                .child("plugins")
                .child("queueSort")
                .child("Enabled"),
            &canon.enabled.len().to_string(),
            "only one queue sort plugin can be enabled",
        ));
    }
    let mut canon_args: Option<&V1Args> = None;
    for (n, a) in &profiles[0].plugin_config {
        if !name.is_empty() && *n == name {
            canon_args = Some(a);
        }
    }
    for (i, p) in profiles.iter().enumerate().skip(1) {
        let curr = &p.plugins.queue_sort;
        if !same_set(canon, curr) {
            errs.push(invalid(
                &FieldPath::new("profiles").index(i).child("plugins").child("queueSort"),
                &set_json(curr),
                "must be the same for all profiles",
            ));
        }
        for (n, a) in &p.plugin_config {
            if *n == name && !same_args(canon_args, Some(a)) {
                errs.push(invalid(
                    &FieldPath::new("profiles").index(i).child("pluginConfig").child("args"),
                    &args_json(Some(a)),
                    "queueSort must be the same for all profiles",
                ));
            }
        }
    }
}

fn extenders(cfg: &Defaulted, errs: &mut Vec<ConfigError>) {
    let mut binders = 0;
    let mut managed: Vec<&str> = Vec::new();
    for (i, e) in cfg.extenders.iter().enumerate() {
        let path = FieldPath::new("extenders").index(i);
        if !e.prioritize_verb.is_empty() && e.weight <= 0 {
            errs.push(invalid(
                &path.child("weight"),
                &e.weight.to_string(),
                "must have a positive weight applied to it",
            ));
        }
        if !e.bind_verb.is_empty() {
            binders += 1;
        }
        for (j, r) in e.managed_resources.iter().enumerate() {
            let p = path.child("managedResources").index(j).child("name");
            let name_errs = is_qualified_name(&r.name);
            if !name_errs.is_empty() {
                errs.extend(name_errs.iter().map(|m| invalid(&p, &json_quote(&r.name), m)));
            } else if !is_extended_resource_name(&r.name) {
                errs.push(invalid(&p, &go_quote(&r.name), "is an invalid extended resource name"));
            }
            if managed.contains(&r.name.as_str()) {
                errs.push(invalid(&p, &go_quote(&r.name), "duplicate extender managed resource name"));
            }
            managed.push(&r.name);
        }
    }
    if binders > 1 {
        errs.push(invalid(
            &FieldPath::new("extenders"),
            &go_quote(&format!("found {binders} extenders implementing bind")),
            "only one extender can implement bind",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apimachinery::names::is_valid_label_value;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn qualified_names() {
        assert!(is_qualified_name("kubernetes.io/hostname").is_empty());
        assert!(is_qualified_name("topology.kubernetes.io/zone").is_empty());
        assert!(is_qualified_name("a").is_empty());
        assert_eq!(
            is_qualified_name("bad key"),
            vec!["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string()]
        );
        assert_eq!(is_qualified_name("/x"), vec!["prefix part must be non-empty".to_string()]);
        assert_eq!(
            is_qualified_name("Foo.com/x"),
            vec!["prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string()]
        );
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert!(is_qualified_name("a/b/c")[0].starts_with("a qualified name must consist of"));
        assert_eq!(is_qualified_name("").len(), 2);
        assert_eq!(
            is_qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 characters".to_string()]
        );
        assert!(is_valid_label_value("").is_empty());
        assert!(is_valid_label_value("general").is_empty());
        assert_eq!(is_valid_label_value("-x").len(), 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn extended_resource_names() {
        assert!(is_extended_resource_name("example.com/gpu"));
        assert!(!is_extended_resource_name("cpu"));
        assert!(!is_extended_resource_name("kubernetes.io/foo"));
        assert!(!is_extended_resource_name("requests.example.com/gpu"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn aggregate_text() {
        use crate::framework::config_error::aggregate_text;
        let a = required(&FieldPath::new("a"), "");
        let b = required(&FieldPath::new("b"), "");
        assert_eq!(aggregate_text(std::slice::from_ref(&a)), "a: Required value");
        assert_eq!(aggregate_text(&[a.clone(), b, a]), "[a: Required value, b: Required value]");
    }
}
