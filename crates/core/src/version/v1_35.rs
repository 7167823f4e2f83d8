//! kube-scheduler v1.35 (the corpus was recorded with v1.35.4): what changed since v1.34.
//!
//! - TaintToleration's Filter reason no longer names the taint (kubernetes#134740).
//! - A preemptor's binding no longer moves other pods: pods are handled in one informer
//!   handler, and a binding is not a deletion of a pending pod (kubernetes#134157).
//! - DynamicResources scores (kubernetes#134711): weight 2 in the default profile; a pod
//!   without claims scores 0 on every node; a prioritized-list (`firstAvailable`) claim scores
//!   by the rank of the subrequest allocated, normalized to 0–100.
//! - Gates: SchedulerAsyncAPICalls off; NominatedNodeNameForExpectation,
//!   ClearingNominatedNodeNameAfterBinding and OpportunisticBatching beta and on;
//!   GangScheduling, GenericWorkload, NodeDeclaredFeatures and
//!   TaintTolerationComparisonOperators new and off. Of these, only
//!   NominatedNodeNameForExpectation shows in our world: a pod whose PreBind has work (volumes
//!   to bind, resource claims) gets the chosen node as its nominated node before PreBind and
//!   keeps it once bound, as the corpus records (so ClearingNominatedNodeNameAfterBinding
//!   clears nothing there); asynchronous API calls and batching change no answer of the
//!   corpus and are not modelled.
//! - DynamicResourcesArgs gains `bindingTimeout` (accepted when DRADeviceBindingConditions and
//!   DRAResourceClaimDeviceStatus are on; forbidden otherwise).

use super::{Behaviour, Change, Gate, Release, Switch, TaintFilterReason};
use crate::vocabulary::PluginName as P;
use schedlab_view::KubeVersion;

pub static RELEASE: Release = Release {
    version: KubeVersion::V1_35,
    recorded_with: "v1.35.4",
    gates: &[
        (Gate::ClearingNominatedNodeNameAfterBinding, true),
        (Gate::DRAAdminAccess, true),
        (Gate::DRAConsumableCapacity, false),
        (Gate::DRADeviceBindingConditions, false),
        (Gate::DRADeviceTaints, false),
        (Gate::DRAExtendedResource, false),
        (Gate::DRAPartitionableDevices, false),
        (Gate::DRAPrioritizedList, true),
        (Gate::DRAResourceClaimDeviceStatus, true),
        (Gate::DRASchedulerFilterTimeout, true),
        (Gate::DynamicResourceAllocation, true),
        (Gate::GangScheduling, false),
        (Gate::GenericWorkload, false),
        (Gate::InPlacePodVerticalScaling, true),
        (Gate::MatchLabelKeysInPodTopologySpread, true),
        (Gate::MatchLabelKeysInPodTopologySpreadSelectorMerge, true),
        (Gate::NodeDeclaredFeatures, false),
        (Gate::NominatedNodeNameForExpectation, true),
        (Gate::OpportunisticBatching, true),
        (Gate::PodLevelResources, true),
        (Gate::SchedulerAsyncAPICalls, false),
        (Gate::SchedulerAsyncPreemption, true),
        (Gate::SchedulerPopFromBackoffQ, true),
        (Gate::SchedulerQueueingHints, true),
        (Gate::TaintTolerationComparisonOperators, false),
    ],
    // As v1.34, with DynamicResources weighted 2.
    default_plugins: &[
        (P::SchedulingGates, None),
        (P::PrioritySort, None),
        (P::NodeUnschedulable, None),
        (P::NodeName, None),
        (P::TaintToleration, Some(3)),
        (P::NodeAffinity, Some(2)),
        (P::NodePorts, None),
        (P::NodeResourcesFit, Some(1)),
        (P::VolumeRestrictions, None),
        (P::NodeVolumeLimits, None),
        (P::VolumeBinding, None),
        (P::VolumeZone, None),
        (P::PodTopologySpread, Some(2)),
        (P::InterPodAffinity, Some(2)),
        (P::DynamicResources, Some(2)),
        (P::DefaultPreemption, None),
        (P::NodeResourcesBalancedAllocation, Some(1)),
        (P::ImageLocality, Some(1)),
        (P::DefaultBinder, None),
    ],
    missing_points: &[],
    missing_args_fields: &[],
    behaviour: Behaviour {
        taint_filter_reason: TaintFilterReason::Generic,
        binding_of_nominated_pod_moves_pods: false,
    },
    changes: &[
        Change {
            switch: Switch::TaintFilterReason,
            upstream: Some("kubernetes#134740"),
            what: "TaintToleration's Filter reason no longer names the taint: \"node(s) had untolerated taint(s)\"",
        },
        Change {
            switch: Switch::BindingOfNominatedPodMovesPods,
            upstream: Some("kubernetes#134157"),
            what: "a preemptor's binding no longer moves other unschedulable pods back to the queue",
        },
        Change {
            switch: Switch::Plugins,
            upstream: Some("kubernetes#134711"),
            what: "DynamicResources scores (weight 2 in the default profile)",
        },
        Change {
            switch: Switch::ArgsFields,
            upstream: None,
            what: "DynamicResourcesArgs gains bindingTimeout",
        },
    ],
};
