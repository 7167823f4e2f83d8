//! NodePorts' filter cells explained: the host ports the pod wants, which of them are taken on
//! the node and by whom.

use crate::framework::explain::{ExplainCtx, Explainers};
use crate::framework::{HostPort, HostPortInfo};
use crate::plugins::explain_util::{list_limited, nominated_note};
use crate::vocabulary::PluginName;

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

/// A host port: "8080/TCP", with its host IP when it is not the wildcard.
fn port_str(hp: &HostPort) -> String {
    if hp.ip.is_empty() || hp.ip == "0.0.0.0" {
        format!("{}/{}", hp.port, hp.protocol)
    } else {
        format!("{}/{} on {}", hp.port, hp.protocol, hp.ip)
    }
}

fn filter(x: &ExplainCtx, _passed: bool) -> Vec<String> {
    let (pod, ni, name) = (x.pod, x.node, x.node_name());
    let mut out = Vec::new();
    let ports: Vec<String> = pod.host_ports.iter().map(port_str).collect();
    out.push(format!("The pod wants host port(s) {}.", ports.join(", ")));
    // The node as Filter saw it (with nominated pods when they decided).
    let (_, node, nominated) = x.replay_filter(PluginName::NodePorts);
    out.extend(nominated_note(name, nominated));
    for hp in pod.host_ports.iter().filter(|hp| node.used_ports.check_conflict(hp)) {
        let holders: Vec<String> = node
            .pods
            .iter()
            .filter(|p| {
                let mut theirs = HostPortInfo::default();
                p.host_ports.iter().for_each(|h| theirs.add(h));
                theirs.check_conflict(hp)
            })
            .map(|p| p.key.clone())
            .collect();
        out.push(format!(
            "{} is already taken on {name}{} — rejected.",
            port_str(hp),
            if holders.is_empty() {
                String::new()
            } else {
                format!(" by {}", list_limited(&holders))
            }
        ));
    }
    let used: Vec<String> = ni
        .pods
        .iter()
        .flat_map(|p| p.host_ports.iter().map(move |hp| format!("{} ({})", port_str(hp), p.name())))
        .collect();
    out.push(if used.is_empty() {
        format!("No pod on {name} uses a host port.")
    } else {
        format!("In use on {name}: {}.", used.join(", "))
    });
    out
}
