//! Field paths as apimachinery's `field.Path` renders them: `spec.containers[0].resources.limits[cpu]`.
//! Object validation, the configuration's field errors and the plugins' args point at fields
//! with them; the loader maps one back to a line and column of the file.

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PSeg<'a> {
    Field(&'a str),
    Index(usize),
    Key(&'a str),
}

/// A field path, rendered as Kubernetes renders it: `spec.containers[0].resources.limits[cpu]`.
/// The empty path is the object itself.
///
/// Validation makes a path for every field it checks, error or not, so a path is its steps
/// encoded in one buffer (per step a LEB128 number, a name's length or an index shifted left
/// by two above the step's kind, then the name's bytes), held in place up to `INLINE` bytes (nearly every path: none allocates),
/// on the heap beyond (one allocation). The encoding is canonical: equal steps, equal bytes.
#[derive(Clone, Default)]
pub struct FieldPath(Bytes);

#[derive(Clone)]
enum Bytes {
    Inline(u8, [u8; INLINE]),
    Heap(Vec<u8>),
}

/// Bytes held in place (the path stays 48 bytes: errors carry one, and stay small).
const INLINE: usize = 46;

const FIELD: usize = 0;
const INDEX: usize = 1;
const KEY: usize = 2;

impl Default for Bytes {
    fn default() -> Bytes {
        Bytes::Inline(0, [0; INLINE])
    }
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Inline(n, b) => &b[..*n as usize],
            Bytes::Heap(v) => v,
        }
    }
}

impl PartialEq for FieldPath {
    fn eq(&self, other: &FieldPath) -> bool {
        self.0.as_slice() == other.0.as_slice()
    }
}

impl Eq for FieldPath {}

/// As the list of its steps.
impl std::fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("FieldPath").field(&self.segments().collect::<Vec<_>>()).finish()
    }
}

/// `n` in LEB128 into `out`; returns the bytes written.
fn leb128(mut n: usize, out: &mut [u8; 10]) -> usize {
    let mut k = 0;
    loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out[k] = low;
            return k + 1;
        }
        out[k] = low | 0x80;
        k += 1;
    }
}

