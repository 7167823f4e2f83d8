//! Go duration strings (`time.ParseDuration`): `0`, `1500ms`, `2m30s`, `1.5h`, `-3s`. They live
//! in `schedlab-view` (the page writes and reads them too); re-exported here.

pub use schedlab_view::duration::{format_go_duration, parse_go_duration};
