//! resource.k8s.io/v1 objects in a scenario: DeviceClass, ResourceSlice, ResourceClaim and
//! ResourceClaimTemplate. Per object: the apiserver's defaults (`allocationMode: ExactCount`,
//! `count: 1`, `reservedFor` references) and the API checks the workloads/DRA addendum lists,
//! rejecting the fields of features that are off. Once every object is known (`apply`): claims
//! generated from templates for pending pods (`<pod>-<entry>`), the pods' claim statuses, the
//! delete-protection finalizer on allocated claims, and running pods added to the `reservedFor`
//! of the allocated claims they use.

use super::defaults::{stamp, PodOrigin};
use super::validate::{
    duplicate, forbidden, invalid, needs_cel, not_supported, required, validate_node_selector, validate_object_meta, Bad, Ctx, FieldPath, NameRule,
};
use super::{ErrorReason, LoadError, LoadErrors, Scenario};
use crate::api::resource::{
    DeviceClaim, DeviceClass, DeviceSelector, ExactDeviceRequest, ResourceClaim, ResourceClaimConsumerReference, ResourceClaimSpec,
    ResourceClaimTemplate, ResourceSlice, CLAIM_FINALIZER, POD_CLAIM_NAME_ANNOTATION,
};
use crate::api::{ObjectMeta, OwnerReference};
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Defaults

fn default_request_mode(mode: &mut Option<String>, count: &mut Option<i64>) {
    if mode.as_deref().is_none_or(str::is_empty) {
        *mode = Some("ExactCount".into());
    }
    if mode.as_deref() == Some("ExactCount") && count.is_none() {
        *count = Some(1);
    }
}

fn default_claim_spec(spec: &mut ResourceClaimSpec) {
    for r in &mut spec.devices.requests {
        if let Some(ex) = &mut r.exactly {
            default_request_mode(&mut ex.allocation_mode, &mut ex.count);
        }
        for s in &mut r.first_available {
            default_request_mode(&mut s.allocation_mode, &mut s.count);
        }
    }
}

pub(super) fn default_device_class(c: &mut DeviceClass, doc: usize) {
    stamp(&mut c.metadata, "DeviceClass", false, doc);
}

pub(super) fn default_slice(s: &mut ResourceSlice, doc: usize) {
    stamp(&mut s.metadata, "ResourceSlice", false, doc);
}

pub(super) fn default_template(t: &mut ResourceClaimTemplate, doc: usize) {
    stamp(&mut t.metadata, "ResourceClaimTemplate", true, doc);
    default_claim_spec(&mut t.spec.spec);
}

