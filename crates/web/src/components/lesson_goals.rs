//! The goals of the lesson's exercise on screen, each with its verdict on the run on screen
//! (✓ or ✗) and the reason the engine gave. Shown in the lesson panel and in an embed.

use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::lesson::{ExerciseInfo, ExerciseVerdict};

/// The exercise on screen: its index, what it asks and its verdicts on the run on screen.
pub fn current(st: crate::state::AppState) -> Memo<Option<(usize, ExerciseInfo, Option<ExerciseVerdict>)>> {
    Memo::new(move |_| {
        st.lesson.with(|l| {
            let l = l.as_ref()?;
            let i = st.exercise.get().min(l.info.exercises.len().checked_sub(1)?);
            Some((i, l.info.exercises[i].clone(), l.verdicts.get(i).cloned()))
        })
    })
}

#[component]
pub fn LessonGoals() -> impl IntoView {
    let st = use_app();
    let cur = current(st);
    // (goal, pass, reason) per goal; no verdict yet: the goals alone.
    let rows = move || {
        cur.with(|c| match c {
            Some((_, _, Some(v))) => v.goals.iter().map(|g| (g.goal.clone(), Some(g.pass), g.reason.clone())).collect(),
            Some((_, ex, None)) => ex.goals.iter().map(|g| (g.clone(), None, String::new())).collect(),
            None => Vec::new(),
        })
    };
    let all = move || cur.with(|c| c.as_ref().and_then(|(_, _, v)| v.as_ref().map(|v| v.pass)));
    view! {
        <div class="lesson-goals" data-pass=move || all().map(|p| p.to_string()).unwrap_or_default()>
            <div class="goals-head">
                <span class="label">"Goals"</span>
                {move || all().map(|pass| view! {
                    <span class="goals-verdict" class:pass=pass>{if pass { "all met ✓" } else { "not yet" }}</span>
                })}
            </div>
            <ul class="goals" aria-live="polite">
                {move || rows()
                    .into_iter()
                    .map(|(goal, pass, reason)| {
                        let (mark, cls, said) = match pass {
                            Some(true) => ("✓", "goal pass", "met"),
                            Some(false) => ("✗", "goal fail", "not met"),
                            None => ("·", "goal", "not run yet"),
                        };
                        let id = goal.clone();
                        view! {
                            <li class=cls data-goal=id>
                                <span class="goal-mark" aria-label=said>{mark}</span>
                                <span class="goal-text">
                                    <span class="goal-name">{goal}</span>
                                    <span class="goal-reason muted">{reason}</span>
                                </span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    }
}
