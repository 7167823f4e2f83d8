//! Feature gates: the ones kube-scheduler's behaviour depends on, by name, and the effective
//! set of one run (a version's defaults with the user's settings over them).
//!
//! Upstream, gates are a command-line flag of kube-scheduler (`--feature-gates`), not part of
//! the KubeSchedulerConfiguration; here they are a setting of the run beside the version
//! (`schedlab run --feature-gates`, the scenario's saved settings in the playground).

use super::Release;
use std::collections::BTreeMap;
use std::fmt;

/// The feature gates a version's table may name. Which gates a version knows, and their
/// defaults, are that version's (`Release::gates`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gate {
    ClearingNominatedNodeNameAfterBinding,
    DRAAdminAccess,
    DRAConsumableCapacity,
    DRADeviceBindingConditions,
    DRADeviceTaints,
    DRAExtendedResource,
    DRAPartitionableDevices,
    DRAPrioritizedList,
    DRAResourceClaimDeviceStatus,
    DRASchedulerFilterTimeout,
    DynamicResourceAllocation,
    GangScheduling,
    GenericWorkload,
    InPlacePodVerticalScaling,
    MatchLabelKeysInPodTopologySpread,
    MatchLabelKeysInPodTopologySpreadSelectorMerge,
    NodeDeclaredFeatures,
    NominatedNodeNameForExpectation,
    OpportunisticBatching,
    PodLevelResources,
    SchedulerAsyncAPICalls,
    SchedulerAsyncPreemption,
    SchedulerPopFromBackoffQ,
    SchedulerQueueingHints,
    TaintTolerationComparisonOperators,
}

impl Gate {
    pub const ALL: [Gate; 25] = [
        Gate::ClearingNominatedNodeNameAfterBinding,
        Gate::DRAAdminAccess,
        Gate::DRAConsumableCapacity,
        Gate::DRADeviceBindingConditions,
        Gate::DRADeviceTaints,
        Gate::DRAExtendedResource,
        Gate::DRAPartitionableDevices,
        Gate::DRAPrioritizedList,
        Gate::DRAResourceClaimDeviceStatus,
        Gate::DRASchedulerFilterTimeout,
        Gate::DynamicResourceAllocation,
        Gate::GangScheduling,
        Gate::GenericWorkload,
        Gate::InPlacePodVerticalScaling,
        Gate::MatchLabelKeysInPodTopologySpread,
        Gate::MatchLabelKeysInPodTopologySpreadSelectorMerge,
        Gate::NodeDeclaredFeatures,
        Gate::NominatedNodeNameForExpectation,
        Gate::OpportunisticBatching,
        Gate::PodLevelResources,
        Gate::SchedulerAsyncAPICalls,
        Gate::SchedulerAsyncPreemption,
        Gate::SchedulerPopFromBackoffQ,
        Gate::SchedulerQueueingHints,
        Gate::TaintTolerationComparisonOperators,
    ];

