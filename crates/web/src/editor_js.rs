//! Bindings to the CodeMirror bundle (web/js/editor.js, bundled by esbuild into the global
//! `SchedlabEditor`), to its loader, and to the share link's codec.

use wasm_bindgen::prelude::*;

/// The CodeMirror editor, once created (shared through context, so that keyboard shortcuts and
/// actions can reach it).
pub type EditorHandle = leptos::prelude::StoredValue<Option<TabbedEditor>, leptos::prelude::LocalStorage>;

#[wasm_bindgen]
extern "C" {
    /// One editor view with a document (and undo history) per tab.
    pub type TabbedEditor;

    #[wasm_bindgen(js_namespace = SchedlabEditor, js_name = create)]
    pub fn create_editor(parent: &web_sys::HtmlElement, on_change: &js_sys::Function) -> TabbedEditor;

    #[wasm_bindgen(method, js_name = setDoc)]
    pub fn set_doc(this: &TabbedEditor, tab: &str, text: &str);
    #[wasm_bindgen(method, js_name = replaceDoc)]
    pub fn replace_doc(this: &TabbedEditor, tab: &str, text: &str);
    #[wasm_bindgen(method, js_name = getDoc)]
    pub fn get_doc(this: &TabbedEditor, tab: &str) -> String;
    #[wasm_bindgen(method, js_name = showTab)]
    pub fn show_tab(this: &TabbedEditor, tab: &str);
    #[wasm_bindgen(method)]
    pub fn append(this: &TabbedEditor, tab: &str, text: &str);
    #[wasm_bindgen(method, js_name = setErrors)]
    pub fn set_errors(this: &TabbedEditor, tab: &str, errors: JsValue);
    #[wasm_bindgen(method)]
    pub fn reveal(this: &TabbedEditor, line: u32, column: u32);
    #[wasm_bindgen(method)]
    pub fn focus(this: &TabbedEditor);
    #[wasm_bindgen(method)]
    pub fn flush(this: &TabbedEditor);
    #[wasm_bindgen(method)]
    pub fn undo(this: &TabbedEditor) -> bool;
    #[wasm_bindgen(method)]
    pub fn redo(this: &TabbedEditor) -> bool;
    #[wasm_bindgen(method)]
    pub fn search(this: &TabbedEditor);
    #[wasm_bindgen(method, js_name = setReadOnly)]
    pub fn set_read_only(this: &TabbedEditor, ro: bool);

    /// Loads the CodeMirror bundle (once; again after a failure). web/index.html defines it and
    /// starts it at once outside an embed, so an embed never downloads the editor.
    #[wasm_bindgen(js_name = schedlabLoadEditor, catch)]
    pub async fn load_bundle() -> Result<JsValue, JsValue>;
}

/// The share link's payload: deflate-raw + base64url (crates/web/js/link_codec.js, a snippet of
/// the page's own, apart from the editor's bundle).
#[wasm_bindgen(module = "/js/link_codec.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    pub async fn compress(text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    pub async fn decompress(text: &str) -> Result<JsValue, JsValue>;
}
