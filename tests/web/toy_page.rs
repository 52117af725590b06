//! A throw-away family's page module, plugged into the page through its contract alone (`ui::contract::PageFamily`,
//! ARCHITECTURE.md "How to add a family"): a toy takes the desktop grid's place in the page's list of families, and
//! the family switch lists it, shows its controls and results when its family is picked (and the others' no more),
//! and the shell hands it its runs' start and progress, which the other families do not hear.

use bagsim::family::contract::Header;
use bagsim::family::desktop_grid::DgDetail;
use bagsim::protocol::{FromWorker, Progress};
use bagsim::registry::{AnyDetail, AnyReport, Family};
use bagsim::scenario::Scenario;
use bagsim::ui::contract::PageFamily;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

thread_local! {
    /// What the toy was told, in order.
    static HEARD: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn heard(what: String) {
    HEARD.with(|h| h.borrow_mut().push(what));
}

struct Toy;

impl PageFamily for Toy {
    fn family(&self) -> Family {
        Family::DesktopGrid
    }
    fn label(&self) -> &'static str {
        "Toy family (a test)"
    }
    fn prefix(&self) -> &'static str {
        "toy-"
    }
    fn controls(&self) -> AnyView {
        view! { <p id="toy-controls">"the toy's controls"</p> }.into_any()
    }
    fn results(&self) -> AnyView {
        view! { <p id="toy-results">"the toy's results"</p> }.into_any()
    }
    fn charts(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
    fn started_text(&self, _start: &bagsim::family::contract::Start, _generate_s: f64) -> String {
        "the toy started".into()
    }
    fn on_start(&self, scenario: &Scenario) {
        heard(format!("start {}", scenario.family().name()));
    }
    fn on_progress(&self, header: &Header, detail: AnyDetail) {
        let of_mine = matches!(detail, AnyDetail::DesktopGrid(_));
        heard(format!("progress {} of {} ({of_mine})", header.finished_tasks, header.tasks));
    }
    fn on_finished(&self, _report: AnyReport) {
        heard("finished".into());
    }
    fn pinned_scenarios(&self) -> Vec<Scenario> {
        Vec::new()
    }
    fn pin_finished(&self) {}
}

/// The page's list with the toy in the desktop grid's place.
fn with_toy() -> Vec<Rc<dyn PageFamily>> {
    bagsim::ui::families::list()
        .into_iter()
        .map(|f| if f.family() == Family::DesktopGrid { Rc::new(Toy) as Rc<dyn PageFamily> } else { f })
        .collect()
}

/// Waits `ms` milliseconds (Leptos renders and runs effects in tasks of their own).
async fn wait(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().expect("a window");
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Whether element `id` is in the document and shown (its family's panel is not `display: none`).
fn shown(id: &str) -> Option<bool> {
    let e = web_sys::window()?.document()?.get_element_by_id(id)?.dyn_into::<web_sys::HtmlElement>().ok()?;
    Some(e.offset_parent().is_some())
}

#[wasm_bindgen_test]
async fn a_throw_away_family_gets_a_page_module_through_the_contract() {
    let document = web_sys::window().and_then(|w| w.document()).expect("a document");
    let root = document.create_element("div").expect("a div").dyn_into::<web_sys::HtmlElement>().expect("an element");
    document.body().expect("a body").append_child(&root).expect("appended");
    let bench = bagsim::ui::mount_bench(with_toy, root.clone());
    wait(50).await;
    // The switch lists the toy under its family's key, by its own name.
    let option = document.query_selector("#family option[value=desktop_grid]").ok().flatten().expect("its option");
    assert_eq!(option.text_content().as_deref(), Some("Toy family (a test)"));
    // The page opens on the first family: the toy's panel is not built yet.
    assert_eq!(shown("toy-controls"), None, "the toy's controls were built before its family was shown");
    // Picking it in the switch shows its controls and results, and hides the first family's.
    let pick = "var s = document.getElementById('family'); s.value = 'desktop_grid'; \
                s.dispatchEvent(new Event('change'));";
    js_sys::eval(pick).expect("the switch changed");
    wait(50).await;
    assert_eq!(shown("toy-controls"), Some(true));
    assert_eq!(shown("toy-results"), Some(true));
    assert_eq!(shown("dg-controls"), None, "the desktop grid's own page module is not in the page");
    assert_eq!(shown("load"), Some(false), "the multi-cluster controls stay built but hidden");
    // A run of its family starts and streams: the shell hands the toy its start and its progress.
    bench.run();
    let header = Header { now: 10.0, horizon: 100.0, events: 7, tasks: 40, finished_tasks: 12, queued: 3, busy: 5 };
    let detail = AnyDetail::DesktopGrid(DgDetail { bots: 2, finished_bots: 1, samples: Vec::new() });
    bench.hear(FromWorker::Progress(Box::new(Progress { run_id: 1, header, wall: 0.1, detail: Some(detail) })));
    // A message of an older run is not the toy's.
    let stale = Progress { run_id: 0, header, wall: 0.1, detail: None };
    bench.hear(FromWorker::Progress(Box::new(stale)));
    wait(20).await;
    let told = HEARD.with(|h| h.borrow().clone());
    assert_eq!(told, ["start desktop_grid", "progress 12 of 40 (true)"]);
}
