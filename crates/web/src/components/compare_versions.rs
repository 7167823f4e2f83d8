//! "What changes if I upgrade?": for a comparison with another Kubernetes version, what the two
//! versions' schedulers differ on (each with its upstream change) and, per pod that answers
//! differently, each field in both versions with the change that reproduces it alone — the
//! engine's attribution (`answer::compare_versions`), shown as it came.

use leptos::prelude::*;
use schedlab_view::answer::VersionComparison;

fn or_none(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "—".into())
}

#[component]
pub fn CompareVersions(versions: VersionComparison) -> impl IntoView {
    let v = versions;
    let changes = v
        .changes
        .iter()
        .map(|c| {
            let upstream = c.upstream.clone().map(|u| format!(" ({u})")).unwrap_or_default();
            let explains = match c.explains {
                0 => "explains no difference here".to_string(),
                1 => "explains 1 difference".to_string(),
                n => format!("explains {n} differences"),
            };
            view! { <li data-switch=c.switch.clone()><code>{c.switch.clone()}</code>{upstream}": "{c.what.clone()}" — "<span class="muted">{explains}</span></li> }
        })
        .collect_view();
    let rows = v
        .pods
        .iter()
        .flat_map(|p| {
            p.fields.iter().map(move |f| {
                let why = if f.explained_by.is_empty() { "unexplained (no single change reproduces it)".to_string() } else { f.explained_by.join(", ") };
                view! {
                    <tr data-pod=p.pod.clone() data-field=f.field.clone()>
                        <th scope="row">{p.pod.clone()}</th><td>{f.field.clone()}</td>
                        <td>{or_none(&f.from)}</td><td>{or_none(&f.to)}</td><td class="why">{why}</td>
                    </tr>
                }
            })
        })
        .collect_view();
    let none = v.pods.is_empty();
    view! {
        <section class="compare-versions" aria-label="What changes between the versions">
            <h3>{format!("v{} → v{}: what the schedulers differ on", v.from, v.to)}</h3>
            <ul class="version-changes">{changes}</ul>
            <Show when=move || none fallback=move || ()>
                <p class="muted">"No pod answers differently."</p>
            </Show>
            <div class="compare-pods-wrap">
                <table class="version-pods">
                    <thead><tr><th>"Pod"</th><th>"Field"</th><th>{format!("v{}", v.from)}</th><th>{format!("v{}", v.to)}</th><th>"Explained by"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}
