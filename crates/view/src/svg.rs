//! The playground's two pictures as standalone SVG, for slides (`schedlab export --what svg`,
//! the page's Export menu; the CLI rasterizes the same text to PNG, the page through a canvas):
//! the cluster view (nodes by zone, each with its used/allocatable bars and its pods) and the
//! cycle view (a cycle's filter matrix and score table), both at one frame. Pure: view data in,
//! text out; fixed light colours and a generic sans-serif font, sizes in pixels.

use crate::view::{format_amount, CycleView, Frame, Model};
use std::fmt::Write;

const FONT: &str = "DejaVu Sans, Arial, Helvetica, sans-serif";
const INK: &str = "#1f2937";
const MUTED: &str = "#6b7280";
const LINE: &str = "#d1d5db";
const PASS: &str = "#15803d";
const FAIL: &str = "#b91c1c";
const CHIP: &str = "#dbeafe";
const PAD: u32 = 16;
/// Roughly the advance of one character at 12 px in a sans-serif font.
const CHAR_W: f64 = 7.0;

/// Escapes text for an SVG text node or attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Cuts `s` to about `width` pixels, marking the cut with an ellipsis.
fn fit(s: &str, width: f64) -> String {
    let max = (width / CHAR_W).max(2.0) as usize;
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('…');
        t
    }
}

/// An SVG picture being drawn.
struct Canvas {
    body: String,
}

impl Canvas {
    fn text(&mut self, x: f64, y: f64, size: u32, fill: &str, weight: &str, s: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{fill}" font-weight="{weight}">{}</text>"#,
            escape(s)
        );
    }
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="3" fill="{fill}" stroke="{stroke}"/>"#
        );
    }
    fn finish(self, width: u32, height: u32, title: &str) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"{FONT}\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{}</svg>\n",
            escape(title),
            self.body
        )
    }
}

const CARD_W: u32 = 240;
const CARDS_PER_ROW: usize = 4;
const CHIPS_SHOWN: usize = 8;

/// The cluster at `frame`: each zone's nodes (in the page's display order) with a bar per
/// resource the node allocates or something on it requests (`NodeModel::bars`: used of
/// allocatable) and its pods; a large cluster (no per-node
/// detail) as its heatmap. `title` heads the picture (the scenario's name, say).
pub fn cluster_svg(model: &Model, frame: &Frame, title: &str) -> String {
    let mut c = Canvas { body: String::new() };
    let heading = format!(
        "{title} · cluster at cycle {} · {} running, {} pending",
        frame.cycle, frame.running, frame.pending
    );
    c.text(PAD as f64, 26.0, 16, INK, "bold", &heading);
    let mut y = 44.0;
    let widest_zone = (0..model.zones.len().max(1))
        .map(|z| model.nodes.iter().filter(|n| n.zone as usize == z).count())
        .max()
        .unwrap_or(0)
        .clamp(1, CARDS_PER_ROW) as u32;
    let title_w = (heading.chars().count() as f64 * CHAR_W * 16.0 / 12.0) as u32 + PAD * 2;
    let width = (PAD * 2 + 110 + widest_zone * (CARD_W + 10)).max(title_w);
    if frame.nodes.is_empty() {
        // A large cluster: one square per node, shaded by its fullest resource.
        let per_row = 60usize;
        for (i, &h) in frame.heat.iter().enumerate() {
            let (col, row) = (i % per_row, i / per_row);
            let shade = 255 - (h.min(100) as u32 * 2);
            let fill = format!("rgb({shade},{shade},255)");
            c.rect(PAD as f64 + col as f64 * 14.0, y + row as f64 * 14.0, 12.0, 12.0, &fill, LINE);
        }
        let rows = frame.heat.len().div_ceil(per_row) as f64;
        let h = y + rows * 14.0 + PAD as f64;
        return c.finish(width.max(PAD * 2 + 60 * 14), h as u32, &heading);
    }
    // The bars each node shows (`NodeModel::bars`, as the page), of the model's columns.
    let bars = |n: usize| -> Vec<usize> {
        let b = model.nodes[n].bars(&frame.nodes[n]);
        b.into_iter().filter(|&r| r < model.resources.len()).collect()
    };
    let card_h = |n: usize| -> f64 {
        let chip_rows = frame.nodes[n].pods.len().min(CHIPS_SHOWN + 1).div_ceil(2) as f64;
        30.0 + bars(n).len() as f64 * 18.0 + chip_rows * 20.0 + 8.0
    };
    for (zi, zone) in model.zones.iter().enumerate() {
        let nodes: Vec<u32> = model
            .display_order
            .iter()
            .copied()
            .filter(|&n| model.nodes.get(n as usize).is_some_and(|m| m.zone as usize == zi))
            .filter(|&n| frame.nodes.get(n as usize).is_some_and(|l| !l.absent))
            .collect();
        if nodes.is_empty() {
            continue;
        }
        let zone_name = if zone.is_empty() { "(no zone)" } else { zone.as_str() };
        c.text(PAD as f64, y + 18.0, 13, MUTED, "bold", &fit(zone_name, 100.0));
        for row in nodes.chunks(CARDS_PER_ROW) {
            let h = row
                .iter()
                .map(|&n| card_h(n as usize))
                .fold(0.0, f64::max);
            for (k, &n) in row.iter().enumerate() {
                let x = (PAD + 110) as f64 + k as f64 * (CARD_W + 10) as f64;
                node_card(&mut c, model, frame, n as usize, x, y, h, &bars(n as usize));
            }
            y += h + 10.0;
        }
        y += 6.0;
    }
    c.finish(width, (y + PAD as f64) as u32, &heading)
}

