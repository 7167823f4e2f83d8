//! DynamicResources (DRA). The simulated cluster has no ResourceClaim, ResourceSlice or
//! DeviceClass objects, so a pod that references a claim waits for one that never appears
//! (gated at PreEnqueue, as upstream does for a claim not found); pods without claims pass
//! through, leaving the empty cycle state that PostFilter reports on.

use crate::api::{Pod, PodResourceClaim};
use crate::config::DynamicResourcesArgs;
use crate::framework::events::{ActionType, ClusterEvent, ClusterEventWithHint, EventObject, EventResource, QueueingHint};
use crate::framework::runtime::Framework;
use crate::framework::{Code, Ctx, CycleState, NodeInfo, NodeToStatus, Plugin, PodInfo, PostFilterResult, PreFilterResult, Status};
use crate::plugins::volume_util::namespace_of;
use crate::plugins::PluginName;
use crate::rng::Rng;

pub struct DynamicResources {
    #[allow(dead_code)]
    args: DynamicResourcesArgs,
}

impl DynamicResources {
    pub fn new(args: &DynamicResourcesArgs) -> DynamicResources {
        DynamicResources { args: args.clone() }
    }
}

/// The per-cycle state: the claims the pod uses (always none here, see the module comment).
#[derive(Clone, Debug, Default)]
struct StateData {
    claims: usize,
}

/// The name of the ResourceClaim a pod claim refers to (resourceclaim.Name): the named claim,
/// or the one generated from a template as recorded in the pod's status (None when none was
/// generated on purpose).
fn claim_name(pod: &Pod, c: &PodResourceClaim) -> Result<Option<String>, String> {
    let ns = namespace_of(&pod.metadata);
    let name = &pod.metadata.name;
    if let Some(n) = &c.resource_claim_name {
        return Ok(Some(n.clone()));
    }
    if c.resource_claim_template_name.is_some() {
        let statuses = pod
            .status
            .resource_claim_statuses
            .as_ref()
            .and_then(|v| v.as_array())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for s in statuses {
            if s.get("name").and_then(|n| n.as_str()) == Some(c.name.as_str()) {
                return Ok(s.get("resourceClaimName").and_then(|n| n.as_str()).map(String::from));
            }
        }
        return Err(format!("pod \"{ns}/{name}\": ResourceClaim not created yet"));
    }
    Err(format!(
        "pod \"{ns}/{name}\", spec.resourceClaim {:?}: none of the supported fields are set",
        c.name
    ))
}

/// Checks that every ResourceClaim of the pod exists (foreachPodResourceClaim); returns the
/// number found. No claim exists in the simulated cluster, so any reference fails.
fn pod_resource_claims(pod: &Pod) -> Result<usize, String> {
    let ns = namespace_of(&pod.metadata);
    for c in &pod.spec.resource_claims {
        if let Some(name) = claim_name(pod, c)? {
            return Err(format!("could not find ResourceClaim \"{ns}/{name}\""));
        }
    }
    Ok(0)
}

impl Plugin for DynamicResources {
    fn name(&self) -> PluginName {
        PluginName::DynamicResources
    }

    fn events_to_register(&self) -> Vec<ClusterEventWithHint> {
        let add_update = ActionType::ADD.union(ActionType::UPDATE);
        vec![
            ClusterEventWithHint::unhinted(
                EventResource::Node,
                ActionType::ADD
                    .union(ActionType::UPDATE_NODE_LABEL)
                    .union(ActionType::UPDATE_NODE_ALLOCATABLE),
            ),
            ClusterEventWithHint::hinted(EventResource::ResourceClaim, add_update),
            ClusterEventWithHint::hinted(EventResource::Pod, ActionType::UPDATE_POD_GENERATED_RESOURCE_CLAIM),
            ClusterEventWithHint::unhinted(EventResource::DeviceClass, add_update),
            ClusterEventWithHint::unhinted(EventResource::ResourceSlice, add_update),
        ]
    }

    fn queueing_hint(&self, _cx: &Ctx, pod: &PodInfo, _event: ClusterEvent, obj: &EventObject) -> Result<QueueingHint, String> {
        match obj {
            EventObject::Pod { new: Some(modified), .. } => {
                if modified.uid != pod.uid {
                    return Ok(QueueingHint::Skip);
                }
                Ok(match pod_resource_claims(&modified.pod) {
                    Ok(_) => QueueingHint::Queue,
                    Err(_) => QueueingHint::Skip,
                })
            }
            // ResourceClaim events carry no object here.
            _ => Ok(QueueingHint::Queue),
        }
    }

    fn pre_enqueue(&self, _cx: &Ctx, pod: &PodInfo) -> Status {
        match pod_resource_claims(&pod.pod) {
            Ok(_) => Status::success(),
            Err(e) => Status::unresolvable(e),
        }
    }

    fn pre_filter(&self, _cx: &Ctx, state: &mut CycleState, pod: &PodInfo) -> (Option<PreFilterResult>, Status) {
        // The state is written before anything can fail, so later extension points find it.
        state.write(PluginName::DynamicResources, StateData::default());
        let claims = match pod_resource_claims(&pod.pod) {
            Ok(n) => n,
            Err(e) => return (None, Status::unresolvable(e)),
        };
        if claims == 0 {
            return (None, Status::skip());
        }
        (None, Status::success())
    }

