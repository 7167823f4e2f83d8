//! schedlab-worker: the playground's engine, run in a Web Worker. `WorkerState` loads scenarios,
//! runs them into a `Session` and answers the page's requests (`schedlab_view::protocol`);
//! it is independent of the browser (the `schedlab-worker` binary wires it to postMessage), so
//! it is tested natively. The page (`schedlab-web`) never links this crate nor the engine: it
//! only talks to the worker.

/// In wasm, Talc instead of Rust's default allocator (dlmalloc): 2.3 KB smaller (gzip), and as
/// fast on the engine's allocations (per pod, per rejected node) as measured in the browser
/// (docs/web.md). Natively the system's allocator stays.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub mod answers;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod generate;
pub mod lesson;

use schedlab_core::version::{Features, KubeVersion};
use schedlab_core::view::{Session, SessionOptions};
use schedlab_view::lesson::LessonRun;
use schedlab_view::protocol::{CompareWith, CrashKind, ExportFile, GenSpec, LoadIssue, OpenAt, OpenGuess, OpenedFrame, Request, Response};

/// How to run a scenario: the settings a `Request::Load` carries beside the text.
struct Run<'a> {
    seed: u64,
    /// The lesson's starting text (`None`: the text itself).
    lesson_start: Option<&'a str>,
    controllers: bool,
    version: KubeVersion,
    feature_gates: &'a str,
    /// Where the page expects the run to open (its frame goes with `Loaded`).
    open: Option<OpenGuess>,
}

/// The answer of a worker built without CEL (the light one) to request `id` about a scenario
/// that holds CEL: the page asks the full engine instead.
#[derive(Debug)]
pub struct NeedsCel;

/// The answer to an import: the full engine's, or the hand-over when this build cannot (the
/// light worker has no importer) or the dump holds CEL.
#[cfg(feature = "import")]
fn import(id: u64, text: &str) -> Response {
    match schedlab_core::import::try_import_str(text) {
        Some(mut report) => Response::Imported {
            id,
            text: std::mem::take(&mut report.scenario_text),
            report: Box::new(report),
        },
        None => Response::NeedsFullEngine { id },
    }
}

#[cfg(not(feature = "import"))]
fn import(id: u64, _: &str) -> Response {
    Response::NeedsFullEngine { id }
}

/// A file of `schedlab_core::export` for the scenario `text`, or its first load error.
fn export(text: &str, file: ExportFile, version: KubeVersion, gates: &str) -> Result<Result<String, String>, NeedsCel> {
    let features = match Features::with_gates(version, gates) {
        Ok(f) => f,
        Err(e) => return Ok(Err(format!("feature gates: {e}"))),
    };
    let sc = match schedlab_core::load::load_str_for(text, "scenario.yaml", &features) {
        Ok(sc) => sc,
        Err(e) if e.needs_cel() => return Err(NeedsCel),
        Err(e) => return Ok(Err(e.to_string())),
    };
    Ok(Ok(match file {
        ExportFile::Config => schedlab_core::export::config_yaml(&sc),
        ExportFile::Manifests | ExportFile::ManifestsKwok => {
            let opts = schedlab_core::export::ManifestOptions {
                kwok: file == ExportFile::ManifestsKwok,
            };
            schedlab_core::export::manifests(text, &sc, opts)
        }
    }))
}

/// Whether `text` holds CEL that this worker cannot evaluate (always `false` with the `cel`
/// feature): a scenario the light worker hands to the full one.
fn needs_cel(text: &str, version: KubeVersion) -> bool {
    !schedlab_core::CEL && matches!(schedlab_core::load::load_str_for(text, "scenario.yaml", &Features::new(version)), Err(e) if e.needs_cel())
}

#[derive(Default)]
pub struct WorkerState {
    session: Option<Session>,
    run: u64,
    /// The text and settings of the run on screen (the answers re-run it).
    scenario: Option<answers::Scenario>,
    /// Run B of the run on screen's last comparison ("Play both"; a new run drops it).
    second: Option<answers::Second>,
    /// The opening scenario's run, made before the page asked (`prepare_opening`).
    prepared: Option<Prepared>,
}

