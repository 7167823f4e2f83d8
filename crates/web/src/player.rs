//! The page's playback as a plain state machine: no Leptos, no browser. It takes what the user
//! asks (`Intent`: load this scenario, seek, play, explain a cell, an action's held playhead,
//! a link's or an embed's start-up) and what the worker answers (`protocol::Response`), and
//! keeps what the page shows (`Shown`) and what it must do next (`Out`: requests to post, the
//! issues to list, …). `crate::playback` mirrors `Shown` into the app's signals and carries
//! the `Out`s out; `crate::bridge` only posts and receives.
//!
//! The rules it owns, each in one place:
//! - where a new run's playhead goes, and whether it plays (`Player::opening`; the load
//!   carries a guess of it, `Player::guess_opening`, so that the worker answers that frame with
//!   the run);
//! - which answers are stale (`Player::answer`): a load's answer counts only for the load in
//!   flight and only when no newer load waits; a frame only for the run on screen or the run
//!   about to replace it; an explanation only for the newest question about the run on screen;
//!   the worker's `Stale` (a request about a run it no longer has) only frees its slot;
//! - coalescing: one load and one frame in flight, only the newest of each waits;
//! - what is asked again when the worker stops (`Player::lost`, with `crate::recovery`).

use crate::recovery::{self, Lost, Plan, Reload};
use crate::scenario::{LineMap, Part, Saved};
use schedlab_view::lesson::LessonRun;
use schedlab_view::protocol::{CrashKind, LoadIssue, OpenAt, OpenGuess, OpenedFrame, Request, Response};
use schedlab_view::view::{Explanation, Frame, Stage, Summary};
use std::sync::Arc;

#[cfg(test)]
mod tests;

/// A load error placed in its part of the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    pub part: Option<Part>,
    /// Line and column within the part (1-based; 0 unknown).
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// A clicked filter-matrix or score-table cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRef {
    pub cycle: u32,
    pub node: u32,
    /// Empty: the whole row.
    pub plugin: String,
    pub score: bool,
}

/// What the engine is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Busy {
    Idle,
    Running { cycles: u32, pods: u32 },
    /// The scenario holds CEL: the full engine (the second worker) is being downloaded and
    /// started (`Player::upgrade`).
    LoadingEngine,
}

/// A cycle (1-based; 0 = before the first) and a phase in it.
pub type At = (u32, Option<Stage>);

/// Where the playhead goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seek {
    /// A stop (clamped to the run).
    Stop(u32),
    /// The last stop.
    End,
    /// One stop forward or back.
    Phase { forward: bool },
    /// To the start of the next (or this/previous) cycle.
    Pod { forward: bool },
    /// The first stop of a cycle (clamped to the last cycle).
    Cycle(u32),
    /// A cycle and phase (its first stop at that stage; the cycle's start without one).
    At(u32, Option<Stage>),
}

/// How the page opened: what its address asked for. Applied to the first run that shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartUp {
    /// A share link's playhead (`#…cycle=…&phase=…`): the run opens there, paused.
    pub link: Option<At>,
    /// `?cycle=N&phase=…` in the address: a fresh run opens there, paused.
    pub at: Option<At>,
    /// Embedded (`?embed`): whether the author asked it to play (reduced motion already
    /// taken into account). It plays only while in view.
    pub embed: Option<bool>,
}

/// What the user asks of the playback.
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Run this scenario (the newest wins). `fresh`: a new scenario (it opens at its start,
    /// or as the address says), not an edit of the one on screen (which keeps its playhead).
    Load {
        source: Saved,
        fresh: bool,
    },
    /// The last good scenario from storage, run to have something on screen beside errors.
    LoadFallback(Saved),
    Seek {
        to: Seek,
        pause: bool,
    },
    Play(bool),
    /// Play/pause; playing from the last stop starts again from the first.
    TogglePlay,
    /// The playback clock: `ms` passed; a stop lasts `period` ms once its frame is shown.
    Tick {
        ms: u32,
        period: u32,
    },
    /// Explain a cell of the cycle on screen.
    Explain(CellRef),
    CloseExplanation,
    /// An action at stop `stop` adds a timeline step: the next run opens at the same stop
    /// (the runs agree up to the step, which comes after it), playing if `resume`.
    Hold {
        stop: u32,
        resume: bool,
    },
    StartUp(StartUp),
    /// An embed came into view or left it.
    Visible(bool),
    /// Test hook: the next explanation is asked as a `Crash` under its id.
    CrashNextExplain,
}

