//! "Import from a cluster": paste or drop `kubectl get … -o yaml|json` (or `kubectl
//! cluster-info dump`) output; the worker turns it into a scenario (`schedlab_core::import`, in the worker)
//! and the dialog shows what was imported, skipped and found (pods' and nodes' real state)
//! before the user replaces the scenario with it. Nothing leaves the browser.

use crate::components::files::dropped_file;
use crate::scenario;
use crate::state::use_app;
use leptos::prelude::*;
use leptos::task::spawn_local;
use schedlab_view::import::{ImportReport, Issue};

/// Texts larger than this are refused (as files opened in the editor are).
const MAX_TEXT: usize = 64 * 1024 * 1024;

/// The top bar's button and the dialog it opens.
#[component]
pub fn ImportButton() -> impl IntoView {
    let st = use_app();
    let open = RwSignal::new(false);
    view! {
        <button
            class="btn"
            on:click=move |_| {
                st.close_popovers();
                open.set(true)
            }
            aria-label="Import from a cluster"
            title="Paste or drop kubectl output (get -o yaml/json, cluster-info dump) to see why a real cluster's pods are pending"
        >
            "Import…"
        </button>
        <Show when=move || open.get()>
            <ImportDialog open=open/>
        </Show>
    }
}

#[component]
fn ImportDialog(open: RwSignal<bool>) -> impl IntoView {
    let st = use_app();
    let text = RwSignal::new(String::new());
    let reading = RwSignal::new(false);
    let result: RwSignal<Option<(String, ImportReport)>> = RwSignal::new(None);
    let read_text = move |t: String| {
        if t.trim().is_empty() {
            result.set(None);
            return;
        }
        reading.set(true);
        st.import(t, move |scenario_text, report| {
            reading.set(false);
            result.set(Some((scenario_text, report)));
        });
    };
    let read = move |_| read_text(text.get_untracked());
    let replace = move |_| {
        let Some((scenario_text, _)) = result.get_untracked() else { return };
        if scenario_text.is_empty() {
            return;
        }
        open.set(false);
        let told = st.replace_scenario(st.saved.with_untracked(|s| s.replaced_by(scenario::split(&scenario_text))));
        st.flash(match told {
            Some(t) => format!("Imported. {t}"),
            None => "Imported".into(),
        });
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        let Some(file) = dropped_file(&ev) else { return };
        if file.size() > MAX_TEXT as f64 {
            result.set(None);
            st.flash("That file is too large to import here");
            return;
        }
        spawn_local(async move {
            if let Ok(t) = wasm_bindgen_futures::JsFuture::from(file.text()).await {
                let t = t.as_string().unwrap_or_default();
                text.set(t.clone());
                read_text(t);
            }
        });
    };
    let close = move || open.set(false);
    view! {
        <div class="modal-backdrop" on:click=move |_| close()>
            <div
                class="modal import-dialog"
                role="dialog"
                aria-modal="true"
                aria-label="Import from a cluster"
                on:click=|e| e.stop_propagation()
                on:keydown=move |e| {
                    if e.key() == "Escape" {
                        close()
                    }
                }
                on:dragover=|e| {
                    e.prevent_default();
                    e.stop_propagation();
                }
                on:drop=on_drop
            >
                <button class="btn icon close" aria-label="Close" on:click=move |_| close()>"×"</button>
                <h2>"Import from a cluster"</h2>
                <p class="muted">
                    "Paste the output of "<code>"kubectl get nodes,pods -A -o yaml"</code>" (or "<code>"-o json"</code>", any kinds, or "
                    <code>"kubectl cluster-info dump"</code>"), or drop the file here. Kinds the scheduler does not use are skipped; "
                    "the pods' and nodes' real state is kept and listed below."
                </p>
                <p class="import-private">
                    <strong>"Everything stays in this browser."</strong>
                    " The text is read by schedlab's engine inside this page (a Web Worker) and is never uploaded or sent anywhere. "
                    "Secrets are skipped unread."
                </p>
                <textarea
                    class="import-text"
                    name="import-text"
                    aria-label="kubectl output to import"
                    spellcheck="false"
                    placeholder="apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  …"
                    prop:value=move || text.get()
                    on:input=move |ev| {
                        text.set(event_target_value(&ev));
                        result.set(None);
                    }
                ></textarea>
                <div class="modal-actions import-actions">
                    <button class="btn" on:click=read disabled=move || reading.get() || text.with(|t| t.trim().is_empty())>
                        {move || if reading.get() { "Reading…" } else { "Read it" }}
                    </button>
                    <button
                        class="btn primary"
                        on:click=replace
                        disabled=move || result.with(|r| r.as_ref().is_none_or(|(t, _)| t.is_empty()))
                        title="Your own scenario is kept among the recent scenarios of the preset list"
                    >
                        "Replace the scenario"
                    </button>
                </div>
                {move || result.get().map(|(_, report)| view! { <Report report=report/> })}
            </div>
        </div>
    }
}

fn issue_list(items: Vec<Issue>, class: &'static str) -> impl IntoView {
    view! {
        <ul class=class>
            {items
                .into_iter()
                .map(|i| {
                    let at = i.at.as_ref().map(|w| w.to_string()).unwrap_or_default();
                    view! {
                        <li>
                            {i.object.map(|o| view! { <strong>{o}</strong>": " })}
                            <span>{i.message}</span>
                            " "
                            <span class="muted at">{at}</span>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// What the import found, for the user to read before replacing the scenario.
#[component]
fn Report(report: ImportReport) -> impl IntoView {
    let imported = report.imported_line();
    let skipped = report.skipped_line();
    let nw = report.warnings.len();
    let ne = report.errors.len();
    let nn = report.notes.len();
    view! {
        <div class="import-report" role="status">
            <p class="import-imported"><strong>{imported}</strong></p>
            {skipped.map(|s| view! { <p class="import-skipped muted">{s}</p> })}
            {(ne > 0).then(|| view! {
                <h3>{format!("Not imported ({ne})")}</h3>
                {issue_list(report.errors, "import-errors")}
            })}
            {(nw > 0).then(|| view! {
                <h3>{format!("The cluster's state ({nw})")}</h3>
                {issue_list(report.warnings, "import-warnings")}
            })}
            {(nn > 0).then(|| view! {
                <details class="import-notes">
                    <summary>{format!("What import changed ({nn})")}</summary>
                    <ul>{report.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </details>
            })}
        </div>
    }
}
