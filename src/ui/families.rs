//! The page's one list of scenario families (the twin of the library's `families!`): each family's page module
//! and its store, in the order the family switch lists them. The only place outside the families' own folders
//! where the page names a family's module; a new family adds its line here.

use super::contract::PageFamily;
use super::split::Part;
use super::{data_grid, desktop_grid, multi_cluster};
use crate::registry::Family;
use std::rc::Rc;

/// Makes each family's store, in the switch's order. Called once by the shell, within its reactive owner, after
/// it has provided its own state (the stores read it from context).
pub fn list() -> Vec<Rc<dyn PageFamily>> {
    vec![Rc::new(multi_cluster::McPage::new()), Rc::new(desktop_grid::DgPage::new()), Rc::new(data_grid::DdPage::new())]
}

/// Mounts `part` into `element` if it is one of a family's own parts of the page's second module (`panels.rs`);
/// gives the element back otherwise.
pub(crate) fn mount_part(part: Part, element: web_sys::HtmlElement) -> Option<web_sys::HtmlElement> {
    let element = multi_cluster::mount_part(part, element)?;
    let element = desktop_grid::mount_part(part, element)?;
    data_grid::mount_part(part, element)
}

/// The page's script box of each policy key a lesson may ask the class to write in `family` (`lessons.rs`'s "Write
/// your own policy"): the family's first example of it and the box's element id.
pub(crate) fn your_own_box(family: Family, key: &str) -> Option<(&'static str, &'static str)> {
    match family {
        Family::MultiCluster => multi_cluster::your_own_box(key),
        Family::DesktopGrid => desktop_grid::your_own_box(key),
        Family::DataGrid => data_grid::your_own_box(key),
    }
}
