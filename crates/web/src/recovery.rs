//! What the page does when its engine worker stops: a panic the worker reported
//! (`Response::Crashed`) or an `error` event (a trap no hook saw, a failed start). Plain data
//! in, a plan out, so the rule is tested natively; `bridge.rs` carries it out (it terminates
//! the worker, starts a new one and sends it what the plan says).

use schedlab_view::protocol::PanicReport;

/// What the page had asked of the worker when it stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lost {
    /// The request the worker was answering, when its panic hook said (`None`: unknown).
    pub crashed: Option<u64>,
    /// The load (or generate) request in flight.
    pub load_in_flight: Option<u64>,
    /// A newer load waits behind the one in flight.
    pub load_waiting: bool,
    /// The worker was itself a replacement whose reload has not been shown yet: what it was
    /// asked to redo stopped it again.
    pub recovering: bool,
    /// A run is on screen (its scenario can be run again).
    pub has_good: bool,
}

/// What to run in the new worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reload {
    /// The scenario of the run on screen, back at the same stop.
    Good,
    /// The load that was in flight (it was not what stopped the worker, or nobody knows).
    InFlight,
    /// The newest load, which was waiting behind the one in flight.
    Waiting,
    /// Nothing (no run yet).
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Start a new worker and run `reload` in it. `load_failed`: the load in flight is what
    /// stopped the worker; its scenario gets an error instead of a run.
    Restart { reload: Reload, load_failed: bool },
    /// Do not start another worker: redoing the work stopped the replacement too.
    GiveUp,
}

pub fn plan(l: &Lost) -> Plan {
    if l.recovering {
        return Plan::GiveUp;
    }
    let load_failed = l.load_in_flight.is_some() && l.crashed.is_some() && l.crashed == l.load_in_flight;
    let reload = if l.load_waiting {
        Reload::Waiting
    } else if l.load_in_flight.is_some() && !load_failed {
        Reload::InFlight
    } else if l.has_good {
        Reload::Good
    } else {
        Reload::Nothing
    };
    Plan::Restart { reload, load_failed }
}

/// How the worker stopped, in one line.
pub fn cause(panic: Option<&PanicReport>, error: Option<&str>) -> String {
    match (panic, error) {
        (Some(p), _) if p.file.is_empty() => format!("panicked: {}", p.message),
        (Some(p), _) => format!("panicked at {}:{}:{}: {}", p.file, p.line, p.column, p.message),
        (None, Some(e)) if !e.is_empty() => format!("stopped: {e}"),
        _ => "stopped without saying why".to_string(),
    }
}

/// The text a user copies into a bug report about an explanation that could not be computed:
/// why the engine stopped, what was asked, and where the playhead was.
pub fn explain_report(cause: &str, request: &str, run: u64, stop: u32, at: &str) -> String {
    format!(
        "schedlab {} — an explanation could not be computed\nengine: {cause}\nrequest: {request}\nrun {run}, stop {stop} ({at})\n",
        env!("CARGO_PKG_VERSION")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lost() -> Lost {
        Lost {
            has_good: true,
            ..Lost::default()
        }
    }

    #[test]
    fn a_crashed_explanation_reloads_the_run_on_screen() {
        let l = Lost {
            crashed: Some(7),
            ..lost()
        };
        assert_eq!(
            plan(&l),
            Plan::Restart {
                reload: Reload::Good,
                load_failed: false
            }
        );
    }

    #[test]
    fn a_scenario_that_stops_the_engine_gets_an_error_and_the_last_run_comes_back() {
        let l = Lost {
            crashed: Some(4),
            load_in_flight: Some(4),
            ..lost()
        };
        assert_eq!(
            plan(&l),
            Plan::Restart {
                reload: Reload::Good,
                load_failed: true
            }
        );
        // A newer edit waits: that one is run instead.
        let l = Lost { load_waiting: true, ..l };
        assert_eq!(
            plan(&l),
            Plan::Restart {
                reload: Reload::Waiting,
                load_failed: true
            }
        );
    }

    #[test]
    fn a_load_behind_another_request_is_sent_again() {
        // The worker stopped on a frame request sent before the load: the load is innocent.
        let l = Lost {
            crashed: Some(3),
            load_in_flight: Some(4),
            ..lost()
        };
        assert_eq!(
            plan(&l),
            Plan::Restart {
                reload: Reload::InFlight,
                load_failed: false
            }
        );
        // An error event names no request: the load is tried once more.
        let l = Lost { crashed: None, ..l };
        assert_eq!(
            plan(&l),
            Plan::Restart {
                reload: Reload::InFlight,
                load_failed: false
            }
        );
    }

    #[test]
    fn a_second_stop_before_the_reload_is_shown_gives_up() {
        let l = Lost {
            crashed: Some(9),
            recovering: true,
            ..lost()
        };
        assert_eq!(plan(&l), Plan::GiveUp);
    }

    #[test]
    fn nothing_to_reload_before_the_first_run() {
        assert_eq!(
            plan(&Lost::default()),
            Plan::Restart {
                reload: Reload::Nothing,
                load_failed: false
            }
        );
    }

    #[test]
    fn the_cause_says_where_it_panicked() {
        let p = PanicReport {
            message: "index out of bounds: the len is 3 but the index is 5".into(),
            file: "crates/core/src/view/explain.rs".into(),
            line: 120,
            column: 9,
        };
        assert_eq!(
            cause(Some(&p), Some("ignored")),
            "panicked at crates/core/src/view/explain.rs:120:9: index out of bounds: the len is 3 but the index is 5"
        );
        assert_eq!(
            cause(None, Some("Uncaught RuntimeError: unreachable")),
            "stopped: Uncaught RuntimeError: unreachable"
        );
        assert_eq!(cause(None, None), "stopped without saying why");
        let r = explain_report(
            "panicked at a.rs:1:2: boom",
            "Filter cell NodeName × node-b",
            3,
            57,
            "cycle 4, Filter",
        );
        assert!(
            r.contains("engine: panicked at a.rs:1:2: boom\nrequest: Filter cell NodeName × node-b\nrun 3, stop 57 (cycle 4, Filter)"),
            "{r}"
        );
    }
}
