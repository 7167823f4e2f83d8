//! RFC 7386 JSON merge patches, and the Node and Pod patches a timeline may apply: which fields
//! they may touch and what the API would refuse.

use crate::api::{self, Labels, ResourceList};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// Applies `patch` to `target` (RFC 7386): an object patch merges key by key, `null` deletes a
/// key, anything else (a list included) replaces the target whole.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(t) = target else {
        unreachable!("made an object above")
    };
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

/// The fields a Node patch may change.
pub const NODE_FIELDS: [&str; 5] = [
    "metadata.labels",
    "spec.taints",
    "spec.unschedulable",
    "status.capacity",
    "status.allocatable",
];
/// The fields a Pod patch may change.
pub const POD_FIELDS: [&str; 4] = ["metadata.labels", "spec.schedulingGates", "spec.tolerations", "status.phase"];

/// Checks that the patch only names `allowed` fields (`section.field`); returns the first
/// field it may not change.
fn check_fields(patch: &Value, allowed: &[&str], kind: &str) -> Result<(), String> {
    let Value::Object(top) = patch else {
        return Err(format!("merge must be an object, not {}", json_kind(patch)));
    };
    let listing = allowed.join(", ");
    for (section, v) in top {
        let sub = match v {
            Value::Object(sub) => sub,
            _ => return Err(format!("field {section} may not be patched (a {kind} patch may change {listing})")),
        };
        for field in sub.keys() {
            let path = format!("{section}.{field}");
            if !allowed.contains(&path.as_str()) {
                return Err(format!("field {path} may not be patched (a {kind} patch may change {listing})"));
            }
        }
    }
    Ok(())
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The part of the patch at `section.field`, if given.
fn part<'a>(patch: &'a Value, section: &str, field: &str) -> Option<&'a Value> {
    patch.get(section).and_then(|s| s.as_object()).and_then(|s| s.get(field))
}

/// `current` with the merge patch `p` applied, through its JSON form.
fn merged<T: Serialize + DeserializeOwned + Default>(current: &T, p: &Value, path: &str) -> Result<T, String> {
    let mut v = serde_json::to_value(current).map_err(|e| format!("{path}: {e}"))?;
    merge_patch(&mut v, p);
    if v.is_null() {
        return Ok(T::default());
    }
    // As the loader decodes: a struct only from an object (serde_json alone would take an array).
    T::deserialize(crate::apimachinery::json::Strict::new(v)).map_err(|e| format!("{path}: {e}"))
}

/// The Node after a merge patch. Only labels, taints, `spec.unschedulable`, capacity and
/// allocatable may change; a capacity entry the patch does not also set in allocatable is
/// copied there (removed with it when the patch deletes it).
pub fn patch_node(node: &api::Node, patch: &Value) -> Result<api::Node, String> {
    check_fields(patch, &NODE_FIELDS, "Node")?;
    let mut n = node.clone();
    if let Some(p) = part(patch, "metadata", "labels") {
        n.metadata.labels = merged::<Labels>(&node.metadata.labels, p, "metadata.labels")?;
    }
    if let Some(p) = part(patch, "spec", "taints") {
        n.spec.taints = merged::<Vec<api::Taint>>(&node.spec.taints, p, "spec.taints")?;
    }
    if let Some(p) = part(patch, "spec", "unschedulable") {
        n.spec.unschedulable = merged::<Option<bool>>(&node.spec.unschedulable, p, "spec.unschedulable")?;
    }
    let cap_patch = part(patch, "status", "capacity");
    let alloc_patch = part(patch, "status", "allocatable");
    if let Some(p) = cap_patch {
        n.status.capacity = merged::<ResourceList>(&node.status.capacity, p, "status.capacity")?;
    }
    if let Some(p) = alloc_patch {
        n.status.allocatable = merged::<ResourceList>(&node.status.allocatable, p, "status.allocatable")?;
    }
    // Allocatable follows capacity where the patch does not say otherwise.
    if let Some(Value::Object(cap)) = cap_patch {
        let set_in_alloc = |k: &str| alloc_patch.and_then(|a| a.get(k)).is_some();
        for (k, v) in cap {
            if set_in_alloc(k) {
                continue;
            }
            if v.is_null() {
                n.status.allocatable.remove(k);
            } else if let Some(q) = n.status.capacity.get(k) {
                n.status.allocatable.insert(k.clone(), *q);
            }
        }
    } else if matches!(cap_patch, Some(Value::Null)) && alloc_patch.is_none() {
        n.status.allocatable.clear();
    }
    Ok(n)
}