impl WorkerState {
    /// Handles one request; `post` sends responses (progress first, then the answer) and `now`
    /// reads a millisecond clock. A panic here is the binary's to report (`Response::Crashed`,
    /// crates/worker/src/browser.rs): wasm32 cannot unwind, so the worker stops after it.
    pub fn handle(&mut self, req: Request, post: &mut dyn FnMut(Response), now: &dyn Fn() -> f64) {
        match req {
            Request::Continue { run } => self.run = self.run.max(run),
            // The binary runs it, in slices between requests (`warm_slice`; browser.rs).
            Request::WarmUp => {}
            Request::Crash { id, how } => match how {
                CrashKind::Panic => panic!("the page asked this worker to crash (request {id})"),
                // A trap without the panic hook: on wasm32 `abort` is an `unreachable` instruction.
                CrashKind::Abort => std::process::abort(),
            },
            Request::Load {
                id,
                text,
                seed,
                controllers,
                kubernetes_version,
                feature_gates,
                lesson_start,
                open,
            } => {
                let run = Run {
                    seed,
                    lesson_start: lesson_start.as_deref(),
                    controllers,
                    version: kubernetes_version,
                    feature_gates: &feature_gates,
                    open,
                };
                self.load(id, &text, &run, post, now)
            }
            Request::Generate {
                id,
                spec,
                seed,
                kubernetes_version,
                open,
            } => {
                let (nodes, pods) = generate::generate(&spec);
                let text = format!("{nodes}---\n{pods}");
                // Generated clusters hold pods only: no controller has anything to do.
                let run = Run {
                    seed,
                    lesson_start: None,
                    controllers: false,
                    version: kubernetes_version,
                    feature_gates: "",
                    open,
                };
                self.load(id, &text, &run, post, now);
            }
            Request::GeneratedText { id, spec } => {
                let (nodes, pods) = generate::generate(&spec);
                post(Response::Text {
                    id,
                    text: format!("{nodes}\u{0}{pods}"),
                });
            }
            Request::Import { id, text } => post(import(id, &text)),
            Request::Solve { id, text, exercise } => post(match lesson::solve(&text, exercise as usize) {
                Ok(Ok(text)) => Response::Text { id, text },
                Ok(Err(message)) => Response::Failed { id, message },
                Err(NeedsCel) => Response::NeedsFullEngine { id },
            }),
            Request::Documents { id, texts } => post(Response::Documents {
                id,
                docs: texts.iter().map(|t| schedlab_core::view::documents(t)).collect(),
            }),
            Request::Export {
                id,
                text,
                file,
                kubernetes_version,
                feature_gates,
            } => post(match export(&text, file, kubernetes_version, &feature_gates) {
                Ok(file) => Response::Exported { id, file },
                Err(NeedsCel) => Response::NeedsFullEngine { id },
            }),
            Request::Why { id, run, pod } => post(self.scenario_of(id, run).map_or_else(|r| r, |sc| sc.why(id, run, &pod))),
            Request::Compare { id, run, with } => match self.scenario_of(id, run) {
                Ok(sc) => {
                    // The second run's text: the light worker hands one with CEL to the full one.
                    let other = match &with {
                        CompareWith::Config(c) => Some(schedlab_core::answer::with_config(&sc.text, c)),
                        CompareWith::Text(t) => Some(t.clone()),
                        CompareWith::Seed(_) | CompareWith::Version(_) => None,
                    };
                    if other.is_some_and(|t| needs_cel(&t, sc.opts.features.version())) {
                        post(Response::NeedsFullEngine { id });
                    } else {
                        let (answer, second) = sc.compare(id, run, &with);
                        self.second = second;
                        post(answer)
                    }
                }
                Err(stale) => post(stale),
            },
            Request::SecondRun { id, run } => post(match self.second_of(id, run) {
                Ok(second) => match second.session() {
                    Ok(s) => Response::SecondRun {
                        id,
                        run,
                        summary: Box::new(s.summary()),
                    },
                    Err(message) => Response::Failed { id, message },
                },
                Err(r) => r,
            }),
            Request::Both { id, run, cycle } => {
                let main = self.session.as_mut().filter(|_| run == self.run);
                let answer = match (main, self.second.as_mut().and_then(|s| s.session().ok())) {
                    (Some(a), Some(b)) => Response::Both {
                        id,
                        run,
                        cycle,
                        frames: Box::new([answers::frame_after_cycle(a, cycle), answers::frame_after_cycle(b, cycle)]),
                    },
                    (Some(_), None) => Response::Failed {
                        id,
                        message: "no comparison to play: compare first".into(),
                    },
                    (None, _) => Response::Stale { id, run },
                };
                post(answer)
            }
            Request::ApplyEdits { id, texts } => post(answers::apply(id, &texts)),
            Request::Frame { id, run, stop, detail } => match self.session.as_mut() {
                Some(s) if run == self.run => post(Response::Frame {
                    id,
                    run,
                    frame: Box::new(s.frame(stop, detail)),
                }),
                _ => post(Response::Stale { id, run }),
            },
            Request::Explain {
                id,
                run,
                cycle,
                node,
                plugin,
                score,
            } => match self.session.as_mut() {
                Some(s) if run == self.run => post(Response::Explained {
                    id,
                    run,
                    explanation: s.explain(cycle, node, &plugin, score),
                }),
                _ => post(Response::Stale { id, run }),
            },
        }
    }

    /// The scenario of run `run`, or the answer that says the worker no longer has it.
    fn scenario_of(&self, id: u64, run: u64) -> Result<&answers::Scenario, Response> {
        match &self.scenario {
            Some(sc) if run == self.run => Ok(sc),
            _ => Err(Response::Stale { id, run }),
        }
    }

    /// The second run of run `run`'s last comparison, or the answer that says there is none.
    fn second_of(&mut self, id: u64, run: u64) -> Result<&mut answers::Second, Response> {
        if run != self.run || self.scenario.is_none() {
            return Err(Response::Stale { id, run });
        }
        self.second.as_mut().ok_or_else(|| Response::Failed {
            id,
            message: "no comparison to play: compare first".into(),
        })
    }

    fn load(&mut self, id: u64, text: &str, run: &Run, post: &mut dyn FnMut(Response), now: &dyn Fn() -> f64) {
        // A new load makes the prepared opening run useless, unless it is that run.
        let prepared = self.prepared.take();
        let ran = match prepared {
            Some(p) if p.is(text, run) => Some(p.ran),
            _ => Self::run_load(id, text, run, post, now),
        };
        if let Some(ran) = ran {
            self.commit(id, *ran, run.open, post);
        }
    }

