//! The BoT generator of [Minh10] Algorithm 1: over a job arrival stream, a job joins the BoT of the job before it
//! when it comes within Δ and the BoT has not reached its Zipf-drawn size, and then repeats that job's runtime; else
//! it starts a new BoT with a new size and a runtime from a mixture of Gaussians (docs/workload-models.md).

use super::dist::Dist;
use super::generate::MAX_TASKS;
use super::generator_check::check;
use super::model::UserModel;
use super::types::{Bot, Workload};
use super::types::{DEFAULT_DELTA, MAX_DELTA};
use super::GenerateError;
use crate::engine::Rng;
use crate::error::{ErrorKind, ScenarioError};
use serde::{Deserialize, Serialize};

/// Z(α, n): P(size = s) ∝ s^(−α), s = 1..n ([Minh10] §VI-C).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZipfSize {
    pub alpha: f64,
    pub n: u32,
}

impl ZipfSize {
    /// P(size ≤ s) for s = 1..n (the last is 1).
    pub fn cdf_table(&self) -> Vec<f64> {
        let weights: Vec<f64> = (1..=self.n).map(|s| libm::pow(f64::from(s), -self.alpha)).collect();
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = weights
            .iter()
            .map(|w| {
                acc += w / total;
                acc
            })
            .collect();
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        cdf
    }
}

/// One component of the runtime mixture: with probability ∝ `weight`, log2(runtime in s) ~ N(mu, sigma).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gaussian {
    pub weight: f64,
    pub mu: f64,
    pub sigma: f64,
}

/// The parameters of Algorithm 1 as bagsim uses it (sequential tasks: no parallelism labels).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MinhWolters {
    /// Δ, seconds: a job within Δ of the job before it may join that job's BoT ([Minh10] §IV: 100 s).
    pub delta: f64,
    /// Gap between successive job arrivals, seconds (negative draws count as 0). Default: Poisson arrivals with
    /// HPC2N's mean inter-arrival time, 542 s ([Minh10] §VII-B).
    pub iat: Dist,
    /// The Zipf law of BoT sizes. Default fitted to the HPC2N excerpt (docs/workload-models.md).
    pub bot_size: ZipfSize,
    /// Mixture of Gaussians of log2(runtime in s). Default fitted to the HPC2N excerpt.
    pub runtime: Vec<Gaussian>,
    /// The submitting user of each BoT, Zipf over ranks (Algorithm 1 has no users; default one user).
    pub users: UserModel,
}

/// HPC2N's mean job inter-arrival time, seconds ([Minh10] §VII-B).
pub const HPC2N_MEAN_IAT: f64 = 542.0;

impl Default for MinhWolters {
    fn default() -> Self {
        MinhWolters {
            delta: DEFAULT_DELTA,
            iat: Dist::Exponential { mean: HPC2N_MEAN_IAT },
            bot_size: ZipfSize { alpha: 3.01, n: 5000 },
            runtime: vec![
                Gaussian { weight: 0.2162, mu: 4.280, sigma: 2.429 },
                Gaussian { weight: 0.7838, mu: 11.396, sigma: 2.826 },
            ],
            users: UserModel { alpha: 1.0, n: 1 },
        }
    }
}

/// One job of the stream Algorithm 1 produces.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// Arrival time, seconds in the model's clock.
    pub arrival: f64,
    /// Runtime, seconds (≥ 1).
    pub runtime: f64,
    /// Index of its BoT.
    pub bot: u32,
}

/// The jobs, and per BoT the size drawn from the Zipf law (its realised size can be smaller) and its user.
#[derive(Clone, Debug, PartialEq)]
pub struct JobStream {
    pub jobs: Vec<Job>,
    pub drawn_sizes: Vec<u32>,
    pub users: Vec<u32>,
}

/// Draws from a cumulative table: the index of the first entry above a uniform.
fn draw(cdf: &[f64], rng: &mut Rng) -> usize {
    let u = rng.uniform();
    cdf.partition_point(|&c| c <= u).min(cdf.len() - 1)
}

