//! `schedlab compare`: two runs side by side.

use schedlab_core::answer::{compare, with_config, RunOptions, Side};
use std::process::ExitCode;

/// `schedlab compare FILE (--config CONFIG.yaml | --seed N | SECOND_FILE | --against-version V) [--controllers on|off] [--output text|json]`.
#[derive(clap::Args)]
#[command(
    group(clap::ArgGroup::new("other").required(true).args(["config", "seed", "second", "against_version"])),
    after_help = "Runs FILE (seed 1) and a second run: FILE with its KubeSchedulerConfiguration replaced by \
CONFIG.yaml's, FILE with seed N, or SECOND_FILE; prints the pods that land differently (by name), per \
pod the difference of the bound node's score, summary figures (nodes used, cpu and memory utilisation \
and its spread across nodes, pods pending, preemptions, attempts) and the diff of the two effective \
configurations. --output json lists the differing pods by name under \"differing\".\n\n\
What changes if I upgrade? --against-version V runs FILE as --kubernetes-version's scheduler and as \
V's (same seed, controllers and --feature-gates) and prints each pod whose answer differs (node, \
nominated node, FailedScheduling message, attempts, evicted, the bound node's score) with the change \
that explains it: each change between the versions (a behaviour, the default plugins, a feature gate's \
value) is taken alone into a run of the first version, and it explains a difference when that run \
reproduces the second version's value; otherwise the difference is \"unexplained\"."
)]
pub struct Args {
    /// The scenario file
    #[arg(value_name = "FILE")]
    file: String,
    /// A second version of the scenario
    #[arg(value_name = "SECOND_FILE")]
    second: Option<String>,
    /// A KubeSchedulerConfiguration for the second run
    #[arg(long, value_name = "CONFIG.yaml")]
    config: Option<String>,
    /// The seed of the second run (the first runs with seed 1)
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Compare two Kubernetes versions on FILE: --kubernetes-version's scheduler against this one's
    #[arg(long, value_name = "VERSION", value_parser = crate::parse_version)]
    against_version: Option<schedlab_core::version::KubeVersion>,
    /// Whether the workload controllers run, as in `schedlab run`
    #[arg(long, value_enum, default_value = "on")]
    controllers: crate::OnOff,
    /// text, or json: the comparison as data
    #[arg(long, value_enum, default_value = "text")]
    output: crate::TextJson,
    #[command(flatten)]
    version: crate::VersionArgs,
}

pub fn main(a: Args) -> ExitCode {
    let text = match crate::read_text(&a.file) {
        Ok(t) => t,
        Err(c) => return c,
    };
    // Both runs use --kubernetes-version with --feature-gates (a comparison of versions
    // applies the gates to each).
    let features = match a.version.features() {
        Ok(f) => f,
        Err(c) => return c,
    };
    let opts = RunOptions {
        seed: 1,
        controllers: a.controllers.on(),
        features,
    };
    if let Some(v) = a.against_version {
        return crate::upgrade::main(&a.file, &text, &a.version, v, &opts, a.output);
    }
    let (second_text, second_file, second_opts, label) = if let Some(c) = &a.config {
        match crate::read_text(c) {
            Ok(t) => (with_config(&text, &t), a.file.clone(), opts.clone(), format!("{} with {c}", a.file)),
            Err(c) => return c,
        }
    } else if let Some(seed) = a.seed {
        (
            text.clone(),
            a.file.clone(),
            opts.with_seed(seed),
            format!("{} seed {seed}", a.file),
        )
    } else {
        let f = a.second.clone().unwrap_or_default();
        match crate::read_text(&f) {
            Ok(t) => (t, f.clone(), opts.clone(), f),
            Err(c) => return c,
        }
    };
    let first = Side {
        text: &text,
        file: &a.file,
        opts,
        label: format!("{} seed 1", a.file),
    };
    let second = Side {
        text: &second_text,
        file: &second_file,
        opts: second_opts,
        label,
    };
    let c = match compare(&first, &second) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if a.output == crate::TextJson::Json {
        outln!("{}", serde_json::to_string_pretty(&c).expect("serializable"));
        return ExitCode::SUCCESS;
    }
    outln!("A: {}\nB: {}\n", c.a.label, c.b.label);
    outln!("{:<28} {:>14} {:>14}", "", "A", "B");
    let row = |name: &str, x: String, y: String| outln!("{name:<28} {x:>14} {y:>14}");
    row(
        "nodes used",
        format!("{}/{}", c.a.nodes_used, c.a.nodes),
        format!("{}/{}", c.b.nodes_used, c.b.nodes),
    );
    row("pods pending", c.a.pods_pending.to_string(), c.b.pods_pending.to_string());
    row("preemptions", c.a.preemptions.to_string(), c.b.preemptions.to_string());
    row("attempts", c.a.attempts.to_string(), c.b.attempts.to_string());
    for (ua, ub) in c.a.utilisation.iter().zip(&c.b.utilisation) {
        row(
            &format!("{} utilisation %", ua.resource),
            format!("{}", ua.overall),
            format!("{}", ub.overall),
        );
        row(
            &format!("{} per node min-max %", ua.resource),
            format!("{}-{}", ua.min, ua.max),
            format!("{}-{}", ub.min, ub.max),
        );
        row(
            &format!("{} stddev across nodes", ua.resource),
            format!("{}", ua.stddev),
            format!("{}", ub.stddev),
        );
    }
    outln!("\n{} pod(s) land differently:", c.differing.len());
    for p in c.pods.iter().filter(|p| c.differing.contains(&p.pod)) {
        let score = |s: Option<i64>| s.map(|s| format!(" ({s})")).unwrap_or_default();
        outln!(
            "  {}: {}{} -> {}{}",
            p.pod,
            p.a.as_deref().unwrap_or("pending"),
            score(p.score_a),
            p.b.as_deref().unwrap_or("pending"),
            score(p.score_b)
        );
    }
    let moved_scores: Vec<String> = c
        .pods
        .iter()
        .filter(|p| !c.differing.contains(&p.pod) && p.score_difference.is_some_and(|d| d != 0))
        .map(|p| format!("  {}: {:+}", p.pod, p.score_difference.unwrap_or(0)))
        .collect();
    if !moved_scores.is_empty() {
        outln!("\nSame node, different score (B - A):");
        for l in moved_scores {
            outln!("{l}");
        }
    }
    if c.config_diff.is_empty() {
        outln!("\nThe effective configurations are the same.");
    } else {
        outln!("\nEffective configuration (- A, + B):");
        for l in &c.config_diff {
            outln!("  {l}");
        }
    }
    ExitCode::SUCCESS
}
