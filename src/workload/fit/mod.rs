//! Maximum-likelihood fitting of the workload model's distributions, with KS selection ([Iosup08] §3.1).
//!
//! For each characteristic the candidate families exponential, hyper-exponential (2 phases), normal, log-normal,
//! gamma and Weibull are fitted by maximum likelihood; the Kolmogorov–Smirnov statistic D of each fit against the
//! data is computed and the family with the lowest D is selected. User ranks are fitted to a Zipf law ([Iosup08] §3.2).
//!
//! Three likelihoods are used:
//! - exact observations ([`fit`], [`best_fit`]): closed forms, Newton or EM;
//! - interval-censored observations ([`fit_intervals`], [`fit_intervals_truncated`]): values known only to lie in
//!   a bin, e.g. BoT sizes (log2 of a rounded 2^x) and daily-cycle slots; Nelder–Mead on Σ count·ln P(bin);
//! - exact observations with censoring at known clamp bounds ([`fit_censored`]): used for ART, which the
//!   generator clamps to [1 s, 2^20 s], i.e. log2 ART to [0, 20].
//!
//! Everything is deterministic (no random restarts) and returns a [`DataError`] rather than panicking or
//! producing NaN. Only `libm` and IEEE arithmetic (no std transcendental, no statrs, whose special functions call
//! std's): a fit gives the same bits natively and in wasm32, so "use the fitted model" runs the same model on both.

mod censoring;
mod density;
mod exact;
mod family;
mod mle;
mod optimise;
#[cfg(test)]
mod testkit;
mod zipf;

