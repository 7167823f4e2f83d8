//! Storage helpers the volume plugins share: claim and class lookups, PersistentVolume node
//! affinity, generic ephemeral volumes (component-helpers/storage) and the in-tree to CSI
//! migration rules of csi-translation-lib that the scheduler relies on.

use crate::api::{
    self, Labels, NodeSelectorRequirement, NodeSelectorTerm, ObjectMeta, PersistentVolume, PersistentVolumeClaim, Pod,
    TopologySelectorTerm, Volume, VolumeNodeAffinity,
};
use crate::cluster::Cluster;
use crate::labels::CompiledNodeSelectorTerm;
use std::collections::BTreeSet;

pub const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
pub const ANN_BOUND_BY_CONTROLLER: &str = "pv.kubernetes.io/bound-by-controller";
pub const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
pub const ANN_PROVISIONED_BY: &str = "pv.kubernetes.io/provisioned-by";
pub const ANN_BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";
pub const ANN_MIGRATED_PLUGINS: &str = "storage.alpha.kubernetes.io/migrated-plugins";
pub const NOT_SUPPORTED_PROVISIONER: &str = "kubernetes.io/no-provisioner";

pub const LABEL_ZONE: &str = "topology.kubernetes.io/zone";
pub const LABEL_REGION: &str = "topology.kubernetes.io/region";
pub const LABEL_BETA_ZONE: &str = "failure-domain.beta.kubernetes.io/zone";
pub const LABEL_BETA_REGION: &str = "failure-domain.beta.kubernetes.io/region";
/// Separates the zones of a multi-zone volume label value.
pub const MULTI_ZONE_DELIMITER: &str = "__";

/// The namespace of an object (defaulted to `default`).
pub fn namespace_of(meta: &ObjectMeta) -> &str {
    meta.namespace.as_deref().unwrap_or("default")
}

/// The apiserver's NotFound message for a resource (`persistentvolumeclaim "x" not found`).
pub fn not_found(resource: &str, name: &str) -> String {
    format!("{resource} {name:?} not found")
}

/// A claim's storage class: the beta annotation first, then `spec.storageClassName`.
pub fn pvc_class(pvc: &PersistentVolumeClaim) -> &str {
    if let Some(c) = pvc.metadata.annotations.get(ANN_BETA_STORAGE_CLASS) {
        return c;
    }
    pvc.spec.storage_class_name.as_deref().unwrap_or("")
}

/// A volume's storage class: the beta annotation first, then `spec.storageClassName`.
pub fn pv_class(pv: &PersistentVolume) -> &str {
    if let Some(c) = pv.metadata.annotations.get(ANN_BETA_STORAGE_CLASS) {
        return c;
    }
    pv.spec.storage_class_name.as_deref().unwrap_or("")
}

/// The claim a pod volume uses: `(claim name, is a generic ephemeral volume)`; None for
/// volumes that use no claim.
pub fn claim_of_volume(pod: &Pod, vol: &Volume) -> Option<(String, bool)> {
    if let Some(p) = &vol.persistent_volume_claim {
        return Some((p.claim_name.clone(), false));
    }
    if vol.ephemeral.is_some() {
        return Some((ephemeral_claim_name(pod, vol), true));
    }
    None
}

/// The name of the claim created for a generic ephemeral volume.
pub fn ephemeral_claim_name(pod: &Pod, vol: &Volume) -> String {
    format!("{}-{}", pod.metadata.name, vol.name)
}

/// An ephemeral volume's claim must be controlled by the pod.
pub fn volume_is_for_pod(pod: &Pod, pvc: &PersistentVolumeClaim) -> Result<(), String> {
    let pod_ns = namespace_of(&pod.metadata);
    let pvc_ns = namespace_of(&pvc.metadata);
    let pod_uid = pod.metadata.uid.as_deref().unwrap_or("");
    let controlled = pvc
        .metadata
        .owner_references
        .iter()
        .find(|o| o.controller == Some(true))
        .is_some_and(|o| o.uid == pod_uid);
    if pvc_ns != pod_ns || !controlled {
        return Err(format!(
            "PVC {}/{} was not created for pod {}/{} (pod is not owner)",
            pvc_ns, pvc.metadata.name, pod_ns, pod.metadata.name
        ));
    }
    Ok(())
}

