//! The second wasm module's side of the parts of the page loaded only when first shown (`lazy.rs`): each is a
//! Leptos view of its own, mounted into the placeholder the page made for it; a part that uses the page's scenario
//! follows it through a `shown::mirror` of its own (one listener each, four in all).

use super::shown;
use leptos::prelude::*;

/// Mounts the panel `name` into `element` (the page's placeholder, whose "Loading…" it replaces).
pub fn mount(name: &str, element: web_sys::HtmlElement) -> Result<(), String> {
    console_error_panic_hook::set_once();
    element.set_inner_html("");
    match name {
        "paper" => leptos::mount::mount_to(element, super::multi_cluster::paper::PaperFigures).forget(),
        "study" => leptos::mount::mount_to(element, super::study::OpenStudy).forget(),
        "dg-figures" => {
            let scenario = shown::mirror();
            leptos::mount::mount_to(element, move || {
                view! { <super::desktop_grid::figures::DgFigures scenario=scenario/> }
            })
            .forget()
        }
        "dd-figures" => {
            let scenario = shown::mirror();
            leptos::mount::mount_to(element, move || {
                view! { <super::data_grid::figures::DataGridFigures scenario=scenario/> }
            })
            .forget()
        }
        "lessons" => {
            let stage = super::lesson_stage::Stage::mirror();
            let initial = super::lesson_stage::Stage::asked();
            leptos::mount::mount_to(element, move || {
                view! { <super::lessons::Lessons initial=initial.clone() stage=stage/> }
            })
            .forget()
        }
        "sweep" => {
            let (scenario, form_ok) = (shown::mirror(), shown::form_ok());
            leptos::mount::mount_to(element, move || {
                view! { <super::multi_cluster::sweep::Sweep scenario=scenario form_ok=form_ok/> }
            })
            .forget()
        }
        "views/trace-views" | "views/scenario-views" => {
            let id = if name == "views/trace-views" { "trace-views" } else { "scenario-views" };
            let (views, jobs) = super::views::mirror(id);
            leptos::mount::mount_to(element, move || {
                view! { <super::views::ViewsPanel views=views jobs=jobs id=id/> }
            })
            .forget()
        }
        "dd-compare" => {
            let scenario = shown::mirror();
            leptos::mount::mount_to(element, move || {
                view! { <super::data_grid::compare::Compare scenario=scenario/> }
            })
            .forget()
        }
        _ => return Err(format!("{name:?} is not a panel of this page")),
    }
    Ok(())
}
