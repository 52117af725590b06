//! Burstiness as the normalized entropy of [Minh10] §V, Eq. 4: temporal (arrivals per interval of length T) and
//! spatial (share of the total runtime requested with i processors). 1 = no burstiness, 0 = extreme.
//!
//! Eq. 4: H_NE = −Σ_{i=1..N} p_i · ln p_i / ln N, with 0 · ln 0 = 0; the base of the logarithm cancels.
//!
//! - Temporal, for an interval length T ([Minh10] §V-A: "we divide the time axis into N contiguous intervals of
//!   equal size T … p_i denotes the probability that a job arrives in interval i"): the axis starts at time 0 of
//!   the workload (the start of the submission period of a generated workload; the local midnight before the
//!   first job of a trace) and is cut into [kT, (k+1)T), k = 0 … N − 1, with N = ⌊t_last / T⌋ + 1 the number of
//!   intervals up to the one holding the last arrival. Empty intervals count in N (they are what makes a workload
//!   bursty) and add 0 to the sum. p_i = jobs arriving in interval i / all jobs. What a "job" is, is the
//!   caller's: [`temporal`] takes (time, jobs) pairs, so a BoT of 5 tasks weighs 5 and a BoT counted as one
//!   arrival weighs 1.
//! - Spatial ([Minh10] §V-B): p_i = TR_i / TR, TR_i the total runtime of the jobs that request i processors, TR
//!   that of all jobs, i = 1 … N with N the largest number of processors a job requests.
//!
//! Eq. 4 is 0/0 when N = 1 (every arrival in the first interval; every job on one processor) or when nothing was
//! counted: the measure is then `None`, never a made-up number. Only `libm` and sorting, no hash maps: the page
//! and the CLI print the same bits.

use crate::error::DataError;
use serde::{Deserialize, Serialize};

/// The interval lengths T the page and the CLI show, seconds: 5 min, 15 min, 30 min, 1 h, 1 day.
pub const SCALES: [f64; 5] = [300.0, 900.0, 1_800.0, 3_600.0, 86_400.0];

/// The labels of [`SCALES`].
const SCALE_LABELS: [&str; 5] = ["5 min", "15 min", "30 min", "1 h", "1 day"];

/// A short label of an interval length: "5 min" … "1 day" for [`SCALES`], else seconds ("60 s").
pub fn scale_label(t: f64) -> String {
    match SCALES.iter().position(|&s| s == t) {
        Some(i) => SCALE_LABELS[i].to_string(),
        None => format!("{t} s"),
    }
}

/// Eq. 4 over the masses of N = `masses.len()` ranges (counts or runtimes, any unit; zeros count in N). `Ok(None)`
/// when N < 2 or the total is 0; an error when a mass is negative or not finite.
pub fn normalized_entropy(masses: &[f64]) -> Result<Option<f64>, DataError> {
    if let Some(i) = masses.iter().position(|m| !(m.is_finite() && *m >= 0.0)) {
        return Err(DataError(format!("mass {i} = {}: must be finite and ≥ 0", masses[i])));
    }
    Ok(entropy_of(masses.iter().copied(), masses.len() as u64))
}

/// Eq. 4 with the non-zero masses listed (in a fixed order) and N given: empty ranges add 0 · ln 0 = 0.
fn entropy_of(nonzero: impl Iterator<Item = f64> + Clone, ranges: u64) -> Option<f64> {
    let total: f64 = nonzero.clone().sum();
    if ranges < 2 || total <= 0.0 {
        return None;
    }
    let h: f64 = nonzero
        .filter(|&m| m > 0.0)
        .map(|m| {
            let p = m / total;
            -p * libm::log(p)
        })
        .sum();
    // + 0.0: one busy range gives −(1 · ln 1) = −0, which a report would print as "-0".
    Some(h / libm::log(ranges as f64) + 0.0)
}

/// Temporal burstiness at one interval length T.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Temporal {
    /// T, seconds.
    pub interval: f64,
    /// N: the intervals [kT, (k+1)T) from time 0 to the one holding the last arrival (0 when nothing arrived).
    pub intervals: u64,
    /// Intervals with at least one arrival.
    pub busy: u64,
    /// Jobs counted (Σ of the weights).
    pub jobs: u64,
    /// H_NE of Eq. 4, in [0, 1]; absent when N < 2 or no job arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entropy: Option<f64>,
    /// The H_NE expected of as many jobs from a homogeneous Poisson process over the same N intervals
    /// ([`poisson_expectation`]): what "no burstiness" reaches with this many jobs. Below 1 when jobs are few per
    /// interval (at most `jobs` intervals can be busy); read `entropy` against it. Absent when undefined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poisson: Option<f64>,
}

