//! The page's questions about a run: why a pod is where it is (or pending), the run beside a
//! second one, and a suggestion's edits applied to the editor's texts. All answered by the
//! engine's `answer` module; an error is the request's `Failed` answer.

use schedlab_core::answer::{self, RunOptions, Side};
use schedlab_core::version::Features;
use schedlab_core::view::{Frame, Session, SessionOptions};
use schedlab_view::answer::Edit;
use schedlab_view::protocol::{CompareWith, Response};
use serde_json::Value;

/// The text of the run on screen and how it was run.
pub struct Scenario {
    pub text: String,
    pub opts: RunOptions,
    /// The run's `--feature-gates` settings, as the page sent them: a comparison with another
    /// version applies them there too (as `schedlab compare --against-version` does).
    pub gates: String,
}

const FILE: &str = "scenario.yaml";

impl Scenario {
    pub fn why(&self, id: u64, run: u64, pod: &str) -> Response {
        match answer::why(&self.text, FILE, pod, &self.opts) {
            Ok(a) => Response::Answered {
                id,
                run,
                answer: Box::new(a),
            },
            Err(message) => Response::Failed { id, message },
        }
    }

    /// Run B of a comparison with `with`: its text, how it runs, and its label (`Err`: the
    /// gates set here do not exist in the other version).
    fn second(&self, with: &CompareWith) -> Result<(String, RunOptions, String), String> {
        Ok(match with {
            CompareWith::Config(c) => (answer::with_config(&self.text, c), self.opts.clone(), "the other configuration".to_string()),
            CompareWith::Seed(seed) => (self.text.clone(), self.opts.with_seed(*seed), format!("seed {seed}")),
            CompareWith::Text(t) => (t.clone(), self.opts.clone(), "the other scenario".to_string()),
            CompareWith::Version(v) => (
                self.text.clone(),
                RunOptions {
                    features: Features::with_gates(*v, &self.gates).map_err(|e| format!("feature gates for v{v}: {e}"))?,
                    ..self.opts.clone()
                },
                format!("v{v}"),
            ),
        })
    }

