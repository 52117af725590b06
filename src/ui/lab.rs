//! The shell's state and the helpers every part of the page uses: where the run stands (`Status`), the shell's
//! signals and handles (`Lab`, provided through Leptos's context), the stages the page is built in (`Reveal`),
//! what the switch keeps of the families not shown (`Kept`), what the shell does for the parts below it (`Hooks`),
//! the worker (`Lab::send`) and the parts that listen to it (`Lab::listen`), the redraw throttle, the clock and the
//! time in words. Knows no family.

use super::client::Client;
use super::contract::Families;
use crate::protocol::{PageMessage, Progress, ToWorker};
use crate::registry::Family;
use crate::scenario::Scenario;
use leptos::prelude::*;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Where the current run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Loading,
    Ready,
    Generating,
    Running,
    Paused,
    Finished,
    Cancelled,
    Failed,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Loading => "loading",
            Status::Ready => "ready",
            Status::Generating => "generating",
            Status::Running => "running",
            Status::Paused => "paused",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
            Status::Failed => "failed",
        }
    }
}

/// The page's redraw throttle: a live run's charts redraw at most four times a second (a forced redraw, at the end
/// of a run, at once). Each family's results hold one.
pub(crate) struct Throttle(Cell<f64>);

impl Throttle {
    pub(crate) const fn new() -> Throttle {
        Throttle(Cell::new(f64::NEG_INFINITY))
    }

    /// Whether to redraw now; if so, the time is noted.
    pub(crate) fn due(&self, force: bool) -> bool {
        let t = now_ms();
        let due = force || t - self.0.get() > 250.0;
        if due {
            self.0.set(t);
        }
        due
    }
}

/// What the switch keeps of the families not shown, as they were left (`family_switch.rs`).
#[derive(Default)]
pub(crate) struct Kept {
    /// Their scenarios (a scenario holds only its own family's section).
    pub scenarios: Vec<Scenario>,
    /// Their run bars.
    pub bars: Vec<(Family, Bar)>,
}

impl Kept {
    /// Keeps `left` (of the family left) and takes out the scenario kept for `to`, if any.
    pub(crate) fn swap(&mut self, left: Scenario, to: Family) -> Option<Scenario> {
        let kept = self.scenarios.iter().position(|k| k.family() == to).map(|i| self.scenarios.swap_remove(i));
        let from = left.family();
        self.scenarios.retain(|k| k.family() != from);
        self.scenarios.push(left);
        kept
    }
}

/// What the run bar says of a family's last run: its status, message, warnings and progress.
pub(crate) struct Bar {
    pub status: Status,
    pub message: String,
    pub warnings: Vec<String>,
    pub progress: Option<Progress>,
}

/// Parts of the page to build, one per task, in order.
pub(crate) type Stages = Vec<Box<dyn FnOnce()>>;

/// Which parts of the page are built yet: the shell (`app.rs`) builds them one per task, in this order, and
/// provides this through context, so that each family's parts follow the same stages.
/// Tells a store's charts and tables to read it again. A family keeps its runs outside the reactive system (they
/// are large and grow in place); after changing them it calls [`Repaint::ask`], and whatever draws them
/// [`Repaint::track`]s. A Leptos trigger, and whether it was ever pulled (a store's charts wait for their first ask).
#[derive(Clone, Copy)]
pub struct Repaint {
    trigger: Trigger,
    asked: StoredValue<bool>,
}

impl Repaint {
    pub fn new() -> Repaint {
        Repaint { trigger: Trigger::new(), asked: StoredValue::new(false) }
    }

    /// Asks every reader to read the store again.
    pub fn ask(self) {
        self.asked.set_value(true);
        self.trigger.notify();
    }

    /// Reads again at every ask (in an effect, a memo or a view's closure).
    pub fn track(self) {
        self.trigger.track();
    }

    /// Whether a redraw was ever asked for (read where `track` is).
    pub fn asked(self) -> bool {
        self.asked.get_value()
    }
}

