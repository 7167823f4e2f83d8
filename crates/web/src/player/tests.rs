//! The player's rules, table-driven: each test is a sequence of steps (an intent, a worker's
//! answer, the worker stopping), each step with the requests it must send (in brief: `load 1`,
//! `frame 2 run 1 stop 0`, …), then the state the page must show. Each is named by the race or
//! rule it pins; the browser tests (web/tests/*.test.mjs) chase the same races end to end.

use super::*;
use crate::scenario::{self, Saved};
use schedlab_view::protocol::LoadIssue;
use schedlab_view::view::Position;

/// A run of `cycles` cycles of four stops each (QueueSort, Filter, Score, Bind), after the
/// Ready stop and before the Quiet one.
fn summary(cycles: u32, large: bool) -> Summary {
    let stops = 2 + 4 * cycles;
    let firsts: Vec<u32> = (0..cycles).map(|c| 1 + 4 * c).collect();
    let stages = format!("a{}q", "bdgl".repeat(cycles as usize));
    serde_json::from_value(serde_json::json!({
        "kubernetesVersion": "1.34",
        "model": {
            "resources": [], "zones": [], "nodes": [], "displayOrder": [], "pods": [],
            "profiles": [], "large": large
        },
        "stops": stops,
        "cycleFirstStop": firsts,
        "cyclePod": vec![0; cycles as usize],
        "cycleMarkers": "b".repeat(cycles as usize),
        "stopStages": stages,
        "effectiveConfig": "", "hasConfig": false, "seed": 0, "endClockMs": 0,
        "bound": 0, "pending": 0, "evicted": 0,
        "detailAll": !large
    }))
    .expect("a summary")
}

fn frame_at(stop: u32, cycle: u32) -> Frame {
    serde_json::from_value(serde_json::json!({
        "stop": stop, "stage": "Filter", "cycle": cycle, "clockMs": 0,
        "nodes": [], "heat": [], "marks": [],
        "queue": serde_json::to_value(schedlab_view::view::QueueView::default()).unwrap(),
        "cycleView": null, "bound": null, "running": 0, "pending": 0, "evicted": 0,
        "events": [], "eventsTotal": 0
    }))
    .expect("a frame")
}

fn scenario(seed: u64) -> Saved {
    let mut s = Saved::from_preset(scenario::preset(scenario::DEFAULT_PRESET).expect("the default preset"), scenario::DEFAULT_TEXT);
    s.seed = seed;
    s
}

fn loaded(id: u64, run: u64, cycles: u32) -> Response {
    Response::Loaded {
        id,
        run,
        summary: Box::new(summary(cycles, false)),
        first_frame: None,
        load_ms: 1.0,
        run_ms: 2.0,
        lesson: None,
    }
}

fn loaded_large(id: u64, run: u64, cycles: u32) -> Response {
    Response::Loaded {
        id,
        run,
        summary: Box::new(summary(cycles, true)),
        first_frame: None,
        load_ms: 1.0,
        run_ms: 2.0,
        lesson: None,
    }
}

/// The frame answering request `id`: run `run` at `stop` (its cycle from the fixture's shape).
fn frame(id: u64, run: u64, stop: u32) -> Response {
    let cycle = if stop == 0 { 0 } else { (stop - 1) / 4 + 1 };
    Response::Frame {
        id,
        run,
        frame: Box::new(frame_at(stop, cycle)),
    }
}

fn explained(id: u64, run: u64, title: &str) -> Response {
    Response::Explained {
        id,
        run,
        explanation: Explanation {
            title: title.into(),
            lines: Vec::new(),
        },
    }
}

fn load(seed: u64) -> Intent {
    Intent::Load {
        source: scenario(seed),
        fresh: true,
    }
}

fn edit(seed: u64) -> Intent {
    Intent::Load {
        source: scenario(seed),
        fresh: false,
    }
}

fn seek(stop: u32) -> Intent {
    Intent::Seek {
        to: Seek::Stop(stop),
        pause: true,
    }
}

fn cell(cycle: u32) -> CellRef {
    CellRef {
        cycle,
        node: 0,
        plugin: "NodeResourcesFit".into(),
        score: false,
    }
}

enum Step {
    Do(Intent),
    Hear(Response),
    /// The worker stopped while answering request `.0` (`None`: unknown).
    Lose(Option<u64>),
    /// The light worker handed a request over (`Response::NeedsFullEngine`).
    Upgrade,
}
use Step::*;

/// A request in brief.
fn brief(r: &Request) -> String {
    match r {
        Request::Load { id, seed, .. } => format!("load {id} seed {seed}"),
        Request::Generate { id, .. } => format!("generate {id}"),
        Request::Frame { id, run, stop, detail } => {
            format!("frame {id} run {run} stop {stop}{}", if *detail { " detail" } else { "" })
        }
        Request::Explain { id, run, cycle, .. } => format!("explain {id} run {run} cycle {cycle}"),
        Request::Continue { run } => format!("continue after {run}"),
        Request::Crash { id, .. } => format!("crash {id}"),
        other => format!("{other:?}"),
    }
}