#[allow(clippy::too_many_arguments)]
fn node_card(c: &mut Canvas, model: &Model, frame: &Frame, n: usize, x: f64, y: f64, h: f64, resources: &[usize]) {
    let (node, live) = (&model.nodes[n], &frame.nodes[n]);
    let w = CARD_W as f64;
    c.rect(x, y, w, h, "#f9fafb", LINE);
    let mark = if live.unschedulable { " (cordoned)" } else { "" };
    c.text(x + 8.0, y + 18.0, 13, INK, "bold", &fit(&format!("{}{mark}", node.name), w - 16.0));
    let mut yy = y + 30.0;
    for &r in resources {
        let col = &model.resources[r];
        let alloc = node.allocatable.get(r).copied().unwrap_or(0);
        let used = live.used.get(r).copied().unwrap_or(0);
        // A request with nothing allocatable is over: a full bar.
        let share = if alloc > 0 { (used as f64 / alloc as f64).clamp(0.0, 1.0) } else { 1.0 };
        let bar_w = 90.0;
        c.text(x + 8.0, yy + 10.0, 10, MUTED, "normal", &fit(&col.name, 52.0));
        c.rect(x + 62.0, yy + 2.0, bar_w, 9.0, "#e5e7eb", "none");
        if share > 0.0 {
            let fill = if share > 0.9 { FAIL } else if share > 0.7 { "#d97706" } else { PASS };
            c.rect(x + 62.0, yy + 2.0, bar_w * share, 9.0, fill, "none");
        }
        let amounts = format!("{}/{}", format_amount(&col.name, used), format_amount(&col.name, alloc));
        c.text(x + 62.0 + bar_w + 6.0, yy + 10.0, 10, INK, "normal", &fit(&amounts, w - bar_w - 76.0));
        yy += 18.0;
    }
    let chip_w = (w - 20.0) / 2.0;
    for (i, &p) in live.pods.iter().take(CHIPS_SHOWN).enumerate() {
        let (cx, cy) = (x + 8.0 + (i % 2) as f64 * (chip_w + 4.0), yy + (i / 2) as f64 * 20.0);
        c.rect(cx, cy, chip_w, 16.0, CHIP, "none");
        let name = model.pods.get(p as usize).map(|m| m.name.as_str()).unwrap_or("?");
        c.text(cx + 4.0, cy + 12.0, 10, INK, "normal", &fit(name, chip_w - 8.0));
    }
    if live.pods.len() > CHIPS_SHOWN {
        let i = CHIPS_SHOWN;
        let (cx, cy) = (x + 8.0 + (i % 2) as f64 * (chip_w + 4.0), yy + (i / 2) as f64 * 20.0);
        c.text(cx + 4.0, cy + 12.0, 10, MUTED, "normal", &format!("+{} more", live.pods.len() - CHIPS_SHOWN));
    }
}

