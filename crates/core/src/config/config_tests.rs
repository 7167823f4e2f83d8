//! Table-driven tests of the whole configuration pipeline: decoding errors, defaults,
//! validation errors, framework construction (expansion) and the effective configuration.
//! Each plugin's args validation is tested beside it (`plugins/<name>/args.rs`).

use super::*;
use crate::plugins::default_preemption::args::DefaultPreemptionArgs;
use crate::plugins::dynamic_resources::args::DynamicResourcesArgs;
use crate::plugins::inter_pod_affinity::args::InterPodAffinityArgs;
use crate::plugins::node_affinity::args::NodeAffinityArgs;
use crate::plugins::node_resources_balanced_allocation::args::NodeResourcesBalancedAllocationArgs;
use crate::plugins::node_resources_fit::args::{NodeResourcesFitArgs, ScoringStrategyType};
use crate::plugins::pod_topology_spread::args::{DefaultingType, PodTopologySpreadArgs};
use crate::plugins::volume_binding::args::VolumeBindingArgs;

const HEAD: &str = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

/// The documents of a YAML text, read as the loader reads them.
fn documents(text: &str) -> Vec<crate::load::yaml::YNode<'_>> {
    let (docs, errs) = crate::load::yaml::read_documents(text);
    assert!(errs.is_empty(), "bad test YAML: {errs:?}\n{text}");
    docs
}

fn decode_typed(body: &str) -> Result<SchedulerConfig, Vec<ConfigError>> {
    let text = format!("{HEAD}{body}");
    decode::decode_json(
        &documents(&text)[0].to_json(),
        &crate::version::Features::new(crate::version::KubeVersion::V1_34),
    )
}

fn decode(body: &str) -> Result<SchedulerConfig, Vec<String>> {
    decode_typed(body).map_err(|errs| errs.iter().map(ToString::to_string).collect())
}

fn ok(body: &str) -> SchedulerConfig {
    decode(body).unwrap_or_else(|e| panic!("unexpected errors {e:#?} for\n{body}"))
}

fn errs(body: &str) -> Vec<String> {
    match decode(body) {
        Ok(_) => panic!("expected errors for\n{body}"),
        Err(e) => e,
    }
}

/// Decodes an effective configuration (it carries its own apiVersion and kind).
fn decode_effective(yaml: &str) -> SchedulerConfig {
    decode::decode_json(
        &documents(yaml)[0].to_json(),
        &crate::version::Features::new(crate::version::KubeVersion::V1_34),
    )
    .unwrap()
}

/// Each case (what, body, error): decoding the body fails with exactly that error.
fn assert_single_errors(cases: &[(&str, &str, &str)]) {
    for (what, body, want) in cases {
        assert_eq!(errs(body), vec![want.to_string()], "{what}");
    }
}

fn names(v: &[PluginName]) -> Vec<&'static str> {
    v.iter().map(|p| p.as_str()).collect()
}

/// A document whose only profile sets `plugins` (YAML as if at the top level).
fn with_plugins(plugins: &str) -> String {
    format!("profiles:\n- plugins:\n{}", indent(plugins, 4))
}

fn indent(yaml: &str, by: usize) -> String {
    yaml.lines().map(|l| format!("{:by$}{l}\n", "")).collect()
}

