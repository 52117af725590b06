//! The Login/Logout model of [Medernach05] §5: per user a two-state Markov chain (Logout → Login at rate λ, Login →
//! Logout at rate δ) submitting single-task jobs as a Poisson process of rate μ while logged in; a group is several
//! independent users (docs/workload-models.md).

use super::dist::Dist;
use super::generate::MAX_TASKS;
use super::generator_check::check;
use super::types::{Bot, Workload};
use super::GenerateError;
use crate::engine::Rng;
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// One user's rates, per second ([Medernach05] §6: μ P_Login is "the average number of jobs submitted by seconds").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserRates {
    /// A label for people (reports, docs); not used by the model.
    #[serde(default)]
    pub name: String,
    /// Login rate λ, s⁻¹: a logged-out user logs in after Exp(λ) (mean Logout time 1/λ).
    pub lambda: f64,
    /// Logout rate δ, s⁻¹: a logged-in user logs out after Exp(δ) (mean Login time 1/δ); 0 = never.
    pub delta: f64,
    /// Submission rate μ while logged in, s⁻¹.
    pub mu: f64,
}

impl UserRates {
    /// P_Login = λ / (λ + δ) ([Medernach05] Eq. 5.6).
    pub fn p_login(&self) -> f64 {
        self.lambda / (self.lambda + self.delta)
    }
}

/// A group of Login/Logout users and the runtime of their jobs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoginLogout {
    /// The users; user i of the list has id i.
    pub users: Vec<UserRates>,
    /// Runtime of a job on the reference processor, seconds (draws under 1 s become 1 s). The paper gives no runtime
    /// model; the default has the Biomed group's mean and standard deviation (Table 2).
    pub runtime: Dist,
}

impl Default for LoginLogout {
    fn default() -> Self {
        LoginLogout { users: biomed_users(), runtime: biomed_runtime() }
    }
}

/// The four Biomed users fitted in [Medernach05] Fig. 10, parameters as printed (rates per second).
pub fn biomed_users() -> Vec<UserRates> {
    [(0.0837, 0.02079, 2.1e-4), (0.0620, 0.01188, 1.2e-4), (0.0832, 0.02475, 2.5e-4), (0.0365, 1.4285e-3, 1.075e-4)]
        .iter()
        .enumerate()
        .map(|(i, &(mu, delta, lambda))| UserRates { name: format!("Biomed user {}", i + 1), lambda, delta, mu })
        .collect()
}

/// Mean and standard deviation of the Biomed group's job run times, seconds ([Medernach05] Table 2).
pub const BIOMED_RUNTIME_MEAN: f64 = 5417.0;
pub const BIOMED_RUNTIME_SD: f64 = 22942.2;

/// The log-normal with the Biomed mean and standard deviation: σ² = ln(1 + CV²), μ = ln(mean) − σ²/2.
pub fn biomed_runtime() -> Dist {
    let cv = BIOMED_RUNTIME_SD / BIOMED_RUNTIME_MEAN;
    let s2 = libm::log(1.0 + cv * cv);
    Dist::LogNormal { mu: libm::log(BIOMED_RUNTIME_MEAN) - 0.5 * s2, sigma: libm::sqrt(s2) }
}

/// One login period of a user: [login, logout) and the jobs submitted in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    pub login: f64,
    /// Logout time (infinite when δ = 0); may lie past the end the sessions were drawn to.
    pub logout: f64,
    /// Submission times of the jobs, ascending, all before min(logout, until).
    pub jobs: Vec<f64>,
}

/// A draw from Exp(rate), rate > 0.
/// Most login periods one user may have in a workload (each costs memory even without jobs).
pub const MAX_SESSIONS: usize = 1_000_000;

fn exp(rng: &mut Rng, rate: f64) -> f64 {
    -libm::log(rng.uniform_open0()) / rate
}

