//! The scenario editor: CodeMirror with one tab per part, add-object buttons and the engine's
//! errors beside it (placed at their line and column).

use crate::components::editor_tabs::EditorTabs;
use crate::components::editor_toolbar::EditorToolbar;
use crate::components::error_list::ErrorList;
use crate::components::files::{self, FileChoice, PendingFile};
use crate::components::generated_note::GeneratedNote;
use crate::editor_js::EditorHandle;
use crate::editor_js::{create_editor, load_bundle};
use crate::scenario::Part;
use crate::state::{use_app, AppState};
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn Editor() -> impl IntoView {
    let st = use_app();
    let ed: EditorHandle = expect_context();
    let host = NodeRef::<html::Div>::new();
    let root = NodeRef::<html::Div>::new();
    let pending: PendingFile = RwSignal::new_local(None);
    let (dragging, set_dragging) = signal(false);

    // A file dropped on the editor is not pasted into the document (CodeMirror would): the
    // user chooses to replace the scenario or add its objects. Capture phase, ahead of it.
    Effect::new(move |_| {
        let Some(el) = root.get() else { return };
        let over = Closure::<dyn FnMut(web_sys::DragEvent)>::new(move |e: web_sys::DragEvent| {
            if files::drags_files(&e) {
                e.prevent_default();
                set_dragging.set(true);
            }
        });
        let leave = Closure::<dyn FnMut(web_sys::DragEvent)>::new(move |_e: web_sys::DragEvent| set_dragging.set(false));
        let drop = Closure::<dyn FnMut(web_sys::DragEvent)>::new(move |e: web_sys::DragEvent| {
            set_dragging.set(false);
            if let Some(f) = files::dropped_file(&e) {
                e.prevent_default();
                e.stop_propagation();
                files::read_file(st, pending, f);
            }
        });
        for (name, f) in [("dragover", &over), ("dragleave", &leave), ("drop", &drop)] {
            let _ = el.add_event_listener_with_callback_and_bool(name, f.as_ref().unchecked_ref(), true);
        }
        over.forget();
        leave.forget();
        drop.forget();
    });
    let create = move |el: web_sys::HtmlDivElement| {
        if ed.with_value(|e| e.is_some()) {
            return;
        }
        let on_change = Closure::<dyn FnMut(String, String)>::new(move |tab: String, text: String| {
            let Some(p) = Part::from_id(&tab) else { return };
            if st.saved.with_untracked(|s| s.parts.get(p) == text) {
                return;
            }
            st.set_fresh.set(false);
            st.set_saved.update(|s| {
                s.parts.set(p, text);
                s.preset = None;
            });
        });
        let editor = create_editor(&el, on_change.as_ref().unchecked_ref());
        on_change.forget();
        ed.set_value(Some(editor));
        st.set_editor_ready.set(true);
    };

    follow_state(st, ed);

    // Create the editor once its host is in the page, the first run is on screen and
    // CodeMirror's bundle has arrived (the page loads it apart from the app: web/index.html),
    // and fill it. Until then the host says it is loading; if the bundle cannot be loaded it
    // says so and offers to try again.
    let wanted = after_first_frame(st);
    let (load_error, set_load_error) = signal(None::<String>);
    let (attempt, set_attempt) = signal(0u32);
    Effect::new(move |_| {
        attempt.track();
        if !wanted.get() {
            return;
        }
        let Some(el) = host.get() else { return };
        if ed.with_value(|e| e.is_some()) {
            return;
        }
        set_load_error.set(None);
        leptos::task::spawn_local(async move {
            match load_bundle().await {
                // In a task of its own: running the bundle was one already.
                Ok(_) => set_timeout(move || create(el), std::time::Duration::ZERO),
                Err(e) => {
                    let why = e
                        .dyn_ref::<js_sys::Error>()
                        .map(|e| String::from(e.message()))
                        .unwrap_or_else(|| "the page's editor loader is missing".to_string());
                    set_load_error.set(Some(why));
                }
            }
        });
    });

    view! {
        <div class="editor" class:dragging=dragging node_ref=root>
            <div class="panel-head">
                <EditorTabs/>
            </div>
            <EditorToolbar pending=pending/>
            <div class="editor-hint muted">{move || st.tab.get().hint()}</div>
            <GeneratedNote/>
            <FileChoice pending=pending/>
            {move || match load_error.get() {
                Some(why) => view! {
                    <div class="editor-loading failed" role="alert">
                        {format!("The editor could not be loaded ({why}). The scenario is kept; Open…, Save and the views still work.")}
                        " "
                        <button class="btn small" on:click=move |_| set_attempt.update(|n| *n += 1)>"Try again"</button>
                    </div>
                }.into_any(),
                None => (!st.editor_ready.get()).then(|| view! { <div class="editor-loading muted">"Loading the editor…"</div> }).into_any(),
            }}
            <div class="editor-host" node_ref=host></div>
            <ErrorList/>
        </div>
    }
}

