//! `schedlab explain`: the playground's explanation of a filter or score cell, in a terminal.

use schedlab_core::view::{Session, SessionOptions};
use std::process::ExitCode;

pub const USAGE: &str = "usage: schedlab explain FILE --cycle N [--node NAME] [--plugin NAME] [--score]
                        [--controllers on|off] [--seed N] [--output text|json]
       schedlab explain FILE --check [--controllers on|off] [--seed N]

Explains cycle N of the run as the playground does when a cell is clicked: the Filter verdict
of a node (with --score, its Score), for one plugin (--plugin) or the whole row. Without --node,
every node the cycle's filter matrix (or score table) lists. --check explains every cell of every
cycle and checks each against the trace (exit 1 on a disagreement).
Controllers are on by default, as in the playground and `schedlab run`.";

struct Args {
    file: String,
    cycle: Option<u32>,
    node: Option<String>,
    plugin: Option<String>,
    score: bool,
    check: bool,
    controllers: bool,
    seed: u64,
    json: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        file: String::new(),
        cycle: None,
        node: None,
        plugin: None,
        score: false,
        check: false,
        controllers: true,
        seed: 1,
        json: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--cycle" => {
                let v = value("--cycle")?;
                a.cycle = Some(v.parse().map_err(|_| format!("--cycle: {v:?} is not a cycle number"))?);
            }
            "--node" => a.node = Some(value("--node")?),
            "--plugin" => a.plugin = Some(value("--plugin")?),
            "--score" => a.score = true,
            "--check" => a.check = true,
            "--seed" => {
                let v = value("--seed")?;
                a.seed = v.parse().map_err(|_| format!("--seed: {v:?} is not a number"))?;
            }
            "--controllers" => {
                a.controllers = match value("--controllers")?.as_str() {
                    "on" => true,
                    "off" => false,
                    v => return Err(format!("--controllers must be on or off, not {v:?}")),
                }
            }
            "--output" => {
                a.json = match value("--output")?.as_str() {
                    "json" => true,
                    "text" => false,
                    v => return Err(format!("--output must be text or json, not {v:?}")),
                }
            }
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option {s}")),
            s if a.file.is_empty() => a.file = s.to_string(),
            s => return Err(format!("unexpected argument {s:?} (one FILE only)")),
        }
    }
    if a.file.is_empty() {
        return Err("explain needs a FILE".into());
    }
    if a.cycle.is_none() && !a.check {
        return Err("explain needs --cycle N (or --check)".into());
    }
    Ok(a)
}

pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let sc = match crate::load_file(&a.file) {
        Ok(sc) => sc,
        Err(c) => return c,
    };
    let opts = SessionOptions {
        seed: a.seed,
        controllers: a.controllers,
    };
    let mut s = Session::with_options(sc, opts, &mut |_| {});
    if a.check {
        let x = s.cross_check();
        for f in &x.failures {
            println!("{f}");
        }
        println!(
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
    if a.json {
        let items: Vec<serde_json::Value> = out
            .iter()
            .map(|(n, x)| {
                serde_json::json!({
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
        println!("{}", serde_json::to_string_pretty(&items).expect("serializable"));
    } else {
        println!("cycle {cycle} · {pod} · {point}");
        if out.is_empty() {
            println!(
                "\n(no node is listed: {})",
                if a.score {
                    "the cycle has no score table"
                } else {
                    "no node existed"
                }
            );
        }
        for (_, x) in &out {
            println!("\n{}", x.title);
            for l in &x.lines {
                println!("  {l}");
            }
        }
    }
    ExitCode::SUCCESS
}
