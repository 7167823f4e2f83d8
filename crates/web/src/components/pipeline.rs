//! The extension points as a pipeline, the current one lit.

use leptos::prelude::*;
use schedlab_view::view::{CycleView, PointState};

#[component]
pub fn Pipeline(cv: Memo<Option<CycleView>>) -> impl IntoView {
    let steps = Memo::new(move |_| cv.with(|c| c.as_ref().map(|c| c.pipeline.clone()).unwrap_or_default()));
    view! {
        <ol class="pipeline" aria-label="Extension points">
            {move || {
                steps
                    .get()
                    .into_iter()
                    .map(|s| {
                        let (class, glyph, word) = match s.state {
                            PointState::Pending => ("pending", "○", "not reached"),
                            PointState::Current => ("current", "●", "now"),
                            PointState::Passed => ("passed", "✓", "done"),
                            PointState::Failed => ("failed", "✗", "failed"),
                            PointState::NotRun => ("notrun", "–", "not run"),
                        };
                        let title = match &s.note {
                            Some(n) => format!("{}: {word} — {n}", s.point),
                            None => format!("{}: {word}", s.point),
                        };
                        view! {
                            <li class=format!("pp {class}") title=title.clone() aria-label=title aria-current=(class == "current").then_some("step")>
                                <span class="pp-glyph" aria-hidden="true">{glyph}</span>
                                <span class="pp-name">{s.point.clone()}</span>
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ol>
    }
}
