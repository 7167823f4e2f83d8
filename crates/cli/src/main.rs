//! The `schedlab` command: run scenarios natively, print JSON/text/trace, benchmark.

/// Prints to stdout like `print!`, but a reader that went away (`schedlab run … | head`) ends
/// the program quietly instead of panicking, as Unix tools do.
macro_rules! out {
    ($($t:tt)*) => { $crate::emit(format_args!($($t)*), false) };
}
/// `println!` with `out!`'s handling of a closed pipe.
macro_rules! outln {
    () => { $crate::emit(format_args!(""), true) };
    ($($t:tt)*) => { $crate::emit(format_args!($($t)*), true) };
}

mod bench;
mod check;
mod compare;
mod explain;
mod upgrade;
mod export;
mod why;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use schedlab_core::trace::Detail;
use schedlab_core::version::{Features, KubeVersion};
use schedlab_core::{Engine, EngineOptions};
use std::process::ExitCode;

/// `schedlab`: runs, explains, imports and benchmarks kube-scheduler scenarios natively.
#[derive(Parser)]
#[command(
    name = "schedlab",
    version,
    about = "Runs kube-scheduler scenarios natively (v1.34 or v1.35): schedule, explain, import, benchmark",
    disable_help_subcommand = false
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load a scenario and schedule until nothing can make progress
    Run(RunArgs),
    /// Print a scenario made from kubectl output (the summary goes to stderr)
    Import {
        /// kubectl get -o yaml|json or cluster-info dump output; - reads standard input
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// Print the effective (defaulted) scheduler configuration
    Config {
        #[arg(value_name = "FILE")]
        file: String,
        #[command(flatten)]
        version: VersionArgs,
    },
    /// Why a node passed or failed Filter (or got its Score) in a cycle, as the playground says it
    Explain(explain::Args),
    /// Why a pod is on its node, or why it is pending and the smallest verified change that schedules it
    Why(why::Args),
    /// Two runs side by side: another configuration, another seed, or a second version of the scenario
    Compare(compare::Args),
    /// Back to a real cluster: the scheduler configuration, kubectl-apply manifests (--kwok), or the cluster/cycle view as SVG/PNG
    Export(export::Args),
    /// Run each lesson's goals and print their verdicts (--solution: apply the solutions first)
    Check(check::Args),
    /// Schedule a synthetic cluster (or, with --scenario, do the web worker's work on FILE) and time it
    Bench(bench::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(clap::Args)]
struct RunArgs {
    /// The scenario: multi-document YAML or JSON (kind: List accepted)
    #[arg(value_name = "FILE")]
    file: String,
    /// json: the conformance schema; text: events per pod; trace: the full trace
    #[arg(long, value_enum, default_value = "json")]
    output: RunOutput,
    /// The seed of the tie-break RNG
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Whether the workload controllers create (and, under a timeline, keep managing) pods
    #[arg(long, value_enum, default_value = "on")]
    controllers: OnOff,
    #[command(flatten)]
    version: VersionArgs,
}

/// The version a command reproduces when none is named: v1.34, as the playground (its presets
/// name it) and the conformance corpora's documented command (`schedlab run FILE --output json`,
/// answered by kube-scheduler v1.34.1) expect. The newer one is asked for by name.
pub(crate) const CLI_DEFAULT_VERSION: KubeVersion = KubeVersion::V1_34;

/// Which kube-scheduler the engine reproduces: every command that runs it takes these.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct VersionArgs {
    /// The Kubernetes version whose kube-scheduler to reproduce: 1.34 or 1.35 [default: 1.34, as the playground and the conformance corpora]
    #[arg(long, value_name = "VERSION", value_parser = parse_version, default_value = CLI_DEFAULT_VERSION.as_str(), hide_default_value = true)]
    pub(crate) kubernetes_version: KubeVersion,
    /// Feature gates over the version's defaults, as kube-scheduler's flag takes them: Name=true,Other=false
    #[arg(long, value_name = "GATES", default_value = "")]
    pub(crate) feature_gates: String,
}

