//! A whole workload fitted to the BoT model ([Iosup08] §3.1): every candidate family for every characteristic,
//! the Table-3-like row of the best ones, and the curves to draw the data against each candidate.

use super::fit::{
    cdf, fit, fit_censored, fit_intervals, fit_intervals_truncated, fit_zipf, mass, notation, select, DataError,
    Family, Fit, ZipfFit,
};
use crate::workload::dist::Dist;
use crate::workload::types::Workload;
use serde::{Deserialize, Serialize};

/// A Table-3-like row fitted from a workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedModel {
    pub users: ZipfFit,
    /// log2 of the de-seasonalised peak-hour inter-arrival time, seconds.
    pub iat: Fit,
    /// The 30-minute slot of the day (0..48) of the arrivals, truncated to [0, 48).
    pub daily_cycle: Fit,
    /// log2 of the BoT size (interval-censored: sizes are rounded).
    pub size: Fit,
    /// log2 of the average task runtime, seconds (censored at the generator's clamp bounds 1 s and 2^20 s).
    pub art: Fit,
    /// log2 of the intra-BoT runtime variance, s².
    pub rtv: Fit,
    /// Number of BoTs fitted.
    pub bots: usize,
}

impl FittedModel {
    /// The row as a model the generator can use ("use as model" in the page): every characteristic the fitted
    /// family and parameters. Its runtimes are in seconds (see [`fit_workload`]), so a scenario using it needs
    /// `"calibration": "seconds"`.
    pub fn to_model(&self) -> crate::workload::model::BotModel {
        use crate::workload::model::{BotModel, Characteristic, UserModel};
        BotModel {
            users: UserModel { alpha: self.users.alpha, n: self.users.n },
            iat: Characteristic::log2(self.iat.dist.clone()),
            daily_cycle: Some(self.daily_cycle.dist.clone()),
            size: Characteristic::log2(self.size.dist.clone()),
            art: Characteristic::log2(self.art.dist.clone()),
            rtv: Characteristic::log2(self.rtv.dist.clone()),
        }
    }
}

/// One candidate family fitted to one characteristic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub family: Family,
    /// The fit, or None and `error` says why this family could not be fitted.
    pub fit: Option<Fit>,
    pub error: Option<String>,
    /// The fitted CDF at each of the characteristic's `x` (conditional on the truncation range for the daily
    /// cycle); empty when the family could not be fitted.
    pub cdf: Vec<f64>,
    /// The selected family (lowest KS D, ties to the earlier family).
    pub best: bool,
}

/// The data of one characteristic against every candidate family: what the page draws as "data vs each fit".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateCurves {
    /// "daily cycle", "IAT", "size", "ART", "RTV".
    pub characteristic: String,
    /// The x axis: "slot of the day", "log2 IAT (s)", …
    pub axis: String,
    /// At most [`CURVE_POINTS`] + 1 abscissae, increasing.
    pub x: Vec<f64>,
    /// The empirical CDF at each `x` (right-continuous: the share of observations ≤ x; for binned data, of
    /// observations in bins ending at or before x).
    pub empirical: Vec<f64>,
    /// Number of observations (bins: their total count).
    pub n: u64,
    /// In [`Family::ALL`] order.
    pub candidates: Vec<Candidate>,
}

/// Every characteristic's candidates, in the order of the row: daily cycle, IAT, size, ART, RTV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitCandidates {
    pub characteristics: Vec<CandidateCurves>,
}

/// Points of a candidate curve: the empirical CDF is taken at the r = ⌈j·n/200⌉-th order statistic, j = 1 … 200.
pub const CURVE_POINTS: usize = 200;

const DAY: f64 = 86_400.0;
const SLOT: f64 = 1_800.0;
const SLOTS: usize = 48;
/// Peak hours 08:00–17:00 ([Iosup08] §3.3).
pub(crate) const PEAK_SLOTS: std::ops::RangeInclusive<usize> = 16..=33;
/// The generator clamps ART to [1 s, 2^20 s], i.e. log2 ART to [0, 20]: values there are censored.
const LOG2_ART_MIN: f64 = 0.0;
const LOG2_ART_MAX: f64 = 20.0;

