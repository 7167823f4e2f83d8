//! The top bar's "Controllers: on/off" switch: whether the workload controllers (Deployment,
//! ReplicaSet, StatefulSet, DaemonSet, Job…) create their pods before the scheduler starts.

use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn ControllersToggle() -> impl IntoView {
    let st = use_app();
    let on = move || st.saved.with(|s| s.controllers);
    let toggle = move |_| {
        // A different world: play it from the start.
        st.set_fresh.set(true);
        st.set_saved.update(|s| s.controllers = !s.controllers);
    };
    view! {
        <button
            class="btn ctl-toggle"
            class:off=move || !on()
            data-controllers=move || if on() { "on" } else { "off" }
            aria-pressed=move || on().to_string()
            on:click=toggle
            title="Workload controllers: Deployments, ReplicaSets, StatefulSets, DaemonSets and Jobs create their pods before scheduling starts, as kube-controller-manager would. Turn them off to see only the pods written in the scenario (the conformance corpus describes a world where no controller runs)."
        >
            {move || if on() { "Controllers: on" } else { "Controllers: off" }}
        </button>
    }
}