/// Runs the steps, each with the requests it must send; returns the player and every `Out`
/// that is not a request, with the warm-ups (`Request::WarmUp`, sent once per worker whatever
/// the steps, checked by their own test).
fn play(embed: bool, steps: Vec<(Step, &[&str])>) -> (Player, Vec<Out>) {
    let mut p = Player::new(embed);
    let mut other = Vec::new();
    for (i, (step, want)) in steps.into_iter().enumerate() {
        let outs = match step {
            Do(intent) => p.act(intent),
            Hear(r) => p.answer(r),
            Lose(id) => p.lost(id, "panicked: test"),
            Upgrade => p.upgrade(),
        };
        let mut sent = Vec::new();
        for o in outs {
            match o {
                Out::Send(Request::WarmUp) => other.push(Out::Send(Request::WarmUp)),
                Out::Send(r) => sent.push(brief(&r)),
                o => other.push(o),
            }
        }
        assert_eq!(sent, want, "step {i}: requests sent");
    }
    (p, other)
}

/// Steps that put run 1 (five cycles, 22 stops) on screen, playing from its start.
fn run_one() -> Vec<(Step, &'static [&'static str])> {
    vec![
        (Do(load(1)), &["load 1 seed 1"]),
        (Hear(loaded(1, 1, 5)), &["frame 2 run 1 stop 0"]),
        (Hear(frame(2, 1, 0)), &[]),
    ]
}

fn with(mut a: Vec<(Step, &'static [&'static str])>, b: Vec<(Step, &'static [&'static str])>) -> Vec<(Step, &'static [&'static str])> {
    a.extend(b);
    a
}

// ---------------------------------------------------------------------------------------------
// Where a new run opens.

#[test]
fn a_new_scenario_opens_at_its_start_playing_once_its_first_frame_is_there() {
    let (p, outs) = play(
        false,
        vec![
            (Do(load(1)), &["load 1 seed 1"]),
            (Hear(loaded(1, 1, 5)), &["frame 2 run 1 stop 0"]),
        ],
    );
    // Nothing of the new run shows before its frame: no names without their state.
    assert_eq!(p.shown.run, 0);
    assert!(p.shown.summary.is_none());
    assert!(!outs.contains(&Out::Opened));
    let (p, outs) = play(false, run_one());
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (1, 0, true));
    assert!(p.shown.frame.is_some());
    assert_eq!(p.shown.busy, Busy::Idle);
    assert!(outs.contains(&Out::Opened));
}

#[test]
fn an_edit_keeps_the_playhead_at_the_same_cycle_and_phase() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(10)), &["frame 3 run 1 stop 10"]),
                (Hear(frame(3, 1, 10)), &[]),
                (Do(edit(2)), &["load 4 seed 2"]),
                // Stop 10 is cycle 3's second stop (Filter); the new run has it too.
                (Hear(loaded(4, 2, 6)), &["frame 5 run 2 stop 10"]),
                (Hear(frame(5, 2, 10)), &[]),
            ],
        ),
    );
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (2, 10, false));
}

#[test]
fn an_edit_that_removes_the_cycle_on_screen_opens_at_the_end() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(18)), &["frame 3 run 1 stop 18"]),
                (Hear(frame(3, 1, 18)), &[]),
                (Do(edit(2)), &["load 4 seed 2"]),
                (Hear(loaded(4, 2, 2)), &["frame 5 run 2 stop 9"]),
                (Hear(frame(5, 2, 9)), &[]),
            ],
        ),
    );
    assert_eq!(p.shown.stop, 9);
}

#[test]
fn a_new_scenario_replacing_one_that_plays_opens_at_its_own_start_not_the_old_playhead() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(Intent::Tick { ms: 600, period: 550 }), &["frame 3 run 1 stop 1"]),
                (Hear(frame(3, 1, 1)), &[]),
                (Do(Intent::Tick { ms: 600, period: 550 }), &["frame 4 run 1 stop 2"]),
                (Do(load(2)), &["load 5 seed 2"]),
                (Hear(loaded(5, 2, 3)), &["frame 6 run 2 stop 0"]),
                // The old run's frame arrives after: the clock cannot move the new run's
                // playhead before its first frame is shown.
                (Hear(frame(4, 1, 2)), &[]),
                (Do(Intent::Tick { ms: 600, period: 550 }), &[]),
                (Hear(frame(6, 2, 0)), &[]),
            ],
        ),
    );
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (2, 0, true));
}

#[test]
fn a_large_new_scenario_opens_at_its_end_paused_with_its_detail() {
    let (p, _) = play(
        false,
        vec![
            (Do(load(1)), &["load 1 seed 1"]),
            (Hear(loaded_large(1, 1, 5)), &["frame 2 run 1 stop 21 detail"]),
            (Hear(frame(2, 1, 21)), &[]),
        ],
    );
    assert_eq!((p.shown.stop, p.shown.playing), (21, false));
}

#[test]
fn a_large_run_asks_for_detail_only_when_paused() {
    let (p, _) = play(
        false,
        vec![
            (Do(load(1)), &["load 1 seed 1"]),
            (Hear(loaded_large(1, 1, 5)), &["frame 2 run 1 stop 21 detail"]),
            (Hear(frame(2, 1, 21)), &[]),
            (Do(seek(3)), &["frame 3 run 1 stop 3 detail"]),
            (Hear(frame(3, 1, 3)), &[]),
            (Do(Intent::Play(true)), &["frame 4 run 1 stop 3"]),
        ],
    );
    assert!(p.shown.playing);
}

#[test]
fn an_action_holds_the_playhead_and_plays_on_from_it() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(7)), &["frame 3 run 1 stop 7"]),
                (Hear(frame(3, 1, 7)), &[]),
                (Do(Intent::Hold { stop: 7, resume: true }), &[]),
                // Another number of cycles: the held stop is kept as it is, not mapped.
                (Do(edit(2)), &["load 4 seed 2"]),
                (Hear(loaded(4, 2, 6)), &["frame 5 run 2 stop 7"]),
                (Hear(frame(5, 2, 7)), &[]),
            ],
        ),
    );
    assert_eq!((p.shown.stop, p.shown.playing), (7, true));
    // Held once: the next edit maps the playhead again.
    assert!(p.held.is_none());
}

