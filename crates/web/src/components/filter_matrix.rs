//! The filter matrix: evaluated nodes (in visiting order) × filter plugins. Filter stops at the
//! first plugin that rejects a node, so later plugins did not run there; nodes not evaluated
//! (enough feasible nodes were found) or excluded by PreFilter are shown as such.

use crate::fmt;
use crate::state::{speed_ms, use_app, CellRef};
use leptos::prelude::*;
use schedlab_core::view::{CycleView, FilterRow, Stage};

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

#[component]
pub fn FilterMatrix(cv: Memo<Option<CycleView>>) -> impl IntoView {
    let st = use_app();
    let fv = Memo::new(move |_| cv.with(|c| c.as_ref().and_then(|c| c.filter.clone())));
    let cycle = Memo::new(move |_| cv.with(|c| c.as_ref().map(|c| c.cycle).unwrap_or(0)));
    let revealing = Memo::new(move |_| cv.with(|c| c.as_ref().is_some_and(|c| c.stage == Stage::Filter)));
    let row_ms = move || (speed_ms(st.speed.get()) / 8).min(140);
    let selected = move |node: u32, plugin: &str| {
        st.cell.with(|c| {
            c.as_ref()
                .is_some_and(|c| !c.score && c.node == node && c.plugin == plugin && c.cycle == cycle.get())
        })
    };
    let summary = move || {
        fv.with(|f| {
            let f = f.as_ref()?;
            let mut s = format!(
                "{} node(s) evaluated, {} feasible (looking for {})",
                f.evaluated, f.feasible, f.num_to_find
            );
            if f.nominated_first {
                s.push_str(" · the nominated node was tried first");
            }
            if let Some(n) = &f.narrowed_to {
                s.push_str(&format!(" · PreFilter narrowed the nodes to {}", n.join(", ")));
            }
            if !f.skipped.is_empty() {
                s.push_str(&format!(" · skipped: {}", f.skipped.join(", ")));
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
                let plugins = f.plugins.clone();
                let skipped = f.skipped.clone();
                let more = f.rows_total as usize - f.rows.len();
                Some(
                    view! {
                        <div class="table-scroll">
                            <table class="matrix" class:revealing=move || revealing.get() style=move || format!("--row-ms: {}ms", row_ms()) aria-label="Filter matrix: nodes by filter plugins">
                                <thead>
                                    <tr>
                                        <th scope="col" class="node-col">"Node"</th>
                                        {plugins
                                            .iter()
                                            .map(|p| view! { <th scope="col" title=p.clone() aria-label=p.clone()>{fmt::plugin_short(p).to_string()}</th> })
                                            .collect_view()}
                                        <th scope="col" class="verdict-col">"Verdict"</th>
                                    </tr>
                                </thead>
                                <tbody>
                                    {f
                                        .rows
                                        .iter()
                                        .enumerate()
                                        .map(|(k, row)| {
                                            let node = row.node;
                                            let name = st.node_name(node);
                                            let cs = cells(row, &plugins, &skipped);
                                            let verdict = if row.feasible {
                                                "✓ feasible".to_string()
                                            } else if let Some(i) = row.failed_at {
                                                format!("✗ {}: {}", plugins[i as usize], row.reasons.join("; "))
                                            } else if row.visit.is_some() {
                                                format!("✗ {}", row.reasons.join("; "))
                                            } else {
                                                format!("— {}", row.note.clone().unwrap_or_default())
                                            };
                                            let evaluated = row.visit.is_some();
                                            let verdict_title = verdict.clone();
                                            let row_class = if row.feasible { "ok" } else if evaluated { "bad" } else { "none" };
                                            view! {
                                                <tr class=format!("mrow {row_class}") style=format!("--i: {k}") data-node=name.clone()>
                                                    <th scope="row" class="node-col">
                                                        <button class="linklike" on:click=move |_| st.set_cell.set(Some(CellRef { cycle: cycle.get_untracked(), node, plugin: String::new(), score: false }))>
                                                            {name.clone()}
                                                        </button>
                                                    </th>
                                                    {if evaluated {
                                                        cs.into_iter()
                                                            .zip(plugins.iter().cloned())
                                                            .map(|(c, p)| {
                                                                let (class, glyph, word) = match c {
                                                                    Cell::Pass => ("pass", "✓", "passed"),
                                                                    Cell::Fail => ("fail", "✗", "rejected"),
                                                                    Cell::NotRun => ("notrun", "·", "did not run"),
                                                                    Cell::Skip => ("skip", "↷", "skipped"),
                                                                };
                                                                let label = format!("{p} on {}: {word}", name);
                                                                let p2 = p.clone();
                                                                view! {
                                                                    <td class=format!("cell {class}") class:selected=move || selected(node, &p2)>
                                                                        <button
                                                                            class="cell-btn"
                                                                            aria-label=label.clone()
                                                                            title=label
                                                                            data-plugin=p.clone()
                                                                            data-cell=class
                                                                            on:click=move |_| st.set_cell.set(Some(CellRef { cycle: cycle.get_untracked(), node, plugin: p.clone(), score: false }))
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
                                                    }}
                                                    <td class="verdict" title=verdict_title>{verdict}</td>
                                                </tr>
                                            }
                                        })
                                        .collect_view()}
                                </tbody>
                            </table>
                            {(more > 0).then(|| view! { <p class="muted more">{format!("… {more} more node(s) not listed")}</p> })}
                        </div>
                    }
                    .into_any(),
                )
            }}
        </div>
    }
}
