//! Formatting for the views: amounts, times, names.

use schedlab_view::view::{ResourceCol, Unit};

pub fn amount(col: &ResourceCol, v: i64) -> String {
    match col.unit {
        Unit::MilliCpu => schedlab_view::view::format_amount("cpu", v),
        Unit::Bytes => schedlab_view::view::format_amount("memory", v),
        Unit::Count => v.to_string(),
    }
}

/// A short column label for a resource (`example.com/gpu` → `gpu`).
pub fn resource_label(name: &str) -> &str {
    match name {
        "memory" => "mem",
        "ephemeral-storage" => "disk",
        n => n.rsplit('/').next().unwrap_or(n),
    }
}

/// Logical time: seconds with millisecond precision.
pub fn clock(ms: i64) -> String {
    format!("{}.{:03} s", ms / 1000, (ms % 1000).abs())
}

/// Who created a pod and when, for pods made after the scenario was written (a controller's,
/// or a timeline step's): "created by ReplicaSet/web at t = 2.000 s". `None` for the
/// scenario's own pods.
pub fn created(by: Option<&schedlab_view::words::ObjectRef>, at_ms: Option<i64>) -> Option<String> {
    match (by, at_ms) {
        (Some(by), Some(at)) => Some(format!("created by {by} at t = {}", clock(at))),
        (Some(by), None) => Some(format!("created by {by}")),
        (None, Some(at)) => Some(format!("created by a timeline step at t = {}", clock(at))),
        (None, None) => None,
    }
}

/// The text with its first letter upper-cased.
pub fn sentence_case(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

pub fn percent(used: i64, total: i64) -> f64 {
    if total <= 0 {
        if used > 0 {
            100.0
        } else {
            0.0
        }
    } else {
        (used as f64 * 100.0 / total as f64).clamp(0.0, 100.0)
    }
}

/// A noun for a count: "node" for one, "nodes" otherwise (every noun the page counts takes
/// an "s").
pub fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        one.to_string()
    } else {
        format!("{one}s")
    }
}

/// A count with its noun: "1 node", "0 nodes", "3 pods".
pub fn count(n: usize, one: &str) -> String {
    format!("{n} {}", plural(n, one))
}

/// The pods' states as the top bar (at the run's end) and the cluster panel (at the playhead)
/// both say them: "3 running · 1 pending · 1 evicted" (evicted only when some were).
pub fn pod_counts(running: u32, pending: u32, evicted: u32) -> String {
    let mut s = format!("{running} running · {pending} pending");
    if evicted > 0 {
        s.push_str(&format!(" · {evicted} evicted"));
    }
    s
}

/// 12345 → "12,345".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod created_tests {
    use super::created;
    use schedlab_view::words::{ObjectKind, ObjectRef};

    fn by(kind: ObjectKind, name: &str) -> ObjectRef {
        ObjectRef::new(kind, None, name)
    }

    #[test]
    fn names_the_creator_and_the_instant() {
        assert_eq!(created(None, None), None);
        assert_eq!(
            created(Some(&by(ObjectKind::ReplicaSet, "web-5x7c")), Some(0)).as_deref(),
            Some("created by ReplicaSet/web-5x7c at t = 0.000 s")
        );
        assert_eq!(
            created(None, Some(3500)).as_deref(),
            Some("created by a timeline step at t = 3.500 s")
        );
        assert_eq!(created(Some(&by(ObjectKind::Job, "batch")), None).as_deref(), Some("created by Job/batch"));
        assert_eq!(super::sentence_case("created by x"), "Created by x");
        assert_eq!(super::sentence_case(""), "");
    }

    #[test]
    fn counts_take_the_singular_for_one() {
        assert_eq!(super::count(1, "node"), "1 node");
        assert_eq!(super::count(0, "node"), "0 nodes");
        assert_eq!(super::count(2, "pod"), "2 pods");
        assert_eq!(super::plural(1, "victim"), "victim");
        assert_eq!(super::plural(11, "victim"), "victims");
    }
}
