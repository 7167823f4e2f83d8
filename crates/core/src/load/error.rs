//! Load errors: where (file, line, column), what (object, field) and why, worded like kubectl's.

use std::fmt;

/// What kind of problem an error reports; decides how it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum ErrorReason {
    /// The input is not readable YAML/JSON (or is too large, or not UTF-8).
    Syntax,
    /// A document is not an object of a kind the simulator accepts.
    Kind,
    /// The object does not decode: unknown field, wrong type.
    Decode,
    /// The object decodes but fails the apiserver's validation (`field` says where).
    #[default]
    Invalid,
    /// Admission or cross-object checks: duplicates, a missing PriorityClass, ...
    Rejected,
    /// A CEL expression (a DRA device selector, the `schedlab.dev/CEL` plugin's args) in a
    /// build without the CEL interpreter (the `cel` feature off: the playground's light worker).
    /// Not a fault of the scenario: the full engine loads it. When present, the list holds only
    /// these (`LoadErrors::needs_cel`): the full engine judges the rest.
    NeedsCel,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadError {
    /// 1-based; 0 when unknown.
    pub line: usize,
    /// 1-based; 0 when unknown.
    pub column: usize,
    /// `Kind/name` of the object, when known.
    pub object: Option<String>,
    /// Field path such as `spec.containers[0].resources.requests[cpu]`.
    pub field: Option<String>,
    /// The explanation. For `Invalid` errors, what follows the field path in kubectl's
    /// `The Pod "web" is invalid: <field>: <message>`; otherwise the whole explanation.
    pub message: String,
    pub reason: ErrorReason,
    /// Index of the object among the scenario's objects, when the error concerns one.
    pub document: Option<usize>,
}

impl LoadError {
    pub fn at(line: usize, column: usize, message: String) -> LoadError {
        LoadError {
            line,
            column,
            object: None,
            field: None,
            message,
            reason: ErrorReason::Invalid,
            document: None,
        }
    }

    pub(crate) fn with_reason(mut self, reason: ErrorReason) -> LoadError {
        self.reason = reason;
        self
    }

    /// The object's kind and name, from `object`.
    fn kind_name(&self) -> Option<(&str, &str)> {
        self.object.as_deref().map(|o| o.split_once('/').unwrap_or((o, "")))
    }
}

/// All errors found in one input.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LoadErrors {
    pub file: String,
    pub errors: Vec<LoadError>,
}

/// Errors kept per input; past this the list ends with a note.
pub const MAX_ERRORS: usize = 200;

impl LoadErrors {
    pub fn new(file: &str) -> LoadErrors {
        LoadErrors {
            file: file.to_string(),
            errors: Vec::new(),
        }
    }
    pub fn push(&mut self, e: LoadError) {
        self.errors.push(e);
    }
    /// Whether the scenario holds CEL this build cannot evaluate (`ErrorReason::NeedsCel`):
    /// never in a build with the `cel` feature.
    pub fn needs_cel(&self) -> bool {
        self.errors.iter().any(|e| e.reason == ErrorReason::NeedsCel)
    }
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }
    /// Sorts by position (stable, so errors at one place keep their order) and caps the list.
    pub(crate) fn finish(&mut self) {
        if self.needs_cel() {
            self.errors.retain(|e| e.reason == ErrorReason::NeedsCel);
        }
        crate::sort::sort_by_key(&mut self.errors, |e| (e.line == 0, e.line, e.column));
        self.errors.dedup();
        if self.errors.len() > MAX_ERRORS {
            let more = self.errors.len() - MAX_ERRORS;
            self.errors.truncate(MAX_ERRORS);
            self.errors
                .push(LoadError::at(0, 0, format!("{more} more errors not shown")).with_reason(ErrorReason::Syntax));
        }
    }
}

impl fmt::Display for LoadError {
    /// The explanation as kubectl would word it (without the position).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.reason, self.kind_name()) {
            (ErrorReason::Invalid, Some((kind, name))) => {
                write!(f, "The {kind} {name:?} is invalid: ")?;
                match self.field.as_deref() {
                    Some(p) if !p.is_empty() => write!(f, "{p}: {}", self.message),
                    _ => f.write_str(&self.message),
                }
            }
            (ErrorReason::Invalid, None) => match self.field.as_deref() {
                Some(p) if !p.is_empty() => write!(f, "{p}: {}", self.message),
                _ => f.write_str(&self.message),
            },
            _ => f.write_str(&self.message),
        }
    }
}

impl fmt::Display for LoadErrors {
    /// One line per error: `error: FILE:LINE:COLUMN: explanation`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            if e.line > 0 {
                write!(f, "error: {}:{}:{}: {}", self.file, e.line, e.column, e)?;
            } else {
                write!(f, "error: {}: {}", self.file, e)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}
