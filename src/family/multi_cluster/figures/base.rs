//! The base of a figure: the scenario its runs start from, named wherever a verdict is printed. The CLI's base is
//! the defaults, the paper's month of submissions; the page opens on the same base and offers a quick one (one
//! day of submissions) as a choice labelled as such, whose verdicts are the quick base's (docs/model.md, "One
//! base").

use crate::family::multi_cluster::config::McScenario;

/// The paper's month, s: the default submission period, and so the base of `bagsim figure multi_cluster`.
pub const MONTH: f64 = 2_592_000.0;

/// One day of submissions, s: the quick base, about 30 times fewer tasks than the month.
pub const QUICK_PERIOD: f64 = 86_400.0;

/// The bases the page offers its paper figures and readings studies, the first its default: the CLI's.
pub const PAGE_PERIODS: [(f64, &str); 2] = [
    (MONTH, "30 days: the paper's month, the CLI's base"),
    (QUICK_PERIOD, "1 day: the quick base (about 30× faster; verdicts of its own)"),
];

/// The defaults with a submission period of `period` seconds: the base of the page's figures.
pub fn base_of_period(period: f64) -> McScenario {
    let mut s = McScenario::default();
    s.workload.submission_period = period;
    s
}

/// Which base a figure's runs start from, as far as its verdicts go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// The defaults: the month, what `bagsim figure` runs without `--base` and the page runs first.
    Month,
    /// The defaults with one day of submissions.
    Quick,
    /// Any other base (`--base FILE`).
    Own,
}

impl Base {
    /// The base `scenario` is (its seed aside: every run sets its own).
    pub fn of(scenario: &McScenario) -> Base {
        let same = |period: f64| McScenario { seed: scenario.seed, ..base_of_period(period) } == *scenario;
        if same(MONTH) {
            Base::Month
        } else if same(QUICK_PERIOD) {
            Base::Quick
        } else {
            Base::Own
        }
    }

    /// The base in the words every verdict is printed with.
    pub fn name(self) -> &'static str {
        match self {
            Base::Month => "the month base (the defaults: 30 days of submissions, the CLI's base)",
            Base::Quick => "the quick base (the defaults with 1 day of submissions; not the CLI's base)",
            Base::Own => "your own base (not the defaults)",
        }
    }
}

/// The name of the base `scenario` is, with its submission period when it is one of its own.
pub fn base_name(scenario: &McScenario) -> String {
    match Base::of(scenario) {
        Base::Own => {
            let days = scenario.workload.submission_period / 86_400.0;
            format!("your own base ({days:.3} days of submissions; other keys may differ from the defaults)")
                .replace(".000 days", " days")
        }
        b => b.name().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_month_is_the_default_and_each_base_is_named_for_what_it_is() {
        assert_eq!(McScenario::default().workload.submission_period, MONTH);
        assert_eq!(PAGE_PERIODS[0].0, MONTH, "the page opens on the CLI's base");
        assert_eq!(Base::of(&McScenario::default()), Base::Month);
        assert_eq!(Base::of(&McScenario { seed: 9, ..McScenario::default() }), Base::Month);
        assert_eq!(Base::of(&base_of_period(QUICK_PERIOD)), Base::Quick);
        let mut other = McScenario::default();
        other.workload.load = Some(0.9);
        assert_eq!(Base::of(&other), Base::Own);
        assert_eq!(
            base_name(&base_of_period(7.0 * 86_400.0)).split(';').next(),
            Some("your own base (7 days of submissions")
        );
        assert_eq!(
            base_name(&base_of_period(43_200.0)).split(';').next(),
            Some("your own base (0.500 days of submissions")
        );
    }
}