pub use censoring::{
    best_fit_censored, best_fit_intervals, best_fit_intervals_truncated, fit_censored, fit_intervals,
    fit_intervals_truncated,
};
pub(super) use density::{cdf, mass};
pub(super) use exact::select;
pub use exact::{best_fit, fit, fit_all, ks_statistic};
pub use family::{notation, DataError, Family, Fit};
pub use zipf::{fit_zipf, ZipfFit};
// The whole-workload fit lives in its own module; these names stay reachable from here.
pub use crate::workload::fit_workload::{fit_workload, fit_workload_with_candidates, FitCandidates, FittedModel};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;
    use crate::workload::dist::Dist;
    use crate::workload::fit::testkit::{close, params, zipf_counts};
    use crate::workload::fit_workload::{slot_of, PEAK_SLOTS};
    use crate::workload::types::{Bot, Workload};

    #[test]
    fn errors_instead_of_panics_or_nan() {
        for family in Family::ALL {
            assert!(fit(family, &[]).is_err());
            assert!(fit(family, &[1.0]).is_err());
            let e = fit(family, &[1.0, f64::NAN, 2.0]).unwrap_err();
            assert!(e.0.contains("non-finite"), "{e}");
            assert!(fit(family, &[1.0, f64::INFINITY]).is_err());
            // Overflowing data must not produce NaN parameters.
            if let Ok(f) = fit(family, &[1e308, 1.5e308, 1.7e308]) {
                assert!(f.dist.validate().is_ok() && f.ks.is_finite() && f.log_likelihood.is_finite(), "{f:?}");
            }
        }
        let e = fit(Family::LogNormal, &[1.0, 0.0, -2.0, 3.0, -0.5]).unwrap_err();
        assert_eq!(e.to_string(), "log-normal needs data > 0; found 3 values ≤ 0");
        assert!(fit(Family::Gamma, &[1.0, 0.0]).is_err());
        assert!(fit(Family::Weibull, &[1.0, -1.0]).is_err());
        assert!(fit(Family::Exponential, &[1.0, -1.0]).is_err());
        assert!(fit(Family::Exponential, &[0.0, 0.0]).is_err());
        assert!(fit(Family::Exponential, &[2.0, 2.0]).is_ok());
        assert!(fit(Family::HyperExponential, &[-1.0, 2.0]).is_err());
        for family in [Family::Normal, Family::LogNormal, Family::Gamma, Family::Weibull, Family::HyperExponential] {
            let e = fit(family, &[3.0, 3.0, 3.0]).unwrap_err();
            assert!(e.0.contains("equal"), "{family}: {e}");
        }
        let e = best_fit(&[f64::NAN, 1.0]).unwrap_err();
        assert!(e.0.starts_with("no candidate family"), "{e}");

        let bins = [(0.0, 1.0, 5u64), (1.0, 2.0, 3)];
        assert!(fit_intervals(Family::Weibull, &[]).is_err());
        assert!(fit_intervals(Family::Weibull, &[(0.0, 1.0, 9)]).is_err()); // one bin: no unique MLE
        assert!(fit_intervals(Family::Weibull, &[(0.0, 1.0, 1), (1.0, 2.0, 0)]).is_err()); // < 2 observations
        assert!(fit_intervals(Family::Weibull, &[(0.0, 2.0, 5), (1.0, 3.0, 3)]).is_err()); // overlap
        assert!(fit_intervals(Family::Weibull, &[(1.0, 1.0, 5), (1.0, 3.0, 3)]).is_err()); // empty bin
        assert!(fit_intervals(Family::Weibull, &[(f64::NAN, 1.0, 5), (1.0, 3.0, 3)]).is_err());
        assert!(fit_intervals(Family::Weibull, &[(-2.0, -1.0, 5), (1.0, 3.0, 3)]).is_err()); // outside support
        assert!(fit_intervals(Family::Normal, &[(-2.0, -1.0, 5), (1.0, 3.0, 3)]).is_ok());
        assert!(fit_intervals_truncated(Family::Weibull, &bins, 0.0, 1.5).is_err());
        assert!(fit_intervals_truncated(Family::Weibull, &bins, 2.0, 2.0).is_err());
        for family in Family::ALL {
            let f = fit_intervals(family, &bins).unwrap();
            assert!(f.ks.is_finite() && f.log_likelihood.is_finite());
        }
        assert!(fit_censored(Family::Normal, &[0.0, 0.0, 1.0], 0.0, 20.0).is_err()); // 1 exact value
        assert!(fit_censored(Family::Normal, &[1.0, 2.0], 3.0, 3.0).is_err());
        assert!(fit_workload(&Workload::default()).is_err());
    }

    #[test]
    fn notation_matches_table_3() {
        assert_eq!(notation(&Dist::Weibull { shape: 1.76, scale: 2.11 }), "W(1.76,2.11)");
        assert_eq!(notation(&Dist::Normal { mu: 2.73, sigma: 6.1 }), "N(2.73,6.10)");
        assert_eq!(notation(&Dist::LogNormal { mu: 1.82, sigma: 0.34 }), "LN(1.82,0.34)");
        assert_eq!(notation(&Dist::Gamma { shape: 2.62, scale: 0.13 }), "G(2.62,0.13)");
        assert_eq!(notation(&Dist::Exponential { mean: 3.0 }), "Exp(3.00)");
        assert_eq!(notation(&Dist::HyperExponential { p: 0.4, mean1: 1.0, mean2: 9.0 }), "HExp(0.40,1.00,9.00)");
    }

    /// A workload made the way the generator makes one from the Avg row of [Iosup08] Table 3 (users Z(1.31, 368), IAT
    /// W(4.25, 7.86), cycle W(1.79, 24.16), size W(1.76, 2.11), ART N(2.73, 6.10) clamped to [1, 2^20] s, RTV
    /// W(2.05, 12.25), all but users and cycle in log2), with every task's runtime equal to the ART.
    fn avg_workload(bots: usize, seed: u64) -> Workload {
        let cycle = Dist::Weibull { shape: 1.79, scale: 24.16 };
        let p: Vec<f64> = (0..48).map(|s| cycle.cdf(s as f64 + 1.0) - cycle.cdf(s as f64)).collect();
        let p_peak = PEAK_SLOTS.map(|s| p[s]).sum::<f64>() / 18.0;
        let (iat, size) = (Dist::Weibull { shape: 4.25, scale: 7.86 }, Dist::Weibull { shape: 1.76, scale: 2.11 });
        let (art, rtv) = (Dist::Normal { mu: 2.73, sigma: 6.10 }, Dist::Weibull { shape: 2.05, scale: 12.25 });
        let users = zipf_counts(1.31, 368, bots, seed);
        let mut user_of: Vec<u32> =
            users.iter().enumerate().flat_map(|(u, &c)| std::iter::repeat_n(u as u32, c as usize)).collect();
        let mut r = Rng::new(seed + 1);
        for i in (1..user_of.len()).rev() {
            user_of.swap(i, r.below(i as u64 + 1) as usize);
        }
        let mut w = Workload { users: 368, ..Workload::default() };
        let mut t = 0.0;
        for &user in &user_of {
            t += libm::exp2(iat.sample(&mut r)) * p_peak / p[slot_of(t)].max(0.01 * p_peak);
            let n = libm::exp2(size.sample(&mut r)).round().max(1.0) as u32;
            let a = libm::exp2(art.sample(&mut r)).clamp(1.0, 1_048_576.0);
            let first_task = w.runtimes.len() as u32;
            w.runtimes.extend(std::iter::repeat_n(a, n as usize));
            w.bots.push(Bot {
                arrival: t,
                user,
                first_task,
                size: n,
                art: a,
                rtv: libm::exp2(rtv.sample(&mut r)),
                home: None,
            });
        }
        w
    }

    #[test]
    fn fit_workload_inverts_the_generator() {
        let w = avg_workload(20_000, 71);
        let m = fit_workload(&w).unwrap();
        assert_eq!(m.bots, 20_000);
        // Same sizes as the single-characteristic tests, so similar tolerances; the daily cycle and the IAT are
        // looser. The generator stretches IATs by slot rather than drawing slots, so the slot histogram follows
        // the cycle only approximately: over 6 seeds the cycle came out W(1.84–1.90, 24.5–25.2), a systematic bias
        // of ≈ (+0.08, +0.6) on top of the standard deviations (0.013, 0.13); tolerances cover bias + 4 sd. The IAT
        // is de-seasonalised with that fitted cycle (measured shapes 4.26–4.30).
        close("users α", m.users.alpha, 1.31, 0.02);
        assert!(m.users.n <= 368 && m.users.n > 330, "{}", m.users.n);
        for (what, fit, want, tol_a, tol_b) in [
            ("size", &m.size, (1.76, 2.11), 0.04, 0.04),
            ("ART", &m.art, (2.73, 6.10), 0.21, 0.15),
            ("RTV", &m.rtv, (2.05, 12.25), 0.05, 0.2),
            ("IAT", &m.iat, (4.25, 7.86), 0.25, 0.1),
            ("daily cycle", &m.daily_cycle, (1.79, 24.16), 0.2, 1.5),
        ] {
            let (a, b) = params(&fit.dist);
            close(&format!("{what} {}", notation(&fit.dist)), a, want.0, tol_a);
            close(&format!("{what} {}", notation(&fit.dist)), b, want.1, tol_b);
        }
        assert_eq!(Family::of(&m.art.dist), Some(Family::Normal));
        assert_eq!(Family::of(&m.rtv.dist), Some(Family::Weibull));

        // Only the counts per user matter, not the ids (sparse, huge ids cost nothing).
        let mut sparse = w.clone();
        for b in &mut sparse.bots {
            b.user = u32::MAX - 10_000_000 * b.user;
        }
        assert_eq!(fit_workload(&sparse).unwrap().users, m.users);

        // Traces carry no ART/RTV: they come from the runtimes instead.
        let mut t = w.clone();
        for (i, b) in t.bots.iter_mut().enumerate() {
            b.art = f64::NAN;
            b.rtv = f64::NAN;
            let first = b.first_task as usize;
            if b.size >= 2 {
                t.runtimes[first] += 1.0; // variance 1/size − 1/size² · … > 0, mean shifted by 1/size
                t.runtimes[first + 1] += (i % 3) as f64;
            }
        }
        let mt = fit_workload(&t).unwrap();
        assert!(mt.art.dist.validate().is_ok() && mt.rtv.dist.validate().is_ok());
        assert_eq!((mt.users.clone(), mt.size.clone(), mt.daily_cycle.clone()), (m.users, m.size, m.daily_cycle));
    }
}
