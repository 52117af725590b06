use bagsim::workload::generate::{generate, ArrivalPattern, GenerateSpec};
use bagsim::workload::model::Preset;
fn main() {
    let model = Preset::T6.model();
    for load in [0.45, 0.48, 0.5, 0.52, 0.55] {
        let sp = GenerateSpec {
            model: &model,
            load: Some(load),
            capacity: 52.0,
            submission_period: 30.0 * 86400.0,
            pattern: ArrivalPattern::Realistic,
            median_size: None,
            mean_runtime: None,
            max_size: 5000,
            seed: 2,
        };
        let g = generate(&sp).unwrap();
        println!(
            "{load}: achieved {} f {} bots {} tasks {}",
            g.achieved_load,
            g.iat_scale,
            g.workload.bots.len(),
            g.workload.tasks()
        );
        let mut big: Vec<f64> =
            (0..g.workload.bots.len()).map(|b| g.workload.bot_runtimes(b).iter().sum::<f64>()).collect();
        big.sort_by(|a, b| b.total_cmp(a));
        println!("  top BoT work {:?} of total {}", &big[..3], g.workload.total_work());
    }
}