pub(crate) fn slot_of(t: f64) -> usize {
    ((t.rem_euclid(DAY) / SLOT) as usize).min(SLOTS - 1)
}

/// Fits every characteristic of the model to a workload (see each field of [`FittedModel`]). Runtimes are read in
/// seconds with the ART bounds of the `seconds` calibration ([`crate::workload::model::Calibration`]); a row fitted
/// here describes its workload under that calibration.
///
/// - users: Zipf over the per-user BoT counts;
/// - daily cycle: interval fit of the arrival slots, bins [s, s + 1), truncated to [0, 48);
/// - IAT: inter-arrival times whose earlier arrival lies in a peak slot, divided by the stretch
///   p_peak / max(p(s), 0.01 p_peak) of the fitted cycle (p(s) its mass in slot s, p_peak the mean over the peak
///   slots), then log2, then [`best_fit`];
/// - size: interval fit of log2 size, size n ↔ [log2(n − ½), log2(n + ½)), size 1 ↔ (−∞, log2 1.5);
/// - ART: log2 of `bot.art`, or of the mean task runtime when that is not a positive number; censored at the
///   clamp bounds [0, 20] ([`super::fit::best_fit_censored`]), which reduces to [`best_fit`] when no value is at a
///   bound;
/// - RTV: log2 of `bot.rtv`, or of the sample variance of the task runtimes (BoTs of ≥ 2 tasks with variance
///   > 0); [`best_fit`].
///
/// Errors name the characteristic.
pub fn fit_workload(w: &Workload) -> Result<FittedModel, DataError> {
    fit_workload_with_candidates(w).map(|(m, _)| m)
}