/// Temporal burstiness at interval length `interval` (T, s) of `arrivals`, each (time in s ≥ 0, jobs arriving
/// then). Any order; O(n log n) when not sorted by time, O(n) when sorted, memory O(n) whatever N.
pub fn temporal(arrivals: &[(f64, u64)], interval: f64) -> Result<Temporal, DataError> {
    if !(interval.is_finite() && interval > 0.0) {
        return Err(DataError(format!("interval T = {interval} s: must be a finite number > 0")));
    }
    if let Some(i) = arrivals.iter().position(|&(t, _)| !(t.is_finite() && t >= 0.0)) {
        return Err(DataError(format!(
            "arrival {i} at {} s: times must be finite and ≥ 0 (time 0 = start of the workload)",
            arrivals[i].0
        )));
    }
    // Interval index of each arrival, in time order.
    let mut cells: Vec<(u64, u64)> =
        arrivals.iter().filter(|a| a.1 > 0).map(|&(t, n)| (libm::floor(t / interval) as u64, n)).collect();
    if !cells.is_sorted_by_key(|c| c.0) {
        cells.sort_by_key(|c| c.0);
    }
    let Some(&(last, _)) = cells.last() else {
        return Ok(Temporal { interval, intervals: 0, busy: 0, jobs: 0, entropy: None, poisson: None });
    };
    if last >= 1 << 53 {
        return Err(DataError(format!(
            "the last arrival is {last} intervals of {interval} s after time 0: too many to count"
        )));
    }
    let counts: Vec<f64> =
        cells.chunk_by(|a, b| a.0 == b.0).map(|run| run.iter().map(|c| c.1).sum::<u64>() as f64).collect();
    let intervals = last + 1;
    let jobs = cells.iter().map(|c| c.1).sum();
    Ok(Temporal {
        interval,
        intervals,
        busy: counts.len() as u64,
        jobs,
        entropy: entropy_of(counts.iter().copied(), intervals),
        poisson: poisson_expectation(jobs, intervals),
    })
}

/// E[H_NE] of `jobs` arrivals of a homogeneous Poisson process over `intervals` intervals of equal length, given
/// their number: each job falls in one of the N intervals uniformly and independently, so an interval's count is
/// Binomial(n, 1/N) and, by linearity, E[H] = −N · Σ_{k=1..n} P(k) · (k/n) ln(k/n). The sum runs over k within
/// 40 standard deviations + 40 of n/N (the probability left out is below 1e-40). About 1 − (N − 1)/(2n ln N) when
/// n/N is large (χ² approximation). `None` when N < 2 or n = 0. O(√(n/N) + 1).
pub fn poisson_expectation(jobs: u64, intervals: u64) -> Option<f64> {
    if intervals < 2 || jobs == 0 {
        return None;
    }
    let (n, big_n) = (jobs as f64, intervals as f64);
    let q = 1.0 / big_n;
    let (mean, sd) = (n * q, libm::sqrt(n * q * (1.0 - q)));
    let lo = libm::floor(mean - 40.0 * sd - 40.0).max(1.0) as u64;
    let hi = (libm::ceil(mean + 40.0 * sd + 40.0) as u64).min(jobs);
    let (ln_q, ln_p, lg_n) = (libm::log(q), libm::log1p(-q), libm::lgamma(n + 1.0));
    let sum: f64 = (lo..=hi)
        .map(|k| {
            let k = k as f64;
            let pmf = libm::exp(lg_n - libm::lgamma(k + 1.0) - libm::lgamma(n - k + 1.0) + k * ln_q + (n - k) * ln_p);
            let x = k / n;
            pmf * x * libm::log(x)
        })
        .sum();
    // + 0.0: a sum of −0 terms (every job alone in its interval: ln 1) would give −0.
    Some(-big_n * sum / libm::log(big_n) + 0.0)
}

/// Spatial burstiness of a workload's jobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spatial {
    /// N: the largest number of processors a job requests (0 when there is no job).
    pub max_processors: u32,
    /// Distinct processor counts requested.
    pub widths: u32,
    /// TR: Σ runtime of all jobs, s.
    pub total_runtime: f64,
    /// H_NE of Eq. 4 with p_i = TR_i / TR, i = 1 … N; absent when N < 2 or TR = 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entropy: Option<f64>,
}