impl Default for Repaint {
    fn default() -> Repaint {
        Repaint::new()
    }
}

#[derive(Clone, Copy)]
pub struct Reveal {
    /// The run bar and the cards.
    pub first_view: RwSignal<bool>,
    pub charts: RwSignal<bool>,
    pub controls: RwSignal<bool>,
    pub lessons: RwSignal<bool>,
    /// The paper figures.
    pub paper: RwSignal<bool>,
    /// The table of size classes.
    pub table: RwSignal<bool>,
    /// The workload lab.
    pub trace: RwSignal<bool>,
    /// The sweep, the study viewer and the tournament.
    pub sweep: RwSignal<bool>,
    pub footer: RwSignal<bool>,
    /// On a first open, the stages held until its result is in or the visitor acts (`later.rs`).
    pub(crate) held: StoredValue<Option<Stages>, LocalStorage>,
}

impl Reveal {
    pub(crate) fn new() -> Reveal {
        let [first_view, charts, controls, lessons, paper, table, trace, sweep, footer] =
            [(); 9].map(|_| RwSignal::new(false));
        let held = StoredValue::new_local(None);
        Reveal { first_view, charts, controls, lessons, paper, table, trace, sweep, footer, held }
    }
}

/// The shell's state: every field is a signal or a handle, so the struct is Copy. The shell provides it through
/// context; a component reads it with `expect_context::<Lab>()`, and what runs later (an event handler, a worker's
/// message) holds the copy it was given. Each family's own state is its store (`contract::PageFamily`).
#[derive(Clone, Copy)]
pub struct Lab {
    pub scenario: RwSignal<Scenario>,
    pub errors: RwSignal<BTreeMap<String, String>>,
    pub status: RwSignal<Status>,
    pub message: RwSignal<String>,
    pub banner: RwSignal<Option<String>>,
    pub progress: RwSignal<Option<Progress>>,
    pub run_id: RwSignal<u32>,
    pub speed: RwSignal<Option<f64>>,
    pub pinned_labels: RwSignal<Vec<String>>,
    pub warnings: RwSignal<Vec<String>>,
    pub autorun: RwSignal<bool>,
    /// Why the last worker died, until the next run starts.
    pub crashed: RwSignal<Option<String>>,
    /// What the runs just shown compare, in plain words (the first open's two runs), above the warnings.
    pub note: RwSignal<String>,
    /// The family of the last run started: the worker keeps that run alone for the exports.
    pub run_family: RwSignal<Family>,
    /// Wall-clock seconds the worker spent generating the workload and computing the report of the current run.
    pub phase_times: RwSignal<(Option<f64>, Option<f64>)>,
    /// Main-thread milliseconds of the last redraw of the charts, and the longest since the run started.
    pub draw_ms: RwSignal<(f64, f64)>,
    /// The pinned runs of the link opened that Run has still to run and pin, oldest first (ui/replay.rs).
    pub replay: RwSignal<Vec<Scenario>>,
    /// What the address adds after the scenario and its pinned runs while projector mode is on: `&present=1`,
    /// and the lesson and its step (1-based) when it steps through one, so that a reload or a copied link opens the
    /// same view (ui/present.rs sets it, ui/address.rs writes it).
    pub address_extra: RwSignal<String>,
    /// The worker's estimate of the scenario shown, before Run (`budget.rs`): over budget (Run refused), and its line.
    pub estimate: RwSignal<(bool, String)>,
    /// What the page's shell does for every family (`app.rs`), handed to the modules below it.
    pub hooks: Hooks,
    /// The page's families (`families.rs`), asked for by the family of the scenario shown or run.
    pub families: Families,
    /// The scenarios and run bars of the families not shown (`family_switch.rs`).
    pub(crate) kept: StoredValue<Kept, LocalStorage>,
    /// The simulation worker, once started (`app.rs`).
    pub(crate) client: StoredValue<Option<Rc<Client>>, LocalStorage>,
    /// The parts of the page that hear the worker's messages the shell hands on (`Lab::listen`).
    listeners: StoredValue<Vec<Listener>, LocalStorage>,
}