/// A claim is fully bound when it names a volume and the binding completed.
pub fn is_pvc_fully_bound(pvc: &PersistentVolumeClaim) -> bool {
    pvc.spec.volume_name.as_deref().is_some_and(|v| !v.is_empty()) && pvc.metadata.annotations.contains_key(ANN_BIND_COMPLETED)
}

/// Whether a claim's class delays binding until a pod uses it (WaitForFirstConsumer); a claim
/// without a class or with a missing class binds immediately.
pub fn is_delay_binding_mode(cluster: &Cluster, pvc: &PersistentVolumeClaim) -> bool {
    let class = pvc_class(pvc);
    if class.is_empty() {
        return false;
    }
    cluster
        .storage_classes
        .get(class)
        .is_some_and(|c| c.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer"))
}

/// A volume's required node affinity, compiled. Matching looks at node labels only: the
/// volume helpers build a node from labels alone, so `matchFields` terms never exclude a node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PvAffinity {
    /// None: no requirement (every node matches).
    terms: Option<Vec<CompiledNodeSelectorTerm>>,
}

impl PvAffinity {
    pub fn of(na: Option<&VolumeNodeAffinity>) -> PvAffinity {
        PvAffinity {
            terms: na
                .and_then(|na| na.required.as_ref())
                .map(|r| r.node_selector_terms.iter().map(CompiledNodeSelectorTerm::compile).collect()),
        }
    }
    pub fn from_pv(pv: &PersistentVolume) -> PvAffinity {
        PvAffinity::of(pv.spec.node_affinity.as_ref())
    }
    /// volume.CheckNodeAffinity succeeding.
    pub fn matches(&self, labels: &Labels) -> bool {
        let Some(terms) = &self.terms else { return true };
        // Invalid and empty terms match nothing.
        let usable = |t: &CompiledNodeSelectorTerm| !t.invalid && (!t.exprs.is_empty() || !t.fields.is_empty());
        terms.iter().any(|t| usable(t) && t.exprs.iter().all(|r| r.matches(labels)))
    }
}

/// Whether node labels satisfy a StorageClass's allowedTopologies (no terms: any node).
pub fn match_topology_selector_terms(terms: &[TopologySelectorTerm], labels: &Labels) -> bool {
    if terms.is_empty() {
        return true;
    }
    terms.iter().any(|t| {
        !t.match_label_expressions.is_empty()
            && t.match_label_expressions
                .iter()
                .all(|r| labels.get(&r.key).is_some_and(|v| r.values.iter().any(|x| x == v)))
    })
}

/// The zones of a (possibly multi-zone) volume label value; None when an entry is empty.
pub fn label_zones_to_set(value: &str) -> Option<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for z in value.split(MULTI_ZONE_DELIMITER) {
        let z = z.trim();
        if z.is_empty() {
            return None;
        }
        out.insert(z.to_string());
    }
    Some(out)
}

/// The in-tree volume plugins csi-translation-lib knows how to migrate to CSI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InTreePlugin {
    GcePd,
    AwsEbs,
    Cinder,
    AzureDisk,
    AzureFile,
    VSphere,
    Portworx,
}

/// A CSI volume source: the driver and the volume's handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsiSource {
    pub driver: String,
    pub handle: String,
}

const GCE_PD_TOPOLOGY_KEY: &str = "topology.gke.io/zone";
const AWS_EBS_TOPOLOGY_KEY: &str = "topology.ebs.csi.aws.com/zone";
const CINDER_TOPOLOGY_KEY: &str = "topology.cinder.csi.openstack.org/zone";
const UNSPECIFIED: &str = "UNSPECIFIED";

fn opaque_str<'a, T: std::ops::Deref<Target = api::Opaque>>(v: &'a Option<T>, key: &str) -> &'a str {
    v.as_ref().and_then(|o| o.get(key)).and_then(|s| s.as_str()).unwrap_or("")
}

