//! Generates a workload from the BoT model: marks (user, size, runtimes) per BoT from their own streams, then
//! arrival times scaled by one factor so that the offered load meets the target (docs/model.md, "Workload").

use super::dist::Dist;
use super::model::{BotModel, Calibration, Characteristic};
use super::task_law::TaskRuntimeLaw;
use super::types::{Bot, Workload};
use super::GenerateError;
use crate::engine::Rng;
use serde::{Deserialize, Serialize};

/// Seconds in a day and in a daily-cycle slot.
pub const DAY: f64 = 86_400.0;
pub const SLOT: f64 = 1_800.0;
/// Peak hours 08:00–17:00 are the slots 16..=33 ([Iosup08] §3.3).
pub const PEAK_SLOTS: std::ops::RangeInclusive<usize> = 16..=33;
/// A guard against runaway scenarios (e.g. a tiny IAT with no load target): more tasks than this is an error.
pub const MAX_TASKS: usize = 20_000_000;

/// When BoTs arrive ([Iosup08] §5.2, Figure 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrivalPattern {
    /// The model's peak-hour IATs and daily cycle.
    Realistic,
    /// Every BoT at t = 0.
    AllAtZero,
    /// Equal inter-arrival times, horizon / number of BoTs.
    EvenlySpread,
}

/// What to generate: the model and the knobs of docs/model.md, "Workload".
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateSpec<'a> {
    pub model: &'a BotModel,
    /// Target offered load L = Σ task runtimes / (Σ processor speeds × submission period); None keeps the model's
    /// own arrival rate.
    pub load: Option<f64>,
    /// Σ processor speeds of the platform (reference-processor equivalents).
    pub capacity: f64,
    /// Submission period, seconds: BoTs arrive in [0, submission_period).
    pub submission_period: f64,
    pub pattern: ArrivalPattern,
    /// Median BoT size (rescales the size, keeping its coefficient of variation); None keeps the model's.
    pub median_size: Option<f64>,
    /// Mean task runtime, seconds (rescales ART); None keeps the model's.
    pub mean_runtime: Option<f64>,
    /// Sizes above this are capped.
    pub max_size: u32,
    /// The unit of the model's ART and RTV, and the ART bounds.
    pub calibration: Calibration,
    /// The law of a task's runtime given its BoT's ART and RTV (a reading).
    pub runtime_law: TaskRuntimeLaw,
    pub seed: u64,
}

/// A generated workload and how it came about.
#[derive(Clone, Debug)]
pub struct Generated {
    pub workload: Workload,
    /// The factor applied to every inter-arrival time (1 without a load target).
    pub iat_scale: f64,
    /// Achieved offered load = Σ runtimes / (capacity × submission period).
    pub achieved_load: f64,
    pub warnings: Vec<String>,
}

/// The daily cycle as a time change: BoTs arrive at the model's peak-hour rate in a "virtual" clock, and a
/// virtual second spent in slot s lasts p_peak / p'(s) real seconds, p'(s) = max(p(s), 0.01 p_peak). An
/// inter-arrival time that falls within one slot is thus stretched exactly by p_peak / p'(s) (docs/model.md, "Daily
/// cycle"), peak hours keep the model's mean IAT, and the expected share of arrivals in slot s is p'(s) / Σ p'.
#[derive(Clone, Debug)]
pub struct DailyCycle {
    /// p(s): probability mass of slot s (values outside [0, 48) redrawn, i.e. renormalised).
    pub p: [f64; 48],
    /// p_peak / p'(s): real seconds per virtual second in slot s.
    pub stretch: [f64; 48],
    /// Virtual time at the start of each slot within a day (49 entries; the last is a whole day).
    virtual_start: [f64; 49],
}

