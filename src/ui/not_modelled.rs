//! What a family does not model (docs/limits.md), in one line under its controls, so that a result is not read as
//! saying more than the simulator can. Each family's controls give their own line (checked against the code:
//! docs/limits.md says where each holds).

use super::form::help_text;
use leptos::prelude::*;

/// The line "Not modelled: `text`", as element `id`.
#[component]
pub fn NotModelled(id: &'static str, text: &'static str) -> impl IntoView {
    view! {
        <p class="help not-modelled" id=id>
            <strong>"Not modelled: "</strong>
            {help_text(text)}
        </p>
    }
}
