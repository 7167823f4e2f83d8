//! Kubernetes versions: what each supported kube-scheduler version does differently, one file
//! per version (`v1_34.rs`, `v1_35.rs`), each holding one `Release` table.
//!
//! A run names its version (`KubeVersion`, the name shared with the page) and its feature
//! gates; together they are the run's `Features`, which the loader hands to the configuration
//! (default plugins and weights, which extension points a plugin has, args fields and their
//! gates), which hands them to every profile's plugins (their behaviour switches), and which
//! the engine reads for its queue rules. Nothing outside this module compares versions: code
//! reads a switch of the `Features` it was handed.
//!
//! Adding a version: a file `v1_NN.rs` with its `Release` (copy the newest, then change what
//! the new release changed, each with the upstream change that did it), its variant in
//! `schedlab_view::KubeVersion`, its arm in `release`; a behaviour no table expresses yet gets a
//! field in `Behaviour` (every existing file says what it does there) and the code that reads it.

mod gates;
mod v1_34;
mod v1_35;

pub use gates::{FeatureGates, Gate};
pub use schedlab_view::KubeVersion;

use crate::vocabulary::{ExtensionPoint, PluginName};

/// Everything one kube-scheduler minor version does differently from the others, as data.
#[derive(Debug, PartialEq, Eq)]
pub struct Release {
    pub version: KubeVersion,
    /// The patch release the conformance corpus of this version was recorded with.
    pub recorded_with: &'static str,
    /// Every feature gate this version knows that the scheduler reads, with its default.
    pub gates: &'static [(Gate, bool)],
    /// The default profile's plugins, in upstream's multiPoint order, with their score
    /// weights (`None`: no weight given, as upstream's table leaves it).
    pub default_plugins: &'static [(PluginName, Option<i32>)],
    /// Extension points a plugin's code has (its descriptor lists them) that this version's
    /// plugin does not implement: configuring the plugin there is refused as upstream refuses
    /// it, and multiPoint does not enable it there.
    pub missing_points: &'static [(PluginName, ExtensionPoint)],
    /// Fields of a plugin's v1 args kind that this version's kind does not have (`kind`,
    /// `field`): an unknown field there, as strict decoding reports it.
    pub missing_args_fields: &'static [(&'static str, &'static str)],
    pub behaviour: Behaviour,
    /// What this release changed since the one before, by switch, each with the upstream
    /// change that did it: what a comparison of two versions names as a difference's reason.
    /// (A gate whose default changed needs no line: its name and defaults say it.)
    pub changes: &'static [Change],
}

/// One change a release made: the switch it is, the upstream change, and what it does.
#[derive(Debug, PartialEq, Eq)]
pub struct Change {
    pub switch: Switch,
    /// `kubernetes#134740` (`None`: no pull request recorded here).
    pub upstream: Option<&'static str>,
    pub what: &'static str,
}

/// One thing a version's table decides, which can be taken from another version alone: what
/// "what changes if I upgrade?" toggles, one at a time, to find which change explains a
/// difference. Every field of `Behaviour`, every gate, and the tables of plugins each have one
/// (`Features::with_switch_from`; the version tests check that taking every differing switch
/// from another version gives that version's behaviour).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Switch {
    /// `Behaviour::taint_filter_reason`.
    TaintFilterReason,
    /// `Behaviour::binding_of_nominated_pod_moves_pods`.
    BindingOfNominatedPodMovesPods,
    /// The default profile's plugins and weights, and the extension points each plugin has
    /// (`default_plugins`, `missing_points`).
    Plugins,
    /// The fields each plugin's args kind has (`missing_args_fields`).
    ArgsFields,
    /// A feature gate's effective value.
    Gate(Gate),
}

impl Switch {
    /// A short name for data and messages: `TaintFilterReason`, `gate:SchedulerAsyncAPICalls`.
    pub fn name(self) -> String {
        match self {
            Switch::Gate(g) => format!("gate:{g}"),
            other => format!("{other:?}"),
        }
    }
}

/// Behaviour switches: how one version does something another version does differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Behaviour {
    /// TaintToleration's Filter reason.
    pub taint_filter_reason: TaintFilterReason,
    /// Whether the binding of a pod that had a nominated node reaches the queue as the
    /// deletion of a nominated pod too, moving unschedulable pods of equal or lower priority.
    pub binding_of_nominated_pod_moves_pods: bool,
}

/// How TaintToleration words the Filter rejection of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaintFilterReason {
    /// Names the first untolerated taint: `node(s) had untolerated taint {key: value}`.
    NamesTheTaint,
    /// One reason for every node: `node(s) had untolerated taint(s)`.
    Generic,
}

impl Release {
    /// A gate's default in this version (`None`: the version does not know the gate).
    pub fn gate_default(&self, g: Gate) -> Option<bool> {
        self.gates.iter().find(|(x, _)| *x == g).map(|&(_, on)| on)
    }

    /// Whether this version's `plugin` implements `point`, given that its code does.
    pub fn has_point(&self, plugin: PluginName, point: ExtensionPoint) -> bool {
        !self.missing_points.contains(&(plugin, point))
    }
}

/// The table of a version.
pub fn release(v: KubeVersion) -> &'static Release {
    match v {
        KubeVersion::V1_34 => &v1_34::RELEASE,
        KubeVersion::V1_35 => &v1_35::RELEASE,
    }
}

