//! What a workload looks like, as data to draw or print: arrivals over time and per slot of the day, BoT sizes in
//! log2 bins, the task runtime CDF, users ranked with their Zipf fit, and burstiness ([Minh10] §V).
//!
//! [`views`] is a pure function of a [`Workload`], O(n log n) in its tasks, and its output is bounded whatever the
//! workload's size (≤ 200 time bins, 48 slots, ≤ 32 size bins, ≤ 201 CDF points, ≤ 200 user ranks, 5 scales).
//! Time 0 is the workload's own: the start of a generated workload's submission period, or the local midnight
//! before a trace's first job, so 30-minute slots and 1-day intervals are clock slots and calendar days. Only
//! `libm`, sorting and `Vec`: the page and the CLI get the same bits.

use super::burstiness::{self, Spatial, Temporal, SCALES};
use super::fit::{fit_zipf, ZipfFit};
use super::Workload;
use crate::error::DataError;
use serde::{Deserialize, Serialize};

const DAY: f64 = 86_400.0;
/// Most bins of the arrivals-over-time view.
pub const MAX_TIME_BINS: u64 = 200;
/// Bin widths tried for arrivals over time, smallest first, seconds; past the last, multiples of 30 days.
const TIME_BIN_WIDTHS: [f64; 12] = [
    300.0,
    900.0,
    1_800.0,
    3_600.0,
    3.0 * 3_600.0,
    6.0 * 3_600.0,
    12.0 * 3_600.0,
    DAY,
    2.0 * DAY,
    7.0 * DAY,
    14.0 * DAY,
    30.0 * DAY,
];
/// Quantile steps of the runtime CDF: the points are the order statistics at q = j / 200.
pub const CDF_STEPS: u64 = 200;
/// User ranks listed one by one; past them, [`USER_TAIL_POINTS`] log-spaced ranks up to the last.
const USER_HEAD: usize = 100;
const USER_TAIL_POINTS: usize = 100;

/// Arrivals per time bin [k·width, (k+1)·width), k = 0 … from time 0 to the bin of the last arrival.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeBins {
    /// Bin width, seconds: the smallest of 5 min, 15 min, 30 min, 1 h, 3 h, 6 h, 12 h, 1, 2, 7, 14, 30 days (then
    /// multiples of 30 days) that needs at most 200 bins.
    pub width: f64,
    /// BoTs arriving in each bin.
    pub bots: Vec<u64>,
    /// Tasks arriving in each bin (a BoT's tasks all arrive with it).
    pub tasks: Vec<u64>,
}

/// Arrivals per 30-minute slot of the day: slot s = ⌊(t mod 86 400 s) / 1 800 s⌋, 0 = 00:00–00:30.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DailySlots {
    /// BoTs per slot (48).
    pub bots: Vec<u64>,
    /// Tasks per slot (48).
    pub tasks: Vec<u64>,
}

/// BoTs whose size lies in [low, high] = [2^k, 2^(k+1) − 1].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizeBin {
    pub low: u32,
    pub high: u32,
    pub bots: u64,
    /// bots / (high − low + 1): BoTs per size value, the y of a log–log histogram (a power law is a line).
    pub density: f64,
}

/// One point of the task runtime CDF: `fraction` of the tasks have a runtime ≤ `runtime`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CdfPoint {
    /// The r-th smallest task runtime x_(r), seconds on the reference processor.
    pub runtime: f64,
    /// r / n.
    pub fraction: f64,
}

/// One user rank: observed and fitted share of the BoTs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserShare {
    /// 1 = the user with the most BoTs.
    pub rank: u32,
    pub bots: u64,
    /// bots / all BoTs.
    pub share: f64,
    /// r^(−α) / Σ_{j=1..n} j^(−α) of the fitted Z(α, n); null without a fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zipf: Option<f64>,
}

/// Users ranked by BoTs with the Zipf fit of [`fit_zipf`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserShares {
    /// Users with at least one BoT.
    pub users: u32,
    /// The fitted Z(α, n); absent when it cannot be fitted (see `fit_error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit: Option<ZipfFit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit_error: Option<String>,
    /// Every rank up to 200 users; past that, ranks 1 … 100 and 100 log-spaced ranks up to the last.
    pub ranks: Vec<UserShare>,
}

