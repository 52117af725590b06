//! The page's side of a scenario family, the twin of the library's `FamilyDef`: what the shell (`app.rs`), the
//! family switch, the run bar, the replay of a link's pinned runs and projector mode ask of a family, behind one
//! trait ([`PageFamily`]). `families.rs` registers the families in one list; the shell iterates it and names no
//! family. Knows no family.

use crate::family::contract::{Header, Start};
use crate::registry::{AnyDetail, AnyReport, Family};
use crate::scenario::Scenario;
use leptos::prelude::*;
use std::rc::Rc;

/// One family's part of the page. Each family's page module implements it on its store (a Copy handle of signals
/// and stored values, made once by the shell's registration list and provided to its components through Leptos's
/// context), so the shell holds one list of them and asks it everything by the family shown or run.
pub trait PageFamily {
    /// Which family this is.
    fn family(&self) -> Family;
    /// Its name in the family switch.
    fn label(&self) -> &'static str;
    /// What its element ids start with ("dg-"; the first family's have none).
    fn prefix(&self) -> &'static str;
    /// Its controls, in the scenario's column.
    fn controls(&self) -> AnyView;
    /// Its results under the run bar: cards, live charts, pins, exports, its tools and figure panels.
    fn results(&self) -> AnyView;
    /// Its parts below the simulator, after the lessons (a paper's figures); none by default.
    fn below(&self) -> AnyView {
        ().into_any()
    }
    /// The charts projector mode steps through: canvas id and title.
    fn charts(&self) -> Vec<(&'static str, &'static str)>;
    /// What its runs are made of, in the run bar ("tasks", "jobs").
    fn work_unit(&self) -> &'static str {
        "tasks"
    }
    /// The run bar's line when a run's workload is ready.
    fn started_text(&self, start: &Start, generate_s: f64) -> String;
    /// The name of the per-unit CSV the run tools download (`ToWorker::ExportBots`).
    fn rows_file(&self) -> &'static str {
        "bagsim-bots.csv"
    }
    /// The scenario a first open of the page runs and shows, if this family offers one (no link, nothing
    /// stored): it starts the runs of its own first view and holds the page's parts below the first screen until
    /// their result is in (`later.rs`).
    fn first_open(&self) -> Option<Scenario> {
        None
    }
    /// Whether a first open of this family is under way (the parts below the first screen wait for it).
    fn first_open_active(&self) -> bool {
        false
    }
    /// Work the family does once the page is shown and the worker started (its empty charts), one task each.
    fn after_start(&self) -> Vec<Box<dyn FnOnce()>> {
        Vec::new()
    }
    /// A run of `scenario` starts (the family's own, whatever is shown).
    fn on_start(&self, _scenario: &Scenario) {}
    /// A progress message of the current run.
    fn on_progress(&self, header: &Header, detail: AnyDetail);
    /// The current run's report.
    fn on_finished(&self, report: AnyReport);
    /// The scenarios of its pinned runs, oldest first (a link holds them, `replay.rs`).
    fn pinned_scenarios(&self) -> Vec<Scenario>;
    /// Pins its run that has just finished, as its "Pin this run" does.
    fn pin_finished(&self);
}

/// The families of the page, in the order the switch lists them: a Copy handle, provided through context by the
/// shell. It is made empty first and filled by [`Families::register`] once the shell's state exists, since the
/// families' stores read that state and the state's hooks read the families.
#[derive(Clone, Copy)]
pub struct Families(StoredValue<Vec<Rc<dyn PageFamily>>, LocalStorage>);

impl Families {
    pub(crate) fn new() -> Families {
        Families(StoredValue::new_local(Vec::new()))
    }

    /// Sets the list (`families.rs`).
    pub(crate) fn register(self, list: Vec<Rc<dyn PageFamily>>) {
        self.0.set_value(list);
    }

    /// Every family, in the switch's order.
    pub(crate) fn all(self) -> Vec<Rc<dyn PageFamily>> {
        self.0.get_value()
    }

    /// The page of `family`. Every family of the registry has one (`families.rs` registers all of them, and a
    /// test checks it); the first stands in, should one be missing.
    pub(crate) fn of(self, family: Family) -> Rc<dyn PageFamily> {
        self.0.with_value(|l| {
            let found = l.iter().find(|f| f.family() == family).or(l.first());
            Rc::clone(found.expect("the page registers its families before any part of it runs"))
        })
    }

    /// The page family whose scenario key is `key` (the switch's option values).
    pub(crate) fn by_key(self, key: &str) -> Option<Rc<dyn PageFamily>> {
        self.0.with_value(|l| l.iter().find(|f| f.family().name() == key).cloned())
    }
}
