//! Field paths as apimachinery's `field.Path` renders them: `spec.containers[0].resources.limits[cpu]`.
//! Object validation, the configuration's field errors and the plugins' args point at fields
//! with them; the loader maps one back to a line and column of the file.

use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PSeg {
    Field(Name),
    Index(usize),
    Key(Name),
}

/// The name in a step, held in place when short (field names and most keys are): a longer path
/// is made for every field validated, and copying its steps then allocates nothing per step.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Name {
    /// The length and the bytes (zero after them).
    Inline(u8, [u8; INLINE]),
    Heap(Box<str>),
}

const INLINE: usize = 22;

impl Name {
    fn new(s: &str) -> Name {
        if s.len() <= INLINE {
            let mut b = [0; INLINE];
            b[..s.len()].copy_from_slice(s.as_bytes());
            Name::Inline(s.len() as u8, b)
        } else {
            Name::Heap(s.into())
        }
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            // Copied from a `str` whole: always UTF-8.
            Name::Inline(n, b) => std::str::from_utf8(&b[..*n as usize]).unwrap_or_default(),
            Name::Heap(s) => s,
        }
    }
}

/// As the string (as when it was a `String`).
impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// A field path, rendered as Kubernetes renders it: `spec.containers[0].resources.limits[cpu]`.
/// The empty path is the object itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldPath(Vec<PSeg>);

impl FieldPath {
    /// The object itself (renders as the empty string).
    pub fn root() -> FieldPath {
        FieldPath(Vec::new())
    }
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
    /// `rel` taken from this path.
    pub fn join(&self, rel: &FieldPath) -> FieldPath {
        let mut p = self.clone();
        p.0.extend(rel.0.iter().cloned());
        p
    }
    pub fn new(f: &str) -> FieldPath {
        FieldPath(vec![PSeg::Field(Name::new(f))])
    }
    /// This path and one more step (one allocation).
    fn with(&self, seg: PSeg) -> FieldPath {
        let mut v = Vec::with_capacity(self.0.len() + 1);
        v.extend_from_slice(&self.0);
        v.push(seg);
        FieldPath(v)
    }
    pub fn child(&self, f: &str) -> FieldPath {
        self.with(PSeg::Field(Name::new(f)))
    }
    pub fn index(&self, i: usize) -> FieldPath {
        self.with(PSeg::Index(i))
    }
    pub fn key(&self, k: &str) -> FieldPath {
        self.with(PSeg::Key(Name::new(k)))
    }
    pub fn render(&self) -> String {
        let mut s = String::new();
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                PSeg::Field(f) => {
                    if i > 0 {
                        s.push('.');
                    }
                    s.push_str(f);
                }
                PSeg::Index(n) => {
                    let _ = write!(s, "[{n}]");
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
    pub(crate) fn segments(&self) -> &[PSeg] {
        &self.0
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

    /// Short names are held in place, long ones on the heap: both render, compare and print
    /// as the strings they hold.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn short_and_long_names() {
        let long = "example.com/a-label-key-longer-than-the-inline-room";
        let p = FieldPath::new("metadata").child("labels").key(long).index(2).key("app");
        assert_eq!(p.render(), format!("metadata.labels[{long}][2][app]"));
        assert!(matches!(&p.segments()[2], PSeg::Key(Name::Heap(_))));
        assert!(matches!(&p.segments()[4], PSeg::Key(Name::Inline(..))));
        assert_eq!(p, FieldPath::new("metadata").child("labels").key(long).index(2).key("app"));
        assert_ne!(p, FieldPath::new("metadata").child("labels").key(long).index(2).key("ap"));
        assert_eq!(format!("{:?}", p.segments()[4]), r#"Key("app")"#);
        let edge = "x".repeat(INLINE);
        assert_eq!(&*Name::new(&edge), edge);
        assert!(matches!(Name::new(&edge), Name::Inline(..)));
        assert_eq!(&*Name::new(&format!("{edge}y")), format!("{edge}y"));
    }
}
