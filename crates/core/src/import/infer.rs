//! The kind of an object saved without one, from its shape: tools such as OpenShift's
//! insights-operator write each object as bare JSON (no `kind`, no `apiVersion`), one per file
//! or in a list without a kind. A kind is inferred only from fields that kind alone has among
//! the kinds Kubernetes serves (a Node's `status.nodeInfo`, a Pod's `spec.containers`); a shape
//! that fits no kind, or more than one, is refused. The rules are in docs/import.md.

use serde_json::{Map, Value};

/// A kind and the fields that tell it: any one of `signs` (each a set of paths that must all
/// be present and not null) is enough.
struct Rule {
    kind: &'static str,
    api_version: &'static str,
    signs: &'static [&'static [&'static str]],
}

/// The kinds import infers, with what tells each. Kinds whose shapes overlap (ReplicaSet and
/// ReplicationController, a Deployment without `strategy`, the DRA kinds) are not listed: they
/// need their kind.
const RULES: &[Rule] = &[
    Rule {
        kind: "Node",
        api_version: "v1",
        signs: &[
            &["status.nodeInfo"],
            &["status.daemonEndpoints"],
            &["status.allocatable"],
            &["spec.podCIDR"],
            &["spec.podCIDRs"],
            &["spec.providerID"],
            &["spec.taints"],
            &["spec.unschedulable"],
        ],
    },
    Rule {
        kind: "Pod",
        api_version: "v1",
        signs: &[&["spec.containers"], &["status.containerStatuses"], &["status.qosClass"]],
    },
    Rule {
        kind: "Namespace",
        api_version: "v1",
        signs: &[&["spec.finalizers"]],
    },
    Rule {
        kind: "PersistentVolume",
        api_version: "v1",
        signs: &[&["spec.persistentVolumeReclaimPolicy"], &["spec.capacity"], &["spec.claimRef"]],
    },
    Rule {
        kind: "PersistentVolumeClaim",
        api_version: "v1",
        signs: &[&["spec.accessModes", "spec.resources"]],
    },
    Rule {
        kind: "Service",
        api_version: "v1",
        signs: &[&["spec.clusterIP"], &["spec.clusterIPs"], &["spec.sessionAffinity"]],
    },
    Rule {
        kind: "Deployment",
        api_version: "apps/v1",
        signs: &[
            &["spec.template", "spec.strategy"],
            &["spec.template", "spec.progressDeadlineSeconds"],
        ],
    },
    Rule {
        kind: "StatefulSet",
        api_version: "apps/v1",
        signs: &[
            &["spec.template", "spec.serviceName"],
            &["spec.template", "spec.volumeClaimTemplates"],
            &["spec.template", "spec.podManagementPolicy"],
        ],
    },
    Rule {
        kind: "DaemonSet",
        api_version: "apps/v1",
        signs: &[&["status.desiredNumberScheduled"], &["status.numberMisscheduled"]],
    },
    Rule {
        kind: "Job",
        api_version: "batch/v1",
        signs: &[
            &["spec.template", "spec.backoffLimit"],
            &["spec.template", "spec.completions"],
            &["spec.template", "spec.completionMode"],
        ],
    },
    Rule {
        kind: "PodDisruptionBudget",
        api_version: "policy/v1",
        signs: &[&["spec.minAvailable"], &["spec.maxUnavailable"], &["status.disruptionsAllowed"]],
    },
    Rule {
        kind: "PriorityClass",
        api_version: "scheduling.k8s.io/v1",
        signs: &[&["value"]],
    },
    Rule {
        kind: "StorageClass",
        api_version: "storage.k8s.io/v1",
        signs: &[&["provisioner"]],
    },
    Rule {
        kind: "CSIDriver",
        api_version: "storage.k8s.io/v1",
        signs: &[&["spec.attachRequired"], &["spec.podInfoOnMount"], &["spec.volumeLifecycleModes"]],
    },
    Rule {
        kind: "CSINode",
        api_version: "storage.k8s.io/v1",
        signs: &[&["spec.drivers"]],
    },
];

/// What the shape of an object without a kind says.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Inferred {
    /// One kind fits: its kind, current apiVersion, and the fields that told it.
    Kind {
        kind: &'static str,
        api_version: &'static str,
        from: Vec<String>,
    },
    /// Several kinds fit: each with the fields that suggest it.
    Ambiguous(Vec<(&'static str, String)>),
    /// No kind import infers fits.
    Unknown,
}

fn present(m: &Map<String, Value>, path: &str) -> bool {
    let mut parts = path.split('.');
    let Some(first) = parts.next() else { return false };
    let mut at = m.get(first);
    for p in parts {
        at = at.and_then(|v| v.get(p));
    }
    at.is_some_and(|v| !v.is_null())
}

/// The kind the object's shape tells, if exactly one kind fits.
pub(super) fn infer(m: &Map<String, Value>) -> Inferred {
    let mut fits: Vec<(&Rule, Vec<String>)> = Vec::new();
    for rule in RULES {
        let signs: Vec<String> = rule
            .signs
            .iter()
            .filter(|all| all.iter().all(|p| present(m, p)))
            .map(|all| all.join(" and "))
            .collect();
        if !signs.is_empty() {
            fits.push((rule, signs));
        }
    }
    match fits.len() {
        0 => Inferred::Unknown,
        1 => {
            let (rule, from) = fits.remove(0);
            Inferred::Kind {
                kind: rule.kind,
                api_version: rule.api_version,
                from,
            }
        }
        _ => Inferred::Ambiguous(fits.into_iter().map(|(r, from)| (r.kind, from.join(", "))).collect()),
    }
}

/// The message for an object without a kind whose shape does not tell one.
pub(super) fn refusal(inferred: &Inferred) -> String {
    match inferred {
        Inferred::Ambiguous(fits) => {
            let list: Vec<String> = fits.iter().map(|(k, from)| format!("{k} (from {from})")).collect();
            format!(
                "kind not set, and its shape fits more than one kind: {}; add kind and apiVersion",
                list.join(" or ")
            )
        }
        _ => "kind not set (and not given by a typed list such as PodList), and its shape is none import recognises \
              (a Node has status.nodeInfo, a Pod spec.containers: see docs/import.md); add kind and apiVersion"
            .into(),
    }
}