impl DailyCycle {
    /// None when the cycle is degenerate: less than 0.1% mass per peak slot on average, which would compress
    /// off-peak arrivals without bound.
    pub fn new(dist: &Dist) -> Option<Self> {
        let lo = dist.cdf(0.0);
        let total = dist.cdf(48.0) - lo;
        if total.is_nan() || total <= 0.0 {
            return None;
        }
        let mut p = [0.0; 48];
        for (s, ps) in p.iter_mut().enumerate() {
            *ps = ((dist.cdf(s as f64 + 1.0) - dist.cdf(s as f64)) / total).max(0.0);
        }
        let p_peak = PEAK_SLOTS.map(|s| p[s]).sum::<f64>() / PEAK_SLOTS.count() as f64;
        if p_peak < 1e-3 {
            return None;
        }
        let mut stretch = [0.0; 48];
        let mut virtual_start = [0.0; 49];
        for s in 0..48 {
            stretch[s] = p_peak / p[s].max(0.01 * p_peak);
            virtual_start[s + 1] = virtual_start[s] + SLOT / stretch[s];
        }
        Some(DailyCycle { p, stretch, virtual_start })
    }

    /// The slot of the day of time t.
    pub fn slot(t: f64) -> usize {
        (((t % DAY) / SLOT) as usize).min(47)
    }

    /// Expected share of arrivals in each slot: p'(s) / Σ p'.
    pub fn expected_shares(&self) -> [f64; 48] {
        let day = self.virtual_start[48];
        std::array::from_fn(|s| (self.virtual_start[s + 1] - self.virtual_start[s]) / day)
    }

    /// Virtual time of real time t (the inverse of `real_time`, up to rounding).
    fn virtual_time(&self, t: f64) -> f64 {
        let days = libm::floor(t / DAY);
        let within = t - days * DAY;
        let s = Self::slot(within);
        days * self.virtual_start[48] + self.virtual_start[s] + (within - s as f64 * SLOT) / self.stretch[s]
    }

    /// Real time of virtual time v.
    fn real_time(&self, v: f64) -> f64 {
        let day_v = self.virtual_start[48];
        let days = libm::floor(v / day_v);
        let within = v - days * day_v;
        let s = (self.virtual_start.partition_point(|&x| x <= within) - 1).min(47);
        days * DAY + s as f64 * SLOT + (within - self.virtual_start[s]) * self.stretch[s]
    }
}

/// Everything about a BoT except its arrival time.
struct Marks<'a> {
    model: &'a BotModel,
    users_cdf: Vec<f64>,
    size_scale: f64,
    art_scale: f64,
    /// Seconds per model unit, and the unit squared (for the RTV).
    unit: f64,
    art_max: f64,
    max_size: u32,
    runtime_law: TaskRuntimeLaw,
    users: Rng,
    sizes: Rng,
    arts: Rng,
    rtvs: Rng,
    runtimes_rng: Rng,
    bots: Vec<Bot>,
    runtimes: Vec<f64>,
    /// cum_work[i] = Σ runtimes of BoTs 0..i.
    cum_work: Vec<f64>,
}

impl<'a> Marks<'a> {
    fn ensure(&mut self, n: usize) -> Result<(), GenerateError> {
        while self.bots.len() < n {
            if self.runtimes.len() > MAX_TASKS {
                return Err(GenerateError::TooLarge(format!(
                    "workload would exceed {MAX_TASKS} tasks; lower the load, the submission period or the BoT sizes"
                )));
            }
            self.push();
        }
        Ok(())
    }

    fn push(&mut self) {
        let m = self.model;
        let u = self.users.uniform();
        let user = self.users_cdf.partition_point(|&c| c <= u).min(self.users_cdf.len() - 1) as u32;
        let size_value = self.size_scale * m.size.value_of(m.size.dist.sample(&mut self.sizes));
        let size =
            if size_value.is_finite() { size_value.round().max(1.0).min(self.max_size as f64) as u32 } else { 1 };
        let art =
            (self.art_scale * self.unit * m.art.value_of(m.art.dist.sample(&mut self.arts))).clamp(1.0, self.art_max);
        let art = if art.is_nan() { 1.0 } else { art };
        let rtv = (self.unit * self.unit * m.rtv.value_of(m.rtv.dist.sample(&mut self.rtvs))).max(0.0);
        let first_task = self.runtimes.len() as u32;
        let mut work = 0.0;
        if rtv > 0.0 && rtv.is_finite() {
            // Mean ART and variance RTV under the law of the reading; every task at least 1 s ([Iosup08] §5.3).
            let g = self.runtime_law.dist(art, rtv);
            for _ in 0..size {
                let r = g.sample(&mut self.runtimes_rng).max(1.0);
                work += r;
                self.runtimes.push(r);
            }
        } else {
            for _ in 0..size {
                work += art;
                self.runtimes.push(art);
            }
        }
        self.bots.push(Bot { arrival: 0.0, user, first_task, size, art, rtv, home: None });
        let prev = *self.cum_work.last().unwrap_or(&0.0);
        self.cum_work.push(prev + work);
    }
}

