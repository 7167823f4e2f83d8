//! The app shell: builds the state, starts the playback (`crate::playback`) and the shell's
//! work with the outside world (`crate::shell`: start-up from the address, autosave, address
//! sync, keyboard, document), and lays out the page.

use crate::components::embed_shell::EmbedShell;
use crate::components::{
    action_menu::ActionMenu, answers_panel::{AnswersPanel, Questions}, cluster::ClusterView, compare_dialog::CompareDialog, cycle::LowerPanel, editor::Editor,
    explain_panel::ExplainPanel, generate_dialog::GenerateDialog, help::HelpDialog, lesson_list::LessonList, lesson_panel::LessonPanel,
    notices::Notices, queue::QueuePanel, splitter::Splitter, topbar::TopBar, transport::Transport,
};
use crate::editor_js::EditorHandle;
use crate::scenario::{self, Saved};
use crate::shell::{address, autosave, document, keyboard, startup};
use crate::state::{AppState, Theme};
use crate::{playback, storage};
use leptos::prelude::*;

fn default_saved() -> Saved {
    Saved::from_preset(scenario::preset(scenario::DEFAULT_PRESET).expect("the default preset exists"), scenario::DEFAULT_TEXT)
}

#[component]
pub fn App() -> impl IntoView {
    let embed = storage::embed_mode();
    // An embedded page never reads or writes the visitor's autosaved scenario.
    let autosaved = if embed { None } else { storage::load_saved() };
    let recent = if embed { Vec::new() } else { storage::load_recent() };
    // Embedded: the author's options from the address (`crate::embed`).
    let embed_opts = startup::embed_options(embed);
    let theme = embed_opts.and_then(|o| o.theme).unwrap_or_else(Theme::initial);
    let mut st = AppState::new(autosaved.clone().unwrap_or_else(default_saved), theme, recent, embed);
    st.embed_opts = embed_opts;
    provide_context(st);
    let editor: EditorHandle = StoredValue::new_local(None);
    provide_context(editor);
    provide_context(Questions::default());
    if embed {
        playback::watch_visibility(st);
    }
    let preset = startup::apply_preset(st, autosaved.as_ref());
    let (start, link_pending) = startup::read_address(st, autosaved.is_some(), preset);
    playback::start(st, start, link_pending);
    autosave::install(st, editor);
    address::install(st, link_pending);
    document::install(st);
    keyboard::install(st, editor);

    if let Some(opts) = embed_opts {
        return view! { <EmbedShell opts=opts/> }.into_any();
    }
    view! {
        <div class="app">
            <TopBar/>
            <Notices/>
            <main class="workspace" class:with-lesson=move || st.lesson.with(Option::is_some)>
                {(!embed).then(|| view! {
                    <section class="panel editor-panel" aria-label="Scenario editor">
                        <Editor/>
                    </section>
                    <Splitter/>
                })}
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
                    // Made anew for each run: its tables are keyed by node and pod indices,
                    // which mean other objects in another run.
                    {move || {
                        st.run.track();
                        view! { <LowerPanel/> }
                    }}
                    <ExplainPanel/>
                </section>
            </main>
            <Transport/>
            <HelpDialog/>
            <GenerateDialog/>
            <LessonList/>
            <ActionMenu/>
            <CompareDialog/>
            <div class="toast" role="status" aria-live="polite">
                {move || st.toast.get().map(|t| view! { <span>{t}</span> })}
            </div>
        </div>
    }
    .into_any()
}