/// What the page must do besides showing `Shown`, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    /// Post this request to the worker.
    Send(Request),
    /// Ask the worker for the step titles of this Timeline text (empty: there are none).
    Titles(String),
    /// The load errors to list (replacing the list).
    Issues(Vec<Issue>),
    /// Keep this scenario as the last good one (storage).
    SaveGood(Saved),
    /// Nothing is on screen and the scenario is invalid: run the last good one from storage.
    LoadGood,
    /// A new scenario's first run is on screen: later loads are edits of it.
    Opened,
    /// Start a new worker (the old one stopped); the `Send`s after this go to it.
    Restart,
    /// Replace the light worker by the full one (with CEL) for the rest of the session; the
    /// `Send`s after this go to it (`Player::upgrade`).
    Upgrade,
    /// The engine stopped again while recovering: no new worker. Why, in a sentence.
    GaveUp(String),
}

/// A playing run is on screen this long (ms) before the worker is asked to warm up: after the
/// page's start-up (the editor's bundle, the first run's first animated frames).
pub const WARM_UP_WHILE_PLAYING_AFTER_MS: u32 = 2000;

/// What the page shows of the playback.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The run on screen (0: none yet).
    pub run: u64,
    pub summary: Option<Arc<Summary>>,
    /// The playhead.
    pub stop: u32,
    pub playing: bool,
    /// The frame on screen (it may lag `stop` while the worker answers).
    pub frame: Option<Arc<Frame>>,
    pub cell: Option<CellRef>,
    pub explanation: Option<Explanation>,
    /// The clicked cell's explanation could not be computed: the report to copy.
    pub explain_failed: Option<String>,
    pub busy: Busy,
    /// Wall-clock time of the run on screen in the worker (ms).
    pub run_ms: f64,
    /// The scenario's Lesson and its goals' verdicts on the run on screen.
    pub lesson: Option<Arc<LessonRun>>,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown {
            run: 0,
            summary: None,
            stop: 0,
            playing: false,
            frame: None,
            cell: None,
            explanation: None,
            explain_failed: None,
            busy: Busy::Idle,
            run_ms: 0.0,
            lesson: None,
        }
    }
}

impl Shown {
    /// Number of stops of the run on screen.
    pub fn stops(&self) -> u32 {
        self.summary.as_ref().map(|s| s.stops).unwrap_or(0)
    }
}

/// A frame request: run, stop, per-node detail.
type FrameAsk = (u64, u32, bool);

/// A load request's bookkeeping.
#[derive(Clone, Debug)]
struct LoadJob {
    id: u64,
    /// To place errors in their part.
    map: LineMap,
    source: Saved,
    /// Loaded only to have a run on screen while the scenario itself is invalid.
    fallback: bool,
    /// Run again in a new worker after the last one stopped: the screen keeps its errors and
    /// explanation.
    recovery: bool,
}

/// An explanation asked for and not answered yet (for the report when it cannot be).
#[derive(Clone, Debug)]
struct ExplainAsk {
    id: u64,
    run: u64,
    cell: CellRef,
}

/// Where a new run opens: decided when it loads, applied when its first frame arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Opening {
    stop: u32,
    playing: bool,
    /// An embed that should play but is out of view: it starts when it comes into view.
    resume_on_view: bool,
    /// It used what a fresh scenario (or the link) asked for: later loads keep the playhead.
    opened: bool,
    /// It used the address's `?cycle=` start.
    took_at: bool,
}