/// Temporal burstiness at one interval length, of tasks and of BoTs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TemporalBurstiness {
    /// T, seconds.
    pub interval: f64,
    /// Each task is a job arriving with its BoT: the measure of [Minh10] §V-A.
    pub tasks: Temporal,
    /// Each BoT is one arrival: how bursty the BoT arrivals alone are.
    pub bots: Temporal,
}

/// Every view of a workload (the JSON `views` of `bagsim trace --views --out`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadViews {
    pub bots: u64,
    pub tasks: u64,
    /// Arrival time of the last BoT, seconds (the end of the time axis).
    pub last_arrival: f64,
    pub arrivals: TimeBins,
    pub daily: DailySlots,
    /// Bins k = 0 … ⌊log2 largest size⌋, empty ones included.
    pub sizes: Vec<SizeBin>,
    /// Runtimes x_(r) at r = 1 and r = ⌈j·n/200⌉, j = 1 … 200 (every task when n ≤ 200): the q = j/200 quantile
    /// (inverse of the empirical CDF) is exactly a point.
    pub runtime_cdf: Vec<CdfPoint>,
    pub users: UserShares,
    /// At T = 5 min, 15 min, 30 min, 1 h, 1 day.
    pub burstiness: Vec<TemporalBurstiness>,
    /// Over the tasks as (1 processor, runtime): the model's tasks use one processor each, so N = 1 and the
    /// entropy is null; a trace's own jobs have their widths (`bagsim trace --views`).
    pub spatial: Spatial,
}

/// Checks the workload: arrivals finite, ≥ 0 and in order; sizes ≥ 1; task ranges inside `runtimes`; runtimes
/// finite and ≥ 0.
fn check(w: &Workload) -> Result<(), DataError> {
    let fail = |m: String| Err(DataError(m));
    for (b, bot) in w.bots.iter().enumerate() {
        if !(bot.arrival.is_finite() && bot.arrival >= 0.0) {
            return fail(format!("BoT {b} arrives at {} s: need a finite time ≥ 0", bot.arrival));
        }
        if b > 0 && bot.arrival < w.bots[b - 1].arrival {
            return fail(format!("BoT {b} arrives before BoT {}: BoTs must be in arrival order", b - 1));
        }
        if bot.size == 0 {
            return fail(format!("BoT {b} has no task"));
        }
        if u64::from(bot.first_task) + u64::from(bot.size) > w.runtimes.len() as u64 {
            return fail(format!("BoT {b}'s tasks run past the end of the runtimes ({} tasks)", w.runtimes.len()));
        }
    }
    if let Some(t) = w.runtimes.iter().position(|r| !(r.is_finite() && *r >= 0.0)) {
        return fail(format!("task {t} has runtime {} s: need a finite time ≥ 0", w.runtimes[t]));
    }
    Ok(())
}

/// All views of `w` (see [`WorkloadViews`]).
pub fn views(w: &Workload) -> Result<WorkloadViews, DataError> {
    check(w)?;
    let last_arrival = w.bots.last().map_or(0.0, |b| b.arrival);
    let tasks: u64 = w.bots.iter().map(|b| u64::from(b.size)).sum();
    let task_arrivals: Vec<(f64, u64)> = w.bots.iter().map(|b| (b.arrival, u64::from(b.size))).collect();
    let bot_arrivals: Vec<(f64, u64)> = w.bots.iter().map(|b| (b.arrival, 1)).collect();
    let burstiness = SCALES
        .iter()
        .map(|&t| {
            let measure = |a: &[(f64, u64)]| burstiness::temporal(a, t).map_err(|e| DataError(e.to_string()));
            Ok(TemporalBurstiness { interval: t, tasks: measure(&task_arrivals)?, bots: measure(&bot_arrivals)? })
        })
        .collect::<Result<Vec<_>, DataError>>()?;
    let one_processor: Vec<(u32, f64)> = w.runtimes.iter().map(|&r| (1, r)).collect();
    let spatial = burstiness::spatial(&one_processor).map_err(|e| DataError(e.to_string()))?;
    Ok(WorkloadViews {
        bots: w.bots.len() as u64,
        tasks,
        last_arrival,
        arrivals: time_bins(w, last_arrival),
        daily: daily_slots(w),
        sizes: size_bins(w),
        runtime_cdf: runtime_cdf(&w.runtimes),
        users: user_shares(w),
        burstiness,
        spatial,
    })
}

