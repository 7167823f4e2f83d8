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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    release: &'static Release,
    gates: FeatureGates,
}

impl Features {
    /// A version with its default gates.
    pub fn new(v: KubeVersion) -> Features {
        let release = release(v);
        Features {
            release,
            gates: FeatureGates::defaults(release),
        }
    }

    /// A version with `--feature-gates`-style settings over its defaults (`FeatureGates::parse`).
    pub fn with_gates(v: KubeVersion, settings: &str) -> Result<Features, String> {
        let release = release(v);
        Ok(Features {
            release,
            gates: FeatureGates::parse(release, settings)?,
        })
    }

    pub fn version(&self) -> KubeVersion {
        self.release.version
    }
    pub fn release(&self) -> &'static Release {
        self.release
    }
    pub fn behaviour(&self) -> Behaviour {
        self.release.behaviour
    }
    pub fn enabled(&self, g: Gate) -> bool {
        self.gates.enabled(g)
    }
    pub fn gates(&self) -> &FeatureGates {
        &self.gates
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