#[test]
fn a_links_playhead_opens_paused_at_its_cycle_and_phase() {
    let (p, outs) = play(
        false,
        vec![
            (
                Do(Intent::StartUp(StartUp {
                    link: Some((2, Some(Stage::Score))),
                    ..StartUp::default()
                })),
                &[],
            ),
            (Do(load(1)), &["load 1 seed 1"]),
            // Cycle 2 starts at stop 5: QueueSort 5, Filter 6, Score 7.
            (Hear(loaded(1, 1, 5)), &["frame 2 run 1 stop 7"]),
            (Hear(frame(2, 1, 7)), &[]),
        ],
    );
    assert_eq!((p.shown.stop, p.shown.playing), (7, false));
    assert!(outs.contains(&Out::Opened));
    assert!(p.start.link.is_none(), "a link's playhead is used once");
}

#[test]
fn a_link_arriving_while_an_older_load_runs_opens_the_links_run_not_the_superseded_one() {
    let (p, _) = play(
        false,
        vec![
            (Do(load(1)), &["load 1 seed 1"]),
            (
                Do(Intent::StartUp(StartUp {
                    link: Some((3, None)),
                    ..StartUp::default()
                })),
                &[],
            ),
            (Do(load(2)), &[]),
            // The first load is superseded: it never shows and its answer uses nothing up.
            (Hear(loaded(1, 1, 5)), &["load 2 seed 2"]),
            (Hear(loaded(2, 2, 5)), &["frame 3 run 2 stop 9"]),
            (Hear(frame(3, 2, 9)), &[]),
        ],
    );
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (2, 9, false));
}

#[test]
fn a_link_to_a_cycle_the_run_does_not_have_opens_the_new_scenario_as_usual() {
    let (p, _) = play(
        false,
        vec![
            (
                Do(Intent::StartUp(StartUp {
                    link: Some((40, None)),
                    ..StartUp::default()
                })),
                &[],
            ),
            (Do(load(1)), &["load 1 seed 1"]),
            (Hear(loaded(1, 1, 5)), &["frame 2 run 1 stop 0"]),
            (Hear(frame(2, 1, 0)), &[]),
        ],
    );
    assert_eq!((p.shown.stop, p.shown.playing), (0, true));
}

#[test]
fn the_addresss_start_cycle_opens_the_first_run_paused_and_only_the_first() {
    let (p, _) = play(
        false,
        vec![
            (
                Do(Intent::StartUp(StartUp {
                    at: Some((2, Some(Stage::Bind))),
                    ..StartUp::default()
                })),
                &[],
            ),
            (Do(load(1)), &["load 1 seed 1"]),
            (Hear(loaded(1, 1, 5)), &["frame 2 run 1 stop 8"]),
            (Hear(frame(2, 1, 8)), &[]),
            // A preset chosen next is a new scenario: it plays from its start.
            (Do(load(2)), &["load 3 seed 2"]),
            (Hear(loaded(3, 2, 5)), &["frame 4 run 2 stop 0"]),
            (Hear(frame(4, 2, 0)), &[]),
        ],
    );
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (2, 0, true));
}

#[test]
fn an_embed_opens_at_its_start_cycle_and_plays_only_once_in_view() {
    let start = StartUp {
        at: Some((2, None)),
        embed: Some(true),
        ..StartUp::default()
    };
    let (p, _) = play(
        true,
        vec![
            (Do(Intent::StartUp(start)), &[]),
            (Do(load(1)), &["load 1 seed 1"]),
            (Hear(loaded(1, 1, 5)), &["frame 2 run 1 stop 5"]),
            (Hear(frame(2, 1, 5)), &[]),
        ],
    );
    assert_eq!((p.shown.stop, p.shown.playing), (5, false), "not in view yet");
    let mut p = p;
    p.act(Intent::Visible(true));
    assert!(p.shown.playing, "plays once in view");
    p.act(Intent::Visible(false));
    assert!(!p.shown.playing, "pauses when scrolled away");
    p.act(Intent::Visible(true));
    assert!(p.shown.playing, "and resumes when back");
    p.act(Intent::Play(false));
    p.act(Intent::Visible(false));
    p.act(Intent::Visible(true));
    assert!(!p.shown.playing, "a visitor's own pause stays");
}

#[test]
fn an_embed_without_autoplay_stays_paused_in_view() {
    let start = StartUp {
        embed: Some(false),
        ..StartUp::default()
    };
    let (mut p, _) = play(
        true,
        vec![
            (Do(Intent::StartUp(start)), &[]),
            (Do(Intent::Visible(true)), &[]),
            (Do(load(1)), &["load 1 seed 1"]),
            (Hear(loaded(1, 1, 5)), &["frame 2 run 1 stop 0"]),
            (Hear(frame(2, 1, 0)), &[]),
        ],
    );
    assert!(!p.shown.playing);
    p.act(Intent::Visible(false));
    p.act(Intent::Visible(true));
    assert!(!p.shown.playing);
}

// ---------------------------------------------------------------------------------------------
// The first frame that comes with the run (`Request::Load::open`, `Response::Loaded::first_frame`).

/// `loaded`, carrying the frame at `stop` (with or without per-node detail).
fn with_first_frame(mut r: Response, stop: u32, detail: bool) -> Response {
    if let Response::Loaded { first_frame, .. } = &mut r {
        let cycle = if stop == 0 { 0 } else { (stop - 1) / 4 + 1 };
        *first_frame = Some(Box::new(OpenedFrame {
            stop,
            detail,
            frame: frame_at(stop, cycle),
        }));
    }
    r
}