    fn filter(&self, _cx: &Ctx, state: &CycleState, _pod: &PodInfo, _node: &NodeInfo) -> Status {
        match state.read::<StateData>(PluginName::DynamicResources) {
            None => Status::error("not found"),
            Some(_) => Status::success(),
        }
    }

    fn post_filter(
        &self,
        _cx: &Ctx,
        _fw: &Framework,
        state: &CycleState,
        _pod: &PodInfo,
        _statuses: &NodeToStatus,
        _rng: &mut Rng,
    ) -> (Option<PostFilterResult>, Status) {
        let Some(s) = state.read::<StateData>(PluginName::DynamicResources) else {
            // PreFilter never ran (an earlier PreFilter plugin rejected the pod outright).
            return (None, Status::error("not found"));
        };
        if s.claims == 0 {
            return (None, Status::new(Code::Unschedulable, "no new claims to deallocate"));
        }
        (None, Status::new(Code::Unschedulable, "still not schedulable"))
    }

    fn reserve(&self, _cx: &Ctx, state: &mut CycleState, _pod: &PodInfo, _node: &str) -> Status {
        match state.read::<StateData>(PluginName::DynamicResources) {
            None => Status::error("not found"),
            Some(_) => Status::success(),
        }
    }

    fn pre_bind(&self, _cluster: &mut crate::cluster::Cluster, state: &mut CycleState, _pod: &PodInfo, _node: &str) -> Status {
        match state.read::<StateData>(PluginName::DynamicResources) {
            None => Status::error("not found"),
            // No claims: nothing to bind.
            Some(_) => Status::success(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{PluginArgs, Profile};
    use crate::plugins::testing::{Env, MakeNode, MakePod};

    fn with_claims(claims: Vec<PodResourceClaim>, statuses: Option<serde_json::Value>) -> PodInfo {
        let mut p = MakePod::new("p");
        p.pod.spec.resource_claims = claims;
        p.pod.status.resource_claim_statuses = statuses.map(Box::new);
        p.info()
    }
    fn named(name: &str, claim: &str) -> PodResourceClaim {
        PodResourceClaim {
            name: name.into(),
            resource_claim_name: Some(claim.into()),
            resource_claim_template_name: None,
        }
    }
    fn templated(name: &str) -> PodResourceClaim {
        PodResourceClaim {
            name: name.into(),
            resource_claim_name: None,
            resource_claim_template_name: Some("tmpl".into()),
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pre_enqueue_table() {
        let env = Env::new(vec![MakeNode::new("n").obj()], vec![]);
        let pl = DynamicResources::new(&DynamicResourcesArgs::default());
        let cases = [
            ("no claims", with_claims(vec![], None), ""),
            (
                "named claim missing",
                with_claims(vec![named("gpu", "my-gpu")], None),
                "could not find ResourceClaim \"default/my-gpu\"",
            ),
            (
                "template not generated yet",
                with_claims(vec![templated("gpu")], None),
                "pod \"default/p\": ResourceClaim not created yet",
            ),
            (
                "template generated",
                with_claims(
                    vec![templated("gpu")],
                    Some(serde_json::json!([{"name": "gpu", "resourceClaimName": "p-gpu-x"}])),
                ),
                "could not find ResourceClaim \"default/p-gpu-x\"",
            ),
            (
                "template deliberately without claim",
                with_claims(vec![templated("gpu")], Some(serde_json::json!([{"name": "gpu"}]))),
                "",
            ),
            (
                "no source",
                with_claims(
                    vec![PodResourceClaim {
                        name: "gpu".into(),
                        ..Default::default()
                    }],
                    None,
                ),
                "pod \"default/p\", spec.resourceClaim \"gpu\": none of the supported fields are set",
            ),
        ];
        for (name, pod, msg) in cases {
            let s = pl.pre_enqueue(&env.cx(), &pod);
            if msg.is_empty() {
                assert!(s.is_success(), "{name}");
            } else {
                assert_eq!(s.code, Code::UnschedulableAndUnresolvable, "{name}");
                assert_eq!(s.message(), msg, "{name}");
            }
            let mut state = CycleState::new();
            let (_, s) = pl.pre_filter(&env.cx(), &mut state, &pod);
            assert_eq!(s.is_skip(), msg.is_empty(), "{name}");
            assert!(state.read::<StateData>(PluginName::DynamicResources).is_some(), "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn post_filter_messages() {
        let env = Env::new(vec![MakeNode::new("n").obj()], vec![]);
        let pl = DynamicResources::new(&DynamicResourcesArgs::default());
        let profile = Profile::new("default-scheduler", None, PluginArgs::default(), None).unwrap();
        let fw = Framework::new(profile);
        let pod = MakePod::new("p").info();
        let mut rng = Rng::new(1);
        let statuses = NodeToStatus::default();

        let state = CycleState::new();
        let (_, s) = pl.post_filter(&env.cx(), &fw, &state, &pod, &statuses, &mut rng);
        assert_eq!((s.code, s.message()), (Code::Error, "not found".to_string()));

        let mut state = CycleState::new();
        assert!(pl.pre_filter(&env.cx(), &mut state, &pod).1.is_skip());
        let (_, s) = pl.post_filter(&env.cx(), &fw, &state, &pod, &statuses, &mut rng);
        assert_eq!(
            (s.code, s.message()),
            (Code::Unschedulable, "no new claims to deallocate".to_string())
        );
    }
}