/// Spatial burstiness of `jobs`, each (processors requested ≥ 1, runtime in s ≥ 0). O(n log n).
pub fn spatial(jobs: &[(u32, f64)]) -> Result<Spatial, DataError> {
    if let Some(i) = jobs.iter().position(|&(p, r)| p == 0 || !(r.is_finite() && r >= 0.0)) {
        let (p, r) = jobs[i];
        return Err(DataError(format!(
            "job {i}: {p} processors, runtime {r} s; need ≥ 1 processor and a finite runtime ≥ 0"
        )));
    }
    let mut sorted: Vec<(u32, f64)> = jobs.to_vec();
    // Stable: the runtimes of one width are summed in input order, so the bits do not depend on the sort.
    sorted.sort_by_key(|j| j.0);
    let tr: Vec<f64> = sorted.chunk_by(|a, b| a.0 == b.0).map(|run| run.iter().map(|j| j.1).sum()).collect();
    let max_processors = sorted.last().map_or(0, |j| j.0);
    Ok(Spatial {
        max_processors,
        widths: tr.len() as u32,
        total_runtime: tr.iter().sum(),
        entropy: entropy_of(tr.iter().copied(), u64::from(max_processors)),
    })
}

/// Temporal burstiness at every [`SCALES`] and spatial burstiness of a parallel workload's jobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobsBurstiness {
    pub temporal: Vec<Temporal>,
    pub spatial: Spatial,
}