/// The guess the load (or generate) request among `outs` carries.
fn guess_sent(outs: &[Out]) -> Option<OpenGuess> {
    let guesses: Vec<_> = outs
        .iter()
        .filter_map(|o| match o {
            Out::Send(Request::Load { open, .. } | Request::Generate { open, .. }) => Some(*open),
            _ => None,
        })
        .collect();
    assert_eq!(guesses.len(), 1, "one load sent: {outs:?}");
    guesses[0]
}

fn frames_sent(outs: &[Out]) -> usize {
    outs.iter().filter(|o| matches!(o, Out::Send(Request::Frame { .. }))).count()
}

#[test]
fn a_new_scenarios_load_guesses_its_start_and_the_frame_that_comes_with_it_opens_it_at_once() {
    let mut p = Player::new(false);
    let guess = guess_sent(&p.act(load(1))).expect("a guess");
    assert_eq!(guess, OpenGuess { at: OpenAt::Fresh, playing: true });
    assert_eq!(guess.resolve(&summary(5, false)), (0, false));
    let outs = p.answer(with_first_frame(loaded(1, 1, 5), 0, false));
    assert_eq!(frames_sent(&outs), 0, "nothing to ask: {outs:?}");
    assert!(outs.contains(&Out::Opened));
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (1, 0, true));
    assert_eq!(p.shown.frame.as_ref().map(|f| f.stop), Some(0));
    assert_eq!(p.shown.busy, Busy::Idle);
    // Playing on asks for the next stop, as after any first frame.
    let outs = p.act(Intent::Tick { ms: 600, period: 550 });
    assert_eq!(frames_sent(&outs), 1);
}

#[test]
fn an_edits_load_guesses_the_same_cycle_and_phase_and_a_large_runs_its_end() {
    let (mut p, _) = play(
        false,
        with(run_one(), vec![(Do(seek(10)), &["frame 3 run 1 stop 10"]), (Hear(frame(3, 1, 10)), &[])]),
    );
    let guess = guess_sent(&p.act(edit(2))).expect("a guess");
    assert_eq!(guess, OpenGuess { at: OpenAt::Same(Position::In { cycle: 3, offset: 1 }), playing: false });
    assert_eq!(guess.resolve(&summary(6, false)), (10, false));
    let outs = p.answer(with_first_frame(loaded(4, 2, 6), 10, false));
    assert_eq!(frames_sent(&outs), 0, "{outs:?}");
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (2, 10, false));

    // A new scenario that turns out large opens at its end, paused, with per-node detail.
    let guess = guess_sent(&p.act(load(3))).expect("a guess");
    let large = summary(5, true);
    assert_eq!(guess.resolve(&large), (large.stops - 1, true));
    let outs = p.answer(with_first_frame(loaded_large(5, 3, 5), large.stops - 1, true));
    assert_eq!(frames_sent(&outs), 0, "{outs:?}");
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (3, large.stops - 1, false));
}

#[test]
fn a_first_frame_at_another_stop_than_the_run_opens_at_is_not_shown_and_the_right_one_is_asked_for() {
    let mut p = Player::new(false);
    p.act(load(1));
    // Guessed wrong (or the playhead moved since): stop 3, or the right stop without detail.
    let outs = p.answer(with_first_frame(loaded(1, 1, 5), 3, false));
    let sent: Vec<String> = outs.iter().filter_map(|o| if let Out::Send(r) = o { Some(brief(r)) } else { None }).collect();
    assert_eq!(sent, ["frame 2 run 1 stop 0"]);
    assert_eq!(p.shown.run, 0, "nothing of the run before its own frame");
    p.answer(frame(2, 1, 0));
    assert_eq!((p.shown.run, p.shown.stop), (1, 0));
    assert_eq!(p.shown.frame.as_ref().map(|f| f.stop), Some(0));

    let mut p = Player::new(false);
    p.act(load(1));
    let outs = p.answer(with_first_frame(loaded_large(1, 1, 5), 21, false));
    assert_eq!(frames_sent(&outs), 1, "a paused large run wants detail: {outs:?}");
    assert_eq!(p.shown.run, 0);
}

#[test]
fn a_load_guesses_nothing_where_the_stop_depends_on_the_runs_phases() {
    let mut p = Player::new(false);
    p.act(Intent::StartUp(StartUp {
        link: Some((2, Some(Stage::Score))),
        ..StartUp::default()
    }));
    assert_eq!(guess_sent(&p.act(load(1))), None, "a link's cycle and phase");
    let mut p = Player::new(false);
    p.act(Intent::StartUp(StartUp {
        at: Some((2, None)),
        ..StartUp::default()
    }));
    assert_eq!(guess_sent(&p.act(load(1))), None, "the address's cycle");
}

// ---------------------------------------------------------------------------------------------
// Loads in flight and answers out of order.

#[test]
fn a_load_while_another_is_in_flight_waits_and_only_the_newest_runs() {
    let (p, _) = play(
        false,
        vec![
            (Do(load(1)), &["load 1 seed 1"]),
            (Do(edit(2)), &[]),
            (Do(edit(3)), &[]),
            // The answer to the first sends the newest; the second is never sent.
            (Hear(loaded(1, 1, 5)), &["load 3 seed 3"]),
            (Hear(loaded(3, 2, 5)), &["frame 4 run 2 stop 0"]),
            (Hear(frame(4, 2, 0)), &[]),
        ],
    );
    assert_eq!(p.shown.run, 2);
    assert_eq!(p.good.as_ref().map(|(s, _)| s.seed), Some(3));
    assert_eq!(p.shown.busy, Busy::Idle);
}

