//! The `schedlab` command: run scenarios natively, print JSON/text/trace, benchmark.

mod bench;
mod explain;

use schedlab_core::trace::Detail;
use schedlab_core::{Engine, EngineOptions};
use std::process::ExitCode;

const USAGE: &str = "usage:
  schedlab run FILE [--output json|text|trace] [--seed N] [--controllers on|off]
  schedlab import FILE...       print a scenario made from kubectl output (summary on stderr)
  schedlab config FILE          print the effective (defaulted) scheduler configuration
  schedlab explain FILE --cycle N [--node NAME] [--plugin NAME] [--score] [--controllers on|off]
                                [--seed N] [--output text|json]
                                why a node passed or failed Filter (or got its Score) in cycle N
  schedlab bench [--nodes N] [--pods M] [--seed N]
  schedlab bench --scenario FILE [--seed N]   the web worker's work on FILE, natively";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `schedlab SUBCOMMAND --help` prints the usage (explain has its own) instead of taking
    // `--help` for a file name.
    let sub = args.first().map(String::as_str);
    if sub != Some("explain") && args.iter().skip(1).any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match sub {
        Some("run") => run(&args[1..]),
        Some("bench") => bench::main(&args[1..]),
        Some("config") => config(&args[1..]),
        Some("import") => import(&args[1..]),
        Some("explain") => explain::main(&args[1..]),
        Some("-h") | Some("--help") | Some("help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn flag<'a>(args: &'a [String], name: &str) -> Result<Option<&'a str>, String> {
    match args.iter().position(|a| a == name) {
        Some(i) => args
            .get(i + 1)
            .map(|s| Some(s.as_str()))
            .ok_or_else(|| format!("{name} needs a value")),
        None => Ok(None),
    }
}

/// Reads and loads a scenario file, printing errors.
pub(crate) fn load_file(file: &str) -> Result<schedlab_core::Scenario, ExitCode> {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return Err(ExitCode::FAILURE);
        }
    };
    // load_bytes also reports where a file stops being UTF-8.
    schedlab_core::load::load_bytes(&bytes, file).map_err(|e| {
        eprintln!("{e}");
        ExitCode::FAILURE
    })
}

fn config(args: &[String]) -> ExitCode {
    let Some(file) = args.first() else {
        eprintln!("error: config needs a FILE\n{USAGE}");
        return ExitCode::from(2);
    };
    match load_file(file) {
        Ok(sc) => {
            print!("{}", sc.config.to_effective_yaml());
            ExitCode::SUCCESS
        }
        Err(c) => c,
    }
}

/// `schedlab import FILE...`: reads `kubectl get -o yaml|json` or `kubectl cluster-info dump`
/// output (`-` reads standard input) and prints a clean scenario; the summary goes to stderr.
/// Fails only when an input cannot be read or nothing could be imported.
fn import(args: &[String]) -> ExitCode {
    if args.is_empty() {
        eprintln!("error: import needs at least one FILE\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut texts = Vec::new();
    for file in args {
        let bytes = if file == "-" {
            let mut b = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map(|_| b)
        } else {
            std::fs::read(file)
        };
        match bytes {
            Ok(b) => match String::from_utf8(b) {
                Ok(t) => texts.push((file.clone(), t)),
                Err(e) => {
                    eprintln!("error: {file}: not UTF-8 text (at byte {})", e.utf8_error().valid_up_to());
                    return ExitCode::FAILURE;
                }
            },
            Err(e) => {
                eprintln!("error: {file}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let inputs: Vec<(&str, &str)> = texts.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
    let report = schedlab_core::import::import_inputs(&inputs);
    eprint!("{}", report.summary_text());
    if report.scenario_text.is_empty() {
        return ExitCode::FAILURE;
    }
    let files: Vec<&str> = args.iter().map(String::as_str).collect();
    println!("# Imported by `schedlab import {}` (see docs/import.md).", files.join(" "));
    print!("{}", report.scenario_text);
    ExitCode::SUCCESS
}

fn run(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        if args[i].starts_with("--") {
            i += 2;
            continue;
        }
        file = Some(args[i].clone());
        i += 1;
    }
    let parsed = (|| -> Result<(String, String, u64, bool), String> {
        let file = file.ok_or("run needs a FILE")?;
        let output = flag(args, "--output")?.unwrap_or("json").to_string();
        if !["json", "text", "trace"].contains(&output.as_str()) {
            return Err(format!("--output must be json, text or trace, not {output:?}"));
        }
        let seed = flag(args, "--seed")?
            .map(|s| s.parse::<u64>().map_err(|_| format!("--seed: {s:?} is not a number")))
            .transpose()?
            .unwrap_or(1);
        let controllers = match flag(args, "--controllers")?.unwrap_or("on") {
            "on" => true,
            "off" => false,
            v => return Err(format!("--controllers must be on or off, not {v:?}")),
        };
        Ok((file, output, seed, controllers))
    })();
    let (file, output, seed, controllers) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut sc = match load_file(&file) {
        Ok(s) => s,
        Err(c) => return c,
    };
    let mut ctl = None;
    if controllers {
        // The workload controllers create their pods before the scheduler starts; the pods
        // they make follow the file's in every output. Under a timeline they keep reacting.
        let mut c = schedlab_core::controllers::Controllers::new(seed);
        let report = c.reconcile(&mut sc);
        for f in &report.failed {
            eprintln!("warning: {f}");
        }
        ctl = Some(c);
    }
    let mut engine = Engine::new(sc, EngineOptions { seed, detail: Detail::All });
    if let Some(c) = ctl {
        engine.enable_controllers(c);
    }
    engine.run();
    for f in engine.controller_failures() {
        eprintln!("warning: {f}");
    }
    let out = match output.as_str() {
        "json" => serde_json::to_string_pretty(&schedlab_core::output::conformance_json(&engine)).expect("serializable"),
        "trace" => serde_json::to_string(engine.trace()).expect("serializable"),
        _ => schedlab_core::output::describe_text(&engine),
    };
    println!("{out}");
    ExitCode::SUCCESS
}
