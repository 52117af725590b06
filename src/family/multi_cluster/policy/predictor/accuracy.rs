//! The average relative inaccuracy of each predictor on a workload ([Iosup08] Fig. 2).

use super::model::{PredictorInput, PredictorModel, PredictorState};
use serde::{Deserialize, Serialize};

/// The average relative inaccuracy of each model on a workload, as [Iosup08] Fig. 2 measures it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictorAccuracy {
    /// The model evaluated.
    pub model: PredictorModel,
    /// The input it was given.
    pub input: PredictorInput,
    /// Mean of |predicted − real| / real over the predicted tasks, as a fraction (6.0 = 600%); 0 if none.
    pub mean_relative_inaccuracy: f64,
    /// Largest relative inaccuracy of a single prediction; 0 if none.
    pub max_relative_inaccuracy: f64,
    /// The number of tasks predicted.
    pub predictions: u64,
}

#[derive(Default)]
struct Tally {
    sum: f64,
    max: f64,
    count: u64,
}

impl Tally {
    // A task with a non-positive runtime has no relative error: it still informs later predictions but is not
    // scored. A non-finite runtime is neither scored nor observed.
    fn step(&mut self, state: &mut PredictorState, real: f64) {
        if !real.is_finite() {
            return;
        }
        if real > 0.0 {
            if let Some(pred) = state.predict() {
                let err = (pred - real).abs() / real;
                self.sum += err;
                self.max = self.max.max(err);
                self.count += 1;
            }
        }
        state.observe(real);
    }

    fn finish(self, model: PredictorModel, input: PredictorInput) -> PredictorAccuracy {
        let mean = if self.count == 0 { 0.0 } else { self.sum / self.count as f64 };
        PredictorAccuracy {
            model,
            input,
            mean_relative_inaccuracy: mean,
            max_relative_inaccuracy: self.max,
            predictions: self.count,
        }
    }
}

// Batch: a fresh state per BoT, task i predicted from tasks 0..i−1 of its BoT (the first task is not scored).
// User: one state per user across BoTs, each task predicted from all earlier tasks of that user (the user's very
// first task is not scored). `users` sizes the per-user table; an id beyond it grows the table rather than panic.
/// Scores `model` with `input` on `bots`: (user id, the BoT's runtimes in submission order), in arrival order.
pub fn evaluate<'a>(
    bots: impl Iterator<Item = (u32, &'a [f64])> + Clone,
    users: usize,
    model: PredictorModel,
    input: PredictorInput,
) -> PredictorAccuracy {
    let mut tally = Tally::default();
    match input {
        PredictorInput::Batch => {
            for (_, runtimes) in bots {
                let mut state = PredictorState::new(model);
                for &real in runtimes {
                    tally.step(&mut state, real);
                }
            }
        }
        PredictorInput::User => {
            let mut states = vec![PredictorState::new(model); users];
            for (user, runtimes) in bots {
                let u = user as usize;
                if u >= states.len() {
                    states.resize(u + 1, PredictorState::new(model));
                }
                for &real in runtimes {
                    tally.step(&mut states[u], real);
                }
            }
        }
    }
    tally.finish(model, input)
}