/// Solves E[clamp(c·V, 1, art_max)] = target for c, V the ART value in seconds, by bisection on log2 c
/// (expectation by the midpoint rule over 4 000 quantiles).
fn art_scale_for_mean(art: &Characteristic, calibration: Calibration, target: f64) -> f64 {
    const Q: usize = 4000;
    let (unit, art_max) = (calibration.unit(), calibration.art_max());
    let values: Vec<f64> = (0..Q).map(|i| unit * art.value_quantile((i as f64 + 0.5) / Q as f64)).collect();
    let mean_at = |log_c: f64| {
        let c = libm::exp2(log_c);
        values.iter().map(|v| (c * v).clamp(1.0, art_max)).sum::<f64>() / Q as f64
    };
    let (mut lo, mut hi) = (-200.0f64, 200.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mean_at(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    libm::exp2(0.5 * (lo + hi))
}

/// The expected ART, seconds, of a characteristic under a calibration: E[clamp(unit · V, 1 s, art_max)] by the
/// midpoint rule over 4 000 quantiles (the expected mean task runtime, up to the 1 s floor on each task).
pub fn mean_task_runtime(art: &Characteristic, calibration: Calibration) -> f64 {
    const Q: usize = 4000;
    (0..Q)
        .map(|i| {
            (calibration.unit() * art.value_quantile((i as f64 + 0.5) / Q as f64)).clamp(1.0, calibration.art_max())
        })
        .sum::<f64>()
        / Q as f64
}

/// Generates the workload. Errors name the knob and the reason.
pub fn generate(spec: &GenerateSpec) -> Result<Generated, GenerateError> {
    let m = spec.model;
    let mut warnings = Vec::new();
    let users_cdf = {
        let weights: Vec<f64> = (1..=m.users.n).map(|r| libm::pow(r as f64, -m.users.alpha)).collect();
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        weights
            .iter()
            .map(|w| {
                acc += w / total;
                acc
            })
            .collect::<Vec<f64>>()
    };
    let size_scale = match spec.median_size {
        Some(target) => target / m.size.value_quantile(0.5),
        None => 1.0,
    };
    let art_scale = match spec.mean_runtime {
        Some(target) => art_scale_for_mean(&m.art, spec.calibration, target),
        None => 1.0,
    };
    let seed = spec.seed;
    let mut marks = Marks {
        model: m,
        users_cdf,
        size_scale,
        art_scale,
        unit: spec.calibration.unit(),
        art_max: spec.calibration.art_max(),
        max_size: spec.max_size,
        runtime_law: spec.runtime_law,
        users: Rng::stream(seed, "users"),
        sizes: Rng::stream(seed, "sizes"),
        arts: Rng::stream(seed, "art"),
        rtvs: Rng::stream(seed, "rtv"),
        runtimes_rng: Rng::stream(seed, "runtimes"),
        bots: Vec::new(),
        runtimes: Vec::new(),
        cum_work: Vec::new(),
    };
    let horizon = spec.submission_period;
    let target_work = spec.load.map(|l| l * spec.capacity * horizon);
    let cycle = match &m.daily_cycle {
        Some(d) => {
            let c = DailyCycle::new(d);
            if c.is_none() {
                warnings
                    .push("the daily cycle has (almost) no mass in peak hours 08:00–17:00; it is ignored".to_string());
            }
            c
        }
        None => None,
    };
    let mut iats = IatSource { iat: &m.iat, rng: Rng::stream(seed, "arrivals"), base: Vec::new() };

    let (times, iat_scale) = match spec.pattern {
        ArrivalPattern::Realistic => {
            let f = match target_work {
                None => 1.0,
                Some(target) => solve_iat_scale(target, horizon, cycle.as_ref(), &mut iats, &mut marks)?,
            };
            (realistic_times(f, horizon, cycle.as_ref(), &mut iats)?, f)
        }
        ArrivalPattern::AllAtZero | ArrivalPattern::EvenlySpread => {
            let n = match target_work {
                Some(target) => count_for_work(target, &mut marks)?,
                None => realistic_times(1.0, horizon, cycle.as_ref(), &mut iats)?.len(),
            };
            let times = (0..n)
                .map(|i| if spec.pattern == ArrivalPattern::AllAtZero { 0.0 } else { i as f64 * horizon / n as f64 })
                .collect();
            (times, 1.0)
        }
    };
    marks.ensure(times.len())?;
    let n = times.len();
    let mut bots = std::mem::take(&mut marks.bots);
    bots.truncate(n);
    for (b, t) in bots.iter_mut().zip(&times) {
        b.arrival = *t;
    }
    let tasks = bots.last().map_or(0, |b| (b.first_task + b.size) as usize);
    let mut runtimes = std::mem::take(&mut marks.runtimes);
    runtimes.truncate(tasks);
    let work: f64 = if n == 0 { 0.0 } else { marks.cum_work[n - 1] };
    if n == 0 {
        warnings.push("no BoT arrives within the submission period".to_string());
    }
    let achieved_load = work / (spec.capacity * horizon);
    if let (Some(target), Some(load)) = (target_work, spec.load) {
        if (work - target).abs() > 0.01 * target {
            // The work is a step function of the IAT factor: a BoT is in or out. Heavy-tailed rows can make one
            // BoT a large share of a month; say so rather than hide it.
            marks.ensure(n + 1)?;
            let bot_work = |i: usize| marks.cum_work[i] - if i == 0 { 0.0 } else { marks.cum_work[i - 1] };
            let step = bot_work(n).max(if n > 0 { bot_work(n - 1) } else { 0.0 });
            warnings.push(format!(
                "achieved load {achieved_load:.4} is more than 1% from the target {load}: the BoT at the end of the \
                 period alone carries {:.1}% of the target work (heavy-tailed sizes or runtimes); a longer \
                 submission period or a larger platform brings the load closer",
                100.0 * step / target
            ));
        }
    }
    Ok(Generated {
        workload: Workload { bots, runtimes, users: m.users.n, ..Workload::default() },
        iat_scale,
        achieved_load,
        warnings,
    })
}

/// Base inter-arrival times (before the load factor and the daily stretch), drawn lazily and kept, so that
/// every candidate factor sees the same draws.
struct IatSource<'a> {
    iat: &'a Characteristic,
    rng: Rng,
    base: Vec<f64>,
}

impl IatSource<'_> {
    fn get(&mut self, i: usize) -> f64 {
        while self.base.len() <= i {
            let v = self.iat.value_of(self.iat.dist.sample(&mut self.rng));
            self.base.push(if v.is_finite() { v.max(0.0) } else { 0.0 });
        }
        self.base[i]
    }
}

