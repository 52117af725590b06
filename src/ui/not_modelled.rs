//! What a family does not model (docs/limits.md), in one line under its controls, so that a result is not read as
//! saying more than the simulator can.

use super::form::help_text;
use crate::registry::Family;
use leptos::prelude::*;

/// The line of each family (checked against the code: docs/limits.md says where each holds).
fn note(family: Family) -> (&'static str, &'static str) {
    match family {
        Family::MultiCluster => (
            "not-modelled-mc",
            "machine failures (every processor stays up), data and the network (a task moves no input or output), \
             parallel jobs (a task uses one processor). See docs/limits.md.",
        ),
        Family::DesktopGrid => (
            "not-modelled-dg",
            "a busy checkpoint server (each store or retrieval takes U[240, 720] s, whatever else moves), task input \
             and output data. Machine failures and checkpoints are modelled. See docs/limits.md.",
        ),
        Family::DataGrid => (
            "not-modelled-dd",
            "local policies other than conservative backfilling, EASY and FCFS; machine failures; transfers sharing \
             a link (each gets its own bandwidth); stage-out; a job spread over sites. See docs/limits.md.",
        ),
    }
}

#[component]
pub fn NotModelled(family: Family) -> impl IntoView {
    let (id, text) = note(family);
    view! { <p class="help not-modelled" id=id><strong>"Not modelled: "</strong>{help_text(text)}</p> }
}