/// The Pod after a merge patch. Labels may change; scheduling gates may only be removed;
/// tolerations may only be added; `status.phase` may only become Succeeded or Failed.
pub fn patch_pod(pod: &api::Pod, patch: &Value) -> Result<api::Pod, String> {
    check_fields(patch, &POD_FIELDS, "Pod")?;
    let mut p = pod.clone();
    if let Some(v) = part(patch, "metadata", "labels") {
        p.metadata.labels = merged::<Labels>(&pod.metadata.labels, v, "metadata.labels")?;
    }
    if let Some(v) = part(patch, "spec", "schedulingGates") {
        p.spec.scheduling_gates = merged::<Vec<api::PodSchedulingGate>>(&pod.spec.scheduling_gates, v, "spec.schedulingGates")?;
        for g in &p.spec.scheduling_gates {
            if !pod.spec.scheduling_gates.iter().any(|o| o.name == g.name) {
                return Err(format!(
                    "spec.schedulingGates: Forbidden: only deletion is allowed, but found new scheduling gate '{}'",
                    g.name
                ));
            }
        }
    }
    if let Some(v) = part(patch, "spec", "tolerations") {
        p.spec.tolerations = merged::<Vec<api::Toleration>>(&pod.spec.tolerations, v, "spec.tolerations")?;
        for old in &pod.spec.tolerations {
            if !p.spec.tolerations.contains(old) {
                return Err(format!(
                    "spec.tolerations: Forbidden: existing toleration can not be removed or modified (key {:?}); tolerations may only be added",
                    old.key.as_deref().unwrap_or("")
                ));
            }
        }
    }
    if let Some(v) = part(patch, "status", "phase") {
        match v.as_str() {
            Some(ph @ ("Succeeded" | "Failed")) => p.status.phase = Some(ph.to_string()),
            _ => {
                return Err(format!(
                    "status.phase: Unsupported value: {v}: a timeline may only set \"Succeeded\" or \"Failed\""
                ))
            }
        }
    }
    Ok(p)
}

/// The field a Deployment, ReplicaSet or StatefulSet patch may change.
pub const WORKLOAD_FIELDS: [&str; 1] = ["spec.replicas"];

