//! The second wasm module's side of the parts of the page loaded only when first shown (`lazy.rs`): each is a
//! Leptos view of its own, mounted into the placeholder the page made for it; a part that uses the page's scenario
//! follows it through a `shown::mirror` of its own (one listener each, four in all).

use super::shown;
use super::split::Part;
use leptos::prelude::*;

/// Mounts the part named `name` into `element` (the page's placeholder, whose "Loading…" it replaces); a name that
/// is no [`Part`]'s is refused with a message.
pub fn mount(name: &str, element: web_sys::HtmlElement) -> Result<(), super::split::UnknownPart> {
    console_error_panic_hook::set_once();
    let part = Part::from_name(name)?;
    element.set_inner_html("");
    // A family's own parts (its paper figures, its tools) are mounted by its folder.
    let Some(element) = super::families::mount_part(part, element) else { return Ok(()) };
    match part {
        Part::Study => leptos::mount::mount_to(element, super::study::OpenStudy).forget(),
        Part::References => leptos::mount::mount_to(element, super::references::References).forget(),
        Part::Records => {
            let scenario = shown::mirror();
            leptos::mount::mount_to(element, move || view! { <super::records::Records scenario=scenario /> }).forget()
        }
        Part::Lessons => {
            let stage = super::lesson_stage::Stage::mirror();
            let initial = super::lesson_stage::Stage::asked();
            leptos::mount::mount_to(element, move || {
                view! { <super::lessons::Lessons initial=initial.clone() stage=stage /> }
            })
            .forget()
        }
        Part::TraceViews | Part::ScenarioViews => {
            let id = if part == Part::TraceViews { "trace-views" } else { "scenario-views" };
            let (views, jobs) = super::views::mirror(id);
            leptos::mount::mount_to(element, move || {
                view! { <super::views::ViewsPanel views=views jobs=jobs id=id /> }
            })
            .forget()
        }
        Part::Gantt => {
            let scenario = shown::mirror();
            leptos::mount::mount_to(element, move || view! { <super::gantt::Gantt scenario=scenario /> }).forget()
        }
        Part::Tournament => {
            let scenario = shown::mirror();
            leptos::mount::mount_to(element, move || view! { <super::tournament::Tournament scenario=scenario /> })
                .forget()
        }
        // Mounted above, by their family.
        Part::Paper | Part::Sweep | Part::DgFigures | Part::DdFigures | Part::DdCompare => {}
    }
    Ok(())
}
