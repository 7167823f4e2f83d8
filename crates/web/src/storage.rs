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
    let Some(w) = web_sys::window() else { return };
    let Ok(history) = w.history() else { return };
    let loc = w.location();
    let url = format!("{}{}", loc.pathname().unwrap_or_default(), loc.hash().unwrap_or_default());
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// Embedded in another page (`?embed`): no editor, no autosave, a link to the full playground.
pub fn embed_mode() -> bool {
    query_param("embed").is_some_and(|v| v != "0" && v != "false")
}

/// The full playground's address for a share payload (no query, so not embedded).
pub fn full_url(payload: &str) -> String {
    let Some(w) = web_sys::window() else { return String::new() };
    let loc = w.location();
    format!(
        "{}{}{HASH_PREFIX}{payload}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// The embedded playground's address for a share payload.
pub fn embed_url(payload: &str) -> String {
    let Some(w) = web_sys::window() else { return String::new() };
    let loc = w.location();
    format!(
        "{}{}?embed{HASH_PREFIX}{payload}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
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

/// Replaces the URL's hash without adding a history entry.
pub fn set_hash(hash: &str) {
    let Some(w) = web_sys::window() else { return };
    let Ok(history) = w.history() else { return };
    let url = if hash.is_empty() {
        let loc = w.location();
        format!("{}{}", loc.pathname().unwrap_or_default(), loc.search().unwrap_or_default())
    } else {
        hash.to_string()
    };
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

pub async fn encode(saved: &Saved) -> Option<String> {
    let json = serde_json::to_string(saved).ok()?;
    crate::editor_js::compress(&json).await.ok()?.as_string()
}

pub async fn decode(payload: &str) -> Option<Saved> {
    let json = crate::editor_js::decompress(payload).await.ok()?.as_string()?;
    serde_json::from_str(&json).ok()
}