#[test]
fn an_answer_to_a_load_no_longer_in_flight_is_ignored() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(edit(2)), &["load 3 seed 2"]),
                // A run answering request 1 again (or any other id) changes nothing.
                (Hear(loaded(1, 7, 5)), &[]),
                (Hear(loaded(3, 2, 5)), &["frame 4 run 2 stop 0"]),
            ],
        ),
    );
    assert_eq!(p.pending.as_ref().map(|r| r.run), Some(2));
}

#[test]
fn an_old_runs_frame_arriving_after_the_new_run_loaded_is_not_shown() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(3)), &["frame 3 run 1 stop 3"]),
                (Do(edit(2)), &["load 4 seed 2"]),
                (Hear(loaded(4, 2, 5)), &["frame 5 run 2 stop 3"]),
                // The old run's frame: its run is about to be replaced.
                (Hear(frame(3, 1, 3)), &[]),
                // Seeking while the new run waits for its first frame asks nothing of the old.
                (Do(seek(4)), &[]),
            ],
        ),
    );
    assert_eq!(p.shown.run, 1);
    assert_eq!(p.shown.frame.as_ref().map(|f| f.stop), Some(0));
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(3)), &["frame 3 run 1 stop 3"]),
                (Do(edit(2)), &["load 4 seed 2"]),
                (Hear(loaded(4, 2, 5)), &["frame 5 run 2 stop 3"]),
                (Hear(frame(5, 2, 3)), &[]),
                (Hear(frame(3, 1, 3)), &[]),
            ],
        ),
    );
    assert_eq!(p.shown.run, 2);
    assert!(p.shown.frame.as_ref().is_some_and(|f| f.stop == 3));
}

#[test]
fn frames_asked_while_one_is_in_flight_coalesce_to_the_newest() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(1)), &["frame 3 run 1 stop 1"]),
                (Do(seek(2)), &[]),
                (Do(seek(3)), &[]),
                (Hear(frame(3, 1, 1)), &["frame 4 run 1 stop 3"]),
                (Hear(frame(4, 1, 3)), &[]),
            ],
        ),
    );
    assert_eq!(p.shown.frame.as_ref().map(|f| f.stop), Some(3));
}

#[test]
fn a_stale_answer_frees_the_frame_slot_for_the_waiting_request() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(1)), &["frame 3 run 1 stop 1"]),
                (Do(seek(2)), &[]),
                (Hear(Response::Stale { id: 3, run: 1 }), &["frame 4 run 1 stop 2"]),
                // A stale answer to a request not in flight frees nothing.
                (Do(seek(5)), &[]),
                (Hear(Response::Stale { id: 3, run: 1 }), &[]),
                (Hear(frame(4, 1, 2)), &["frame 5 run 1 stop 5"]),
            ],
        ),
    );
    assert_eq!(p.shown.frame.as_ref().map(|f| f.stop), Some(2));
}

#[test]
fn an_invalid_edit_lists_its_errors_and_keeps_the_last_good_run() {
    let issue = LoadIssue {
        line: 2,
        column: 3,
        message: "bad".into(),
    };
    let (p, outs) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(Intent::Hold { stop: 4, resume: false }), &[]),
                (Do(edit(2)), &["load 3 seed 2"]),
                (
                    Hear(Response::Invalid {
                        id: 3,
                        issues: vec![issue],
                    }),
                    &[],
                ),
            ],
        ),
    );
    assert_eq!(p.shown.run, 1);
    assert!(p.held.is_none(), "a held playhead is for the run the action makes");
    let listed: Vec<&Issue> = outs
        .iter()
        .filter_map(|o| match o {
            Out::Issues(i) => i.first(),
            _ => None,
        })
        .collect();
    assert_eq!(listed.last().map(|i| (i.line > 0, i.message.as_str())), Some((true, "bad")));
    assert!(outs.iter().any(|o| matches!(o, Out::SaveGood(s) if s.seed == 1)));
    assert!(!outs.contains(&Out::LoadGood), "a run is on screen");
}

#[test]
fn an_invalid_scenario_with_nothing_on_screen_runs_the_last_good_one_beside_its_errors() {
    let (p, outs) = play(
        false,
        vec![
            (Do(load(1)), &["load 1 seed 1"]),
            (
                Hear(Response::Invalid {
                    id: 1,
                    issues: vec![LoadIssue {
                        line: 0,
                        column: 0,
                        message: "bad".into(),
                    }],
                }),
                &[],
            ),
            (Do(Intent::LoadFallback(scenario(9))), &["load 2 seed 9"]),
            (Hear(loaded(2, 1, 5)), &["frame 3 run 1 stop 0"]),
            (Hear(frame(3, 1, 0)), &[]),
        ],
    );
    assert!(outs.contains(&Out::LoadGood));
    assert_eq!(p.shown.run, 1);
    // Its errors stay listed: the fallback's run does not clear them.
    assert!(!outs.iter().any(|o| matches!(o, Out::Issues(i) if i.is_empty())));
}

// ---------------------------------------------------------------------------------------------
// Playback.