/// Arrival times in [0, horizon) for IAT factor f: virtual arrivals at v_{i+1} = v_i + f · base_i, mapped to
/// real time through the daily cycle.
fn realistic_times(
    f: f64,
    horizon: f64,
    cycle: Option<&DailyCycle>,
    iats: &mut IatSource,
) -> Result<Vec<f64>, GenerateError> {
    let mut times = Vec::new();
    let mut v = 0.0;
    let mut i = 0;
    loop {
        v += f * iats.get(i);
        i += 1;
        let t = cycle.map_or(v, |c| c.real_time(v));
        if t >= horizon {
            break;
        }
        times.push(t);
        if times.len() > MAX_TASKS {
            return Err(GenerateError::TooLarge(format!(
                "more than {MAX_TASKS} BoTs would arrive; the inter-arrival times are too short for this period"
            )));
        }
    }
    Ok(times)
}

/// The number of arrivals `realistic_times(f, …)` gives, without building them: the same virtual clock, mapped to
/// real time only near the end of the period (the mapping is monotone; a margin of 10⁻⁹ of the period covers its
/// rounding), so that the search for the IAT factor costs a few additions per BoT and candidate.
fn count_within(
    f: f64,
    horizon: f64,
    cycle: Option<&DailyCycle>,
    iats: &mut IatSource,
) -> Result<usize, GenerateError> {
    let near = cycle.map_or(horizon, |c| c.virtual_time(horizon)) * (1.0 - 1e-9);
    let mut v = 0.0;
    let mut n = 0;
    loop {
        v += f * iats.get(n);
        if v >= near && cycle.map_or(v, |c| c.real_time(v)) >= horizon {
            return Ok(n);
        }
        n += 1;
        if n > MAX_TASKS {
            return Err(GenerateError::TooLarge(format!(
                "more than {MAX_TASKS} BoTs would arrive; the inter-arrival times are too short for this period"
            )));
        }
    }
}

