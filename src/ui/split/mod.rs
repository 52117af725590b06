//! Where the page's two wasm modules meet. The page is two modules built from this one library: `app` (`main.rs`,
//! mounted by `app.rs`), which paints the first screen, and `panels` (`bin/panels.rs`, mounted by `panels.rs`),
//! which `assets/panels_loader.js` fetches the first time one of its parts is shown. Both compile this module, so
//! the compiler checks both sides of the boundary: [`Part`] names every part the second module holds, and
//! [`ToPanels`] and [`ToPage`] are everything that passes between them through the window (`message.rs`), but
//! for two values that are JavaScript objects (the workload views of `views.rs`, the trace file of `shown.rs`).
//!
//! | module   | holds                                                                                        |
//! |----------|----------------------------------------------------------------------------------------------|
//! | `app`    | the controls of the three families, the run bar, cards and live charts, pins, the table of   |
//! |          | classes, the workload lab's import (`multi_cluster/trace_lab/`), sharing and export          |
//! | `panels` | every [`Part`]: `lessons.rs`, `multi_cluster/paper.rs` and `readings.rs`, `multi_cluster/`   |
//! |          | `sweep.rs`, `study.rs`, `views.rs`, `desktop_grid/figures.rs`, `data_grid/figures.rs` and    |
//! |          | `compare.rs`, `references.rs`, `records.rs`                                                  |
//! | both     | this module, `lazy.rs` (the page's placeholder), `shown.rs` and `lesson_stage.rs` (each      |
//! |          | module's side of a message), and what the parts share with the page (charts, forms)      |
//!
//! The linker keeps in each module only what its entry reaches, so a file listed under `panels` costs the first
//! module nothing as long as the page reaches it only through a [`Part`].

pub mod message;
pub mod stage;
pub mod window;

pub use message::{ask, last, listen, tell, Channel, ToPage, ToPanels};

/// The parts of the page the second module holds, each mounted into a placeholder the page made (`lazy.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The workload views of an imported trace (the workload lab).
    TraceViews,
    /// The workload views of the scenario's generated workload (the workload lab).
    ScenarioViews,
    /// The load sweep of the multi-cluster family.
    Sweep,
    /// The lessons for a class.
    Lessons,
    /// The multi-cluster paper figures and their readings.
    Paper,
    /// The study viewer.
    Study,
    /// The desktop grid's paper figures.
    DgFigures,
    /// The data grid's paper figures.
    DdFigures,
    /// The data grid's comparison of the schemes.
    DdCompare,
    /// The references at the foot of the page.
    References,
    /// The per-task records of the scenario shown, made by a worker of the part's own and downloaded
    /// (`records.rs`), asked for by a family's run tools.
    Records,
    /// The tournament of policies: the students' scripts raced against the built-ins on the scenario shown.
    Tournament,
    /// The Gantt view of the last run and a task's story (`gantt/`), asked for by a family's run tools.
    Gantt,
}

impl Part {
    pub const ALL: [Part; 13] = [
        Part::TraceViews,
        Part::ScenarioViews,
        Part::Sweep,
        Part::Lessons,
        Part::Paper,
        Part::Study,
        Part::DgFigures,
        Part::DdFigures,
        Part::DdCompare,
        Part::References,
        Part::Records,
        Part::Tournament,
        Part::Gantt,
    ];

    /// The name the page's placeholder carries (its id is `lazy-NAME`, which the browser tests select) and the
    /// second module is asked to mount.
    pub fn name(self) -> &'static str {
        match self {
            Part::TraceViews => "views/trace-views",
            Part::ScenarioViews => "views/scenario-views",
            Part::Sweep => "sweep",
            Part::Lessons => "lessons",
            Part::Paper => "paper",
            Part::Study => "study",
            Part::DgFigures => "dg-figures",
            Part::DdFigures => "dd-figures",
            Part::DdCompare => "dd-compare",
            Part::References => "references",
            Part::Records => "records",
            Part::Tournament => "tournament",
            Part::Gantt => "gantt",
        }
    }

    /// What the placeholder says while the part loads ("Loading WHAT…").
    pub fn what(self) -> &'static str {
        match self {
            Part::TraceViews => "the trace's workload views",
            Part::ScenarioViews => "the scenario's workload views",
            Part::Sweep => "the load sweep",
            Part::Lessons => "the lessons",
            Part::Paper | Part::DgFigures | Part::DdFigures => "the paper figures",
            Part::Study => "the study viewer",
            Part::DdCompare => "the comparison of the schemes",
            Part::References => "the references",
            Part::Records => "the per-task records",
            Part::Tournament => "the tournament",
            Part::Gantt => "the Gantt view",
        }
    }

    /// The part named `name` (what crossed the JavaScript loader), or why there is none.
    pub fn from_name(name: &str) -> Result<Part, UnknownPart> {
        Part::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| UnknownPart { name: name.to_string() })
    }
}

/// A name the JavaScript loader gave that is no [`Part`]'s; its words name the parts there are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPart {
    pub name: String,
}

impl std::fmt::Display for UnknownPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known: Vec<&str> = Part::ALL.iter().map(|p| p.name()).collect();
        write!(f, "{:?} is not a part of this page (known: {})", self.name, known.join(", "))
    }
}

impl std::error::Error for UnknownPart {}

#[cfg(test)]
mod tests {
    use super::Part;

    #[test]
    fn every_part_is_found_by_its_own_name_and_names_differ() {
        for p in Part::ALL {
            assert_eq!(Part::from_name(p.name()), Ok(p));
        }
        let mut names: Vec<&str> = Part::ALL.iter().map(|p| p.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Part::ALL.len(), "two parts share a name");
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_known_ones() {
        let e = Part::from_name("figures").unwrap_err();
        assert!(e.contains("\"figures\"") && e.contains("dd-compare"), "{e}");
    }
}