#[test]
fn the_clock_advances_only_once_the_stops_frame_is_shown_and_stops_at_the_end() {
    let (mut p, _) = play(false, run_one());
    p.act(Intent::Tick { ms: 600, period: 550 });
    assert_eq!(p.shown.stop, 1);
    // Stop 1's frame is not there yet: the clock waits.
    p.act(Intent::Tick { ms: 600, period: 550 });
    assert_eq!(p.shown.stop, 1);
    p.answer(frame(3, 1, 1));
    p.act(Intent::Tick { ms: 600, period: 550 });
    assert_eq!(p.shown.stop, 2);
    p.act(Intent::Seek {
        to: Seek::End,
        pause: false,
    });
    let last = p.shown.stops() - 1;
    let id = p.frame_in_flight.expect("the end's frame asked");
    p.answer(frame(4, 1, 2));
    p.answer(frame(id + 1, 1, last));
    p.act(Intent::Tick { ms: 600, period: 550 });
    assert_eq!((p.shown.stop, p.shown.playing), (last, false));
}

#[test]
fn play_at_the_last_stop_starts_again_from_the_first() {
    let (mut p, _) = play(false, run_one());
    p.act(Intent::Seek {
        to: Seek::End,
        pause: true,
    });
    p.act(Intent::TogglePlay);
    assert_eq!((p.shown.stop, p.shown.playing), (0, true));
    p.act(Intent::TogglePlay);
    assert!(!p.shown.playing);
}

#[test]
fn seeking_by_pod_phase_and_cycle_stays_within_the_run() {
    let (mut p, _) = play(false, run_one());
    let mut at = |to| {
        p.act(Intent::Seek { to, pause: true });
        p.shown.stop
    };
    assert_eq!(at(Seek::Pod { forward: true }), 1);
    assert_eq!(at(Seek::Pod { forward: true }), 5);
    assert_eq!(at(Seek::Phase { forward: true }), 6);
    assert_eq!(at(Seek::Pod { forward: false }), 5);
    assert_eq!(at(Seek::Cycle(99)), 17);
    assert_eq!(at(Seek::Cycle(0)), 0);
    assert_eq!(at(Seek::Phase { forward: false }), 0);
    assert_eq!(at(Seek::Stop(99)), 21);
    assert_eq!(at(Seek::At(3, Some(Stage::Bind))), 12);
    assert!(!p.shown.playing);
}

// ---------------------------------------------------------------------------------------------
// Explanations.

#[test]
fn only_the_newest_explanation_asked_is_shown() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(Intent::Explain(cell(0))), &["explain 3 run 1 cycle 0"]),
                (Do(Intent::Explain(cell(0))), &["explain 4 run 1 cycle 0"]),
                (Hear(explained(3, 1, "old")), &[]),
            ],
        ),
    );
    assert!(p.shown.explanation.is_none());
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(Intent::Explain(cell(0))), &["explain 3 run 1 cycle 0"]),
                (Do(Intent::Explain(cell(0))), &["explain 4 run 1 cycle 0"]),
                (Hear(explained(4, 1, "new")), &[]),
                (Hear(explained(3, 1, "old")), &[]),
            ],
        ),
    );
    assert_eq!(p.shown.explanation.as_ref().map(|e| e.title.as_str()), Some("new"));
}

#[test]
fn explain_while_a_new_run_loads_never_shows_the_old_runs_answer_with_the_new_run() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(Intent::Explain(cell(0))), &["explain 3 run 1 cycle 0"]),
                (Do(edit(2)), &["load 4 seed 2"]),
                (Hear(loaded(4, 2, 5)), &["frame 5 run 2 stop 0"]),
                (Hear(frame(5, 2, 0)), &[]),
                (Hear(explained(3, 1, "of run 1")), &[]),
            ],
        ),
    );
    assert_eq!(p.shown.run, 2);
    assert!(p.shown.cell.is_none(), "a new run closes the explanation");
    assert!(p.shown.explanation.is_none());
}

#[test]
fn an_explanation_closes_when_the_playhead_leaves_its_cycle() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(2)), &["frame 3 run 1 stop 2"]),
                (Hear(frame(3, 1, 2)), &[]),
                (Do(Intent::Explain(cell(1))), &["explain 4 run 1 cycle 1"]),
                (Hear(explained(4, 1, "fit")), &[]),
                (Do(seek(3)), &["frame 5 run 1 stop 3"]),
                (Hear(frame(5, 1, 3)), &[]),
            ],
        ),
    );
    assert!(p.shown.explanation.is_some(), "the same cycle keeps it");
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(2)), &["frame 3 run 1 stop 2"]),
                (Hear(frame(3, 1, 2)), &[]),
                (Do(Intent::Explain(cell(1))), &["explain 4 run 1 cycle 1"]),
                (Hear(explained(4, 1, "fit")), &[]),
                (Do(seek(6)), &["frame 5 run 1 stop 6"]),
                (Hear(frame(5, 1, 6)), &[]),
            ],
        ),
    );
    assert!(p.shown.cell.is_none());
    assert!(p.shown.explanation.is_none());
}

// ---------------------------------------------------------------------------------------------
// The worker stops.