/// A finished run waiting for its first frame (the screen never pairs one run's names with
/// another run's state).
#[derive(Clone, Debug)]
struct PendingRun {
    run: u64,
    summary: Arc<Summary>,
    opening: Opening,
    run_ms: f64,
    lesson: Option<Arc<LessonRun>>,
    source: Saved,
    fallback: bool,
    recovery: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Player {
    pub shown: Shown,
    embed: bool,
    next_id: u64,
    /// The highest run number given (a replacement worker continues after it).
    last_run: u64,
    /// The newest load is a new scenario (not an edit).
    fresh: bool,
    start: StartUp,
    held: Option<(u32, bool)>,
    load_in_flight: Option<LoadJob>,
    load_next: Option<(Request, LoadJob)>,
    pending: Option<PendingRun>,
    /// The scenario of the run on screen, and whether it was written to storage as good.
    good: Option<(Saved, bool)>,
    /// The worker is a replacement whose reload has not been shown yet.
    recovering: bool,
    /// The id of the frame request in flight.
    frame_in_flight: Option<u64>,
    frame_next: Option<FrameAsk>,
    /// The last frame asked for (not asked again).
    frame_last: Option<FrameAsk>,
    /// The frame the screen wanted when last looked at (asked for when that changes).
    frame_wanted: Option<FrameAsk>,
    explain_waiting: Option<ExplainAsk>,
    /// The newest explanation request.
    explain_id: u64,
    crash_next_explain: bool,
    /// The Timeline text whose step titles were last asked for.
    titles_text: String,
    /// Time at the current stop (ms), for the playback clock.
    elapsed: u32,
    /// Embedded: whether it is in view (`None`: not known yet).
    visible: Option<bool>,
    resume_on_view: bool,
    /// This worker was sent `Request::WarmUp`.
    warm_asked: bool,
    /// How long (playback clock ms) a run of this worker has been on screen.
    on_screen_ms: u32,
    out: Vec<Out>,
}

impl Player {
    pub fn new(embed: bool) -> Player {
        Player {
            embed,
            fresh: true,
            visible: (!embed).then_some(true),
            ..Player::default()
        }
    }

    /// A new request id (the bridge's own requests, documents and imports, take theirs here
    /// too: one sequence, so an answer's id names one request).
    pub fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Whether a request is waiting for the worker's answer.
    pub fn waiting(&self) -> bool {
        self.load_in_flight.is_some() || self.frame_in_flight.is_some() || self.pending.is_some()
    }

    /// The highest run number the page was given.
    pub fn last_run(&self) -> u64 {
        self.last_run
    }

    pub fn act(&mut self, intent: Intent) -> Vec<Out> {
        match intent {
            Intent::Load { source, fresh } => {
                self.fresh = fresh;
                self.submit(source, false, false);
            }
            Intent::LoadFallback(source) => self.submit(source, true, false),
            Intent::Seek { to, pause } => {
                if pause {
                    self.shown.playing = false;
                }
                self.seek(to);
            }
            Intent::Play(on) => self.set_playing(on),
            Intent::TogglePlay => {
                let last = self.shown.stops().saturating_sub(1);
                if !self.shown.playing && self.shown.stop >= last {
                    self.seek(Seek::Stop(0));
                }
                self.set_playing(!self.shown.playing);
            }
            Intent::Tick { ms, period } => self.tick(ms, period),
            Intent::Explain(cell) => self.explain(cell),
            Intent::CloseExplanation => self.close_explanation(),
            Intent::Hold { stop, resume } => self.held = Some((stop, resume)),
            Intent::StartUp(s) => self.start = s,
            Intent::Visible(v) => {
                self.visible = Some(v);
                if !v && self.shown.playing {
                    self.resume_on_view = true;
                    self.shown.playing = false;
                } else if v && self.resume_on_view {
                    self.resume_on_view = false;
                    self.shown.playing = true;
                }
            }
            Intent::CrashNextExplain => self.crash_next_explain = true,
        }
        self.want_frame();
        self.want_warm_up();
        std::mem::take(&mut self.out)
    }

    pub fn answer(&mut self, r: Response) -> Vec<Out> {
        match r {
            Response::Progress { id, cycles, pods } => {
                if self.load_in_flight.as_ref().is_some_and(|j| j.id == id) {
                    self.shown.busy = Busy::Running { cycles, pods };
                }
            }
            Response::Loaded {
                id,
                run,
                summary,
                run_ms,
                load_ms,
                lesson,
                first_frame,
            } => self.loaded(id, run, Arc::new(*summary), run_ms + load_ms, lesson.map(|l| Arc::new(*l)), first_frame),
            Response::Invalid { id, issues } => self.invalid(id, issues),
            Response::Frame { id, run, frame } => {
                if let Some(p) = self.pending.take_if(|p| p.run == run) {
                    self.open(p, Arc::new(*frame));
                } else if run == self.shown.run && self.pending.is_none() {
                    self.show_frame(Arc::new(*frame));
                }
                if self.frame_in_flight == Some(id) {
                    self.frame_answered();
                }
            }
            Response::Explained { id, run, explanation } => {
                self.explain_waiting.take_if(|a| a.id == id);
                if self.explain_id == id && run == self.shown.run {
                    self.shown.explanation = Some(explanation);
                }
            }
            Response::Stale { id, .. } | Response::Failed { id, .. } => {
                // A refused frame request must not leave the next one waiting forever.
                if self.frame_in_flight == Some(id) {
                    self.frame_answered();
                }
                self.explain_waiting.take_if(|a| a.id == id);
            }
            // The bridge's own (documents, texts, imports, readiness, crashes).
            Response::Ready
            | Response::Text { .. }
            | Response::Imported { .. }
            | Response::Documents { .. }
            | Response::Exported { .. }
            | Response::Crashed { .. }
            | Response::Answered { .. }
            | Response::Compared { .. }
            | Response::SecondRun { .. }
            | Response::Both { .. }
            | Response::Edited { .. }
            | Response::NeedsFullEngine { .. } => {}
        }
        self.want_frame();
        self.want_warm_up();
        std::mem::take(&mut self.out)
    }

