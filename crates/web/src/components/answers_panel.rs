//! "Why here? / Why pending?" for a pod the user clicked: the engine's answer (asked from the
//! worker when the panel opens, and again for each new run while it is open), in sentences
//! with the numbers, the cells it summarises, and for a pending pod the verified suggestions.

use crate::components::answer_pending::PendingAnswer;
use crate::components::cell_links::cell_links;
use crate::protocol::Response;
use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::answer::Answer;

/// The questions the user asked (context of the app; absent in an embed).
#[derive(Clone, Copy)]
pub struct Questions {
    /// The pod asked about (`namespace/name`).
    pub pod: ReadSignal<Option<String>>,
    pub set_pod: WriteSignal<Option<String>>,
    /// The compare view is open.
    pub compare: ReadSignal<bool>,
    pub set_compare: WriteSignal<bool>,
    /// The last comparison made (the Embed dialog offers to include it).
    pub compared: ReadSignal<Option<crate::protocol::CompareWith>>,
    pub set_compared: WriteSignal<Option<crate::protocol::CompareWith>>,
    /// The Embed dialog is open; `Some(true)`: opened from the compare view, the comparison
    /// included at first.
    pub embed: ReadSignal<Option<bool>>,
    pub set_embed: WriteSignal<Option<bool>>,
}

impl Default for Questions {
    fn default() -> Questions {
        let (pod, set_pod) = signal(None);
        let (compare, set_compare) = signal(false);
        let (compared, set_compared) = signal(None);
        let (embed, set_embed) = signal(None);
        Questions {
            pod,
            set_pod,
            compare,
            set_compare,
            compared,
            set_compared,
            embed,
            set_embed,
        }
    }
}

/// What the panel shows: waiting, the answer, or why there is none.
#[derive(Clone, Debug, PartialEq)]
enum Shown {
    Asking,
    Answer(Box<Answer>),
    Failed(String),
}

#[component]
pub fn AnswersPanel() -> impl IntoView {
    let st = use_app();
    let q: Questions = expect_context();
    let (shown, set_shown) = signal(Shown::Asking);
    // Ask the worker (the pod, and each new run while the panel is open).
    Effect::new(move |_| {
        let Some(pod) = q.pod.get() else { return };
        let run = st.run.get();
        if run == 0 {
            return;
        }
        set_shown.set(Shown::Asking);
        st.why(pod, move |r| match r {
            Response::Answered { answer, .. } => set_shown.set(Shown::Answer(answer)),
            Response::Failed { message, .. } => set_shown.set(Shown::Failed(message)),
            // Asked about a run a newer one replaced: the newer run asks again.
            _ => {}
        });
    });
    let title = move || {
        let pod = q.pod.get().unwrap_or_default();
        match shown.get() {
            Shown::Answer(a) if a.pending.is_some() => format!("Why is {pod} pending?"),
            Shown::Answer(a) => format!("Why is {pod} on {}?", a.node.clone().unwrap_or_default()),
            _ => format!("Why? — {pod}"),
        }
    };
    view! {
        <Show when=move || q.pod.with(|p| p.is_some())>
            <aside class="answers" role="dialog" aria-label="Why here or why pending" aria-live="polite">
                <button class="btn icon close" aria-label="Close the answer" on:click=move |_| q.set_pod.set(None)>"×"</button>
                <h4>{title}</h4>
                {move || match shown.get() {
                    Shown::Asking => view! { <p class="muted">"The engine is working it out (it re-runs the scenario for each candidate change)…"</p> }.into_any(),
                    Shown::Failed(m) => view! { <p class="explain-failed" role="alert">"No answer: "{m}</p> }.into_any(),
                    Shown::Answer(a) => {
                        let here = a.here.clone().map(|h| cell_links(st, h.cells));
                        view! {
                            <div class="answer-sentences">{a.sentences.iter().map(|s| view! { <p>{s.clone()}</p> }).collect_view()}</div>
                            {here}
                            {a.pending.clone().map(|p| view! { <PendingAnswer pending=p/> })}
                            <p class="muted small">"About the end of the run (Kubernetes "{st.saved.with_untracked(|s| s.kubernetes_version.to_string())}", this seed and controllers setting)."</p>
                        }
                        .into_any()
                    }
                }}
            </aside>
        </Show>
    }
}