/// The short column label of a plugin (the page's), or its name.
fn label<'a>(model: &'a Model, plugin: &'a str) -> &'a str {
    model
        .plugin_labels
        .iter()
        .find(|(n, _)| n == plugin)
        .map(|(_, l)| l.as_str())
        .unwrap_or(plugin)
}

fn node_name(model: &Model, n: u32) -> &str {
    model.nodes.get(n as usize).map(|m| m.name.as_str()).unwrap_or("?")
}

/// The cycle shown at `frame` (its filter matrix: a row per node, ✓ per plugin passed and the
/// rejecting plugin's reason; its score table: each plugin's weighted score and the total, the
/// chosen node marked), or a line saying the frame shows no cycle.
pub fn cycle_svg(model: &Model, frame: &Frame, title: &str) -> String {
    let mut c = Canvas { body: String::new() };
    let Some(cv) = frame.cycle_view.as_ref() else {
        let heading = format!("{title} · no scheduling cycle at this point");
        c.text(PAD as f64, 26.0, 16, INK, "bold", &heading);
        return c.finish(520, 44, &heading);
    };
    let pod = model.pods.get(cv.pod as usize).map(|p| p.key()).unwrap_or_default();
    let heading = format!("{title} · cycle {}: {pod} (attempt {}, profile {})", cv.cycle, cv.attempt, cv.profile);
    c.text(PAD as f64, 26.0, 16, INK, "bold", &heading);
    let mut y = 48.0;
    let mut width = 480.0f64;
    y = filter_table(&mut c, model, cv, y, &mut width);
    y = score_table(&mut c, model, cv, y + 12.0, &mut width);
    let outcome = cv.scheduled.clone().or_else(|| cv.message.clone());
    if let Some(o) = outcome {
        c.text(PAD as f64, y + 18.0, 12, INK, "normal", &fit(&o, width - 2.0 * PAD as f64));
        y += 28.0;
    }
    c.finish(width.ceil() as u32, (y + PAD as f64) as u32, &heading)
}

const NAME_W: f64 = 150.0;
const ROW_H: f64 = 20.0;

fn filter_table(c: &mut Canvas, model: &Model, cv: &CycleView, y: f64, width: &mut f64) -> f64 {
    let Some(f) = cv.filter.as_ref().filter(|f| f.detail && !f.rows.is_empty()) else {
        return y;
    };
    c.text(PAD as f64, y + 12.0, 13, INK, "bold", &format!("Filter: {} of {} evaluated nodes feasible", f.feasible, f.evaluated));
    let col_w = 64.0;
    let x0 = PAD as f64 + NAME_W;
    let mut yy = y + 20.0;
    for (i, p) in f.plugins.iter().enumerate() {
        c.text(x0 + i as f64 * col_w + 4.0, yy + 12.0, 10, MUTED, "bold", &fit(label(model, p), col_w - 6.0));
    }
    let reason_x = x0 + f.plugins.len() as f64 * col_w + 8.0;
    c.text(reason_x, yy + 12.0, 10, MUTED, "bold", "reason");
    yy += ROW_H;
    for row in &f.rows {
        c.rect(PAD as f64, yy, reason_x + 260.0 - PAD as f64, ROW_H - 2.0, if row.feasible { "#f0fdf4" } else { "#ffffff" }, LINE);
        c.text(PAD as f64 + 6.0, yy + 13.0, 11, INK, "normal", &fit(node_name(model, row.node), NAME_W - 10.0));
        for i in 0..f.plugins.len() {
            let (mark, fill) = match row.failed_at {
                _ if row.visit.is_none() => ("·", MUTED),
                Some(at) if at as usize == i => ("✗", FAIL),
                Some(at) if (at as usize) < i => ("", MUTED),
                _ => ("✓", PASS),
            };
            c.text(x0 + i as f64 * col_w + col_w / 2.0 - 4.0, yy + 13.0, 12, fill, "bold", mark);
        }
        let reason = match (&row.note, row.reasons.first()) {
            (Some(n), _) => n.clone(),
            (None, Some(r)) => r.clone(),
            (None, None) => String::new(),
        };
        c.text(reason_x, yy + 13.0, 10, MUTED, "normal", &fit(&reason, 252.0));
        yy += ROW_H;
    }
    *width = width.max(reason_x + 260.0 + PAD as f64);
    yy
}