    /// The worker stopped: `crashed` is the request it was answering when it said so, `cause`
    /// how it stopped, in a line. The explanation waiting gets its report, and a new worker is
    /// asked to run again what the screen shows (`crate::recovery::plan`).
    pub fn lost(&mut self, crashed: Option<u64>, cause: &str) -> Vec<Out> {
        let facts = Lost {
            crashed,
            load_in_flight: self.load_in_flight.as_ref().map(|j| j.id),
            load_waiting: self.load_next.is_some(),
            recovering: self.recovering,
            has_good: self.good.is_some(),
        };
        if let Some(ask) = self.explain_waiting.take() {
            self.shown.explain_failed = Some(self.explain_report(cause, &ask));
        }
        let Plan::Restart { reload, load_failed } = recovery::plan(&facts) else {
            let why =
                format!("The engine stopped again while recovering ({cause}). Your scenario is saved: reload the page to start it again.");
            self.load_in_flight = None;
            self.load_next = None;
            self.pending = None;
            self.frame_in_flight = None;
            self.shown.busy = Busy::Idle;
            self.out.push(Out::GaveUp(why));
            return std::mem::take(&mut self.out);
        };
        if load_failed {
            self.out.push(Out::Issues(vec![Issue {
                part: None,
                line: 0,
                column: 0,
                message: format!("The engine failed on this scenario (a bug in schedlab: it {cause}). The last good run is shown."),
            }]));
        }
        self.shown.playing = false;
        let (in_flight, waiting) = self.leave_worker(Out::Restart);
        let again = match reload {
            Reload::Waiting => waiting.map(|(_, job)| (job.source, job.fallback)),
            Reload::InFlight => in_flight.map(|job| (job.source, job.fallback)),
            Reload::Good => {
                // Back to the same stop of the same run (same text, seed and controllers: the
                // same stops), paused.
                self.held = Some((self.shown.stop, false));
                self.good.clone().map(|(source, _)| (source, false))
            }
            Reload::Nothing => None,
        };
        match again {
            Some((source, fallback)) => {
                self.recovering = true;
                self.submit(source, fallback, true);
            }
            None => self.shown.busy = Busy::Idle,
        }
        std::mem::take(&mut self.out)
    }

    /// A new worker replaces the old one (`then`: `Out::Restart` or `Out::Upgrade`), and its
    /// run numbers continue the old one's. What the old worker was asked is forgotten (frames,
    /// explanations, step titles), but the loads it was to run: returned, the one in flight and
    /// the one waiting, for the caller to run again.
    fn leave_worker(&mut self, then: Out) -> (Option<LoadJob>, Option<(Request, LoadJob)>) {
        self.frame_in_flight = None;
        self.frame_next = None;
        self.frame_last = None;
        self.pending = None;
        self.titles_text.clear();
        self.warm_asked = false;
        self.on_screen_ms = 0;
        let in_flight = self.load_in_flight.take();
        let waiting = self.load_next.take();
        self.out.push(then);
        self.out.push(Out::Send(Request::Continue { run: self.last_run }));
        (in_flight, waiting)
    }