/// The bin width for a time axis [0, last]: see [`TimeBins::width`].
pub fn time_bin_width(last: f64) -> f64 {
    let bins = |width: f64| libm::floor(last / width) as u64 + 1;
    if let Some(&w) = TIME_BIN_WIDTHS.iter().find(|&&w| bins(w) <= MAX_TIME_BINS) {
        return w;
    }
    let month = 30.0 * DAY;
    let mut m = libm::floor(last / (month * MAX_TIME_BINS as f64)).max(1.0);
    while bins(m * month) > MAX_TIME_BINS {
        m += 1.0;
    }
    m * month
}

fn time_bins(w: &Workload, last: f64) -> TimeBins {
    let width = time_bin_width(last);
    let n = if w.bots.is_empty() { 0 } else { libm::floor(last / width) as usize + 1 };
    let (mut bots, mut tasks) = (vec![0u64; n], vec![0u64; n]);
    for b in &w.bots {
        let k = (libm::floor(b.arrival / width) as usize).min(n - 1);
        bots[k] += 1;
        tasks[k] += u64::from(b.size);
    }
    TimeBins { width, bots, tasks }
}

fn daily_slots(w: &Workload) -> DailySlots {
    let (mut bots, mut tasks) = (vec![0u64; 48], vec![0u64; 48]);
    for b in &w.bots {
        let s = ((b.arrival % DAY) / 1_800.0) as usize;
        let s = s.min(47);
        bots[s] += 1;
        tasks[s] += u64::from(b.size);
    }
    DailySlots { bots, tasks }
}

fn size_bins(w: &Workload) -> Vec<SizeBin> {
    let Some(largest) = w.bots.iter().map(|b| b.size).max() else {
        return Vec::new();
    };
    let top = 31 - largest.leading_zeros();
    let mut counts = vec![0u64; top as usize + 1];
    for b in &w.bots {
        counts[(31 - b.size.leading_zeros()) as usize] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(k, &bots)| {
            let low = 1u32 << k;
            let high = if k == 31 { u32::MAX } else { (1u32 << (k + 1)) - 1 };
            SizeBin { low, high, bots, density: bots as f64 / (f64::from(high - low) + 1.0) }
        })
        .collect()
}

/// The ranks r = 1 and ⌈j·n/200⌉, j = 1 … 200, of `n` sorted values (1 … n when n ≤ 200).
fn cdf_ranks(n: u64) -> Vec<u64> {
    if n <= CDF_STEPS {
        return (1..=n).collect();
    }
    let mut ranks = vec![1];
    for j in 1..=CDF_STEPS {
        let r = (j * n).div_ceil(CDF_STEPS);
        if ranks.last() != Some(&r) {
            ranks.push(r);
        }
    }
    ranks
}

fn runtime_cdf(runtimes: &[f64]) -> Vec<CdfPoint> {
    let mut sorted = runtimes.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len() as u64;
    cdf_ranks(n)
        .into_iter()
        .map(|r| CdfPoint { runtime: sorted[r as usize - 1], fraction: r as f64 / n as f64 })
        .collect()
}

/// The ranks listed for `n` users: all up to 200; else 1 … 100 and round(100 · (n/100)^(j/100)), j = 1 … 100.
fn user_ranks(n: usize) -> Vec<usize> {
    if n <= USER_HEAD + USER_TAIL_POINTS {
        return (1..=n).collect();
    }
    let mut ranks: Vec<usize> = (1..=USER_HEAD).collect();
    let ratio = n as f64 / USER_HEAD as f64;
    for j in 1..=USER_TAIL_POINTS {
        let r = if j == USER_TAIL_POINTS {
            n
        } else {
            libm::round(USER_HEAD as f64 * libm::pow(ratio, j as f64 / USER_TAIL_POINTS as f64)) as usize
        };
        if r > *ranks.last().expect("head") {
            ranks.push(r);
        }
    }
    ranks
}