    /// The gate's name as `--feature-gates` spells it (the variant's name).
    pub fn as_str(self) -> &'static str {
        match self {
            Gate::ClearingNominatedNodeNameAfterBinding => "ClearingNominatedNodeNameAfterBinding",
            Gate::DRAAdminAccess => "DRAAdminAccess",
            Gate::DRAConsumableCapacity => "DRAConsumableCapacity",
            Gate::DRADeviceBindingConditions => "DRADeviceBindingConditions",
            Gate::DRADeviceTaints => "DRADeviceTaints",
            Gate::DRAExtendedResource => "DRAExtendedResource",
            Gate::DRAPartitionableDevices => "DRAPartitionableDevices",
            Gate::DRAPrioritizedList => "DRAPrioritizedList",
            Gate::DRAResourceClaimDeviceStatus => "DRAResourceClaimDeviceStatus",
            Gate::DRASchedulerFilterTimeout => "DRASchedulerFilterTimeout",
            Gate::DynamicResourceAllocation => "DynamicResourceAllocation",
            Gate::GangScheduling => "GangScheduling",
            Gate::GenericWorkload => "GenericWorkload",
            Gate::InPlacePodVerticalScaling => "InPlacePodVerticalScaling",
            Gate::MatchLabelKeysInPodTopologySpread => "MatchLabelKeysInPodTopologySpread",
            Gate::MatchLabelKeysInPodTopologySpreadSelectorMerge => "MatchLabelKeysInPodTopologySpreadSelectorMerge",
            Gate::NodeDeclaredFeatures => "NodeDeclaredFeatures",
            Gate::NominatedNodeNameForExpectation => "NominatedNodeNameForExpectation",
            Gate::OpportunisticBatching => "OpportunisticBatching",
            Gate::PodLevelResources => "PodLevelResources",
            Gate::SchedulerAsyncAPICalls => "SchedulerAsyncAPICalls",
            Gate::SchedulerAsyncPreemption => "SchedulerAsyncPreemption",
            Gate::SchedulerPopFromBackoffQ => "SchedulerPopFromBackoffQ",
            Gate::SchedulerQueueingHints => "SchedulerQueueingHints",
            Gate::TaintTolerationComparisonOperators => "TaintTolerationComparisonOperators",
        }
    }

    pub fn parse(name: &str) -> Option<Gate> {
        Gate::ALL.into_iter().find(|g| g.as_str() == name)
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The effective gates of one run: the version's defaults, with the user's settings over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureGates {
    release: &'static Release,
    /// What the user set (only gates the version knows).
    set: BTreeMap<Gate, bool>,
}

impl FeatureGates {
    /// The version's defaults.
    pub fn defaults(release: &'static Release) -> FeatureGates {
        FeatureGates {
            release,
            set: BTreeMap::new(),
        }
    }

    /// The version's defaults with `settings` over them, read as kube-scheduler reads
    /// `--feature-gates`: `Name=true,Other=false` (spaces around entries allowed; a later
    /// entry for the same gate wins). A gate this version does not know is an error.
    pub fn parse(release: &'static Release, settings: &str) -> Result<FeatureGates, String> {
        let mut g = FeatureGates::defaults(release);
        for entry in settings.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let Some((name, value)) = entry.split_once('=') else {
                return Err(format!("missing bool value for {entry}"));
            };
            let (name, value) = (name.trim(), value.trim());
            let on = parse_go_bool(value)
                .ok_or_else(|| format!("invalid value of {name}={value}, err: strconv.ParseBool: parsing {value:?}: invalid syntax"))?;
            g.set(name, on)?;
        }
        Ok(g)
    }

    /// Sets one gate by name; an unknown name (for this version) is an error, worded as
    /// kube-scheduler words it.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        match Gate::parse(name).filter(|g| self.release.gate_default(*g).is_some()) {
            Some(g) => {
                self.set.insert(g, on);
                Ok(())
            }
            None => Err(format!(
                "unrecognized feature gate: {name} (kube-scheduler v{} knows: {})",
                self.release.version,
                self.release.gates.iter().map(|(g, _)| g.as_str()).collect::<Vec<_>>().join(", ")
            )),
        }
    }

    /// Sets a gate whether or not the version knows it (a comparison of two versions running
    /// one with another's gate value).
    pub(super) fn force(&mut self, g: Gate, on: bool) {
        self.set.insert(g, on);
    }

    /// Whether a gate is on: the user's setting, else the version's default; a gate the
    /// version does not know is off.
    pub fn enabled(&self, g: Gate) -> bool {
        self.set.get(&g).copied().or(self.release.gate_default(g)).unwrap_or(false)
    }

    /// The gates the user set that differ from the version's defaults, in name order:
    /// `Name=true,Other=false` (empty when none).
    pub fn overrides(&self) -> String {
        self.set
            .iter()
            .filter(|(g, on)| self.release.gate_default(**g) != Some(**on))
            .map(|(g, on)| format!("{g}={on}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Go's strconv.ParseBool.
fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}
