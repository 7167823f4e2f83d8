//! The scheduling framework: statuses, cycle state, the plugin interface, the working model
//! (PodInfo/NodeInfo) and the per-profile runtime that runs extension points.

pub mod args;
pub mod args_codec;
pub mod config_error;
mod cycle_state;
pub mod explain;
mod fit_error;
mod interface;
pub mod profile;
pub mod registry;
pub mod runtime;
mod status;

pub use crate::model::*;
pub use cycle_state::*;
pub use fit_error::fit_error_message;
pub use interface::*;
pub use runtime::Framework;
pub use status::*;