impl VersionArgs {
    /// The version and gates, or the error (printed) for gates the version does not know.
    pub(crate) fn features(&self) -> Result<Features, ExitCode> {
        Features::with_gates(self.kubernetes_version, &self.feature_gates).map_err(|e| {
            eprintln!("error: --feature-gates: {e}");
            ExitCode::from(2)
        })
    }
}

pub(crate) fn parse_version(s: &str) -> Result<KubeVersion, String> {
    KubeVersion::parse(s).ok_or_else(|| format!("unsupported version {s:?} (supported: {})", KubeVersion::supported_list()))
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RunOutput {
    Json,
    Text,
    Trace,
}

/// `text` or `json`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TextJson {
    Text,
    Json,
}

/// A switch given as `on` or `off`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OnOff {
    On,
    Off,
}

impl OnOff {
    pub(crate) fn on(self) -> bool {
        self == OnOff::On
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // --help and --version print to stdout and succeed; usage errors go to stderr
            // with status 2.
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        Command::Run(a) => run(a),
        Command::Import { files } => import(&files),
        Command::Config { file, version } => config(&file, &version),
        Command::Explain(a) => explain::main(a),
        Command::Why(a) => why::main(a),
        Command::Compare(a) => compare::main(a),
        Command::Export(a) => export::main(a),
        Command::Check(a) => check::main(a),
        Command::Bench(a) => bench::main(a),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "schedlab", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
    }
}

/// Reads and loads a scenario file for a version and its gates, printing errors.
pub(crate) fn load_file(file: &str, version: &VersionArgs) -> Result<schedlab_core::Scenario, ExitCode> {
    let features = version.features()?;
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return Err(ExitCode::FAILURE);
        }
    };
    // load_bytes also reports where a file stops being UTF-8.
    schedlab_core::load::load_bytes_for(&bytes, file, &features).map_err(|e| {
        eprintln!("{e}");
        ExitCode::FAILURE
    })
}

/// Reads a scenario file as text, printing errors.
pub(crate) fn read_text(file: &str) -> Result<String, ExitCode> {
    match std::fs::read(file).map(String::from_utf8) {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(e)) => {
            eprintln!("error: {file}: not UTF-8 text (at byte {})", e.utf8_error().valid_up_to());
            Err(ExitCode::FAILURE)
        }
        Err(e) => {
            eprintln!("error: {file}: {e}");
            Err(ExitCode::FAILURE)
        }
    }
}

fn config(file: &str, version: &VersionArgs) -> ExitCode {
    match load_file(file, version) {
        Ok(sc) => {
            outln!("# The effective configuration of kube-scheduler v{}", sc.features().version());
            out!("{}", sc.config.extension_note());
            out!("{}", sc.config.to_effective_yaml());
            ExitCode::SUCCESS
        }
        Err(c) => c,
    }
}

/// `schedlab import FILE...`: reads `kubectl get -o yaml|json` or `kubectl cluster-info dump`
/// output (`-` reads standard input) and prints a clean scenario; the summary goes to stderr.
/// Fails only when an input cannot be read or nothing could be imported.
fn import(args: &[String]) -> ExitCode {
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
    outln!("# Imported by `schedlab import {}` (see docs/import.md).", files.join(" "));
    out!("{}", report.scenario_text);
    ExitCode::SUCCESS
}

fn run(a: RunArgs) -> ExitCode {
    let (file, seed, controllers) = (a.file, a.seed, a.controllers.on());
    let mut sc = match load_file(&file, &a.version) {
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
    let out = match a.output {
        RunOutput::Json => serde_json::to_string_pretty(&schedlab_core::output::conformance_json(&engine)).expect("serializable"),
        RunOutput::Trace => serde_json::to_string(engine.trace()).expect("serializable"),
        RunOutput::Text => schedlab_core::output::describe_text(&engine),
    };
    outln!("{out}");
    ExitCode::SUCCESS
}

/// Writes to stdout; a closed pipe ends the program with status 0 (the reader has what it
/// wanted), any other write error with a message and status 1.
pub(crate) fn emit(args: std::fmt::Arguments, newline: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| if newline { out.write_all(b"\n") } else { Ok(()) });
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing the output: {e}");
        std::process::exit(1);
    }
}