/// What the shell hands on to the parts that listen: a message of the worker it does not handle itself, or the
/// worker's death (every listener hears it).
pub(crate) enum Heard {
    Message(PageMessage),
    Died,
}

/// A part of the page that hears the worker: it takes what is for it and gives back the rest.
pub(crate) type Listener = Rc<dyn Fn(Heard) -> Option<Heard>>;

/// What the page's shell (`app.rs`) does for the modules below it, which name the shell nowhere: start a run (and
/// the link's pinned runs first).
#[derive(Clone, Copy)]
pub struct Hooks {
    /// Runs the scenario shown, or first the link's pinned runs still waiting (ui/replay.rs).
    pub start_run: Callback<Lab>,
}

impl Lab {
    pub(crate) fn new(hooks: Hooks, families: Families) -> Self {
        Lab {
            scenario: RwSignal::new(Scenario::default()),
            errors: RwSignal::new(BTreeMap::new()),
            status: RwSignal::new(Status::Loading),
            message: RwSignal::new(String::new()),
            banner: RwSignal::new(None),
            progress: RwSignal::new(None),
            run_id: RwSignal::new(0),
            speed: RwSignal::new(None),
            pinned_labels: RwSignal::new(Vec::new()),
            warnings: RwSignal::new(Vec::new()),
            autorun: RwSignal::new(false),
            crashed: RwSignal::new(None),
            note: RwSignal::new(String::new()),
            run_family: RwSignal::new(Family::default()),
            phase_times: RwSignal::new((None, None)),
            draw_ms: RwSignal::new((0.0, 0.0)),
            replay: RwSignal::new(Vec::new()),
            address_extra: RwSignal::new(String::new()),
            estimate: RwSignal::new((false, String::new())),
            hooks,
            families,
            kept: StoredValue::new_local(Kept::default()),
            client: StoredValue::new_local(None),
            listeners: StoredValue::new_local(Vec::new()),
        }
    }

    /// Runs the scenario shown, or first the link's pinned runs still waiting (the shell's `Hooks::start_run`).
    pub fn start_run(self) {
        self.hooks.start_run.run(self)
    }

    /// Sends `msg` to the simulation worker (lost before it has started, as it says Ready first).
    pub(crate) fn send(self, msg: &ToWorker) {
        self.client.with_value(|c| {
            if let Some(c) = c {
                c.send(msg)
            }
        });
    }

    /// Hands the worker's messages the shell does not handle, and its death, to `listener` too.
    pub(crate) fn listen(self, listener: Listener) {
        self.listeners.update_value(|l| l.push(listener));
    }

    /// Hands `heard` to each listener in turn, until one takes it.
    pub(crate) fn hand_on(self, heard: Heard) {
        let listeners = self.listeners.get_value();
        let mut left = Some(heard);
        for l in listeners {
            match left.take() {
                Some(h) => left = l(h),
                None => return,
            }
        }
    }
}

pub(crate) fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A duration, in the unit that reads best, as every number is shown (`words::number_words`).
pub(crate) fn fmt_time(s: f64) -> String {
    let (v, unit) = if s < 120.0 {
        (s, "s")
    } else if s < 7200.0 {
        (s / 60.0, "min")
    } else if s < 2.0 * 86_400.0 {
        (s / 3600.0, "h")
    } else {
        (s / 86_400.0, "days")
    };
    format!("{} {unit}", crate::words::number_words(v))
}

/// Runs each step (render a part of the page, start the worker, draw the charts) in a task of its own, in order.
pub(crate) fn reveal(mut stages: Stages) {
    if stages.is_empty() {
        return;
    }
    set_timeout(
        move || {
            let step = stages.remove(0);
            step();
            reveal(stages);
        },
        std::time::Duration::ZERO,
    );
}
