//! The score table: feasible nodes × score plugins, raw → normalized → × weight, and totals;
//! the winner and any tie highlighted. At the Score phase only the raw scores are shown.

use crate::components::filter_matrix::{window, ROW_H, VIRTUAL_FROM};
use crate::state::{use_app, AppState, CellRef};
use leptos::prelude::*;
use schedlab_view::view::{CycleView, ScoreRow, Stage};
use std::sync::Arc;

fn score_row(st: AppState, cycle: Memo<u32>, r: &ScoreRow, plugins: &Arc<Vec<(String, i64)>>, raw: bool) -> impl IntoView {
    let node = r.node;
    let name = st.node_name(node);
    let class = if r.selected {
        "winner"
    } else if r.tied {
        "tie"
    } else {
        ""
    };
    let selected = move |plugin: &str| {
        st.cell.with(|c| {
            c.as_ref()
                .is_some_and(|c| c.score && c.node == node && c.plugin == plugin && c.cycle == cycle.get())
        })
    };
    let cells = plugins
        .iter()
        .enumerate()
        .map(|(i, (p, w))| {
            let (raw_v, norm, weighted) = (r.raw[i], r.normalized[i], r.weighted[i]);
            let label = if raw {
                format!("{p} on {name}: raw {raw_v}")
            } else {
                format!("{p} on {name}: raw {raw_v}, normalized {norm}, × {w} = {weighted}")
            };
            let p2 = p.clone();
            let p3 = p.clone();
            view! {
                <td class="cell score" class:selected=move || selected(&p2)>
                    <button
                        class="cell-btn"
                        aria-label=label.clone()
                        title=label
                        data-plugin=p.clone()
                        data-raw=raw_v.to_string()
                        data-normalized=norm.to_string()
                        data-weighted=weighted.to_string()
                        on:click=move |e| st.select_cell(CellRef { cycle: cycle.get_untracked(), node, plugin: p3.clone(), score: true }, &e)
                    >
                        {if raw {
                            view! { <span class="big">{raw_v}</span> }.into_any()
                        } else {
                            view! {
                                <span class="big">{weighted}</span>
                                <span class="flow">{format!("{raw_v}→{norm}")}</span>
                            }
                            .into_any()
                        }}
                    </button>
                </td>
            }
        })
        .collect_view();
    view! {
        <tr class=format!("srow {class}") data-node=name.clone() data-total=r.total.to_string()>
            <th scope="row" class="node-col">
                <button class="linklike" on:click=move |e| st.select_cell(CellRef { cycle: cycle.get_untracked(), node, plugin: String::new(), score: true }, &e)>
                    {name.clone()}
                </button>
                {r.selected.then(|| view! { <span class="star" aria-label="chosen">" ★"</span> })}
                {(r.tied && !r.selected).then(|| view! { <span class="tie-badge">"tie"</span> })}
                {(r.tied && r.selected).then(|| view! { <span class="tie-badge">"tie, drawn"</span> })}
            </th>
            {cells}
            <td class="total">{if raw { "…".to_string() } else { r.total.to_string() }}</td>
        </tr>
    }
}

#[component]
pub fn ScoreTable(cv: Memo<Option<CycleView>>) -> impl IntoView {
    let st = use_app();
    let sv = Memo::new(move |_| cv.with(|c| c.as_ref().and_then(|c| c.score.clone())));
    let cycle = Memo::new(move |_| cv.with(|c| c.as_ref().map(|c| c.cycle).unwrap_or(0)));
    let raw_only = Memo::new(move |_| cv.with(|c| c.as_ref().is_some_and(|c| c.stage == Stage::Score)));
    let (scroll_top, set_scroll_top) = signal(0.0f64);
    view! {
        <div class="score-wrap">
            <h3 class="box-title">
                {move || if raw_only.get() { "Score (raw)" } else { "Score → NormalizeScore → × weight" }}
                <span class="muted small">
                    {move || {
                        sv.with(|s| {
                            let s = s.as_ref()?;
                            if s.single_feasible {
                                return Some("one feasible node: it is chosen without scoring".to_string());
                            }
                            let mut t = format!("{} scored", crate::fmt::count(s.rows_total as usize, "node"));
                            if !s.skipped.is_empty() {
                                t.push_str(&format!(" · skipped at PreScore: {}", s.skipped.join(", ")));
                            }
                            if s.tied.len() > 1 {
                                t.push_str(&format!(" · {} nodes tie: one is picked at random (seeded)", s.tied.len()));
                            }
                            Some(t)
                        })
                    }}
                </span>
            </h3>
            {move || {
                let s = sv.get()?;
                if s.single_feasible {
                    let name = st.node_name(s.selected);
                    return Some(view! { <p class="single">"★ "<strong>{name}</strong>" is the only feasible node."</p> }.into_any());
                }
                if !s.detail {
                    let name = st.node_name(s.selected);
                    return Some(
                        view! {
                            <p class="muted">
                                "Chosen: "<strong>{name}</strong>". The per-node table was not recorded for this large run; pause to recover it."
                            </p>
                        }
                        .into_any(),
                    );
                }
                let raw = raw_only.get();
                let mut rows = s.rows.clone();
                if !raw {
                    rows.sort_by(|a, b| b.total.cmp(&a.total).then(a.node.cmp(&b.node)));
                }
                let plugins = Arc::new(s.plugins.clone());
                let head = plugins.clone();
                let rows = Arc::new(rows);
                let n = rows.len();
                let body = move || {
                    let (a, b) = window(scroll_top.get(), n);
                    let top = a as f64 * ROW_H;
                    let bottom = (n - b) as f64 * ROW_H;
                    view! {
                        {(top > 0.0).then(|| view! { <tr class="spacer" style=format!("height: {top}px")></tr> })}
                        {rows[a..b].iter().map(|r| score_row(st, cycle, r, &plugins, raw)).collect_view()}
                        {(bottom > 0.0).then(|| view! { <tr class="spacer" style=format!("height: {bottom}px")></tr> })}
                    }
                };
                Some(
                    view! {
                        <div class="table-scroll" on:scroll=move |e| set_scroll_top.set(event_target::<web_sys::Element>(&e).scroll_top() as f64)>
                            <table class="scores" class:virtual={n > VIRTUAL_FROM} aria-label="Score table: nodes by score plugins" aria-rowcount=(n + 1).to_string()>
                                <thead>
                                    <tr>
                                        <th scope="col" class="node-col">"Node"</th>
                                        {head
                                            .iter()
                                            .map(|(p, w)| {
                                                let title = format!("{p} (weight {w})");
                                                view! {
                                                    <th scope="col" title=title.clone() aria-label=title>
                                                        {st.plugin_short(p)}
                                                        <span class="weight">{format!("×{w}")}</span>
                                                    </th>
                                                }
                                            })
                                            .collect_view()}
                                        <th scope="col" class="total-col">"Total"</th>
                                    </tr>
                                </thead>
                                <tbody>{body}</tbody>
                            </table>
                        </div>
                    }
                    .into_any(),
                )
            }}
        </div>
    }
}
