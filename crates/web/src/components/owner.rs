//! Pods a workload controller made: the owner's short forms (a mark on pod chips, a group
//! label in the queue) and the grouping of queue items by owner.

use schedlab_view::view::QueueItem;
use schedlab_view::words::{ObjectKind, ObjectRef};

/// The mark on a chip: the owner kind, abbreviated as kubectl does (`rs`, `sts`, `ds`, …).
pub fn kind_mark(created_by: &ObjectRef) -> String {
    match &created_by.kind {
        ObjectKind::ReplicaSet => "rs".into(),
        ObjectKind::StatefulSet => "sts".into(),
        ObjectKind::DaemonSet => "ds".into(),
        ObjectKind::Job => "job".into(),
        ObjectKind::ReplicationController => "rc".into(),
        ObjectKind::Deployment => "deploy".into(),
        other => other.as_str().chars().filter(|c| c.is_ascii_uppercase()).collect::<String>().to_lowercase(),
    }
}

/// The owner's name, with a generated hash suffix cut short: `web-6d4c8f9b7` → `web-6d4c…`.
pub fn short_name(created_by: &ObjectRef) -> String {
    let name = created_by.name.as_str();
    if let Some((stem, tail)) = name.rsplit_once('-') {
        let hashy = tail.len() >= 6 && tail.chars().all(|c| c.is_ascii_alphanumeric()) && tail.chars().any(|c| c.is_ascii_digit());
        if hashy && !stem.is_empty() {
            return format!("{stem}-{}…", &tail[..4]);
        }
    }
    name.to_string()
}

/// One entry of a queue list: a pod, or consecutive pods of one owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueueEntry {
    One(QueueItem),
    Group { owner: ObjectRef, items: Vec<QueueItem> },
}

impl QueueEntry {
    /// The pods of the entry.
    pub fn pods(&self) -> impl Iterator<Item = u32> + '_ {
        let items: &[QueueItem] = match self {
            QueueEntry::One(i) => std::slice::from_ref(i),
            QueueEntry::Group { items, .. } => items,
        };
        items.iter().map(|i| i.pod)
    }
}

/// Groups runs of consecutive items (two or more) made by the same controller; the list order
/// (pop order) is kept.
pub fn group(items: Vec<QueueItem>, owner_of: impl Fn(u32) -> Option<ObjectRef>) -> Vec<QueueEntry> {
    let mut out: Vec<QueueEntry> = Vec::new();
    let mut run: Vec<QueueItem> = Vec::new();
    let mut run_owner: Option<ObjectRef> = None;
    let flush = |out: &mut Vec<QueueEntry>, run: &mut Vec<QueueItem>, owner: &Option<ObjectRef>| match (owner, run.len()) {
        (Some(o), n) if n >= 2 => out.push(QueueEntry::Group {
            owner: o.clone(),
            items: std::mem::take(run),
        }),
        _ => out.extend(run.drain(..).map(QueueEntry::One)),
    };
    for i in items {
        let o = owner_of(i.pod);
        if o.is_none() || o != run_owner {
            flush(&mut out, &mut run, &run_owner);
            run_owner = o;
        }
        run.push(i);
    }
    flush(&mut out, &mut run, &run_owner);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pod: u32) -> QueueItem {
        QueueItem {
            pod,
            priority: 0,
            note: None,
            until_ms: None,
            nominated: None,
        }
    }

    fn by(kind: &str, name: &str) -> ObjectRef {
        ObjectRef::new(ObjectKind::from_api(kind), None, name)
    }

    #[test]
    fn owners_read_short() {
        assert_eq!(kind_mark(&by("ReplicaSet", "web-6d4c8f9b7")), "rs");
        assert_eq!(kind_mark(&by("StatefulSet", "db")), "sts");
        assert_eq!(kind_mark(&by("CronThing", "x")), "ct");
        assert_eq!(short_name(&by("ReplicaSet", "web-6d4c8f9b7")), "web-6d4c…");
        assert_eq!(short_name(&by("StatefulSet", "db")), "db");
        assert_eq!(short_name(&by("Job", "train-run")), "train-run");
    }

    #[test]
    fn consecutive_pods_of_one_owner_are_grouped() {
        let owner = |p: u32| match p {
            0..=2 => Some(by("ReplicaSet", "web-1")),
            4 | 6 => Some(by("Job", "j")),
            _ => None,
        };
        let g = group((0..7).map(item).collect(), owner);
        let shape: Vec<String> = g
            .iter()
            .map(|e| match e {
                QueueEntry::One(i) => i.pod.to_string(),
                QueueEntry::Group { owner, items } => format!("{owner}×{}", items.len()),
            })
            .collect();
        assert_eq!(shape, ["ReplicaSet/web-1×3", "3", "4", "5", "6"]);
    }
}