#[test]
fn a_crash_mid_explanation_reports_it_and_brings_the_same_stop_back_paused() {
    let (p, outs) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(6)), &["frame 3 run 1 stop 6"]),
                (Hear(frame(3, 1, 6)), &[]),
                (Do(Intent::CrashNextExplain), &[]),
                (Do(Intent::Explain(cell(2))), &["crash 4"]),
                (Lose(Some(4)), &["continue after 1", "load 5 seed 1"]),
                (Hear(loaded(5, 2, 5)), &["frame 6 run 2 stop 6"]),
                (Hear(frame(6, 2, 6)), &[]),
            ],
        ),
    );
    let report = p.shown.explain_failed.clone().expect("a report");
    assert!(report.contains("engine: panicked: test"), "{report}");
    assert!(report.contains("request 4"), "{report}");
    // The same run in a new worker: the panel (and its report) stays open, paused there.
    assert_eq!(p.shown.cell, Some(cell(2)));
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (2, 6, false));
    let restart = outs.iter().position(|o| *o == Out::Restart);
    assert!(restart.is_some());
    assert!(!outs.iter().any(|o| matches!(o, Out::Issues(i) if !i.is_empty())));
    // The next click is explained by the new worker.
    let mut p = p;
    let sent = p.act(Intent::Explain(cell(2)));
    assert_eq!(
        sent,
        vec![Out::Send(Request::Explain {
            id: 7,
            run: 2,
            cycle: 2,
            node: 0,
            plugin: "NodeResourcesFit".into(),
            score: false
        })]
    );
}

#[test]
fn a_crash_mid_load_lists_an_error_and_the_last_good_run_comes_back() {
    let (p, outs) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(edit(2)), &["load 3 seed 2"]),
                (Lose(Some(3)), &["continue after 1", "load 4 seed 1"]),
                (Hear(loaded(4, 2, 5)), &["frame 5 run 2 stop 0"]),
                (Hear(frame(5, 2, 0)), &[]),
            ],
        ),
    );
    assert!(outs
        .iter()
        .any(|o| matches!(o, Out::Issues(i) if i.first().is_some_and(|i| i.message.contains("engine failed")))));
    // The error stays: the recovered run does not clear it.
    assert!(!outs
        .iter()
        .skip_while(|o| !matches!(o, Out::Issues(i) if !i.is_empty()))
        .any(|o| matches!(o, Out::Issues(i) if i.is_empty())));
    assert_eq!(p.shown.run, 2);
}

#[test]
fn a_worker_that_dies_without_a_word_runs_the_load_in_flight_again() {
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(edit(2)), &["load 3 seed 2"]),
                (Do(edit(3)), &[]),
                // The waiting load is the newest: it runs (under a new id).
                (Lose(None), &["continue after 1", "load 5 seed 3"]),
            ],
        ),
    );
    assert!(p.recovering);
}

#[test]
fn a_worker_that_stops_again_while_recovering_is_given_up() {
    let (p, outs) = play(
        false,
        with(
            run_one(),
            vec![
                (Lose(None), &["continue after 1", "load 3 seed 1"]),
                (Lose(None), &[]),
                // Nothing is waited for any more.
                (Hear(loaded(3, 2, 5)), &[]),
            ],
        ),
    );
    assert!(outs.iter().any(|o| matches!(o, Out::GaveUp(why) if why.contains("stopped again"))));
    assert!(!p.waiting());
    assert_eq!(p.shown.busy, Busy::Idle);
}

#[test]
fn a_frame_of_the_old_worker_is_not_waited_for_after_a_restart() {
    let (mut p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(3)), &["frame 3 run 1 stop 3"]),
                (Lose(None), &["continue after 1", "load 4 seed 1"]),
                (Hear(loaded(4, 2, 5)), &["frame 5 run 2 stop 3"]),
                (Hear(frame(5, 2, 3)), &[]),
            ],
        ),
    );
    // Playing again asks the new worker (the old request's slot was freed).
    let sent = p.act(seek(4));
    assert_eq!(sent.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Lessons.

/// A gallery lesson's load carries the lesson as shipped (its edit scope is judged against
/// it); the verdicts answered with a run show with that run's first frame, and a run without
/// a Lesson clears them.
#[test]
fn a_lessons_verdicts_show_with_its_run() {
    let lesson = crate::lessons::find("taints").expect("in the gallery");
    let mut p = Player::new(false);
    let outs = p.act(Intent::Load {
        source: Saved::from_lesson(lesson, &lesson.text()),
        fresh: true,
    });
    let start = outs.iter().find_map(|o| match o {
        Out::Send(Request::Load { lesson_start, .. }) => Some(lesson_start.clone()),
        _ => None,
    });
    assert_eq!(start, Some(Some(lesson.text())));
    let run = schedlab_view::lesson::LessonRun {
        info: schedlab_view::lesson::LessonInfo {
            title: lesson.title.into(),
            topic: lesson.topic.into(),
            kubernetes_version: "1.34".into(),
            story: String::new(),
            exercises: Vec::new(),
        },
        verdicts: Vec::new(),
    };
    let Response::Loaded {
        id,
        run: r,
        summary,
        load_ms,
        run_ms,
        ..
    } = loaded(1, 1, 2)
    else {
        unreachable!()
    };
    p.answer(Response::Loaded {
        id,
        run: r,
        summary,
        first_frame: None,
        load_ms,
        run_ms,
        lesson: Some(Box::new(run.clone())),
    });
    assert!(p.shown.lesson.is_none(), "not before its frame");
    p.answer(frame(2, 1, 0));
    assert_eq!(p.shown.lesson.as_deref(), Some(&run));
    // A scenario that is not a gallery lesson sends no start; its run has no lesson.
    let outs = p.act(load(1));
    assert!(outs
        .iter()
        .any(|o| matches!(o, Out::Send(Request::Load { lesson_start: None, .. }))));
    p.answer(loaded(3, 2, 2));
    p.answer(frame(4, 2, 0));
    assert!(p.shown.lesson.is_none());
}

// ---------------------------------------------------------------------------------------------
// The full engine (CEL).

#[test]
fn a_load_the_light_worker_hands_over_runs_in_the_full_one_after_the_runs_it_made() {
    let (p, outs) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(edit(2)), &["load 3 seed 2"]),
                // Answered NeedsFullEngine: the same scenario again, in the full worker, whose
                // runs are numbered after the light one's; no error, a short "loading" state.
                (Upgrade, &["continue after 1", "load 4 seed 2"]),
            ],
        ),
    );
    assert_eq!(p.shown.busy, Busy::LoadingEngine);
    assert_eq!(p.next_run(), 2);
    assert!(outs.contains(&Out::Upgrade), "{outs:?}");
    let errors = |o: &Out| matches!(o, Out::Issues(i) if !i.is_empty()) || matches!(o, Out::GaveUp(_) | Out::Restart);
    assert!(!outs.iter().any(errors), "{outs:?}");
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(edit(2)), &["load 3 seed 2"]),
                (Upgrade, &["continue after 1", "load 4 seed 2"]),
                (Hear(loaded(4, 2, 5)), &["frame 5 run 2 stop 0"]),
                (Hear(frame(5, 2, 0)), &[]),
            ],
        ),
    );
    assert_eq!((p.shown.run, p.shown.busy.clone()), (2, Busy::Idle));
}

