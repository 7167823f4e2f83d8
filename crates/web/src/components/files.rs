//! Files in and out: a file opened or dropped on the editor either replaces the scenario or adds
//! its objects (the user chooses); the scenario can be saved as a YAML file.

use crate::scenario;
use crate::state::{use_app, AppState};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A file read and waiting for the user's choice: (file name, text).
pub type PendingFile = RwSignal<Option<(String, String)>, LocalStorage>;

/// Files larger than this are refused (the editor would not cope).
const MAX_FILE: f64 = 64.0 * 1024.0 * 1024.0;

/// Reads a file's text into `pending`.
pub fn read_file(st: AppState, pending: PendingFile, file: web_sys::File) {
    let name = file.name();
    if file.size() > MAX_FILE {
        st.set_notice.set(Some(format!(
            "{name} is {:.0} MB: too large to open here.",
            file.size() / 1024.0 / 1024.0
        )));
        return;
    }
    spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(file.text()).await {
            Ok(text) => pending.set(Some((name, text.as_string().unwrap_or_default()))),
            Err(_) => st.set_notice.set(Some(format!("{name} could not be read."))),
        }
    });
}

/// The first file of a drop, if any.
pub fn dropped_file(ev: &web_sys::DragEvent) -> Option<web_sys::File> {
    ev.data_transfer()?.files()?.get(0)
}

/// Whether a drag carries files (not text dragged inside the editor).
pub fn drags_files(ev: &web_sys::DragEvent) -> bool {
    ev.data_transfer()
        .map(|d| d.types().iter().any(|t| t.as_string().as_deref() == Some("Files")))
        .unwrap_or(false)
}

/// Saves the scenario as a YAML file (the browser's download).
pub fn download_scenario(st: AppState) {
    let saved = st.saved.get_untracked();
    if saved.generated.is_some() {
        st.flash("A generated cluster has no YAML yet: load it into the editor first");
        return;
    }
    let (text, _) = scenario::join(&saved.parts);
    let name = match &saved.preset {
        Some(p) => format!("schedlab-{p}.yaml"),
        None => "schedlab-scenario.yaml".to_string(),
    };
    if download(&name, &text, "application/yaml").is_err() {
        st.set_notice.set(Some("The browser refused to save the file.".into()));
    }
}

/// Saves `text` as a file named `name` (the browser's download).
pub fn download(name: &str, text: &str, mime: &str) -> Result<(), JsValue> {
    let url = blob_url(text, mime)?;
    let saved = save_url(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
    saved
}

/// An object URL of `text` as a blob of type `mime` (revoke it when done).
pub fn blob_url(text: &str, mime: &str) -> Result<String, JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    web_sys::Url::create_object_url_with_blob(&blob)
}

/// Saves what `href` points to as a file named `name`.
pub fn save_url(name: &str, href: &str) -> Result<(), JsValue> {
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.dyn_into()?;
    a.set_href(href);
    a.set_download(name);
    a.click();
    Ok(())
}

/// Asks what to do with a file that was opened or dropped.
#[component]
pub fn FileChoice(pending: PendingFile) -> impl IntoView {
    let st = use_app();
    let replace = move |_| {
        let Some((_, text)) = pending.get_untracked() else { return };
        pending.set(None);
        let _ = st.replace_scenario(st.saved.with_untracked(|s| s.replaced_by(scenario::split(&text))));
    };
    let add = move |_| {
        let Some((_, text)) = pending.get_untracked() else { return };
        pending.set(None);
        let mut saved = st.saved.get_untracked();
        saved.parts.add(&scenario::split(&text));
        saved.preset = None;
        saved.generated = None;
        st.set_fresh.set(false);
        st.set_issues.set(Vec::new());
        st.set_saved.set(saved);
        st.set_docs_version.update(|v| *v += 1);
    };
    view! {
        {move || {
            pending
                .get()
                .map(|(name, text)| {
                    let docs = text.lines().filter(|l| l.starts_with("kind:") || l.contains("\"kind\"")).count();
                    view! {
                        <div class="file-choice" role="dialog" aria-label="Open a file">
                            <p>
                                <strong>{name}</strong>
                                {format!(" ({} lines, about {} object{})", text.lines().count(), docs, if docs == 1 { "" } else { "s" })}
                            </p>
                            <div class="file-actions">
                                <button class="btn small primary" on:click=add title="Keep the scenario and add the file's objects to it">"Add its objects"</button>
                                <button class="btn small" on:click=replace title="The current scenario stays available among the recent scenarios of the preset list">"Replace the scenario"</button>
                                <button class="btn small" on:click=move |_| pending.set(None)>"Cancel"</button>
                            </div>
                        </div>
                    }
                })
        }}
    }
}
