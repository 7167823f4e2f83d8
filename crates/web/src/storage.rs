//! Autosave (localStorage) and share links (the scenario compressed into the URL hash).

use crate::lessons::GalleryLesson;
use crate::recent::{self, Kept};
use crate::scenario::{Preset, Saved, DEFAULT_PRESET, DEFAULT_TEXT};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Downloads a file of the site by its key (`preset:<id>`, `lesson:<id>`), once (again after a
    /// failure): web/index.html defines it, with the files' content-hashed addresses, and starts
    /// the download of a `?preset=` or a `?lesson=` at once, beside the wasm's.
    #[wasm_bindgen(js_name = schedlabFetchText, catch)]
    async fn fetch_text(key: &str) -> Result<JsValue, JsValue>;
}

/// A preset's text: the default one's is in the wasm; the others are downloaded. The error
/// says what could not be downloaded and why.
pub async fn preset_text(p: &Preset) -> Result<String, String> {
    if p.id == DEFAULT_PRESET {
        return Ok(DEFAULT_TEXT.to_string());
    }
    download(&format!("preset:{}", p.id))
        .await
        .map_err(|why| format!("The preset “{}” could not be downloaded ({why})", p.title))
}

/// A gallery lesson's text as shipped (downloaded once, then kept: `crate::lessons::shipped`).
pub async fn lesson_text(l: &'static GalleryLesson) -> Result<String, String> {
    if let Some(text) = crate::lessons::shipped(l.id) {
        return Ok(text.to_string());
    }
    let text = download(&format!("lesson:{}", l.id))
        .await
        .map_err(|why| format!("The lesson “{}” could not be downloaded ({why})", l.title))?;
    crate::lessons::keep_shipped(l, &text);
    Ok(text)
}

async fn download(key: &str) -> Result<String, String> {
    match fetch_text(key).await {
        Ok(text) => text.as_string().ok_or_else(|| "not a text".into()),
        Err(e) => Err(e
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| "the download failed".into())),
    }
}

const KEY: &str = "schedlab.scenario.v1";
/// Who wrote the autosave last, and how many times: `<tab id>:<count>`. A tab writes only over
/// the revision it last saw, so a save never silently replaces another tab's edits.
const REV_KEY: &str = "schedlab.scenario.rev";
/// The last scenario that ran, written when an edit makes the scenario invalid, so that a
/// reload with the invalid text still shows a run.
const GOOD_KEY: &str = "schedlab.lastgood.v1";
/// In `sessionStorage`: the scenario payloads this tab last wrote to its address
/// (`link::remember_own`).
const ADDRESS_KEY: &str = "schedlab.address.v2";
const THEME_KEY: &str = "schedlab.theme";
/// The user's own scenario as an older version kept it (one only): read once into `RECENT_KEY`.
const MINE_KEY: &str = "schedlab.mine.v1";
/// The user's recent scenarios, kept when a preset, an import, a file or a link replaced them
/// (`crate::recent`).
const RECENT_KEY: &str = "schedlab.recent.v1";
/// The learner's progress in each lesson (`crate::lessons::AllProgress`).
const LESSONS_KEY: &str = "schedlab.lessons.v1";

/// JSON read as bytes, as the worker's answers are (`crate::bridge`): one copy of serde_json's
/// reader in the wasm, not a second one for `&str`.
fn from_json<'a, T: serde::Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    serde_json::from_slice(text.as_bytes())
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

thread_local! {
    /// The autosave revision this tab last read or wrote.
    static SEEN_REV: RefCell<Option<String>> = const { RefCell::new(None) };
    /// This tab's id (for the revision) and how many saves it made.
    static TAB: RefCell<(String, u64)> = RefCell::new((format!("{:x}", (js_sys::Math::random() * 1e12) as u64), 0));
}

fn current_rev() -> Option<String> {
    storage()?.get_item(REV_KEY).ok()?
}

/// The autosaved scenario (and this tab now knows its revision).
pub fn load_saved() -> Option<Saved> {
    let s = storage()?;
    let text = s.get_item(KEY).ok()??;
    SEEN_REV.with(|r| *r.borrow_mut() = current_rev());
    from_json(&text).ok()
}

