//! Profiles: the configuration as written next to the effective (defaulted) one, each profile's
//! plugins per extension point, and which profile each pod uses.

use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn Profiles() -> impl IntoView {
    let st = use_app();
    let written = move || {
        let t = st.saved.with(|s| s.parts.config.clone());
        if t.trim().is_empty() {
            "# No KubeSchedulerConfiguration: kube-scheduler's defaults apply\n# (one profile, default-scheduler). Add one in the Config tab.".to_string()
        } else {
            t
        }
    };
    let effective = move || {
        st.summary
            .with(|s| s.as_ref().map(|s| s.effective_config.clone()).unwrap_or_default())
    };
    let profiles = move || {
        st.summary
            .with(|s| s.as_ref().map(|s| s.model.profiles.clone()).unwrap_or_default())
    };
    let pods_of = move |name: String| {
        st.summary.with(|s| {
            s.as_ref()
                .map(|s| {
                    s.model
                        .pods
                        .iter()
                        .filter(|p| p.profile == name)
                        .map(|p| p.name.clone())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    let foreign = move || {
        st.summary.with(|s| {
            s.as_ref()
                .map(|s| {
                    s.model
                        .pods
                        .iter()
                        .filter(|p| !p.has_profile)
                        .map(|p| format!("{} ({})", p.name, p.profile))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    view! {
        <div class="profiles">
            <div class="profile-cards">
                {move || {
                    profiles()
                        .into_iter()
                        .map(|p| {
                            let pods = pods_of(p.name.clone());
                            let weights = p.weights.iter().map(|(k, v)| format!("{k} ×{v}")).collect::<Vec<_>>().join(", ");
                            view! {
                                <section class="profile-card" aria-label=format!("Profile {}", p.name)>
                                    <h3>{p.name.clone()}</h3>
                                    <p class="muted small">
                                        {format!("{} {} it (spec.schedulerName): ", crate::fmt::count(pods.len(), "pod"), if pods.len() == 1 { "uses" } else { "use" })}
                                        {pods.join(", ")}
                                    </p>
                                    {(!p.notes.is_empty()).then(|| view! { <ul class="notes">{p.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul> })}
                                    <table class="points">
                                        <tbody>
                                            {p.points
                                                .iter()
                                                .filter(|(_, v)| !v.is_empty())
                                                .map(|(pt, v)| view! { <tr><th scope="row">{pt.clone()}</th><td>{v.join(", ")}</td></tr> })
                                                .collect_view()}
                                            <tr><th scope="row">"Score weights"</th><td>{weights}</td></tr>
                                        </tbody>
                                    </table>
                                </section>
                            }
                        })
                        .collect_view()
                }}
                {move || {
                    let f = foreign();
                    (!f.is_empty()).then(|| view! {
                        <section class="profile-card foreign">
                            <h3>"No profile"</h3>
                            <p class="small">"These pods name a scheduler that has no profile here; this scheduler never queues them: "{f.join(", ")}</p>
                        </section>
                    })
                }}
            </div>
            <div class="config-compare">
                <section>
                    <h3>"As written (Config tab)"</h3>
                    <pre class="yaml" aria-label="Configuration as written">{written}</pre>
                </section>
                <section>
                    <h3>"Effective (defaulted), as kube-scheduler prints it"</h3>
                    <pre class="yaml" aria-label="Effective configuration">{effective}</pre>
                </section>
            </div>
        </div>
    }
}
