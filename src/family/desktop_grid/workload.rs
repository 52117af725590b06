//! The workloads of [Anglano09] §IV-B: task classes and mixes (Table III), task times by Eq. 4, BoTs filled up to
//! the application size AS, exponential BoT inter-arrivals with λ = L / C, C = AS / ΣEP_i (Eq. 6–9).

use crate::engine::Rng;
use crate::workload::{Bot, Workload};
use serde::{Deserialize, Serialize};

/// Granularities X of the task classes Very Small, Small, Medium, Large, s on a machine of power 1.
pub const CLASS_GRANULARITY: [f64; 4] = [1_000.0, 5_000.0, 25_000.0, 125_000.0];

/// A task mix of Table III.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mix {
    AllVs,
    AllS,
    AllM,
    AllL,
    Uniform,
    Short,
    Med,
    Long,
}

impl Mix {
    pub const ALL: [Mix; 8] =
        [Mix::AllVs, Mix::AllS, Mix::AllM, Mix::AllL, Mix::Uniform, Mix::Short, Mix::Med, Mix::Long];

    pub fn name(self) -> &'static str {
        match self {
            Mix::AllVs => "all_vs",
            Mix::AllS => "all_s",
            Mix::AllM => "all_m",
            Mix::AllL => "all_l",
            Mix::Uniform => "uniform",
            Mix::Short => "short",
            Mix::Med => "med",
            Mix::Long => "long",
        }
    }

    /// The paper's label (All_VS, …).
    pub fn label(self) -> &'static str {
        match self {
            Mix::AllVs => "All_VS",
            Mix::AllS => "All_S",
            Mix::AllM => "All_M",
            Mix::AllL => "All_L",
            Mix::Uniform => "Uniform",
            Mix::Short => "Short",
            Mix::Med => "Med",
            Mix::Long => "Long",
        }
    }

    /// P_VS, P_S, P_M, P_L as printed in Table III, percent. The multiple-class rows other than Uniform add up to
    /// 98.9%; the draw normalises them (docs/desktop_grid.md).
    pub fn shares(self) -> [f64; 4] {
        match self {
            Mix::AllVs => [100.0, 0.0, 0.0, 0.0],
            Mix::AllS => [0.0, 100.0, 0.0, 0.0],
            Mix::AllM => [0.0, 0.0, 100.0, 0.0],
            Mix::AllL => [0.0, 0.0, 0.0, 100.0],
            Mix::Uniform => [25.0, 25.0, 25.0, 25.0],
            Mix::Short => [50.0, 16.3, 16.3, 16.3],
            Mix::Med => [16.3, 16.3, 50.0, 16.3],
            Mix::Long => [16.3, 16.3, 16.3, 50.0],
        }
    }

    /// One task's work by Eq. 4: a class by the mix's shares, then U[X/2, 3X/2]; s on a machine of power 1.
    pub fn task_work(self, rng: &mut Rng) -> f64 {
        let shares = self.shares();
        let total: f64 = shares.iter().sum();
        let single = shares.iter().position(|&s| s == total);
        let class = match single {
            Some(c) => c, // a single-class mix draws no class, so its task times use one uniform each
            None => {
                let u = rng.uniform() * total;
                let mut acc = 0.0;
                let mut c = 3;
                for (i, s) in shares.iter().enumerate() {
                    acc += s;
                    if u < acc {
                        c = i;
                        break;
                    }
                }
                c
            }
        };
        let x = CLASS_GRANULARITY[class];
        x * (0.5 + rng.uniform())
    }
}

/// ΣEP_i, C and λ of a configuration and load ([Anglano09] Eq. 6–9, Table IV).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadFigures {
    /// ΣEP_i = Σ P_i · A_i, power units.
    pub effective_power: f64,
    /// CPU occupancy time C = AS / ΣEP_i, s.
    pub occupancy: f64,
    /// BoT arrival rate λ = L / C, BoTs per second.
    pub bot_rate: f64,
}

impl LoadFigures {
    pub fn of(effective_power: f64, application_size: f64, load: f64) -> LoadFigures {
        let occupancy = application_size / effective_power;
        LoadFigures { effective_power, occupancy, bot_rate: load / occupancy }
    }
}

/// `bots` BoTs of `mix`, each filled to `application_size`, arriving as a Poisson process of rate `rate` from t = 0.
/// Arrivals come from the stream `dg-arrivals`, task times from `dg-tasks`; neither is read by anything else.
pub fn generate(seed: u64, mix: Mix, application_size: f64, rate: f64, bots: u32) -> Workload {
    let mut arrivals = Rng::stream(seed, "dg-arrivals");
    let mut tasks = Rng::stream(seed, "dg-tasks");
    let mut w = Workload::default();
    let mut t = 0.0;
    for _ in 0..bots {
        t += -libm::log(arrivals.uniform_open0()) / rate;
        let first = w.runtimes.len();
        let mut sum = 0.0;
        // Tasks are drawn until their sum reaches AS; the last is cut to what is left, so that every BoT's work is
        // AS exactly, as Eq. 8 assumes (docs/desktop_grid.md).
        while sum < application_size {
            let x = mix.task_work(&mut tasks).min(application_size - sum);
            w.runtimes.push(x);
            sum += x;
        }
        let size = (w.runtimes.len() - first) as u32;
        w.bots.push(Bot {
            arrival: t,
            user: 0,
            first_task: first as u32,
            size,
            art: application_size / f64::from(size),
            rtv: f64::NAN,
            home: None,
        });
    }
    w.users = 1;
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bot_holds_the_application_size() {
        let w = generate(5, Mix::Long, 3_600_000.0, 1e-4, 20);
        for b in 0..w.bots.len() {
            let s: f64 = w.bot_runtimes(b).iter().sum();
            assert!((s - 3_600_000.0).abs() < 1e-6, "BoT {b}: {s}");
        }
        assert!(w.bots.windows(2).all(|p| p[0].arrival <= p[1].arrival));
    }

    #[test]
    fn task_times_stay_in_their_class_ranges() {
        let mut rng = Rng::new(9);
        for _ in 0..10_000 {
            let x = Mix::AllS.task_work(&mut rng);
            assert!((2_500.0..7_500.0).contains(&x));
        }
        let n = 100_000;
        let mean = (0..n).map(|_| Mix::Uniform.task_work(&mut rng)).sum::<f64>() / n as f64;
        let expected = CLASS_GRANULARITY.iter().sum::<f64>() / 4.0;
        assert!((mean / expected - 1.0).abs() < 0.02, "{mean} vs {expected}");
    }
}
