//! `schedlab export`: back to a real cluster — the scheduler configuration for kube-scheduler's
//! `--config`, the scenario as `kubectl apply` manifests (optionally for KWOK's fake nodes),
//! and the cluster or cycle view as SVG or PNG for slides (docs/export.md).

use schedlab_core::export::{self, ManifestOptions};
use schedlab_core::view::{Session, SessionOptions};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "config: the effective KubeSchedulerConfiguration (v1) for kube-scheduler --config, \
schedlab's own plugins left out and named in a comment. manifests: every object for kubectl apply -f, \
schedlab's own documents and fields left out (--kwok: nodes annotated as KWOK fake nodes). svg, png: \
the cluster view or the cycle view (--view) as the run left it after cycle N (--cycle; default: the \
end of the run, or its last cycle); the PNG is the SVG at twice its size, text in a system font. \
Writes to standard output unless -o names a file.")]
pub struct Args {
    /// The scenario: multi-document YAML or JSON
    #[arg(value_name = "FILE")]
    file: String,
    /// What to export
    #[arg(long, value_enum, default_value = "manifests")]
    what: What,
    /// Manifests: mark the nodes as KWOK fake nodes (kwok.x-k8s.io/node: fake)
    #[arg(long)]
    kwok: bool,
    /// svg/png: the picture after cycle N of the run (1-based)
    #[arg(long, value_name = "N")]
    cycle: Option<u32>,
    /// svg/png: the cluster view (nodes by zone) or the cycle view (filter matrix, score table)
    #[arg(long, value_enum, default_value = "cluster")]
    view: View,
    /// Write to this file instead of standard output
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    out: Option<String>,
    /// svg/png: the seed of the tie-break RNG
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// svg/png: whether the workload controllers create pods
    #[arg(long, value_enum, default_value = "on")]
    controllers: crate::OnOff,
    #[command(flatten)]
    version: crate::VersionArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum What {
    Config,
    Manifests,
    Svg,
    Png,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum View {
    Cluster,
    Cycle,
}

/// The PNG is drawn at this multiple of the SVG's size (sharp on slides and HiDPI screens).
const PNG_SCALE: f32 = 2.0;

pub fn main(a: Args) -> ExitCode {
    let text = match crate::read_text(&a.file) {
        Ok(t) => t,
        Err(c) => return c,
    };
    let sc = match crate::load_file(&a.file, &a.version) {
        Ok(sc) => sc,
        Err(c) => return c,
    };
    let bytes = match a.what {
        What::Config => export::config_yaml(&sc).into_bytes(),
        What::Manifests => export::manifests(&text, &sc, ManifestOptions { kwok: a.kwok }).into_bytes(),
        What::Svg | What::Png => {
            let svg = match picture(&a, sc) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if a.what == What::Svg {
                svg.into_bytes()
            } else {
                if a.out.is_none() && std::io::stdout().is_terminal() {
                    eprintln!("error: a PNG is binary: name a file with -o OUT or redirect standard output");
                    return ExitCode::from(2);
                }
                match png(&svg) {
                    Ok(b) => b,
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
    };
    let written = match &a.out {
        Some(path) => std::fs::write(path, &bytes).map_err(|e| format!("{path}: {e}")),
        None => std::io::stdout().write_all(&bytes).map_err(|e| e.to_string()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the scenario and draws the view at the chosen cycle.
fn picture(a: &Args, sc: schedlab_core::Scenario) -> Result<String, String> {
    let opts = SessionOptions {
        seed: a.seed,
        controllers: a.controllers.on(),
    };
    let mut s = Session::with_options(sc, opts, &mut |_| {});
    let cycles = s.cycle_count();
    let stops = s.stops().to_vec();
    let in_cycle = |c: u32| stops.iter().rposition(|st| st.cycle == c && st.stage.in_cycle());
    let stop = match (a.cycle, a.view) {
        (Some(c), _) => in_cycle(c).ok_or_else(|| format!("the run has no cycle {c} (it has {cycles} cycles)"))?,
        (None, View::Cluster) => stops.len() - 1,
        (None, View::Cycle) => in_cycle(cycles).ok_or("the run has no scheduling cycle")?,
    };
    let summary = s.summary();
    let frame = s.frame(stop as u32, true);
    let title = std::path::Path::new(&a.file)
        .file_stem()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(match a.view {
        View::Cluster => schedlab_view::svg::cluster_svg(&summary.model, &frame, &title),
        View::Cycle => schedlab_view::svg::cycle_svg(&summary.model, &frame, &title),
    })
}

/// The SVG rasterized at `PNG_SCALE`, its text in the system's fonts (fontdb finds them as
/// fontconfig lists them); without any font the text is left out, and a warning says so.
fn png(svg: &str) -> Result<Vec<u8>, String> {
    let mut opt = resvg::usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    if opt.fontdb.is_empty() {
        eprintln!("warning: no system font found: the PNG has no text (install a font such as fonts-dejavu-core, or export --what svg)");
    }
    let tree = resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the SVG does not parse: {e}"))?;
    let size = tree.size().to_int_size().scale_by(PNG_SCALE).ok_or("the picture is empty")?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("the picture is too large to rasterize")?;
    resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}
