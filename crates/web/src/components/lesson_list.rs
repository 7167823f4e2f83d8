//! The lesson list (the top bar's "Lessons"): the gallery by topic, each lesson with the
//! learner's progress. Opening one replaces the scenario (the learner's own edits are kept
//! among the recent scenarios, as for a preset).

use crate::lessons::{self, GalleryLesson};
use crate::scenario::Saved;
use crate::state::{use_app, AppState};
use leptos::prelude::*;

/// Opens gallery lesson `l` at its first exercise, once its text is downloaded (the list stays
/// open until then, and says why when it cannot be).
pub fn open_lesson(st: AppState, l: &'static GalleryLesson) {
    leptos::task::spawn_local(async move {
        match crate::storage::lesson_text(l).await {
            Ok(text) => {
                st.set_show_lessons.set(false);
                st.set_exercise.set(0);
                let _ = st.replace_scenario(Saved::from_lesson(l, &text));
            }
            Err(why) => st.set_notice.set(Some(format!("{why}. The scenario on screen is unchanged."))),
        }
    });
}

#[component]
pub fn LessonList() -> impl IntoView {
    let st = use_app();
    let close = move || st.set_show_lessons.set(false);
    let row = move |l: &'static GalleryLesson| {
        let progress = move || {
            st.progress.with(|all| {
                let p = all.get(l.id).cloned().unwrap_or_default();
                let done = p.passed.len().min(l.exercises);
                let hints = p.hints_used();
                (
                    done,
                    format!(
                        "{done}/{} passed{}",
                        l.exercises,
                        if hints > 0 {
                            format!(" · {}", crate::fmt::count(hints as usize, "hint"))
                        } else {
                            String::new()
                        }
                    ),
                )
            })
        };
        view! {
            <li class="lesson-row" data-lesson=l.id>
                <button class="lesson-open" on:click=move |_| open_lesson(st, l)>
                    <span class="lesson-row-title">{l.title}</span>
                    <span class="muted lesson-row-topic">{l.topic}</span>
                </button>
                <span class="lesson-row-progress" class:done=move || progress().0 == l.exercises>{move || progress().1}</span>
            </li>
        }
    };
    view! {
        <Show when=move || st.show_lessons.get()>
            <div class="modal-backdrop" on:click=move |_| close()>
                <div class="modal lesson-list" role="dialog" aria-modal="true" aria-label="Lessons" on:click=|e| e.stop_propagation()>
                    <button class="btn icon close" aria-label="Close" on:click=move |_| close()>"×"</button>
                    <h2>"Lessons"</h2>
                    <p class="muted">"Each lesson is a scenario with exercises: edit it until its goals pass. Your progress is kept in this browser."</p>
                    {lessons::groups()
                        .into_iter()
                        .map(|(group, ls)| view! {
                            <section class="lesson-group">
                                <h3>{group}</h3>
                                <ul>{ls.into_iter().map(row).collect_view()}</ul>
                            </section>
                        })
                        .collect_view()}
                </div>
            </div>
        </Show>
    }
}