    /// The comparison's answer, and its run B for "Play both" when there is one.
    pub fn compare(&self, id: u64, run: u64, with: &CompareWith) -> (Response, Option<Second>) {
        let (text, opts, label) = match self.second(with) {
            Ok(x) => x,
            Err(message) => return (Response::Failed { id, message }, None),
        };
        let answer = if let CompareWith::Version(_) = with {
            self.compare_versions(id, run, &opts.features)
        } else {
            let a = Side {
                text: &self.text,
                file: FILE,
                opts: self.opts.clone(),
                label: format!("this scenario, v{}, seed {}", self.opts.features.version(), self.opts.seed),
            };
            let b = Side {
                text: &text,
                file: FILE,
                opts: opts.clone(),
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
        };
        let second = matches!(answer, Response::Compared { .. }).then_some(Second { text, opts, session: None });
        (answer, second)
    }

    /// The scenario on screen run by its version's scheduler and by `to`'s, each difference
    /// with the version change that reproduces it alone (`answer::compare_versions`).
    fn compare_versions(&self, id: u64, run: u64, to: &Features) -> Response {
        match answer::compare_versions(&self.text, FILE, &self.opts.features, to, &self.opts) {
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

/// Run B of the last comparison, for "Play both": run as the comparison ran it (its version
/// and gates), into a `Session` only when the page first asks for it.
pub struct Second {
    text: String,
    opts: RunOptions,
    session: Option<Session>,
}

impl Second {
    /// Its session, run now if it has not been yet (`Err`: the text does not load).
    pub fn session(&mut self) -> Result<&mut Session, String> {
        if self.session.is_none() {
            let sc = schedlab_core::load::load_str_for(&self.text, FILE, &self.opts.features).map_err(|e| e.to_string())?;
            let opts = SessionOptions {
                seed: self.opts.seed,
                controllers: self.opts.controllers,
            };
            self.session = Some(Session::with_options(sc, opts, &mut |_| {}));
        }
        Ok(self.session.as_mut().expect("just run"))
    }
}

/// A run's frame at the end of cycle `cycle`: the stop just before the next cycle begins (so
/// the cycle's pod is placed, or back in the queue), the run's last stop after its last cycle
/// (a run with fewer cycles stays at its end); cycle 0 is the moment before the first.
pub fn frame_after_cycle(s: &mut Session, cycle: u32) -> Frame {
    let last = s.stops().len().saturating_sub(1) as u32;
    let stop = s.cycle_stop(cycle.saturating_add(1)).map_or(last, |next| next.saturating_sub(1));
    s.frame(stop, false)
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
        let opts = schedlab_core::answer::RunOptions::new(1, true, KubeVersion::V1_34);
        assert_eq!(
            schedlab_core::answer::lands_on(&texts[0], "default/big", &opts).unwrap().as_deref(),
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

    /// Two equal nodes and three pods: LeastAllocated spreads them, MostAllocated packs them.
    const SPREAD: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: {cpu: '4', memory: 4Gi, pods: '10'}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\nstatus: {allocatable: {cpu: '4', memory: 4Gi, pods: '10'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p1}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1', memory: 1Gi}}}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p2}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1', memory: 1Gi}}}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p3}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: '1', memory: 1Gi}}}]}\n";
    const MOST: &str = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n";

    /// Each pod's node in a frame (`name → node`), by the run's model.
    fn placed(model: &schedlab_view::view::Model, f: &schedlab_view::view::Frame) -> std::collections::BTreeMap<String, String> {
        let mut out = std::collections::BTreeMap::new();
        for (n, live) in f.nodes.iter().enumerate() {
            for &p in &live.pods {
                out.insert(model.pods[p as usize].name.clone(), model.nodes[n].name.clone());
            }
        }
        out
    }

    /// The same scenario run natively by the engine, `cycles` steps in (`None`: to the end).
    fn native(text: &str, cycles: Option<u32>) -> std::collections::BTreeMap<String, String> {
        let sc = schedlab_core::load::load_str_for(text, "x.yaml", &schedlab_core::version::Features::new(KubeVersion::V1_34)).unwrap();
        let mut e = schedlab_core::engine::Engine::new(
            sc,
            schedlab_core::engine::EngineOptions {
                seed: 1,
                detail: schedlab_core::trace::Detail::None,
            },
        );
        match cycles {
            Some(n) => (0..n).for_each(|_| {
                e.step();
            }),
            None => {
                e.run();
            }
        }
        e.pods()
            .iter()
            .filter_map(|p| Some((p.info.name().to_string(), p.node.clone()?)))
            .collect()
    }

    fn both(w: &mut WorkerState, run: u64, cycle: u32) -> Box<[schedlab_view::view::Frame; 2]> {
        match ask(w, Request::Both { id: 9, run, cycle }).pop() {
            Some(Response::Both { cycle: c, frames, .. }) if c == cycle => frames,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn play_both_answers_both_runs_at_the_end_of_the_same_cycle_as_the_engine_runs_them() {
        let mut w = WorkerState::default();
        let run = load_text(&mut w, 1, SPREAD);
        // Nothing compared yet: nothing to play.
        assert!(matches!(
            &ask(&mut w, Request::SecondRun { id: 2, run })[..],
            [Response::Failed { id: 2, .. }]
        ));
        let r = ask(
            &mut w,
            Request::Compare {
                id: 3,
                run,
                with: CompareWith::Config(MOST.into()),
            },
        );
        let [Response::Compared { comparison, .. }] = &r[..] else {
            panic!("{r:?}")
        };
        assert!(!comparison.differing.is_empty(), "{comparison:?}");
        let second = match ask(&mut w, Request::SecondRun { id: 4, run }).pop() {
            Some(Response::SecondRun { id: 4, summary, .. }) => summary,
            other => panic!("{other:?}"),
        };
        assert_eq!(second.cycle_pod.len(), 3);
        let first = w.session.as_ref().unwrap().model.clone();
        let most = schedlab_core::answer::with_config(SPREAD, MOST);
        for cycle in [0, 1, 2, 3] {
            let f = both(&mut w, run, cycle);
            assert_eq!(placed(&first, &f[0]), native(SPREAD, Some(cycle)), "A at cycle {cycle}");
            assert_eq!(placed(&second.model, &f[1]), native(&most, Some(cycle)), "B at cycle {cycle}");
        }
        let end = both(&mut w, run, 3);
        assert_eq!(placed(&first, &end[0]), native(SPREAD, None));
        assert_eq!(placed(&second.model, &end[1]), native(&most, None));
        // MostAllocated packs the three pods on one node; LeastAllocated does not.
        let nodes = |m: &std::collections::BTreeMap<String, String>| m.values().collect::<std::collections::BTreeSet<_>>().len();
        assert_eq!((nodes(&placed(&first, &end[0])), nodes(&placed(&second.model, &end[1]))), (2, 1));
        // A new run drops the second one: its questions are stale.
        let run2 = load_text(&mut w, 5, SPREAD);
        assert!(matches!(
            &ask(&mut w, Request::Both { id: 6, run, cycle: 1 })[..],
            [Response::Stale { id: 6, .. }]
        ));
        assert!(matches!(
            &ask(&mut w, Request::SecondRun { id: 7, run: run2 })[..],
            [Response::Failed { id: 7, .. }]
        ));
    }

    #[test]
    fn the_shorter_run_stays_at_its_end_while_the_longer_one_plays_on() {
        let mut w = WorkerState::default();
        let run = load_text(&mut w, 1, SPREAD);
        let longer =
            format!("{SPREAD}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p4}}\nspec: {{containers: [{{name: c, image: x}}]}}\n");
        ask(
            &mut w,
            Request::Compare {
                id: 2,
                run,
                with: CompareWith::Text(longer.clone()),
            },
        );
        let second = match ask(&mut w, Request::SecondRun { id: 3, run }).pop() {
            Some(Response::SecondRun { summary, .. }) => summary,
            other => panic!("{other:?}"),
        };
        assert_eq!(second.cycle_pod.len(), 4);
        let first = w.session.as_ref().unwrap().model.clone();
        let at3 = both(&mut w, run, 3);
        let at4 = both(&mut w, run, 4);
        assert_eq!(at4[0], at3[0], "A has 3 cycles: at cycle 4 it shows its end");
        assert_eq!(placed(&first, &at4[0]).len(), 3);
        assert_eq!(placed(&second.model, &at4[1]), native(&longer, None));
        assert_eq!(placed(&second.model, &at4[1]).len(), 4);
    }
}
