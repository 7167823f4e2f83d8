//! `json::Strict` places every error where `serde_path_to_error` (which the loader and the
//! configuration decoder used to wrap it in) places it, with the same message.
//!
//! In test builds the loader and `config::decode::strict` decode every object a second time,
//! through serde_path_to_error over `Strict`, and `same_as_path_to_error` panics on any
//! difference: every load and configuration test is a differential test. `mutations` adds
//! malformed variants of every object of the conformance corpus (wrong types at every leaf,
//! arrays for objects, unknown and missing fields at every depth, bad values, nested lists).
//!
//! The corpus-wide tests read files, so they are native only; on wasm32 their helpers are unused.
#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

use crate::apimachinery::json::{self, Segment};
use serde_json::{json, Map, Value};
use std::cell::Cell;
use std::collections::HashSet;

thread_local! {
    /// Decodings compared on this thread: (all, those that failed).
    static COMPARED: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// Panics unless `ours` and `theirs` (the same decoding through serde_path_to_error) agree:
/// both succeed, or both fail with the same message at the same path.
pub(crate) fn same_as_path_to_error<T>(ours: &Result<T, json::Error>, theirs: Result<T, serde_path_to_error::Error<json::Error>>) {
    let failed = match (ours, theirs) {
        (Ok(_), Ok(_)) => false,
        (Err(o), Err(t)) => {
            let their_path: Vec<Segment> = t
                .path()
                .iter()
                .map(|s| match s {
                    serde_path_to_error::Segment::Seq { index } => Segment::Seq(*index),
                    serde_path_to_error::Segment::Map { key } => Segment::Map(key.clone()),
                    serde_path_to_error::Segment::Enum { variant } => Segment::Enum(variant.clone()),
                    serde_path_to_error::Segment::Unknown => Segment::Unknown,
                })
                .collect();
            let our_path: Vec<Segment> = o.path().cloned().collect();
            assert_eq!(our_path, their_path, "path of {o}");
            assert_eq!(o.to_string(), t.inner().to_string());
            true
        }
        (Ok(_), Err(t)) => panic!("only serde_path_to_error fails: {t}"),
        (Err(o), Ok(_)) => panic!("only Strict fails: {o}"),
    };
    COMPARED.with(|c| {
        let (all, errs) = c.get();
        c.set((all + 1, errs + usize::from(failed)));
    });
}

/// Panics unless decoding straight from the position tree (`ours`) gives what decoding from
/// the JSON value `YNode::to_json` builds gives: the same object, or the same message at the
/// same path.
pub(crate) fn same_as_through_json<T: PartialEq + std::fmt::Debug>(ours: &Result<T, json::Error>, theirs: Result<T, json::Error>) {
    match (ours, theirs) {
        (Ok(o), Ok(t)) => assert_eq!(o, &t, "decoded from the tree and from its JSON value"),
        (Err(o), Err(t)) => {
            assert_eq!(o.path().collect::<Vec<_>>(), t.path().collect::<Vec<_>>(), "path of {o}");
            assert_eq!(o.to_string(), t.to_string());
        }
        (Ok(_), Err(t)) => panic!("only decoding through JSON fails: {t}"),
        (Err(o), Ok(_)) => panic!("only decoding from the tree fails: {o}"),
    }
}

fn compared() -> (usize, usize) {
    COMPARED.with(Cell::get)
}

/// The values to put in place of `v`: other JSON types, and a string no enum or quantity takes.
fn replacements(v: &Value) -> Vec<Value> {
    let mut out = vec![json!("no-such-Value!"), json!(-7), json!(1.5), json!(true), json!(null)];
    out.push(json!([1, "x"]));
    out.push(json!({"zz": 1}));
    match v {
        Value::Object(m) => {
            // An array for an object (Go refuses it), and the object in a list of lists.
            out.push(Value::Array(vec![v.clone()]));
            out.push(json!([[m.clone()]]));
        }
        Value::Array(a) => {
            // The elements as an object, and a nested list.
            out.push(Value::Object(
                a.iter().enumerate().map(|(i, e)| (i.to_string(), e.clone())).collect(),
            ));
            out.push(Value::Array(vec![v.clone()]));
        }
        Value::Number(_) => out.push(json!(u64::MAX)),
        _ => {}
    }
    out.retain(|r| r != v);
    out
}

/// A step of the path to a node of a document, indices and map keys of unknown maps (labels,
/// annotations, ...) counted once per shape.
fn shape(path: &[String]) -> String {
    path.iter()
        .map(|s| if s.parse::<usize>().is_ok() { "[]" } else { s.as_str() })
        .collect::<Vec<_>>()
        .join(".")
}

/// Calls `f` with every malformed variant of `doc` (of `kind`), each of a distinct (kind, path
/// shape, mutation) not yet in `seen`: the same path means different types in different kinds.
fn mutate(doc: &Value, kind: &str, seen: &mut HashSet<String>, f: &mut dyn FnMut(Value)) {
    fn walk(kind: &str, root: &Value, at: &Value, path: &mut Vec<String>, seen: &mut HashSet<String>, f: &mut dyn FnMut(Value)) {
        let mut emit = |what: &str, with: &dyn Fn(&mut Value)| {
            if seen.insert(format!("{kind}|{}#{what}", shape(path))) {
                let mut d = root.clone();
                with(pointer(&mut d, path));
                f(d);
            }
        };
        for (i, r) in replacements(at).into_iter().enumerate() {
            emit(&format!("replace{i}"), &|v: &mut Value| *v = r.clone());
        }
        match at {
            Value::Object(m) => {
                emit("unknown", &|v: &mut Value| {
                    v.as_object_mut().unwrap().insert("zzUnknownField".into(), json!({"a": [1]}));
                });
                for k in m.keys() {
                    emit(&format!("drop {k}"), &|v: &mut Value| {
                        v.as_object_mut().unwrap().shift_remove(k);
                    });
                }
                for (k, child) in m {
                    path.push(k.clone());
                    walk(kind, root, child, path, seen, f);
                    path.pop();
                }
            }
            Value::Array(a) => {
                emit("append", &|v: &mut Value| v.as_array_mut().unwrap().push(json!("x")));
                emit("append-object", &|v: &mut Value| v.as_array_mut().unwrap().push(json!({"zz": [2]})));
                emit("empty", &|v: &mut Value| v.as_array_mut().unwrap().clear());
                for (i, child) in a.iter().enumerate() {
                    path.push(i.to_string());
                    walk(kind, root, child, path, seen, f);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    walk(kind, doc, doc, &mut Vec::new(), seen, f);
}

fn pointer<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match v {
        Value::Object(m) => m.get_mut(step).unwrap(),
        Value::Array(a) => &mut a[step.parse::<usize>().unwrap()],
        _ => unreachable!(),
    })
}

/// Every YAML file under `dir`.
fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(p);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn mutations() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in [
        "tests/conformance",
        "assets/presets",
        "crates/core/tests/explanations",
        "crates/core/src/import/testdata",
    ] {
        yaml_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "{} files", files.len());
    let before = compared();
    let mut seen = HashSet::new();
    let mut docs = 0;
    let mut cases = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let (nodes, _) = super::yaml::read_documents(&text);
        for node in nodes {
            let doc = node.to_json();
            let Some(kind) = doc.get("kind").and_then(Value::as_str).map(str::to_string) else {
                continue;
            };
            docs += 1;
            mutate(&doc, &kind, &mut seen, &mut |d| {
                cases += 1;
                if kind == "KubeSchedulerConfiguration" {
                    // Decoding only: building the profiles is not what is compared here.
                    let _ =
                        crate::config::decode::decode_and_default(&d, &crate::version::Features::new(crate::version::KubeVersion::V1_34));
                } else {
                    let _ = super::load_str(&serde_json::to_string(&d).unwrap(), "m.json");
                }
            });
        }
    }
    let (all, errs) = (compared().0 - before.0, compared().1 - before.1);
    eprintln!(
        "{} files, {docs} documents, {cases} malformed variants: {all} decodings compared, {errs} errors",
        files.len()
    );
    assert!(errs > 5000, "{errs} errors compared");
}

/// Paths the loader's messages did not meet: enums, non-string keys, bytes.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn other_shapes() {
    use serde::Deserialize;
    use std::collections::BTreeMap;
    #[derive(Deserialize, PartialEq, Eq, PartialOrd, Ord)]
    enum K {
        A,
        B,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    enum E {
        Unit,
        New(Vec<u8>),
        Tup(u8, String),
        Rec { x: u8 },
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    #[serde(deny_unknown_fields)]
    struct T {
        e: Option<Vec<E>>,
        k: Option<BTreeMap<K, Vec<u8>>>,
        n: Option<BTreeMap<u8, String>>,
        b: Option<serde_bytes_like::Bytes>,
        m: Option<Map<String, Value>>,
    }
    mod serde_bytes_like {
        /// Reads itself with `deserialize_byte_buf`.
        pub struct Bytes;
        impl<'de> serde::Deserialize<'de> for Bytes {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = Bytes;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("bytes")
                    }
                    fn visit_str<E>(self, _: &str) -> Result<Bytes, E> {
                        Ok(Bytes)
                    }
                    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Bytes, A::Error> {
                        while a.next_element::<u8>()?.is_some() {}
                        Ok(Bytes)
                    }
                }
                d.deserialize_byte_buf(V)
            }
        }
    }
    let docs = [
        json!({"e": ["Unit", {"Unit": null}, {"Unit": 1}, {"New": [1, 2]}, {"Tup": [1, "a"]}, {"Rec": {"x": 1}}]}),
        json!({"e": ["Nope"]}),
        json!({"e": [{"New": [1, 300]}]}),
        json!({"e": ["New"]}),
        json!({"e": [{"Tup": [1]}]}),
        json!({"e": [{"Tup": [1, "a", 2]}]}),
        json!({"e": [{"Tup": "x"}]}),
        json!({"e": ["Tup"]}),
        json!({"e": [{"Rec": {"x": "y"}}]}),
        json!({"e": [{"Rec": [1]}]}),
        json!({"e": [{"Rec": {}}]}),
        json!({"e": ["Rec"]}),
        json!({"e": [{"A": 1, "B": 2}]}),
        json!({"e": [{}]}),
        json!({"e": [7]}),
        json!({"k": {"A": [1], "B": [2]}}),
        json!({"k": {"A": [1], "B": ["x"]}}),
        json!({"k": {"C": [1]}}),
        json!({"n": {"1": "a", "2": 3}}),
        json!({"n": {"x": "a"}}),
        json!({"n": {"300": "a"}}),
        json!({"b": "abc"}),
        json!({"b": [1, 2, "x"]}),
        json!({"b": 3}),
        json!({"m": {"a": [1, {"b": 2}]}}),
        json!({"zz": 1}),
        json!([1]),
    ];
    let before = compared();
    for d in docs {
        let ours = T::deserialize(json::Strict::new(d.clone()));
        same_as_path_to_error(&ours, serde_path_to_error::deserialize(json::Strict::new(d)));
    }
    assert!(compared().1 - before.1 >= 20);
}
