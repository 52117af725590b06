//! The law of a task's runtime within a BoT, given the BoT's ART and RTV: a reading, since [Iosup08] §3.5 defines
//! the two moments and no law (docs/model.md, "Within a BoT: the law of a task's runtime").

use super::dist::Dist;
use serde::{Deserialize, Serialize};

/// The law of a task's runtime with mean ART and variance RTV, before the 1 s floor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskRuntimeLaw {
    /// ln X normal with σ² = ln(1 + RTV/ART²), μ = ln ART − σ²/2: the default, after §3's log2 fits.
    #[default]
    Lognormal,
    /// Shape ART²/RTV, scale RTV/ART: the law of every earlier version.
    Gamma,
    /// N(ART, RTV); the 1 s floor catches the draws below it.
    Normal,
}

impl TaskRuntimeLaw {
    pub const ALL: [TaskRuntimeLaw; 3] = [TaskRuntimeLaw::Lognormal, TaskRuntimeLaw::Gamma, TaskRuntimeLaw::Normal];

    pub fn name(self) -> &'static str {
        match self {
            TaskRuntimeLaw::Lognormal => "lognormal",
            TaskRuntimeLaw::Gamma => "gamma",
            TaskRuntimeLaw::Normal => "normal",
        }
    }

    /// The law with mean `art` and variance `rtv`, seconds and s² (`art` ≥ 1, `rtv` > 0 and finite).
    pub fn dist(self, art: f64, rtv: f64) -> Dist {
        match self {
            TaskRuntimeLaw::Lognormal => {
                let s2 = libm::log1p(rtv / (art * art));
                Dist::LogNormal { mu: libm::log(art) - 0.5 * s2, sigma: libm::sqrt(s2) }
            }
            TaskRuntimeLaw::Gamma => Dist::Gamma { shape: art * art / rtv, scale: rtv / art },
            TaskRuntimeLaw::Normal => Dist::Normal { mu: art, sigma: libm::sqrt(rtv) },
        }
    }

    /// The share of a BoT's tasks the 1 s floor sets to exactly 1 s: P(X < 1).
    pub fn floored_share(self, art: f64, rtv: f64) -> f64 {
        self.dist(art, rtv).cdf(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rng;

    /// Mean and variance of `n` draws of a law, by Welford's update.
    fn moments(d: &Dist, n: usize, seed: u64) -> (f64, f64) {
        let mut rng = Rng::stream(seed, "task_law_test");
        let (mut mean, mut m2) = (0.0, 0.0);
        for i in 1..=n {
            let x = d.sample(&mut rng);
            let delta = x - mean;
            mean += delta / i as f64;
            m2 += delta * (x - mean);
        }
        (mean, m2 / (n - 1) as f64)
    }

    #[test]
    fn every_law_has_mean_art_and_variance_rtv() {
        // ART 100 s, RTV 400 s² (sd 20 s, CV 0.2): light enough that 200 000 draws pin both moments. The standard
        // error of the mean is 20/√200 000 = 0.045 s; of the variance about 400·√(2/200 000)·(1 + kurtosis term)
        // < 4 s²; we allow 0.5 s and 20 s² (over ten standard errors), and no law draws below 1 s here.
        for law in TaskRuntimeLaw::ALL {
            let d = law.dist(100.0, 400.0);
            // Exact moments first, from the parameters (a closed form each).
            let (m, v) = match d {
                Dist::LogNormal { mu, sigma } => {
                    let s2 = sigma * sigma;
                    (libm::exp(mu + s2 / 2.0), (libm::exp(s2) - 1.0) * libm::exp(2.0 * mu + s2))
                }
                Dist::Gamma { shape, scale } => (shape * scale, shape * scale * scale),
                Dist::Normal { mu, sigma } => (mu, sigma * sigma),
                other => panic!("{other:?}"),
            };
            assert!((m - 100.0).abs() < 1e-9 && (v - 400.0).abs() < 1e-7, "{law:?}: exact {m} {v}");
            let (mean, var) = moments(&d, 200_000, 7);
            assert!((mean - 100.0).abs() < 0.5, "{law:?}: mean {mean}");
            assert!((var - 400.0).abs() < 20.0, "{law:?}: variance {var}");
        }
    }

    #[test]
    fn lognormal_parameters_by_hand() {
        // ART 10, RTV 300: RTV/ART² = 3, σ² = ln 4, σ = √(ln 4) = 1.17741, μ = ln 10 − ln 2 = ln 5 = 1.60944.
        match TaskRuntimeLaw::Lognormal.dist(10.0, 300.0) {
            Dist::LogNormal { mu, sigma } => {
                assert!((mu - 5f64.ln()).abs() < 1e-12, "{mu}");
                assert!((sigma - 4f64.ln().sqrt()).abs() < 1e-12, "{sigma}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn floored_share_is_p_below_one_second() {
        // Gamma of shape 1 (ART² = RTV): an exponential of mean ART, so P(X < 1) = 1 − e^(−1/ART).
        // ART 4 s, RTV 16 s²: 1 − e^(−0.25) = 0.221199.
        let p = TaskRuntimeLaw::Gamma.floored_share(4.0, 16.0);
        assert!((p - (1.0 - (-0.25f64).exp())).abs() < 1e-9, "{p}");
        // Normal N(2, 1): P(X < 1) = Φ(−1) = 0.158655.
        let p = TaskRuntimeLaw::Normal.floored_share(2.0, 1.0);
        assert!((p - 0.158_655_253_931_457).abs() < 1e-6, "{p}");
        // Lognormal with μ = ln 5, σ² = ln 4 (above): P(X < 1) = Φ(−ln 5 / √ln 4) = Φ(−1.36693) = 0.085823.
        let p = TaskRuntimeLaw::Lognormal.floored_share(10.0, 300.0);
        assert!((p - 0.085_823).abs() < 1e-5, "{p}");
    }

    #[test]
    fn the_gamma_share_at_one_second_is_drawn_as_its_closed_form() {
        // The median BoT of the Avg row under the default calibration (ART 2^2.73 min, RTV 2^10.24 min²): a gamma of
        // shape 0.036, whose closed-form P(X < 1 s) is about 0.73; 100 000 draws estimate it within 4 standard
        // errors (√(0.73·0.27/100 000) = 0.0014).
        let (art, rtv) = (60.0 * 2f64.powf(2.73), 3600.0 * 2f64.powf(10.24));
        let law = TaskRuntimeLaw::Gamma;
        let p = law.floored_share(art, rtv);
        assert!((0.70..0.76).contains(&p), "{p}");
        let d = law.dist(art, rtv);
        let mut rng = Rng::stream(11, "task_law_test");
        let n = 100_000;
        let below = (0..n).filter(|_| d.sample(&mut rng) < 1.0).count() as f64 / n as f64;
        assert!((below - p).abs() < 4.0 * (p * (1.0 - p) / n as f64).sqrt(), "drawn {below} vs P(X<1) {p}");
    }
}