fn score_table(c: &mut Canvas, model: &Model, cv: &CycleView, y: f64, width: &mut f64) -> f64 {
    let Some(s) = cv.score.as_ref().filter(|s| s.detail && !s.rows.is_empty()) else {
        return y;
    };
    c.text(PAD as f64, y + 12.0, 13, INK, "bold", "Score (weighted)");
    let col_w = 64.0;
    let x0 = PAD as f64 + NAME_W;
    let mut yy = y + 20.0;
    for (i, (p, w)) in s.plugins.iter().enumerate() {
        c.text(x0 + i as f64 * col_w + 4.0, yy + 12.0, 10, MUTED, "bold", &fit(&format!("{}×{w}", label(model, p)), col_w - 6.0));
    }
    let total_x = x0 + s.plugins.len() as f64 * col_w + 4.0;
    c.text(total_x, yy + 12.0, 10, MUTED, "bold", "total");
    yy += ROW_H;
    for row in &s.rows {
        let fill = if row.selected { "#dcfce7" } else { "#ffffff" };
        c.rect(PAD as f64, yy, total_x + 60.0 - PAD as f64, ROW_H - 2.0, fill, LINE);
        let name = format!("{}{}", node_name(model, row.node), if row.selected { " ★" } else { "" });
        c.text(PAD as f64 + 6.0, yy + 13.0, 11, INK, if row.selected { "bold" } else { "normal" }, &fit(&name, NAME_W - 10.0));
        for (i, v) in row.weighted.iter().enumerate() {
            c.text(x0 + i as f64 * col_w + 4.0, yy + 13.0, 11, INK, "normal", &v.to_string());
        }
        c.text(total_x, yy + 13.0, 11, INK, "bold", &row.total.to_string());
        yy += ROW_H;
    }
    *width = width.max(total_x + 60.0 + PAD as f64);
    yy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_cut() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(fit("abcdefghij", 5.0 * CHAR_W), "abcd…");
        assert_eq!(fit("abc", 100.0), "abc");
    }

    /// A bar where the node allocates the resource or something on it requests it (over when
    /// nothing is allocatable), none for a resource neither (no "0/0"), and the export draws
    /// exactly the bars `NodeModel::bars` gives, as the page does.
    #[test]
    fn bars_only_for_resources_allocated_or_requested() {
        use crate::view::{NodeLive, NodeModel, ResourceCol, Unit};
        let col = |name: &str, unit| ResourceCol { name: name.into(), unit };
        let node = |name: &str, allocatable: Vec<i64>| NodeModel {
            name: name.into(),
            zone: 0,
            labels: vec![],
            taints: vec![],
            unschedulable: false,
            allocatable,
        };
        // cpu, memory, pods, gpu: (node, allocatable, used, the bars wanted)
        type Case = (&'static str, Vec<i64>, Vec<i64>, Vec<usize>);
        let table: [Case; 4] = [
            ("plain", vec![4000, 1 << 33, 110, 0], vec![500, 0, 1, 0], vec![0, 1, 2]),
            ("gpu", vec![4000, 1 << 33, 110, 2], vec![0, 0, 0, 1], vec![0, 1, 2, 3]),
            ("asked", vec![4000, 1 << 33, 110, 0], vec![0, 0, 1, 1], vec![0, 1, 2, 3]),
            ("short", vec![4000, 1 << 33, 110], vec![0, 0, 0, 0], vec![0, 1, 2]),
        ];
        let mut model = Model {
            resources: vec![
                col("cpu", Unit::MilliCpu),
                col("memory", Unit::Bytes),
                col("pods", Unit::Count),
                col("example.com/gpu", Unit::Count),
            ],
            zones: vec![String::new()],
            ..empty_model()
        };
        let mut lives = Vec::new();
        for (i, (name, alloc, used, want)) in table.iter().enumerate() {
            let n = node(name, alloc.clone());
            let live = NodeLive {
                used: used.clone(),
                ..NodeLive::default()
            };
            assert_eq!(&n.bars(&live), want, "{name}");
            model.nodes.push(n);
            model.display_order.push(i as u32);
            lives.push(serde_json::to_value(live).unwrap());
        }
        let frame: Frame = serde_json::from_value(serde_json::json!({
            "stop": 0, "stage": "Ready", "cycle": 0, "clockMs": 0, "nodes": lives, "heat": [], "marks": [],
            "queue": {"active": [], "activeTotal": 0, "backoff": [], "backoffTotal": 0, "unschedulable": [],
                "unschedulableTotal": 0, "gated": [], "gatedTotal": 0, "inFlight": null, "foreign": []},
            "cycleView": null, "bound": null, "running": 0, "pending": 0, "evicted": 0, "events": [], "eventsTotal": 0
        }))
        .unwrap();
        let svg = cluster_svg(&model, &frame, "bars");
        // A gpu bar on "gpu" (1/2) and on "asked" (1/0, over: a full red bar), none elsewhere.
        let tracks = svg.matches(r##"width="90.0" height="9.0" rx="3" fill="#e5e7eb""##).count();
        assert_eq!(tracks, table.iter().map(|t| t.3.len()).sum::<usize>(), "{svg}");
        assert!(svg.contains(">1/2<") && svg.contains(">1/0<"), "{svg}");
        assert!(!svg.contains(">0/0<"), "{svg}");
    }

    /// A model with nothing in it, for tests to fill in.
    fn empty_model() -> Model {
        Model {
            resources: vec![],
            zones: vec![],
            nodes: vec![],
            display_order: vec![],
            pods: vec![],
            profiles: vec![],
            large: false,
            dra: None,
            initial_claims: vec![],
            created_pods_from: None,
            created_nodes_from: None,
            plugin_labels: vec![],
        }
    }

    #[test]
    fn an_empty_frame_is_a_picture_saying_so() {
        let model = empty_model();
        let frame: Frame = serde_json::from_value(serde_json::json!({
            "stop": 0, "stage": "Ready", "cycle": 0, "clockMs": 0, "nodes": [], "heat": [], "marks": [],
            "queue": {"active": [], "activeTotal": 0, "backoff": [], "backoffTotal": 0, "unschedulable": [],
                "unschedulableTotal": 0, "gated": [], "gatedTotal": 0, "inFlight": null, "foreign": []},
            "cycleView": null, "bound": null, "running": 0, "pending": 0, "evicted": 0, "events": [], "eventsTotal": 0
        }))
        .unwrap();
        let svg = cycle_svg(&model, &frame, "a <b>");
        assert!(svg.contains("a &lt;b&gt; · no scheduling cycle"), "{svg}");
        assert!(cluster_svg(&model, &frame, "x").starts_with("<?xml"));
    }
}
