//! The lesson gallery (assets/lessons: files of the site, downloaded when a lesson is opened, as
//! the presets are; the texts downloaded are kept here) and the learner's progress
//! per lesson (exercises passed, hints revealed, solutions shown), kept in localStorage by
//! `crate::storage`. Text and bookkeeping only: the lesson itself (its exercises, goals and
//! their verdicts) comes from the worker with every run.

use schedlab_view::KubeVersion;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A lesson of the gallery. `title`, `topic`, `version` and `exercises` repeat its Lesson document's (the
/// page has no YAML reader; a test holds them together).
pub struct GalleryLesson {
    pub id: &'static str,
    /// The gallery's section.
    pub group: &'static str,
    pub topic: &'static str,
    pub title: &'static str,
    pub version: KubeVersion,
    /// How many exercises it has.
    pub exercises: usize,
}

impl GalleryLesson {
    /// Its text, read from assets/lessons (native tests only; the page downloads it:
    /// `crate::storage::lesson_text`).
    #[cfg(test)]
    pub fn text(&self) -> String {
        let path = format!("{}/../../assets/lessons/{}.yaml", env!("CARGO_MANIFEST_DIR"), self.id);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
}

thread_local! {
    /// The gallery's texts as shipped that this page has (downloaded, or opened).
    static SHIPPED: RefCell<BTreeMap<&'static str, Rc<str>>> = const { RefCell::new(BTreeMap::new()) };
}

/// Gallery lesson `id`'s text as shipped, when this page has it (`keep_shipped`).
pub fn shipped(id: &str) -> Option<Rc<str>> {
    SHIPPED.with(|s| s.borrow().get(id).cloned())
}

/// Keeps `text` as gallery lesson `l`'s text as shipped.
pub fn keep_shipped(l: &'static GalleryLesson, text: &str) {
    SHIPPED.with(|s| {
        s.borrow_mut().entry(l.id).or_insert_with(|| text.into());
    });
}

macro_rules! lesson {
    ($id:literal, $group:literal, $topic:literal, $title:literal, $exercises:literal) => {
        GalleryLesson {
            id: $id,
            group: $group,
            topic: $topic,
            title: $title,
            version: KubeVersion::V1_34,
            exercises: $exercises,
        }
    };
}

/// The gallery, in the order of the kube-scheduler documentation's topics.
pub const GALLERY: &[GalleryLesson] = &[
    lesson!(
        "resource-fit",
        "Filtering: where a pod may go",
        "Resource fit",
        "Why is my pod Pending?",
        1
    ),
    lesson!(
        "requests-limits",
        "Filtering: where a pod may go",
        "Requests and limits",
        "Requests, limits, init containers and sidecars",
        1
    ),
    lesson!(
        "taints",
        "Filtering: where a pod may go",
        "Taints and tolerations",
        "A node reserved with a taint",
        2
    ),
    lesson!(
        "node-affinity",
        "Filtering: where a pod may go",
        "Node affinity",
        "Must versus would-like",
        2
    ),
    lesson!(
        "anti-affinity",
        "Filtering: where a pod may go",
        "Inter-pod anti-affinity",
        "Do not put all replicas on one node",
        1
    ),
    lesson!(
        "topology-spread",
        "Filtering: where a pod may go",
        "Topology spread",
        "Even across zones, and what minDomains does",
        1
    ),
    lesson!(
        "wait-for-first-consumer",
        "Filtering: where a pod may go",
        "Volume binding",
        "The volume decides the zone",
        2
    ),
    lesson!(
        "dra-cel",
        "Filtering: where a pod may go",
        "Dynamic Resource Allocation",
        "Asking for the right GPU",
        1
    ),
    lesson!(
        "scoring",
        "Scoring and configuration",
        "Scoring",
        "Spread or pack? Scoring strategies",
        2
    ),
    lesson!(
        "deployment-spreading",
        "Scoring and configuration",
        "Default topology spreading",
        "Spreading you did not ask for",
        2
    ),
    lesson!(
        "percentage-of-nodes",
        "Scoring and configuration",
        "percentageOfNodesToScore",
        "The best node was never looked at",
        1
    ),
    lesson!(
        "profiles",
        "Scoring and configuration",
        "Scheduling profiles",
        "One scheduler, two profiles",
        2
    ),
    lesson!(
        "cel-plugin",
        "Scoring and configuration",
        "Writing a scheduler plugin",
        "Your own plugin, in CEL",
        2
    ),
    lesson!(
        "queue-order",
        "The queue and preemption",
        "Priority and queue order",
        "First come is not first served",
        1
    ),
    lesson!(
        "preemption-pdb",
        "The queue and preemption",
        "Priority and preemption",
        "Who gets evicted?",
        2
    ),
    lesson!(
        "nominated-node",
        "The queue and preemption",
        "Preemption and the nominated node",
        "Nominated is not reserved",
        1
    ),
    lesson!(
        "scheduling-gates",
        "The queue and preemption",
        "Scheduling gates",
        "Not yet — scheduling gates",
        2
    ),
    lesson!(
        "queueing-hints",
        "The queue and preemption",
        "Queueing hints and backoff",
        "What wakes a Pending pod",
        2
    ),
    lesson!(
        "daemonset-taints",
        "Workloads and operations",
        "DaemonSets",
        "A daemon on every node — almost",
        1
    ),
    lesson!(
        "drain",
        "Workloads and operations",
        "Draining a node",
        "Draining a node without a boomerang",
        1
    ),
];

pub fn find(id: &str) -> Option<&'static GalleryLesson> {
    GALLERY.iter().find(|l| l.id == id)
}

