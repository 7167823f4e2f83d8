//! The recent scenarios in the preset list: each scenario of the user's own that something
//! replaced, with its name and time, restorable (`crate::recent`, `AppState::restore_recent`).

use crate::recent;
use crate::state::AppState;
use leptos::prelude::*;

pub use crate::recent::from_option_value;

/// The preset list's group of recent scenarios (none when nothing was kept).
pub fn menu_options(st: AppState) -> Option<AnyView> {
    let items = st.recent.get();
    if items.is_empty() {
        return None;
    }
    let options = items
        .iter()
        .enumerate()
        .map(|(i, k)| view! { <option value=recent::option_value(i) data-recent=i.to_string()>{recent::label(k)}</option> })
        .collect_view();
    Some(view! { <optgroup label="Your recent scenarios (kept when replaced)">{options}</optgroup> }.into_any())
}