/// Becomes true after the first paint that shows the first run's frame, its load errors or an
/// engine that could not start, or after a second, whichever comes first: running CodeMirror's
/// bundle and setting the editor up take the main thread for a while, and the first frame
/// should not wait for them.
fn after_first_frame(st: AppState) -> ReadSignal<bool> {
    let (wanted, set_wanted) = signal(false);
    // Once: setting a signal notifies even when its value stays, and each notice would make the
    // editor's loader run again (after a failed download, a retry the user did not ask for).
    let want = move || {
        if !wanted.get_untracked() {
            set_wanted.set(true);
        }
    };
    set_timeout(want, std::time::Duration::from_secs(1));
    Effect::new(move |_| {
        if wanted.get_untracked() {
            return;
        }
        let shown = st.frame.with(Option::is_some) || st.issues.with(|i| !i.is_empty()) || st.engine_note.with(Option::is_some);
        if shown {
            // After the next frame is painted, in a task of its own.
            request_animation_frame(move || set_timeout(want, std::time::Duration::ZERO));
        }
    });
    wanted
}

/// The editor follows the state: its documents when the scenario is replaced, the visible tab,
/// and the error markers in each tab.
fn follow_state(st: AppState, ed: EditorHandle) {
    // Fill the documents when the scenario is replaced (and once the editor exists).
    Effect::new(move |_| {
        st.docs_version.track();
        if !st.editor_ready.get() {
            return;
        }
        let saved = st.saved.get_untracked();
        let tab = st.tab.get_untracked();
        ed.with_value(|e| {
            if let Some(e) = e {
                for p in Part::ALL {
                    e.set_doc(p.id(), saved.parts.get(p));
                }
                e.show_tab(tab.id());
                e.set_read_only(saved.generated.is_some());
            }
        });
    });

    // The visible tab.
    Effect::new(move |_| {
        let t = st.tab.get();
        if !st.editor_ready.get() {
            return;
        }
        ed.with_value(|e| {
            if let Some(e) = e {
                e.show_tab(t.id())
            }
        });
    });

    // Error markers in each tab.
    Effect::new(move |_| {
        let issues = st.issues.get();
        if !st.editor_ready.get() {
            return;
        }
        ed.with_value(|e| {
            let Some(e) = e else { return };
            for p in Part::ALL {
                let arr = js_sys::Array::new();
                for i in issues.iter().filter(|i| i.part == Some(p)) {
                    let o = js_sys::Object::new();
                    let _ = js_sys::Reflect::set(&o, &"line".into(), &JsValue::from(i.line));
                    let _ = js_sys::Reflect::set(&o, &"column".into(), &JsValue::from(i.column));
                    let _ = js_sys::Reflect::set(&o, &"message".into(), &JsValue::from_str(&i.message));
                    arr.push(&o);
                }
                e.set_errors(p.id(), arr.into());
            }
        });
    });
}