    /// The light worker answered `Response::NeedsFullEngine`: what it was asked holds CEL,
    /// which only the full engine evaluates. Not an error: the full worker replaces it for the
    /// rest of the session (`Out::Upgrade`), continues its run numbers, and runs the newest
    /// load asked for, or else the run on screen again at the same stop (so that its frames,
    /// explanations and the questions about it are answered there). The bridge asks the
    /// full worker again what else the light one had not answered (`bridge::Bridge::upgrade`).
    pub fn upgrade(&mut self) -> Vec<Out> {
        let (in_flight, waiting) = self.leave_worker(Out::Upgrade);
        let again = match (waiting, in_flight) {
            (Some((_, job)), _) | (None, Some(job)) => Some((job.source, job.fallback, job.recovery)),
            (None, None) => self.good.clone().map(|(source, _)| {
                self.held = Some((self.shown.stop, self.shown.playing));
                (source, false, false)
            }),
        };
        if let Some((source, fallback, recovery)) = again {
            self.submit(source, fallback, recovery);
            self.shown.busy = Busy::LoadingEngine;
        }
        std::mem::take(&mut self.out)
    }

    /// The run number the next load will get from a worker that was just sent `Continue`.
    pub fn next_run(&self) -> u64 {
        self.last_run + 1
    }

    // ------------------------------------------------------------------------------------
    // Loads.

    /// Sends a load (or generate) request, or queues it behind the one in flight.
    fn submit(&mut self, source: Saved, fallback: bool, recovery: bool) {
        let id = self.next_id();
        let (req, map) = match &source.generated {
            Some(spec) => (
                Request::Generate {
                    id,
                    spec: spec.clone(),
                    seed: source.seed,
                    kubernetes_version: source.kubernetes_version,
                    open: self.guess_opening(),
                },
                LineMap::default(),
            ),
            None => {
                let (text, map) = crate::scenario::join(&source.parts);
                let req = Request::Load {
                    id,
                    text,
                    seed: source.seed,
                    controllers: source.controllers,
                    kubernetes_version: source.kubernetes_version,
                    feature_gates: source.feature_gates.clone(),
                    // A gallery lesson's edit scope is judged against the lesson as shipped.
                    lesson_start: source.lesson.as_deref().and_then(crate::lessons::shipped).map(|t| t.to_string()),
                    open: self.guess_opening(),
                };
                (req, map)
            }
        };
        // The step titles of the text about to run, asked for first: the worker answers them
        // before the run (its markers then never show a stale title).
        let timeline = if source.generated.is_none() {
            source.parts.timeline.clone()
        } else {
            String::new()
        };
        if timeline != self.titles_text {
            self.titles_text = timeline.clone();
            self.out.push(Out::Titles(timeline));
        }
        let job = LoadJob {
            id,
            map,
            source,
            fallback,
            recovery,
        };
        if self.load_in_flight.is_some() {
            self.load_next = Some((req, job));
        } else {
            self.load_in_flight = Some(job);
            self.out.push(Out::Send(req));
        }
        self.shown.busy = Busy::Running { cycles: 0, pods: 0 };
    }

    /// After a load answered: send the waiting one, or go idle.
    fn finish_load(&mut self) {
        self.load_in_flight = None;
        if let Some((req, job)) = self.load_next.take() {
            self.load_in_flight = Some(job);
            self.out.push(Out::Send(req));
        } else {
            self.shown.busy = Busy::Idle;
        }
    }

    /// The load in flight, when `id` answers it; `None` for an answer to anything else.
    fn answered_load(&mut self, id: u64) -> Option<LoadJob> {
        let job = self.load_in_flight.take_if(|j| j.id == id)?;
        if self.load_next.is_some() {
            // A newer scenario is already waiting: this run is superseded and never shown.
            self.finish_load();
            return None;
        }
        Some(job)
    }

    fn loaded(&mut self, id: u64, run: u64, summary: Arc<Summary>, run_ms: f64, lesson: Option<Arc<LessonRun>>, first: Option<Box<OpenedFrame>>) {
        self.last_run = self.last_run.max(run);
        let Some(job) = self.answered_load(id) else { return };
        let opening = self.opening(&summary);
        let detail = summary.frame_detail(opening.playing);
        let pending = PendingRun {
            run,
            summary,
            opening,
            run_ms,
            lesson,
            source: job.source,
            fallback: job.fallback,
            recovery: job.recovery,
        };
        // Frames of the old run still asked for are of no use now.
        self.frame_next = None;
        match first {
            // The worker drew the stop the run opens at: on screen at once.
            Some(f) if (f.stop, f.detail) == (opening.stop, detail) => {
                self.frame_last = Some((run, opening.stop, detail));
                self.open(pending, Arc::new(f.frame));
            }
            // Otherwise it is asked for at once.
            _ => {
                self.pending = Some(pending);
                self.send_frame((run, opening.stop, detail));
            }
        }
        self.finish_load();
    }