/// What an autosave did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    Saved,
    /// Another tab saved since this one last read or wrote: nothing was written.
    Conflict,
    /// The browser refused (storage full or disabled).
    Failed,
}

/// Autosaves, unless another tab saved in between (then nothing is written: the caller asks
/// the user). `force` writes anyway (the user chose to keep this tab's scenario).
pub fn save(saved: &Saved, force: bool) -> SaveOutcome {
    let Some(s) = storage() else { return SaveOutcome::Failed };
    let seen = SEEN_REV.with(|r| r.borrow().clone());
    let Ok(text) = serde_json::to_string(saved) else {
        return SaveOutcome::Failed;
    };
    // Another tab wrote since: a conflict, unless it wrote exactly this scenario.
    if !force && current_rev() != seen && s.get_item(KEY).ok().flatten().as_deref() != Some(text.as_str()) {
        return SaveOutcome::Conflict;
    }
    let rev = TAB.with(|t| {
        let mut t = t.borrow_mut();
        t.1 += 1;
        format!("{}:{}", t.0, t.1)
    });
    if s.set_item(KEY, &text).is_err() || s.set_item(REV_KEY, &rev).is_err() {
        web_sys::console::warn_1(&"schedlab: could not autosave (storage full?)".into());
        return SaveOutcome::Failed;
    }
    SEEN_REV.with(|r| *r.borrow_mut() = Some(rev));
    SaveOutcome::Saved
}

/// Whether a `storage` event says another tab changed the autosave since this tab saw it, to
/// something else than `ours` (a tab that saved the same scenario is no conflict: this tab
/// adopts its revision).
pub fn changed_elsewhere(key: Option<String>, ours: &Saved) -> bool {
    if !matches!(key.as_deref(), Some(REV_KEY) | Some(KEY) | None) {
        return false;
    }
    let rev = current_rev();
    if rev == SEEN_REV.with(|r| r.borrow().clone()) {
        return false;
    }
    let stored = storage().and_then(|s| s.get_item(KEY).ok().flatten());
    let same = stored.is_some_and(|t| from_json::<Saved>(&t).is_ok_and(|theirs| theirs == *ours));
    if same {
        SEEN_REV.with(|r| *r.borrow_mut() = rev);
    }
    !same
}

/// The scenario another tab saved (this tab adopts its revision).
pub fn take_theirs() -> Option<Saved> {
    load_saved()
}

pub fn save_good(saved: &Saved) {
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(saved)) {
        let _ = s.set_item(GOOD_KEY, &text);
    }
}

pub fn load_good() -> Option<Saved> {
    let text = storage()?.get_item(GOOD_KEY).ok()??;
    from_json(&text).ok()
}

/// The user's recent scenarios (`recent`), newest first. A scenario kept by an older version
/// under the single "my scenario" key becomes the first.
pub fn load_recent() -> Vec<Kept> {
    let Some(s) = storage() else { return Vec::new() };
    let list: Vec<Kept> = s
        .get_item(RECENT_KEY)
        .ok()
        .flatten()
        .and_then(|t| from_json(&t).ok())
        .unwrap_or_default();
    if !list.is_empty() {
        return list;
    }
    let old: Option<Saved> = s.get_item(MINE_KEY).ok().flatten().and_then(|t| from_json(&t).ok());
    match old {
        Some(saved) => recent::keep(Vec::new(), &saved, js_sys::Date::now()).0,
        None => Vec::new(),
    }
}

/// Writes the list; false when the browser refused (storage full or disabled).
pub fn save_recent(list: &[Kept]) -> bool {
    let (Some(s), Ok(text)) = (storage(), serde_json::to_string(list)) else {
        return false;
    };
    if s.set_item(RECENT_KEY, &text).is_err() {
        return false;
    }
    let _ = s.remove_item(MINE_KEY);
    true
}

/// Keeps `saved` among the recent scenarios in storage (another tab may have kept some since
/// this one read the list): the new list, what keeping did, and whether it was written.
pub fn keep_recent(saved: &Saved) -> (Vec<Kept>, recent::Keeping, bool) {
    let (list, keeping) = recent::keep(load_recent(), saved, js_sys::Date::now());
    let stored = save_recent(&list);
    (list, keeping, stored)
}