impl FieldPath {
    /// The object itself (renders as the empty string).
    pub fn root() -> FieldPath {
        FieldPath::default()
    }
    pub fn is_root(&self) -> bool {
        self.0.as_slice().is_empty()
    }
    /// This path's bytes followed by `parts`.
    fn extended(&self, parts: &[&[u8]]) -> FieldPath {
        let old = self.0.as_slice();
        let need = old.len() + parts.iter().map(|p| p.len()).sum::<usize>();
        if need <= INLINE {
            let mut b = [0; INLINE];
            let mut at = old.len();
            b[..at].copy_from_slice(old);
            for p in parts {
                b[at..at + p.len()].copy_from_slice(p);
                at += p.len();
            }
            FieldPath(Bytes::Inline(need as u8, b))
        } else {
            let mut v = Vec::with_capacity(need);
            v.extend_from_slice(old);
            for p in parts {
                v.extend_from_slice(p);
            }
            FieldPath(Bytes::Heap(v))
        }
    }
    /// This path and one more step.
    fn with(&self, kind: usize, n: usize, name: &str) -> FieldPath {
        let tag = n << 2 | kind;
        // The common step (a number of one byte, room left in place) written straight in.
        if let Bytes::Inline(len, b) = &self.0 {
            let (len, k) = (*len as usize, name.len());
            if tag < 0x80 && len + 1 + k <= INLINE {
                let mut b = *b;
                b[len] = tag as u8;
                b[len + 1..len + 1 + k].copy_from_slice(name.as_bytes());
                return FieldPath(Bytes::Inline((len + 1 + k) as u8, b));
            }
        }
        let mut num = [0; 10];
        let k = leb128(tag, &mut num);
        self.extended(&[&num[..k], name.as_bytes()])
    }
    /// `rel` taken from this path.
    pub fn join(&self, rel: &FieldPath) -> FieldPath {
        self.extended(&[rel.0.as_slice()])
    }
    pub fn new(f: &str) -> FieldPath {
        FieldPath::root().child(f)
    }
    pub fn child(&self, f: &str) -> FieldPath {
        self.with(FIELD, f.len(), f)
    }
    pub fn index(&self, i: usize) -> FieldPath {
        self.with(INDEX, i, "")
    }
    pub fn key(&self, k: &str) -> FieldPath {
        self.with(KEY, k.len(), k)
    }
    pub fn render(&self) -> String {
        let mut s = String::new();
        for (i, seg) in self.segments().enumerate() {
            match seg {
                PSeg::Field(f) => {
                    if i > 0 {
                        s.push('.');
                    }
                    s.push_str(f);
                }
                PSeg::Index(n) => {
                    s.push('[');
                    s.push_str(&n.to_string());
                    s.push(']');
                }
                PSeg::Key(k) => {
                    s.push('[');
                    s.push_str(k);
                    s.push(']');
                }
            }
        }
        s
    }
    /// The path's steps.
    pub(crate) fn segments(&self) -> impl Iterator<Item = PSeg<'_>> + '_ {
        let mut b = self.0.as_slice();
        std::iter::from_fn(move || {
            if b.is_empty() {
                return None;
            }
            let mut n = 0usize;
            let mut shift = 0;
            let mut i = 0;
            while let Some(&c) = b.get(i) {
                n |= ((c & 0x7f) as usize) << shift;
                shift += 7;
                i += 1;
                if c & 0x80 == 0 {
                    break;
                }
            }
            let rest = &b[i..];
            let (kind, n) = (n & 3, n >> 2);
            if kind == INDEX {
                b = rest;
                return Some(PSeg::Index(n));
            }
            let (name, rest) = rest.split_at(n.min(rest.len()));
            b = rest;
            // Copied whole from a `str`: always UTF-8.
            let name = std::str::from_utf8(name).unwrap_or_default();
            Some(if kind == KEY { PSeg::Key(name) } else { PSeg::Field(name) })
        })
    }
}

impl std::fmt::Display for FieldPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps read back as written, short paths held in place and long ones on the heap, and
    /// both compare, render and print by their steps.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn steps_read_back() {
        let long = "example.com/a-label-key-longer-than-the-room-held-in-place-for-a-whole-path";
        let p = FieldPath::new("metadata").child("labels").key(long).index(300).key("app");
        assert!(matches!(p.0, Bytes::Heap(_)));
        assert_eq!(p.render(), format!("metadata.labels[{long}][300][app]"));
        let want = [PSeg::Field("metadata"), PSeg::Field("labels"), PSeg::Key(long), PSeg::Index(300), PSeg::Key("app")];
        assert_eq!(p.segments().collect::<Vec<_>>(), want);
        assert_eq!(p, FieldPath::new("metadata").child("labels").key(long).index(300).key("app"));
        assert_ne!(p, FieldPath::new("metadata").child("labels").key(long).index(300).key("ap"));
        let q = FieldPath::new("spec").child("containers").index(0).child("resources").child("requests").key("cpu");
        assert!(matches!(q.0, Bytes::Inline(..)));
        assert_eq!(q.render(), "spec.containers[0].resources.requests[cpu]");
        assert_eq!(format!("{:?}", FieldPath::new("a").key("b")), r#"FieldPath([Field("a"), Key("b")])"#);
        assert_eq!(FieldPath::new("spec").join(&FieldPath::root().index(1).key("x")), FieldPath::new("spec").index(1).key("x"));
        assert_eq!(FieldPath::root(), FieldPath::default());
        assert!(FieldPath::root().is_root() && !q.is_root() && FieldPath::root().render().is_empty());
        // A path growing past the room held in place keeps every step.
        let mut r = FieldPath::root();
        for i in 0..40 {
            r = r.index(i * 1000);
        }
        assert_eq!(r.segments().count(), 40);
        assert_eq!(r.segments().last(), Some(PSeg::Index(39000)));
        assert_eq!(std::mem::size_of::<FieldPath>(), 48);
    }
}