    /// Loads and runs `text` as `run` says: the run, or `None` after posting why there is none
    /// (`Invalid`, or the hand-over to the full engine). Nothing of the worker's state changes.
    fn run_load(id: u64, text: &str, run: &Run, post: &mut dyn FnMut(Response), now: &dyn Fn() -> f64) -> Option<Box<Ran>> {
        let t0 = now();
        let (seed, controllers) = (run.seed, run.controllers);
        let features = match Features::with_gates(run.version, run.feature_gates) {
            Ok(f) => f,
            Err(message) => {
                // The gates are a setting of the run, not a line of the text.
                post(Response::Invalid {
                    id,
                    issues: vec![LoadIssue {
                        line: 0,
                        column: 0,
                        message: format!("feature gates: {message}"),
                    }],
                });
                return None;
            }
        };
        match schedlab_core::load::load_str_for(text, "scenario.yaml", &features) {
            // Found before anything ran: the full engine (the page's other worker) runs it.
            Err(errs) if errs.needs_cel() => {
                post(Response::NeedsFullEngine { id });
                None
            }
            Err(errs) => {
                post(Response::Invalid {
                    id,
                    issues: errs
                        .errors
                        .iter()
                        .map(|e| LoadIssue {
                            line: e.line as u32,
                            column: e.column as u32,
                            message: e.to_string(),
                        })
                        .collect(),
                });
                None
            }
            Ok(mut sc) => {
                let pods = sc.pods.len() as u32;
                let lesson = sc.lesson.take();
                let t1 = now();
                let mut last = t1;
                let (session, spent) = Session::with_options_spent(sc, SessionOptions { seed, controllers }, &mut |cycles| {
                    let t = now();
                    if t - last > 100.0 {
                        last = t;
                        post(Response::Progress { id, cycles, pods });
                    }
                });
                let t2 = now();
                let summary = session.summary();
                // The goals are judged on every run: the page shows them live.
                let lesson = lesson.map(|l| {
                    let verdicts = schedlab_core::lesson::evaluate_texts(&l, run.lesson_start.unwrap_or(text), text, &session.run_facts);
                    Box::new(LessonRun { info: l.info(), verdicts })
                });
                Some(Box::new(Ran {
                    session,
                    spent,
                    scenario: answers::Scenario {
                        text: text.to_string(),
                        // The answers' re-runs run as this run did: its version and its gates.
                        opts: schedlab_core::answer::RunOptions { seed, controllers, features },
                        gates: run.feature_gates.to_string(),
                    },
                    summary,
                    lesson,
                    load_ms: t1 - t0,
                    run_ms: t2 - t1,
                    first: None,
                }))
            }
        }
    }

    /// Makes `ran` the run on screen (the next run number) and answers load `id` with it,
    /// carrying the frame where the page guessed the run opens (`open`).
    fn commit(&mut self, id: u64, mut ran: Ran, open: Option<OpenGuess>, post: &mut dyn FnMut(Response)) {
        let first_frame = open.map(|guess| ran.opened(guess));
        let Ran {
            session,
            spent,
            scenario,
            summary,
            lesson,
            load_ms,
            run_ms,
            ..
        } = ran;
        self.run += 1;
        self.second = None;
        self.scenario = Some(scenario);
        let previous = self.session.replace(session);
        post(Response::Loaded {
            id,
            run: self.run,
            summary: Box::new(summary),
            first_frame,
            load_ms,
            run_ms,
            lesson,
        });
        // Freed once the answer is on its way (the page reads it meanwhile): the run's
        // engine state and the session it replaces, for a large run tens of thousands
        // of allocations.
        drop((spent, previous));
    }

    /// Runs the playground's opening scenario (`opening_load`) as the page will ask for it, and
    /// keeps the run: a load that asks for exactly that (text and settings) is answered with it
    /// (`load`), any other load drops it. Called while the page is still starting (browser.rs:
    /// index.html starts this worker before the page's own wasm has loaded), so that the page's
    /// first load is answered as soon as it arrives; its first frame is drawn and the answer
    /// encoded once too, so the browser has compiled that code as well. Nothing the page sees
    /// changes. Returns whether a run is kept.
    pub fn prepare_opening(&mut self, now: &dyn Fn() -> f64) -> bool {
        let Request::Load {
            text,
            seed,
            controllers,
            kubernetes_version,
            feature_gates,
            lesson_start,
            ..
        } = opening_load(1)
        else {
            unreachable!("opening_load is a load")
        };
        let run = Run {
            seed,
            lesson_start: lesson_start.as_deref(),
            controllers,
            version: kubernetes_version,
            feature_gates: &feature_gates,
            open: None,
        };
        let Some(mut ran) = Self::run_load(0, &text, &run, &mut |_| {}, now) else {
            return false;
        };
        // The page opens a new scenario at its start, playing (no per-node detail asked).
        let first = ran.opened(OpenGuess {
            at: OpenAt::Fresh,
            playing: true,
        });
        // The answer's parts encoded once, with the serializer the answer uses: the encoder's
        // code is compiled too.
        let _ = schedlab_view::wire::to_bytes(&ran.summary);
        let _ = schedlab_view::wire::to_bytes(&first);
        ran.first = Some(first);
        self.prepared = Some(Prepared {
            text,
            seed,
            controllers,
            version: kubernetes_version,
            feature_gates,
            lesson_start,
            ran,
        });
        true
    }
}

/// A scenario loaded and run, before it becomes the worker's run on screen
/// (`WorkerState::commit`).
struct Ran {
    session: Session,
    spent: schedlab_core::view::Spent,
    scenario: answers::Scenario,
    summary: schedlab_view::view::Summary,
    lesson: Option<Box<LessonRun>>,
    load_ms: f64,
    run_ms: f64,
    /// A frame drawn in advance (`WorkerState::prepare_opening`).
    first: Option<Box<OpenedFrame>>,
}

