//! Autosave (localStorage) and share links (the scenario compressed into the URL hash).

use crate::scenario::Saved;

const KEY: &str = "schedlab.scenario.v1";
const THEME_KEY: &str = "schedlab.theme";
/// The user's own scenario, kept when a preset or a share link replaces it.
const MINE_KEY: &str = "schedlab.mine.v1";
/// The hash prefix of a share link: `#s=<base64url(deflate-raw(json))>`.
pub const HASH_PREFIX: &str = "#s=";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

pub fn load_saved() -> Option<Saved> {
    let text = storage()?.get_item(KEY).ok()??;
    serde_json::from_str(&text).ok()
}

pub fn save(saved: &Saved) {
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(saved)) {
        if s.set_item(KEY, &text).is_err() {
            web_sys::console::warn_1(&"schedlab: could not autosave (storage full?)".into());
        }
    }
}

pub fn load_mine() -> Option<Saved> {
    let text = storage()?.get_item(MINE_KEY).ok()??;
    serde_json::from_str(&text).ok()
}

pub fn save_mine(saved: &Saved) {
    if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(saved)) {
        let _ = s.set_item(MINE_KEY, &text);
    }
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
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return };
    replace_url(&format!("{}{}", loc.pathname().unwrap_or_default(), loc.hash().unwrap_or_default()));
}

/// Embedded in another page (`?embed`): no editor, no autosave, a link to the full playground.
pub fn embed_mode() -> bool {
    query_param("embed").is_some_and(|v| v != "0" && v != "false")
}

/// This page's address for a share payload: the full playground (`embed` false: no query) or
/// the embedded one (`?embed`).
pub fn share_url(payload: &str, embed: bool) -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return String::new() };
    format!(
        "{}{}{}{HASH_PREFIX}{payload}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        if embed { "?embed" } else { "" }
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

/// The share payload in the current URL, if any.
pub fn hash_payload() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.strip_prefix(HASH_PREFIX).map(str::to_string)
}

/// Replaces the page's address (same document) without a reload or a history entry.
fn replace_url(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Replaces the URL's hash without adding a history entry.
pub fn set_hash(hash: &str) {
    if hash.is_empty() {
        let Some(loc) = web_sys::window().map(|w| w.location()) else { return };
        replace_url(&format!("{}{}", loc.pathname().unwrap_or_default(), loc.search().unwrap_or_default()));
    } else {
        replace_url(hash);
    }
}

pub async fn encode(saved: &Saved) -> Option<String> {
    let json = serde_json::to_string(saved).ok()?;
    crate::editor_js::compress(&json).await.ok()?.as_string()
}

pub async fn decode(payload: &str) -> Option<Saved> {
    let json = crate::editor_js::decompress(payload).await.ok()?.as_string()?;
    serde_json::from_str(&json).ok()
}