    fn invalid(&mut self, id: u64, issues: Vec<LoadIssue>) {
        let Some(job) = self.answered_load(id) else { return };
        self.held = None;
        if job.fallback {
            // The last good scenario no longer loads (a newer release?): nothing to show.
            self.finish_load();
            return;
        }
        let placed = issues
            .into_iter()
            .map(|i| match job.map.locate(i.line) {
                Some((part, line)) if i.line > 0 => Issue {
                    part: Some(part),
                    line,
                    column: i.column,
                    message: i.message,
                },
                _ => Issue {
                    part: None,
                    line: 0,
                    column: 0,
                    message: i.message,
                },
            })
            .collect();
        self.out.push(Out::Issues(placed));
        // Keep the run on screen for a reload: the scenario that produced it becomes the last
        // good one. With nothing on screen yet (a reload of an invalid scenario), show that
        // one's run beside the errors.
        let nothing_shown = self.shown.run == 0 && self.pending.is_none();
        if !self.embed {
            if let Some((good, written)) = &mut self.good {
                if !*written {
                    *written = true;
                    self.out.push(Out::SaveGood(good.clone()));
                }
            }
        }
        self.finish_load();
        if nothing_shown && !self.embed {
            self.out.push(Out::LoadGood);
        }
    }

    /// Where a new run's playhead goes and whether it plays: the one rule.
    ///
    /// 1. A link's playhead (if the run has that cycle): there, paused.
    /// 2. Held by an action: the same stop, playing if the action said so.
    /// 3. An edit of the run on screen: the same cycle and phase (`map_playhead`).
    /// 4. A large run: its end. Otherwise the start.
    ///
    /// A new scenario (fresh) then opens: a large one at its end, paused (the heatmap of the
    /// final placement); an embed where its address says, playing if asked and in view; at
    /// the address's `?cycle=`, paused; any other playing from the start.
    fn opening(&self, summary: &Summary) -> Opening {
        let last = summary.stops.saturating_sub(1);
        let mut o = Opening {
            stop: 0,
            playing: self.shown.playing,
            resume_on_view: false,
            opened: false,
            took_at: false,
        };
        if let Some(stop) = self.start.link.and_then(|(c, p)| summary.stop_at(c, p)) {
            o.stop = stop;
            o.playing = false;
            o.opened = true;
            return o;
        }
        let old = self.shown.summary.as_deref();
        o.stop = match (self.held, old) {
            (Some((stop, resume)), _) => {
                o.playing |= resume;
                stop.min(last)
            }
            (None, Some(old)) if !self.fresh => map_playhead(old, self.shown.stop, summary),
            _ if summary.model.large => last,
            _ => 0,
        };
        if !self.fresh {
            return o;
        }
        o.opened = true;
        if summary.model.large {
            o.stop = last;
            o.playing = false;
        } else if let Some(autoplay) = self.start.embed {
            if let Some(stop) = self.start.at.and_then(|(c, p)| summary.stop_at(c, p)) {
                o.stop = stop;
            }
            let in_view = self.visible == Some(true);
            o.playing = autoplay && in_view;
            o.resume_on_view = autoplay && !in_view;
        } else if let Some((c, p)) = self.start.at {
            o.took_at = true;
            o.playing = false;
            if let Some(stop) = summary.stop_at(c, p) {
                o.stop = stop;
            }
        } else {
            o.playing = true;
        }
        o
    }

    /// Where `opening` will put a run loaded now, as far as that can be told without the run's
    /// summary; `None` where it depends on the summary in other ways (a link's or the address's
    /// cycle and phase). Sent with the load: the worker answers the frame there together with
    /// the run. `opening` still decides, when the run arrives; a wrong guess costs a request.
    fn guess_opening(&self) -> Option<OpenGuess> {
        if self.start.link.is_some() {
            return None;
        }
        let held = self.held.map(|(stop, _)| OpenAt::Stop(stop));
        if self.fresh {
            let playing = match self.start.embed {
                _ if self.start.at.is_some() => return None,
                Some(autoplay) => autoplay && self.visible == Some(true),
                None => true,
            };
            return Some(OpenGuess {
                at: held.unwrap_or(OpenAt::Fresh),
                playing,
            });
        }
        let at = match (held, self.shown.summary.as_deref()) {
            (Some(at), _) => at,
            (None, Some(old)) => OpenAt::Same(old.position(self.shown.stop)),
            (None, None) => OpenAt::Fresh,
        };
        Some(OpenGuess {
            at,
            playing: self.shown.playing || self.held.is_some_and(|(_, resume)| resume),
        })
    }

