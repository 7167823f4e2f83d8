//! The effective configuration as kube-scheduler prints it (`--write-config-to`, or the
//! "Using component config" log line): the defaulted v1 KubeSchedulerConfiguration, each
//! profile's merged plugins and, for every in-tree plugin the profile uses, its args (printed by
//! the plugin's args codec, or as given for a plugin without an args kind), sorted by plugin
//! name.

use super::decode::GROUP_VERSION;
use super::*;
use crate::apimachinery::golang::sorted_json;
use serde_json::{json, Map, Value};

fn plugin_set_json(s: &PluginSetCfg) -> Value {
    let mut m = Map::new();
    if !s.enabled.is_empty() {
        m.insert(
            "enabled".into(),
            Value::Array(
                s.enabled
                    .iter()
                    .map(|p| json!({"name": p.name, "weight": p.weight.unwrap_or(0)}))
                    .collect(),
            ),
        );
    }
    if !s.disabled.is_empty() {
        m.insert(
            "disabled".into(),
            Value::Array(s.disabled.iter().map(|n| json!({"name": n, "weight": 0})).collect()),
        );
    }
    Value::Object(m)
}

fn plugins_json(p: &PluginsCfg) -> Value {
    json!({
        "preEnqueue": plugin_set_json(&p.pre_enqueue),
        "queueSort": plugin_set_json(&p.queue_sort),
        "preFilter": plugin_set_json(&p.pre_filter),
        "filter": plugin_set_json(&p.filter),
        "postFilter": plugin_set_json(&p.post_filter),
        "preScore": plugin_set_json(&p.pre_score),
        "score": plugin_set_json(&p.score),
        "reserve": plugin_set_json(&p.reserve),
        "permit": plugin_set_json(&p.permit),
        "preBind": plugin_set_json(&p.pre_bind),
        "bind": plugin_set_json(&p.bind),
        "postBind": plugin_set_json(&p.post_bind),
        "multiPoint": plugin_set_json(&p.multi_point),
    })
}

fn profile_json(p: &Profile) -> Value {
    let mut m = Map::new();
    m.insert("schedulerName".into(), json!(p.scheduler_name));
    if let Some(pct) = p.percentage_of_nodes_to_score {
        m.insert("percentageOfNodesToScore".into(), json!(pct));
    }
    m.insert("plugins".into(), plugins_json(&p.plugins_config));
    let mut needed: Vec<PluginName> = p.needed_plugins();
    crate::sort::sort_by_key(&mut needed, |n| n.as_str());
    let mut pc = Vec::new();
    for n in needed {
        let args = match IN_TREE.get(n).args {
            Some(codec) => Some(codec.print(&p.args)),
            None => p.extra_plugin_args.get(n.as_str()).map(sorted_json),
        };
        if let Some(args) = args {
            pc.push(json!({"name": n.as_str(), "args": args}));
        }
    }
    if !pc.is_empty() {
        m.insert("pluginConfig".into(), Value::Array(pc));
    }
    Value::Object(m)
}

fn extender_json(e: &ExtenderConfig) -> Value {
    let mut m = Map::new();
    m.insert("urlPrefix".into(), json!(e.url_prefix));
    for (k, v) in [
        ("filterVerb", &e.filter_verb),
        ("preemptVerb", &e.preempt_verb),
        ("prioritizeVerb", &e.prioritize_verb),
        ("bindVerb", &e.bind_verb),
    ] {
        if !v.is_empty() {
            m.insert(k.into(), json!(v));
        }
    }
    if e.weight != 0 {
        m.insert("weight".into(), json!(e.weight));
    }
    if e.enable_https {
        m.insert("enableHTTPS".into(), json!(true));
    }
    if let Some(t) = &e.tls_config {
        let mut tm = Map::new();
        if t.insecure {
            tm.insert("insecure".into(), json!(true));
        }
        for (k, v) in [
            ("serverName", &t.server_name),
            ("certFile", &t.cert_file),
            ("keyFile", &t.key_file),
            ("caFile", &t.ca_file),
            ("certData", &t.cert_data),
            ("keyData", &t.key_data),
            ("caData", &t.ca_data),
        ] {
            if !v.is_empty() {
                tm.insert(k.into(), json!(v));
            }
        }
        m.insert("tlsConfig".into(), Value::Object(tm));
    }
    m.insert("httpTimeout".into(), json!(e.http_timeout.to_string()));
    if e.node_cache_capable {
        m.insert("nodeCacheCapable".into(), json!(true));
    }
    if !e.managed_resources.is_empty() {
        let list: Vec<Value> = e
            .managed_resources
            .iter()
            .map(|r| {
                let mut rm = Map::new();
                rm.insert("name".into(), json!(r.name));
                if r.ignored_by_scheduler {
                    rm.insert("ignoredByScheduler".into(), json!(true));
                }
                Value::Object(rm)
            })
            .collect();
        m.insert("managedResources".into(), Value::Array(list));
    }
    if e.ignorable {
        m.insert("ignorable".into(), json!(true));
    }
    Value::Object(m)
}

/// A float32 as Go's JSON encoder prints it (shortest form that round-trips as a float32).
fn f32_json(f: f32) -> Value {
    format!("{f}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

impl SchedulerConfig {
    /// The effective configuration as a v1 KubeSchedulerConfiguration JSON object.
    pub fn to_effective_json(&self) -> Value {
        let le = &self.leader_election;
        let cc = &self.client_connection;
        let mut m = Map::new();
        m.insert("apiVersion".into(), json!(GROUP_VERSION));
        m.insert("kind".into(), json!("KubeSchedulerConfiguration"));
        m.insert("parallelism".into(), json!(self.parallelism));
        m.insert(
            "leaderElection".into(),
            json!({
                "leaderElect": le.leader_elect,
                "leaseDuration": le.lease_duration.to_string(),
                "renewDeadline": le.renew_deadline.to_string(),
                "retryPeriod": le.retry_period.to_string(),
                "resourceLock": le.resource_lock,
                "resourceName": le.resource_name,
                "resourceNamespace": le.resource_namespace,
            }),
        );
        m.insert(
            "clientConnection".into(),
            json!({
                "kubeconfig": cc.kubeconfig,
                "acceptContentTypes": cc.accept_content_types,
                "contentType": cc.content_type,
                "qps": f32_json(cc.qps),
                "burst": cc.burst,
            }),
        );
        m.insert("enableProfiling".into(), json!(self.enable_profiling));
        m.insert("enableContentionProfiling".into(), json!(self.enable_contention_profiling));
        m.insert("percentageOfNodesToScore".into(), json!(self.percentage_of_nodes_to_score));
        m.insert("podInitialBackoffSeconds".into(), json!(self.pod_initial_backoff_seconds));
        m.insert("podMaxBackoffSeconds".into(), json!(self.pod_max_backoff_seconds));
        m.insert("profiles".into(), Value::Array(self.profiles.iter().map(profile_json).collect()));
        if !self.extenders.is_empty() {
            m.insert("extenders".into(), Value::Array(self.extenders.iter().map(extender_json).collect()));
        }
        if self.delay_cache_until_active {
            m.insert("delayCacheUntilActive".into(), json!(true));
        }
        sorted_json(&Value::Object(m))
    }

    /// The effective configuration as kube-scheduler prints it (YAML, keys sorted).
    pub fn to_effective_yaml(&self) -> String {
        yaml::to_yaml(&self.to_effective_json())
    }
}
