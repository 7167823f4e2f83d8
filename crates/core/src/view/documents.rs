//! The YAML documents of a text as JSON values, for a front end that reads the scenario's own
//! objects (the playground's actions: a node to copy, a pod's owner, the timeline's steps)
//! without a YAML parser of its own (the page asks the worker, which calls this).

/// The documents of a text, a `…List`'s items in its place (the loader's `load::documents`;
/// lessons read them too).
pub use crate::load::documents;
