//! Phrases the plugins' cell explainers (`<name>/explain.rs`) share: lists cut short, label
//! selectors and node selector terms as kubectl prints them, topology domains in words,
//! numbers in sentences, and the shares the resource-allocation scorers start from.

use super::resource_allocation::ResourceAllocationScorer;
use crate::api::NodeSelectorTerm;
use crate::api::LABEL_HOSTNAME;
use crate::framework::{NodeInfo, PodInfo};
use crate::labels::{Op, Selector};
use schedlab_view::view::format_amount;

/// Said instead of numbers when replaying the cycle does not give the recorded result.
pub(crate) const NOT_REPRODUCED: &str = "(Replaying the cycle did not reproduce this result, so no further numbers are shown.)";

/// How many names a sentence lists before saying "and N more".
pub(crate) const LIST_LIMIT: usize = 6;

/// At most LIST_LIMIT items, then "and N more".
pub(crate) fn list_limited(items: &[String]) -> String {
    if items.len() <= LIST_LIMIT {
        return items.join(", ");
    }
    format!("{} and {} more", items[..LIST_LIMIT].join(", "), items.len() - LIST_LIMIT)
}

/// The note that the numbers count pods nominated to the node (`n` of them; none: no note).
pub(crate) fn nominated_note(name: &str, n: usize) -> Option<String> {
    (n > 0).then(|| format!("These numbers count {n} pod(s) nominated to {name} by an earlier preemption, as the scheduler does."))
}

/// A label selector the way kubectl prints one.
pub(crate) fn selector_str(sel: &Selector) -> String {
    match sel {
        Selector::Nothing => "nothing (no selector)".into(),
        Selector::Reqs(r) if r.is_empty() => "every pod".into(),
        Selector::Reqs(reqs) => reqs
            .iter()
            .map(|r| match (r.op, r.values.len()) {
                (Op::In, 1) => format!("{}={}", r.key, r.values[0]),
                (Op::NotIn, 1) => format!("{}!={}", r.key, r.values[0]),
                (Op::In, _) => format!("{} in ({})", r.key, r.values.join(", ")),
                (Op::NotIn, _) => format!("{} notin ({})", r.key, r.values.join(", ")),
                (Op::Exists, _) => r.key.clone(),
                (Op::DoesNotExist, _) => format!("!{}", r.key),
                (Op::Gt, _) => format!("{} > {}", r.key, r.values.first().map_or("", String::as_str)),
                (Op::Lt, _) => format!("{} < {}", r.key, r.values.first().map_or("", String::as_str)),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A node selector term, requirements joined by "and".
pub(crate) fn node_term_str(t: &NodeSelectorTerm) -> String {
    let reqs: Vec<String> = t
        .match_expressions
        .iter()
        .chain(&t.match_fields)
        .map(|r| match r.operator.as_str() {
            "In" if r.values.len() == 1 => format!("{}={}", r.key, r.values[0]),
            "In" => format!("{} in ({})", r.key, r.values.join(", ")),
            "NotIn" => format!("{} notin ({})", r.key, r.values.join(", ")),
            "Exists" => format!("{} exists", r.key),
            "DoesNotExist" => format!("no {}", r.key),
            "Gt" => format!("{} > {}", r.key, r.values.join(", ")),
            "Lt" => format!("{} < {}", r.key, r.values.join(", ")),
            op => format!("{} {op} ({})", r.key, r.values.join(", ")),
        })
        .collect();
    if reqs.is_empty() {
        "(empty term)".into()
    } else {
        reqs.join(" and ")
    }
}

/// The word for one domain of a topology key ("zone", "node", …; the key itself otherwise).
pub(crate) fn domain_word(key: &str) -> &str {
    match key {
        LABEL_HOSTNAME => "node",
        "topology.kubernetes.io/zone" | "failure-domain.beta.kubernetes.io/zone" => "zone",
        "topology.kubernetes.io/region" | "failure-domain.beta.kubernetes.io/region" => "region",
        k => k,
    }
}

/// "on the same node" / "in the same zone".
pub(crate) fn same_domain(key: &str) -> String {
    if key == LABEL_HOSTNAME {
        "on the same node".into()
    } else {
        format!("in the same {}", domain_word(key))
    }
}

/// "on node-a" / "in zone zone-a".
pub(crate) fn at_domain(key: &str, value: &str) -> String {
    if key == LABEL_HOSTNAME {
        format!("on {value}")
    } else {
        format!("in {} {value}", domain_word(key))
    }
}

/// The subject of a sentence about a node's domain: "node-a" itself for the hostname key,
/// "node-a is in zone zone-a, which" otherwise.
pub(crate) fn domain_subject(name: &str, key: &str, value: &str) -> String {
    if key == LABEL_HOSTNAME {
        name.to_string()
    } else {
        format!("{name} is in {} {value}, which", domain_word(key))
    }
}

pub(crate) fn pods_word(n: i64) -> &'static str {
    if n == 1 {
        "pod"
    } else {
        "pods"
    }
}

/// "1 matching pod" / "2 matching pods".
pub(crate) fn matching(n: i64) -> String {
    format!("{n} matching {}", pods_word(n))
}

/// A decimal with up to three places.
pub(crate) fn dec(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What a resource-allocation scorer starts from on the node: per scored resource, the amount
/// requested with the pod and the allocatable amount, and the sentence that shows them.
pub(crate) struct Shares {
    pub requested: Vec<i64>,
    pub allocatable: Vec<i64>,
    /// "On node-a: cpu: 1 of 4 requested with the pod (25%); …."
    pub line: String,
}

pub(crate) fn resource_shares(scorer: &ResourceAllocationScorer, pod: &PodInfo, ni: &NodeInfo) -> Shares {
    let reqs = scorer.pod_request_list(pod);
    let mut pairs: (Vec<i64>, Vec<i64>) = (vec![], vec![]);
    let _ = scorer.score(ni, &reqs, |r, a| {
        pairs = (r.to_vec(), a.to_vec());
        0
    });
    let (requested, allocatable) = pairs;
    let mut shares = Vec::new();
    for (i, sr) in scorer.resources.iter().enumerate() {
        if allocatable.get(i).copied().unwrap_or(0) == 0 {
            continue;
        }
        shares.push(format!(
            "{}: {} of {} requested with the pod ({}%)",
            sr.name,
            format_amount(&sr.name, requested[i]),
            format_amount(&sr.name, allocatable[i]),
            requested[i] * 100 / allocatable[i].max(1)
        ));
    }
    Shares {
        requested,
        allocatable,
        line: format!("On {}: {}.", ni.name(), shares.join("; ")),
    }
}
