//! The filter matrix: evaluated nodes (in visiting order) × filter plugins. Filter stops at the
//! first plugin that rejects a node, so later plugins did not run there; nodes not evaluated
//! (enough feasible nodes were found) or excluded by PreFilter are shown as such. Long tables
//! render only the rows in view.

use crate::state::{speed_ms, use_app, AppState, CellRef};
use leptos::prelude::*;
use schedlab_view::view::{CycleView, FilterRow, Stage};
use std::sync::Arc;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Pass,
    Fail,
    NotRun,
    Skip,
}

fn cells(row: &FilterRow, plugins: &[String], skipped: &[String]) -> Vec<Cell> {
    plugins
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if skipped.contains(p) {
                return Cell::Skip;
            }
            match row.failed_at {
                Some(f) if (i as u32) < f => Cell::Pass,
                Some(f) if i as u32 == f => Cell::Fail,
                Some(_) => Cell::NotRun,
                None if row.feasible => Cell::Pass,
                None => Cell::NotRun,
            }
        })
        .collect()
}

/// Row height of virtualised tables (px, as in the stylesheet).
pub const ROW_H: f64 = 26.0;
/// Tables longer than this render only the rows in view.
pub const VIRTUAL_FROM: usize = 60;
const WINDOW: usize = 40;

/// The rows to render for a scroll position: (first, end).
pub fn window(scroll_top: f64, n: usize) -> (usize, usize) {
    if n <= VIRTUAL_FROM {
        return (0, n);
    }
    let first = ((scroll_top / ROW_H) as usize).saturating_sub(8).min(n);
    (first, (first + WINDOW).min(n))
}

fn row_view(st: AppState, cycle: Memo<u32>, k: usize, row: &FilterRow, plugins: &Arc<Vec<String>>, skipped: &[String]) -> impl IntoView {
    let node = row.node;
    let name = st.node_name(node);
    let cs = cells(row, plugins, skipped);
    let verdict = if row.feasible {
        "✓ feasible".to_string()
    } else if let Some(i) = row.failed_at {
        format!("✗ {}: {}", st.plugin_short(&plugins[i as usize]), row.reasons.join("; "))
    } else if row.visit.is_some() {
        format!("✗ {}", row.reasons.join("; "))
    } else {
        format!("— {}", row.note.clone().unwrap_or_default())
    };
    let verdict_title = verdict.clone();
    let evaluated = row.visit.is_some();
    let row_class = if row.feasible {
        "ok"
    } else if evaluated {
        "bad"
    } else {
        "none"
    };
    let selected = move |plugin: &str| {
        st.cell.with(|c| {
            c.as_ref()
                .is_some_and(|c| !c.score && c.node == node && c.plugin == plugin && c.cycle == cycle.get())
        })
    };
    let plugin_cells = if evaluated {
        cs.into_iter()
            .zip(plugins.iter().cloned())
            .map(|(c, p)| {
                let (class, glyph, word) = match c {
                    Cell::Pass => ("pass", "✓", "passed"),
                    Cell::Fail => ("fail", "✗", "rejected"),
                    Cell::NotRun => ("notrun", "·", "did not run"),
                    Cell::Skip => ("skip", "↷", "skipped"),
                };
                let label = format!("{p} on {name}: {word}");
                let p2 = p.clone();
                view! {
                    <td class=format!("cell {class}") class:selected=move || selected(&p2)>
                        <button
                            class="cell-btn"
                            aria-label=label.clone()
                            title=label
                            data-plugin=p.clone()
                            data-cell=class
                            on:click=move |e| st.select_cell(CellRef { cycle: cycle.get_untracked(), node, plugin: p.clone(), score: false }, &e)
                        >
                            {glyph}
                        </button>
                    </td>
                }
            })
            .collect_view()
            .into_any()
    } else {
        view! { <td class="cell none" colspan=plugins.len().to_string() data-cell="none">"not evaluated"</td> }.into_any()
    };
    view! {
        <tr class=format!("mrow {row_class}") style=format!("--i: {}", k.min(30)) data-node=name.clone()>
            <th scope="row" class="node-col">
                <button class="linklike" on:click=move |e| st.select_cell(CellRef { cycle: cycle.get_untracked(), node, plugin: String::new(), score: false }, &e)>
                    {name.clone()}
                </button>
            </th>
            {plugin_cells}
            <td class="verdict" title=verdict_title>{verdict}</td>
        </tr>
    }
}

