//! Keyboard shortcuts and a short guide.

use crate::state::use_app;
use leptos::prelude::*;

#[component]
pub fn HelpDialog() -> impl IntoView {
    let st = use_app();
    view! {
        <Show when=move || st.show_help.get()>
            <div class="modal-backdrop" on:click=move |_| st.set_show_help.set(false)>
                <div class="modal" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" on:click=|e| e.stop_propagation()>
                    <button class="btn icon close" aria-label="Close" on:click=move |_| st.set_show_help.set(false)>"×"</button>
                    <h2>"How to read schedlab"</h2>
                    <p>"Write Nodes and Pods on the left (YAML, as kubectl would take them). The engine schedules them exactly as kube-scheduler v1.34 would and records every decision. The middle shows the cluster and the queue at the playhead; below, the scheduling cycle of the pod being placed: which extension point runs, each node's filter verdict, the scores, and preemption."</p>
                    <p>"Click a node, a filter cell or a score cell to have it explained with its numbers."</p>
                    <table class="keys">
                        <tbody>
                            <tr><th><kbd>"Space"</kbd></th><td>"play / pause"</td></tr>
                            <tr><th><kbd>"→"</kbd>" / "<kbd>"←"</kbd></th><td>"next / previous phase"</td></tr>
                            <tr><th><kbd>"Shift"</kbd>"+"<kbd>"→"</kbd>" / "<kbd>"←"</kbd></th><td>"next / previous pod (cycle)"</td></tr>
                            <tr><th><kbd>"Home"</kbd>" / "<kbd>"End"</kbd></th><td>"start / end of the run"</td></tr>
                            <tr><th><kbd>"1"</kbd>"–"<kbd>"4"</kbd></th><td>"speed 1×, 2×, 4×, 16×"</td></tr>
                            <tr><th><kbd>"E"</kbd></th><td>"focus the editor"</td></tr>
                            <tr><th><kbd>"Esc"</kbd></th><td>"close explanations and dialogs"</td></tr>
                            <tr><th><kbd>"?"</kbd></th><td>"this help"</td></tr>
                        </tbody>
                    </table>
                    <p class="muted">"In the editor: Ctrl+Z / Ctrl+Shift+Z undo and redo, Ctrl+F search. Edits are saved in this browser; a scenario you edited is kept when a preset, an import, a file or a link replaces it (the last five, each with its name and time, at the top of the preset list). Share puts the scenario in the link; Embed copies an <iframe> for a docs page. The Events tab lists what kubectl get events would show."</p>
                </div>
            </div>
        </Show>
    }
}