/// The value of a query parameter of the page's URL (`?embed`, `?preset=tour`); a parameter
/// without a value gives `Some("")`.
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    search.trim_start_matches('?').split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == name).then(|| v.to_string())
    })
}

/// Drops the query (`?preset=…`) from the address without a reload or a history entry, so that
/// reloading shows the user's edits rather than the preset again.
pub fn clear_query() {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    replace_url(&format!("{}{}", loc.pathname().unwrap_or_default(), loc.hash().unwrap_or_default()));
}

/// Embedded in another page (`?embed`): no editor, no autosave, a link to the full playground.
pub fn embed_mode() -> bool {
    query_param("embed").is_some_and(|v| v != "0" && v != "false")
}

/// This page's address for a link state: the full playground (`embed` None: no query) or the
/// embedded one (`?embed…`, the given query without its `?`).
pub fn share_url(state: &crate::link::LinkState, embed: Option<&str>) -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let query = match embed {
        Some("") => "?embed".to_string(),
        Some(q) => format!("?{q}"),
        None => String::new(),
    };
    format!(
        "{}{}{query}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        crate::link::to_hash(state)
    )
}

pub fn load_theme() -> Option<String> {
    storage()?.get_item(THEME_KEY).ok()?
}

pub fn save_theme(t: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(THEME_KEY, t);
    }
}

/// Whether `payload` is one this tab put in its address lately (`link::is_own`; kept in
/// `sessionStorage`, which a reload keeps and a new tab does not have).
pub fn is_own_address_payload(payload: &str) -> bool {
    session()
        .and_then(|s| s.get_item(ADDRESS_KEY).ok().flatten())
        .is_some_and(|list| crate::link::is_own(&list, payload))
}

/// Remembers that this tab put `payload` in its address.
pub fn remember_own_address_payload(payload: &str) {
    let Some(s) = session() else { return };
    let list = s.get_item(ADDRESS_KEY).ok().flatten().unwrap_or_default();
    let _ = s.set_item(ADDRESS_KEY, &crate::link::remember_own(&list, payload));
}

/// The address's hash (with its `#`), if any.
pub fn hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Replaces the page's address (same document) without a reload or a history entry.
pub fn replace_url(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Replaces the URL's hash without adding a history entry.
pub fn set_hash(hash: &str) {
    if hash.is_empty() {
        let Some(loc) = web_sys::window().map(|w| w.location()) else {
            return;
        };
        replace_url(&format!(
            "{}{}",
            loc.pathname().unwrap_or_default(),
            loc.search().unwrap_or_default()
        ));
    } else {
        replace_url(hash);
    }
}

pub async fn encode(saved: &Saved) -> Option<String> {
    let json = serde_json::to_string(saved).ok()?;
    crate::editor_js::compress(&json).await.ok()?.as_string()
}

/// Reads a link's scenario; the error says what could not be read.
pub async fn decode(payload: &str) -> Result<Saved, String> {
    let json = crate::editor_js::decompress(payload)
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or_else(|| "its scenario data is cut short or damaged (it does not decompress)".to_string())?;
    from_json(&json).map_err(|e| format!("its scenario data is not a schedlab scenario ({e})"))
}

/// The learner's progress in every lesson (empty when none is kept or it cannot be read).
pub fn load_progress() -> crate::lessons::AllProgress {
    storage()
        .and_then(|s| s.get_item(LESSONS_KEY).ok().flatten())
        .and_then(|t| from_json(&t).ok())
        .unwrap_or_default()
}

/// Keeps the learner's progress (an empty record is removed).
pub fn save_progress(all: &crate::lessons::AllProgress) {
    let Some(s) = storage() else { return };
    let kept: crate::lessons::AllProgress = all
        .iter()
        .filter(|(_, p)| **p != Default::default())
        .map(|(k, p)| (k.clone(), p.clone()))
        .collect();
    if let Ok(text) = serde_json::to_string(&kept) {
        if s.set_item(LESSONS_KEY, &text).is_err() {
            web_sys::console::warn_1(&"schedlab: could not keep the lesson progress (storage full?)".into());
        }
    }
}