/// The gallery's sections in order, each with its lessons.
pub fn groups() -> Vec<(&'static str, Vec<&'static GalleryLesson>)> {
    let mut out: Vec<(&'static str, Vec<&'static GalleryLesson>)> = Vec::new();
    for l in GALLERY {
        match out.iter_mut().find(|(g, _)| *g == l.group) {
            Some((_, ls)) => ls.push(l),
            None => out.push((l.group, vec![l])),
        }
    }
    out
}

/// What a learner did in one lesson, by exercise name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// Exercises whose goals all passed on a run of the learner's own edits.
    #[serde(default)]
    pub passed: Vec<String>,
    /// Hints revealed, per exercise.
    #[serde(default)]
    pub hints: BTreeMap<String, u32>,
    /// Exercises whose solution was shown (passing after it does not count as passed).
    #[serde(default)]
    pub solutions: Vec<String>,
}

impl Progress {
    pub fn hints_shown(&self, exercise: &str) -> u32 {
        self.hints.get(exercise).copied().unwrap_or(0)
    }
    pub fn hints_used(&self) -> u32 {
        self.hints.values().sum()
    }
    pub fn is_passed(&self, exercise: &str) -> bool {
        self.passed.iter().any(|e| e == exercise)
    }
    /// Records a passing run of `exercise`; true when that is news.
    pub fn pass(&mut self, exercise: &str) -> bool {
        if self.is_passed(exercise) || self.solutions.iter().any(|e| e == exercise) {
            return false;
        }
        self.passed.push(exercise.to_string());
        true
    }
    /// One more hint of `exercise` revealed (at most `of`).
    pub fn reveal(&mut self, exercise: &str, of: u32) {
        let n = self.hints.entry(exercise.to_string()).or_default();
        *n = (*n + 1).min(of);
    }
    pub fn solution_shown(&mut self, exercise: &str) {
        if !self.solutions.iter().any(|e| e == exercise) {
            self.solutions.push(exercise.to_string());
        }
    }
}

/// Every lesson's progress, by key (`key`).
pub type AllProgress = BTreeMap<String, Progress>;

/// The key a lesson's progress is kept under: its gallery id, or its title for a lesson from
/// elsewhere (a file, a link to a trainer's own lesson).
pub fn key(gallery_id: Option<&str>, title: &str) -> String {
    match gallery_id {
        Some(id) => id.to_string(),
        None => format!("title:{title}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gallery lists every file of assets/lessons, each with its Lesson's own title, topic
    /// and version (read by the engine's loader).
    #[test]
    fn the_gallery_holds_every_lesson_as_written() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/lessons");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".yaml").to_string())
            .collect();
        files.sort();
        let mut ids: Vec<String> = GALLERY.iter().map(|l| l.id.to_string()).collect();
        ids.sort();
        assert_eq!(ids, files);
        for l in GALLERY {
            let sc = schedlab_core::load::load_str(&l.text(), l.id).unwrap_or_else(|e| panic!("{}: {e}", l.id));
            let lesson = sc.lesson.unwrap_or_else(|| panic!("{}: no Lesson", l.id));
            assert_eq!((lesson.title.as_str(), lesson.topic.as_str()), (l.title, l.topic), "{}", l.id);
            assert_eq!(KubeVersion::parse(&lesson.kubernetes_version), Some(l.version), "{}", l.id);
            assert_eq!(lesson.exercises.len(), l.exercises, "{}", l.id);
        }
        assert!(groups().iter().map(|(_, ls)| ls.len()).sum::<usize>() == GALLERY.len());
    }

    #[test]
    fn progress_counts_a_pass_once_and_not_after_the_solution() {
        let mut p = Progress::default();
        assert!(p.pass("a"));
        assert!(!p.pass("a"));
        p.solution_shown("b");
        assert!(!p.pass("b"));
        p.reveal("a", 2);
        p.reveal("a", 2);
        p.reveal("a", 2);
        assert_eq!((p.hints_shown("a"), p.hints_used()), (2, 2));
        let back: Progress = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        assert_eq!(key(None, "T"), "title:T");
    }
}
