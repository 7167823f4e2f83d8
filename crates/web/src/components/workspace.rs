//! The playground's panels: the editor, the cluster with the answers, the queue, the lesson when
//! one is open, and the scheduling cycle with the explanations. Never built in an embed: `App`
//! gives an embedded page `EmbedShell`, which lays out its own.

use crate::components::{
    answers_panel::AnswersPanel, cluster::ClusterView, cycle::LowerPanel, editor::Editor, explain_panel::ExplainPanel, lesson_panel::LessonPanel,
    queue::QueuePanel, splitter::Splitter,
};
use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn Workspace() -> impl IntoView {
    let st = use_app();
    view! {
        <main class="workspace" class:with-lesson=move || st.lesson.with(Option::is_some)>
            <section class="panel editor-panel" aria-label="Scenario editor">
                <Editor/>
            </section>
            <Splitter/>
            // The answers dock beside the cluster (style.css): open, they take a column of the
            // cluster panel instead of floating over its nodes.
            <section class="panel cluster-panel" aria-label="Cluster">
                <ClusterView/>
                <AnswersPanel/>
            </section>
            <section class="panel queue-panel" aria-label="Scheduling queue">
                <QueuePanel/>
            </section>
            <Show when=move || st.lesson.with(Option::is_some)>
                <section class="panel lesson-panel" aria-label="Lesson">
                    <LessonPanel/>
                </section>
            </Show>
            <section class="panel lower-panel" aria-label="Scheduling cycle">
                // Made anew for each run: its tables are keyed by node and pod indices, which
                // mean other objects in another run.
                {move || {
                    st.run.track();
                    view! { <LowerPanel/> }
                }}
                <ExplainPanel/>
            </section>
        </main>
    }
}