#[test]
fn a_question_the_light_worker_hands_over_runs_the_scenario_on_screen_again_in_the_full_one() {
    // An export or a comparison holding CEL, no load in flight: the run on screen is run
    // again in the full worker at the same stop, so its frames and explanations keep coming.
    let (p, _) = play(
        false,
        with(
            run_one(),
            vec![
                (Do(seek(10)), &["frame 3 run 1 stop 10"]),
                (Hear(frame(3, 1, 10)), &[]),
                (Upgrade, &["continue after 1", "load 4 seed 1"]),
                (Hear(loaded(4, 2, 5)), &["frame 5 run 2 stop 10"]),
                (Hear(frame(5, 2, 10)), &[]),
            ],
        ),
    );
    assert_eq!((p.shown.run, p.shown.stop, p.shown.playing), (2, 10, false));
}

// ---------------------------------------------------------------------------------------------
// Warming the engine up.

fn warm_ups(outs: &[Out]) -> usize {
    outs.iter().filter(|o| **o == Out::Send(Request::WarmUp)).count()
}

/// The playground asks its worker to warm up once, when a run is on screen and nothing plays
/// or it has played for a while (not at once: the warm-up would hold its first frames back),
/// and a replacement worker again; an embed never asks.
#[test]
fn the_playground_asks_each_worker_to_warm_up_once_when_the_page_is_still() {
    // The first run plays from its start: not yet; paused, asked; paused again, not again.
    let paused = || {
        with(
            run_one(),
            vec![(Do(Intent::Play(false)), &[]), (Do(Intent::Play(true)), &[]), (Do(Intent::Play(false)), &[])],
        )
    };
    let outs = play(false, paused()).1;
    assert_eq!(warm_ups(&play(false, run_one()).1), 0);
    assert_eq!(warm_ups(&outs), 1);
    // Played to its end (sooner than the while-playing delay): asked when the playback stops
    // there, not before.
    let (mut p, _) = play(false, run_one());
    let mut asked_when = Vec::new();
    for _ in 0..60 {
        let mut outs = Vec::new();
        for o in p.act(Intent::Tick { ms: 20, period: 20 }) {
            if let Out::Send(Request::Frame { id, run, stop, .. }) = o {
                outs.extend(p.answer(frame(id, run, stop)));
            } else {
                outs.push(o);
            }
        }
        if warm_ups(&outs) > 0 {
            asked_when.push((p.shown.playing, p.shown.stop));
        }
    }
    assert!(p.on_screen_ms < crate::player::WARM_UP_WHILE_PLAYING_AFTER_MS);
    assert_eq!(asked_when, [(false, 21)]);
    // Playing: asked once the run has been on screen for a while, not before.
    let (mut p, _) = play(false, run_one());
    let mut asked_at = None;
    for k in 1..=40u32 {
        for o in p.act(Intent::Tick { ms: 100, period: 100_000 }) {
            if o == Out::Send(Request::WarmUp) {
                assert_eq!(asked_at.replace(k * 100), None, "asked twice");
            }
        }
    }
    assert!(p.shown.playing);
    assert_eq!(asked_at, Some(crate::player::WARM_UP_WHILE_PLAYING_AFTER_MS));
    // Paused while a load runs: asked once its run is on screen.
    let loading = || {
        with(
            run_one(),
            vec![
                (Do(edit(2)), &["load 3 seed 2"]),
                (Do(Intent::Play(false)), &[]),
                (Hear(loaded(3, 2, 5)), &["frame 4 run 2 stop 0"]),
            ],
        )
    };
    assert_eq!(warm_ups(&play(false, loading()).1), 0);
    let shown = with(loading(), vec![(Hear(frame(4, 2, 0)), &[])]);
    assert_eq!(warm_ups(&play(false, shown).1), 1);
    // A replacement worker is asked again once the page is still.
    let replaced = with(
        paused(),
        vec![
            (Lose(None), &["continue after 1", "load 3 seed 1"]),
            (Hear(loaded(3, 2, 5)), &["frame 4 run 2 stop 0"]),
            (Hear(frame(4, 2, 0)), &[]),
        ],
    );
    let outs = play(false, replaced).1;
    let restart = outs.iter().position(|o| *o == Out::Restart).expect("a restart");
    assert_eq!((warm_ups(&outs[..restart]), warm_ups(&outs[restart..])), (1, 1));
    let embed = with(run_one(), vec![(Do(Intent::Play(false)), &[])]);
    assert_eq!(warm_ups(&play(true, embed).1), 0);
}
