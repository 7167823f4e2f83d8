use super::*;
use crate::answer::Edit;
use crate::protocol::{CompareWith, ExportFile, PanicReport, Request, Response};
use crate::version::KubeVersion;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

fn round<T: Serialize + DeserializeOwned>(v: &T) -> T {
    from_bytes(&to_bytes(v).unwrap()).unwrap()
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sparse {
    first: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    maybe: Option<String>,
    #[serde(default = "seven", skip_serializing_if = "is_seven")]
    seven: i64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    list: Vec<(u8, char)>,
    last: f64,
}

fn seven() -> i64 {
    7
}

fn is_seven(v: &i64) -> bool {
    *v == 7
}

#[test]
fn skipped_fields_are_absent_and_read_back_as_their_default() {
    let table = [
        Sparse { first: 1, maybe: None, seven: 7, list: vec![], last: 0.5 },
        Sparse { first: 0, maybe: Some("é".into()), seven: -300, list: vec![(255, '∂')], last: f64::MAX },
        Sparse { first: u32::MAX, maybe: None, seven: i64::MIN, list: vec![(0, 'a'), (1, 'b')], last: -0.0 },
    ];
    for s in &table {
        assert_eq!(&round(s), s);
    }
    // Present: `first` (key 1, value 1), `last` (key 5, 8 bytes), the end mark.
    assert_eq!(to_bytes(&table[0]).unwrap(), [1, 1, 5, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f, 0]);
}

#[test]
fn integers_take_the_bytes_their_size_needs() {
    for (v, len) in [(0u64, 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (u64::MAX, 10)] {
        let b = to_bytes(&v).unwrap();
        assert_eq!(b.len(), len, "{v}");
        assert_eq!(from_bytes::<u64>(&b).unwrap(), v);
    }
    for v in [0i64, -1, 1, -64, 64, i64::MIN, i64::MAX] {
        assert_eq!(round(&v), v);
    }
    // A value too large for the type read is an error, not a wrapped number.
    assert!(from_bytes::<u8>(&to_bytes(&256u32).unwrap()).is_err());
}

#[test]
fn collections_options_and_results_round_trip() {
    let m: BTreeMap<String, Vec<Option<u16>>> =
        [("a".to_string(), vec![Some(1), None]), ("".to_string(), vec![])].into_iter().collect();
    assert_eq!(round(&m), m);
    let r: Vec<Result<String, String>> = vec![Ok("svg".into()), Err("no".into())];
    assert_eq!(round(&r), r);
    let arr: Box<[(bool, u8); 2]> = Box::new([(true, 1), (false, 2)]);
    assert_eq!(round(&arr), arr);
}

#[test]
fn free_form_json_travels_as_text_and_stays_json_in_json() {
    let edits = vec![
        Edit::Patch {
            kind: "Node".into(),
            namespace: None,
            name: "a".into(),
            merge: json!({"metadata": {"labels": {"x": null}}}),
        },
        Edit::Add { document: json!({"kind": "Pod", "spec": {"containers": [{"image": "i"}]}}) },
    ];
    let req = Request::ApplyEdits { id: 3, texts: vec![("kind: Node\n".into(), edits.clone())] };
    assert_eq!(round(&req), req);
    // JSON (the CLI's and the trace's) is unchanged: the edits are objects, not strings.
    let j = serde_json::to_value(&req).unwrap();
    assert_eq!(j["applyEdits"]["texts"][0][1][1]["type"], "add");
    let docs = Response::Documents { id: 1, docs: vec![vec![json!({"kind": "Node"}), json!([1, 2.5, "x"])], vec![]] };
    assert_eq!(round(&docs), docs);
}

#[test]
fn every_kind_of_variant_round_trips() {
    let reqs = [
        Request::Compare { id: 1, run: 2, with: CompareWith::Version(KubeVersion::ALL[0]) },
        Request::Compare { id: 1, run: 2, with: CompareWith::Seed(u64::MAX) },
        Request::Export {
            id: 9,
            text: "a: b".into(),
            file: ExportFile::ManifestsKwok,
            kubernetes_version: KubeVersion::ALL[KubeVersion::ALL.len() - 1],
            feature_gates: "A=true".into(),
        },
        Request::Continue { run: 12 },
        Request::WarmUp,
    ];
    for r in &reqs {
        assert_eq!(&round(r), r);
    }
    let resps = [
        Response::Ready,
        Response::Exported { id: 4, file: Err("bad".into()) },
        Response::Crashed { id: None, panic: PanicReport { message: "m".into(), file: String::new(), line: 0, column: 3 } },
        Response::Stale { id: 5, run: 6 },
    ];
    for r in &resps {
        assert_eq!(&round(r), r);
    }
    // What each answers: the worker's own news answers nothing.
    let ids: Vec<Option<u64>> = resps.iter().map(Response::id).collect();
    assert_eq!(ids, [None, Some(4), None, Some(5)]);
}

#[test]
fn a_broken_message_is_an_error_not_a_panic() {
    let good = to_bytes(&Response::Failed { id: 300, message: "no such node".into() }).unwrap();
    for cut in 0..good.len() {
        assert!(from_bytes::<Response>(&good[..cut]).is_err(), "cut at {cut}");
    }
    let mut long = good.clone();
    long.push(0);
    assert!(from_bytes::<Response>(&long).unwrap_err().0.contains("left"));
    // An unknown variant, a length far beyond the message, a value of unknown type.
    assert!(from_bytes::<Response>(&[200]).is_err());
    assert!(from_bytes::<Vec<u8>>(&[0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
    assert!(from_bytes::<serde_json::Value>(&[0]).unwrap_err().0.contains("cannot carry"));
    // A sequence of unknown length cannot be written.
    struct Unknown;
    impl Serialize for Unknown {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            s.serialize_seq(None)?.end()
        }
    }
    assert!(to_bytes(&Unknown).is_err());
}
