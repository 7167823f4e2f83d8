//! The compare view: the scenario on screen beside a second run of it — under another
//! KubeSchedulerConfiguration (pasted or edited here), as it was before the last edit, or
//! with another seed, or by another Kubernetes version's scheduler. The engine runs both and compares them (`Request::Compare`); `CompareResult` shows what it found.

use crate::components::answers_panel::Questions;
use crate::components::compare_link;
use crate::components::compare_play::ComparePlay;
use crate::components::compare_result::CompareResult;
use crate::components::compare_versions::CompareVersions;
use crate::protocol::{CompareWith, Response};
use crate::scenario::Parts;
use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::answer::{Comparison, VersionComparison};
use schedlab_view::KubeVersion;

/// The configuration offered first: the default profile scoring with MostAllocated.
pub const MOST_ALLOCATED: &str = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n";

/// What run B is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Config,
    Seed,
    /// The scenario before its last change.
    Before,
    /// Another Kubernetes version.
    Version,
}

#[derive(Clone, Debug, PartialEq)]
enum Outcome {
    None,
    Running,
    Done(Box<Comparison>, Option<Box<VersionComparison>>),
    Failed(String),
}

#[component]
pub fn CompareDialog() -> impl IntoView {
    let st = use_app();
    let q: Questions = expect_context();
    let (mode, set_mode) = signal(Mode::Config);
    let (config, set_config) = signal(MOST_ALLOCATED.to_string());
    let (seed, set_seed) = signal(2u64);
    // The other version: the newest other than the scenario's, until one is chosen.
    let (other, set_other) = signal(None::<KubeVersion>);
    let other_version = move || {
        other.get().unwrap_or_else(|| {
            let own = st.saved.with(|s| s.kubernetes_version);
            KubeVersion::ALL.iter().rev().copied().find(|v| *v != own).unwrap_or(own)
        })
    };
    let (outcome, set_outcome) = signal(Outcome::None);
    // "Play both" is open (below the comparison's figures).
    let (play, set_play) = signal(false);
    // The scenario before its last change (the Before choice compares with it).
    let (before, set_before) = signal(None::<Parts>);
    Effect::new(move |prev: Option<Parts>| {
        let now = st.saved.with(|s| s.parts.clone());
        if prev.as_ref().is_some_and(|p| *p != now) {
            set_before.set(prev);
        }
        now
    });
    // A link's comparison (`compare_link`): the view opens with it.
    if let Some(with) = compare_link::read() {
        match with {
            CompareWith::Seed(n) => {
                set_mode.set(Mode::Seed);
                set_seed.set(n);
            }
            CompareWith::Config(c) => set_config.set(c),
            CompareWith::Version(v) => {
                set_mode.set(Mode::Version);
                set_other.set(Some(v));
            }
            CompareWith::Text(_) => {}
        }
        q.set_compare.set(true);
    }
    let run_it = move || {
        let with = match mode.get_untracked() {
            Mode::Seed => CompareWith::Seed(seed.get_untracked()),
            Mode::Config => CompareWith::Config(config.get_untracked()),
            Mode::Version => CompareWith::Version(other_version()),
            Mode::Before => CompareWith::Text(crate::scenario::join(&before.get_untracked().unwrap_or_default()).0),
        };
        compare_link::write(Some(&with));
        q.set_compared.set(Some(with.clone()));
        set_outcome.set(Outcome::Running);
        st.compare(with, move |r| match r {
            Response::Compared { comparison, versions, .. } => set_outcome.set(Outcome::Done(comparison, versions)),
            Response::Failed { message, .. } => set_outcome.set(Outcome::Failed(message)),
            _ => set_outcome.set(Outcome::Failed("the scenario changed while comparing: compare again".into())),
        });
    };
    // Opened (by the button or a link): compare at once; again for each new run while open.
    Effect::new(move |_| {
        if q.compare.get() && st.run.get() > 0 {
            run_it();
        }
    });
    let close = move || {
        q.set_compare.set(false);
        set_outcome.set(Outcome::None);
        set_play.set(false);
        compare_link::write(None);
    };
    let from_tab = move |_| {
        let c = st.saved.with_untracked(|s| s.parts.config.clone());
        set_config.set(if c.trim().is_empty() { MOST_ALLOCATED.to_string() } else { c });
    };
    view! {
        <Show when=move || q.compare.get()>
            <div class="modal-backdrop" on:click=move |_| close()>
                <div class="modal compare" role="dialog" aria-modal="true" aria-label="Compare two runs" on:click=|e| e.stop_propagation()>
                    <button class="btn icon close" aria-label="Close" on:click=move |_| close()>"×"</button>
                    <h2>"Compare two runs"</h2>
                    <p class="muted">"A: the scenario on screen. B: the same scenario under the configuration below, the scenario as it was before the last edit, another seed, or another Kubernetes version."</p>
                    <div class="compare-form">
                        <label><input type="radio" name="compare-by" prop:checked=move || mode.get() == Mode::Config on:change=move |_| set_mode.set(Mode::Config)/>" Another configuration"</label>
                        <label><input type="radio" name="compare-by" prop:checked=move || mode.get() == Mode::Before disabled=move || before.with(Option::is_none)
                            on:change=move |_| set_mode.set(Mode::Before)/>" The scenario before the last edit"</label>
                        <label><input type="radio" name="compare-by" prop:checked=move || mode.get() == Mode::Seed on:change=move |_| set_mode.set(Mode::Seed)/>" Another seed: "
                            <input type="number" name="compare-seed" min="0" prop:value=move || seed.get().to_string()
                                on:input=move |ev| if let Ok(v) = event_target_value(&ev).trim().parse() { set_seed.set(v) }/>
                        </label>
                        <label><input type="radio" name="compare-by" prop:checked=move || mode.get() == Mode::Version on:change=move |_| set_mode.set(Mode::Version)/>" Kubernetes "
                            <select name="compare-version" aria-label="The version of run B" on:change=move |ev| set_other.set(KubeVersion::parse(&event_target_value(&ev)))>
                                {KubeVersion::ALL.iter().map(|v| {
                                    let v = *v;
                                    view! { <option value=v.as_str() prop:selected=move || other_version() == v>{format!("v{v}")}</option> }
                                }).collect_view()}
                            </select>
                        </label>
                        <button class="btn small" on:click=from_tab title="Start from the Config tab's text">"From the Config tab"</button>
                        <button class="btn primary" data-action="compare" on:click=move |_| run_it()>"Compare"</button>
                    </div>
                    <Show when=move || mode.get() == Mode::Config>
                        <textarea class="compare-config" name="compare-config" spellcheck="false" rows="9" aria-label="The configuration of run B"
                            prop:value=move || config.get() on:input=move |ev| set_config.set(event_target_value(&ev))></textarea>
                    </Show>
                    {move || match outcome.get() {
                        Outcome::None => ().into_any(),
                        Outcome::Running => view! { <p class="muted">"Running both…"</p> }.into_any(),
                        Outcome::Failed(m) => view! { <p class="explain-failed" role="alert">"No comparison: "{m}</p> }.into_any(),
                        Outcome::Done(c, v) => {
                            let (a_label, b_label, differing) = (c.a.label.clone(), c.b.label.clone(), c.differing.clone());
                            view! {
                            <div class="compare-actions">
                                <button class="btn" data-action="play-both" aria-pressed=move || play.get().to_string()
                                    title="Both runs side by side under one transport, at the same cycle" on:click=move |_| set_play.update(|p| *p = !*p)>"Play both"</button>
                                <button class="btn" data-action="embed-compare" title="An <iframe> showing this comparison in a docs page"
                                    on:click=move |_| { close(); q.set_embed.set(Some(true)) }>"Embed…"</button>
                            </div>
                            <Show when=move || play.get()>
                                <ComparePlay a_label=a_label.clone() b_label=b_label.clone() differing=differing.clone()/>
                            </Show>
                            {v.map(|v| view! { <CompareVersions versions=*v/> })}
                            <CompareResult comparison=*c/>
                        }.into_any()
                        }
                    }}
                </div>
            </div>
        </Show>
    }
}
