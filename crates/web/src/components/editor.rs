//! The scenario editor: CodeMirror with one tab per part, add-object buttons and the engine's
//! errors beside it (placed at their line and column).

use crate::bridge::{self, BridgeHandle};
use crate::components::app::EditorHandle;
use crate::editor_js::create_editor;
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
    let bridge: BridgeHandle = expect_context();
    let host = NodeRef::<html::Div>::new();

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

    // Create the editor once its host is in the page (in a task of its own, after the first
    // paint of the app), and fill it.
    Effect::new(move |_| {
        let Some(el) = host.get() else { return };
        if ed.with_value(|e| e.is_some()) {
            return;
        }
        set_timeout(move || create(el), std::time::Duration::ZERO);
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

    let count = move |p: Part| {
        st.summary
            .with(|s| {
                s.as_ref().map(|s| match p {
                    Part::Nodes => compact(s.model.nodes.len()),
                    Part::Pods => compact(s.model.pods.len()),
                    Part::Config => compact(s.model.profiles.len()),
                    Part::Other => String::new(),
                })
            })
            .map(|c| {
                if p == Part::Other {
                    let n = st.saved.with(|s| s.parts.other.lines().filter(|l| l.starts_with("kind:")).count());
                    if n > 0 {
                        n.to_string()
                    } else {
                        String::new()
                    }
                } else {
                    c
                }
            })
    };
    let errors_in = move |p: Part| st.issues.with(|is| is.iter().filter(|i| i.part == Some(p)).count());

    let add = move |t: Template| {
        let text = st.saved.with_untracked(|s| t.text(&s.parts));
        st.set_tab.set(t.part());
        ed.with_value(|e| {
            if let Some(e) = e {
                e.append(t.part().id(), &text);
            }
        });
    };
    let generated = Memo::new(move |_| st.saved.with(|s| s.generated.clone()));
    let to_yaml = move |_| {
        let Some(spec) = generated.get_untracked() else { return };
        st.flash("Writing the generated cluster into the editor…");
        let seed = st.saved.with_untracked(|s| s.seed);
        bridge::generated_text(bridge, spec, move |text| {
            let (nodes, pods) = text.split_once('\u{0}').unwrap_or((&text, ""));
            let parts = crate::scenario::Parts {
                nodes: nodes.to_string(),
                pods: pods.to_string(),
                ..Default::default()
            };
            st.replace_scenario(Saved {
                parts,
                seed,
                preset: None,
                generated: None,
            });
        });
    };

    view! {
        <div class="editor">
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
                                        (n > 0).then(|| view! { <span class="err-badge" aria-label=format!("{n} errors")>"⚠"{n}</span> })
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
                                <button class="btn small" on:click=move |_| add(t) aria-label=format!("Add a {}", t.label())>
                                    "+ "
                                    {t.label()}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <div class="edits">
                    <button class="btn small icon" title="Undo (Ctrl+Z)" aria-label="Undo" on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.undo(); } })>"↶"</button>
                    <button class="btn small icon" title="Redo (Ctrl+Shift+Z)" aria-label="Redo" on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.redo(); } })>"↷"</button>
                    <button class="btn small icon" title="Search (Ctrl+F)" aria-label="Search" on:click=move |_| ed.with_value(|e| { if let Some(e) = e { e.search(); } })>"⌕"</button>
                </div>
            </div>
            <div class="editor-hint muted">{move || st.tab.get().hint()}</div>
            {move || {
                generated
                    .get()
                    .map(|g| {
                        view! {
                            <div class="generated-note" role="note">
                                <strong>{format!("Generated cluster: {} nodes, {} pods, {} zones.", g.nodes, g.pods, g.zones)}</strong>
                                " Its YAML is not loaded into the editor (it would be megabytes). "
                                <button class="btn small" on:click=to_yaml>"Load the YAML into the editor"</button>
                            </div>
                        }
                    })
            }}
            <div class="editor-host" node_ref=host></div>
            <ErrorList/>
        </div>
    }
}

/// A tab's object count, short enough for four tabs to fit the editor's width: 5k, 10k, 1.5k.
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
