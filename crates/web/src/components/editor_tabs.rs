//! The editor's tabs, one per part of the scenario, each with its object count and errors.

use crate::scenario::Part;
use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn EditorTabs() -> impl IntoView {
    let st = use_app();
    // Each tab counts its own documents.
    let counts = Memo::new(move |_| {
        st.saved.with(|s| {
            Part::ALL.map(|p| match (&s.generated, p) {
                (Some(g), Part::Nodes) => g.nodes as usize,
                (Some(g), Part::Pods) => g.pods as usize,
                _ => s.parts.doc_count(p),
            })
        })
    });
    let count = move |p: Part| {
        let n = counts.with(|c| Part::ALL.iter().position(|&q| q == p).map(|i| c[i]).unwrap_or(0));
        (n > 0).then(|| compact(n))
    };
    let errors_in = move |p: Part| st.issues.with(|is| is.iter().filter(|i| i.part == Some(p)).count());

    view! {
                <div class="tabs" role="tablist" aria-label="Scenario parts">
                    {Part::ALL
                        .into_iter()
                        .map(|p| {
                            view! {
                                <button
                                    role="tab"
                                    class=move || {
                                        let mut c = String::from("tab");
                                        if st.tab.get() == p {
                                            c.push_str(" active");
                                        }
                                        if errors_in(p) > 0 {
                                            c.push_str(" has-errors");
                                        }
                                        c
                                    }
                                    id=format!("tab-{}", p.id())
                                    aria-selected=move || (st.tab.get() == p).to_string()
                                    title=p.hint()
                                    on:click=move |_| st.set_tab.set(p)
                                >
                                    {p.label()}
                                    <span class="count">{move || count(p)}</span>
                                    {move || {
                                        let n = errors_in(p);
                                        (n > 0).then(|| view! { <span class="err-badge" aria-label=crate::fmt::count(n, "error")>"⚠"{n}</span> })
                                    }}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
    }
}

/// A tab's object count, short enough for five tabs to fit the editor's width: 5k, 10k, 1.5k.
fn compact(n: usize) -> String {
    match n {
        0..=999 => n.to_string(),
        1000..=9999 if n % 1000 >= 100 => format!("{}.{}k", n / 1000, n % 1000 / 100),
        _ => format!("{}k", n / 1000),
    }
}
