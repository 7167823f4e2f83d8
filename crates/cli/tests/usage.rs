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

/// `schedlab run … | head -1`: the reader goes away after one line; the CLI ends quietly with
/// status 0 instead of panicking on the closed pipe.
#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // Far more output than a pipe holds (64 KiB), so the CLI is still writing when the reader
    // goes: 3000 pods, each bound and reported.
    let mut text = String::from("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: '4000', pods: '5000'}}\n");
    for i in 0..3000 {
        text += &format!("---\napiVersion: v1\nkind: Pod\nmetadata: {{name: pod-{i}}}\nspec: {{containers: [{{name: c, image: x}}]}}\n");
    }
    let dir = std::env::temp_dir().join(format!("schedlab-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("many.yaml");
    std::fs::write(&file, text).unwrap();
    let scenario = file.to_str().unwrap();
    for args in [vec!["run", scenario], vec!["run", scenario, "--output", "json"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(!first.is_empty(), "{args:?} printed a first line");
        // The reader (and with it the pipe's only read end) is dropped here.
        let out = child.wait_with_output().expect("ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
    std::fs::remove_dir_all(&dir).ok();
}
