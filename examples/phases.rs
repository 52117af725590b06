//! Wall time of each phase of a run (generation, simulation, metrics, predictor accuracy) for a scenario file.
//! `cargo run --release --example phases -- scenario.json`
use bagsim::engine::Model;
use bagsim::scenario::Scenario;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("a scenario file");
    let s = Scenario::from_json(&std::fs::read_to_string(&path).expect("readable")).expect("valid");
    let s = s.as_multi_cluster().expect("a multi-cluster scenario").clone();
    for _ in 0..3 {
        let t = Instant::now();
        let p = bagsim::run::prepare(&s).expect("prepares");
        let gen = t.elapsed().as_secs_f64();
        let (mut sim, _) = bagsim::run::simulation(&s, p);
        let t = Instant::now();
        sim.run();
        let run = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let m = bagsim::family::multi_cluster::metrics::compute(&sim.outcome());
        let metrics = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let w = sim.workload();
        let bots = (0..w.bots.len()).map(|b| (w.bots[b].user, w.bot_runtimes(b)));
        let pr = bagsim::family::multi_cluster::policy::predictor::evaluate_all(bots, w.users as usize);
        let pred = t.elapsed().as_secs_f64();
        println!(
            "generate {gen:.3} s, simulate {run:.3} s, metrics {metrics:.3} s, predictors {pred:.3} s ({} tasks, {} \
             rows)",
            m.tasks.tasks,
            pr.len()
        );
    }
}
