//! `schedlab bench`: the synthetic conformance-style cluster (to be completed).

use std::process::ExitCode;

pub fn main(_args: &[String]) -> ExitCode {
    eprintln!("bench: not implemented yet");
    ExitCode::FAILURE
}
