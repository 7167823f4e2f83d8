//! The page's questions about a run: why a pod is where it is (or pending), the run beside a
//! second one, and a suggestion's edits applied to the editor's texts. All answered by the
//! engine's `answer` module; an error is the request's `Failed` answer.

use schedlab_core::answer::{self, RunOptions, Side};
use schedlab_core::version::{Features, KubeVersion};
use schedlab_view::answer::Edit;
use schedlab_view::protocol::{CompareWith, Response};
use serde_json::Value;

/// The text of the run on screen and how it was run.
pub struct Scenario {
    pub text: String,
    pub opts: RunOptions,
}

const FILE: &str = "scenario.yaml";

impl Scenario {
    pub fn why(&self, id: u64, run: u64, pod: &str) -> Response {
        match answer::why(&self.text, FILE, pod, self.opts) {
            Ok(a) => Response::Answered {
                id,
                run,
                answer: Box::new(a),
            },
            Err(message) => Response::Failed { id, message },
        }
    }

    pub fn compare(&self, id: u64, run: u64, with: &CompareWith) -> Response {
        if let CompareWith::Version(to) = with {
            return self.compare_versions(id, run, *to);
        }
        let (text, opts, label) = match with {
            CompareWith::Version(_) => unreachable!("answered above"),
            CompareWith::Config(c) => (answer::with_config(&self.text, c), self.opts, "the other configuration".to_string()),
            CompareWith::Seed(seed) => (self.text.clone(), RunOptions { seed: *seed, ..self.opts }, format!("seed {seed}")),
            CompareWith::Text(t) => (t.clone(), self.opts, "the other scenario".to_string()),
        };
        let a = Side {
            text: &self.text,
            file: FILE,
            opts: self.opts,
            label: format!("this scenario, v{}, seed {}", self.opts.version, self.opts.seed),
        };
        let b = Side {
            text: &text,
            file: FILE,
            opts,
            label,
        };
        match answer::compare(&a, &b) {
            Ok(c) => Response::Compared {
                id,
                run,
                comparison: Box::new(c),
                versions: None,
            },
            Err(message) => Response::Failed { id, message },
        }
    }

    /// The scenario on screen run by its version's scheduler and by `to`'s, each difference
    /// with the version change that reproduces it alone (`answer::compare_versions`).
    fn compare_versions(&self, id: u64, run: u64, to: KubeVersion) -> Response {
        let (from, to) = (Features::new(self.opts.version), Features::new(to));
        match answer::compare_versions(&self.text, FILE, &from, &to, self.opts) {
            Ok(v) => Response::Compared {
                id,
                run,
                comparison: Box::new(v.runs.clone()),
                versions: Some(Box::new(v)),
            },
            Err(message) => Response::Failed { id, message },
        }
    }
}

/// Each text with its edits applied (`answer::apply_edits_keeping_text`). A patch goes to the
/// text that holds its document (the page places edits by kind; a Pod may sit among the other
/// objects); a new document stays with the text it came with.
pub fn apply(id: u64, texts: &[(String, Vec<Edit>)]) -> Response {
    let docs: Vec<Vec<Value>> = texts.iter().map(|(t, _)| schedlab_core::view::documents(t)).collect();
    let mut plan: Vec<Vec<Edit>> = vec![Vec::new(); texts.len()];
    for (i, (_, edits)) in texts.iter().enumerate() {
        for e in edits {
            let at = match e {
                Edit::Patch { kind, namespace, name, .. } => docs
                    .iter()
                    .position(|ds| ds.iter().any(|d| names(d, kind, name, namespace.as_deref())))
                    .unwrap_or(i),
                Edit::Add { .. } => i,
            };
            plan[at].push(e.clone());
        }
    }
    let edited: Result<Vec<String>, String> = texts
        .iter()
        .zip(&plan)
        .map(|((t, _), edits)| {
            if edits.is_empty() {
                Ok(t.clone())
            } else {
                answer::apply_edits_keeping_text(t, edits)
            }
        })
        .collect();
    match edited {
        Ok(texts) => Response::Edited { id, texts },
        Err(message) => Response::Failed { id, message },
    }
}

/// Whether document `d` is the `kind` named `name` in namespace `ns` (none: `default`); a
/// nameless document (the KubeSchedulerConfiguration) is named `""`.
fn names(d: &Value, kind: &str, name: &str, ns: Option<&str>) -> bool {
    d["kind"].as_str() == Some(kind)
        && d["metadata"]["name"].as_str().unwrap_or("") == name
        && d["metadata"]["namespace"].as_str().unwrap_or("default") == ns.unwrap_or("default")
}

#[cfg(test)]
mod tests {
    use crate::tests::{ask, load_text};
    use crate::WorkerState;
    use schedlab_core::version::KubeVersion;
    use schedlab_view::answer::Edit;
    use schedlab_view::protocol::{CompareWith, Request, Response};

