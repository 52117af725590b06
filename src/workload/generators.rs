//! The workload generators a scenario can choose instead of the [Iosup08] BoT model (docs/workload-models.md):
//! their one enum, and the load target they share (every arrival time multiplied by one factor).

use super::generate::{Generated, MAX_TASKS};
use super::login_logout::LoginLogout;
use super::minh_wolters::MinhWolters;
use super::types::Workload;
use super::GenerateError;
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// A generator of the workload, selected by `workload.generator` (absent: the [Iosup08] model).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Generator {
    /// Users logging in and out, submitting single-task jobs while logged in ([Medernach05] §5).
    LoginLogout(LoginLogout),
    /// BoTs with Zipf sizes and one runtime each over a job stream ([Minh10] Algorithm 1).
    MinhWolters(MinhWolters),
}

impl Generator {
    /// The name used in the JSON and on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Generator::LoginLogout(_) => "login_logout",
            Generator::MinhWolters(_) => "minh_wolters",
        }
    }

    /// Every generator's name, with how the page's menu names it, in its order.
    pub const NAMES: [(&'static str, &'static str); 2] =
        [("login_logout", "Login/Logout users (Medernach 2005)"), ("minh_wolters", "BoTs of Minh & Wolters 2010")];

    /// The generator with the paper's parameters, by name (`login_logout`, `minh_wolters`).
    pub fn default_named(name: &str) -> Option<Generator> {
        match name {
            "login_logout" => Some(Generator::LoginLogout(LoginLogout::default())),
            "minh_wolters" => Some(Generator::MinhWolters(MinhWolters::default())),
            _ => None,
        }
    }

    /// Checks every parameter; the error's field is the full JSON path from the scenario's root.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let r = match self {
            Generator::LoginLogout(g) => g.validate(),
            Generator::MinhWolters(g) => g.validate(),
        };
        r.map_err(|e| e.under(&format!("workload.generator.{}", self.name())))
    }

    /// User ids of one stream (0..n).
    pub fn users_per_stream(&self) -> u32 {
        match self {
            Generator::LoginLogout(g) => g.users.len() as u32,
            Generator::MinhWolters(g) => g.users.n,
        }
    }

    /// The workload of one stream in the model's own clock: every BoT whose arrival is before `until`, in arrival
    /// order. A longer `until` gives the same BoTs first (tested), so the load search can extend it.
    pub fn model_workload(&self, seed: u64, until: f64) -> Result<Workload, GenerateError> {
        match self {
            Generator::LoginLogout(g) => g.workload(seed, until),
            Generator::MinhWolters(g) => g.workload(seed, until),
        }
    }

    /// One stream over `[0, submission_period)`, at the target load of `capacity` (None: the model's own rates).
    pub fn generate(
        &self,
        seed: u64,
        load: Option<f64>,
        capacity: f64,
        submission_period: f64,
    ) -> Result<Generated, GenerateError> {
        fit_to_period(&mut |until| self.model_workload(seed, until), load, capacity, submission_period)
    }
}

/// Places a model's BoTs in `[0, period)`. Without a load target the model's clock is kept. With one, every
/// arrival time is multiplied by one factor f: the BoTs kept are the first n, n the count whose work is closest to
/// `load · capacity · period`, and f maps the point halfway between the model times of BoT n−1 and BoT n (the
/// first left out) to the period's end. `model(until)` gives the BoTs arriving before `until` in the model's clock.
pub fn fit_to_period(
    model: &mut dyn FnMut(f64) -> Result<Workload, GenerateError>,
    load: Option<f64>,
    capacity: f64,
    period: f64,
) -> Result<Generated, GenerateError> {
    let mut warnings = Vec::new();
    let Some(load) = load else {
        let workload = model(period)?;
        let achieved_load = workload.total_work() / (capacity * period);
        if workload.bots.is_empty() {
            warnings.push("no BoT arrives within the submission period".to_string());
        }
        return Ok(Generated { workload, iat_scale: 1.0, achieved_load, warnings });
    };
    let target = load * capacity * period;
    let mut until = period;
    let (mut w, n) = loop {
        let w = model(until)?;
        if let Some(n) = count_closest(&w, target) {
            // BoT n (the first left out) must exist, and be later than BoT n − 1, to place the period's end.
            if n < w.bots.len() && (n == 0 || w.bots[n].arrival > w.bots[n - 1].arrival) {
                break (w, n);
            }
        }
        if w.tasks() > MAX_TASKS {
            return Err(GenerateError::TooLarge(format!(
                "workload would exceed {MAX_TASKS} tasks; lower the load, the submission period or the platform"
            )));
        }
        until *= 2.0;
        if until > period * 1e12 {
            return Err(GenerateError::Unreachable(format!(
                "the load target {load} cannot be reached: the model's BoTs carry too little work in {until:.3e} s \
                 of its own clock"
            )));
        }
    };
    let before = if n == 0 { 0.0 } else { w.bots[n - 1].arrival };
    let cut = 0.5 * (before + w.bots[n].arrival);
    if cut <= 0.0 || !cut.is_finite() {
        let why = "the model's first BoTs all arrive at time 0; the load target cannot place them";
        return Err(GenerateError::Unreachable(why.to_string()));
    }
    let f = period / cut;
    w.bots.truncate(n);
    let tasks = w.bots.last().map_or(0, |b| (b.first_task + b.size) as usize);
    w.runtimes.truncate(tasks);
    for b in &mut w.bots {
        b.arrival *= f;
    }
    let work = w.total_work();
    let achieved_load = work / (capacity * period);
    if n == 0 {
        warnings.push("no BoT arrives within the submission period".to_string());
    }
    if (work - target).abs() > 0.01 * target {
        warnings.push(format!(
            "achieved load {achieved_load:.4} is more than 1% from the target {load}: a whole number of BoTs cannot \
             come closer (one BoT is a large share of this stream's work); a longer submission period or a larger \
             platform brings the load closer"
        ));
    }
    Ok(Generated { workload: w, iat_scale: f, achieved_load, warnings })
}

