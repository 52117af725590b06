//! The platform of [Anglano09] §IV-A.1: machines of computing power P_i added until ΣP_i reaches the total power
//! P (1 000): all of power 10 (Homogeneous) or powers drawn from U[2.3, 17.7] (Heterogeneous).

use super::availability::{group_of, GroupLaw};
use super::config::{DgConfig, Heterogeneity};
use crate::engine::Rng;
use serde::{Deserialize, Serialize};

/// One machine of the desktop grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Computing power P_i: a task of work w (seconds on a machine of power 1) runs w / P_i seconds.
    pub power: f64,
    /// Machine group of Table II, 0-based.
    pub group: u32,
}

/// Machines and the failure law of each (None: never fails).
#[derive(Clone, Debug, PartialEq)]
pub struct Platform {
    pub machines: Vec<Machine>,
    /// The law of each group; empty when machines never fail.
    pub groups: Vec<GroupLaw>,
}

impl Platform {
    /// Builds the platform of a configuration. Heterogeneous powers come from the stream `dg-machines` of `seed`,
    /// which nothing else reads: the platform does not change with the workload, the policy or the failures.
    pub fn build(cfg: &DgConfig, seed: u64) -> Platform {
        let mut powers = Vec::new();
        let mut sum = 0.0;
        match cfg.heterogeneity {
            Heterogeneity::Homogeneous => {
                // Integer count so that 1 000 / 10 gives exactly 100 machines.
                let n = libm::ceil(cfg.total_power / cfg.power - 1e-9).max(1.0) as usize;
                powers.resize(n, cfg.power);
            }
            Heterogeneity::Heterogeneous => {
                let mut rng = Rng::stream(seed, "dg-machines");
                let [lo, hi] = cfg.power_range;
                // Machines are added while the total is short of P; the last one may pass it (docs/desktop_grid.md).
                while sum < cfg.total_power {
                    let p = lo + (hi - lo) * rng.uniform();
                    powers.push(p);
                    sum += p;
                }
            }
        }
        let groups = cfg.group_laws();
        let n_groups = groups.len().max(1);
        let machines = powers
            .into_iter()
            .enumerate()
            .map(|(i, power)| Machine { power, group: group_of(i, n_groups) as u32 })
            .collect();
        Platform { machines, groups }
    }

    /// The availability A_i of machine i (1 when machines never fail).
    pub fn availability(&self, i: usize) -> f64 {
        self.groups.get(self.machines[i].group as usize).map_or(1.0, GroupLaw::availability)
    }

    /// ΣP_i.
    pub fn total_power(&self) -> f64 {
        self.machines.iter().map(|m| m.power).sum()
    }

    /// ΣEP_i = Σ P_i · A_i ([Anglano09] Eq. 9).
    pub fn effective_power(&self) -> f64 {
        (0..self.machines.len()).map(|i| self.machines[i].power * self.availability(i)).sum()
    }

    /// Average machine availability Ā ([Anglano09] Eq. 2).
    pub fn mean_availability(&self) -> f64 {
        (0..self.machines.len()).map(|i| self.availability(i)).sum::<f64>() / self.machines.len() as f64
    }
}
