//! The FailedScheduling message of a FitError, used by the engine's failure handling and by
//! DefaultPreemption.

use super::NodeToStatus;
use std::collections::BTreeMap;

/// The FailedScheduling message of a FitError (upstream FitError.Error()).
pub fn fit_error_message(num_all: usize, pre_filter_msg: &str, diagnosis: &NodeToStatus, post_filter_msg: &str) -> String {
    let mut msg = format!("0/{num_all} nodes are available:");
    if !pre_filter_msg.is_empty() {
        msg.push_str(&format!(" {pre_filter_msg}."));
    } else {
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        for s in diagnosis.values() {
            for r in &s.reasons {
                *reasons.entry(r).or_insert(0) += 1;
            }
        }
        if diagnosis.len() < num_all {
            for r in &diagnosis.absent.reasons {
                *reasons.entry(r).or_insert(0) += num_all - diagnosis.len();
            }
        }
        let mut parts: Vec<String> = reasons.into_iter().map(|(r, n)| format!("{n} {r}")).collect();
        crate::sort::sort(&mut parts);
        if !parts.is_empty() {
            msg.push_str(&format!(" {}.", parts.join(", ")));
        }
    }
    if !post_filter_msg.is_empty() {
        msg.push_str(&format!(" {post_filter_msg}"));
    }
    msg
}