fn user_shares(w: &Workload) -> UserShares {
    // BoTs per user id, by sorting (no hash map; sparse or huge ids cost nothing).
    let mut ids: Vec<u32> = w.bots.iter().map(|b| b.user).collect();
    ids.sort_unstable();
    let mut counts: Vec<u64> = ids.chunk_by(|a, b| a == b).map(|run| run.len() as u64).collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let total = w.bots.len() as f64;
    let (fit, fit_error) = match fit_zipf(&counts) {
        Ok(f) => (Some(f), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let fitted: Option<(f64, f64)> = fit.as_ref().map(|f| {
        let norm: f64 = (1..=f.n).map(|r| libm::pow(f64::from(r), -f.alpha)).sum();
        (f.alpha, norm)
    });
    let ranks = user_ranks(counts.len())
        .into_iter()
        .map(|r| UserShare {
            rank: r as u32,
            bots: counts[r - 1],
            share: counts[r - 1] as f64 / total,
            zipf: fitted.map(|(alpha, norm)| libm::pow(r as f64, -alpha) / norm),
        })
        .collect();
    UserShares { users: counts.len() as u32, fit, fit_error, ranks }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::Bot;

    fn workload(bots: &[(f64, u32, &[f64])]) -> Workload {
        Workload::from_bots(bots)
    }

    #[test]
    fn a_small_workload_by_hand() {
        // Four BoTs: user 0 twice, users 1 and 2 once; sizes 1, 3, 4, 1.
        let w = workload(&[
            (100.0, 0, &[10.0]),
            (1_000.0, 1, &[30.0, 20.0, 40.0]),
            (1_900.0, 0, &[5.0, 5.0, 5.0, 50.0]),
            (86_400.0 + 200.0, 2, &[1.0]),
        ]);
        let v = views(&w).unwrap();
        assert_eq!((v.bots, v.tasks, v.last_arrival), (4, 9, 86_600.0));
        // Last arrival 86 600 s: 5 min gives 289 bins, 15 min 97.
        assert_eq!(v.arrivals.width, 900.0);
        assert_eq!(v.arrivals.bots.len(), 97);
        assert_eq!(&v.arrivals.bots[..4], [1, 1, 1, 0]);
        assert_eq!(&v.arrivals.tasks[..4], [1, 3, 4, 0]);
        assert_eq!((v.arrivals.bots[96], v.arrivals.tasks[96]), (1, 1));
        assert_eq!(v.arrivals.bots.iter().sum::<u64>(), 4);
        // Slots: 100 s and 1 000 s and the next day's 200 s in slot 0, 1 900 s in slot 1.
        assert_eq!(&v.daily.bots[..3], [3, 1, 0]);
        assert_eq!(&v.daily.tasks[..3], [5, 4, 0]);
        assert_eq!(v.daily.bots.len(), 48);
        // Sizes 1, 1 | 3 | 4: bins [1,1], [2,3], [4,7].
        let s: Vec<(u32, u32, u64, f64)> = v.sizes.iter().map(|b| (b.low, b.high, b.bots, b.density)).collect();
        assert_eq!(s, [(1, 1, 2, 2.0), (2, 3, 1, 0.5), (4, 7, 1, 0.25)]);
        // Nine runtimes, all of them points: 1 5 5 5 10 20 30 40 50.
        let cdf: Vec<(f64, f64)> = v.runtime_cdf.iter().map(|p| (p.runtime, p.fraction)).collect();
        assert_eq!(cdf.len(), 9);
        assert_eq!(cdf[0], (1.0, 1.0 / 9.0));
        assert_eq!(cdf[3], (5.0, 4.0 / 9.0));
        assert_eq!(cdf[8], (50.0, 1.0));
        // Users: counts 2, 1, 1.
        let u = &v.users;
        assert_eq!(u.users, 3);
        let shares: Vec<(u32, u64, f64)> = u.ranks.iter().map(|r| (r.rank, r.bots, r.share)).collect();
        assert_eq!(shares, [(1, 2, 0.5), (2, 1, 0.25), (3, 1, 0.25)]);
        let fit = u.fit.as_ref().unwrap();
        let norm: f64 = (1..=3).map(|r| (r as f64).powf(-fit.alpha)).sum();
        for r in &u.ranks {
            assert!((r.zipf.unwrap() - (r.rank as f64).powf(-fit.alpha) / norm).abs() < 1e-12);
        }
        assert!((u.ranks.iter().map(|r| r.zipf.unwrap()).sum::<f64>() - 1.0).abs() < 1e-12);
        // Burstiness at 1 day: N = 2 days, 8 tasks then 1: −(8/9 ln 8/9 + 1/9 ln 1/9) / ln 2; BoTs 3 then 1.
        let day = v.burstiness.iter().find(|b| b.interval == DAY).unwrap();
        let h = |p: f64| -(p * p.ln() + (1.0 - p) * (1.0 - p).ln()) / 2f64.ln();
        assert_eq!((day.tasks.intervals, day.tasks.jobs, day.bots.jobs), (2, 9, 4));
        assert!((day.tasks.entropy.unwrap() - h(8.0 / 9.0)).abs() < 1e-12);
        assert!((day.bots.entropy.unwrap() - h(0.75)).abs() < 1e-12);
        // At 5 min: N = ⌊86 600 / 300⌋ + 1 = 289 intervals, 4 busy ones with 1, 3, 4, 1 tasks.
        let five = &v.burstiness[0].tasks;
        assert_eq!((five.interval, five.intervals, five.busy), (300.0, 289, 4));
        let hand = [1.0, 3.0, 4.0, 1.0].iter().map(|c: &f64| -(c / 9.0) * (c / 9.0).ln()).sum::<f64>() / 289f64.ln();
        assert!((five.entropy.unwrap() - hand).abs() < 1e-12);
        assert_eq!(v.burstiness.iter().map(|b| b.interval).collect::<Vec<_>>(), SCALES);
        // Every task on one processor: spatial burstiness is undefined.
        assert_eq!((v.spatial.max_processors, v.spatial.entropy), (1, None));
        assert_eq!(v.spatial.total_runtime, 166.0);
    }

    #[test]
    fn bin_widths_keep_at_most_200_bins() {
        assert_eq!(time_bin_width(0.0), 300.0);
        assert_eq!(time_bin_width(199.0 * 300.0 + 299.0), 300.0);
        assert_eq!(time_bin_width(200.0 * 300.0), 900.0);
        assert_eq!(time_bin_width(30.0 * DAY - 1.0), 6.0 * 3_600.0);
        assert_eq!(time_bin_width(365.0 * DAY), 2.0 * DAY);
        for last in [0.0, 1.0, 59_999.0, 1e7, 1e9, 2e10, 1e12] {
            let w = time_bin_width(last);
            let bins = libm::floor(last / w) as u64 + 1;
            assert!(bins <= MAX_TIME_BINS, "{last}: {w}");
        }
        // Past 200 × 30 days the width is the smallest multiple of 30 days that fits.
        let w = time_bin_width(1e10);
        assert_eq!(w % (30.0 * DAY), 0.0);
        assert!(libm::floor(1e10 / (w - 30.0 * DAY)) as u64 + 1 > MAX_TIME_BINS);
    }

    #[test]
    fn cdf_points_are_exact_order_statistics() {
        assert_eq!(cdf_ranks(3), [1, 2, 3]);
        assert_eq!(cdf_ranks(200).len(), 200);
        let r = cdf_ranks(1_000);
        assert_eq!(r.len(), 201);
        assert_eq!((r[0], r[1], r[100], r[200]), (1, 5, 500, 1_000));
        // n = 201: ⌈j · 201 / 200⌉ skips no rank twice; the first two are 1 and 2.
        let r = cdf_ranks(201);
        assert_eq!((r[0], r[1], *r.last().unwrap()), (1, 2, 201));
        // Runtimes 1 … 1 000 in reverse: the median point is x_(500) = 500 at 0.5.
        let rt: Vec<f64> = (1..=1_000).rev().map(f64::from).collect();
        let cdf = runtime_cdf(&rt);
        assert_eq!(cdf[100], CdfPoint { runtime: 500.0, fraction: 0.5 });
        assert_eq!(cdf[200], CdfPoint { runtime: 1_000.0, fraction: 1.0 });
        assert!(cdf.windows(2).all(|p| p[0].runtime <= p[1].runtime && p[0].fraction < p[1].fraction));
        assert!(runtime_cdf(&[]).is_empty());
    }

    #[test]
    fn output_is_bounded() {
        // 5 000 users, one BoT each but user 0, with sizes up to 2^20 and a ten-year span.
        let mut w = Workload::default();
        for u in 0..5_000u32 {
            let size = if u == 0 { 1 << 20 } else { 1 + u % 7 };
            w.bots.push(Bot {
                arrival: f64::from(u) * 63_000.0,
                user: u,
                first_task: w.runtimes.len() as u32,
                size,
                art: f64::NAN,
                rtv: f64::NAN,
                home: None,
            });
            w.runtimes.extend((0..size).map(|i| f64::from(i % 1_000 + 1)));
        }
        w.bots.push(Bot {
            arrival: 5_000.0 * 63_000.0,
            user: 0,
            first_task: 0,
            size: 1,
            art: 1.0,
            rtv: 0.0,
            home: None,
        });
        w.users = 5_000;
        let v = views(&w).unwrap();
        assert!(v.arrivals.bots.len() as u64 <= MAX_TIME_BINS);
        assert_eq!(v.sizes.len(), 21);
        assert_eq!(v.runtime_cdf.len(), 201);
        assert_eq!(v.users.users, 5_000);
        assert!(v.users.ranks.len() <= 200);
        assert_eq!(v.users.ranks.last().unwrap().rank, 5_000);
        assert_eq!((v.users.ranks[0].rank, v.users.ranks[0].bots), (1, 2));
        assert!(v.users.ranks.windows(2).all(|r| r[0].rank < r[1].rank));
    }

    #[test]
    fn empty_and_bad_workloads() {
        let v = views(&Workload::default()).unwrap();
        assert_eq!((v.bots, v.tasks), (0, 0));
        assert!(v.arrivals.bots.is_empty() && v.sizes.is_empty() && v.runtime_cdf.is_empty());
        assert!(v.users.fit.is_none() && v.users.fit_error.is_some());
        assert!(v.burstiness.iter().all(|b| b.tasks.entropy.is_none() && b.tasks.intervals == 0));
        let mut w = workload(&[(10.0, 0, &[1.0]), (5.0, 0, &[1.0])]);
        assert!(views(&w).unwrap_err().0.contains("BoT 1 arrives before BoT 0"));
        w.bots[1].arrival = f64::NAN;
        assert!(views(&w).unwrap_err().0.contains("BoT 1 arrives at NaN"));
        let mut w = workload(&[(10.0, 0, &[1.0])]);
        w.runtimes[0] = -1.0;
        assert!(views(&w).unwrap_err().0.contains("task 0"));
        w.bots[0].size = 2;
        assert!(views(&w).unwrap_err().0.contains("run past the end"));
        w.bots[0].size = 0;
        assert!(views(&w).unwrap_err().0.contains("no task"));
    }

    #[test]
    fn users_past_200_are_sampled_on_a_log_scale() {
        assert_eq!(user_ranks(200), (1..=200).collect::<Vec<_>>());
        let r = user_ranks(10_000);
        assert_eq!(&r[..100], (1..=100).collect::<Vec<_>>());
        assert_eq!(*r.last().unwrap(), 10_000);
        // 100 · 100^(1/100) = 104.7 → 105.
        assert_eq!(r[100], 105);
        assert!(r.len() <= 200 && r.windows(2).all(|p| p[0] < p[1]));
    }
}
