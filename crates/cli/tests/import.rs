//! `schedlab import` on every input shape of the import tests: the summary goes to stderr,
//! the scenario to stdout, and `schedlab run` accepts the scenario (controllers on and off).

use std::path::PathBuf;
use std::process::{Command, Stdio};

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../core/src/import/testdata")
        .join(name)
}

fn schedlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schedlab"))
}

const DUMPS: &[(&str, &str)] = &[
    (
        "kind-list.yaml",
        "skipped 2 Events, 3 ConfigMaps, 1 Secret — Secret data is never read",
    ),
    ("minikube-concat.json", "imported 1 Node, 2 Pods"),
    ("managed-array.json", "skipped 1 ServiceAccount"),
    ("cluster-info-dump.txt", "left out the logs of 2 containers"),
    ("aks-old.yaml", "error: "),
    (
        "kind-cluster.json",
        "imported 2 Services, 5 Deployments, 5 ReplicaSets, 2 DaemonSets, 1 Job, 4 Nodes, 22 Pods",
    ),
];

#[test]
fn every_dump_imports_and_runs() {
    let dir = std::env::temp_dir().join(format!("schedlab-import-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (file, summary) in DUMPS {
        let out = schedlab().arg("import").arg(testdata(file)).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{file}: {stderr}");
        assert!(stderr.contains(summary), "{file}: {stderr}");
        let scenario = dir.join(format!("{file}.scenario.yaml"));
        std::fs::write(&scenario, &out.stdout).expect("write");
        for controllers in ["on", "off"] {
            let run = schedlab()
                .args(["run", "--controllers", controllers, "--output", "json"])
                .arg(&scenario)
                .output()
                .expect("runs");
            assert!(
                run.status.success(),
                "{file} (controllers {controllers}): {}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn several_files_and_standard_input_make_one_cluster() {
    let mut child = schedlab()
        .args(["import", "-"])
        .arg(testdata("minikube-concat.json"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"apiVersion: v1\nkind: Node\nmetadata: {name: extra}\n")
            .expect("write");
    }
    let out = child.wait_with_output().expect("waits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.starts_with("imported 2 Nodes, 2 Pods\n"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("# Imported by `schedlab import - "), "{stdout}");
}

#[test]
fn nothing_to_import_fails() {
    let out = schedlab().args(["import", "/nonexistent/dump.yaml"]).output().expect("runs");
    assert!(!out.status.success());
    let out = schedlab().arg("import").output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_insights_operator_archive_imports_from_its_files() {
    // insights-operator saves each object as JSON without kind and apiVersion (config/node/*,
    // config/pod/<ns>/*), some as lists without a kind: import infers the kinds and says so.
    let dir = testdata("insights/config");
    let out = schedlab()
        .arg("import")
        .arg(dir.join("node/master-0.json"))
        .arg(dir.join("node/worker-a.json"))
        .arg(dir.join("pod/shop/checkout-6f7d9c8b5-x2kqp.json"))
        .arg(dir.join("pod/openshift-dns/pods.json"))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.starts_with("imported 2 Nodes, 3 Pods\n"), "{stderr}");
    assert!(
        stderr.contains("inferred kind Node for 2 objects without a kind (from status.nodeInfo"),
        "{stderr}"
    );
    assert!(
        stderr.contains("inferred kind Pod for 3 objects without a kind (from spec.containers"),
        "{stderr}"
    );
    assert!(!stderr.contains("error"), "{stderr}");
    let scenario = std::env::temp_dir().join(format!("schedlab-insights-{}.yaml", std::process::id()));
    std::fs::write(&scenario, &out.stdout).expect("write");
    let run = schedlab().args(["run", "--output", "json"]).arg(&scenario).output().expect("runs");
    std::fs::remove_file(&scenario).ok();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
}