impl InTreePlugin {
    pub fn name(self) -> &'static str {
        match self {
            InTreePlugin::GcePd => "kubernetes.io/gce-pd",
            InTreePlugin::AwsEbs => "kubernetes.io/aws-ebs",
            InTreePlugin::Cinder => "kubernetes.io/cinder",
            InTreePlugin::AzureDisk => "kubernetes.io/azure-disk",
            InTreePlugin::AzureFile => "kubernetes.io/azure-file",
            InTreePlugin::VSphere => "kubernetes.io/vsphere-volume",
            InTreePlugin::Portworx => "kubernetes.io/portworx-volume",
        }
    }
    pub fn csi_driver(self) -> &'static str {
        match self {
            InTreePlugin::GcePd => "pd.csi.storage.gke.io",
            InTreePlugin::AwsEbs => "ebs.csi.aws.com",
            InTreePlugin::Cinder => "cinder.csi.openstack.org",
            InTreePlugin::AzureDisk => "disk.csi.azure.com",
            InTreePlugin::AzureFile => "file.csi.azure.com",
            InTreePlugin::VSphere => "csi.vsphere.vmware.com",
            InTreePlugin::Portworx => "pxd.portworx.com",
        }
    }
    const ALL: [InTreePlugin; 7] = [
        InTreePlugin::GcePd,
        InTreePlugin::AwsEbs,
        InTreePlugin::Cinder,
        InTreePlugin::AzureDisk,
        InTreePlugin::AzureFile,
        InTreePlugin::VSphere,
        InTreePlugin::Portworx,
    ];
    /// The in-tree plugin with this name (e.g. a StorageClass provisioner).
    pub fn by_name(name: &str) -> Option<InTreePlugin> {
        InTreePlugin::ALL.into_iter().find(|p| p.name() == name)
    }
    /// The migratable plugin of a PersistentVolume's source.
    pub fn of_pv(pv: &PersistentVolume) -> Option<InTreePlugin> {
        let s = &pv.spec;
        if s.gce_persistent_disk.is_some() {
            Some(InTreePlugin::GcePd)
        } else if s.aws_elastic_block_store.is_some() {
            Some(InTreePlugin::AwsEbs)
        } else if s.cinder.is_some() {
            Some(InTreePlugin::Cinder)
        } else if s.azure_disk.is_some() {
            Some(InTreePlugin::AzureDisk)
        } else if s.azure_file.is_some() {
            Some(InTreePlugin::AzureFile)
        } else if s.vsphere_volume.is_some() {
            Some(InTreePlugin::VSphere)
        } else if s.portworx_volume.is_some() {
            Some(InTreePlugin::Portworx)
        } else {
            None
        }
    }
    /// The migratable plugin of an inline pod volume.
    pub fn of_inline(v: &Volume) -> Option<InTreePlugin> {
        if v.gce_persistent_disk.is_some() {
            Some(InTreePlugin::GcePd)
        } else if v.aws_elastic_block_store.is_some() {
            Some(InTreePlugin::AwsEbs)
        } else if v.cinder.is_some() {
            Some(InTreePlugin::Cinder)
        } else if v.azure_disk.is_some() {
            Some(InTreePlugin::AzureDisk)
        } else if v.azure_file.is_some() {
            Some(InTreePlugin::AzureFile)
        } else if v.vsphere_volume.is_some() {
            Some(InTreePlugin::VSphere)
        } else if v.portworx_volume.is_some() {
            Some(InTreePlugin::Portworx)
        } else {
            None
        }
    }
    /// Whether CSI migration is switched on for the plugin in v1.34 (Portworx's gate is on and
    /// locked; Azure File and vSphere are never treated as migrated by the scheduler).
    pub fn migration_on(self) -> bool {
        !matches!(self, InTreePlugin::AzureFile | InTreePlugin::VSphere)
    }
}

/// Whether the node's CSINode lists the plugin as migrated (the migrated-plugins annotation).
pub fn plugin_migrated_on_node(plugin: InTreePlugin, csi_node: Option<&api::CsiNode>) -> bool {
    let Some(cn) = csi_node else { return false };
    cn.metadata
        .annotations
        .get(ANN_MIGRATED_PLUGINS)
        .is_some_and(|v| !v.is_empty() && v.split(',').any(|p| p == plugin.name()))
}

