//! What kube-scheduler takes from Go and apimachinery, below every layer that uses it: field
//! paths (`field.Path`), the name and label checks (`util/validation`), the strict JSON decoding
//! the loader and the configuration share (unknown fields noted, field paths in its errors), and
//! Go's quoting, JSON printing and durations. Imports nothing of the crate.

pub mod field_path;
pub mod golang;
pub mod json;
pub mod names;

pub use field_path::FieldPath;
