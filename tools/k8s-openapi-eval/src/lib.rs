//! Evaluation of k8s-openapi against schedlab's hand-written api types (issue 8 item 4).
//! `decode(kind, json)` decodes one object of any kind the loader reads, strictly.
//! See README.md.
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

#[allow(dead_code)]
fn strict<T: DeserializeOwned>(v: serde_json::Value) -> Result<usize, String> {
    #[cfg(feature = "theirs")]
    {
        let mut unknown = Vec::new();
        let mut note = |p: serde_ignored::Path<'_>| unknown.push(p.to_string());
        let d = serde_ignored::Deserializer::new(v, &mut note);
        let t: Result<T, _> = serde_path_to_error::deserialize(d);
        let _t = t.map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
        if let Some(p) = unknown.first() {
            return Err(format!("{p}: unknown field"));
        }
        return Ok(std::mem::size_of::<T>());
    }
    #[cfg(all(feature = "ours", not(feature = "theirs")))]
    {
        let t: Result<T, _> = serde_path_to_error::deserialize(v);
        let _t = t.map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
        return Ok(std::mem::size_of::<T>());
    }
    #[allow(unreachable_code)]
    Ok(v.as_object().map_or(0, |m| m.len()))
}

#[cfg(feature = "theirs")]
pub fn decode_value(kind: &str, v: serde_json::Value) -> Result<usize, String> {
    use k8s_openapi::api::{apps::v1 as apps, batch::v1 as batch, core::v1 as core, policy::v1 as policy, resource::v1 as res, scheduling::v1 as sched, storage::v1 as storage};
    match kind {
        "Pod" => strict::<core::Pod>(v),
        "Node" => strict::<core::Node>(v),
        "Namespace" => strict::<core::Namespace>(v),
        "PersistentVolume" => strict::<core::PersistentVolume>(v),
        "PersistentVolumeClaim" => strict::<core::PersistentVolumeClaim>(v),
        "Service" => strict::<core::Service>(v),
        "ReplicationController" => strict::<core::ReplicationController>(v),
        "PriorityClass" => strict::<sched::PriorityClass>(v),
        "StorageClass" => strict::<storage::StorageClass>(v),
        "CSINode" => strict::<storage::CSINode>(v),
        "CSIDriver" => strict::<storage::CSIDriver>(v),
        "PodDisruptionBudget" => strict::<policy::PodDisruptionBudget>(v),
        "DeviceClass" => strict::<res::DeviceClass>(v),
        "ResourceSlice" => strict::<res::ResourceSlice>(v),
        "ResourceClaim" => strict::<res::ResourceClaim>(v),
        "ResourceClaimTemplate" => strict::<res::ResourceClaimTemplate>(v),
        "ReplicaSet" => strict::<apps::ReplicaSet>(v),
        "StatefulSet" => strict::<apps::StatefulSet>(v),
        "Deployment" => strict::<apps::Deployment>(v),
        "DaemonSet" => strict::<apps::DaemonSet>(v),
        "Job" => strict::<batch::Job>(v),
        _ => Err("kind".into()),
    }
}

#[cfg(all(feature = "ours", not(feature = "theirs")))]
pub fn decode_value(kind: &str, v: serde_json::Value) -> Result<usize, String> {
    use schedlab_core::api::{resource::*, *};
    match kind {
        "Pod" => strict::<Pod>(v),
        "Node" => strict::<Node>(v),
        "Namespace" => strict::<Namespace>(v),
        "PersistentVolume" => strict::<PersistentVolume>(v),
        "PersistentVolumeClaim" => strict::<PersistentVolumeClaim>(v),
        "Service" => strict::<Service>(v),
        "ReplicationController" => strict::<ReplicationController>(v),
        "PriorityClass" => strict::<PriorityClass>(v),
        "StorageClass" => strict::<StorageClass>(v),
        "CSINode" => strict::<CsiNode>(v),
        "CSIDriver" => strict::<CsiDriver>(v),
        "PodDisruptionBudget" => strict::<PodDisruptionBudget>(v),
        "DeviceClass" => strict::<DeviceClass>(v),
        "ResourceSlice" => strict::<ResourceSlice>(v),
        "ResourceClaim" => strict::<ResourceClaim>(v),
        "ResourceClaimTemplate" => strict::<ResourceClaimTemplate>(v),
        "ReplicaSet" => strict::<ReplicaSet>(v),
        "StatefulSet" => strict::<StatefulSet>(v),
        "Deployment" => strict::<Deployment>(v),
        "DaemonSet" => strict::<DaemonSet>(v),
        "Job" => strict::<Job>(v),
        _ => Err("kind".into()),
    }
}

#[cfg(not(any(feature = "ours", feature = "theirs")))]
pub fn decode_value(_kind: &str, v: serde_json::Value) -> Result<usize, String> {
    strict::<()>(v)
}

#[wasm_bindgen]
pub fn decode(kind: &str, json: &str) -> Result<usize, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    decode_value(kind, v)
}
