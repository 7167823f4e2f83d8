//! The lesson's exercise on screen: its task, its goals (live), its hints revealed one at a
//! time, and "Show solution", which puts the engine's solved text in the editor as one
//! undoable edit.

use crate::components::lesson_goals::{current, LessonGoals};
use crate::components::markdown_view::Markdown;
use crate::editor_js::EditorHandle;
use crate::scenario::{self, Part};
use crate::state::{use_app, AppState};
use leptos::prelude::*;

/// Asks the worker for the scenario with exercise `i` solved and writes the parts that change
/// into the editor (undoable: the editor's Undo, Ctrl+Z, takes it back).
fn show_solution(st: AppState, ed: EditorHandle, i: usize, name: String) {
    ed.with_value(|e| {
        if let Some(e) = e {
            e.flush()
        }
    });
    let (text, _) = st.saved.with_untracked(|s| scenario::join(&s.parts));
    st.solve(text, i, move |r| match r {
        Err(why) => st.flash(format!("No solution applied: {why}")),
        Ok(text) => {
            let new = scenario::split(&text);
            let changed: Vec<Part> = st
                .saved
                .with_untracked(|s| Part::ALL.into_iter().filter(|p| new.get(*p) != s.parts.get(*p)).collect());
            ed.with_value(|e| {
                if let Some(e) = e {
                    for p in &changed {
                        e.replace_doc(p.id(), new.get(*p));
                    }
                }
            });
            if let Some(p) = changed.first() {
                st.set_tab.set(*p);
            }
            st.set_fresh.set(false);
            st.set_saved.update(|s| {
                for p in &changed {
                    s.parts.set(*p, new.get(*p).to_string());
                }
                s.preset = None;
            });
            st.update_progress(|pr| pr.solution_shown(&name));
            st.flash("The solution is in the editor: Undo (Ctrl+Z) takes it back");
        }
    });
}

#[component]
pub fn LessonExercise() -> impl IntoView {
    let st = use_app();
    let ed: EditorHandle = expect_context();
    let cur = current(st);
    let name = move || cur.with(|c| c.as_ref().map(|(_, ex, _)| ex.name.clone()).unwrap_or_default());
    let shown = move || {
        let n = name();
        st.progress
            .with(|p| p.get(&st.lesson_key().unwrap_or_default()).map(|p| p.hints_shown(&n)).unwrap_or(0)) as usize
    };
    let hints = move || cur.with(|c| c.as_ref().map(|(_, ex, _)| ex.hints.clone()).unwrap_or_default());
    let reveal = move |_| {
        let (n, of) = (name(), hints().len() as u32);
        st.update_progress(|p| p.reveal(&n, of));
    };
    let solve = move |_| {
        if let Some((i, ex, _)) = cur.get_untracked() {
            show_solution(st, ed, i, ex.name);
        }
    };
    view! {
        <div class="lesson-exercise">
            {move || cur.with(|c| c.as_ref().map(|(_, ex, _)| view! { <Markdown text=ex.task.clone()/> }))}
            <LessonGoals/>
            <div class="lesson-hints">
                <ol class="hints">
                    {move || hints().into_iter().take(shown()).map(|h| view! { <li class="hint"><Markdown text=h/></li> }).collect_view()}
                </ol>
                <div class="lesson-actions">
                    {move || {
                        let (k, n) = (shown(), hints().len());
                        (k < n).then(|| view! {
                            <button class="btn small" on:click=reveal>{if k == 0 { format!("Show a hint (1 of {n})") } else { format!("Next hint ({} of {n})", k + 1) }}</button>
                        })
                    }}
                    {move || (!st.embed && cur.with(|c| c.as_ref().is_some_and(|(_, ex, _)| ex.has_solution))).then(|| view! {
                        <button class="btn small" on:click=solve title="Put the lesson's solution in the editor (one edit: Undo takes it back)">"Show solution"</button>
                    })}
                </div>
            </div>
        </div>
    }
}