    /// The new run goes on screen whole: summary, playhead and frame in one go.
    fn open(&mut self, p: PendingRun, frame: Arc<Frame>) {
        self.shown.summary = Some(p.summary);
        if !p.fallback && !p.recovery {
            self.out.push(Out::Issues(Vec::new()));
        }
        self.good = Some((p.source, p.fallback));
        self.recovering = false;
        self.shown.run_ms = p.run_ms;
        self.shown.lesson = p.lesson;
        // The same run in a new worker: the explanation (or its failure) stays open.
        if !p.recovery {
            self.shown.cell = None;
            self.shown.explanation = None;
        }
        // What the address and an action asked for is used once.
        self.start.link = None;
        self.held = None;
        if p.opening.took_at {
            self.start.at = None;
        }
        if p.opening.opened {
            self.fresh = false;
            self.out.push(Out::Opened);
        }
        self.resume_on_view = p.opening.resume_on_view;
        self.shown.playing = p.opening.playing;
        self.shown.stop = p.opening.stop;
        self.shown.run = p.run;
        self.elapsed = 0;
        self.show_frame(frame);
    }

    /// Asks the worker to warm up (`Request::WarmUp`) once per worker, in the playground, when
    /// a run is on screen, no load waits, and either nothing plays or the run has been on
    /// screen for `WARM_UP_WHILE_PLAYING_AFTER_MS`. The worker then runs its engine on small
    /// throwaway scenarios, so that a large run asked for next runs optimised code from its
    /// start. Not at once while playing: next to the page's own start-up work, the warm-up
    /// (and the browser's optimising of the code it runs) held the first run's second frame
    /// back. An embed's scenarios are small: never asked.
    fn want_warm_up(&mut self) {
        let idle = self.shown.run > 0 && self.pending.is_none() && self.load_in_flight.is_none();
        let still = !self.shown.playing || self.on_screen_ms >= WARM_UP_WHILE_PLAYING_AFTER_MS;
        if !self.embed && !self.warm_asked && idle && still {
            self.warm_asked = true;
            self.out.push(Out::Send(Request::WarmUp));
        }
    }

    // ------------------------------------------------------------------------------------
    // Frames.

    fn show_frame(&mut self, frame: Arc<Frame>) {
        // An explanation belongs to its cycle: it closes when the playhead leaves that cycle.
        if self.shown.cell.as_ref().is_some_and(|c| c.cycle != frame.cycle) {
            self.shown.cell = None;
            self.shown.explanation = None;
            self.shown.explain_failed = None;
        }
        self.shown.frame = Some(frame);
    }

    /// Asks for the frame at the playhead when what the screen wants changed. Large runs fetch
    /// per-node detail only when paused (it costs a re-run in the worker).
    fn want_frame(&mut self) {
        let s = &self.shown;
        if s.run == 0 {
            return;
        }
        let detail = s.summary.as_ref().is_some_and(|sum| sum.frame_detail(s.playing));
        let want = (s.run, s.stop, detail);
        if self.frame_wanted == Some(want) {
            return;
        }
        self.frame_wanted = Some(want);
        // While a new run waits for its first frame, frames of the old one are not wanted.
        if self.frame_last == Some(want) || self.pending.as_ref().is_some_and(|p| p.run != want.0) {
            return;
        }
        if self.frame_in_flight.is_some() {
            self.frame_next = Some(want);
            return;
        }
        self.send_frame(want);
    }

    fn send_frame(&mut self, (run, stop, detail): FrameAsk) {
        let id = self.next_id();
        self.frame_in_flight = Some(id);
        self.frame_last = Some((run, stop, detail));
        self.out.push(Out::Send(Request::Frame { id, run, stop, detail }));
    }

    /// The frame request in flight was answered (or refused): send the newest waiting one.
    fn frame_answered(&mut self) {
        self.frame_in_flight = None;
        if let Some(want) = self.frame_next.take() {
            if self.frame_last != Some(want) {
                self.send_frame(want);
            }
        }
    }