/// `evaluate` for every model in `PredictorModel::ALL` order, each with Batch then User input (12 entries).
pub fn evaluate_all<'a>(bots: impl Iterator<Item = (u32, &'a [f64])> + Clone, users: usize) -> Vec<PredictorAccuracy> {
    let mut out = Vec::with_capacity(2 * PredictorModel::ALL.len());
    for model in PredictorModel::ALL {
        for input in [PredictorInput::Batch, PredictorInput::User] {
            out.push(evaluate(bots.clone(), users, model, input));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::multi_cluster::policy::predictor::testkit::close;

    // Users 0 and 1; BoTs in arrival order: u0 [10, 20], u1 [5, 5], u0 [40, 10], u1 [8].
    fn workload() -> Vec<(u32, Vec<f64>)> {
        vec![(0, vec![10.0, 20.0]), (1, vec![5.0, 5.0]), (0, vec![40.0, 10.0]), (1, vec![8.0])]
    }

    fn bots(w: &[(u32, Vec<f64>)]) -> impl Iterator<Item = (u32, &[f64])> + Clone {
        w.iter().map(|(u, r)| (*u, r.as_slice()))
    }

    #[test]
    fn evaluate_by_hand() {
        let w = workload();
        let check = |model, input, mean: f64, max: f64, count: u64| {
            let a = evaluate(bots(&w), 2, model, input);
            assert_eq!((a.model, a.input, a.predictions), (model, input, count), "{a:?}");
            assert!(close(a.mean_relative_inaccuracy, mean, 1e-12), "{a:?} vs mean {mean}");
            assert!(close(a.max_relative_inaccuracy, max, 1e-12), "{a:?} vs max {max}");
        };
        // LastValue, batch: [10,20]: 20 from 10 → 0.5; [5,5]: 0; [40,10]: 10 from 40 → 3; [8]: none.
        //   (0.5 + 0 + 3) / 3 = 7/6, max 3.
        check(PredictorModel::LastValue, PredictorInput::Batch, 7.0 / 6.0, 3.0, 3);
        // LastValue, user: u0 10,20,40,10 → 0.5, 0.5, 3; u1 5,5,8 → 0, 3/8.  (4 + 0.375) / 5 = 0.875.
        check(PredictorModel::LastValue, PredictorInput::User, 0.875, 3.0, 5);
        // Mean, batch: same as LastValue since each prediction follows a single observation.
        check(PredictorModel::Mean, PredictorInput::Batch, 7.0 / 6.0, 3.0, 3);
        // Mean, user: u0 20 from 10 → 0.5; 40 from 15 → 0.625; 10 from 70/3 → 4/3; u1 5 from 5 → 0; 8 from 5 → 0.375.
        //   (0.5 + 0.625 + 4/3 + 0 + 0.375) / 5 = (17/6) / 5 = 17/30.
        check(PredictorModel::Mean, PredictorInput::User, 17.0 / 30.0, 4.0 / 3.0, 5);
        // ExpSmooth, user: u0 F 10 → 15 → 27.5: 0.5, 25/40 = 0.625, 17.5/10 = 1.75; u1 0, 0.375.
        //   (0.5 + 0.625 + 1.75 + 0 + 0.375) / 5 = 3.25 / 5 = 0.65.
        check(PredictorModel::ExpSmooth, PredictorInput::User, 0.65, 1.75, 5);
    }

    #[test]
    fn evaluate_edge_cases() {
        let empty: Vec<(u32, Vec<f64>)> = vec![(0, vec![]), (1, vec![9.0])];
        for input in [PredictorInput::Batch, PredictorInput::User] {
            let a = evaluate(bots(&empty), 2, PredictorModel::Mean, input);
            assert_eq!((a.mean_relative_inaccuracy, a.max_relative_inaccuracy, a.predictions), (0.0, 0.0, 0));
        }
        // A user id beyond `users` grows the table: u3 [4], then u3 [2]: 2 from 4 → 1.0.
        let w: Vec<(u32, Vec<f64>)> = vec![(3, vec![4.0]), (3, vec![2.0])];
        let a = evaluate(bots(&w), 1, PredictorModel::LastValue, PredictorInput::User);
        assert_eq!((a.mean_relative_inaccuracy, a.predictions), (1.0, 1));
        // A zero runtime is observed but not scored: [4, 0, 2] → 0 skipped, 2 from LastValue 0 clamped to 1 → 0.5.
        let w: Vec<(u32, Vec<f64>)> = vec![(0, vec![4.0, 0.0, 2.0])];
        let a = evaluate(bots(&w), 1, PredictorModel::LastValue, PredictorInput::Batch);
        assert_eq!((a.mean_relative_inaccuracy, a.predictions), (0.5, 1));
    }

    #[test]
    fn evaluate_all_order() {
        let w = workload();
        let all = evaluate_all(bots(&w), 2);
        assert_eq!(all.len(), 12);
        for (i, a) in all.iter().enumerate() {
            let model = PredictorModel::ALL[i / 2];
            let input = if i % 2 == 0 { PredictorInput::Batch } else { PredictorInput::User };
            assert_eq!(*a, evaluate(bots(&w), 2, model, input));
        }
    }
}
