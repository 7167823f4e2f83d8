//! PostFilter (DefaultPreemption): the candidate nodes, the victims each would need, PDB
//! violations, and the node chosen.

use crate::components::pod_chip::{ChipState, PodChip};
use leptos::prelude::*;
use schedlab_view::view::CycleView;

#[component]
pub fn Preemption(cv: Memo<Option<CycleView>>) -> impl IntoView {
    let pf = Memo::new(move |_| cv.with(|c| c.as_ref().and_then(|c| c.post_filter.clone())));
    view! {
        <div class="preemption">
            <h3 class="box-title">"PostFilter: preemption"</h3>
            {move || {
                let p = pf.get()?;
                let header = match (&p.chosen, p.candidates.is_empty()) {
                    (Some(n), _) => format!("Evict the victims on {n} and nominate it for the pod."),
                    (None, true) => "No node can be freed by evicting lower-priority pods.".to_string(),
                    (None, false) => "No candidate was chosen.".to_string(),
                };
                Some(view! {
                    <p class="pf-summary">{header}</p>
                    {p.decided_by.clone().map(|d| view! { <p class="pf-rule" title="DefaultPreemption compares candidates by five rules in turn: fewest PDB violations, lowest priority of the most important victim, smallest sum of victim priorities, fewest victims, latest start time">{d}</p> })}
                    {(!p.message.is_empty()).then(|| view! { <p class="pf-message muted">{p.message.clone()}</p> })}
                    {(!p.candidates.is_empty()).then(|| view! {
                        <table class="candidates" aria-label="Preemption candidates">
                            <thead>
                                <tr>
                                    <th scope="col">"Candidate"</th>
                                    <th scope="col">"Victims"</th>
                                    <th scope="col" title="PodDisruptionBudget violations">"PDB viol."</th>
                                </tr>
                            </thead>
                            <tbody>
                                {p.candidates
                                    .iter()
                                    .map(|c| view! {
                                        <tr class={if c.chosen { "chosen" } else { "" }} data-candidate=c.node.clone()>
                                            <th scope="row">{c.chosen.then_some("★ ")}{c.node.clone()}</th>
                                            <td class="victims">
                                                {c.victims.iter().map(|&v| view! { <PodChip pod=v state=ChipState::Victim/> }).collect_view()}
                                                {c.other_victims.iter().map(|v| view! { <span class="chip victim">{v.clone()}</span> }).collect_view()}
                                            </td>
                                            <td class={if c.pdb_violations > 0 { "warn" } else { "" }}>{c.pdb_violations}</td>
                                        </tr>
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    })}
                })
            }}
        </div>
    }
}
