//! A node card's "Devices" section (Dynamic Resource Allocation): the devices ResourceSlices
//! publish for the node, each as a chip that says which claim has it at the playhead.

use crate::state::use_app;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// One device on a node card.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct DeviceChip {
    id: String,
    name: String,
    /// `pool (slice)` and the attributes, for the title.
    about: String,
    /// The claim (`namespace/name`) that has it.
    taken_by: Option<String>,
}

/// The claim's name as a pod's owner would read it (no `default/`).
pub fn claim_short(key: &str) -> &str {
    key.strip_prefix("default/").unwrap_or(key)
}

#[component]
pub fn NodeDevices(node: u32) -> impl IntoView {
    let st = use_app();
    // The node's devices: those of slices local to it (a slice several nodes share is listed
    // in the Claims tab instead, not on every card).
    let devices = Memo::new(move |_| {
        st.summary.with(|s| {
            let Some(dra) = s.as_ref().and_then(|s| s.model.dra.as_ref()) else {
                return Vec::new();
            };
            dra.devices
                .iter()
                .filter(|d| !d.all_nodes && d.nodes == [node])
                .map(|d| {
                    let mut about = format!("{} — driver {}, pool {}, slice {}", d.id, d.driver, d.pool, d.slice);
                    if !d.attributes.is_empty() {
                        about.push_str(&format!("; {}", d.attributes.join(", ")));
                    }
                    (d.id.clone(), d.device.clone(), about)
                })
                .collect::<Vec<_>>()
        })
    });
    let taken = Memo::new(move |_| {
        st.frame.with(|f| {
            let mut m: BTreeMap<String, String> = BTreeMap::new();
            if let Some(f) = f.as_ref() {
                for c in &f.claims {
                    for d in &c.devices {
                        m.insert(d.clone(), c.key.clone());
                    }
                }
            }
            m
        })
    });
    let chips = move || {
        let t = taken.get();
        devices.with(|ds| {
            ds.iter()
                .map(|(id, name, about)| DeviceChip {
                    id: id.clone(),
                    name: name.clone(),
                    about: about.clone(),
                    taken_by: t.get(id).cloned(),
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Show when=move || devices.with(|d| !d.is_empty())>
            <div class="devices" aria-label="Devices on this node">
                <span class="devices-label muted" title="Devices published by ResourceSlices for this node (Dynamic Resource Allocation)">
                    "Devices"
                </span>
                <For
                    each=chips
                    key=|c| c.clone()
                    children=move |c| {
                        let title = match &c.taken_by {
                            Some(k) => format!("{} — allocated to claim {k}", c.about),
                            None => format!("{} — free", c.about),
                        };
                        let taken = c.taken_by.is_some();
                        view! {
                            <span class="device" class:taken=taken data-device=c.id.clone() data-claim=c.taken_by.clone().unwrap_or_default() title=title>
                                {if taken { "◼ " } else { "◻ " }}
                                {c.name.clone()}
                                {c.taken_by.as_deref().map(|k| view! { <span class="device-claim">"\u{a0}→ "{claim_short(k).to_string()}</span> })}
                            </span>
                        }
                    }
                />
            </div>
        </Show>
    }
}