    /// Two nodes, one tainted; a pod too big for the untainted one.
    const TEXT: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: small}\nstatus: {allocatable: {cpu: '1', pods: '10'}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: gpu}\nspec: {taints: [{key: gpu, value: 'true', effect: NoSchedule}]}\nstatus: {allocatable: {cpu: '8', pods: '10'}}\n---\n# the big one\napiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]}\n";

    fn loaded(w: &mut WorkerState) -> u64 {
        load_text(w, 1, TEXT)
    }

    #[test]
    fn why_answers_with_verified_suggestions_whose_edits_apply_to_the_text() {
        let mut w = WorkerState::default();
        let run = loaded(&mut w);
        let r = ask(
            &mut w,
            Request::Why {
                id: 2,
                run,
                pod: "default/big".into(),
            },
        );
        let [Response::Answered { id: 2, answer, .. }] = &r[..] else {
            panic!("{r:?}")
        };
        let p = answer.pending.as_ref().expect("pending");
        let tolerate = p
            .suggestions
            .iter()
            .find(|s| s.lands_on == "gpu" && s.edits.iter().all(|e| matches!(e, Edit::Patch { kind, .. } if kind == "Pod")))
            .expect("a toleration for gpu");
        // Placed with the wrong text, the pod's patch finds the text that holds it.
        let r = ask(
            &mut w,
            Request::ApplyEdits {
                id: 3,
                texts: vec![("".into(), tolerate.edits.clone()), (TEXT.into(), vec![])],
            },
        );
        let [Response::Edited { id: 3, texts }] = &r[..] else {
            panic!("{r:?}")
        };
        assert_eq!(texts[0], "");
        let texts = &texts[1..];
        assert!(
            texts[0].starts_with("apiVersion: v1\nkind: Node\nmetadata: {name: small}\n"),
            "{}",
            texts[0]
        );
        let opts = schedlab_core::answer::RunOptions {
            seed: 1,
            controllers: true,
            version: KubeVersion::V1_34,
        };
        assert_eq!(
            schedlab_core::answer::lands_on(&texts[0], "default/big", opts).unwrap().as_deref(),
            Some("gpu")
        );
    }

    #[test]
    fn a_question_about_an_old_run_is_stale_and_an_unknown_pod_fails() {
        let mut w = WorkerState::default();
        let run = loaded(&mut w);
        let r = ask(
            &mut w,
            Request::Why {
                id: 2,
                run: run + 1,
                pod: "default/big".into(),
            },
        );
        assert!(matches!(r[..], [Response::Stale { id: 2, .. }]), "{r:?}");
        let r = ask(
            &mut w,
            Request::Why {
                id: 3,
                run,
                pod: "default/nobody".into(),
            },
        );
        assert!(
            matches!(&r[..], [Response::Failed { id: 3, message }] if message.contains("no pod default/nobody")),
            "{r:?}"
        );
        let r = ask(
            &mut w,
            Request::ApplyEdits {
                id: 4,
                texts: vec![(
                    "kind: Node\nmetadata: {name: a}\n".into(),
                    vec![schedlab_view::answer::Edit::Patch {
                        kind: "Pod".into(),
                        namespace: None,
                        name: "x".into(),
                        merge: serde_json::json!({}),
                    }],
                )],
            },
        );
        assert!(matches!(&r[..], [Response::Failed { id: 4, .. }]), "{r:?}");
    }

    #[test]
    fn compare_with_a_configuration_lists_the_pods_that_land_differently() {
        let mut w = WorkerState::default();
        let run = loaded(&mut w);
        let config = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    filter:\n      disabled: [{name: TaintToleration}]\n";
        let r = ask(
            &mut w,
            Request::Compare {
                id: 2,
                run,
                with: CompareWith::Config(config.into()),
            },
        );
        let [Response::Compared { id: 2, comparison, .. }] = &r[..] else {
            panic!("{r:?}")
        };
        assert_eq!(comparison.differing, ["default/big"]);
        assert!(!comparison.config_diff.is_empty());
        let r = ask(
            &mut w,
            Request::Compare {
                id: 3,
                run,
                with: CompareWith::Seed(7),
            },
        );
        let [Response::Compared { comparison, .. }] = &r[..] else {
            panic!("{r:?}")
        };
        assert!(comparison.differing.is_empty(), "{comparison:?}");
    }

    #[test]
    fn compare_with_another_version_names_the_change_that_explains_each_difference() {
        let mut w = WorkerState::default();
        let run = loaded(&mut w);
        let r = ask(
            &mut w,
            Request::Compare {
                id: 5,
                run,
                with: CompareWith::Version(KubeVersion::V1_35),
            },
        );
        let [Response::Compared {
            id: 5,
            comparison,
            versions: Some(v),
            ..
        }] = &r[..]
        else {
            panic!("{r:?}")
        };
        // The pending pod's message changes (v1.35's generic taint reason), and that change
        // alone reproduces it.
        assert_eq!(v.runs, **comparison);
        let big = v.pods.iter().find(|p| p.pod == "default/big").expect("big differs");
        let message = big.fields.iter().find(|f| f.field == "message").expect("its message differs");
        assert_eq!(message.explained_by, ["TaintFilterReason"], "{message:?}");
        let change = v.changes.iter().find(|c| c.switch == "TaintFilterReason").expect("a change");
        assert_eq!(change.upstream.as_deref(), Some("kubernetes#134740"));
        assert!(comparison.a.label.contains("v1.34"), "{}", comparison.a.label);
    }
}
