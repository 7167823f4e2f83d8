//! Large clusters: one cell per node, grouped by zone, shaded by the highest share of any
//! resource requested; the current cycle's filtered / feasible / chosen nodes are outlined.
//! Drawn on a canvas so thousands of nodes cost one paint.

use crate::state::{use_app, Theme};
use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Clone, Default)]
struct Layout {
    cell: f64,
    /// (zone label y, first cell y, columns, node indices)
    blocks: Vec<(f64, f64, usize, Vec<u32>)>,
}

const LABEL_H: f64 = 18.0;
const GAP: f64 = 8.0;

fn layout(width: f64, height: f64, zones: &[(String, Vec<u32>)]) -> Layout {
    let mut cell = 16.0;
    while cell > 2.0 {
        let cols = ((width / cell).floor() as usize).max(1);
        let h: f64 = zones
            .iter()
            .map(|(_, n)| LABEL_H + (n.len().div_ceil(cols)) as f64 * cell + GAP)
            .sum();
        if h <= height {
            break;
        }
        cell -= 1.0;
    }
    let cols = ((width / cell).floor() as usize).max(1);
    let mut y = 0.0;
    let mut blocks = Vec::new();
    for (_, nodes) in zones {
        let rows = nodes.len().div_ceil(cols);
        blocks.push((y, y + LABEL_H, cols, nodes.clone()));
        y += LABEL_H + rows as f64 * cell + GAP;
    }
    Layout { cell, blocks }
}

fn shade(pct: u8, dark: bool) -> String {
    // A single-hue ramp (blue → violet → red at the top end), light to saturated.
    let p = pct as f64 / 100.0;
    let hue = 210.0 - 210.0 * p.powf(1.5);
    let (sat, light) = if dark {
        (55.0 + 30.0 * p, 22.0 + 30.0 * p)
    } else {
        (50.0 + 35.0 * p, 92.0 - 45.0 * p)
    };
    format!("hsl({hue:.0}, {sat:.0}%, {light:.0}%)")
}

