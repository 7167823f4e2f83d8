//! The app shell: builds the state, starts the playback (`crate::playback`) and the shell's
//! work with the outside world (`crate::shell`: start-up from the address, autosave, address
//! sync, keyboard, document), and lays out the page.

use crate::components::embed_shell::EmbedShell;
use crate::components::{
    action_menu::ActionMenu, answers_panel::Questions, compare_dialog::CompareDialog, generate_dialog::GenerateDialog, help::HelpDialog,
    lesson_list::LessonList, notices::Notices, topbar::TopBar, transport::Transport, workspace::Workspace,
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
    // The shell first, the workspace in the next task (below).
    let (built, set_built) = signal(false);
    set_timeout(move || set_built.set(true), std::time::Duration::ZERO);
    view! {
        <div class="app">
            <TopBar/>
            <Notices/>
            // The workspace is built in the task after the shell's, with the request to the engine
            // already sent: the two together held the main thread longer than either does.
            {move || built.get().then(|| view! { <Workspace/> })}
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