    // ------------------------------------------------------------------------------------
    // The playhead.

    fn set_playing(&mut self, on: bool) {
        if on {
            // A visitor's own play overrides an embed's pending resume.
            self.resume_on_view = false;
        }
        self.shown.playing = on;
    }

    fn seek(&mut self, to: Seek) {
        let Some(sum) = self.shown.summary.clone() else { return };
        let last = sum.stops.saturating_sub(1);
        let s = self.shown.stop;
        let firsts = &sum.cycle_first_stop;
        let target = match to {
            Seek::Stop(t) => Some(t),
            Seek::End => Some(last),
            Seek::Phase { forward: true } => Some(s + 1),
            Seek::Phase { forward: false } => Some(s.saturating_sub(1)),
            Seek::Pod { forward: true } => Some(firsts.iter().copied().find(|&f| f > s).unwrap_or(last)),
            Seek::Pod { forward: false } => Some(firsts.iter().rev().copied().find(|&f| f < s).unwrap_or(0)),
            Seek::Cycle(0) => Some(0),
            Seek::Cycle(c) => firsts
                .len()
                .checked_sub(1)
                .and_then(|n| firsts.get((c as usize - 1).min(n)).copied()),
            Seek::At(c, p) => sum.stop_at(c, p),
        };
        if let (Some(t), true) = (target, sum.stops > 0) {
            self.shown.stop = t.min(last);
        }
    }

    /// The playback clock: advance one stop per period once the current frame is shown.
    fn tick(&mut self, ms: u32, period: u32) {
        if self.shown.run > 0 {
            self.on_screen_ms = self.on_screen_ms.saturating_add(ms);
        }
        if !self.shown.playing {
            self.elapsed = 0;
            return;
        }
        let e = self.elapsed + ms;
        let stop = self.shown.stop;
        let shown = self.shown.frame.as_ref().map(|f| f.stop) == Some(stop);
        if e >= period && shown {
            self.elapsed = 0;
            if stop + 1 >= self.shown.stops() {
                self.shown.playing = false;
            } else {
                self.shown.stop = stop + 1;
            }
        } else {
            self.elapsed = e.min(period);
        }
    }

    // ------------------------------------------------------------------------------------
    // Explanations.

    fn explain(&mut self, cell: CellRef) {
        self.shown.explanation = None;
        self.shown.explain_failed = None;
        self.shown.cell = Some(cell.clone());
        let id = self.next_id();
        let run = self.shown.run;
        self.explain_id = id;
        self.explain_waiting = Some(ExplainAsk {
            id,
            run,
            cell: cell.clone(),
        });
        if std::mem::take(&mut self.crash_next_explain) {
            // The test hook: the worker panics while the page waits for this explanation.
            self.out.push(Out::Send(Request::Crash { id, how: CrashKind::Panic }));
            return;
        }
        self.out.push(Out::Send(Request::Explain {
            id,
            run,
            cycle: cell.cycle,
            node: cell.node,
            plugin: cell.plugin,
            score: cell.score,
        }));
    }

    fn close_explanation(&mut self) {
        self.shown.cell = None;
    }

    fn explain_report(&self, cause: &str, ask: &ExplainAsk) -> String {
        let c = &ask.cell;
        let summary = self.shown.summary.as_deref();
        let node = summary
            .and_then(|s| s.model.nodes.get(c.node as usize))
            .map(|n| n.name.clone())
            .unwrap_or_else(|| format!("node #{}", c.node));
        let what = if c.score { "score" } else { "filter" };
        let request = if c.plugin.is_empty() {
            format!("explain the {what} row of node {node}, cycle {} (request {})", c.cycle, ask.id)
        } else {
            format!(
                "explain the {what} cell {} × node {node}, cycle {} (request {})",
                c.plugin, c.cycle, ask.id
            )
        };
        let stop = self.shown.stop;
        let at = summary
            .map(|s| s.playhead(stop))
            .map(|(cycle, stage)| format!("cycle {cycle}, {}", stage.map(|s| s.label()).unwrap_or("?")))
            .unwrap_or_default();
        recovery::explain_report(cause, &request, ask.run, stop, &at)
    }
}

/// The stop in the new run at the same cycle and phase (by offset within the cycle) as `stop`
/// in the old one.
pub fn map_playhead(old: &Summary, stop: u32, new: &Summary) -> u32 {
    new.stop_of(old.position(stop))
}
