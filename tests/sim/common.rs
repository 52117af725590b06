//! Builders for hand-made platforms and workloads.

use bagsim::engine::Model;
use bagsim::family::multi_cluster::architecture::Architecture;
use bagsim::family::multi_cluster::platform::Cluster;
use bagsim::family::multi_cluster::policy::predictor::{PredictorInput, PredictorModel};
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy;
use bagsim::family::multi_cluster::sim::{SimConfig, Simulation};
use bagsim::workload::Workload;

/// A workload from (arrival, user, task runtimes) per BoT, in arrival order.
pub fn workload(bots: &[(f64, u32, &[f64])]) -> Workload {
    Workload::from_bots(bots)
}

/// Clusters from (processors, speed).
pub fn clusters(spec: &[(u32, f64)]) -> Vec<Cluster> {
    spec.iter()
        .enumerate()
        .map(|(i, &(processors, speed))| Cluster { name: format!("c{i}"), processors, speed })
        .collect()
}

pub fn config(architecture: Architecture, selection: SelectionPolicy, scheduling: SchedulingPolicy) -> SimConfig {
    SimConfig {
        architecture,
        monitoring_period: 0.0,
        eligible_set: Default::default(),
        fcondor_move: Default::default(),
        site_policy: Default::default(),
        selection,
        scheduling,
        policy_options: Default::default(),
        predictor: PredictorModel::LastValue,
        predictor_input: PredictorInput::Batch,
        inaccuracy: 0.0,
        inaccuracy_on: bagsim::family::multi_cluster::sim::InaccuracyOn::Estimate,
        scheduling_period: 60.0,
        horizon: 1e9,
        sample_interval: 1e6,
        seed: 1,
    }
}

/// Runs to the end and returns every task's completion time.
pub fn ends(cfg: SimConfig, cl: &[(u32, f64)], bots: &[(f64, u32, &[f64])]) -> (Vec<f64>, Simulation) {
    let w = workload(bots);
    let n = w.tasks();
    let mut sim = Simulation::new(cfg, clusters(cl), w);
    sim.run();
    sim.check_invariants().unwrap();
    ((0..n).map(|t| sim.task_end(t)).collect(), sim)
}
