//! The CLI's usage, read from its argument parser (`schedlab --help`), against the README: every
//! subcommand is shown in the README's CLI section, and `schedlab SUBCOMMAND --help` prints that
//! subcommand's usage and exits 0 (it never takes `--help` for a file name).

use std::process::Command;

fn schedlab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("runs")
}

/// The subcommands `schedlab --help` lists (clap's "Commands:" block), `help` left out.
fn subcommands() -> Vec<String> {
    let out = schedlab(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let block = text.split("Commands:").nth(1).expect("a Commands: block");
    block
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&n| n != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_shows_every_subcommand() {
    let subs = subcommands();
    for expected in ["run", "import", "config", "explain", "why", "compare", "check", "bench", "completions"] {
        assert!(
            subs.iter().any(|s| s == expected),
            "`schedlab --help` lists {subs:?}, not {expected}"
        );
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let cli = &readme[readme.find("## CLI").expect("README has a CLI section")..];
    for s in &subs {
        assert!(
            cli.contains(&format!("schedlab {s}")),
            "README's CLI section does not show `schedlab {s}`"
        );
    }
}

#[test]
fn every_subcommand_prints_its_usage_on_help() {
    for s in subcommands() {
        let out = schedlab(&[&s, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "schedlab {s} --help: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(&format!("Usage: schedlab {s}")), "schedlab {s} --help printed {text}");
    }
}

#[test]
fn a_bad_flag_is_named_and_exits_2() {
    let out = schedlab(&["run", "scenario.yaml", "--outptu", "json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--outptu"));
    let out = schedlab(&[]);
    assert_eq!(out.status.code(), Some(2));
}