/// The login periods of a user that start before `until`, from its stream `arrivals-user-i`: the chain starts in
/// its stationary law (Login with probability P_Login, [Medernach05] Eq. 5.12), stays out Exp(λ), logged in
/// Exp(δ), and submits at the points of a Poisson process of rate μ while logged in.
pub fn sessions(user: &UserRates, rng: &mut Rng, until: f64) -> Result<Vec<Session>, GenerateError> {
    let mut out = Vec::new();
    let mut jobs = 0usize;
    let mut t = 0.0;
    let mut logged_in = rng.uniform() < user.p_login();
    while t < until {
        if !logged_in {
            t += exp(rng, user.lambda);
            if t >= until {
                break;
            }
        }
        let logout = if user.delta > 0.0 { t + exp(rng, user.delta) } else { f64::INFINITY };
        let end = logout.min(until);
        let mut s = Session { login: t, logout, jobs: Vec::new() };
        let mut next = t + exp(rng, user.mu);
        while next < end {
            s.jobs.push(next);
            next += exp(rng, user.mu);
        }
        jobs += s.jobs.len();
        if jobs > MAX_TASKS {
            return Err(GenerateError::TooLarge(format!(
                "user {:?} would submit more than {MAX_TASKS} jobs; lower its rates or the submission period",
                user.name
            )));
        }
        out.push(s);
        // Sessions without jobs cost memory too: a user whose job rate is tiny against its login rate (or a load
        // target that stretches the model's clock) would otherwise fill the memory with empty sessions.
        if out.len() > MAX_SESSIONS {
            return Err(GenerateError::TooLarge(format!(
                "user {:?} would log in more than {MAX_SESSIONS} times before {until:.3e} s of the model's clock; its \
                 job rate mu ({:e}) is too low for the load asked, raise mu or lower the load",
                user.name, user.mu
            )));
        }
        t = logout;
        logged_in = false;
    }
    Ok(out)
}