#[component]
pub fn FilterMatrix(cv: Memo<Option<CycleView>>) -> impl IntoView {
    let st = use_app();
    let fv = Memo::new(move |_| cv.with(|c| c.as_ref().and_then(|c| c.filter.clone())));
    let cycle = Memo::new(move |_| cv.with(|c| c.as_ref().map(|c| c.cycle).unwrap_or(0)));
    let revealing = Memo::new(move |_| cv.with(|c| c.as_ref().is_some_and(|c| c.stage == Stage::Filter)));
    let row_ms = move || (speed_ms(st.speed.get()) / 8).min(140);
    let (scroll_top, set_scroll_top) = signal(0.0f64);
    let summary = move || {
        fv.with(|f| {
            let f = f.as_ref()?;
            let mut s = format!("{} evaluated, {} feasible (looking for {})", f.evaluated, f.feasible, f.num_to_find);
            if f.nominated_first {
                s.push_str(" · the nominated node was tried first");
            }
            if let Some(n) = &f.narrowed_to {
                s.push_str(&format!(" · PreFilter narrowed the nodes to {}", n.join(", ")));
            }
            if !f.skipped.is_empty() {
                s.push_str(" · ↷ = nothing to check for this pod");
            }
            Some(s)
        })
    };
    view! {
        <div class="matrix-wrap">
            <h3 class="box-title">
                "Filter"
                <span class="muted small">{summary}</span>
            </h3>
            {move || {
                let f = fv.get()?;
                if !f.detail {
                    return Some(
                        view! {
                            <p class="muted">
                                "Per-node verdicts were not recorded for this large run. Pause to have the worker recover them (it re-runs the scenario up to this cycle)."
                            </p>
                        }
                        .into_any(),
                    );
                }
                let plugins = Arc::new(f.plugins.clone());
                let skipped = Arc::new(f.skipped.clone());
                let rows = Arc::new(f.rows.clone());
                let n = rows.len();
                let more = f.rows_total as usize - n;
                let head_plugins = plugins.clone();
                let body = move || {
                    let (a, b) = window(scroll_top.get(), n);
                    let top = a as f64 * ROW_H;
                    let bottom = (n - b) as f64 * ROW_H;
                    view! {
                        {(top > 0.0).then(|| view! { <tr class="spacer" style=format!("height: {top}px")></tr> })}
                        {rows[a..b].iter().enumerate().map(|(i, r)| row_view(st, cycle, a + i, r, &plugins, &skipped)).collect_view()}
                        {(bottom > 0.0).then(|| view! { <tr class="spacer" style=format!("height: {bottom}px")></tr> })}
                    }
                };
                Some(
                    view! {
                        <div class="table-scroll" on:scroll=move |e| set_scroll_top.set(event_target::<web_sys::Element>(&e).scroll_top() as f64)>
                            <table
                                class="matrix"
                                class:revealing=move || revealing.get() && n <= VIRTUAL_FROM
                                class:virtual={n > VIRTUAL_FROM}
                                style=move || format!("--row-ms: {}ms", row_ms())
                                aria-label="Filter matrix: nodes by filter plugins"
                                aria-rowcount=(n + 1).to_string()
                            >
                                <thead>
                                    <tr>
                                        <th scope="col" class="node-col">"Node"</th>
                                        {head_plugins
                                            .iter()
                                            .map(|p| view! { <th scope="col" class="plugin-col" title=p.clone() aria-label=p.clone()><span>{st.plugin_short(p)}</span></th> })
                                            .collect_view()}
                                        <th scope="col" class="verdict-col">"Verdict"</th>
                                    </tr>
                                </thead>
                                <tbody>{body}</tbody>
                            </table>
                            {(more > 0).then(|| view! { <p class="muted more">{format!("… {} more not listed", crate::fmt::count(more, "node"))}</p> })}
                        </div>
                    }
                    .into_any(),
                )
            }}
        </div>
    }
}
