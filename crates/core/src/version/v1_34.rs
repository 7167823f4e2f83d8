//! kube-scheduler v1.34 (the corpus was recorded with v1.34.1).

use super::{Behaviour, Gate, Release, TaintFilterReason};
use crate::vocabulary::{ExtensionPoint, PluginName as P};
use schedlab_view::KubeVersion;

pub static RELEASE: Release = Release {
    version: KubeVersion::V1_34,
    recorded_with: "v1.34.1",
    gates: &[
        (Gate::ClearingNominatedNodeNameAfterBinding, false),
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
        (Gate::InPlacePodVerticalScaling, true),
        (Gate::MatchLabelKeysInPodTopologySpread, true),
        (Gate::MatchLabelKeysInPodTopologySpreadSelectorMerge, true),
        (Gate::NominatedNodeNameForExpectation, false),
        (Gate::PodLevelResources, true),
        (Gate::SchedulerAsyncAPICalls, true),
        (Gate::SchedulerAsyncPreemption, true),
        (Gate::SchedulerPopFromBackoffQ, true),
        (Gate::SchedulerQueueingHints, true),
    ],
    // DynamicResources is on by default and sits before DefaultPreemption; it has no weight
    // (it does not score in v1.34).
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
        (P::DynamicResources, None),
        (P::DefaultPreemption, None),
        (P::NodeResourcesBalancedAllocation, Some(1)),
        (P::ImageLocality, Some(1)),
        (P::DefaultBinder, None),
    ],
    // DynamicResources became a Score plugin in v1.35.
    missing_points: &[(P::DynamicResources, ExtensionPoint::Score)],
    // DynamicResourcesArgs gained bindingTimeout in v1.35.
    missing_args_fields: &[("DynamicResourcesArgs", "bindingTimeout")],
    behaviour: Behaviour {
        // One reason naming the first untolerated taint (v1.34.1; later v1.34 patch releases
        // print the generic reason, kubernetes#135023).
        taint_filter_reason: TaintFilterReason::NamesTheTaint,
        // The pending-pod informer handler sees a bound pod that had a nominated node leave
        // as a deletion, which moves pods of equal or lower priority.
        binding_of_nominated_pod_moves_pods: true,
    },
    // The oldest version supported: its changes are not modelled.
    changes: &[],
};
