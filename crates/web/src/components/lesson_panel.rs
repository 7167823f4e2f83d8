//! The lesson beside the cluster, when the scenario holds a Lesson document: its title and
//! story, the exercises (a switcher), the exercise on screen (`lesson_exercise`), and the
//! learner's progress with a Reset. A passing run of an exercise is kept as progress.

use crate::components::lesson_exercise::LessonExercise;
use crate::components::markdown_view::Markdown;
use crate::lessons::Progress;
use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::KubeVersion;

#[component]
pub fn LessonPanel() -> impl IntoView {
    let st = use_app();
    // Every exercise whose goals all pass on a run is kept as passed (not after its solution
    // was shown: `Progress::pass`).
    Effect::new(move |_| {
        let passed: Vec<String> = st.lesson.with(|l| {
            l.as_ref()
                .map(|l| l.verdicts.iter().filter(|v| v.pass).map(|v| v.name.clone()).collect())
                .unwrap_or_default()
        });
        let key = st.lesson_key().unwrap_or_default();
        let news = st.progress.with_untracked(|all| {
            let p = all.get(&key).cloned().unwrap_or_default();
            passed.iter().any(|e| p.clone().pass(e))
        });
        if news {
            st.update_progress(|p| {
                for e in &passed {
                    p.pass(e);
                }
            });
        }
    });
    let info = Memo::new(move |_| st.lesson.with(|l| l.as_ref().map(|l| l.info.clone())));
    let progress = move || {
        st.progress
            .with(|all| all.get(&st.lesson_key().unwrap_or_default()).cloned().unwrap_or_default())
    };
    let exercises = move || {
        info.with(|i| {
            i.as_ref()
                .map(|i| i.exercises.iter().map(|e| e.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    };
    // The version the lesson is written for, when the page runs another.
    let other_version = move || {
        let want = info.with(|i| i.as_ref().and_then(|i| KubeVersion::parse(&i.kubernetes_version)))?;
        (st.saved.with(|s| s.kubernetes_version) != want).then_some(want)
    };
    view! {
        <div class="panel-head">
            <h2>"Lesson"</h2>
            <span class="muted lesson-topic">{move || info.with(|i| i.as_ref().map(|i| i.topic.clone()))}</span>
            <button class="btn small" on:click=move |_| st.set_show_lessons.set(true) title="The lesson gallery, by topic">"All lessons"</button>
        </div>
        <div class="lesson-body">
            <h3 class="lesson-title">{move || info.with(|i| i.as_ref().map(|i| i.title.clone()))}</h3>
            {move || other_version().map(|v| view! {
                <p class="lesson-version" role="note">
                    {format!("Written for Kubernetes {v}; this page runs another version. ")}
                    <button class="btn small" on:click=move |_| st.set_saved.update(|s| s.kubernetes_version = v)>{format!("Run on {v}")}</button>
                </p>
            })}
            <details class="lesson-story" open=true>
                <summary>"Story"</summary>
                {move || info.with(|i| i.as_ref().map(|i| view! { <Markdown text=i.story.clone()/> }))}
            </details>
            <div class="exercise-tabs tabs" role="tablist" aria-label="Exercises">
                {move || exercises()
                    .into_iter()
                    .enumerate()
                    .map(|(i, name)| {
                        let done = progress().is_passed(&name);
                        view! {
                            <button
                                role="tab"
                                class="tab"
                                class:active=move || st.exercise.get() == i
                                aria-selected=move || (st.exercise.get() == i).to_string()
                                on:click=move |_| st.set_exercise.set(i)
                            >
                                {format!("{}. {name}{}", i + 1, if done { " ✓" } else { "" })}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <LessonExercise/>
            <div class="lesson-progress muted">
                <span class="progress-line">{move || {
                    let p = progress();
                    let n = exercises().len();
                    let done = exercises().iter().filter(|e| p.is_passed(e)).count();
                    format!("Progress: {done} of {n} passed · {} used", crate::fmt::count(p.hints_used() as usize, "hint"))
                }}</span>
                {(!st.embed).then(|| view! {
                    <button class="btn small link" on:click=move |_| st.update_progress(|p| *p = Progress::default()) title="Forget this lesson's passed exercises and revealed hints">"Reset progress"</button>
                })}
            </div>
        </div>
    }
}