/// The replica count a workload patch sets (`{spec: {replicas: N}}`, N ≥ 0; `null` restores
/// the default, 1). `kind` words the errors.
pub fn patch_replicas(patch: &Value, kind: &str) -> Result<i32, String> {
    check_fields(patch, &WORKLOAD_FIELDS, kind)?;
    match part(patch, "spec", "replicas") {
        None => Err("Required value: spec.replicas".into()),
        Some(Value::Null) => Ok(1),
        Some(v) => match v.as_i64() {
            Some(n) if (0..=i32::MAX as i64).contains(&n) => Ok(n as i32),
            Some(n) => Err(format!("spec.replicas: Invalid value: {n}: must be greater than or equal to 0")),
            None => Err(format!("spec.replicas: must be an integer, not {}", json_kind(v))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn merge_patch_follows_rfc_7386() {
        // The examples of RFC 7386's appendix A.
        let cases = [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "b"}), json!({"b": "c"}), json!({"a": "b", "b": "c"})),
            (json!({"a": "b"}), json!({"a": null}), json!({})),
            (json!({"a": "b", "b": "c"}), json!({"a": null}), json!({"b": "c"})),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
            (
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}}),
                json!({"a": {"b": "d"}}),
            ),
            (json!({"a": [{"b": "c"}]}), json!({"a": [1]}), json!({"a": [1]})),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a": "b"}), json!(["c"]), json!(["c"])),
            (json!({"a": "foo"}), json!(null), json!(null)),
            (json!({"a": "foo"}), json!("bar"), json!("bar")),
            (json!({"e": null}), json!({"a": 1}), json!({"e": null, "a": 1})),
            (json!([1, 2]), json!({"a": "b", "c": null}), json!({"a": "b"})),
            (json!({}), json!({"a": {"bb": {"ccc": null}}}), json!({"a": {"bb": {}}})),
        ];
        for (target, patch, want) in cases {
            let mut t = target.clone();
            merge_patch(&mut t, &patch);
            assert_eq!(t, want, "{target} + {patch}");
        }
    }

    fn node() -> api::Node {
        serde_json::from_value(json!({
            "metadata": {"name": "n", "labels": {"a": "1", "b": "2"}},
            "spec": {"taints": [{"key": "k", "effect": "NoSchedule"}]},
            "status": {"capacity": {"cpu": "4", "memory": "8Gi"}, "allocatable": {"cpu": "3", "memory": "8Gi"}}
        }))
        .unwrap()
    }

    fn pod() -> api::Pod {
        serde_json::from_value(json!({
            "metadata": {"name": "p", "labels": {"app": "x"}},
            "spec": {
                "containers": [{"name": "c", "image": "i"}],
                "schedulingGates": [{"name": "g1"}, {"name": "g2"}],
                "tolerations": [{"key": "t", "operator": "Exists"}]
            }
        }))
        .unwrap()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_list_for_an_object_is_refused_as_the_loader_refuses_it() {
        let e = patch_node(&node(), &json!({"spec": {"taints": [["gpu", "true", "NoSchedule"]]}})).unwrap_err();
        assert!(e.starts_with("spec.taints: invalid type: sequence, expected"), "{e}");
    }

    #[test]
    fn node_patches() {
        let n = node();
        let p = patch_node(
            &n,
            &json!({"metadata": {"labels": {"a": null, "c": "3"}}, "spec": {"unschedulable": true}}),
        )
        .unwrap();
        assert_eq!(
            p.metadata.labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
            ["b=2", "c=3"]
        );
        assert_eq!(p.spec.unschedulable, Some(true));
        let p = patch_node(&n, &json!({"spec": {"taints": null}})).unwrap();
        assert!(p.spec.taints.is_empty());
        // Capacity drags allocatable along unless the patch sets it.
        let p = patch_node(&n, &json!({"status": {"capacity": {"cpu": "8", "pods": "10"}}})).unwrap();
        let q = |rl: &ResourceList, k: &str| rl.get(k).map(|q| q.value());
        assert_eq!(
            (q(&p.status.allocatable, "cpu"), q(&p.status.allocatable, "pods")),
            (Some(8), Some(10))
        );
        let p = patch_node(&n, &json!({"status": {"capacity": {"cpu": "8"}, "allocatable": {"cpu": "7"}}})).unwrap();
        assert_eq!(q(&p.status.allocatable, "cpu"), Some(7));
        let p = patch_node(&n, &json!({"status": {"capacity": {"memory": null}}})).unwrap();
        assert_eq!((q(&p.status.capacity, "memory"), q(&p.status.allocatable, "memory")), (None, None));
        // Fields a patch may not touch.
        for bad in [
            json!({"metadata": {"annotations": {"x": "y"}}}),
            json!({"spec": {"podCIDR": "10.0.0.0/24"}}),
            json!({"metadata": null}),
            json!({"kind": "Pod"}),
            json!([1]),
        ] {
            assert!(patch_node(&n, &bad).is_err(), "{bad}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pod_patches() {
        let p0 = pod();
        let p = patch_pod(&p0, &json!({"spec": {"schedulingGates": [{"name": "g2"}]}})).unwrap();
        assert_eq!(p.spec.scheduling_gates.len(), 1);
        let p = patch_pod(&p0, &json!({"spec": {"schedulingGates": null}})).unwrap();
        assert!(p.spec.scheduling_gates.is_empty());
        let e = patch_pod(&p0, &json!({"spec": {"schedulingGates": [{"name": "g3"}]}})).unwrap_err();
        assert!(e.contains("only deletion is allowed, but found new scheduling gate 'g3'"), "{e}");
        let p = patch_pod(
            &p0,
            &json!({"spec": {"tolerations": [{"key": "t", "operator": "Exists"}, {"key": "u", "operator": "Exists"}]}}),
        )
        .unwrap();
        assert_eq!(p.spec.tolerations.len(), 2);
        assert!(patch_pod(&p0, &json!({"spec": {"tolerations": []}})).is_err());
        let p = patch_pod(&p0, &json!({"status": {"phase": "Succeeded"}})).unwrap();
        assert_eq!(p.status.phase.as_deref(), Some("Succeeded"));
        assert!(patch_pod(&p0, &json!({"status": {"phase": "Running"}})).is_err());
        assert!(patch_pod(&p0, &json!({"spec": {"nodeName": "n"}})).is_err());
        assert!(patch_pod(&p0, &json!({"status": {"nominatedNodeName": "n"}})).is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn replicas_patches() {
        let cases: [(Value, Result<i32, &str>); 5] = [
            (json!({"spec": {"replicas": 5}}), Ok(5)),
            (json!({"spec": {"replicas": 0}}), Ok(0)),
            (json!({"spec": {"replicas": null}}), Ok(1)),
            (
                json!({"spec": {"replicas": -1}}),
                Err("spec.replicas: Invalid value: -1: must be greater than or equal to 0"),
            ),
            (
                json!({"spec": {"paused": true}}),
                Err("field spec.paused may not be patched (a Deployment patch may change spec.replicas)"),
            ),
        ];
        for (patch, want) in cases {
            assert_eq!(patch_replicas(&patch, "Deployment"), want.map_err(String::from), "{patch}");
        }
    }
}