/// [`fit_workload`] and, from the same fits, every candidate family of every characteristic with its CDF against
/// the data's ([`FitCandidates`]). The row is the same as [`fit_workload`]'s, bit for bit.
pub fn fit_workload_with_candidates(w: &Workload) -> Result<(FittedModel, FitCandidates), DataError> {
    let ctx = |what: &'static str| move |e: DataError| DataError(format!("{what}: {e}"));
    if w.bots.is_empty() {
        return Err(DataError("the workload has no BoTs".into()));
    }
    if let Some(b) = w.bots.iter().position(|b| !b.arrival.is_finite()) {
        return Err(DataError(format!("BoT {b} has a non-finite arrival time {}", w.bots[b].arrival)));
    }
    if let Some(b) = w.bots.iter().position(|b| b.size == 0) {
        return Err(DataError(format!("BoT {b} has size 0")));
    }
    if let Some(b) = w.bots.iter().position(|b| u64::from(b.first_task) + u64::from(b.size) > w.runtimes.len() as u64) {
        return Err(DataError(format!(
            "BoT {b}'s tasks run past the end of the runtimes ({} tasks)",
            w.runtimes.len()
        )));
    }

    // Users: BoTs per user id (by sorting, so that sparse or huge ids cost nothing).
    let mut ids: Vec<u32> = w.bots.iter().map(|b| b.user).collect();
    ids.sort_unstable();
    let per_user: Vec<u64> = ids.chunk_by(|a, b| a == b).map(|run| run.len() as u64).collect();
    let users = fit_zipf(&per_user).map_err(ctx("users"))?;

    // Daily cycle.
    let mut arrivals: Vec<f64> = w.bots.iter().map(|b| b.arrival).collect();
    arrivals.sort_by(f64::total_cmp);
    let mut slots = [0u64; SLOTS];
    for &t in &arrivals {
        slots[slot_of(t)] += 1;
    }
    let slot_bins: Vec<(f64, f64, u64)> = (0..SLOTS).map(|s| (s as f64, s as f64 + 1.0, slots[s])).collect();
    let cycle_fits = every(|f| fit_intervals_truncated(f, &slot_bins, 0.0, SLOTS as f64));
    let daily_cycle = select(cycle_fits.clone()).map_err(ctx("daily cycle"))?;

    // IAT, de-seasonalised with the fitted cycle.
    let p: Vec<f64> = (0..SLOTS).map(|s| mass(&daily_cycle.dist, s as f64, s as f64 + 1.0)).collect();
    let p_peak = PEAK_SLOTS.map(|s| p[s]).sum::<f64>() / PEAK_SLOTS.count() as f64;
    if p_peak.is_nan() || p_peak <= 0.0 {
        return Err(DataError(format!(
            "IAT: the fitted daily cycle {} has no mass in the peak hours",
            notation(&daily_cycle.dist)
        )));
    }
    let iats: Vec<f64> = arrivals
        .windows(2)
        .filter(|a| PEAK_SLOTS.contains(&slot_of(a[0])))
        .map(|a| {
            let stretch = p_peak / p[slot_of(a[0])].max(0.01 * p_peak);
            (a[1] - a[0]) / stretch
        })
        .filter(|&v| v > 0.0 && v.is_finite())
        .map(libm::log2)
        .collect();
    let iat_fits = every(|f| fit(f, &iats));
    let iat = select(iat_fits.clone()).map_err(ctx("IAT (peak hours)"))?;

    // Size.
    let mut sizes: Vec<u32> = w.bots.iter().map(|b| b.size).collect();
    sizes.sort_unstable();
    let mut size_bins: Vec<(f64, f64, u64)> = Vec::new();
    for run in sizes.chunk_by(|a, b| a == b) {
        let n = run[0] as f64;
        let lo = if run[0] == 1 { f64::NEG_INFINITY } else { libm::log2(n - 0.5) };
        size_bins.push((lo, libm::log2(n + 0.5), run.len() as u64));
    }
    let size_fits = every(|f| fit_intervals(f, &size_bins));
    let size = select(size_fits.clone()).map_err(ctx("size"))?;

    // ART and RTV.
    let mut art_data = Vec::with_capacity(w.bots.len());
    let mut rtv_data = Vec::with_capacity(w.bots.len());
    for (i, b) in w.bots.iter().enumerate() {
        let rt = w.bot_runtimes(i);
        let mean = rt.iter().sum::<f64>() / rt.len() as f64;
        let art = if b.art.is_finite() && b.art > 0.0 { b.art } else { mean };
        if art.is_finite() && art > 0.0 {
            art_data.push(libm::log2(art));
        }
        let rtv = if b.rtv.is_finite() && b.rtv > 0.0 {
            b.rtv
        } else if rt.len() >= 2 {
            rt.iter().map(|r| (r - mean) * (r - mean)).sum::<f64>() / (rt.len() - 1) as f64
        } else {
            f64::NAN
        };
        if rtv.is_finite() && rtv > 0.0 {
            rtv_data.push(libm::log2(rtv));
        }
    }
    let art_fits = every(|f| fit_censored(f, &art_data, LOG2_ART_MIN, LOG2_ART_MAX));
    let art = select(art_fits.clone()).map_err(ctx("ART"))?;
    let rtv_fits = every(|f| fit(f, &rtv_data));
    let rtv = select(rtv_fits.clone()).map_err(ctx("RTV"))?;

    // A candidate with no mass in [0, 48) (D = 1) has no conditional CDF: its curve is drawn at 0.
    let truncated = |d: &Dist, x: f64| {
        let inside = mass(d, 0.0, SLOTS as f64);
        if inside > 0.0 {
            (mass(d, 0.0, x.min(SLOTS as f64)) / inside).clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let characteristics = vec![
        curves("daily cycle", "slot of the day (30 min)", binned(&slot_bins), cycle_fits, &daily_cycle, truncated),
        curves("IAT", "log2 IAT (s), peak hours", exact(&iats), iat_fits, &iat, cdf),
        curves("size", "log2 BoT size", binned(&size_bins), size_fits, &size, cdf),
        curves("ART", "log2 ART (s)", exact(&art_data), art_fits, &art, cdf),
        curves("RTV", "log2 RTV (s²)", exact(&rtv_data), rtv_fits, &rtv, cdf),
    ];
    let model = FittedModel { users, iat, daily_cycle, size, art, rtv, bots: w.bots.len() };
    Ok((model, FitCandidates { characteristics }))
}

fn every(f: impl Fn(Family) -> Result<Fit, DataError>) -> Vec<(Family, Result<Fit, DataError>)> {
    Family::ALL.iter().map(|&family| (family, f(family))).collect()
}

/// (x, empirical CDF, n) of exact observations at the r = ⌈j·n/200⌉-th order statistic (every point when n ≤ 200).
fn exact(data: &[f64]) -> (Vec<f64>, Vec<f64>, u64) {
    let mut x: Vec<f64> = data.iter().copied().filter(|v| v.is_finite()).collect();
    x.sort_by(f64::total_cmp);
    let n = x.len();
    let mut ranks: Vec<usize> =
        (1..=CURVE_POINTS).map(|j| (j * n).div_ceil(CURVE_POINTS)).filter(|&r| r >= 1).collect();
    ranks.dedup();
    // The empirical CDF is right-continuous: at x_(r) it counts every tie of x_(r).
    let mut xs: Vec<f64> = ranks.iter().map(|&r| x[r - 1]).collect();
    xs.dedup();
    let ys: Vec<f64> = xs.iter().map(|&v| x.partition_point(|&u| u <= v) as f64 / n as f64).collect();
    (xs, ys, n as u64)
}

/// (x, empirical CDF, n) of binned observations at the upper edge of each non-empty bin (at most 200, evenly
/// chosen by rank when there are more).
fn binned(bins: &[(f64, f64, u64)]) -> (Vec<f64>, Vec<f64>, u64) {
    let total: u64 = bins.iter().map(|b| b.2).sum();
    let mut acc = 0u64;
    let all: Vec<(f64, f64)> = bins
        .iter()
        .filter_map(|&(_, hi, c)| {
            acc += c;
            (c > 0).then(|| (hi, acc as f64 / total as f64))
        })
        .collect();
    let keep: Vec<(f64, f64)> = if all.len() <= CURVE_POINTS {
        all
    } else {
        let mut idx: Vec<usize> = (1..=CURVE_POINTS).map(|j| (j * all.len()).div_ceil(CURVE_POINTS) - 1).collect();
        idx.dedup();
        idx.into_iter().map(|i| all[i]).collect()
    };
    (keep.iter().map(|p| p.0).collect(), keep.iter().map(|p| p.1).collect(), total)
}

fn curves(
    characteristic: &str,
    axis: &str,
    (x, empirical, n): (Vec<f64>, Vec<f64>, u64),
    fits: Vec<(Family, Result<Fit, DataError>)>,
    best: &Fit,
    cdf_of: impl Fn(&Dist, f64) -> f64,
) -> CandidateCurves {
    // `select` keeps the first of equal D, so the best is the first candidate whose fit equals it.
    let best_at = fits.iter().position(|(_, r)| r.as_ref().is_ok_and(|f| f == best));
    let candidates = fits
        .into_iter()
        .enumerate()
        .map(|(i, (family, r))| {
            let cdf = r.as_ref().map(|f| x.iter().map(|&v| cdf_of(&f.dist, v)).collect()).unwrap_or_default();
            let (fit, error) = match r {
                Ok(f) => (Some(f), None),
                Err(e) => (None, Some(e.0)),
            };
            Candidate { family, fit, error, cdf, best: Some(i) == best_at }
        })
        .collect();
    CandidateCurves { characteristic: characteristic.into(), axis: axis.into(), x, empirical, n, candidates }
}

/// The `--fit-candidates` table of `bagsim trace`: per characteristic, every family's notation and KS D, the
/// selected one marked.
pub fn candidates_table(c: &FitCandidates) -> String {
    let mut out = String::new();
    for ch in &c.characteristics {
        out.push_str(&format!("  {} ({} observations):\n", ch.characteristic, ch.n));
        for k in &ch.candidates {
            let mark = if k.best { "*" } else { " " };
            match (&k.fit, &k.error) {
                (Some(f), _) => out.push_str(&format!(
                    "   {mark} {:<18} {:<26} D = {:.4}\n",
                    k.family.name(),
                    notation(&f.dist),
                    f.ks
                )),
                (None, e) => out.push_str(&format!(
                    "   {mark} {:<18} not fitted: {}\n",
                    k.family.name(),
                    e.as_deref().unwrap_or("")
                )),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    #[test]
    fn the_empirical_cdf_of_exact_data_counts_ties_and_ends_at_one() {
        let (x, y, n) = exact(&[3.0, 1.0, 2.0, 2.0, f64::NAN]);
        assert_eq!(n, 4);
        assert_eq!(x, vec![1.0, 2.0, 3.0]);
        assert_eq!(y, vec![0.25, 0.75, 1.0]);
        let many: Vec<f64> = (0..1000).map(f64::from).collect();
        let (x, y, _) = exact(&many);
        assert_eq!(x.len(), CURVE_POINTS);
        assert_eq!(*y.last().unwrap(), 1.0);
        assert_eq!(x[0], 4.0); // ⌈1000/200⌉ = 5th smallest
    }

    #[test]
    fn the_empirical_cdf_of_bins_steps_at_upper_edges_and_skips_empty_bins() {
        let (x, y, n) = binned(&[(0.0, 1.0, 1), (1.0, 2.0, 0), (2.0, 3.0, 3)]);
        assert_eq!(n, 4);
        assert_eq!(x, vec![1.0, 3.0]);
        assert_eq!(y, vec![0.25, 1.0]);
    }

    #[test]
    fn each_candidate_curve_is_its_fitted_cdf_and_exactly_one_is_the_row() {
        // A workload of log-normal ART: the ART candidates must hold the fitted row's distribution, its CDF at
        // every x, and a KS D no larger than any other candidate's.
        let mut r = Rng::new(7);
        let d = Dist::Normal { mu: 6.0, sigma: 1.5 };
        let bots: Vec<(f64, u32, Vec<f64>)> = (0..400)
            .map(|i| {
                let art = libm::exp2(d.sample(&mut r));
                let size = 1 + (r.below(8) as u32);
                (i as f64 * 900.0, (r.below(5)) as u32, (0..size).map(|k| art * (0.5 + k as f64 / 8.0)).collect())
            })
            .collect();
        let refs: Vec<(f64, u32, &[f64])> = bots.iter().map(|(a, u, rt)| (*a, *u, rt.as_slice())).collect();
        let w = Workload::from_bots(&refs);
        let (row, c) = fit_workload_with_candidates(&w).unwrap();
        assert_eq!(fit_workload(&w).unwrap(), row);
        assert_eq!(c.characteristics.len(), 5);
        let art = &c.characteristics[3];
        assert_eq!(art.characteristic, "ART");
        assert_eq!(art.candidates.iter().filter(|k| k.best).count(), 1);
        let best = art.candidates.iter().find(|k| k.best).unwrap();
        assert_eq!(best.fit.as_ref().unwrap(), &row.art);
        for k in &art.candidates {
            if let Some(f) = &k.fit {
                assert!(f.ks >= row.art.ks, "{} has D {} below the row's {}", k.family, f.ks, row.art.ks);
                assert_eq!(k.cdf.len(), art.x.len());
                for (i, &x) in art.x.iter().enumerate() {
                    assert_eq!(k.cdf[i], cdf(&f.dist, x));
                }
                // The plotted curves give back the candidate's D as a lower bound: D is a sup over all x.
                let seen =
                    art.x.iter().zip(&art.empirical).zip(&k.cdf).map(|((_, e), m)| (e - m).abs()).fold(0.0, f64::max);
                assert!(seen <= f.ks + 1e-12, "{}: {seen} > D {}", k.family, f.ks);
            }
        }
        // The daily cycle's curves are conditional on [0, 48): they reach 1 at the last slot's edge.
        let cycle = &c.characteristics[0];
        for k in cycle.candidates.iter().filter(|k| !k.cdf.is_empty()) {
            assert!(k.cdf.windows(2).all(|p| p[0] <= p[1]), "{} not monotone: {:?} {:?}", k.family, k.cdf, k.fit);
        }
        let table = candidates_table(&c);
        assert_eq!(table.matches('*').count(), 5, "{table}");
    }
}
