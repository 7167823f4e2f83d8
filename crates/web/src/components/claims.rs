//! The Claims tab (Dynamic Resource Allocation): every ResourceClaim at the playhead — what it
//! requests, the devices it was allocated (and on which node), the pods it is reserved for.

use crate::components::devices::claim_short;
use crate::state::use_app;
use leptos::prelude::*;
use schedlab_view::view::ClaimLive;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct ClaimRow {
    key: String,
    requests: Vec<String>,
    owner: Option<String>,
    /// Allocated devices, each with the node(s) that can use it.
    devices: Vec<(String, String)>,
    reserved_for: Vec<String>,
}

#[component]
pub fn Claims() -> impl IntoView {
    let st = use_app();
    let rows = Memo::new(move |_| {
        let live: Vec<ClaimLive> = st.frame.with(|f| f.as_ref().map(|f| f.claims.clone()).unwrap_or_default());
        st.summary.with(|s| {
            let Some(s) = s.as_ref() else { return Vec::new() };
            let Some(dra) = s.model.dra.as_ref() else { return Vec::new() };
            let where_is = |id: &str| -> String {
                match dra.devices.iter().find(|d| d.id == id) {
                    Some(d) if d.all_nodes => "all nodes".into(),
                    Some(d) => d
                        .nodes
                        .iter()
                        .filter_map(|&n| s.model.nodes.get(n as usize).map(|n| n.name.clone()))
                        .collect::<Vec<_>>()
                        .join(", "),
                    None => String::new(),
                }
            };
            let mut keys: Vec<String> = dra.claims.iter().map(|c| c.key.clone()).collect();
            for c in &live {
                if !keys.contains(&c.key) {
                    keys.push(c.key.clone());
                }
            }
            keys.into_iter()
                .map(|key| {
                    let m = dra.claims.iter().find(|c| c.key == key);
                    let l = live.iter().find(|c| c.key == key);
                    ClaimRow {
                        requests: m.map(|m| m.requests.clone()).unwrap_or_default(),
                        owner: m
                            .and_then(|m| m.owner)
                            .and_then(|p| s.model.pods.get(p as usize))
                            .map(|p| p.name.clone()),
                        devices: l
                            .map(|l| l.devices.iter().map(|d| (d.clone(), where_is(d))).collect())
                            .unwrap_or_default(),
                        reserved_for: l.map(|l| l.reserved_for.clone()).unwrap_or_default(),
                        key,
                    }
                })
                .collect::<Vec<_>>()
        })
    });
    let row = move |r: ClaimRow| {
        let allocated = !r.devices.is_empty();
        view! {
            <tr class:allocated=allocated data-claim=r.key.clone()>
                <td class="claim-name">
                    {claim_short(&r.key).to_string()}
                    {r.owner.clone().map(|o| view! { <span class="muted claim-owner" title="Made from the pod's ResourceClaimTemplate">"\u{a0}for pod "{o}</span> })}
                </td>
                <td class="claim-req">{r.requests.join("; ")}</td>
                <td class="claim-devices">
                    {if allocated {
                        r.devices
                            .iter()
                            .map(|(d, node)| view! {
                                <span class="device taken" data-device=d.clone() title=format!("{d} (usable on {node})")>
                                    {d.rsplit('/').next().unwrap_or(d).to_string()}
                                    <span class="muted">{format!("\u{a0}on {node}")}</span>
                                </span>
                            })
                            .collect_view()
                            .into_any()
                    } else {
                        view! { <span class="muted">"not allocated"</span> }.into_any()
                    }}
                </td>
                <td class="claim-reserved">
                    {if r.reserved_for.is_empty() { "—".to_string() } else { r.reserved_for.join(", ") }}
                </td>
            </tr>
        }
    };
    view! {
        <div class="claims events">
            <Show
                when=move || rows.with(|r| !r.is_empty())
                fallback=|| view! {
                    <div class="placeholder">
                        <p><strong>"No ResourceClaims."</strong>" Pods ask for devices (GPUs, NICs…) through ResourceClaims, written or made from a ResourceClaimTemplate; DynamicResources allocates them when it places the pod."</p>
                    </div>
                }
            >
                <p class="events-note muted">"ResourceClaims at the playhead: what each requests, the devices allocated to it (driver/pool/device) and the pods it is reserved for."</p>
                <table class="events-table claims-table">
                    <thead>
                        <tr>
                            <th>"Claim"</th>
                            <th>"Requests"</th>
                            <th>"Allocated"</th>
                            <th>"Reserved for"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=move || rows.get() key=|r| r.clone() children=row/>
                    </tbody>
                </table>
            </Show>
        </div>
    }
}