pub(super) fn default_claim(c: &mut ResourceClaim, doc: usize) {
    stamp(&mut c.metadata, "ResourceClaim", true, doc);
    default_claim_spec(&mut c.spec);
    let ns = c.metadata.namespace.clone().unwrap_or_default();
    for r in &mut c.status.reserved_for {
        if r.resource.is_empty() {
            r.resource = "pods".into();
        }
        if r.uid.is_empty() && r.resource == "pods" && r.api_group.as_deref().is_none_or(str::is_empty) {
            r.uid = super::defaults::uid("Pod", &ns, &r.name);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Validation

/// A field of a feature that is off: rejected rather than dropped.
fn off(cx: &mut Ctx, set: bool, path: &FieldPath, gate: &str) {
    if set {
        cx.push(forbidden(
            path,
            &format!("not supported in the simulated cluster: feature gate {gate} is off"),
        ));
    }
}

fn validate_selectors(cx: &mut Ctx, selectors: &[DeviceSelector], path: &FieldPath) {
    for (i, s) in selectors.iter().enumerate() {
        let p = path.index(i);
        match &s.cel {
            None => cx.push(required(&p.child("cel"), "")),
            Some(c) if c.expression.trim().is_empty() => cx.push(required(&p.child("cel").child("expression"), "")),
            Some(_) if !crate::dra::cel::AVAILABLE => cx.push(needs_cel(&p.child("cel").child("expression"))),
            Some(_) => {}
        }
    }
}

fn validate_mode(cx: &mut Ctx, mode: Option<&str>, count: Option<i64>, path: &FieldPath) {
    match mode {
        Some("ExactCount") if count.is_some_and(|c| c <= 0) => {
            cx.push(invalid(
                &path.child("count"),
                Bad::Int(count.unwrap_or(0)),
                "must be greater than zero",
            ));
        }
        Some("ExactCount") => {}
        Some("All") => {
            if let Some(c) = count.filter(|&c| c != 0) {
                cx.push(invalid(
                    &path.child("count"),
                    Bad::Int(c),
                    "must not be specified when allocationMode is All",
                ));
            }
        }
        Some(m) => cx.push(not_supported(&path.child("allocationMode"), m, &["All", "ExactCount"])),
        None => {}
    }
}

fn validate_exactly(cx: &mut Ctx, ex: &ExactDeviceRequest, path: &FieldPath) {
    if ex.device_class_name.is_empty() {
        cx.push(required(&path.child("deviceClassName"), ""));
    }
    validate_selectors(cx, &ex.selectors, &path.child("selectors"));
    validate_mode(cx, ex.allocation_mode.as_deref(), ex.count, path);
    off(cx, ex.tolerations.is_some(), &path.child("tolerations"), "DRADeviceTaints");
    off(cx, ex.capacity.is_some(), &path.child("capacity"), "DRAConsumableCapacity");
}

fn validate_claim_spec(cx: &mut Ctx, spec: &ResourceClaimSpec, path: &FieldPath) {
    let DeviceClaim { requests, constraints, .. } = &spec.devices;
    let rp = path.child("devices").child("requests");
    let mut names: Vec<&str> = Vec::new();
    for (i, r) in requests.iter().enumerate() {
        let p = rp.index(i);
        if r.name.is_empty() {
            cx.push(required(&p.child("name"), ""));
        } else if names.contains(&r.name.as_str()) {
            cx.push(duplicate(&p.child("name"), &r.name));
        } else {
            names.push(&r.name);
        }
        match (&r.exactly, r.first_available.is_empty()) {
            (Some(ex), true) => validate_exactly(cx, ex, &p.child("exactly")),
            (None, false) => {
                let mut subs: Vec<&str> = Vec::new();
                for (j, s) in r.first_available.iter().enumerate() {
                    let sp = p.child("firstAvailable").index(j);
                    if s.name.is_empty() {
                        cx.push(required(&sp.child("name"), ""));
                    } else if subs.contains(&s.name.as_str()) {
                        cx.push(duplicate(&sp.child("name"), &s.name));
                    } else {
                        subs.push(&s.name);
                    }
                    if s.device_class_name.is_empty() {
                        cx.push(required(&sp.child("deviceClassName"), ""));
                    }
                    validate_selectors(cx, &s.selectors, &sp.child("selectors"));
                    validate_mode(cx, s.allocation_mode.as_deref(), s.count, &sp);
                    off(cx, s.tolerations.is_some(), &sp.child("tolerations"), "DRADeviceTaints");
                    off(cx, s.capacity.is_some(), &sp.child("capacity"), "DRAConsumableCapacity");
                }
            }
            _ => cx.push(invalid(
                &p,
                Bad::Json(String::from("{...}")),
                "exactly one of `exactly` or `firstAvailable` is required",
            )),
        }
    }
    for (i, c) in constraints.iter().enumerate() {
        let p = path.child("devices").child("constraints").index(i);
        match c.match_attribute.as_deref() {
            None | Some("") => cx.push(required(&p.child("matchAttribute"), "")),
            Some(a) if !a.contains('/') => cx.push(invalid(
                &p.child("matchAttribute"),
                a,
                "a fully qualified name must be a domain and a name separated by a slash",
            )),
            Some(_) => {}
        }
        for (j, r) in c.requests.iter().enumerate() {
            let base = r.split('/').next().unwrap_or(r);
            if !names.contains(&base) {
                cx.push(invalid(
                    &p.child("requests").index(j),
                    r,
                    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'",
                ));
            }
        }
    }
}

pub(super) fn validate_device_class(cx: &mut Ctx, c: &DeviceClass) {
    validate_object_meta(cx, &c.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    validate_selectors(cx, &c.spec.selectors, &FieldPath::new("spec").child("selectors"));
}

pub(super) fn validate_slice(cx: &mut Ctx, s: &ResourceSlice) {
    validate_object_meta(cx, &s.metadata, false, NameRule::Subdomain, &FieldPath::new("metadata"));
    let spec = FieldPath::new("spec");
    let sp = &s.spec;
    if sp.driver.is_empty() {
        cx.push(required(&spec.child("driver"), ""));
    }
    if sp.pool.name.is_empty() {
        cx.push(required(&spec.child("pool").child("name"), ""));
    }
    if sp.pool.resource_slice_count < 1 {
        cx.push(invalid(
            &spec.child("pool").child("resourceSliceCount"),
            Bad::Int(sp.pool.resource_slice_count),
            "must be greater than zero",
        ));
    }
    if sp.pool.generation < 0 {
        cx.push(invalid(
            &spec.child("pool").child("generation"),
            Bad::Int(sp.pool.generation),
            "must be greater than or equal to 0",
        ));
    }
    let set = [
        sp.node_name.as_deref().is_some_and(|n| !n.is_empty()),
        sp.node_selector.is_some(),
        sp.all_nodes == Some(true),
    ];
    if set.iter().filter(|&&b| b).count() != 1 {
        cx.push(invalid(
            &spec,
            Bad::Json(String::from("{...}")),
            "exactly one of `nodeName`, `nodeSelector`, `allNodes` is required",
        ));
    }
    if let Some(ns) = &sp.node_selector {
        validate_node_selector(cx, ns, &spec.child("nodeSelector"));
        if ns.node_selector_terms.len() != 1 {
            cx.push(invalid(
                &spec.child("nodeSelector").child("nodeSelectorTerms"),
                Bad::Json(String::from("[...]")),
                "must have exactly one node selector term",
            ));
        }
    }
    off(
        cx,
        sp.shared_counters.is_some(),
        &spec.child("sharedCounters"),
        "DRAPartitionableDevices",
    );
    off(
        cx,
        sp.per_device_node_selection.is_some(),
        &spec.child("perDeviceNodeSelection"),
        "DRAPartitionableDevices",
    );
    let mut names: Vec<&str> = Vec::new();
    for (i, d) in sp.devices.iter().enumerate() {
        let p = spec.child("devices").index(i);
        if d.name.is_empty() {
            cx.push(required(&p.child("name"), ""));
        } else if names.contains(&d.name.as_str()) {
            cx.push(duplicate(&p.child("name"), &d.name));
        } else {
            names.push(&d.name);
        }
        for (k, a) in &d.attributes {
            let ap = p.child("attributes").key(k);
            let n = [a.int.is_some(), a.bool.is_some(), a.string.is_some(), a.version.is_some()]
                .iter()
                .filter(|&&b| b)
                .count();
            if n != 1 {
                cx.push(invalid(
                    &ap,
                    Bad::Json(String::from("{...}")),
                    "exactly one value must be specified",
                ));
            }
            if let Some(v) = &a.version {
                if semver::Version::parse(v).is_err() {
                    cx.push(invalid(
                        &ap.child("version"),
                        v,
                        "must be a string compatible with semver.org spec 2.0.0",
                    ));
                }
            }
        }
        for (k, c) in &d.capacity {
            off(
                cx,
                c.request_policy.is_some(),
                &p.child("capacity").key(k).child("requestPolicy"),
                "DRAConsumableCapacity",
            );
        }
        let pd = "DRAPartitionableDevices";
        off(cx, d.consumes_counters.is_some(), &p.child("consumesCounters"), pd);
        off(cx, d.node_name.is_some(), &p.child("nodeName"), pd);
        off(cx, d.node_selector.is_some(), &p.child("nodeSelector"), pd);
        off(cx, d.all_nodes.is_some(), &p.child("allNodes"), pd);
        off(cx, d.taints.is_some(), &p.child("taints"), "DRADeviceTaints");
        let bc = "DRADeviceBindingConditions";
        off(cx, d.binds_to_node.is_some(), &p.child("bindsToNode"), bc);
        off(cx, d.binding_conditions.is_some(), &p.child("bindingConditions"), bc);
        off(cx, d.binding_failure_conditions.is_some(), &p.child("bindingFailureConditions"), bc);
        off(
            cx,
            d.allow_multiple_allocations.is_some(),
            &p.child("allowMultipleAllocations"),
            "DRAConsumableCapacity",
        );
    }
}

pub(super) fn validate_claim(cx: &mut Ctx, c: &ResourceClaim) {
    validate_object_meta(cx, &c.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    validate_claim_spec(cx, &c.spec, &FieldPath::new("spec"));
    let st = FieldPath::new("status");
    if let Some(a) = &c.status.allocation {
        for (i, r) in a.devices.results.iter().enumerate() {
            let p = st.child("allocation").child("devices").child("results").index(i);
            for (f, v) in [
                ("request", &r.request),
                ("driver", &r.driver),
                ("pool", &r.pool),
                ("device", &r.device),
            ] {
                if v.is_empty() {
                    cx.push(required(&p.child(f), ""));
                }
            }
        }
        if let Some(ns) = &a.node_selector {
            validate_node_selector(cx, ns, &st.child("allocation").child("nodeSelector"));
        }
    } else if !c.status.reserved_for.is_empty() {
        cx.push(forbidden(
            &st.child("reservedFor"),
            "may not be specified when `allocated` is not set",
        ));
    }
    for (i, r) in c.status.reserved_for.iter().enumerate() {
        let p = st.child("reservedFor").index(i);
        if r.name.is_empty() {
            cx.push(required(&p.child("name"), ""));
        }
    }
}

pub(super) fn validate_template(cx: &mut Ctx, t: &ResourceClaimTemplate) {
    validate_object_meta(cx, &t.metadata, true, NameRule::Subdomain, &FieldPath::new("metadata"));
    validate_claim_spec(cx, &t.spec.spec, &FieldPath::new("spec").child("spec"));
}

// ---------------------------------------------------------------------------------------------
// Cross-object steps

fn pod_error(pod: &crate::api::Pod, o: &PodOrigin, field: String, why: String) -> LoadError {
    let mut e = LoadError::at(o.root.0, o.root.1, why).with_reason(ErrorReason::Rejected);
    e.object = Some(format!("Pod/{}", pod.metadata.name));
    e.field = Some(field);
    e.document = Some(o.doc);
    e
}

/// The claim the resourceclaim controller makes for entry `entry` of pod `p` from template `t`:
/// named `<pod>-<entry>`, owned by the pod.
pub(crate) fn template_claim(p: &crate::api::Pod, ns: &str, entry: &str, t: &ResourceClaimTemplate) -> ResourceClaim {
    let name = format!("{}-{entry}", p.metadata.name);
    let mut annotations = t.spec.metadata.annotations.clone();
    annotations.insert(POD_CLAIM_NAME_ANNOTATION.into(), entry.to_string());
    ResourceClaim {
        api_version: "resource.k8s.io/v1".into(),
        kind: "ResourceClaim".into(),
        metadata: ObjectMeta {
            name: name.clone(),
            namespace: Some(ns.to_string()),
            labels: t.spec.metadata.labels.clone(),
            annotations,
            uid: Some(super::defaults::uid("ResourceClaim", ns, &name)),
            creation_timestamp: p.metadata.creation_timestamp.clone(),
            owner_references: vec![OwnerReference {
                api_version: "v1".into(),
                kind: "Pod".into(),
                name: p.metadata.name.clone(),
                uid: p.metadata.uid.clone().unwrap_or_default(),
                controller: Some(true),
                block_owner_deletion: Some(true),
            }],
            ..Default::default()
        },
        spec: t.spec.spec.clone(),
        status: Default::default(),
    }
}

/// Generated claims, pods' claim statuses, finalizers and reservations (see the module comment).
pub(super) fn apply(sc: &mut Scenario, origins: &[PodOrigin], errs: &mut LoadErrors) {
    let dra = &mut sc.cluster.dra;
    dra.reported |= !dra.claims.is_empty() || !dra.templates.is_empty() || sc.pods.iter().any(|p| !p.spec.resource_claims.is_empty());
    // Declared allocated claims carry the finalizer.
    for c in dra.claims.values_mut() {
        if c.status.allocation.is_some() {
            let f = Arc::make_mut(c).metadata.finalizers.get_or_insert_with(Vec::new);
            if !f.iter().any(|f| f == CLAIM_FINALIZER) {
                f.push(CLAIM_FINALIZER.into());
            }
        }
    }
    let mut generated: Vec<ResourceClaim> = Vec::new();
    for (p, o) in sc.pods.iter_mut().zip(origins) {
        if p.spec.resource_claims.is_empty() {
            continue;
        }
        let ns = p.metadata.namespace.clone().unwrap_or_else(|| "default".into());
        let bound = p.spec.node_name.as_deref().is_some_and(|n| !n.is_empty());
        let finished = matches!(p.status.phase.as_deref(), Some("Succeeded") | Some("Failed"));
        let mut statuses = Vec::new();
        for (i, entry) in p.spec.resource_claims.iter().enumerate() {
            let field = format!("spec.resourceClaims[{i}]");
            if let Some(name) = &entry.resource_claim_name {
                // A running pod is a consumer of the allocated claim it names.
                if bound && !finished {
                    if let Some(c) = dra.claims.get_mut(&format!("{ns}/{name}")) {
                        if c.status.allocation.is_some()
                            && !c
                                .status
                                .reserved_for
                                .iter()
                                .any(|r| r.uid == p.metadata.uid.clone().unwrap_or_default())
                        {
                            Arc::make_mut(c).status.reserved_for.push(ResourceClaimConsumerReference {
                                api_group: None,
                                resource: "pods".into(),
                                name: p.metadata.name.clone(),
                                uid: p.metadata.uid.clone().unwrap_or_default(),
                            });
                        }
                    }
                }
                continue;
            }
            let Some(tname) = &entry.resource_claim_template_name else {
                continue;
            };
            if bound || finished {
                errs.push(pod_error(
                    p,
                    o,
                    format!("{field}.resourceClaimTemplateName"),
                    format!(
                        "pod {ns}/{} is already bound or finished: its claim from template {tname:?} would have been generated before it was scheduled; declare the ResourceClaim and name it with resourceClaimName",
                        p.metadata.name
                    ),
                ));
                continue;
            }
            let Some(t) = dra.templates.get(&format!("{ns}/{tname}")) else {
                errs.push(pod_error(
                    p,
                    o,
                    format!("{field}.resourceClaimTemplateName"),
                    format!("resourceclaimtemplate.resource.k8s.io {tname:?} not found in namespace {ns:?}"),
                ));
                continue;
            };
            let name = format!("{}-{}", p.metadata.name, entry.name);
            if dra.claims.contains_key(&format!("{ns}/{name}"))
                || generated
                    .iter()
                    .any(|c| c.metadata.namespace.as_deref() == Some(&ns) && c.metadata.name == name)
            {
                errs.push(pod_error(
                    p,
                    o,
                    field.clone(),
                    format!("the claim {ns}/{name} generated from template {tname:?} clashes with a ResourceClaim of that name"),
                ));
                continue;
            }
            let claim = template_claim(p, &ns, &entry.name, t);
            statuses.push(serde_json::json!({"name": entry.name, "resourceClaimName": name}));
            generated.push(claim);
        }
        if !statuses.is_empty() {
            Arc::make_mut(p).status.resource_claim_statuses = Some(Box::new(serde_json::Value::Array(statuses)));
        }
    }
    for c in generated {
        dra.claims.insert(crate::dra::claim_key(&c), Arc::new(c));
    }
}

impl super::Loader<'_> {
    /// Admits one resource.k8s.io object into the cluster.
    pub(super) fn dra_object(&mut self, node: &super::yaml::YNode, entry: &super::KindEntry, doc: usize) {
        match entry.1 {
            "DeviceClass" => {
                if let Some(c) = self.admit(node, entry, doc, default_device_class, validate_device_class) {
                    self.sc.cluster.dra.classes.insert(c.metadata.name.clone(), Arc::new(c));
                }
            }
            "ResourceSlice" => {
                if let Some(s) = self.admit(node, entry, doc, default_slice, validate_slice) {
                    self.sc.cluster.dra.slices.push(Arc::new(s));
                }
            }
            "ResourceClaim" => {
                if let Some(c) = self.admit(node, entry, doc, default_claim, validate_claim) {
                    self.sc.cluster.dra.claims.insert(crate::dra::claim_key(&c), Arc::new(c));
                }
            }
            _ => {
                if let Some(t) = self.admit(node, entry, doc, default_template, validate_template) {
                    let key = format!("{}/{}", t.metadata.namespace.as_deref().unwrap_or("default"), t.metadata.name);
                    self.sc.cluster.dra.templates.insert(key, Arc::new(t));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::load::load_str;

    const BASE: &str = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {selectors: [{cel: {expression: 'true'}}]}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: one}\nspec: {metadata: {labels: {team: ml}}, spec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu}}]}}}\n";

    fn pod(name: &str, extra: &str) -> String {
        format!("---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  containers: [{{name: c, image: app:1}}]\n{extra}")
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn generated_claims_and_defaults() {
        let text = format!(
            "{BASE}---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: shared}}\nspec: {{devices: {{requests: [{{name: g, exactly: {{deviceClassName: gpu, allocationMode: All}}}}]}}}}\nstatus:\n  allocation: {{devices: {{results: [{{request: g, driver: d, pool: p, device: x}}]}}}}\n  reservedFor: [{{name: old}}]\n{}{}",
            pod("p", "  resourceClaims: [{name: gpu, resourceClaimTemplateName: one}]\n"),
            pod("r", "  nodeName: n\n  resourceClaims: [{name: s, resourceClaimName: shared}]\n"),
        );
        let sc = load_str(&text, "t").unwrap();
        let dra = &sc.cluster.dra;
        assert!(dra.reported);
        let g = dra.claim("default", "p-gpu").expect("generated");
        assert_eq!(g.metadata.labels.get("team").map(String::as_str), Some("ml"));
        assert_eq!(
            g.metadata
                .annotations
                .get("resource.kubernetes.io/pod-claim-name")
                .map(String::as_str),
            Some("gpu")
        );
        let owner = &g.metadata.owner_references[0];
        assert_eq!(
            (owner.kind.as_str(), owner.uid.as_str(), owner.controller),
            ("Pod", "uid-pod-default-p", Some(true))
        );
        let ex = g.spec.devices.requests[0].exactly.as_ref().unwrap();
        assert_eq!((ex.allocation_mode.as_deref(), ex.count), (Some("ExactCount"), Some(1)));
        let p = &sc.pods[0];
        assert_eq!(
            p.status.resource_claim_statuses.as_deref(),
            Some(&serde_json::json!([{"name": "gpu", "resourceClaimName": "p-gpu"}]))
        );
        let s = dra.claim("default", "shared").unwrap();
        let ex = s.spec.devices.requests[0].exactly.as_ref().unwrap();
        assert_eq!(ex.count, None, "All has no count");
        assert_eq!(
            s.metadata.finalizers.as_deref(),
            Some(&["resource.kubernetes.io/delete-protection".to_string()][..])
        );
        let rf: Vec<(&str, &str, &str)> = s
            .status
            .reserved_for
            .iter()
            .map(|r| (r.resource.as_str(), r.name.as_str(), r.uid.as_str()))
            .collect();
        assert_eq!(rf, vec![("pods", "old", "uid-pod-default-old"), ("pods", "r", "uid-pod-default-r")]);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn rejected_scenarios() {
        let slice = |extra: &str| {
            format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s}}\nspec:\n  driver: d\n  pool: {{name: p, resourceSliceCount: 1}}\n{extra}")
        };
        let cases: Vec<(&str, String, &str)> = vec![
            (
                "shared counters",
                slice("  nodeName: n\n  sharedCounters: []\n"),
                "spec.sharedCounters: Forbidden: not supported in the simulated cluster: feature gate DRAPartitionableDevices is off",
            ),
            (
                "device taints",
                slice("  nodeName: n\n  devices: [{name: x, taints: []}]\n"),
                "spec.devices[0].taints: Forbidden",
            ),
            ("no node choice", slice(""), "exactly one of `nodeName`, `nodeSelector`, `allNodes` is required"),
            (
                "two node choices",
                slice("  nodeName: n\n  allNodes: true\n"),
                "exactly one of `nodeName`, `nodeSelector`, `allNodes` is required",
            ),
            (
                "bad version",
                slice("  nodeName: n\n  devices: [{name: x, attributes: {fw: {version: v1}}}]\n"),
                "must be a string compatible with semver.org spec 2.0.0",
            ),
            (
                "request tolerations",
                "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu, tolerations: []}}]}}\n".into(),
                "spec.devices.requests[0].exactly.tolerations: Forbidden",
            ),
            (
                "both request kinds",
                "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu}, firstAvailable: [{name: a, deviceClassName: gpu}]}]}}\n".into(),
                "exactly one of `exactly` or `firstAvailable` is required",
            ),
            (
                "unknown field",
                "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: x}\nspec: {selector: []}\n".into(),
                "unknown field",
            ),
            (
                "missing template",
                pod("p", "  resourceClaims: [{name: gpu, resourceClaimTemplateName: nope}]\n"),
                "resourceclaimtemplate.resource.k8s.io \"nope\" not found",
            ),
            (
                "clash with a declared claim",
                format!(
                    "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: p-gpu}}\nspec: {{devices: {{requests: [{{name: g, exactly: {{deviceClassName: gpu}}}}]}}}}\n{}",
                    pod("p", "  resourceClaims: [{name: gpu, resourceClaimTemplateName: one}]\n")
                ),
                "clashes with a ResourceClaim of that name",
            ),
            (
                "bound pod with a template",
                pod("p", "  nodeName: n\n  resourceClaims: [{name: gpu, resourceClaimTemplateName: one}]\n"),
                "is already bound",
            ),
        ];
        for (name, extra, want) in cases {
            let text = format!("{BASE}{extra}");
            let err = load_str(&text, "t").expect_err(name).to_string();
            assert!(err.contains(want), "{name}: {err}");
        }
    }
}
