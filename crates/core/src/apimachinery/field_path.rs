//! Field paths as apimachinery's `field.Path` renders them: `spec.containers[0].resources.limits[cpu]`.
//! Object validation, the configuration's field errors and the plugins' args point at fields
//! with them; the loader maps one back to a line and column of the file.

use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PSeg {
    Field(String),
    Index(usize),
    Key(String),
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
        FieldPath(vec![PSeg::Field(f.to_string())])
    }
    pub fn child(&self, f: &str) -> FieldPath {
        let mut p = self.clone();
        p.0.push(PSeg::Field(f.to_string()));
        p
    }
    pub fn index(&self, i: usize) -> FieldPath {
        let mut p = self.clone();
        p.0.push(PSeg::Index(i));
        p
    }
    pub fn key(&self, k: &str) -> FieldPath {
        let mut p = self.clone();
        p.0.push(PSeg::Key(k.to_string()));
        p
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
                    let _ = write!(s, "[{k}]");
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
