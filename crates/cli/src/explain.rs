//! `schedlab explain`: the playground's explanation of a filter or score cell, in a terminal.

use schedlab_core::view::{Session, SessionOptions};
use std::process::ExitCode;

/// `schedlab explain FILE --cycle N [--node NAME] [--plugin NAME] [--score]`, or `--check`.
#[derive(clap::Args)]
#[command(
    group(clap::ArgGroup::new("what").required(true).args(["cycle", "check"])),
    after_help = "Explains cycle N of the run as the playground does when a cell is clicked: the Filter \
verdict of a node (with --score, its Score), for one plugin (--plugin) or the whole row; without \
--node, every node the cycle's filter matrix (or score table) lists. The numbers are those of the \
cluster as that cycle found it. --check explains every cell of every cycle and checks each against \
the trace (exit status 1 on a disagreement)."
)]
pub struct Args {
    /// The scenario file
    #[arg(value_name = "FILE")]
    file: String,
    /// The cycle to explain (1-based, as `run --output text` and the playground number them)
    #[arg(long, value_name = "N")]
    cycle: Option<u32>,
    /// One node (default: every node the cycle lists)
    #[arg(long, value_name = "NAME", requires = "cycle")]
    node: Option<String>,
    /// One plugin's cell (default: the whole row)
    #[arg(long, value_name = "NAME", requires = "cycle")]
    plugin: Option<String>,
    /// The Score cell or row instead of Filter
    #[arg(long, requires = "cycle")]
    score: bool,
    /// Explain every cell of every cycle and check each against the trace
    #[arg(long, conflicts_with = "cycle")]
    check: bool,
    /// Whether the workload controllers run, as in `schedlab run` and the playground
    #[arg(long, value_enum, default_value = "on")]
    controllers: crate::OnOff,
    /// The seed of the tie-break RNG
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// text, or json: one object per node (cycle, pod, point, node, plugin, title, lines)
    #[arg(long, value_enum, default_value = "text")]
    output: Output,
    #[command(flatten)]
    version: crate::VersionArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Output {
    Text,
    Json,
}

pub fn main(a: Args) -> ExitCode {
    let sc = match crate::load_file(&a.file, &a.version) {
        Ok(sc) => sc,
        Err(c) => return c,
    };
    let opts = SessionOptions {
        seed: a.seed,
        controllers: a.controllers.on(),
    };
    let mut s = Session::with_options(sc, opts, &mut |_| {});
    if a.check {
        let x = s.cross_check();
        for f in &x.failures {
            outln!("{f}");
        }
        outln!(
            "{} cells explained, {} verdicts recomputed and compared, {} disagreement(s)",
            x.cells,
            x.compared,
            x.failures.len()
        );
        return if x.failures.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let cycle = a.cycle.unwrap_or(0);
    let Some(pod) = s.cycle_pod(cycle) else {
        eprintln!("error: the run has no cycle {cycle} (it has {} cycles)", s.cycle_count());
        return ExitCode::FAILURE;
    };
    let nodes = match &a.node {
        Some(name) => match s.node_id(name) {
            Some(n) => vec![n],
            None => {
                eprintln!("error: the run has no node named {name:?}");
                return ExitCode::FAILURE;
            }
        },
        None => s.cycle_nodes(cycle, a.score),
    };
    let point = if a.score { "Score" } else { "Filter" };
    let plugin = a.plugin.clone().unwrap_or_default();
    let mut out = Vec::new();
    for n in nodes {
        let x = s.explain(cycle, n, &plugin, a.score);
        out.push((n, x));
    }
    if a.output == Output::Json {
        let items: Vec<serde_json::Value> = out
            .iter()
            .map(|(n, x)| {
                serde_json::json!({
                    "kubernetesVersion": s.kubernetes_version(),
                    "cycle": cycle,
                    "pod": pod,
                    "point": point,
                    "node": s.node_name(*n),
                    "plugin": a.plugin,
                    "title": x.title,
                    "lines": x.lines,
                })
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&items).expect("serializable"));
    } else {
        outln!("cycle {cycle} · {pod} · {point} · kube-scheduler v{}", s.kubernetes_version());
        if out.is_empty() {
            outln!(
                "\n(no node is listed: {})",
                if a.score {
                    "the cycle has no score table"
                } else {
                    "no node existed"
                }
            );
        }
        for (_, x) in &out {
            outln!("\n{}", x.title);
            for l in &x.lines {
                outln!("  {l}");
            }
        }
    }
    ExitCode::SUCCESS
}