/// The number of BoTs whose total work is closest to `target`.
fn count_for_work(target: f64, marks: &mut Marks) -> Result<usize, GenerateError> {
    let mut n = 0;
    loop {
        marks.ensure(n + 1)?;
        if marks.cum_work[n] >= target {
            let below = if n == 0 { 0.0 } else { marks.cum_work[n - 1] };
            return Ok(if target - below <= marks.cum_work[n] - target { n } else { n + 1 });
        }
        n += 1;
    }
}

/// Finds the IAT factor f whose arrivals within the horizon carry work closest to `target`: bracket by doubling,
/// then bisect on log f (the work is a step function of f, non-increasing up to the daily-cycle interplay).
fn solve_iat_scale(
    target: f64,
    horizon: f64,
    cycle: Option<&DailyCycle>,
    iats: &mut IatSource,
    marks: &mut Marks,
) -> Result<f64, GenerateError> {
    // The number of BoTs whose work first reaches the target. A factor that lets more than one BoT beyond it
    // arrive carries more work than the target and is never the closest, so its marks are not drawn: with large
    // BoTs, the model's own arrival rate (the first candidate) would otherwise draw millions of runtimes that are
    // thrown away. The candidates and the choice are those of an exhaustive evaluation.
    let mut needed = 0;
    loop {
        marks.ensure(needed + 1)?;
        needed += 1;
        if marks.cum_work[needed - 1] >= target {
            break;
        }
    }
    let work_at = |f: f64, iats: &mut IatSource, marks: &mut Marks| -> Result<f64, GenerateError> {
        let n = count_within(f, horizon, cycle, iats)?;
        if n > needed + 1 {
            return Ok(f64::MAX);
        }
        marks.ensure(n)?;
        Ok(if n == 0 { 0.0 } else { marks.cum_work[n - 1] })
    };
    let mut best = (f64::INFINITY, 1.0);
    let consider = |f: f64, w: f64, best: &mut (f64, f64)| {
        let err = (w - target).abs();
        if err < best.0 {
            *best = (err, f);
        }
    };
    let (mut lo, mut hi) = (1.0f64, 1.0f64);
    let w1 = work_at(1.0, iats, marks)?;
    consider(1.0, w1, &mut best);
    if w1 < target {
        // Too little work: shrink the factor until there is enough.
        loop {
            lo /= 2.0;
            let w = work_at(lo, iats, marks)?;
            consider(lo, w, &mut best);
            if w >= target {
                break;
            }
            if lo < 1e-12 {
                let why = "the load target cannot be reached: the workload has no work";
                return Err(GenerateError::Unreachable(why.into()));
            }
        }
    } else {
        loop {
            hi *= 2.0;
            let w = work_at(hi, iats, marks)?;
            consider(hi, w, &mut best);
            if w <= target || hi > 1e15 {
                break;
            }
        }
    }
    // Invariant: work(lo) ≥ target ≥ work(hi).
    for _ in 0..64 {
        let mid = libm::sqrt(lo * hi);
        let w = work_at(mid, iats, marks)?;
        consider(mid, w, &mut best);
        if w >= target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi / lo < 1.0 + 1e-12 {
            break;
        }
    }
    Ok(best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::model::Preset;

    #[test]
    fn virtual_time_maps_slots_with_their_stretch() {
        let c = DailyCycle::new(&Preset::Avg.model().daily_cycle.unwrap()).unwrap();
        // A virtual second at the start of slot s lasts stretch[s] real seconds; days repeat.
        for s in [0, 5, 16, 40, 47] {
            let v = c.virtual_start[s];
            assert!((c.real_time(v) - s as f64 * SLOT).abs() < 1e-6);
            assert!((c.real_time(v + 1.0) - c.real_time(v) - c.stretch[s]).abs() < 1e-6);
            let day = c.virtual_start[48];
            assert!((c.real_time(v + 3.0 * day) - (3.0 * DAY + s as f64 * SLOT)).abs() < 1e-6);
        }
        assert!((c.expected_shares().iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn daily_cycle_stretch_is_one_on_average_in_peak_hours() {
        let c = DailyCycle::new(&Preset::Avg.model().daily_cycle.unwrap()).unwrap();
        let total: f64 = c.p.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        let p_peak = PEAK_SLOTS.map(|s| c.p[s]).sum::<f64>() / 18.0;
        for s in 0..48 {
            assert!((c.stretch[s] * c.p[s].max(0.01 * p_peak) - p_peak).abs() < 1e-15);
        }
        assert!(DailyCycle::new(&Preset::T1.model().daily_cycle.unwrap()).is_none());
    }

    /// The counting shortcut of the load search gives exactly the number of arrivals the generator then makes,
    /// with and without the daily cycle, for factors from very sparse to very dense arrivals.
    #[test]
    fn counting_arrivals_agrees_with_generating_them() {
        let m = Preset::Avg.model();
        let cycle = DailyCycle::new(m.daily_cycle.as_ref().expect("Avg has a daily cycle")).expect("non-degenerate");
        let mut rng = Rng::new(3);
        for horizon in [0.3 * DAY, 2.0 * DAY, 30.0 * DAY] {
            let mut iats = IatSource { iat: &m.iat, rng: Rng::stream(9, "arrivals"), base: Vec::new() };
            for _ in 0..40 {
                let f = libm::exp2(rng.uniform() * 12.0 - 8.0);
                for c in [Some(&cycle), None] {
                    let made = realistic_times(f, horizon, c, &mut iats).unwrap().len();
                    let counted = count_within(f, horizon, c, &mut iats).unwrap();
                    assert_eq!(counted, made, "factor {f}, horizon {horizon}, cycle {}", c.is_some());
                }
            }
        }
    }

    #[test]
    fn virtual_time_inverts_real_time() {
        let m = Preset::Avg.model();
        let cycle = DailyCycle::new(m.daily_cycle.as_ref().unwrap()).unwrap();
        for i in 0..2000 {
            let t = i as f64 * 1234.567;
            let back = cycle.real_time(cycle.virtual_time(t));
            assert!((back - t).abs() <= 1e-9 * t.max(1.0), "t {t} → {back}");
        }
    }

    #[test]
    fn art_scale_hits_the_mean() {
        let art = Characteristic::log2(Dist::Normal { mu: 2.73, sigma: 6.1 });
        for cal in Calibration::ALL {
            for target in [180.0, 3600.0, 10_800.0] {
                let c = art_scale_for_mean(&art, cal, target);
                let q = 4000;
                let mean = (0..q)
                    .map(|i| {
                        (c * cal.unit() * art.value_quantile((i as f64 + 0.5) / q as f64)).clamp(1.0, cal.art_max())
                    })
                    .sum::<f64>()
                    / q as f64;
                assert!((mean / target - 1.0).abs() < 1e-6, "{cal:?} {target}: {mean}");
            }
        }
    }
}
