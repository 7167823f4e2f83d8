//! `schedlab export`: the configuration reads back through the strict loader as the same
//! effective configuration; the manifests hold no schedlab-only kind or field and load; the SVG
//! is well-formed XML naming every node; the PNG is a PNG of twice the SVG's size.

use schedlab_core::load::load_str;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn schedlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_schedlab")).args(args).output().expect("runs")
}

fn ok(args: &[&str]) -> Vec<u8> {
    let out = schedlab(args);
    assert!(out.status.success(), "schedlab {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

fn text(args: &[&str]) -> String {
    String::from_utf8(ok(args)).expect("utf-8")
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).to_string_lossy().into_owned()
}

/// Every lesson, and corpus scenarios with and without a configuration, a timeline, workloads.
fn scenarios() -> Vec<String> {
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in ["assets/lessons", "tests/conformance/scenarios", "tests/conformance/timeline/scenarios", "tests/conformance/workloads-dra/scenarios"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(repo(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        // Every lesson; a spread of each corpus folder (the whole corpus is the core test's).
        let step = if dir == "assets/lessons" { 1 } else { 6 };
        out.extend(files.into_iter().step_by(step));
    }
    out.into_iter().map(|p| p.to_string_lossy().into_owned()).collect()
}

fn tmp(name: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

/// The YAML without its comment lines.
fn body(s: &str) -> String {
    s.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect()
}

#[test]
fn the_exported_config_reads_back_as_the_effective_config() {
    let mut with_config = 0;
    for f in scenarios() {
        let original = text(&["config", &f]);
        let out = tmp("config.yaml");
        ok(&["export", &f, "--what", "config", "-o", &out]);
        let exported = std::fs::read_to_string(&out).unwrap();
        // Without --kubernetes-version the CLI reproduces v1.34 (crates/cli/src/main.rs).
        assert!(exported.starts_with("# kube-scheduler v1.34's configuration"), "{f}: {exported}");
        // The strict loader reads it (schedlab config fails on any unknown field).
        assert_eq!(body(&text(&["config", &out])), body(&original), "{f}");
        let has = load_str(&std::fs::read_to_string(&f).unwrap(), "o.yaml").unwrap().has_config;
        with_config += has as usize;
        assert_eq!(!has, exported.contains("defaults, which it ran with"), "{f}: {exported}");
    }
    assert!(with_config > 0, "some scenario carries a configuration");
}

#[test]
fn the_config_follows_the_kubernetes_version() {
    let f = repo("assets/lessons/scoring.yaml");
    let v34 = text(&["export", &f, "--what", "config", "--kubernetes-version", "1.34"]);
    assert!(v34.starts_with("# kube-scheduler v1.34's configuration"), "{v34}");
    assert_eq!(body(&v34), body(&text(&["config", &f, "--kubernetes-version", "1.34"])));
    let v35 = text(&["export", &f, "--what", "config", "--kubernetes-version", "1.35"]);
    assert!(v35.starts_with("# kube-scheduler v1.35's configuration"), "{v35}");
    assert_eq!(body(&v35), body(&text(&["config", &f, "--kubernetes-version", "1.35"])));
}

/// The conformance corpora's documented command names no version
/// (`schedlab run FILE --output json`) and expects kube-scheduler v1.34.1's answers.
#[test]
fn a_run_without_a_version_reproduces_v1_34() {
    let f = repo("assets/presets/reasons.yaml");
    let plain = text(&["run", &f, "--output", "json"]);
    assert!(plain.contains("\"kubernetesVersion\": \"1.34\"") || plain.contains("\"kubernetesVersion\":\"1.34\""), "{plain}");
    assert_eq!(plain, text(&["run", &f, "--output", "json", "--kubernetes-version", "1.34"]));
}

#[test]
fn manifests_hold_no_schedlab_kind_or_field_and_load() {
    for f in scenarios() {
        for kwok in [false, true] {
            let mut args = vec!["export", f.as_str(), "--what", "manifests"];
            if kwok {
                args.push("--kwok");
            }
            let m = text(&args);
            let b = body(&m);
            for word in ["schedlab.dev", "schedlab.io", "kind: Lesson", "kind: Timeline", "kind: KubeSchedulerConfiguration"] {
                assert!(!b.contains(word), "{f}: {word} in\n{m}");
            }
            let docs = schedlab_core::load::documents(&m);
            assert!(docs.iter().all(|d| d.pointer("/metadata/uid").is_none() && d.pointer("/metadata/ownerReferences").is_none()), "{f}");
            // Every document is one our loader admits (so the apiserver's checks we share pass).
            let sc = load_str(&m, "exported.yaml").unwrap_or_else(|e| panic!("{f}: {e}\n{m}"));
            assert_eq!(sc.documents, docs.len(), "{f}");
            for n in &sc.nodes {
                assert_eq!(n.metadata.annotations.contains_key("kwok.x-k8s.io/node"), kwok, "{f}: {}", n.metadata.name);
            }
            // No pod is given a node the scenario did not give it.
            let original = load_str(&std::fs::read_to_string(&f).unwrap(), "o.yaml").unwrap();
            for p in &sc.pods {
                let before = original.pods.iter().find(|o| o.metadata.name == p.metadata.name && o.metadata.namespace == p.metadata.namespace);
                assert_eq!(p.spec.node_name, before.and_then(|o| o.spec.node_name.clone()), "{f}: {}", p.metadata.name);
            }
        }
    }
}

/// The numbers of an SVG's root `width`/`height`, and the text of all its `<text>`s.
fn svg_facts(svg: &str) -> (u32, u32, Vec<String>) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let num = |a: &str| root.attribute(a).unwrap().parse::<u32>().unwrap();
    let texts = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text().map(str::to_string)).collect();
    (num("width"), num("height"), texts)
}

#[test]
fn the_cluster_svg_is_xml_naming_every_node_and_the_cycle_svg_its_pod() {
    for f in scenarios().iter().filter(|f| f.contains("lessons")) {
        let svg = text(&["export", f, "--what", "svg"]);
        let (_, _, texts) = svg_facts(&svg);
        let sc = load_str(&std::fs::read_to_string(f).unwrap(), "x.yaml").unwrap();
        for n in &sc.nodes {
            assert!(texts.iter().any(|t| t.starts_with(&n.metadata.name)), "{f}: node {} not drawn", n.metadata.name);
        }
        let cycle = text(&["export", f, "--what", "svg", "--view", "cycle", "--cycle", "1"]);
        let (_, _, texts) = svg_facts(&cycle);
        assert!(texts.iter().any(|t| t.contains("cycle 1: ")), "{f}: {texts:?}");
    }
}

#[test]
fn the_png_is_the_svg_at_twice_its_size() {
    let f = repo("assets/lessons/topology-spread.yaml");
    for view in ["cluster", "cycle"] {
        let (w, h, _) = svg_facts(&text(&["export", &f, "--what", "svg", "--view", view, "--cycle", "2"]));
        let out = tmp(&format!("{view}.png"));
        ok(&["export", &f, "--what", "png", "--view", view, "--cycle", "2", "-o", &out]);
        let png = std::fs::read(&out).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
        assert_eq!((be(16), be(20)), (2 * w, 2 * h), "{view}");
    }
}

#[test]
fn errors_go_to_stderr_with_a_failing_status() {
    let f = repo("assets/lessons/taints.yaml");
    for (args, says) in [
        (vec!["export", "/nonexistent.yaml"], "/nonexistent.yaml"),
        (vec!["export", f.as_str(), "--what", "svg", "--cycle", "999"], "no cycle 999"),
        (vec!["export", f.as_str(), "--what", "gif"], "invalid value 'gif'"),
    ] {
        let out = schedlab(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
