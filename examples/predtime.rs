use bagsim::policy::predictor::{evaluate, PredictorInput, PredictorModel};
use bagsim::scenario::Scenario;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let s = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let p = bagsim::run::prepare(&s).unwrap();
    let w = &p.generated.workload;
    for model in PredictorModel::ALL {
        for input in [PredictorInput::Batch, PredictorInput::User] {
            let bots = (0..w.bots.len()).map(|b| (w.bots[b].user, w.bot_runtimes(b)));
            let t = Instant::now();
            let r = evaluate(bots, w.users as usize, model, input);
            println!("{model:?} {input:?}: {:.3} s ({})", t.elapsed().as_secs_f64(), r.predictions);
        }
    }
}
