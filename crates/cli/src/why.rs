//! `schedlab why`: why a pod is on its node, or why it is pending and what would schedule it.

use std::process::ExitCode;

/// `schedlab why FILE NAMESPACE/POD [--controllers on|off] [--output text|json] [--seed N]`.
#[derive(clap::Args)]
#[command(after_help = "For a pod on a node: its total against the runner-up's and the plugins whose \
weighted scores made the difference. For a pending pod: the last cycle's reasons grouped as the \
FailedScheduling message groups them, what preemption tried, and the changes that would make it \
schedule, smallest first; each was verified by re-running the scenario with it applied (same seed, \
same controllers), and --output json carries each as edits of the scenario's documents.")]
pub struct Args {
    /// The scenario file
    #[arg(value_name = "FILE")]
    file: String,
    /// The pod, as namespace/name (a name alone means the default namespace)
    #[arg(value_name = "NAMESPACE/POD")]
    pod: String,
    /// Whether the workload controllers run, as in `schedlab run` and the playground
    #[arg(long, value_enum, default_value = "on")]
    controllers: crate::OnOff,
    /// text, or json: the answer with its numbers, suggestions and their edits
    #[arg(long, value_enum, default_value = "text")]
    output: crate::TextJson,
    /// The seed of the tie-break RNG
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    version: crate::VersionArgs,
}

pub fn main(a: Args) -> ExitCode {
    let text = match crate::read_text(&a.file) {
        Ok(t) => t,
        Err(c) => return c,
    };
    let key = if a.pod.contains('/') {
        a.pod.clone()
    } else {
        format!("default/{}", a.pod)
    };
    let features = match a.version.features() {
        Ok(f) => f,
        Err(c) => return c,
    };
    let opts = schedlab_core::answer::RunOptions {
        seed: a.seed,
        controllers: a.controllers.on(),
        features,
    };
    let answer = match schedlab_core::answer::why(&text, &a.file, &key, &opts) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if a.output == crate::TextJson::Json {
        outln!("{}", serde_json::to_string_pretty(&answer).expect("serializable"));
        return ExitCode::SUCCESS;
    }
    for s in &answer.sentences {
        outln!("{s}");
    }
    if let Some(p) = &answer.pending {
        if p.suggestions.len() > 1 {
            outln!(
                "\nOther verified changes ({} of {} tried), smallest first:",
                p.suggestions.len(),
                p.tried
            );
            for s in &p.suggestions[1..] {
                outln!("  - {}", s.sentence);
            }
        }
    }
    ExitCode::SUCCESS
}
