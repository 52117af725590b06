//! Task-runtime predictors of [Iosup08] Table 4 and their average relative inaccuracy on a workload ([Iosup08] Fig. 2).

mod accuracy;
mod autoregress;
mod model;
#[cfg(test)]
mod testkit;

pub use accuracy::{evaluate, evaluate_all, PredictorAccuracy};
pub use autoregress::AR_ORDER;
pub use model::{
    PredictorInput, PredictorModel, PredictorState, EXP_SMOOTH_ALPHA, MEAN_WINDOW, MIN_PREDICTION, TRIGG_LEACH_PHI,
};