/// What a run reproduces: a version and its effective feature gates. Handed to the
/// configuration, to every plugin when it is built, and to the engine.
///
/// Code reads the version's switches through these accessors, never through the `Release`
/// directly: a comparison of two versions runs one version with a single switch taken from
/// the other (`with_switch_from`) to find which change explains a difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    release: &'static Release,
    gates: FeatureGates,
    /// Where the plugin tables (`Switch::Plugins`) and the args fields (`Switch::ArgsFields`)
    /// are read from: `release`, unless a switch was taken from another version.
    plugins: &'static Release,
    args_fields: &'static Release,
    behaviour: Behaviour,
}

impl Features {
    /// A version with its default gates.
    pub fn new(v: KubeVersion) -> Features {
        let release = release(v);
        Features::of(release, FeatureGates::defaults(release))
    }

    /// A version with `--feature-gates`-style settings over its defaults (`FeatureGates::parse`).
    pub fn with_gates(v: KubeVersion, settings: &str) -> Result<Features, String> {
        let release = release(v);
        Ok(Features::of(release, FeatureGates::parse(release, settings)?))
    }

    fn of(release: &'static Release, gates: FeatureGates) -> Features {
        Features {
            release,
            gates,
            plugins: release,
            args_fields: release,
            behaviour: release.behaviour,
        }
    }

    pub fn version(&self) -> KubeVersion {
        self.release.version
    }
    pub fn release(&self) -> &'static Release {
        self.release
    }
    pub fn behaviour(&self) -> Behaviour {
        self.behaviour
    }
    pub fn enabled(&self, g: Gate) -> bool {
        self.gates.enabled(g)
    }
    pub fn gates(&self) -> &FeatureGates {
        &self.gates
    }
    /// The default profile's plugins with their weights (`Release::default_plugins`).
    pub fn default_plugins(&self) -> &'static [(PluginName, Option<i32>)] {
        self.plugins.default_plugins
    }
    /// Whether the version's `plugin` implements `point`, given that its code does.
    pub fn has_point(&self, plugin: PluginName, point: ExtensionPoint) -> bool {
        self.plugins.has_point(plugin, point)
    }
    /// Fields of an args kind the version's kind lacks (`Release::missing_args_fields`).
    pub fn missing_args_fields(&self) -> &'static [(&'static str, &'static str)] {
        self.args_fields.missing_args_fields
    }

    /// The switches on which this run and `other` differ, in `Switch` order.
    pub fn differing_switches(&self, other: &Features) -> Vec<Switch> {
        let mut out = Vec::new();
        let (a, b) = (self.behaviour, other.behaviour);
        if a.taint_filter_reason != b.taint_filter_reason {
            out.push(Switch::TaintFilterReason);
        }
        if a.binding_of_nominated_pod_moves_pods != b.binding_of_nominated_pod_moves_pods {
            out.push(Switch::BindingOfNominatedPodMovesPods);
        }
        if self.plugins.default_plugins != other.plugins.default_plugins
            || self.plugins.missing_points != other.plugins.missing_points
        {
            out.push(Switch::Plugins);
        }
        if self.missing_args_fields() != other.missing_args_fields() {
            out.push(Switch::ArgsFields);
        }
        out.extend(Gate::ALL.into_iter().filter(|g| self.enabled(*g) != other.enabled(*g)).map(Switch::Gate));
        out
    }

    /// This run with one switch as `other` has it (everything else, the version's name
    /// included, stays this run's).
    pub fn with_switch_from(&self, other: &Features, s: Switch) -> Features {
        let mut f = self.clone();
        match s {
            Switch::TaintFilterReason => f.behaviour.taint_filter_reason = other.behaviour.taint_filter_reason,
            Switch::BindingOfNominatedPodMovesPods => {
                f.behaviour.binding_of_nominated_pod_moves_pods = other.behaviour.binding_of_nominated_pod_moves_pods
            }
            Switch::Plugins => f.plugins = other.plugins,
            Switch::ArgsFields => f.args_fields = other.args_fields,
            Switch::Gate(g) => f.gates.force(g, other.enabled(g)),
        }
        f
    }

    /// What switch `s` is, as the newer of the two versions' tables explains it (its upstream
    /// change), or, for a gate, its values in each: `(upstream change, what)`.
    pub fn describe_switch(&self, other: &Features, s: Switch) -> (Option<&'static str>, String) {
        let newer = if self.version() >= other.version() { self } else { other };
        if let Some(c) = newer.release.changes.iter().find(|c| c.switch == s) {
            return (c.upstream, c.what.to_string());
        }
        let on = |b: bool| if b { "on" } else { "off" };
        match s {
            Switch::Gate(g) => (
                None,
                format!(
                    "feature gate {g}: {} in v{}, {} in v{}",
                    on(self.enabled(g)),
                    self.version(),
                    on(other.enabled(g)),
                    other.version()
                ),
            ),
            other_switch => (None, format!("{other_switch:?}")),
        }
    }
}

impl Default for Features {
    /// The newest version, default gates.
    fn default() -> Self {
        Features::new(KubeVersion::NEWEST)
    }
}

#[cfg(test)]
mod tests;
