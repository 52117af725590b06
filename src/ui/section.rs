//! A group of controls that collapses to a one-line summary of its values. Collapsed, its controls stay in the
//! page (hidden), so nothing set in them is lost and they keep their ids.

use leptos::prelude::*;

/// A `<details>` section of the form: `title` and `summary` (the values, live) on the line that opens it.
#[component]
pub fn Section(
    id: &'static str,
    title: &'static str,
    #[prop(into)] summary: Signal<String>,
    children: Children,
) -> impl IntoView {
    view! {
        <details class="section" id=id open>
            <summary>
                <h2>{title}</h2>
                <span class="section-summary" id=format!("{id}-summary")>
                    {move || summary.get()}
                </span>
            </summary>
            <div class="section-body">{children()}</div>
        </details>
    }
}