/// The number of leading BoTs whose work is closest to `target` (ties: fewer), or None when all of them together
/// carry less than `target`.
fn count_closest(w: &Workload, target: f64) -> Option<usize> {
    let mut below = 0.0;
    for (i, b) in w.bots.iter().enumerate() {
        let first = b.first_task as usize;
        let work = below + w.runtimes[first..first + b.size as usize].iter().sum::<f64>();
        if work >= target {
            return Some(if target - below <= work - target { i } else { i + 1 });
        }
        below = work;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::Bot;

    /// The page's menu lists every generator under the name a scenario file uses.
    #[test]
    fn every_generator_is_named_as_in_a_file() {
        for (name, _) in Generator::NAMES {
            let g = Generator::default_named(name).expect("a generator of this name");
            assert_eq!(g.name(), name);
            assert_eq!(serde_json::to_value(&g).unwrap().as_object().unwrap().keys().collect::<Vec<_>>(), [name]);
        }
    }

    /// BoTs of one task each at the given model times with the given runtimes.
    fn toy(times: &[f64], runtimes: &[f64]) -> Workload {
        let bots = times
            .iter()
            .zip(runtimes)
            .enumerate()
            .map(|(i, (&t, &r))| Bot {
                arrival: t,
                user: 0,
                first_task: i as u32,
                size: 1,
                art: r,
                rtv: 0.0,
                home: None,
            })
            .collect();
        Workload { bots, runtimes: runtimes.to_vec(), users: 1, ..Workload::default() }
    }

    fn model_of(times: Vec<f64>, runtimes: Vec<f64>) -> impl FnMut(f64) -> Result<Workload, GenerateError> {
        move |until| {
            let n = times.iter().take_while(|&&t| t < until).count();
            Ok(toy(&times[..n], &runtimes[..n]))
        }
    }

    #[test]
    fn the_load_target_scales_every_arrival_by_one_factor() {
        // Ten BoTs of 100 CPU-s at model times 1, 2, …, 10; capacity 1, period 1 000: load 0.3 needs 300 CPU-s, so
        // three BoTs, and the period's end maps to model time 3.5.
        let times: Vec<f64> = (1..=10).map(f64::from).collect();
        let mut m = model_of(times, vec![100.0; 10]);
        let g = fit_to_period(&mut m, Some(0.3), 1.0, 1000.0).unwrap();
        assert_eq!(g.workload.bots.len(), 3);
        assert_eq!(g.workload.runtimes.len(), 3);
        assert!((g.iat_scale - 1000.0 / 3.5).abs() < 1e-9);
        for (i, b) in g.workload.bots.iter().enumerate() {
            assert!((b.arrival - (i + 1) as f64 * 1000.0 / 3.5).abs() < 1e-9);
        }
        assert!((g.achieved_load - 0.3).abs() < 1e-12);
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    }

    #[test]
    fn without_a_target_the_models_clock_is_kept() {
        let mut m = model_of(vec![10.0, 500.0, 999.0, 1000.0, 1500.0], vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        let g = fit_to_period(&mut m, None, 2.0, 1000.0).unwrap();
        assert_eq!(g.iat_scale, 1.0);
        assert_eq!(g.workload.bots.iter().map(|b| b.arrival).collect::<Vec<_>>(), vec![10.0, 500.0, 999.0]);
        assert!((g.achieved_load - 6.0 / 2000.0).abs() < 1e-15);
    }

    #[test]
    fn the_search_extends_the_models_clock_until_the_work_is_there() {
        // One BoT of 10 CPU-s per 1 000 s of model time; a target of 1 000 CPU-s needs 100 of them (10⁵ s).
        let times: Vec<f64> = (1..=300).map(|i| f64::from(i) * 1000.0).collect();
        let mut m = model_of(times, vec![10.0; 300]);
        let g = fit_to_period(&mut m, Some(0.5), 1.0, 2000.0).unwrap();
        assert_eq!(g.workload.bots.len(), 100);
        assert!(g.workload.bots.iter().all(|b| b.arrival < 2000.0));
    }

    #[test]
    fn an_unreachable_target_is_an_error() {
        let mut m = model_of(vec![1.0, 2.0], vec![1.0, 1.0]);
        let e = fit_to_period(&mut m, Some(0.5), 1.0, 1000.0).unwrap_err();
        assert!(e.to_string().contains("cannot be reached"), "{e}");
    }
}
