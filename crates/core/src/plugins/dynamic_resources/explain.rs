//! DynamicResources' filter cells explained: each claim of the pod (allocated where, reserved
//! for whom, usable on the node or not) and what the plugin's allocator finds on the node for
//! the claims still to allocate.

use super::DynamicResources;
use crate::framework::explain::{ExplainCtx, Explainers};

pub(super) const EXPLAINERS: Explainers = Explainers::filter(filter);

fn filter(x: &ExplainCtx, passed: bool) -> Vec<String> {
    let (pod, ni) = (x.pod, x.node);
    let mut out = Vec::new();
    if pod.pod.spec.resource_claims.is_empty() {
        out.push("The pod uses no resource claims (dynamic resource allocation), so there is nothing to check.".into());
        return out;
    }
    let pl = DynamicResources::new(&Default::default());
    let view = match pl.filter_view(&x.cx, pod, ni) {
        Ok(v) => v,
        Err(why) => {
            out.push(format!("A claim of the pod is not usable: {why}."));
            return out;
        }
    };
    let name = ni.name();
    for c in &view.claims {
        let who = if c.reserved_for.is_empty() {
            "reserved for no pod".to_string()
        } else {
            format!("reserved for {}", c.reserved_for.join(", "))
        };
        match &c.allocated {
            Some(devs) => {
                let devs: Vec<String> = devs.iter().map(ToString::to_string).collect();
                out.push(format!(
                    "Claim {} is already allocated ({}), {who}; its allocation {} usable on {name}.",
                    c.key,
                    devs.join(", "),
                    if c.available_here { "is" } else { "is not" }
                ));
            }
            None => out.push(format!(
                "Claim {} is not allocated yet: the allocator looks for devices on {name}.",
                c.key
            )),
        }
    }
    match &view.allocation {
        None => {}
        Some(Err(why)) => out.push(format!("The allocator cannot evaluate the claims: {why}.")),
        Some(Ok(None)) => out.push(format!(
            "No set of free devices usable from {name} satisfies every request, selector and constraint of the claims to allocate (devices allocated to other claims are busy)."
        )),
        Some(Ok(Some(found))) => {
            for (k, devs) in found {
                let devs: Vec<String> = devs.iter().map(ToString::to_string).collect();
                out.push(format!(
                    "{} {k} would get {} (the first free devices that fit, in slice order).",
                    if passed { "Claim" } else { "On its own, claim" },
                    devs.join(", ")
                ));
            }
        }
    }
    out
}