/// [Minh10] §V to the letter for a parallel workload: `jobs` are (arrival in s ≥ 0, processors ≥ 1, runtime in
/// s ≥ 0), each job one arrival at its own time, whatever BoT it belongs to (e.g. a trace's jobs).
pub fn of_jobs(jobs: &[(f64, u32, f64)]) -> Result<JobsBurstiness, DataError> {
    let arrivals: Vec<(f64, u64)> = jobs.iter().map(|j| (j.0, 1)).collect();
    let temporal = SCALES.iter().map(|&t| temporal(&arrivals, t)).collect::<Result<Vec<_>, _>>()?;
    let widths: Vec<(u32, f64)> = jobs.iter().map(|j| (j.1, j.2)).collect();
    Ok(JobsBurstiness { temporal, spatial: spatial(&widths)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::Rng;
    use crate::workload::dist::Dist;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    fn ne(masses: &[f64]) -> Option<f64> {
        normalized_entropy(masses).unwrap()
    }

    #[test]
    fn eq4_by_hand() {
        assert!(close(ne(&[1.0, 1.0]), 1.0));
        assert!(close(ne(&[5.0, 5.0, 5.0]), 1.0));
        // (¾, ¼): −(¾ ln ¾ + ¼ ln ¼) / ln 2 = 0.8112781244591328 (bits over 1 bit).
        assert!(close(ne(&[3.0, 1.0]), 0.811_278_124_459_132_8));
        // (½, ¼, ¼, 0) over N = 4: 1.5 bits / 2 bits.
        assert!(close(ne(&[2.0, 1.0, 1.0, 0.0]), 0.75));
        assert!(close(ne(&[0.0, 7.0, 0.0]), 0.0));
        assert_eq!(ne(&[4.0]), None);
        assert_eq!(ne(&[0.0, 0.0]), None);
        assert_eq!(ne(&[]), None);
        assert!(normalized_entropy(&[1.0, -1.0]).is_err());
        assert!(normalized_entropy(&[1.0, f64::NAN]).is_err());
    }

    /// Arrivals of a homogeneous Poisson process of `rate` per s on [0, `end`), thinned by `keep(t)`.
    fn poisson(seed: u64, rate: f64, end: f64, keep: impl Fn(f64) -> bool) -> Vec<(f64, u64)> {
        let mut rng = Rng::new(seed);
        let iat = Dist::Exponential { mean: 1.0 / rate };
        let mut t = iat.sample(&mut rng);
        let mut out = Vec::new();
        while t < end {
            if keep(t) {
                out.push((t, 1));
            }
            t += iat.sample(&mut rng);
        }
        out
    }

    /// The band 1 − H_NE must lie in for n multinomial counts over N equally likely intervals, at 6 standard
    /// deviations. Derivation: with p̂_i = (1 + δ_i)/N, Σ δ_i = 0, a Taylor expansion of −Σ p̂ ln p̂ gives
    /// ln N − Ĥ = (1/2N) Σ δ_i² + O(δ³) = χ² / 2n, where χ² = Σ (c_i − n/N)² / (n/N) is Pearson's statistic,
    /// χ²(N − 1) distributed: mean N − 1, standard deviation √(2(N − 1)). Hence
    /// 1 − H_NE ≈ χ² / (2n ln N). The O(δ³) term is ~√(N/n) ≈ 10% of the quadratic one here (n/N ≥ 100), well
    /// inside the band.
    fn band(n: u64, intervals: u64) -> (f64, f64) {
        let (n, k) = (n as f64, intervals as f64);
        let (mean, sd) = (k - 1.0, (2.0 * (k - 1.0)).sqrt());
        let scale = 2.0 * n * k.ln();
        (((mean - 6.0 * sd) / scale).max(0.0), (mean + 6.0 * sd) / scale)
    }

    #[test]
    fn poisson_expectation_by_hand() {
        // n = 2, N = 2: both in one interval (½, H = 0) or one each (½, H = ln 2): ½.
        assert!(close(poisson_expectation(2, 2), 0.5));
        // n = 3, N = 2: (3, 0) with probability ¼, (2, 1) with ¾ and H(⅔, ⅓) = 0.9182958340544896 bits.
        assert!(close(poisson_expectation(3, 2), 0.75 * 0.918_295_834_054_489_6));
        // One job is always in one interval.
        assert!(close(poisson_expectation(1, 100), 0.0));
        assert_eq!(poisson_expectation(0, 10), None);
        assert_eq!(poisson_expectation(10, 1), None);
        // Many jobs per interval: the χ² approximation 1 − (N − 1)/(2n ln N).
        let (n, k) = (1_000_000u64, 100u64);
        let approx = 1.0 - 99.0 / (2.0 * 1e6 * 100f64.ln());
        assert!((poisson_expectation(n, k).unwrap() - approx).abs() < 1e-8);
        // Fewer jobs than intervals: at most n busy, so below ln n / ln N.
        assert!(poisson_expectation(100, 10_000).unwrap() < 100f64.ln() / 10_000f64.ln());
    }

    #[test]
    fn homogeneous_poisson_is_not_bursty_at_any_scale() {
        // One week at 1/3 arrival per second: ~201 600 arrivals, ≥ 100 per interval at T = 5 min (N = 2 016).
        const WEEK: f64 = 7.0 * 86_400.0;
        for seed in 1..=5 {
            let a = poisson(seed, 1.0 / 3.0, WEEK, |_| true);
            for &t in &SCALES {
                let m = temporal(&a, t).unwrap();
                assert_eq!(m.intervals as f64, WEEK / t, "seed {seed}, T {t}");
                let (lo, hi) = band(m.jobs, m.intervals);
                let deficit = 1.0 - m.entropy.unwrap();
                assert!((lo..=hi).contains(&deficit), "seed {seed}, T {t}: 1 − H_NE = {deficit}, band [{lo}, {hi}]");
                // The exact expectation lies in the band too, and the measure within 6 sd of it.
                let expected = m.poisson.unwrap();
                assert!((lo..=hi).contains(&(1.0 - expected)), "seed {seed}, T {t}: E = {expected}");
                let sd = (2.0 * (m.intervals as f64 - 1.0)).sqrt() / (2.0 * m.jobs as f64 * (m.intervals as f64).ln());
                assert!((m.entropy.unwrap() - expected).abs() < 6.0 * sd, "seed {seed}, T {t}: {m:?}");
            }
        }
        // The band has power: the same process with nothing between 18:00 and 08:00 leaves it at T = 1 h, and
        // its nightly gaps make the entropy visibly lower.
        let a = poisson(1, 1.0 / 3.0, WEEK, |t| (t % 86_400.0) >= 8.0 * 3_600.0 && (t % 86_400.0) < 18.0 * 3_600.0);
        let m = temporal(&a, 3_600.0).unwrap();
        let (_, hi) = band(m.jobs, m.intervals);
        let deficit = 1.0 - m.entropy.unwrap();
        assert!(deficit > 10.0 * hi, "1 − H_NE = {deficit}, band top {hi}");
        // Ten busy hours a day: H ≈ ln 70 over N = 6 · 24 + 18 = 162 intervals (the axis ends at the last busy hour).
        assert_eq!((m.intervals, m.busy), (162, 70));
        assert!((m.entropy.unwrap() - 70f64.ln() / 162f64.ln()).abs() < 1e-3, "{:?}", m.entropy);
    }

    #[test]
    fn temporal_cuts_the_axis_from_time_zero() {
        // T = 10: intervals [0,10) [10,20) [20,30) [30,40); counts 2, 0, 1, 1 (t = 39.9 sets N = 4).
        let a = [(0.0, 1), (9.99, 1), (25.0, 1), (39.9, 1)];
        let t = temporal(&a, 10.0).unwrap();
        assert_eq!((t.intervals, t.busy, t.jobs), (4, 3, 4));
        assert!(close(t.entropy, 0.75));
        // The same in any order, and with weights instead of repeated times.
        let b = [(39.9, 1), (25.0, 1), (5.0, 2)];
        assert_eq!(temporal(&b, 10.0).unwrap(), t);
        // An arrival on a boundary belongs to the interval it starts.
        let t = temporal(&[(0.0, 1), (10.0, 1)], 10.0).unwrap();
        assert_eq!(t.intervals, 2);
        assert!(close(t.entropy, 1.0));
    }

    #[test]
    fn all_in_one_interval_is_extreme_burstiness() {
        // Everything in [20, 30): N = 3 intervals, one holds all.
        let t = temporal(&[(21.0, 4), (29.0, 1)], 10.0).unwrap();
        assert_eq!((t.intervals, t.busy), (3, 1));
        assert_eq!(t.entropy, Some(0.0));
        // Everything in the first interval: N = 1, Eq. 4 is 0/0.
        assert_eq!(temporal(&[(1.0, 4), (2.0, 1)], 10.0).unwrap().entropy, None);
        // Nothing arrived.
        let t = temporal(&[], 10.0).unwrap();
        assert_eq!((t.intervals, t.entropy), (0, None));
        assert_eq!(temporal(&[(5.0, 0)], 10.0).unwrap().intervals, 0);
    }

    #[test]
    fn bad_input_is_rejected() {
        assert!(temporal(&[(1.0, 1)], 0.0).is_err());
        assert!(temporal(&[(1.0, 1)], f64::NAN).is_err());
        assert!(temporal(&[(-1.0, 1)], 10.0).unwrap_err().0.contains("arrival 0"));
        assert!(temporal(&[(1.0, 1), (f64::INFINITY, 1)], 10.0).unwrap_err().0.contains("arrival 1"));
        assert!(spatial(&[(0, 1.0)]).is_err());
        assert!(spatial(&[(1, -1.0)]).is_err());
        assert!(spatial(&[(1, f64::NAN)]).is_err());
    }

    #[test]
    fn spatial_by_hand() {
        // TR_1 = 30, TR_2 = 0, TR_4 = 10: N = 4, p = (¾, 0, 0, ¼).
        let s = spatial(&[(1, 10.0), (4, 10.0), (1, 20.0)]).unwrap();
        assert_eq!((s.max_processors, s.widths, s.total_runtime), (4, 2, 40.0));
        assert!(close(s.entropy, 0.811_278_124_459_132_8 / 2.0));
        // Equal runtime on each width 1 … 3: no burstiness.
        assert!(close(spatial(&[(3, 5.0), (2, 5.0), (1, 5.0)]).unwrap().entropy, 1.0));
        // All runtime on the widest: extreme.
        assert_eq!(spatial(&[(8, 5.0), (1, 0.0)]).unwrap().entropy, Some(0.0));
        // Every job on one processor (every BoT task of the model): one range, undefined.
        let s = spatial(&[(1, 5.0), (1, 7.0)]).unwrap();
        assert_eq!((s.max_processors, s.entropy), (1, None));
        assert_eq!(spatial(&[]).unwrap(), Spatial { max_processors: 0, widths: 0, total_runtime: 0.0, entropy: None });
    }

    #[test]
    fn jobs_both_ways() {
        // Two jobs in the first 5 minutes, one a day later; 4 processors × 30 s and 1 × 90 s.
        let b = of_jobs(&[(0.0, 4, 30.0), (60.0, 1, 90.0), (86_400.0, 1, 0.0)]).unwrap();
        assert_eq!(b.temporal.iter().map(|t| t.jobs).collect::<Vec<_>>(), [3; 5]);
        assert_eq!(b.temporal[4].intervals, 2);
        assert!(close(b.temporal[4].entropy, 0.918_295_834_054_489_6)); // H(⅔, ⅓) in bits
        assert_eq!(b.spatial.max_processors, 4);
        assert!(close(b.spatial.entropy, 0.811_278_124_459_132_8 / 2.0)); // p = (¾, 0, 0, ¼)
        assert!(of_jobs(&[(0.0, 0, 1.0)]).is_err());
    }

    #[test]
    fn labels() {
        let l: Vec<String> = SCALES.iter().map(|&t| scale_label(t)).collect();
        assert_eq!(l, ["5 min", "15 min", "30 min", "1 h", "1 day"]);
        assert_eq!(scale_label(60.0), "60 s");
    }
}
