//! Decodes 5 000 nodes and 10 000 pods (already parsed JSON values, as the loader has them),
//! strictly, and prints the time. Build once with `--features ours`, once with `theirs`.
use serde_json::json;
use std::time::Instant;

fn main() {
    let nodes: Vec<serde_json::Value> = (0..5000)
        .map(|i| {
            json!({"apiVersion": "v1", "kind": "Node",
                "metadata": {"name": format!("node-{i}"), "labels": {"kubernetes.io/hostname": format!("node-{i}"), "topology.kubernetes.io/zone": format!("zone-{}", i % 3), "pool": "general"}},
                "spec": {"taints": if i % 10 == 0 { json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]) } else { json!([]) }},
                "status": {"capacity": {"cpu": "16", "memory": "64Gi", "pods": "110"}, "allocatable": {"cpu": "15800m", "memory": "62Gi", "pods": "110"}}})
        })
        .collect();
    let pods: Vec<serde_json::Value> = (0..10000)
        .map(|i| {
            json!({"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": format!("pod-{i}"), "namespace": "default", "labels": {"app": format!("app-{}", i % 50), "tier": "web"}},
                "spec": {"priorityClassName": "", "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.9",
                        "resources": {"requests": {"cpu": "250m", "memory": "512Mi"}, "limits": {"memory": "1Gi"}}, "ports": [{"containerPort": 8080}]}],
                    "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
                    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": "In", "values": ["general"]}]}]}},
                        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 50, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": format!("app-{}", i % 50)}}, "topologyKey": "kubernetes.io/hostname"}}]}},
                    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {"matchLabels": {"app": format!("app-{}", i % 50)}}}]}})
        })
        .collect();
    // Errors: an unknown field, a wrong type.
    let bad_field = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "resources": {"requets": {"cpu": "1"}}}]}});
    let bad_type = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "ports": [{"containerPort": "http"}]}]}});
    println!("unknown field: {:?}", k8seval::decode_value("Pod", bad_field));
    println!("wrong type:    {:?}", k8seval::decode_value("Pod", bad_type));
    let mut best = f64::MAX;
    for _ in 0..5 {
        let (n, p) = (nodes.clone(), pods.clone());
        let t = Instant::now();
        let mut ok = 0;
        for v in n {
            ok += k8seval::decode_value("Node", v).map(|_| 1).unwrap_or_else(|e| panic!("{e}"));
        }
        for v in p {
            ok += k8seval::decode_value("Pod", v).map(|_| 1).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(ok, 15000);
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    println!("decode 5000 nodes + 10000 pods: best of 5 {best:.1} ms");
}
