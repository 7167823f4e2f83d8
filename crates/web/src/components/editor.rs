//! The scenario editor: CodeMirror with one tab per part, add-object buttons and the engine's
//! errors beside it (placed at their line and column).

use crate::editor_js::EditorHandle;
use crate::components::files::{self, FileChoice, PendingFile};
use crate::editor_js::{create_editor, load_bundle};
use crate::scenario::{Part, Saved, Template};
use crate::state::use_app;
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
    let file_input = NodeRef::<html::Input>::new();
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
    let on_file = move |_| {
        let Some(input) = file_input.get() else { return };
        if let Some(f) = input.files().and_then(|l| l.get(0)) {
            files::read_file(st, pending, f);
        }
        input.set_value("");
    };

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

    // Create the editor once its host is in the page and CodeMirror's bundle has arrived (the
    // page loads it apart from the app: web/index.html), and fill it. Until then the host says
    // it is loading; if the bundle cannot be loaded it says so and offers to try again.
    let (load_error, set_load_error) = signal(None::<String>);
    let (attempt, set_attempt) = signal(0u32);
    Effect::new(move |_| {
        attempt.track();
        let Some(el) = host.get() else { return };
        if ed.with_value(|e| e.is_some()) {
            return;
        }
        set_load_error.set(None);
        leptos::task::spawn_local(async move {
            match load_bundle().await {
                Ok(_) => create(el),
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

    // Each tab counts its own documents.
    let counts = Memo::new(move |_| {
        st.saved.with(|s| {
            Part::ALL.map(|p| match (&s.generated, p) {
                (Some(g), Part::Nodes) => g.nodes as usize,
                (Some(g), Part::Pods) => g.pods as usize,
                _ => s.parts.doc_count(p),
            })
        })
    });
    let count = move |p: Part| {
        let n = counts.with(|c| Part::ALL.iter().position(|&q| q == p).map(|i| c[i]).unwrap_or(0));
        (n > 0).then(|| compact(n))
    };
    let errors_in = move |p: Part| st.issues.with(|is| is.iter().filter(|i| i.part == Some(p)).count());

    let add = move |t: Template| {
        // A node goes round the zones of the run on screen (the one with the fewest nodes).
        let zones: Vec<(String, usize)> = st.summary.with_untracked(|s| {
            let Some(s) = s else { return Vec::new() };
            let m = &s.model;
            let mut out: Vec<(String, usize)> = m.zones.iter().map(|z| (z.clone(), 0)).collect();
            for n in &m.nodes {
                if let Some(e) = out.get_mut(n.zone as usize) {
                    e.1 += 1;
                }
            }
            out
        });
        let zone = crate::scenario::next_zone(&zones);
        let text = st.saved.with_untracked(|s| t.text(&s.parts, &zone));
        st.set_tab.set(t.part());
        // A scenario holds one KubeSchedulerConfiguration: with one there already, say where to
        // change it rather than add a second the loader would refuse.
        if t.part() == Part::Config && st.saved.with_untracked(|s| crate::scenario::has_config(&s.parts)) {
            st.flash(format!(
                "The Config tab already has a KubeSchedulerConfiguration: {} in its profiles list (a scenario holds one configuration)",
                if t == Template::DefaultProfile {
                    "change the default-scheduler entry (or add one)"
                } else {
                    "add a second entry with another schedulerName"
                }
            ));
            return;
        }
        ed.with_value(|e| {
            if let Some(e) = e {
                e.append(t.part().id(), &text);
            }
        });
        if t == Template::Node {
            st.flash(format!(
                "A node in {zone}, the zone with the fewest nodes (edit its topology.kubernetes.io/zone label to move it)"
            ));
        }
    };
    let generated = Memo::new(move |_| st.saved.with(|s| s.generated.clone()));
    let to_yaml = move |_| {
        let Some(spec) = generated.get_untracked() else { return };
        st.flash("Writing the generated cluster into the editor…");
        let seed = st.saved.with_untracked(|s| s.seed);
        st.generated_text(spec, move |text| {
            let (nodes, pods) = text.split_once('\u{0}').unwrap_or((&text, ""));
            let parts = crate::scenario::Parts {
                nodes: nodes.to_string(),
                pods: pods.to_string(),
                ..Default::default()
            };
            let _ = st.replace_scenario(Saved {
                parts,
                seed,
                preset: None,
                generated: None,
                controllers: st.saved.with_untracked(|s| s.controllers),
            });
        });
    };

    view! {
        <div class="editor" class:dragging=dragging node_ref=root>
            <div class="panel-head">
                <div class="tabs" role="tablist" aria-label="Scenario parts">
                    {Part::ALL
                        .into_iter()
                        .map(|p| {
                            view! {
                                <button
                                    role="tab"
                                    class=move || {
                                        let mut c = String::from("tab");
                                        if st.tab.get() == p {
                                            c.push_str(" active");
                                        }
                                        if errors_in(p) > 0 {
                                            c.push_str(" has-errors");
                                        }
                                        c
                                    }
                                    id=format!("tab-{}", p.id())
                                    aria-selected=move || (st.tab.get() == p).to_string()
                                    title=p.hint()
                                    on:click=move |_| st.set_tab.set(p)
                                >
                                    {p.label()}
                                    <span class="count">{move || count(p)}</span>
                                    {move || {
                                        let n = errors_in(p);
                                        (n > 0).then(|| view! { <span class="err-badge" aria-label=crate::fmt::count(n, "error")>"⚠"{n}</span> })
                                    }}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </div>
            <div class="editor-toolbar" role="toolbar" aria-label="Editor tools">
                <div class="adds">
                    <span class="muted">"Add"</span>
                    {Template::ALL
                        .into_iter()
                        .map(|t| {
                            view! {
                                <button class="btn small" on:click=move |_| add(t) disabled=move || !st.editor_ready.get() aria-label=format!("Add a {}", t.label())>
                                    "+ "
                                    {t.label()}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <div class="files">
                    <label class="btn small" title="Open a YAML or JSON file (or drop one on the editor)">
                        "Open…"
                        <input type="file" class="visually-hidden" accept=".yaml,.yml,.json,.txt,application/yaml,application/json,text/plain" node_ref=file_input on:change=on_file aria-label="Open a file"/>
                    </label>
                    <button class="btn small" title="Save the scenario as a YAML file" on:click=move |_| files::download_scenario(st)>"Save"</button>
                </div>
                <div class="edits">
                    <button class="btn small icon" title="Undo (Ctrl+Z)" aria-label="Undo" disabled=move || !st.editor_ready.get() on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.undo(); } })>"↶"</button>
                    <button class="btn small icon" title="Redo (Ctrl+Shift+Z)" aria-label="Redo" disabled=move || !st.editor_ready.get() on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.redo(); } })>"↷"</button>
                    <button class="btn small icon" title="Search (Ctrl+F)" aria-label="Search" disabled=move || !st.editor_ready.get() on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.search(); } })>"⌕"</button>
                </div>
            </div>
            <div class="editor-hint muted">{move || st.tab.get().hint()}</div>
            {move || {
                generated
                    .get()
                    .map(|g| {
                        view! {
                            <div class="generated-note" role="note">
                                <strong>{format!("Generated cluster: {}, {}, {}.", crate::fmt::count(g.nodes as usize, "node"), crate::fmt::count(g.pods as usize, "pod"), crate::fmt::count(g.zones as usize, "zone"))}</strong>
                                " Its YAML is not loaded into the editor (it would be megabytes). "
                                <button class="btn small" on:click=to_yaml>"Load the YAML into the editor"</button>
                            </div>
                        }
                    })
            }}
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

/// A tab's object count, short enough for five tabs to fit the editor's width: 5k, 10k, 1.5k.
fn compact(n: usize) -> String {
    match n {
        0..=999 => n.to_string(),
        1000..=9999 if n % 1000 >= 100 => format!("{}.{}k", n / 1000, n % 1000 / 100),
        _ => format!("{}k", n / 1000),
    }
}

/// The engine's errors, beside the editor; clicking one shows it in its tab.
#[component]
fn ErrorList() -> impl IntoView {
    let st = use_app();
    let ed: EditorHandle = expect_context();
    view! {
        <Show when=move || st.issues.with(|i| !i.is_empty())>
            <div class="error-list" role="alert" aria-label="Errors in the scenario">
                <div class="error-head">
                    <strong>"⚠ The scenario has errors"</strong>
                    <span class="muted">" — the views show the last valid run."</span>
                </div>
                <ul>
                    {move || {
                        st.issues
                            .get()
                            .into_iter()
                            .map(|i| {
                                let where_ = match i.part {
                                    Some(p) if i.line > 0 => format!("{} line {}, column {}", p.label(), i.line, i.column),
                                    Some(p) => p.label().to_string(),
                                    None => "scenario".to_string(),
                                };
                                let (part, line, col) = (i.part, i.line, i.column);
                                view! {
                                    <li>
                                        <button
                                            class="linklike error-item"
                                            on:click=move |_| {
                                                if let Some(p) = part {
                                                    st.set_tab.set(p);
                                                    ed.with_value(|e| {
                                                        if let Some(e) = e {
                                                            e.show_tab(p.id());
                                                            e.reveal(line.max(1), col.max(1));
                                                        }
                                                    });
                                                }
                                            }
                                        >
                                            <span class="where">{where_}</span>
                                        </button>
                                        <span class="msg">{i.message}</span>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}