// Over 150 lines, for a reason: one canvas, its layout, painting and hit-testing share the
// layout kept between paints (`lay`) and the canvas refs; the hover tooltip reads the same.
#[component]
pub fn Heatmap() -> impl IntoView {
    let st = use_app();
    let canvas = NodeRef::<html::Canvas>::new();
    let wrap = NodeRef::<html::Div>::new();
    let (resized, set_resized) = signal(0u32);
    let _ = window_event_listener(ev::resize, move |_| set_resized.update(|r| *r += 1));
    let lay = StoredValue::new_local(Layout::default());
    let (hover, set_hover) = signal(None::<(u32, f64, f64)>);

    let zones = Memo::new(move |_| {
        st.summary.with(|s| {
            let Some(s) = s else { return Vec::new() };
            let m = &s.model;
            let mut out: Vec<(String, Vec<u32>)> = m.zones.iter().map(|z| (z.clone(), Vec::new())).collect();
            for &n in &m.display_order {
                if let Some(e) = out.get_mut(m.nodes[n as usize].zone as usize) {
                    e.1.push(n);
                }
            }
            out.retain(|z| !z.1.is_empty());
            out
        })
    });

    let paint = move |dark: bool, zones: Vec<(String, Vec<u32>)>| {
        let (Some(c), Some(w)) = (canvas.get_untracked(), wrap.get_untracked()) else {
            return;
        };
        let width = (w.client_width() as f64 - 4.0).max(100.0);
        let height = (w.client_height() as f64 - 4.0).max(100.0);
        let l = layout(width, height, &zones);
        let dpr = window().device_pixel_ratio().max(1.0);
        let total_h = l
            .blocks
            .last()
            .map(|b| b.1 + (b.3.len().div_ceil(b.2)) as f64 * l.cell)
            .unwrap_or(0.0)
            + 4.0;
        c.set_width((width * dpr) as u32);
        c.set_height((total_h * dpr) as u32);
        let _ = web_sys::HtmlElement::style(&c).set_property("width", &format!("{width}px"));
        let _ = web_sys::HtmlElement::style(&c).set_property("height", &format!("{total_h}px"));
        let Ok(Some(ctx)) = c.get_context("2d") else { return };
        let Ok(ctx) = ctx.dyn_into::<web_sys::CanvasRenderingContext2d>() else {
            return;
        };
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        ctx.clear_rect(0.0, 0.0, width, total_h);
        st.frame.with_untracked(|f| {
            let Some(f) = f else { return };
            let fg = if dark { "#e6e8ee" } else { "#1d2330" };
            ctx.set_font("600 12px system-ui, sans-serif");
            for ((ly, cy, cols, nodes), (zname, _)) in l.blocks.iter().zip(&zones) {
                ctx.set_fill_style_str(fg);
                let used: Vec<u8> = nodes.iter().map(|&n| f.heat.get(n as usize).copied().unwrap_or(0)).collect();
                let avg = if used.is_empty() {
                    0.0
                } else {
                    used.iter().map(|&u| u as f64).sum::<f64>() / used.len() as f64
                };
                let label = format!(
                    "{} — {}, {:.0}% average use",
                    if zname.is_empty() { "no zone" } else { zname },
                    crate::fmt::count(nodes.len(), "node"),
                    avg
                );
                let _ = ctx.fill_text(&label, 0.0, ly + 13.0);
                let gap = if l.cell >= 6.0 { 1.0 } else { 0.0 };
                // One fill style per 5% band (setting a style parses a CSS colour).
                let mut bands: Vec<Vec<usize>> = vec![Vec::new(); 21];
                for (k, &n) in nodes.iter().enumerate() {
                    let pct = f.heat.get(n as usize).copied().unwrap_or(0).min(100);
                    bands[(pct as usize + 2) / 5].push(k);
                }
                for (b, ks) in bands.iter().enumerate() {
                    if ks.is_empty() {
                        continue;
                    }
                    ctx.set_fill_style_str(&shade((b * 5) as u8, dark));
                    // Without gaps, neighbours in a row of one band are one rectangle (a call
                    // into the canvas each costs more than the drawing).
                    let mut i = 0;
                    while i < ks.len() {
                        let k = ks[i];
                        let mut run = 1;
                        while gap == 0.0 && i + run < ks.len() && ks[i + run] == k + run && (k + run) % cols != 0 {
                            run += 1;
                        }
                        let x = (k % cols) as f64 * l.cell;
                        let y = cy + (k / cols) as f64 * l.cell;
                        ctx.fill_rect(x, y, run as f64 * l.cell - gap, l.cell - gap);
                        i += run;
                    }
                }
                // Marks on top: chosen (gold), feasible (green), filtered (red).
                if !f.marks.is_empty() {
                    for (k, &n) in nodes.iter().enumerate() {
                        let m = f.marks.get(n as usize).copied().unwrap_or(0);
                        if m == 0 {
                            continue;
                        }
                        let x = (k % cols) as f64 * l.cell;
                        let y = cy + (k / cols) as f64 * l.cell;
                        let (color, lw) = match m {
                            3 => ("#d4a000", 3.0),
                            2 => ("#1f9d55", 1.5),
                            _ => ("#d64545", 1.0),
                        };
                        ctx.set_stroke_style_str(color);
                        ctx.set_line_width(lw);
                        ctx.stroke_rect(x + 0.5, y + 0.5, (l.cell - 2.0).max(1.0), (l.cell - 2.0).max(1.0));
                    }
                }
            }
        });
        lay.set_value(l);
    };

    crate::paint::each_frame(
        move || {
            resized.track();
            st.theme.track();
            zones.track();
            st.frame.track();
        },
        move || paint(st.theme.get_untracked() == Theme::Dark, zones.get_untracked()),
    );

    let on_move = move |e: web_sys::MouseEvent| {
        let x = e.offset_x() as f64;
        let y = e.offset_y() as f64;
        let hit = lay.with_value(|l| {
            for (_, cy, cols, nodes) in &l.blocks {
                if y < *cy {
                    continue;
                }
                let row = ((y - cy) / l.cell).floor() as usize;
                let col = (x / l.cell).floor() as usize;
                if col >= *cols {
                    return None;
                }
                if let Some(&n) = nodes.get(row * cols + col) {
                    return Some(n);
                }
            }
            None
        });
        set_hover.set(hit.map(|n| (n, x, y)));
    };
    let tip = move || {
        let (n, x, y) = hover.get()?;
        let name = st.node_name(n);
        let (pct, mark) = st.frame.with(|f| {
            f.as_ref()
                .map(|f| {
                    (
                        f.heat.get(n as usize).copied().unwrap_or(0),
                        f.marks.get(n as usize).copied().unwrap_or(0),
                    )
                })
                .unwrap_or((0, 0))
        });
        let role = match mark {
            3 => " · ★ chosen",
            2 => " · ✓ feasible",
            1 => " · ✗ filtered out",
            _ => "",
        };
        Some(view! {
            <div class="heat-tip" style:left=format!("{}px", x + 14.0) style:top=format!("{}px", y + 8.0)>
                <strong>{name}</strong>
                {format!(" · {pct}% used{role}")}
            </div>
        })
    };
    view! {
        <div class="heatmap" node_ref=wrap>
            <div class="heat-legend muted">
                "Each cell is a node; shade = highest share of any resource requested. Outline: "
                <span class="mk chosen">"★ chosen"</span>
                <span class="mk feasible">"✓ feasible"</span>
                <span class="mk filtered">"✗ filtered"</span>
            </div>
            <div class="heat-canvas-wrap">
                <canvas
                    node_ref=canvas
                    role="img"
                    aria-label=move || {
                        st.summary.with(|s| format!("Utilisation heatmap of {}", crate::fmt::count(s.as_ref().map(|s| s.model.nodes.len()).unwrap_or(0), "node")))
                    }
                    on:mousemove=on_move
                    on:mouseleave=move |_| set_hover.set(None)
                ></canvas>
                {tip}
            </div>
        </div>
    }
}