impl Ran {
    /// The frame at the stop `guess` names in this run: the one drawn in advance when it is
    /// that stop and detail (a frame is a pure function of the run), else drawn now.
    fn opened(&mut self, guess: OpenGuess) -> Box<OpenedFrame> {
        let (stop, detail) = guess.resolve(&self.summary);
        match self.first.take() {
            Some(f) if (f.stop, f.detail) == (stop, detail) => f,
            _ => Box::new(OpenedFrame {
                stop,
                detail,
                frame: self.session.frame(stop, detail),
            }),
        }
    }
}

/// The opening scenario's run, prepared before the page asked, and what it was run from.
struct Prepared {
    text: String,
    seed: u64,
    controllers: bool,
    version: KubeVersion,
    feature_gates: String,
    lesson_start: Option<String>,
    ran: Box<Ran>,
}

impl Prepared {
    /// Whether a load of `text` with `run`'s settings is this run.
    fn is(&self, text: &str, run: &Run) -> bool {
        self.text == text
            && self.seed == run.seed
            && self.controllers == run.controllers
            && self.version == run.version
            && self.feature_gates == run.feature_gates
            && self.lesson_start.as_deref() == run.lesson_start
    }
}

/// What the playground opens with: the page sends it as this file, byte for byte (web:
/// `scenario::DEFAULT_TEXT`, and its test `the_default_scenario_is_sent_as_its_file`), so
/// `WorkerState::prepare_opening` can answer the page's first load.
const WARM_UP_TEXT: &str = include_str!("../../../assets/presets/tour.yaml");

/// The page's load of the opening scenario (prepared at start, and run by the idle warm-up),
/// with `seed`.
fn opening_load(seed: u64) -> Request {
    Request::Load {
        id: 0,
        text: WARM_UP_TEXT.to_string(),
        seed,
        controllers: true,
        kubernetes_version: KubeVersion::V1_34,
        feature_gates: String::new(),
        lesson_start: None,
        open: Some(OpenGuess {
            at: OpenAt::Fresh,
            playing: true,
        }),
    }
}

/// Runs `ask` with a sink that encodes each answer for the wire, as the worker posts them;
/// returns how many were encoded.
fn encoded_answers(ask: impl FnOnce(&mut dyn FnMut(Response))) -> usize {
    let mut answers = 0;
    ask(&mut |r: Response| {
        if schedlab_view::wire::to_bytes(&r).is_ok() {
            answers += 1;
        }
    });
    answers
}

/// How many slices the idle warm-up (`Request::WarmUp`) runs: enough for the browser to
/// optimise the loader's and the engine's hot functions (below).
pub const WARM_SLICES: u32 = 40;

/// The cluster each slice of the idle warm-up generates: small enough that a slice, even of
/// unoptimised code, keeps a request waiting for at most a few tens of milliseconds.
const WARM_SPEC: GenSpec = GenSpec { nodes: 24, pods: 48, zones: 3 };

/// Slice `k` of the idle warm-up (`Request::WarmUp`): a small generated cluster (the flow-style
/// YAML of the playground's generator, the shape of a large run) or, every fourth slice, the
/// opening scenario (block-style YAML, workloads, more plugins), loaded, run and its first
/// frame drawn as the page would ask, every answer encoded for the wire, in a state of its own
/// that is then dropped: nothing the page sees changes. Returns how many answers it produced.
///
/// Why: the browser runs a wasm function first as quickly compiled, slow code, and optimises
/// it only once it has done a certain amount of work; a call already running never switches.
/// A worker's first large run used to run its whole load and much of its scheduling so
/// (docs/web.md has the figures).
pub fn warm_slice(k: u32) -> usize {
    encoded_answers(|sink| warm_slice_to(k, sink))
}

