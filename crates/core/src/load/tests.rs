//! Table-driven tests of loading: error positions and texts, defaulting, hostile input.