/// The volume-limits view of migration: with a CSINode, AWS EBS, GCE PD, Azure Disk and Cinder
/// count as migrated outright; Portworx only when the CSINode's annotation lists it.
pub fn limits_migration_on(plugin: InTreePlugin, csi_node: Option<&api::CsiNode>) -> bool {
    if csi_node.is_none() {
        return false;
    }
    match plugin {
        InTreePlugin::AwsEbs | InTreePlugin::GcePd | InTreePlugin::AzureDisk | InTreePlugin::Cinder => true,
        InTreePlugin::Portworx => plugin_migrated_on_node(plugin, csi_node),
        InTreePlugin::AzureFile | InTreePlugin::VSphere => false,
    }
}

/// An AWS volume ID as the EBS CSI driver expects it (`aws://zone/vol-x` becomes `vol-x`).
fn ebs_volume_id(id: &str) -> Result<String, String> {
    let Some(rest) = id.strip_prefix("aws://") else {
        return Ok(id.to_string());
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let path = rest.find('/').map(|i| &rest[i..]).unwrap_or("");
    let aws_id = path.trim_matches('/');
    let valid = aws_id.strip_prefix("vol-").is_some_and(|s| !s.contains('/'));
    if !valid {
        return Err(format!("Invalid format for AWS volume ({id})"));
    }
    Ok(aws_id.to_string())
}

fn gce_region_from_zones(zones: &[&str]) -> Result<String, String> {
    if zones.is_empty() {
        return Err("no zones specified".into());
    }
    let mut regions = BTreeSet::new();
    for z in zones {
        let parts: Vec<&str> = z.split('-').collect();
        if parts.len() != 3 {
            return Err(format!(
                "zone in unexpected format, expected: {{locale}}-{{region}}-{{zone}}, got: {z}"
            ));
        }
        regions.insert(parts[..2].join("-"));
    }
    if regions.len() != 1 {
        return Err(format!(
            "multiple or no regions gotten from zones, got: {}",
            regions.into_iter().collect::<Vec<_>>().join(",")
        ));
    }
    Ok(regions.into_iter().next().unwrap_or_default())
}

fn azure_disk_kind_ok(kind: Option<&str>) -> Result<(), String> {
    match kind {
        Some(k) if !k.eq_ignore_ascii_case("Managed") => Err(format!("kind({k}) is not supported in csi migration")),
        _ => Ok(()),
    }
}

/// The CSI source of an inline in-tree volume (TranslateInTreeInlineVolumeToCSI); Ok(None) for
/// plugins whose inline volumes have no CSI form here.
pub fn translate_inline(v: &Volume) -> Result<Option<CsiSource>, String> {
    let Some(p) = InTreePlugin::of_inline(v) else {
        return Err(format!("could not find in-tree plugin translation logic for {:?}", v.name));
    };
    let handle = match p {
        InTreePlugin::GcePd => {
            let pd = v.gce_persistent_disk.as_ref().map(|g| g.pd_name.as_str()).unwrap_or("");
            format!("projects/{UNSPECIFIED}/zones/{UNSPECIFIED}/disks/{pd}")
        }
        InTreePlugin::AwsEbs => {
            let id = v.aws_elastic_block_store.as_ref().map(|a| a.volume_id.as_str()).unwrap_or("");
            ebs_volume_id(id).map_err(|e| format!("failed to translate Kubernetes ID to EBS Volume ID {e}"))?
        }
        InTreePlugin::Cinder => v.cinder.as_ref().map(|c| c.volume_id.clone()).unwrap_or_default(),
        InTreePlugin::AzureDisk => {
            let a = v.azure_disk.as_ref().expect("azure disk source");
            azure_disk_kind_ok(a.kind.as_deref())?;
            a.disk_uri.clone()
        }
        InTreePlugin::Portworx => opaque_str(&v.portworx_volume, "volumeID").to_string(),
        // Not migrated by the scheduler; callers never get here for these.
        InTreePlugin::AzureFile | InTreePlugin::VSphere => return Ok(None),
    };
    Ok(Some(CsiSource {
        driver: p.csi_driver().to_string(),
        handle,
    }))
}

/// An in-tree PersistentVolume translated to CSI: its CSI source and its (translated) node
/// affinity.
#[derive(Clone, Debug)]
pub struct TranslatedPv {
    pub csi: CsiSource,
    pub node_affinity: Option<VolumeNodeAffinity>,
}

/// TranslateInTreePVToCSI for the plugins the scheduler migrates.
pub fn translate_pv(pv: &PersistentVolume) -> Result<TranslatedPv, String> {
    let Some(p) = InTreePlugin::of_pv(pv) else {
        return Err(format!(
            "could not find in-tree plugin translation logic for {:?}",
            pv.metadata.name
        ));
    };
    let mut na = pv.spec.node_affinity.clone();
    let labels = &pv.metadata.labels;
    let handle = match p {
        InTreePlugin::GcePd => {
            let pd = pv.spec.gce_persistent_disk.as_ref().map(|g| g.pd_name.as_str()).unwrap_or("");
            let zones_label = labels
                .get(LABEL_BETA_ZONE)
                .filter(|v| !v.is_empty())
                .or_else(|| labels.get(LABEL_ZONE))
                .map(String::as_str)
                .unwrap_or("");
            let zones: Vec<&str> = zones_label.split(MULTI_ZONE_DELIMITER).collect();
            let id = if zones.len() == 1 && !zones[0].is_empty() {
                format!("projects/{UNSPECIFIED}/zones/{}/disks/{pd}", zones[0])
            } else if zones.len() > 1 {
                let region = gce_region_from_zones(&zones).map_err(|e| format!("failed to get region from zones: {e}"))?;
                format!("projects/{UNSPECIFIED}/regions/{region}/disks/{pd}")
            } else {
                format!("projects/{UNSPECIFIED}/zones/{UNSPECIFIED}/disks/{pd}")
            };
            translate_topology(&mut na, labels, GCE_PD_TOPOLOGY_KEY);
            id
        }
        InTreePlugin::AwsEbs => {
            let id = pv.spec.aws_elastic_block_store.as_ref().map(|a| a.volume_id.as_str()).unwrap_or("");
            let h = ebs_volume_id(id).map_err(|e| format!("failed to translate Kubernetes ID to EBS Volume ID {e}"))?;
            translate_topology(&mut na, labels, AWS_EBS_TOPOLOGY_KEY);
            h
        }
        InTreePlugin::Cinder => {
            let h = opaque_str(&pv.spec.cinder, "volumeID").to_string();
            translate_topology(&mut na, labels, CINDER_TOPOLOGY_KEY);
            h
        }
        InTreePlugin::AzureDisk => {
            let a = pv.spec.azure_disk.as_ref().expect("azure disk source");
            azure_disk_kind_ok(a.kind.as_deref())?;
            a.disk_uri.clone()
        }
        InTreePlugin::Portworx => opaque_str(&pv.spec.portworx_volume, "volumeID").to_string(),
        InTreePlugin::VSphere => opaque_str(&pv.spec.vsphere_volume, "volumePath").to_string(),
        InTreePlugin::AzureFile => pv.metadata.name.clone(),
    };
    Ok(TranslatedPv {
        csi: CsiSource {
            driver: p.csi_driver().to_string(),
            handle,
        },
        node_affinity: na,
    })
}

fn topology_key_exists(na: &Option<VolumeNodeAffinity>, key: &str) -> bool {
    na.as_ref().and_then(|n| n.required.as_ref()).is_some_and(|r| {
        r.node_selector_terms
            .iter()
            .any(|t| t.match_expressions.iter().any(|e| e.key == key))
    })
}

fn topology_values(na: &Option<VolumeNodeAffinity>, key: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(r) = na.as_ref().and_then(|n| n.required.as_ref()) {
        for t in &r.node_selector_terms {
            for e in &t.match_expressions {
                if e.key == key {
                    out.extend(e.values.iter().cloned());
                }
            }
        }
    }
    out
}

fn replace_topology(na: &mut Option<VolumeNodeAffinity>, old: &str, new: &str) {
    if let Some(r) = na.as_mut().and_then(|n| n.required.as_mut()) {
        for t in &mut r.node_selector_terms {
            for e in &mut t.match_expressions {
                if e.key == old {
                    e.key = new.to_string();
                }
            }
        }
    }
}

/// Moves a volume's zone topology onto the CSI driver's topology key: zone requirements in the
/// node affinity are renamed, or the zone label becomes a requirement; beta region
/// requirements become GA ones.
fn translate_topology(na: &mut Option<VolumeNodeAffinity>, labels: &Labels, csi_key: &str) {
    let (zone_label, region_label) = if topology_key_exists(na, LABEL_ZONE) {
        (LABEL_ZONE, LABEL_REGION)
    } else if topology_key_exists(na, LABEL_BETA_ZONE) {
        (LABEL_BETA_ZONE, LABEL_BETA_REGION)
    } else if labels.contains_key(LABEL_ZONE) {
        (LABEL_ZONE, LABEL_REGION)
    } else if labels.contains_key(LABEL_BETA_ZONE) {
        (LABEL_BETA_ZONE, LABEL_BETA_REGION)
    } else {
        (LABEL_ZONE, LABEL_REGION)
    };
    if !topology_values(na, zone_label).is_empty() {
        replace_topology(na, zone_label, csi_key);
    } else if let Some(label) = labels.get(zone_label) {
        let zones: BTreeSet<String> =
            crate::sort::set_of(label.split(MULTI_ZONE_DELIMITER).map(str::trim).filter(|z| !z.is_empty()).map(String::from));
        if !zones.is_empty() {
            let n = na.get_or_insert_with(VolumeNodeAffinity::default);
            let r = n.required.get_or_insert_with(Default::default);
            if r.node_selector_terms.is_empty() {
                r.node_selector_terms.push(NodeSelectorTerm::default());
            }
            for t in &mut r.node_selector_terms {
                t.match_expressions.push(NodeSelectorRequirement {
                    key: csi_key.to_string(),
                    operator: "In".into(),
                    values: zones.iter().cloned().collect(),
                });
            }
        }
    }
    if region_label == LABEL_BETA_REGION && !topology_values(na, region_label).is_empty() {
        replace_topology(na, region_label, LABEL_REGION);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{NodeSelector, TopologySelectorLabelRequirement};

    fn labels(kv: &[(&str, &str)]) -> Labels {
        kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }
    fn affinity(terms: Vec<NodeSelectorTerm>) -> VolumeNodeAffinity {
        VolumeNodeAffinity {
            required: Some(NodeSelector {
                node_selector_terms: terms,
            }),
        }
    }
    fn term(exprs: &[(&str, &str, &[&str])], fields: &[(&str, &str, &[&str])]) -> NodeSelectorTerm {
        let r = |v: &[(&str, &str, &[&str])]| {
            v.iter()
                .map(|(k, op, vals)| NodeSelectorRequirement {
                    key: k.to_string(),
                    operator: op.to_string(),
                    values: vals.iter().map(|s| s.to_string()).collect(),
                })
                .collect()
        };
        NodeSelectorTerm {
            match_expressions: r(exprs),
            match_fields: r(fields),
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pv_affinity_table() {
        let zone_a = labels(&[(LABEL_ZONE, "a")]);
        let cases: Vec<(&str, Option<VolumeNodeAffinity>, bool)> = vec![
            ("no affinity", None, true),
            ("no required", Some(VolumeNodeAffinity { required: None }), true),
            ("no terms", Some(affinity(vec![])), false),
            (
                "matching term",
                Some(affinity(vec![term(&[(LABEL_ZONE, "In", &["a"])], &[])])),
                true,
            ),
            ("other zone", Some(affinity(vec![term(&[(LABEL_ZONE, "In", &["b"])], &[])])), false),
            (
                "terms are ORed",
                Some(affinity(vec![
                    term(&[(LABEL_ZONE, "In", &["b"])], &[]),
                    term(&[(LABEL_ZONE, "Exists", &[])], &[]),
                ])),
                true,
            ),
            ("empty term matches nothing", Some(affinity(vec![term(&[], &[])])), false),
            (
                "fields are not checked",
                Some(affinity(vec![term(&[], &[("metadata.name", "In", &["elsewhere"])])])),
                true,
            ),
            (
                "invalid operator",
                Some(affinity(vec![term(&[(LABEL_ZONE, "Bogus", &["a"])], &[])])),
                false,
            ),
        ];
        for (name, na, want) in cases {
            assert_eq!(PvAffinity::of(na.as_ref()).matches(&zone_a), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn topology_terms() {
        let t = |k: &str, v: &[&str]| TopologySelectorTerm {
            match_label_expressions: vec![TopologySelectorLabelRequirement {
                key: k.into(),
                values: v.iter().map(|s| s.to_string()).collect(),
            }],
        };
        let l = labels(&[(LABEL_ZONE, "a")]);
        assert!(match_topology_selector_terms(&[], &l));
        assert!(match_topology_selector_terms(&[t(LABEL_ZONE, &["a", "b"])], &l));
        assert!(!match_topology_selector_terms(&[t(LABEL_ZONE, &["b"])], &l));
        assert!(match_topology_selector_terms(&[t(LABEL_ZONE, &["b"]), t(LABEL_ZONE, &["a"])], &l));
        assert!(!match_topology_selector_terms(&[t("other", &["a"])], &l));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn zones_set() {
        assert_eq!(
            label_zones_to_set("a__b").map(|s| s.into_iter().collect::<Vec<_>>()),
            Some(vec!["a".to_string(), "b".to_string()])
        );
        assert_eq!(label_zones_to_set("a__"), None);
        assert_eq!(label_zones_to_set(" a ").map(|s| s.len()), Some(1));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn ebs_ids() {
        assert_eq!(ebs_volume_id("vol-1").unwrap(), "vol-1");
        assert_eq!(ebs_volume_id("aws://us-east-1a/vol-1").unwrap(), "vol-1");
        assert_eq!(ebs_volume_id("aws:///vol-2").unwrap(), "vol-2");
        assert!(ebs_volume_id("aws://us-east-1a/disk-1").is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn gce_pv_translation_moves_zone_topology() {
        let mut pv = PersistentVolume::default();
        pv.metadata.name = "pd".into();
        pv.metadata.labels = labels(&[(LABEL_ZONE, "us-central1-a")]);
        pv.spec.gce_persistent_disk = Some(api::GcePersistentDiskVolumeSource {
            pd_name: "disk-1".into(),
            ..Default::default()
        });
        let t = translate_pv(&pv).unwrap();
        assert_eq!(t.csi.driver, "pd.csi.storage.gke.io");
        assert_eq!(t.csi.handle, "projects/UNSPECIFIED/zones/us-central1-a/disks/disk-1");
        let aff = PvAffinity::of(t.node_affinity.as_ref());
        assert!(aff.matches(&labels(&[(GCE_PD_TOPOLOGY_KEY, "us-central1-a")])));
        assert!(!aff.matches(&labels(&[(LABEL_ZONE, "us-central1-a")])));

        pv.metadata.labels = labels(&[(LABEL_ZONE, "us-central1-a__us-central1-b")]);
        assert_eq!(
            translate_pv(&pv).unwrap().csi.handle,
            "projects/UNSPECIFIED/regions/us-central1/disks/disk-1"
        );
        pv.metadata.labels = labels(&[(LABEL_ZONE, "a__b")]);
        assert!(translate_pv(&pv).is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn migration_switches() {
        let mut cn = api::CsiNode::default();
        assert!(!limits_migration_on(InTreePlugin::AwsEbs, None));
        assert!(limits_migration_on(InTreePlugin::AwsEbs, Some(&cn)));
        assert!(!limits_migration_on(InTreePlugin::Portworx, Some(&cn)));
        assert!(!limits_migration_on(InTreePlugin::VSphere, Some(&cn)));
        assert!(!plugin_migrated_on_node(InTreePlugin::GcePd, Some(&cn)));
        cn.metadata.annotations.insert(
            ANN_MIGRATED_PLUGINS.into(),
            "kubernetes.io/gce-pd,kubernetes.io/portworx-volume".into(),
        );
        assert!(plugin_migrated_on_node(InTreePlugin::GcePd, Some(&cn)));
        assert!(limits_migration_on(InTreePlugin::Portworx, Some(&cn)));
        assert!(!plugin_migrated_on_node(InTreePlugin::AwsEbs, Some(&cn)));
    }
}
