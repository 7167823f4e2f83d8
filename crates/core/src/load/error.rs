//! Load errors: where (file, line, column), what (object, field) and why.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadError {
    /// 1-based; 0 when unknown.
    pub line: usize,
    /// 1-based; 0 when unknown.
    pub column: usize,
    /// `Kind/name` of the object, when known.
    pub object: Option<String>,
    /// Field path such as `spec.containers[0].resources.requests.cpu`.
    pub field: Option<String>,
    pub message: String,
}

impl LoadError {
    pub fn at(line: usize, column: usize, message: String) -> LoadError {
        LoadError {
            line,
            column,
            object: None,
            field: None,
            message,
        }
    }
}

/// All errors found in one input.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LoadErrors {
    pub file: String,
    pub errors: Vec<LoadError>,
}

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
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = &self.object {
            write!(f, "{o}: ")?;
        }
        if let Some(p) = &self.field {
            if !p.is_empty() && p != "." {
                write!(f, "{p}: ")?;
            }
        }
        f.write_str(&self.message)
    }
}

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {}:{}:{}: {}", self.file, e.line, e.column, e)?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}