impl MinhWolters {
    /// Checks every parameter; the field is relative to `workload.generator.minh_wolters`.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        check("delta", self.delta, 0.0, MAX_DELTA, " s")?;
        self.iat.validate().map_err(|e| e.under("iat"))?;
        let mean = self.iat.mean();
        if !(mean.is_finite() && mean > 0.0) {
            return Err(ScenarioError::out_of_range("iat", format!("mean {mean}: must be a finite number > 0 s")));
        }
        check("bot_size.alpha", self.bot_size.alpha, 0.0, 10.0, "")?;
        if !(1..=1_000_000).contains(&self.bot_size.n) {
            return Err(ScenarioError::out_of_range(
                "bot_size.n",
                format!("{} is out of range; allowed 1–1000000", self.bot_size.n),
            ));
        }
        if self.runtime.is_empty() || self.runtime.len() > 20 {
            return Err(ScenarioError::out_of_range(
                "runtime",
                format!("{} components; allowed 1–20", self.runtime.len()),
            ));
        }
        for (k, g) in self.runtime.iter().enumerate() {
            check(&format!("runtime[{k}].weight"), g.weight, 0.0, 1e9, "")?;
            check(&format!("runtime[{k}].mu"), g.mu, -10.0, 40.0, " (log2 s)")?;
            check(&format!("runtime[{k}].sigma"), g.sigma, 0.0, 20.0, " (log2 s)")?;
        }
        if self.runtime.iter().all(|g| g.weight == 0.0) {
            return Err(ScenarioError::new(
                ErrorKind::Inconsistent,
                "runtime",
                "every weight is 0; at least one must be > 0",
            ));
        }
        check("users.alpha", self.users.alpha, 0.0, 10.0, "")?;
        if !(1..=1_000_000).contains(&self.users.n) {
            return Err(ScenarioError::out_of_range(
                "users.n",
                format!("{} is out of range; allowed 1–1000000", self.users.n),
            ));
        }
        Ok(())
    }

    /// Algorithm 1 over the jobs whose BoT starts before `until` (the last BoT is completed, so a longer `until`
    /// gives the same jobs first). Streams: `arrivals` (gaps), `sizes` (Zipf), `runtimes` (component, then value),
    /// `users`.
    pub fn jobs(&self, seed: u64, until: f64) -> Result<JobStream, GenerateError> {
        let mut arrivals = Rng::stream(seed, "arrivals");
        let mut sizes = Rng::stream(seed, "sizes");
        let mut runtimes = Rng::stream(seed, "runtimes");
        let mut users = Rng::stream(seed, "users");
        let size_cdf = self.bot_size.cdf_table();
        let user_cdf = ZipfSize { alpha: self.users.alpha, n: self.users.n }.cdf_table();
        let total: f64 = self.runtime.iter().map(|g| g.weight).sum();
        let mut acc = 0.0;
        let mut mix_cdf: Vec<f64> = self
            .runtime
            .iter()
            .map(|g| {
                acc += g.weight / total;
                acc
            })
            .collect();
        *mix_cdf.last_mut().expect("validated: at least one component") = 1.0;
        // RandomlyGenerate of Algorithm 1, without the parallelism label: a component by its probability, then a
        // value of its Gaussian (log2 s).
        let random_runtime = |rng: &mut Rng| {
            let g = &self.runtime[draw(&mix_cdf, rng)];
            let x = Dist::Normal { mu: g.mu, sigma: g.sigma }.sample(rng);
            libm::exp2(x).max(1.0)
        };
        let mut out = JobStream { jobs: Vec::new(), drawn_sizes: Vec::new(), users: Vec::new() };
        let (mut t, mut in_bot, mut bot_size) = (0.0f64, 0u32, 0u32);
        loop {
            let gap = self.iat.sample(&mut arrivals);
            let next = t + if gap > 0.0 { gap } else { 0.0 };
            let prev = out.jobs.last().map(|p| (p.arrival, p.runtime, p.bot));
            if let Some((_, runtime, bot)) = prev.filter(|p| next - p.0 <= self.delta && in_bot < bot_size) {
                out.jobs.push(Job { arrival: next, runtime, bot });
                in_bot += 1;
            } else {
                if next >= until {
                    break;
                }
                in_bot = 1;
                bot_size = draw(&size_cdf, &mut sizes) as u32 + 1;
                let bot = out.drawn_sizes.len() as u32;
                out.drawn_sizes.push(bot_size);
                out.users.push(if self.users.n > 1 { draw(&user_cdf, &mut users) as u32 } else { 0 });
                out.jobs.push(Job { arrival: next, runtime: random_runtime(&mut runtimes), bot });
            }
            t = next;
            if out.jobs.len() > MAX_TASKS {
                return Err(GenerateError::TooLarge(format!(
                    "more than {MAX_TASKS} jobs would arrive; the inter-arrival times are too short for this period"
                )));
            }
        }
        Ok(out)
    }

    /// The BoTs of [`MinhWolters::jobs`] as a bagsim workload in the model's clock: a BoT arrives at its first
    /// job's arrival with one task per job, each of the BoT's runtime.
    pub fn workload(&self, seed: u64, until: f64) -> Result<Workload, GenerateError> {
        let s = self.jobs(seed, until)?;
        let mut bots: Vec<Bot> = Vec::with_capacity(s.drawn_sizes.len());
        for (k, j) in s.jobs.iter().enumerate() {
            let started = bots.len();
            match bots.last_mut() {
                Some(b) if (j.bot as usize) < started => b.size += 1,
                _ => bots.push(Bot {
                    arrival: j.arrival,
                    user: s.users[j.bot as usize],
                    first_task: k as u32,
                    size: 1,
                    art: j.runtime,
                    rtv: 0.0,
                    home: None,
                }),
            }
        }
        Ok(Workload {
            bots,
            runtimes: s.jobs.iter().map(|j| j.runtime).collect(),
            users: self.users.n,
            ..Workload::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipf_table_is_the_normalised_power_law() {
        let cdf = ZipfSize { alpha: 2.0, n: 3 }.cdf_table();
        let h = 1.0 + 0.25 + 1.0 / 9.0;
        assert!((cdf[0] - 1.0 / h).abs() < 1e-15);
        assert!((cdf[1] - 1.25 / h).abs() < 1e-15);
        assert_eq!(cdf[2], 1.0);
    }

    #[test]
    fn jobs_follow_algorithm_1_step_by_step() {
        let g = MinhWolters::default();
        let s = g.jobs(4, 5e6).unwrap();
        assert!(s.jobs.len() > 5000);
        let mut in_bot = 1;
        for w in s.jobs.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let joins = b.arrival - a.arrival <= g.delta && in_bot < s.drawn_sizes[a.bot as usize];
            if joins {
                assert_eq!((b.bot, b.runtime), (a.bot, a.runtime));
                in_bot += 1;
            } else {
                assert_eq!(b.bot, a.bot + 1);
                in_bot = 1;
            }
        }
    }

    #[test]
    fn a_longer_clock_gives_the_same_bots_first() {
        let g = MinhWolters { users: UserModel { alpha: 1.0, n: 5 }, ..MinhWolters::default() };
        let short = g.workload(8, 1e6).unwrap();
        let long = g.workload(8, 3e6).unwrap();
        assert!(short.bots.len() > 100 && long.bots.len() > short.bots.len());
        assert_eq!(short.bots[..], long.bots[..short.bots.len()]);
        assert_eq!(short.runtimes[..], long.runtimes[..short.runtimes.len()]);
        assert!(short.bots.iter().all(|b| b.arrival < 1e6));
    }

    #[test]
    fn validation_names_the_field() {
        let mut g = MinhWolters::default();
        g.runtime[1].sigma = -1.0;
        assert_eq!(g.validate().unwrap_err().field, "runtime[1].sigma");
        let g = MinhWolters { iat: Dist::Normal { mu: -5.0, sigma: 1.0 }, ..MinhWolters::default() };
        assert_eq!(g.validate().unwrap_err().field, "iat");
        let mut g = MinhWolters::default();
        g.bot_size.n = 0;
        let e = g.validate().unwrap_err();
        assert_eq!(e.field, "bot_size.n");
        assert!(e.message.contains("1–1000000"));
        let g = MinhWolters { delta: 1e6, ..MinhWolters::default() };
        assert!(g.validate().unwrap_err().message.contains("0–86400"));
        MinhWolters::default().validate().unwrap();
    }
}