/// `warm_slice`, its answers given to `sink`.
fn warm_slice_to(k: u32, sink: &mut dyn FnMut(Response)) {
    let mut state = WorkerState::default();
    let req = if k % 4 == 3 {
        opening_load(u64::from(k))
    } else {
        Request::Generate {
            id: 0,
            spec: WARM_SPEC,
            seed: u64::from(k),
            kubernetes_version: KubeVersion::V1_34,
            open: None,
        }
    };
    state.handle(req, sink, &|| 0.0);
    state.handle(Request::Frame { id: 0, run: state.run, stop: 0, detail: true }, sink, &|| 0.0);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The worker's answers to `req` (the test modules' one way to ask).
    /// `req`'s answers. Both cross the wire encoding as in the browser (`schedlab_view::wire`),
    /// and each must come back equal: every test's message is also a test of the encoding.
    pub(crate) fn ask(w: &mut WorkerState, req: Request) -> Vec<Response> {
        let req = across_the_wire(&req);
        let mut out = Vec::new();
        w.handle(req, &mut |r| out.push(across_the_wire(&r)), &|| 0.0);
        out
    }

    fn across_the_wire<T>(m: &T) -> T
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let back: T = schedlab_view::wire::from_bytes(&schedlab_view::wire::to_bytes(m).unwrap()).unwrap();
        // NaN is the one value not equal to itself; no message holds one.
        assert_eq!(&back, m);
        back
    }

    #[test]
    fn export_answers_with_the_engines_file_or_the_load_error() {
        let mut w = WorkerState::default();
        let text = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\napiVersion: schedlab.dev/v1alpha1\nkind: Timeline\nsteps: []\n";
        let ask_for = |w: &mut WorkerState, text: &str, file| {
            let req = Request::Export {
                id: 3,
                text: text.into(),
                file,
                kubernetes_version: KubeVersion::V1_34,
                feature_gates: String::new(),
            };
            match &ask(w, req)[..] {
                [Response::Exported { id: 3, file }] => file.clone(),
                r => panic!("{r:?}"),
            }
        };
        let config = ask_for(&mut w, text, ExportFile::Config).unwrap();
        assert!(config.starts_with("# kube-scheduler v1.34's configuration"), "{config}");
        let kwok = ask_for(&mut w, text, ExportFile::ManifestsKwok).unwrap();
        assert!(
            kwok.contains("kwok.x-k8s.io/node: fake") && !kwok.contains("kind: Timeline"),
            "{kwok}"
        );
        let plain = ask_for(&mut w, text, ExportFile::Manifests).unwrap();
        assert!(!plain.contains("kwok.x-k8s.io/node: fake"), "{plain}");
        let err = ask_for(&mut w, "kind: Pod\n", ExportFile::Config).unwrap_err();
        assert!(err.contains("apiVersion not set"), "{err}");
    }

    #[cfg(feature = "import")]
    #[test]
    fn import_answers_with_the_scenario_and_the_report() {
        let mut w = WorkerState::default();
        let dump = "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n}}\n- {apiVersion: v1, kind: Secret, metadata: {name: s}}\n";
        let r = ask(&mut w, Request::Import { id: 7, text: dump.into() });
        match &r[..] {
            [Response::Imported { id: 7, text, report }] => {
                assert!(text.contains("kind: Node"), "{text}");
                assert!(report.scenario_text.is_empty());
                assert_eq!(
                    report.skipped_line().as_deref(),
                    Some("skipped 1 Secret — Secret data is never read")
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn documents_answer_each_text_in_order() {
        let mut w = WorkerState::default();
        let texts = vec![
            "kind: Node\nmetadata: {name: a}\n---\nkind: NodeList\nitems: [{kind: Node, metadata: {name: b}}]\n".to_string(),
            "not: [yaml\n".to_string(),
        ];
        let r = ask(&mut w, Request::Documents { id: 4, texts });
        match &r[..] {
            [Response::Documents { id: 4, docs }] => {
                let names: Vec<&str> = docs[0].iter().filter_map(|d| d["metadata"]["name"].as_str()).collect();
                assert_eq!(names, ["a", "b"]);
                assert!(docs[1].is_empty(), "{docs:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Each slice of the idle warm-up loads and runs its scenario (a generated cluster, or the
    /// opening scenario every fourth slice) and draws a frame of it: a `Loaded` (not `Invalid`)
    /// and a `Frame`. The request itself changes nothing and is not answered.
    #[test]
    fn each_slice_of_the_idle_warm_up_runs_a_scenario_and_draws_a_frame() {
        for k in 0..WARM_SLICES {
            let mut out = Vec::new();
            warm_slice_to(k, &mut |r| out.push(r));
            assert!(matches!(out[..], [Response::Loaded { .. }, Response::Frame { .. }]), "slice {k}: {out:?}");
            assert_eq!(warm_slice(k), 2);
        }
        let mut w = WorkerState::default();
        assert!(ask(&mut w, Request::WarmUp).is_empty(), "not answered");
        assert_eq!(w.run, 0);
        assert!(w.session.is_none());
    }

    /// The opening scenario prepared before the page asks is the answer to the page's load of
    /// it (the same run and first frame as when run on request, in a worker that prepared
    /// nothing), and only to that load: another load, or the opening scenario with another
    /// setting, runs as asked and drops the prepared run.
    #[test]
    fn the_prepared_opening_run_answers_exactly_the_pages_first_load() {
        let page_load = |id| {
            let mut r = opening_load(1);
            if let Request::Load { id: i, .. } = &mut r {
                *i = id;
            }
            r
        };
        let mut cold = WorkerState::default();
        let want = ask(&mut cold, page_load(7));
        let mut w = WorkerState::default();
        // A clock that ticks at each reading: the prepared run's timings are 1 ms each, where
        // a run on request (`ask`'s clock stands still) has 0.
        let tick = std::cell::Cell::new(0.0);
        assert!(w.prepare_opening(&|| {
            tick.set(tick.get() + 1.0);
            tick.get()
        }));
        assert!(w.session.is_none() && w.run == 0, "nothing of it on screen yet");
        let got = ask(&mut w, page_load(7));
        assert!(matches!(got[..], [Response::Loaded { load_ms: 1.0, run_ms: 1.0, .. }]), "the prepared run answered");
        let strip = |r: &[Response]| match r {
            [Response::Loaded { id, run, summary, first_frame, lesson, .. }] => (*id, *run, summary.clone(), first_frame.clone(), lesson.clone()),
            other => panic!("{other:?}"),
        };
        assert!(strip(&want).3.is_some(), "the page's load carries its guess");
        assert_eq!(strip(&got), strip(&want));
        assert!(w.prepared.is_none(), "used once");
        // The run on screen is the prepared one: its frames and answers work as usual.
        let r = ask(&mut w, Request::Frame { id: 8, run: 1, stop: 1, detail: true });
        assert!(matches!(r[..], [Response::Frame { .. }]), "{r:?}");

        // Another seed: not the prepared run (and the prepared one is gone).
        let mut w = WorkerState::default();
        assert!(w.prepare_opening(&|| 0.0));
        let mut other = page_load(3);
        if let Request::Load { seed, .. } = &mut other {
            *seed = 2;
        }
        let got = ask(&mut w, other.clone());
        assert!(matches!(got[..], [Response::Loaded { load_ms: 0.0, .. }]), "run on request");
        assert_eq!(strip(&got), strip(&ask(&mut WorkerState::default(), other)));
        assert!(w.prepared.is_none());
        // Another text, then the opening one: run as asked.
        let mut w = WorkerState::default();
        assert!(w.prepare_opening(&|| 0.0));
        load_tiny(&mut w, 1);
        assert!(w.prepared.is_none(), "dropped by another load");
        assert_eq!(strip(&ask(&mut w, page_load(7))).2, strip(&want).2);
    }

    fn load_tiny(w: &mut WorkerState, id: u64) -> u64 {
        load_text(
            w,
            id,
            "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {capacity: {cpu: '1'}}\n",
        )
    }

    /// A load of `text` at v1.34 (seed 1, controllers on, no gates).
    pub(crate) fn load_request(id: u64, text: &str) -> Request {
        Request::Load {
            id,
            text: text.into(),
            seed: 1,
            controllers: true,
            kubernetes_version: KubeVersion::V1_34,
            feature_gates: String::new(),
            lesson_start: None,
            open: None,
        }
    }

    /// Loads `text` at v1.34 (seed 1, controllers on) and returns its run number.
    pub(crate) fn load_text(w: &mut WorkerState, id: u64, text: &str) -> u64 {
        let r = ask(w, load_request(id, text));
        match r.last() {
            Some(Response::Loaded { run, .. }) => *run,
            other => panic!("{other:?}"),
        }
    }

    /// web/bench/bench.mjs reads a load's timings from the last bytes of `Response::Loaded`
    /// without decoding the summary: this is the layout it reads.
    #[test]
    fn a_loaded_answer_ends_as_the_browser_benchmark_reads_it() {
        let mut w = WorkerState::default();
        let mut loaded = ask(&mut w, load_request(1, "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n"));
        let Some(Response::Loaded { load_ms, run_ms, .. }) = loaded.last_mut() else { panic!("{loaded:?}") };
        (*load_ms, *run_ms) = (12.5, 1e-3);
        let b = schedlab_view::wire::to_bytes(loaded.last().unwrap()).unwrap();
        let n = b.len();
        assert_eq!((b[0], b[n - 19], b[n - 10], b[n - 1]), (2, 5, 6, 0));
        assert_eq!(f64::from_le_bytes(b[n - 18..n - 10].try_into().unwrap()), 12.5);
        assert_eq!(f64::from_le_bytes(b[n - 9..n - 1].try_into().unwrap()), 1e-3);
        // The same with the first frame on board (it comes before the timings).
        let Some(Response::Loaded { first_frame, .. }) = loaded.last_mut() else { panic!() };
        let frame = ask(&mut w, Request::Frame { id: 2, run: 1, stop: 0, detail: false });
        let Some(Response::Frame { frame, .. }) = frame.into_iter().next() else { panic!() };
        *first_frame = Some(Box::new(OpenedFrame { stop: 0, detail: false, frame: *frame }));
        let c = schedlab_view::wire::to_bytes(loaded.last().unwrap()).unwrap();
        let m = c.len();
        assert!(m > n + 16, "the frame is in it");
        assert_eq!((c[0], c[m - 19], c[m - 10], c[m - 1]), (2, 5, 6, 0));
        assert_eq!(c[m - 19..], b[n - 19..]);
    }

    /// The load's answer and its guessed first frame: the stop and detail it resolved to, and
    /// the frame, which must be the one a `Frame` request for that stop and detail answers.
    fn guessed(w: &mut WorkerState, req: Request) -> (Box<schedlab_view::view::Summary>, u32, bool) {
        let (summary, opened) = match ask(w, req).pop() {
            Some(Response::Loaded { summary, first_frame, .. }) => (summary, first_frame),
            other => panic!("{other:?}"),
        };
        let opened = opened.expect("a guess was sent: its frame comes with the answer");
        let asked = ask(w, Request::Frame { id: 9, run: w.run, stop: opened.stop, detail: opened.detail });
        match &asked[..] {
            [Response::Frame { frame, .. }] => assert_eq!(**frame, opened.frame, "stop {} detail {}", opened.stop, opened.detail),
            other => panic!("{other:?}"),
        }
        (summary, opened.stop, opened.detail)
    }

    /// Where the page said it expects the run to open, the worker sends that frame with
    /// `Loaded`: a new scenario's start (playing: no per-node detail asked), its end for a large
    /// run (paused there, with detail), a stop kept within the run, the place of the playhead in
    /// the run before. Without a guess, no frame.
    #[test]
    fn a_loaded_answer_carries_the_frame_at_the_guessed_stop() {
        use schedlab_view::view::Position;
        let mut w = WorkerState::default();
        let with = |at, playing| {
            let mut r = load_request(1, WARM_UP_TEXT);
            if let Request::Load { open, .. } = &mut r {
                *open = Some(OpenGuess { at, playing });
            }
            r
        };
        let (summary, stop, detail) = guessed(&mut w, with(OpenAt::Fresh, true));
        assert_eq!((stop, detail), (0, false));
        assert!(summary.detail_all && !summary.model.large && summary.stops > 10, "{}", summary.stops);
        let last = summary.stops - 1;
        let (_, stop, detail) = guessed(&mut w, with(OpenAt::Stop(5), false));
        assert_eq!((stop, detail), (5, false), "detail is recorded for every cycle of a small run");
        let (_, stop, _) = guessed(&mut w, with(OpenAt::Stop(u32::MAX), false));
        assert_eq!(stop, last);
        let (_, stop, _) = guessed(&mut w, with(OpenAt::Same(Position::In { cycle: 2, offset: 1 }), true));
        assert_eq!(stop, summary.cycle_first_stop[1] + 1);
        let (_, stop, _) = guessed(&mut w, with(OpenAt::Same(Position::End), true));
        assert_eq!(stop, last);

        let large = Request::Generate {
            id: 3,
            spec: GenSpec { nodes: 201, pods: 2000, zones: 3 },
            seed: 1,
            kubernetes_version: KubeVersion::V1_34,
            open: Some(OpenGuess { at: OpenAt::Fresh, playing: true }),
        };
        let (summary, stop, detail) = guessed(&mut w, large);
        assert!(summary.model.large && !summary.detail_all);
        assert_eq!((stop, detail), (summary.stops - 1, true));

        match ask(&mut w, load_request(4, WARM_UP_TEXT)).pop() {
            Some(Response::Loaded { first_frame: None, .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_replacement_worker_numbers_its_runs_after_the_pages_last() {
        let mut w = WorkerState::default();
        assert!(ask(&mut w, Request::Continue { run: 41 }).is_empty(), "not answered");
        assert_eq!(load_tiny(&mut w, 1), 42);
        // A smaller number never goes back.
        ask(&mut w, Request::Continue { run: 3 });
        assert_eq!(load_tiny(&mut w, 2), 43);
    }

    #[test]
    #[should_panic(expected = "the page asked this worker to crash (request 9)")]
    fn a_crash_request_panics_while_answering_it() {
        let mut w = WorkerState::default();
        ask(
            &mut w,
            Request::Crash {
                id: 9,
                how: CrashKind::Panic,
            },
        );
    }

    #[test]
    fn every_answered_request_names_its_id() {
        let reqs = [
            Request::Crash {
                id: 5,
                how: CrashKind::Abort,
            },
            Request::Documents { id: 6, texts: vec![] },
        ];
        assert_eq!(reqs.iter().map(Request::id).collect::<Vec<_>>(), [Some(5), Some(6)]);
        assert_eq!(Request::Continue { run: 1 }.id(), None);
    }

    /// The version and gates of a Load reach the run: v1.35 scores DynamicResources, v1.34
    /// does not; a gate the version does not know is an issue of the request.
    #[test]
    fn a_load_runs_the_version_it_names() {
        let text = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {capacity: {cpu: '1', pods: '10'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n";
        for (version, gates, scores) in [
            (KubeVersion::V1_34, "", Some(false)),
            (KubeVersion::V1_35, "", Some(true)),
            (KubeVersion::V1_34, "GangScheduling=true", None),
        ] {
            let mut w = WorkerState::default();
            let r = ask(
                &mut w,
                Request::Load {
                    id: 1,
                    text: text.into(),
                    seed: 1,
                    controllers: false,
                    kubernetes_version: version,
                    feature_gates: gates.into(),
                    lesson_start: None,
                    open: None,
                },
            );
            match (r.last(), scores) {
                (Some(Response::Loaded { summary, .. }), Some(dra)) => {
                    assert_eq!(summary.kubernetes_version, version, "the summary names the version it ran");
                    let s = w.session.as_ref().unwrap();
                    assert_eq!(s.kubernetes_version(), version);
                    assert_eq!(s.trace.header.kubernetes_version, version);
                    let weights = &s.model.profiles[0].weights;
                    assert_eq!(weights.iter().any(|(p, _)| p == "DynamicResources"), dra, "{version}: {weights:?}");
                }
                (Some(Response::Invalid { issues, .. }), None) => {
                    assert!(
                        issues[0].message.contains("unrecognized feature gate: GangScheduling"),
                        "{issues:?}"
                    )
                }
                (other, _) => panic!("{version} {gates}: {other:?}"),
            }
        }
    }

    #[test]
    fn an_invalid_scenario_keeps_the_last_good_run() {
        let mut w = WorkerState::default();
        let good = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {capacity: {cpu: '1'}}\n";
        let r = ask(&mut w, load_request(1, good));
        let Some(Response::Loaded { run, .. }) = r.last() else {
            panic!("{r:?}")
        };
        let run = *run;
        let bad = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {capacity: {cpu: 'lots'}}\n";
        let r = ask(&mut w, load_request(2, bad));
        match &r[..] {
            [Response::Invalid { issues, .. }] => assert_eq!(issues[0].line, 4, "{issues:?}"),
            other => panic!("{other:?}"),
        }
        let r = ask(
            &mut w,
            Request::Frame {
                id: 3,
                run,
                stop: 0,
                detail: false,
            },
        );
        assert!(matches!(r[..], [Response::Frame { .. }]), "{r:?}");
    }

    fn load_lesson(w: &mut WorkerState, text: &str, start: &str) -> Box<LessonRun> {
        let r = ask(
            w,
            Request::Load {
                id: 1,
                text: text.into(),
                seed: 1,
                controllers: true,
                kubernetes_version: KubeVersion::V1_34,
                feature_gates: String::new(),
                lesson_start: Some(start.into()),
                open: None,
            },
        );
        match r.last() {
            Some(Response::Loaded { lesson: Some(l), .. }) => l.clone(),
            other => panic!("{other:?}"),
        }
    }

    /// A load of a lesson answers its goals' verdicts; the solution the worker writes makes
    /// the exercise pass, and the same edit judged against another starting text is out of
    /// the exercise's scope.
    #[test]
    fn a_lesson_load_answers_the_verdicts_and_solve_the_solved_text() {
        let start = include_str!("../../../assets/lessons/taints.yaml");
        let mut w = WorkerState::default();
        let before = load_lesson(&mut w, start, start);
        assert_eq!(before.info.title, "A node reserved with a taint");
        assert_eq!(before.verdicts.len(), before.info.exercises.len());
        assert!(!before.verdicts[0].pass, "{:?}", before.verdicts[0]);
        let solved = match &ask(
            &mut w,
            Request::Solve {
                id: 2,
                text: start.into(),
                exercise: 0,
            },
        )[..]
        {
            [Response::Text { id: 2, text }] => text.clone(),
            other => panic!("{other:?}"),
        };
        assert!(solved.starts_with("# Lesson: taints and tolerations."), "{solved}");
        let after = load_lesson(&mut w, &solved, start);
        assert!(after.verdicts[0].pass, "{:?}", after.verdicts[0]);
        // Judged from a start that already differs elsewhere, the edit leaves the scope.
        let other_start = start.replacen("metadata: {name: web}", "metadata: {name: web, labels: {extra: x}}", 1);
        let out = load_lesson(&mut w, &solved, &other_start);
        assert!(
            !out.verdicts[0].pass && out.verdicts[0].goals[0].reason.contains("outside what this exercise lets you edit"),
            "{:?}",
            out.verdicts[0]
        );
        match &ask(
            &mut w,
            Request::Solve {
                id: 3,
                text: "kind: Node\n".into(),
                exercise: 0,
            },
        )[..]
        {
            [Response::Failed { id: 3, .. }] => {}
            other => panic!("{other:?}"),
        }
    }

    /// A scenario with the schedlab.dev/CEL plugin's filter (`CEL_PLUGIN`), one with a DRA
    /// device selector (the gpu-training preset), and a plain one.
    const CEL_PLUGIN: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: a, labels: {zone: x}}\nstatus: {allocatable: {cpu: '4', memory: 4Gi, pods: '10'}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\nstatus: {allocatable: {cpu: '8', memory: 8Gi, pods: '10'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n      enabled:\n      - {name: schedlab.dev/CEL}\n  pluginConfig:\n  - name: schedlab.dev/CEL\n    args: {filter: '\"zone\" in node.metadata.labels'}\n";
    const DRA_CEL: &str = include_str!("../../../assets/presets/gpu-training.yaml");
    const PLAIN: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: '4', memory: 4Gi, pods: '10'}}\n";

    #[cfg(not(feature = "cel"))]
    fn load(w: &mut WorkerState, id: u64, text: &str) -> Vec<Response> {
        ask(w, load_request(id, text))
    }

    /// The light engine (built without `cel`) refuses every scenario that holds CEL at load,
    /// before anything ran, with the typed answer, also when the scenario has other errors (the
    /// full engine judges those); and the same for an export, an import, a lesson's solution and
    /// a comparison whose second run holds CEL. A plain scenario runs as ever.
    /// `cargo test -p schedlab-worker --no-default-features` (scripts/test.sh).
    #[cfg(not(feature = "cel"))]
    #[test]
    fn the_light_engine_hands_cel_to_the_full_one_at_load() {
        let mut w = WorkerState::default();
        let broken = format!("{CEL_PLUGIN}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: q}}\nspec: {{containers: [{{name: c, image: i, bogus: 1}}]}}\n");
        for (what, text) in [("plugin", CEL_PLUGIN), ("DRA selector", DRA_CEL), ("with other errors", &broken)] {
            assert!(matches!(&load(&mut w, 5, text)[..], [Response::NeedsFullEngine { id: 5 }]), "{what}");
            let export = Request::Export {
                id: 6,
                text: text.into(),
                file: ExportFile::Config,
                kubernetes_version: KubeVersion::V1_34,
                feature_gates: String::new(),
            };
            assert!(matches!(&ask(&mut w, export)[..], [Response::NeedsFullEngine { id: 6 }]), "{what}");
            let solve = Request::Solve { id: 7, text: text.into(), exercise: 0 };
            assert!(matches!(&ask(&mut w, solve)[..], [Response::NeedsFullEngine { id: 7 }]), "{what}");
        }
        // An import, of any dump: the light engine has no importer.
        for dump in [DRA_CEL, "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n"] {
            let import = Request::Import { id: 8, text: dump.into() };
            assert!(matches!(&ask(&mut w, import)[..], [Response::NeedsFullEngine { id: 8 }]));
        }
        // The engine itself: the load's errors are only the typed refusal, at the expression (line 26).
        let errs = schedlab_core::load_str(CEL_PLUGIN, "s.yaml").unwrap_err();
        assert!(errs.needs_cel() && errs.errors.len() == 1, "{errs}");
        assert_eq!((errs.errors[0].line, errs.errors[0].reason), (26, schedlab_core::load::ErrorReason::NeedsCel));
        // A plain scenario runs; comparing it with a CEL configuration is the full engine's.
        let run = load_text(&mut w, 9, PLAIN);
        let config = CEL_PLUGIN.split("---\n").last().unwrap().to_string();
        let compare = Request::Compare {
            id: 10,
            run,
            with: CompareWith::Config(config),
        };
        assert!(matches!(&ask(&mut w, compare)[..], [Response::NeedsFullEngine { id: 10 }]));
        let seed = Request::Compare {
            id: 11,
            run,
            with: CompareWith::Seed(2),
        };
        assert!(matches!(&ask(&mut w, seed)[..], [Response::Compared { id: 11, .. }]));
    }

    /// The full engine (the `cel` feature, the default) runs the same scenarios.
    #[cfg(feature = "cel")]
    #[test]
    fn the_full_engine_runs_cel() {
        let mut w = WorkerState::default();
        for text in [CEL_PLUGIN, DRA_CEL, PLAIN] {
            load_text(&mut w, 5, text);
        }
    }
}
