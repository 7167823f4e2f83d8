//! Links from an answer to the cells it summarises: a click moves the playhead to the cell's
//! cycle (its Filter or Score stop) and explains the cell.

use crate::player::{CellRef, Intent};
use crate::state::AppState;
use leptos::prelude::*;
use schedlab_view::answer;
use schedlab_view::view::Stage;

/// Selects a cell an answer summarises: its cycle's stop, and the cell's explanation.
pub fn go_to_cell(st: AppState, c: &answer::CellRef) {
    let score = c.point == "Score";
    let node = st.summary.with_untracked(|s| {
        s.as_ref().and_then(|s| s.model.nodes.iter().position(|n| n.name == c.node))
    });
    st.pause_at(crate::player::Seek::At(c.cycle, Some(if score { Stage::Score } else { Stage::Filter })));
    if let Some(node) = node {
        st.set_anchor.set(None);
        st.act(Intent::Explain(CellRef { cycle: c.cycle, node: node as u32, plugin: c.plugin.clone(), score }));
    }
}

/// Links to the cells an answer summarises.
pub fn cell_links(st: AppState, cells: Vec<answer::CellRef>) -> impl IntoView {
    (!cells.is_empty()).then(|| {
        let links = cells
            .into_iter()
            .map(|c| {
                let label = format!("{} × {} (cycle {}, {})", c.plugin, c.node, c.cycle, c.point);
                view! { <button class="linklike cell-link" data-cycle=c.cycle on:click=move |_| go_to_cell(st, &c)>{label}</button> }
            })
            .collect_view();
        view! { <span class="cell-links">"Cells: "{links}</span> }
    })
}