// ---------------------------------------------------------------------------------------------
// Decoding.

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn decoding_errors() {
    let cases: &[(&str, &str, &str)] = &[
        ("unknown top-level field", "foo: 1\n", "strict decoding error: unknown field \"foo\""),
        (
            "metadata is not part of the v1 type",
            "metadata:\n  name: x\n",
            "strict decoding error: unknown field \"metadata\"",
        ),
        (
            "bind addresses were removed from v1",
            "healthzBindAddress: 0.0.0.0:10251\n",
            "strict decoding error: unknown field \"healthzBindAddress\"",
        ),
        (
            "unknown field inside plugin args",
            "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        typo: 1\n",
            "strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin NodeResourcesFit: strict decoding error: unknown field \"scoringStrategy.typo\"",
        ),
        (
            "args of another registered kind",
            "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      kind: InterPodAffinityArgs\n",
            "decoding .profiles[0].pluginConfig[0]: args for plugin NodeResourcesFit were not of type NodeResourcesFitArgs.kubescheduler.config.k8s.io, got InterPodAffinityArgs.kubescheduler.config.k8s.io",
        ),
        (
            "args of an unregistered version",
            "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      apiVersion: kubescheduler.config.k8s.io/v1beta3\n",
            "decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: no kind \"NodeResourcesFitArgs\" is registered for version \"kubescheduler.config.k8s.io/v1beta3\" in scheme \"pkg/scheduler/apis/config/scheme/scheme.go:29\"",
        ),
        (
            "args of an unknown kind",
            "profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      kind: Foo\n",
            "decoding .profiles[0].pluginConfig[0]: decoding args for plugin VolumeBinding: no kind \"Foo\" is registered for version \"kubescheduler.config.k8s.io/v1\" in scheme \"pkg/scheduler/apis/config/scheme/scheme.go:29\"",
        ),
        (
            "invalid duration",
            "leaderElection:\n  leaseDuration: soon\n",
            "time: invalid duration \"soon\"",
        ),
        (
            "duration given as a number",
            "profiles:\n- pluginConfig:\n  - name: DynamicResources\n    args:\n      filterTimeout: 10\n",
            "decoding .profiles[0].pluginConfig[0]: decoding args for plugin DynamicResources: json: cannot unmarshal number into Go value of type string",
        ),
    ];
    assert_single_errors(cases);
    // Every unknown field is an error of its own (kube-scheduler joins them in one message),
    // those of the document first, then those of each args in turn, each in document order.
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "bind addresses were removed from v1",
            "healthzBindAddress: 0.0.0.0:10251\nmetricsBindAddress: 0.0.0.0:10251\n",
            &[
                "strict decoding error: unknown field \"healthzBindAddress\"",
                "strict decoding error: unknown field \"metricsBindAddress\"",
            ],
        ),
        (
            "nested unknown fields, in document order",
            "profiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled:\n      - name: ImageLocality\n        wieght: 2\n  foo: 1\nleaderElection:\n  leaderElection: true\n",
            &[
                "strict decoding error: unknown field \"profiles[0].plugins.score.enabled[0].wieght\"",
                "strict decoding error: unknown field \"profiles[0].foo\"",
                "strict decoding error: unknown field \"leaderElection.leaderElection\"",
            ],
        ),
        (
            "document and args errors together",
            "bogus: true\nprofiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args: {}\n  - name: DefaultPreemption\n    args:\n      minCandidateNodes: 1\n      other: 2\n",
            &[
                "strict decoding error: unknown field \"bogus\"",
                "strict decoding error: decoding .profiles[0].pluginConfig[1]: strict decoding error: decoding args for plugin DefaultPreemption: strict decoding error: unknown field \"minCandidateNodes\"",
                "strict decoding error: decoding .profiles[0].pluginConfig[1]: strict decoding error: decoding args for plugin DefaultPreemption: strict decoding error: unknown field \"other\"",
            ],
        ),
        (
            "unknown field inside a default constraint's label selector",
            "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints:\n      - maxSkew: 1\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n        labelSelector:\n          matchLabel: {app: x}\n",
            &[
                "strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin PodTopologySpread: strict decoding error: unknown field \"defaultConstraints[0].labelSelector.matchLabel\"",
            ],
        ),
    ];
    for (what, body, want) in cases {
        assert_eq!(errs(body), *want, "{what}");
    }
    // The paths the errors carry, from the document's root.
    let paths = |body: &str| -> Vec<String> { decode_typed(body).unwrap_err().iter().map(|e| e.path().render()).collect() };
    assert_eq!(
        paths("bogus: true\nprofiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        typo: 1\n"),
        ["bogus", "profiles[0].pluginConfig[0].args.scoringStrategy.typo"]
    );
    assert_eq!(paths("leaderElection:\n  leaseDuration: soon\n"), ["leaderElection.leaseDuration"]);
    // A type error is fatal and reported alone, with its field path.
    let e = errs("parallelism: many\nfoo: 1\n");
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("parallelism"), "{e:?}");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn accepted_documents() {
    // Explicit apiVersion/kind inside args, args for plugins without an args kind (kept as
    // given), a pluginConfig entry without args, nulls for lists.
    let c = ok("profiles:
- schedulerName: s
  pluginConfig:
  - name: InterPodAffinity
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: InterPodAffinityArgs
      hardPodAffinityWeight: 5
  - name: PrioritySort
    args:
      anything: [1, 2]
  - name: OutOfTree
    args:
      x: 1
  - name: DefaultPreemption
  plugins:
    score:
      enabled: null
extenders: null
");
    let p = &c.profiles[0];
    assert_eq!(p.args.get_or_default::<InterPodAffinityArgs>().hard_pod_affinity_weight, 5);
    assert_eq!(*p.args.get_or_default::<DefaultPreemptionArgs>(), DefaultPreemptionArgs::default());
    assert_eq!(p.extra_plugin_args["PrioritySort"], serde_json::json!({"anything": [1, 2]}));
    let y = c.to_effective_yaml();
    assert!(
        y.contains("  - args:\n      anything:\n      - 1\n      - 2\n    name: PrioritySort\n"),
        "{y}"
    );
    // Out-of-tree plugins are not instantiated, so their args are not printed.
    assert!(!y.contains("OutOfTree"), "{y}");
}

// ---------------------------------------------------------------------------------------------
// Defaults.

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn empty_document_is_the_default_configuration() {
    let v134 = SchedulerConfig::defaults(&crate::version::Features::new(crate::version::KubeVersion::V1_34));
    assert_eq!(ok(""), v134);
    assert_eq!(ok("profiles: []\n"), v134);
    assert_eq!(ok("profiles:\n- {}\n"), v134);
    let c = SchedulerConfig::default();
    assert_eq!(c.parallelism, 16);
    assert_eq!(c.percentage_of_nodes_to_score, 0);
    assert_eq!((c.pod_initial_backoff_seconds, c.pod_max_backoff_seconds), (1, 10));
    assert_eq!(c.profiles.len(), 1);
    assert_eq!(c.profiles[0].scheduler_name, "default-scheduler");
    assert_eq!(c.profiles[0].percentage_of_nodes_to_score, None);
    assert_eq!(c.profiles[0].args, PluginArgs::default());
    assert_eq!(
        c.profiles[0].args.get_or_default::<DynamicResourcesArgs>().filter_timeout_seconds,
        Some(10.0)
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn scalar_defaults_and_overrides() {
    let c = ok("parallelism: 4
percentageOfNodesToScore: 30
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
enableProfiling: false
delayCacheUntilActive: true
clientConnection:
  qps: 0
  burst: 7
leaderElection:
  leaderElect: false
  leaseDuration: 0s
  renewDeadline: 5s
profiles:
- schedulerName: a
  percentageOfNodesToScore: 70
");
    assert_eq!(c.parallelism, 4);
    assert_eq!(c.percentage_of_nodes_to_score, 30);
    assert_eq!((c.pod_initial_backoff_seconds, c.pod_max_backoff_seconds), (2, 20));
    assert!(!c.enable_profiling);
    assert!(!c.enable_contention_profiling, "contention profiling defaults to enableProfiling");
    assert!(c.delay_cache_until_active);
    assert_eq!(c.client_connection.qps, 50.0);
    assert_eq!(c.client_connection.burst, 7);
    assert!(!c.leader_election.leader_elect);
    assert_eq!(c.leader_election.lease_duration, GoDuration::from_secs(15), "0s counts as unset");
    assert_eq!(c.leader_election.renew_deadline, GoDuration::from_secs(5));
    assert_eq!(c.leader_election.resource_lock, "leases");
    assert_eq!(c.profiles[0].scheduler_name, "a");
    assert_eq!(c.profiles[0].percentage_of_nodes_to_score, Some(70));
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn plugin_args_defaults() {
    let c = ok("profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      ignoredResources: [example.com/foo]
      scoringStrategy:
        type: MostAllocated
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
      - name: cpu
      - name: example.com/gpu
        weight: 0
  - name: DefaultPreemption
    args:
      minCandidateNodesAbsolute: 5
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - maxSkew: 2
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
        minDomains: 3
  - name: VolumeBinding
    args:
      bindTimeoutSeconds: 30
  - name: DynamicResources
    args:
      filterTimeout: 1m30s
  - name: NodeAffinity
    args:
      addedAffinity:
        preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 3
          preference:
            matchExpressions:
            - key: pool
              operator: In
              values: [a]
");
    let a = &c.profiles[0].args;
    assert_eq!(
        a.get_or_default::<NodeResourcesFitArgs>().ignored_resources,
        vec!["example.com/foo".to_string()]
    );
    assert_eq!(
        a.get_or_default::<NodeResourcesFitArgs>().scoring_strategy.kind,
        ScoringStrategyType::MostAllocated
    );
    assert_eq!(
        a.get_or_default::<NodeResourcesFitArgs>().scoring_strategy.resources,
        default_resource_spec()
    );
    assert_eq!(
        a.get_or_default::<NodeResourcesBalancedAllocationArgs>().resources,
        vec![
            ResourceSpec {
                name: "cpu".into(),
                weight: 1
            },
            ResourceSpec {
                name: "example.com/gpu".into(),
                weight: 1
            }
        ]
    );
    assert_eq!(a.get_or_default::<DefaultPreemptionArgs>().min_candidate_nodes_percentage, 10);
    assert_eq!(a.get_or_default::<DefaultPreemptionArgs>().min_candidate_nodes_absolute, 5);
    assert_eq!(a.get_or_default::<PodTopologySpreadArgs>().defaulting_type, DefaultingType::List);
    let dc = &a.get::<PodTopologySpreadArgs>().unwrap().default_constraints[0];
    assert_eq!(
        (
            dc.max_skew,
            dc.topology_key.as_str(),
            dc.when_unsatisfiable.as_str(),
            dc.min_domains
        ),
        (2, "topology.kubernetes.io/zone", "ScheduleAnyway", Some(3))
    );
    assert_eq!(a.get_or_default::<VolumeBindingArgs>().bind_timeout_seconds, 30);
    assert_eq!(a.get_or_default::<DynamicResourcesArgs>().filter_timeout_seconds, Some(90.0));
    let aff = a.get::<NodeAffinityArgs>().unwrap().added_affinity.as_ref().unwrap();
    assert_eq!(aff.preferred_during_scheduling_ignored_during_execution[0].weight, 3);
    // Untouched plugins keep their defaults.
    assert_eq!(*a.get_or_default::<InterPodAffinityArgs>(), InterPodAffinityArgs::default());
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn default_args_only_for_enabled_plugins() {
    let c = ok("profiles:
- plugins:
    multiPoint:
      disabled:
      - name: NodeResourcesFit
      - name: VolumeBinding
");
    let y = c.to_effective_yaml();
    assert!(!y.contains("NodeResourcesFitArgs"), "{y}");
    assert!(!y.contains("VolumeBindingArgs"), "{y}");
    assert!(y.contains("InterPodAffinityArgs"), "{y}");
    let p = &c.profiles[0];
    assert!(!p.plugins.filter.contains(&PluginName::NodeResourcesFit));
    assert!(!p.needed_plugins().contains(&PluginName::VolumeBinding));
}

// ---------------------------------------------------------------------------------------------
// Validation.

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn validation_errors() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "parallelism",
            "parallelism: 0\n",
            &["parallelism: Invalid value: 0: should be an integer value greater than zero"],
        ),
        (
            "global percentage",
            "percentageOfNodesToScore: 101\n",
            &["percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"],
        ),
        (
            "profile percentage",
            "profiles:\n- percentageOfNodesToScore: -1\n",
            &["profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]"],
        ),
        (
            "initial backoff",
            "podInitialBackoffSeconds: -1\n",
            &["podInitialBackoffSeconds: Invalid value: -1: must be greater than 0"],
        ),
        (
            "max backoff below initial",
            "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n",
            &["podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds"],
        ),
        (
            "profile names: missing (several profiles) and duplicated",
            "profiles:\n- schedulerName: a\n- {}\n- schedulerName: a\n",
            &[
                "profiles[1].schedulerName: Required value",
                "profiles[2].schedulerName: Duplicate value: {}",
            ],
        ),
        (
            "different queueSort sets",
            "profiles:\n- schedulerName: a\n- schedulerName: b\n  plugins:\n    queueSort:\n      enabled:\n      - name: PrioritySort\n",
            &["profiles[1].plugins.queueSort: Invalid value: {\"Enabled\":[{\"Name\":\"PrioritySort\",\"Weight\":0}],\"Disabled\":null}: must be the same for all profiles"],
        ),
        (
            "several queueSort plugins",
            "profiles:\n- plugins:\n    queueSort:\n      enabled:\n      - name: PrioritySort\n      - name: Other\n",
            &["profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled"],
        ),
        (
            "different queueSort args",
            "profiles:
- schedulerName: a
  plugins:
    queueSort:
      enabled: [{name: PrioritySort}]
  pluginConfig:
  - name: PrioritySort
    args: {x: 1}
- schedulerName: b
  plugins:
    queueSort:
      enabled: [{name: PrioritySort}]
  pluginConfig:
  - name: PrioritySort
    args: {y: 2, x: 1}
",
            &["profiles[1].pluginConfig.args: Invalid value: {\"x\":1,\"y\":2}: queueSort must be the same for all profiles"],
        ),
        (
            "duplicate pluginConfig",
            "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n  - name: NodeAffinity\n",
            &["profiles[0].pluginConfig[1]: Duplicate value: \"NodeAffinity\""],
        ),
        (
            "leader election",
            "leaderElection:\n  leaseDuration: -1s\n  resourceLock: endpointsleases\n",
            &[
                "leaderElection.leaseDuration: Invalid value: \"-1s\": must be greater than zero",
                "leaderElection.leaseDuration: Invalid value: \"10s\": LeaseDuration must be greater than RenewDeadline",
                "leaderElection.resourceLock: Invalid value: \"endpointsleases\": resourceLock value must be \"leases\"",
            ],
        ),
        (
            "client connection",
            "clientConnection:\n  burst: -1\n",
            &["clientConnection.burst: Invalid value: -1: must be non-negative"],
        ),
        (
            "extenders",
            "extenders:
- urlPrefix: http://a
  prioritizeVerb: prioritize
  bindVerb: bind
  managedResources:
  - name: example.com/gpu
  - name: cpu
- urlPrefix: http://b
  bindVerb: bind
  weight: 1
  managedResources:
  - name: example.com/gpu
  - name: a/b/c
",
            &[
                "extenders[0].weight: Invalid value: 0: must have a positive weight applied to it",
                "extenders[0].managedResources[1].name: Invalid value: \"cpu\": is an invalid extended resource name",
                "extenders[1].managedResources[0].name: Invalid value: \"example.com/gpu\": duplicate extender managed resource name",
                "extenders[1].managedResources[1].name: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                "extenders: Invalid value: \"found 2 extenders implementing bind\": only one extender can implement bind",
            ],
        ),
        (
            "every error is reported, in upstream order",
            "parallelism: -1\npercentageOfNodesToScore: -5\nprofiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n      hardPodAffinityWeight: -1\n",
            &[
                "parallelism: Invalid value: -1: should be an integer value greater than zero",
                "profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]",
                "percentageOfNodesToScore: Invalid value: -5: not in valid range [0-100]",
            ],
        ),
        (
            "unknown field inside a default constraint's label selector",
            "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints:\n      - maxSkew: 1\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n        labelSelector:\n          matchLabel: {app: x}\n",
            &[
                "strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin PodTopologySpread: strict decoding error: unknown field \"defaultConstraints[0].labelSelector.matchLabel\"",
            ],
        ),
    ];
    for (what, body, want) in cases {
        assert_eq!(errs(body), *want, "{what}");
    }
    // Plugins removed from v1 (the message names the version).
    let invalid_in_v1 = "was invalid in version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version \"kubescheduler.config.k8s.io/v1\")";
    assert_eq!(
        errs("profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: NodeName\n      - name: EBSLimits\n  pluginConfig:\n  - name: GCEPDLimits\n"),
        [
            format!("profiles[0].plugins.filter.enabled[1]: Invalid value: \"EBSLimits\": {invalid_in_v1}"),
            format!("profiles[0].pluginConfig[0]: Invalid value: \"GCEPDLimits\": {invalid_in_v1}"),
        ],
        "removed plugins"
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn validation_passes_for_valid_args() {
    ok("leaderElection:\n  leaderElect: false\n  resourceLock: endpoints\n");
    ok("profiles:
- pluginConfig:
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: DoNotSchedule
      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: ScheduleAnyway
  - name: DynamicResources
    args:
      filterTimeout: 0s
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 0
      minCandidateNodesAbsolute: 1
");
}

// ---------------------------------------------------------------------------------------------
// Building the frameworks (kube-scheduler's plugin instantiation and framework checks).

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn framework_errors() {
    let prefix = "initializing profiles: creating profile for scheduler name default-scheduler: ";
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "unknown plugin at an extension point",
            with_plugins("filter:\n  enabled:\n  - name: Foo"),
            "FilterPlugin \"Foo\" does not exist",
        ),
        (
            "unknown plugin in multiPoint: the first extension point reports it",
            with_plugins("multiPoint:\n  enabled:\n  - name: Foo"),
            "PreFilterPlugin \"Foo\" does not exist",
        ),
        (
            "plugin that does not implement the extension point",
            with_plugins("filter:\n  enabled:\n  - name: ImageLocality"),
            "plugin \"ImageLocality\" does not extend FilterPlugin plugin",
        ),
        (
            "plugin listed twice at an extension point",
            with_plugins("filter:\n  enabled:\n  - name: NodeName\n  - name: NodeName"),
            "plugin \"NodeName\" already registered as \"FilterPlugin\"",
        ),
        (
            "a negative score weight: Go's wrapping arithmetic reports an overflow at the next score plugin",
            with_plugins("score:\n  enabled:\n  - name: TaintToleration\n    weight: -7"),
            "total score of Score plugins could overflow",
        ),
        (
            "plugin listed twice in multiPoint",
            with_plugins("multiPoint:\n  enabled:\n  - name: NodeName\n  - name: NodeName"),
            "plugin \"NodeName\" already registered as \"FilterPlugin\"",
        ),
        (
            "no queue sort plugin",
            with_plugins("multiPoint:\n  disabled:\n  - name: PrioritySort"),
            "only one queue sort plugin required for profile with scheduler name \"default-scheduler\", but got 0",
        ),
        (
            "no bind plugin",
            with_plugins("multiPoint:\n  disabled:\n  - name: '*'\nqueueSort:\n  enabled:\n  - name: PrioritySort"),
            "at least one bind plugin is needed for profile with scheduler name \"default-scheduler\"",
        ),
    ];
    for (what, body, want) in cases {
        assert_eq!(errs(&body), vec![format!("{prefix}{want}")], "{what}");
    }
    // Errors outside a profile's framework.
    let cases: &[(&str, &str, &str)] = &[
        (
            "different queue sort args across profiles",
            "profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: PrioritySort\n    args: {x: 1}\n- schedulerName: b\n",
            "initializing profiles: different queue sort plugin args for profile \"b\"",
        ),
        (
            "extender ignored resources need NodeResourcesFit in every profile",
            "extenders:\n- urlPrefix: http://x\n  managedResources:\n  - name: example.com/gpu\n    ignoredByScheduler: true\nprofiles:\n- plugins:\n    multiPoint:\n      disabled:\n      - name: NodeResourcesFit\n",
            "couldn't build extenders: can't find NodeResourcesFitArgs in plugin config",
        ),
    ];
    assert_single_errors(cases);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn extender_ignored_resources_reach_fit() {
    let c = ok("extenders:\n- urlPrefix: http://x\n  managedResources:\n  - name: example.com/gpu\n    ignoredByScheduler: true\n  - name: example.com/fpga\n");
    assert_eq!(
        c.profiles[0].args.get_or_default::<NodeResourcesFitArgs>().ignored_resources,
        vec!["example.com/gpu".to_string()]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn expansion() {
    struct Case {
        what: &'static str,
        plugins: &'static str,
        check: fn(&Profile),
    }
    let cases = [
        Case {
            what: "corpus profile-plugin-weights: multiPoint re-weights, ImageLocality off for score",
            plugins: "multiPoint:\n  enabled:\n  - name: NodeResourcesFit\n    weight: 5\n  - name: TaintToleration\n    weight: 1\nscore:\n  disabled:\n  - name: ImageLocality",
            check: |p| {
                assert_eq!(
                    names(&p.plugins.score),
                    [
                        "TaintToleration",
                        "NodeAffinity",
                        "NodeResourcesFit",
                        "VolumeBinding",
                        "PodTopologySpread",
                        "InterPodAffinity",
                        "NodeResourcesBalancedAllocation"
                    ]
                );
                let w: Vec<(&str, i32)> = p.plugins.score.iter().map(|n| (n.as_str(), p.weights[n])).collect();
                assert_eq!(
                    w,
                    [
                        ("TaintToleration", 1),
                        ("NodeAffinity", 2),
                        ("NodeResourcesFit", 5),
                        ("VolumeBinding", 1),
                        ("PodTopologySpread", 2),
                        ("InterPodAffinity", 2),
                        ("NodeResourcesBalancedAllocation", 1)
                    ]
                );
                // ImageLocality still has a (multiPoint) weight, it just does not score.
                assert_eq!(p.weights[&PluginName::ImageLocality], 1);
            },
        },
        Case {
            what: "score-specific weight wins over multiPoint and moves the plugin first",
            plugins: "score:\n  enabled:\n  - name: ImageLocality\n    weight: 7",
            check: |p| {
                assert_eq!(p.plugins.score[0], PluginName::ImageLocality);
                assert_eq!(p.plugins.score.len(), 8);
                assert_eq!(p.weights[&PluginName::ImageLocality], 7);
            },
        },
        Case {
            what: "weight 0 counts as 1",
            plugins: "multiPoint:\n  enabled:\n  - name: TaintToleration\n    weight: 0",
            check: |p| assert_eq!(p.weights[&PluginName::TaintToleration], 1),
        },
        Case {
            what: "a plugin disabled at one point keeps the others",
            plugins: "preScore:\n  disabled:\n  - name: TaintToleration\nfilter:\n  disabled:\n  - name: NodeAffinity",
            check: |p| {
                assert!(!p.plugins.pre_score.contains(&PluginName::TaintToleration));
                assert!(p.plugins.score.contains(&PluginName::TaintToleration));
                assert!(!p.plugins.filter.contains(&PluginName::NodeAffinity));
                assert!(p.plugins.pre_filter.contains(&PluginName::NodeAffinity));
            },
        },
        Case {
            what: "'*' at one point: only that point's explicit plugins",
            plugins: "score:\n  disabled:\n  - name: '*'\n  enabled:\n  - name: NodeResourcesFit\n    weight: 3",
            check: |p| {
                assert_eq!(names(&p.plugins.score), ["NodeResourcesFit"]);
                assert_eq!(p.weights[&PluginName::NodeResourcesFit], 3);
                assert_eq!(p.plugins.filter.len(), 13);
            },
        },
        Case {
            what: "explicit plugin not in multiPoint goes after the multiPoint ones",
            plugins: "multiPoint:\n  disabled:\n  - name: NodePorts\nfilter:\n  enabled:\n  - name: NodePorts",
            check: |p| {
                assert_eq!(p.plugins.filter.last(), Some(&PluginName::NodePorts));
                assert!(!p.plugins.pre_filter.contains(&PluginName::NodePorts));
            },
        },
        Case {
            what: "explicit plugin also in multiPoint goes first",
            plugins: "filter:\n  enabled:\n  - name: VolumeZone\n  - name: NodePorts",
            check: |p| {
                assert_eq!(names(&p.plugins.filter[..3]), ["VolumeZone", "NodePorts", "NodeUnschedulable"]);
                assert_eq!(p.plugins.filter.len(), 13);
            },
        },
        Case {
            what: "multiPoint '*' and a custom list",
            plugins: "multiPoint:\n  disabled:\n  - name: '*'\n  enabled:\n  - name: PrioritySort\n  - name: NodeName\n  - name: ImageLocality\n    weight: 4\n  - name: DefaultBinder",
            check: |p| {
                assert_eq!(names(&p.plugins.filter), ["NodeName"]);
                assert_eq!(names(&p.plugins.score), ["ImageLocality"]);
                assert!(p.plugins.pre_enqueue.is_empty() && p.plugins.post_filter.is_empty());
                assert_eq!(p.weights[&PluginName::ImageLocality], 4);
                assert_eq!(
                    names(&p.needed_plugins()),
                    ["DefaultBinder", "ImageLocality", "NodeName", "PrioritySort"]
                );
            },
        },
        Case {
            what: "a plugin disabled at every point it runs is still instantiated",
            plugins: "preFilter:\n  disabled:\n  - name: NodePorts\nfilter:\n  disabled:\n  - name: NodePorts",
            check: |p| {
                assert!(!p.plugins.all().contains(&PluginName::NodePorts));
                assert!(p.needed_plugins().contains(&PluginName::NodePorts));
            },
        },
    ];
    for c in cases {
        let cfg = ok(&with_plugins(c.plugins));
        let p = &cfg.profiles[0];
        (c.check)(p);
        // Every scoring plugin has a non-zero weight.
        for s in &p.plugins.score {
            assert_ne!(p.weights.get(s).copied().unwrap_or(0), 0, "{}", c.what);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The corpus configurations load and mean what they say.

fn corpus_config(name: &str) -> SchedulerConfig {
    // Embedded, so that the test also runs in wasm (no file system there).
    let text = match name {
        "nodeaffinity-added-affinity-config" => {
            include_str!("../../../../tests/conformance/scenarios/nodeaffinity-added-affinity-config.yaml")
        }
        "profile-plugin-weights" => include_str!("../../../../tests/conformance/scenarios/profile-plugin-weights.yaml"),
        "profiles-two-schedulers" => include_str!("../../../../tests/conformance/scenarios/profiles-two-schedulers.yaml"),
        "sample-window-zone-blocks" => include_str!("../../../../tests/conformance/scenarios/sample-window-zone-blocks.yaml"),
        "scale-batch-binpack" => include_str!("../../../../tests/conformance/scenarios/scale-batch-binpack.yaml"),
        "score-most-allocated-binpack" => include_str!("../../../../tests/conformance/scenarios/score-most-allocated-binpack.yaml"),
        "score-requested-to-capacity-ratio" => {
            include_str!("../../../../tests/conformance/scenarios/score-requested-to-capacity-ratio.yaml")
        }
        "spread-default-constraints-list" => include_str!("../../../../tests/conformance/scenarios/spread-default-constraints-list.yaml"),
        other => panic!("corpus file {other} is not embedded"),
    };
    for doc in documents(text) {
        if doc.get("kind").and_then(|k| k.as_str()) == Some("KubeSchedulerConfiguration") {
            return decode::decode_json(&doc.to_json(), &crate::version::Features::new(crate::version::KubeVersion::V1_34))
                .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        }
    }
    panic!("{name}: no configuration");
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn corpus_configurations() {
    let c = corpus_config("profiles-two-schedulers");
    assert_eq!(c.profiles.len(), 2);
    assert_eq!(c.profiles[1].scheduler_name, "binpack-scheduler");
    assert_eq!(
        c.profiles[1].args.get_or_default::<NodeResourcesFitArgs>().scoring_strategy.kind,
        ScoringStrategyType::MostAllocated
    );
    assert_eq!(
        c.profiles[0].args.get_or_default::<NodeResourcesFitArgs>().scoring_strategy.kind,
        ScoringStrategyType::LeastAllocated
    );
    let c = corpus_config("score-requested-to-capacity-ratio");
    let fit = c.profiles[0].args.get_or_default::<NodeResourcesFitArgs>();
    let s = &fit.scoring_strategy;
    assert_eq!(s.kind, ScoringStrategyType::RequestedToCapacityRatio);
    assert_eq!(
        s.shape,
        vec![
            UtilizationShapePoint { utilization: 0, score: 0 },
            UtilizationShapePoint {
                utilization: 50,
                score: 10
            },
            UtilizationShapePoint {
                utilization: 100,
                score: 0
            }
        ]
    );
    let c = corpus_config("spread-default-constraints-list");
    assert_eq!(
        c.profiles[0].args.get_or_default::<PodTopologySpreadArgs>().defaulting_type,
        DefaultingType::List
    );
    assert_eq!(
        c.profiles[0]
            .args
            .get_or_default::<PodTopologySpreadArgs>()
            .default_constraints
            .len(),
        1
    );
    let c = corpus_config("nodeaffinity-added-affinity-config");
    assert!(c.profiles[0].args.get_or_default::<NodeAffinityArgs>().added_affinity.is_some());
    assert_eq!(corpus_config("sample-window-zone-blocks").parallelism, 1);
    let c = corpus_config("scale-batch-binpack");
    assert_eq!(c.profiles[1].scheduler_name, "batch-scheduler");
    corpus_config("score-most-allocated-binpack");
    corpus_config("profile-plugin-weights");
}

// ---------------------------------------------------------------------------------------------
// The effective configuration.

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn effective_yaml_of_the_default_configuration() {
    let y = SchedulerConfig::default().to_effective_yaml();
    let head = "\
apiVersion: kubescheduler.config.k8s.io/v1
clientConnection:
  acceptContentTypes: \"\"
  burst: 100
  contentType: application/vnd.kubernetes.protobuf
  kubeconfig: \"\"
  qps: 50
enableContentionProfiling: true
enableProfiling: true
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  resourceLock: leases
  resourceName: kube-scheduler
  resourceNamespace: kube-system
  retryPeriod: 2s
parallelism: 16
percentageOfNodesToScore: 0
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 10
profiles:
- pluginConfig:
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesAbsolute: 100
      minCandidateNodesPercentage: 10
    name: DefaultPreemption
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      filterTimeout: 10s
      kind: DynamicResourcesArgs
    name: DynamicResources
";
    assert!(y.starts_with(head), "{y}");
    let tail = "\
      - name: DefaultBinder
        weight: 0
    permit: {}
    postBind: {}
    postFilter: {}
    preBind: {}
    preEnqueue: {}
    preFilter: {}
    preScore: {}
    queueSort: {}
    reserve: {}
    score: {}
  schedulerName: default-scheduler
";
    assert!(y.ends_with(tail), "{y}");
    // Every in-tree args kind the default profile uses, sorted by plugin name.
    let order: Vec<&str> = y.lines().filter_map(|l| l.strip_prefix("    name: ")).collect();
    assert_eq!(
        order,
        [
            "DefaultPreemption",
            "DynamicResources",
            "InterPodAffinity",
            "NodeAffinity",
            "NodeResourcesBalancedAllocation",
            "NodeResourcesFit",
            "PodTopologySpread",
            "VolumeBinding"
        ]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn effective_yaml_of_a_custom_configuration() {
    let c = ok("percentageOfNodesToScore: 40
profiles:
- schedulerName: binpack
  percentageOfNodesToScore: 20
  plugins:
    score:
      disabled:
      - name: ImageLocality
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources:
        - name: cpu
          weight: 3
        requestedToCapacityRatio:
          shape:
          - utilization: 0
            score: 0
          - utilization: 100
            score: 10
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: pool
              operator: In
              values: [general]
extenders:
- urlPrefix: http://127.0.0.1:8888
  filterVerb: filter
  managedResources:
  - name: example.com/gpu
    ignoredByScheduler: true
");
    let y = c.to_effective_yaml();
    let fit = "\
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      ignoredResources:
      - example.com/gpu
      kind: NodeResourcesFitArgs
      scoringStrategy:
        requestedToCapacityRatio:
          shape:
          - score: 0
            utilization: 0
          - score: 10
            utilization: 100
        resources:
        - name: cpu
          weight: 3
        type: RequestedToCapacityRatio
    name: NodeResourcesFit
";
    assert!(y.contains(fit), "{y}");
    let spread = "\
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      defaultConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: ScheduleAnyway
      defaultingType: List
      kind: PodTopologySpreadArgs
    name: PodTopologySpread
";
    assert!(y.contains(spread), "{y}");
    let affinity = "\
  - args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - key: pool
              operator: In
              values:
              - general
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeAffinityArgs
    name: NodeAffinity
";
    assert!(y.contains(affinity), "{y}");
    let extenders = "\
extenders:
- filterVerb: filter
  httpTimeout: 0s
  managedResources:
  - ignoredByScheduler: true
    name: example.com/gpu
  urlPrefix: http://127.0.0.1:8888
";
    assert!(y.contains(extenders), "{y}");
    assert!(
        y.contains("    score:\n      disabled:\n      - name: ImageLocality\n        weight: 0\n"),
        "{y}"
    );
    assert!(y.contains("\nprofiles:\n- percentageOfNodesToScore: 20\n  pluginConfig:\n"), "{y}");
    assert!(y.contains("\npercentageOfNodesToScore: 40\n"), "{y}");
    assert!(y.contains("  schedulerName: binpack\n"), "{y}");
    // The effective configuration decodes back to the same configuration.
    let again = decode_effective(&y);
    assert_eq!(again.to_effective_yaml(), y);
    assert_eq!(again.profiles[0].args, c.profiles[0].args);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn effective_configuration_round_trips() {
    for body in [
        "",
        "profiles:\n- schedulerName: a\n- schedulerName: b\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n",
        "parallelism: 3\nleaderElection:\n  leaderElect: false\nclientConnection:\n  qps: 12.5\n",
    ] {
        let c = ok(body);
        let y = c.to_effective_yaml();
        let again = decode_effective(&y);
        assert_eq!(again.to_effective_yaml(), y, "{body}");
        for (a, b) in again.profiles.iter().zip(&c.profiles) {
            assert_eq!((&a.plugins, &a.weights, &a.args), (&b.plugins, &b.weights, &b.args), "{body}");
        }
    }
}
