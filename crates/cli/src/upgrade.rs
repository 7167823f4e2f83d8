//! `schedlab compare FILE --against-version V`: what changes if I upgrade (or downgrade)?

use schedlab_core::answer::{compare_versions, RunOptions};
use schedlab_core::version::{Features, KubeVersion};
use std::process::ExitCode;

pub fn main(
    file: &str,
    text: &str,
    version: &crate::VersionArgs,
    against: KubeVersion,
    opts: &RunOptions,
    output: crate::TextJson,
) -> ExitCode {
    let from = match version.features() {
        Ok(f) => f,
        Err(c) => return c,
    };
    let to = match Features::with_gates(against, &version.feature_gates) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: --feature-gates for v{against}: {e}");
            return ExitCode::from(2);
        }
    };
    let c = match compare_versions(text, file, &from, &to, opts) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if output == crate::TextJson::Json {
        outln!("{}", serde_json::to_string_pretty(&c).expect("serializable"));
        return ExitCode::SUCCESS;
    }
    let (a, b) = (format!("v{}", c.from), format!("v{}", c.to));
    outln!("What changes from kube-scheduler {a} to {b} on {file} (seed {}):", opts.seed);
    if c.pods.is_empty() {
        outln!("\nEvery pod answers the same.");
    } else {
        outln!("\n{} pod(s) answer differently:", c.pods.len());
    }
    let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    for p in &c.pods {
        outln!("  {}", p.pod);
        for d in &p.fields {
            outln!("    {}:", d.field);
            outln!("      {a}: {}", show(&d.from));
            outln!("      {b}: {}", show(&d.to));
            if d.explained_by.is_empty() {
                outln!("      because: unexplained (no single change between the versions reproduces it)");
            }
            for s in &d.explained_by {
                let ch = c.changes.iter().find(|ch| &ch.switch == s);
                let upstream = ch.and_then(|ch| ch.upstream.as_deref()).map(|u| format!("{u}: ")).unwrap_or_default();
                outln!("      because: {upstream}{}", ch.map(|ch| ch.what.as_str()).unwrap_or(s));
            }
        }
    }
    outln!("\nChanges between {a} and {b} (each tried alone in a run of {a}):");
    for ch in &c.changes {
        let upstream = ch.upstream.as_deref().map(|u| format!(" ({u})")).unwrap_or_default();
        outln!("  {}{upstream}: explains {}", ch.what, ch.explains);
    }
    let (fa, fb) = (&c.runs.a, &c.runs.b);
    outln!("\n{:<16} {:>10} {:>10}", "", a, b);
    outln!("{:<16} {:>10} {:>10}", "pods pending", fa.pods_pending, fb.pods_pending);
    outln!("{:<16} {:>10} {:>10}", "preemptions", fa.preemptions, fb.preemptions);
    outln!("{:<16} {:>10} {:>10}", "attempts", fa.attempts, fb.attempts);
    ExitCode::SUCCESS
}
