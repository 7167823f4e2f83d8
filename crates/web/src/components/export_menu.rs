//! The top bar's Export menu: back to a real cluster (docs/export.md). The configuration and
//! the manifests come from the worker (`Request::Export`, the engine's `export`); the pictures
//! from the shared renderer (`schedlab_view::svg`) over the summary and the frame on screen, a
//! PNG through a canvas at twice the SVG's size, as the CLI's.

use crate::components::files::{blob_url, download, save_url};
use crate::protocol::ExportFile;
use crate::scenario;
use crate::state::{use_app, AppState};
use leptos::prelude::*;
use schedlab_view::svg;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    File(ExportFile),
    Svg { cycle: bool },
    Png { cycle: bool },
}

/// (item, id for tests, label, tooltip).
const ITEMS: [(Item, &str, &str, &str); 7] = [
    (Item::File(ExportFile::Config), "config", "Scheduler configuration (YAML)", "The KubeSchedulerConfiguration for kube-scheduler --config"),
    (Item::File(ExportFile::Manifests), "manifests", "Manifests (YAML)", "Every object for kubectl apply -f, schedlab's own left out"),
    (Item::File(ExportFile::ManifestsKwok), "kwok", "Manifests for KWOK", "The manifests with the nodes marked as KWOK fake nodes"),
    (Item::Svg { cycle: false }, "cluster-svg", "Cluster view (SVG)", "The cluster at the playhead, for slides"),
    (Item::Svg { cycle: true }, "cycle-svg", "Cycle view (SVG)", "The cycle at the playhead: filter matrix and score table"),
    (Item::Png { cycle: false }, "cluster-png", "Cluster view (PNG)", "The cluster at the playhead, as an image"),
    (Item::Png { cycle: true }, "cycle-png", "Cycle view (PNG)", "The cycle at the playhead, as an image"),
];

#[component]
pub fn ExportMenu() -> impl IntoView {
    let st = use_app();
    let (open, set_open) = signal(false);
    let pick = move |item: Item| {
        set_open.set(false);
        export(st, item);
    };
    view! {
        <span class="export-menu">
            <button class="btn" aria-haspopup="menu" aria-expanded=move || open.get().to_string()
                title="Files for a real cluster and pictures for slides" on:click=move |_| set_open.update(|o| *o = !*o)>
                "Export"
            </button>
            <Show when=move || open.get()>
                <div class="export-list" role="menu" aria-label="Export">
                    {ITEMS
                        .iter()
                        .map(|&(item, id, label, title)| {
                            view! { <button class="btn small" role="menuitem" data-export=id title=title on:click=move |_| pick(item)>{label}</button> }
                        })
                        .collect_view()}
                </div>
            </Show>
        </span>
    }
}

/// The files' names start so: `schedlab-<preset>` or `schedlab-scenario`.
fn base(st: AppState) -> String {
    format!("schedlab-{}", st.saved.with_untracked(|s| s.preset.clone()).unwrap_or_else(|| "scenario".into()))
}

fn export(st: AppState, item: Item) {
    let name = base(st);
    let refused = move || st.set_notice.set(Some("The browser refused to save the file.".into()));
    match item {
        Item::File(file) => {
            let saved = st.saved.get_untracked();
            if saved.generated.is_some() {
                st.flash("A generated cluster has no YAML yet: load it into the editor first");
                return;
            }
            let (text, _) = scenario::join(&saved.parts);
            let suffix = match file {
                ExportFile::Config => "config",
                ExportFile::Manifests => "manifests",
                ExportFile::ManifestsKwok => "kwok",
            };
            st.export_file(text, file, move |r| match r {
                Ok(text) if download(&format!("{name}-{suffix}.yaml"), &text, "application/yaml").is_ok() => {}
                Ok(_) => refused(),
                Err(e) => st.set_notice.set(Some(format!("Nothing to export: {e}"))),
            });
        }
        Item::Svg { cycle } | Item::Png { cycle } => {
            let (Some(summary), Some(frame)) = (st.summary.get_untracked(), st.frame.get_untracked()) else {
                st.flash("Nothing has run yet");
                return;
            };
            if cycle && frame.cycle_view.is_none() {
                st.flash("No scheduling cycle at the playhead: step into one first");
                return;
            }
            let (text, file) = if cycle {
                (svg::cycle_svg(&summary.model, &frame, &name), format!("{name}-cycle-{}", frame.cycle))
            } else {
                (svg::cluster_svg(&summary.model, &frame, &name), format!("{name}-cluster"))
            };
            let saved = if matches!(item, Item::Svg { .. }) {
                download(&format!("{file}.svg"), &text, "image/svg+xml")
            } else {
                png(format!("{file}.png"), &text, refused)
            };
            if saved.is_err() {
                refused();
            }
        }
    }
}

/// Draws the SVG on a canvas at twice its size and saves it as a PNG (once the image loads).
fn png(name: String, svg: &str, refused: impl Fn() + 'static) -> Result<(), JsValue> {
    let url = blob_url(svg, "image/svg+xml")?;
    let img = web_sys::HtmlImageElement::new()?;
    let loaded = img.clone();
    let src = url.clone();
    let onload = Closure::once_into_js(move || {
        let (w, h) = (loaded.natural_width() * 2, loaded.natural_height() * 2);
        let drawn = (|| -> Result<String, JsValue> {
            let canvas: web_sys::HtmlCanvasElement = document().create_element("canvas")?.dyn_into()?;
            canvas.set_width(w);
            canvas.set_height(h);
            let cx: web_sys::CanvasRenderingContext2d = canvas.get_context("2d")?.ok_or("no 2d context")?.dyn_into()?;
            cx.draw_image_with_html_image_element_and_dw_and_dh(&loaded, 0.0, 0.0, w as f64, h as f64)?;
            canvas.to_data_url_with_type("image/png")
        })();
        let _ = web_sys::Url::revoke_object_url(&src);
        if drawn.and_then(|data| save_url(&name, &data)).is_err() {
            refused();
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
    Ok(())
}
