//! The comparison both snapshot tests make (`trace_snapshots.rs`, `explanation_snapshots.rs`):
//! each case rendered and compared byte for byte with its committed snapshot. Natively, with
//! `UPDATE_SNAPSHOTS` set, a differing snapshot is rewritten instead.

/// Fails naming every case whose rendering differs from its snapshot (and the first line that
/// differs). `cases` are (name, scenario YAML, snapshot); `file` is a case's snapshot path
/// relative to the crate.
pub fn check(what: &str, cases: &[(&str, &str, &str)], render: impl Fn(&str, &str) -> String, file: impl Fn(&str) -> String) {
    let mut differ = Vec::new();
    for (name, yaml, snapshot) in cases {
        let got = render(name, yaml);
        if got != *snapshot {
            #[cfg(not(target_arch = "wasm32"))]
            if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
                let path = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), file(name));
                std::fs::write(&path, &got).expect("writable");
                continue;
            }
            let _ = &file; // read only where snapshots can be rewritten (natively)
            let line = got.lines().zip(snapshot.lines()).position(|(a, b)| a != b).unwrap_or(0) + 1;
            differ.push(format!("{name} (first difference at line {line})"));
        }
    }
    assert!(differ.is_empty(), "{what} differ from their snapshots: {differ:?}");
}