impl LoginLogout {
    /// Checks every parameter; the field is relative to `workload.generator.login_logout`.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.users.is_empty() || self.users.len() > 10_000 {
            return Err(ScenarioError::out_of_range("users", format!("{} users; allowed 1–10000", self.users.len())));
        }
        // A rate in (0, 10] s⁻¹: 0 would never log in (λ) or never submit (μ).
        let positive = |field: String, v: f64, zero: &str| {
            if v.is_finite() && v > 0.0 && v <= 10.0 {
                Ok(())
            } else {
                Err(ScenarioError::out_of_range(
                    field,
                    format!("{v} is out of range; allowed > 0 and ≤ 10 s⁻¹ ({zero})"),
                ))
            }
        };
        for (i, u) in self.users.iter().enumerate() {
            positive(format!("users[{i}].lambda"), u.lambda, "λ = 0: the user would never log in")?;
            check(&format!("users[{i}].delta"), u.delta, 0.0, 10.0, " s⁻¹ (0: the user never logs out)")?;
            positive(format!("users[{i}].mu"), u.mu, "μ = 0: the user would submit nothing")?;
        }
        self.runtime.validate().map_err(|e| e.under("runtime"))?;
        let mean = self.runtime.mean();
        if !(mean.is_finite() && mean > 0.0) {
            return Err(ScenarioError::out_of_range("runtime", format!("mean {mean}: must be a finite number > 0 s")));
        }
        Ok(())
    }

    /// Every job of the group submitted before `until`, in the model's clock: one BoT of one task per job, in time
    /// order (ties: lower user first). User i draws from the streams `arrivals-user-i` and `runtimes-user-i`.
    pub fn workload(&self, seed: u64, until: f64) -> Result<Workload, GenerateError> {
        let mut jobs: Vec<(f64, u32, f64)> = Vec::new();
        for (i, u) in self.users.iter().enumerate() {
            let mut arrivals = Rng::stream(seed, &format!("arrivals-user-{i}"));
            let mut runtimes = Rng::stream(seed, &format!("runtimes-user-{i}"));
            for s in sessions(u, &mut arrivals, until)? {
                for t in s.jobs {
                    let r = self.runtime.sample(&mut runtimes);
                    jobs.push((t, i as u32, if r.is_nan() { 1.0 } else { r.max(1.0) }));
                }
            }
            if jobs.len() > MAX_TASKS {
                return Err(GenerateError::TooLarge(format!(
                    "the group would submit more than {MAX_TASKS} jobs; lower the rates, the load or the period"
                )));
            }
        }
        jobs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let bots = jobs
            .iter()
            .enumerate()
            .map(|(k, &(arrival, user, r))| Bot {
                arrival,
                user,
                first_task: k as u32,
                size: 1,
                art: r,
                rtv: 0.0,
                home: None,
            })
            .collect();
        Ok(Workload {
            bots,
            runtimes: jobs.iter().map(|j| j.2).collect(),
            users: self.users.len() as u32,
            ..Workload::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_are_figure_10_as_printed() {
        let u = biomed_users();
        let printed = [
            ("Biomed user 1", 0.0837, 0.02079, 2.1e-4),
            ("Biomed user 2", 0.0620, 0.01188, 1.2e-4),
            ("Biomed user 3", 0.0832, 0.02475, 2.5e-4),
            ("Biomed user 4", 0.0365, 1.4285e-3, 1.075e-4),
        ];
        assert_eq!(u.len(), 4);
        for (u, (name, mu, delta, lambda)) in u.iter().zip(printed) {
            assert_eq!((u.name.as_str(), u.mu, u.delta, u.lambda), (name, mu, delta, lambda));
        }
    }

    #[test]
    fn the_default_runtime_has_the_biomed_moments() {
        let Dist::LogNormal { mu, sigma } = biomed_runtime() else { panic!("log-normal") };
        let mean = (mu + 0.5 * sigma * sigma).exp();
        let sd = mean * ((sigma * sigma).exp() - 1.0).sqrt();
        assert!((mean - 5417.0).abs() < 1e-6, "{mean}");
        assert!((sd - 22942.2).abs() < 1e-6, "{sd}");
    }

    #[test]
    fn sessions_alternate_and_hold_their_jobs() {
        let u = UserRates { name: String::new(), lambda: 1e-3, delta: 1e-2, mu: 0.1 };
        let mut rng = Rng::new(5);
        let s = sessions(&u, &mut rng, 1e6).unwrap();
        assert!(s.len() > 100);
        for w in s.windows(2) {
            assert!(w[0].logout <= w[1].login, "sessions overlap");
        }
        for x in &s {
            assert!(x.login < x.logout);
            assert!(x.jobs.windows(2).all(|p| p[0] < p[1]));
            assert!(x.jobs.iter().all(|&t| t > x.login && t < x.logout && t < 1e6));
        }
        assert!(s.last().unwrap().login < 1e6);
    }

    #[test]
    fn a_longer_clock_gives_the_same_jobs_first() {
        let g = LoginLogout::default();
        let short = g.workload(3, 2e5).unwrap();
        let long = g.workload(3, 5e5).unwrap();
        assert!(!short.bots.is_empty() && long.bots.len() > short.bots.len());
        assert_eq!(short.bots[..], long.bots[..short.bots.len()]);
        assert_eq!(short.runtimes[..], long.runtimes[..short.runtimes.len()]);
    }

    #[test]
    fn validation_names_the_user_and_the_rate() {
        let mut g = LoginLogout::default();
        g.users[2].delta = -1.0;
        let e = g.validate().unwrap_err();
        assert_eq!(e.field, "users[2].delta");
        assert!(e.message.contains("0–10"), "{}", e.message);
        g.users[2].delta = 0.0;
        g.validate().unwrap();
        g.users[0].lambda = 0.0;
        assert_eq!(g.validate().unwrap_err().field, "users[0].lambda");
        assert_eq!(LoginLogout { users: vec![], ..LoginLogout::default() }.validate().unwrap_err().field, "users");
    }
}
