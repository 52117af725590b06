//! BoTs from a trace by the Δ rule of [Minh10] §II-C, as the [`Workload`] the simulator consumes and
//! [`crate::workload::fit::fit_workload`] fits.
//!
//! [Minh10] is Minh and Wolters, "Towards a realistic parallel system workload model" (2010).
//!
//! The rule, following §II-C to the letter: W is the trace's jobs ordered by submit time (ties keep file order). A
//! BoT is a maximal *contiguous* run of W in which
//! - every two successive jobs satisfy AT(next) ≤ AT(previous) + Δ: this is the sentence of §II-C we follow for Δ,
//!   so Δ is measured from the previous job of the BoT, not from its first, and a gap of exactly Δ still joins;
//! - all jobs have the same user, group, queue, executable, requested time and requested processors (§II-C's
//!   second condition; [`BotKey::User`] compares the user alone). Unknown values (−1) compare equal.
//!
//! Since a BoT is contiguous in W, a job of another user (or other attributes) submitted in between ends it.
//! W holds every job of the trace, of one processor or several, so the multi-processor rule ([`MultiProc`]) acts
//! on the BoTs after they are found and cannot merge BoTs that a rejected job separated.
//!
//! Cost: one sort of the jobs by submit time and linear passes, O(n log n).

use super::{Job, TimeOrigin, Trace};
use crate::error::{ErrorKind, ScenarioError};
use crate::workload::size_class::{size_class_index, SIZE_CLASSES};
use crate::workload::{Bot, Workload};
use serde::{Deserialize, Serialize};

pub use crate::workload::{DEFAULT_DELTA, MAX_DELTA};
/// Most tasks a trace workload may have (a split of very wide jobs could otherwise exhaust memory).
pub const MAX_TASKS: usize = 50_000_000;
const DAY: f64 = 86_400.0;

/// What becomes of a job of p > 1 processors in a BoT workload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MultiProc {
    /// Left out of its BoT, and counted (the default: a rigid parallel job is not a bag of sequential tasks).
    #[default]
    Reject,
    /// Becomes p sequential tasks, each of the job's run time.
    Split,
    /// Stays one task that needs p processors at once (a rigid parallel job, `Workload::procs`): for a family
    /// that runs such jobs. The multi-cluster and desktop-grid families run single-processor tasks only, and their
    /// scenarios offer Reject and Split.
    Keep,
}

/// Which attributes two successive jobs of a BoT must share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotKey {
    /// [Minh10] §II-C: user, group, queue, executable, requested time and requested processors.
    #[default]
    Attributes,
    /// The user alone.
    User,
}

impl BotKey {
    pub fn describe(self) -> &'static str {
        match self {
            BotKey::Attributes => "same user, group, queue, executable, requested time and requested processors",
            BotKey::User => "same user",
        }
    }
}

/// The parameters of the extraction.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotRule {
    /// Δ, seconds (0 – [`MAX_DELTA`]).
    pub delta: f64,
    pub key: BotKey,
    pub multi_proc: MultiProc,
}

impl Default for BotRule {
    fn default() -> Self {
        BotRule { delta: DEFAULT_DELTA, key: BotKey::Attributes, multi_proc: MultiProc::Reject }
    }
}

impl BotRule {
    /// Checks Δ.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.delta.is_finite() && (0.0..=MAX_DELTA).contains(&self.delta) {
            Ok(())
        } else {
            Err(ScenarioError::out_of_range(
                "delta",
                format!("{} is out of range; allowed 0–{MAX_DELTA} s", self.delta),
            ))
        }
    }
}

/// W and its BoTs: `order` lists job indices by submit time; BoT i is `order[starts[i] .. starts[i + 1]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Grouping {
    pub order: Vec<u32>,
    pub starts: Vec<usize>,
}

impl Grouping {
    /// Number of BoTs.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The jobs of BoT i, in W order.
    pub fn bot(&self, i: usize) -> &[u32] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.order.len());
        &self.order[self.starts[i]..end]
    }
}

/// Whether `b` may follow `a` in a BoT, Δ aside.
fn similar(a: &Job, b: &Job, key: BotKey) -> bool {
    a.user == b.user
        && match key {
            BotKey::User => true,
            BotKey::Attributes => {
                a.group == b.group
                    && a.queue == b.queue
                    && a.executable == b.executable
                    && a.req_time == b.req_time
                    && a.req_procs == b.req_procs
            }
        }
}

/// The BoTs of [Minh10] §II-C among `jobs` (see the module doc), before any multi-processor rule.
pub fn group(jobs: &[Job], delta: f64, key: BotKey) -> Grouping {
    let mut order: Vec<u32> = (0..jobs.len() as u32).collect();
    // Stable: equal submit times keep file order.
    order.sort_by(|&a, &b| jobs[a as usize].submit.total_cmp(&jobs[b as usize].submit));
    let mut starts = Vec::new();
    for i in 0..order.len() {
        let joins = i > 0 && {
            let (prev, next) = (&jobs[order[i - 1] as usize], &jobs[order[i] as usize]);
            next.submit <= prev.submit + delta && similar(prev, next, key)
        };
        if !joins {
            starts.push(i);
        }
    }
    Grouping { order, starts }
}

/// BoTs per size class of [`SIZE_CLASSES`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizeCount {
    pub class: String,
    pub bots: u64,
}

/// One submitting user of the workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserRow {
    /// Workload user id, 0-based: users ranked by BoTs submitted, descending (ties: earlier first BoT first), so id
    /// u has rank u + 1 as in the generated workloads.
    pub id: u32,
    /// The user id as the trace writes it.
    pub name: String,
    pub bots: u64,
    /// Trace jobs in its BoTs.
    pub jobs: u64,
    pub tasks: u64,
}

/// What the extraction did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotReport {
    pub rule: BotRule,
    /// Trace jobs in W.
    pub jobs: u64,
    /// BoTs of W by the Δ rule, before the multi-processor rule.
    pub groups: u64,
    /// Jobs of more than one processor in W.
    pub parallel_jobs: u64,
    /// [`MultiProc::Reject`]: parallel jobs left out.
    pub rejected_jobs: u64,
    /// BoTs left empty by the rejection (all their jobs were parallel).
    pub rejected_bots: u64,
    /// [`MultiProc::Split`]: parallel jobs split, and the tasks they became.
    pub split_jobs: u64,
    pub split_tasks: u64,
    /// The multi-processor rule applied and what it touched, in words.
    pub multi_proc_note: String,
    /// Jobs whose run time was below 1 s: their tasks last 1 s, the least runtime of any workload (the generator
    /// clamps the same way), so that every BoT has positive work and an NSL.
    pub raised_runtimes: u64,
    /// BoTs and tasks of the workload.
    pub bots: u64,
    pub tasks: u64,
    pub users: u64,
    /// BoTs per size class (every class of [`SIZE_CLASSES`], in order).
    pub size_classes: Vec<SizeCount>,
    /// Largest submission duration of a BoT, s: its last kept job's submit time − its first's ([Minh10] §IV). The
    /// workload submits all of a BoT's tasks at its first job's submit time.
    pub max_spread: f64,
    /// How trace times became workload times: arrival = submit + offset − the local midnight before the first job.
    pub time_origin: TimeOrigin,
    /// First and last BoT arrival in the workload, s.
    pub first_arrival: f64,
    pub last_arrival: f64,
}

/// A trace's BoT workload, its users and the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Extraction {
    pub workload: Workload,
    pub users: Vec<UserRow>,
    pub report: BotReport,
}

/// Finds the BoTs of a trace and builds the workload: each BoT arrives at its first kept job's submit time (on
/// the trace's local clock, see [`Trace::time_origin`], shifted so that time 0 is the local midnight before the
/// first job; the time of day is kept for the daily-cycle fit), its tasks are its jobs' run times (a job of p
/// processors is rejected or split per [`MultiProc`]), and users are ranked by BoTs. A trace whose jobs are all
/// rejected gives an empty workload (no BoTs), which the caller reports.
pub fn extract(trace: &Trace, rule: &BotRule) -> Result<Extraction, ScenarioError> {
    rule.validate()?;
    let jobs = &trace.jobs;
    let g = group(jobs, rule.delta, rule.key);
    let origin = trace.time_origin();
    let base = g.order.first().map_or(0.0, |&j| libm::floor((jobs[j as usize].submit + origin.offset) / DAY) * DAY);
    let mut w = Workload::default();
    let mut bot_user: Vec<u32> = Vec::new();
    let mut bot_jobs: Vec<u64> = Vec::new();
    let (mut parallel, mut rejected, mut rejected_bots, mut split_jobs, mut split_tasks, mut raised) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut max_spread = 0.0f64;
    for b in 0..g.len() {
        let first_task = w.runtimes.len();
        let mut span: Option<(f64, f64, u32)> = None;
        let mut kept = 0u64;
        for &j in g.bot(b) {
            let job = &jobs[j as usize];
            let copies = if job.procs > 1 {
                parallel += 1;
                match rule.multi_proc {
                    MultiProc::Reject => {
                        rejected += 1;
                        continue;
                    }
                    MultiProc::Split => {
                        split_jobs += 1;
                        split_tasks += u64::from(job.procs);
                        job.procs as usize
                    }
                    MultiProc::Keep => 1,
                }
            } else {
                1
            };
            if w.runtimes.len() + copies > MAX_TASKS {
                return Err(ScenarioError::new(
                    ErrorKind::OverBudget,
                    "",
                    format!(
                        "the workload would exceed {MAX_TASKS} tasks (at line {}, a job of {} processors); reject \
                         parallel jobs instead of splitting them, or cut the trace",
                        job.line, job.procs
                    ),
                ));
            }
            let runtime = if job.run < 1.0 {
                raised += 1;
                1.0
            } else {
                job.run
            };
            w.runtimes.extend(std::iter::repeat_n(runtime, copies));
            if rule.multi_proc == MultiProc::Keep {
                w.procs.push(job.procs.max(1));
            }
            kept += 1;
            span = Some(match span {
                None => (job.submit, job.submit, job.user),
                Some((first, _, user)) => (first, job.submit, user),
            });
        }
        let Some((first, last, user)) = span else {
            rejected_bots += 1;
            continue;
        };
        max_spread = max_spread.max(last - first);
        w.bots.push(Bot {
            arrival: first + origin.offset - base,
            user: 0,
            first_task: first_task as u32,
            size: (w.runtimes.len() - first_task) as u32,
            art: f64::NAN,
            rtv: f64::NAN,
            home: None,
        });
        bot_user.push(user);
        bot_jobs.push(kept);
    }

    // Users ranked by BoTs, descending; ties by first BoT.
    let n = trace.names.len();
    let (mut count, mut first_bot, mut tasks, mut njobs) =
        (vec![0u64; n], vec![usize::MAX; n], vec![0u64; n], vec![0u64; n]);
    for (b, &u) in bot_user.iter().enumerate() {
        let u = u as usize;
        count[u] += 1;
        first_bot[u] = first_bot[u].min(b);
        tasks[u] += u64::from(w.bots[b].size);
        njobs[u] += bot_jobs[b];
    }
    let mut ranked: Vec<usize> = (0..n).filter(|&u| count[u] > 0).collect();
    ranked.sort_by(|&a, &b| count[b].cmp(&count[a]).then(first_bot[a].cmp(&first_bot[b])));
    let mut rank = vec![0u32; n];
    for (r, &u) in ranked.iter().enumerate() {
        rank[u] = r as u32;
    }
    for (bot, &u) in w.bots.iter_mut().zip(&bot_user) {
        bot.user = rank[u as usize];
    }
    w.users = ranked.len() as u32;
    let users: Vec<UserRow> = ranked
        .iter()
        .enumerate()
        .map(|(r, &u)| UserRow {
            id: r as u32,
            name: trace.names[u].clone(),
            bots: count[u],
            jobs: njobs[u],
            tasks: tasks[u],
        })
        .collect();

    let mut classes = vec![0u64; SIZE_CLASSES.len()];
    for bot in &w.bots {
        classes[size_class_index(bot.size)] += 1;
    }
    let multi_proc_note = match rule.multi_proc {
        MultiProc::Reject => format!(
            "reject: {rejected} of {} jobs use several processors and were left out of their BoTs ({rejected_bots} \
             BoTs had no other job)",
            jobs.len()
        ),
        MultiProc::Split => format!(
            "split: {split_jobs} of {} jobs use several processors; a job of p processors became p sequential tasks \
             of its run time ({split_tasks} tasks)",
            jobs.len()
        ),
        MultiProc::Keep => format!(
            "keep: {parallel} of {} jobs use several processors; each stays one task that needs its processors at once",
            jobs.len()
        ),
    };
    if w.procs.iter().all(|&p| p == 1) {
        // Every task needs one processor: the workload says so by an empty list.
        w.procs.clear();
    }
    let report = BotReport {
        rule: *rule,
        jobs: jobs.len() as u64,
        groups: g.len() as u64,
        parallel_jobs: parallel,
        rejected_jobs: rejected,
        rejected_bots,
        split_jobs,
        split_tasks,
        multi_proc_note,
        raised_runtimes: raised,
        bots: w.bots.len() as u64,
        tasks: w.runtimes.len() as u64,
        users: u64::from(w.users),
        size_classes: SIZE_CLASSES
            .iter()
            .zip(&classes)
            .map(|(&(class, _, _), &bots)| SizeCount { class: class.to_string(), bots })
            .collect(),
        max_spread,
        time_origin: origin,
        first_arrival: w.bots.first().map_or(0.0, |b| b.arrival),
        last_arrival: w.bots.last().map_or(0.0, |b| b.arrival),
    };
    Ok(Extraction { workload: w, users, report })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{import_as, Format};

    /// An SWF line: job `id` of `user` submitted at `t`, `procs` processors (also requested), requested time `req`.
    fn line(id: u32, t: f64, run: f64, procs: u32, user: u32, req: f64) -> String {
        format!("{id} {t} -1 {run} {procs} -1 -1 {procs} {req} -1 1 {user} 1 -1 1 -1 -1 -1\n")
    }

    /// The hand-made trace: Δ = 10 s below. Job 9 comes first in the file but last in time.
    fn hand_trace() -> Trace {
        let text = [
            line(9, 100.0, 60.0, 1, 3, -1.0),
            line(1, 0.0, 10.0, 1, 1, -1.0),
            line(2, 10.0, 20.0, 1, 1, -1.0), // exactly Δ after job 1: joins
            line(3, 20.0, 30.0, 1, 1, -1.0), // Δ after job 2 but 2Δ after job 1: joins (Δ from the previous job)
            line(4, 31.0, 0.0, 1, 1, -1.0),  // 11 s after job 3: a new BoT; run time 0 → a 1 s task
            line(5, 35.0, 5.0, 1, 2, -1.0),  // another user
            line(6, 36.0, 6.0, 1, 1, -1.0),  // user 1 again, but job 5 is between: not job 4's BoT
            line(7, 40.0, 7.0, 1, 1, 500.0), // other requested time: a new BoT unless the key is the user alone
            line(8, 40.0, 8.0, 4, 1, 500.0), // same time, 4 processors (requested too): other requested processors
        ]
        .concat();
        import_as(text.as_bytes(), Format::Swf).unwrap()
    }

    fn ids(t: &Trace, g: &Grouping) -> Vec<Vec<i64>> {
        (0..g.len()).map(|b| g.bot(b).iter().map(|&j| t.jobs[j as usize].id).collect()).collect()
    }

    #[test]
    fn delta_is_measured_from_the_previous_job_and_equality_joins() {
        let t = hand_trace();
        let g = group(&t.jobs, 10.0, BotKey::Attributes);
        assert_eq!(ids(&t, &g), vec![vec![1, 2, 3], vec![4], vec![5], vec![6], vec![7], vec![8], vec![9]]);
        let g = group(&t.jobs, 9.0, BotKey::Attributes);
        assert_eq!(g.len(), 9);
        let g = group(&t.jobs, 10.0, BotKey::User);
        assert_eq!(ids(&t, &g), vec![vec![1, 2, 3], vec![4], vec![5], vec![6, 7, 8], vec![9]]);
        // Δ = 0: only equal submit times join.
        let g = group(&t.jobs, 0.0, BotKey::User);
        assert_eq!(g.len(), 8);
    }

    #[test]
    fn rejecting_parallel_jobs() {
        let t = hand_trace();
        let e = extract(&t, &BotRule { delta: 10.0, ..BotRule::default() }).unwrap();
        let w = &e.workload;
        let r = &e.report;
        assert_eq!((r.jobs, r.groups, r.parallel_jobs, r.rejected_jobs, r.rejected_bots), (9, 7, 1, 1, 1));
        assert_eq!((r.bots, r.tasks, r.users, r.raised_runtimes), (6, 8, 3, 1));
        assert_eq!(w.bots.iter().map(|b| b.size).collect::<Vec<_>>(), [3, 1, 1, 1, 1, 1]);
        assert_eq!(w.bots.iter().map(|b| b.arrival).collect::<Vec<_>>(), [0.0, 31.0, 35.0, 36.0, 40.0, 100.0]);
        // User "1" has 4 BoTs (rank 1, id 0), "2" and "3" one each; "2"'s comes first.
        assert_eq!(w.bots.iter().map(|b| b.user).collect::<Vec<_>>(), [0, 0, 1, 0, 0, 2]);
        assert_eq!(
            e.users.iter().map(|u| (u.name.as_str(), u.bots, u.jobs, u.tasks)).collect::<Vec<_>>(),
            [("1", 4, 6, 6), ("2", 1, 1, 1), ("3", 1, 1, 1)]
        );
        assert_eq!(w.runtimes, [10.0, 20.0, 30.0, 1.0, 5.0, 6.0, 7.0, 60.0]);
        assert_eq!(r.max_spread, 20.0);
        assert_eq!(r.size_classes[0].bots, 5);
        assert_eq!(r.size_classes[1].bots, 1);
        assert_eq!(r.size_classes.iter().map(|c| c.bots).sum::<u64>(), 6);
        assert!(r.multi_proc_note.starts_with("reject: 1 of 9 jobs"), "{}", r.multi_proc_note);
    }

    #[test]
    fn splitting_parallel_jobs() {
        let t = hand_trace();
        let rule = BotRule { delta: 10.0, key: BotKey::Attributes, multi_proc: MultiProc::Split };
        let e = extract(&t, &rule).unwrap();
        let r = &e.report;
        assert_eq!((r.bots, r.tasks, r.split_jobs, r.split_tasks, r.rejected_jobs), (7, 12, 1, 4, 0));
        assert_eq!(e.workload.bots.iter().map(|b| b.size).collect::<Vec<_>>(), [3, 1, 1, 1, 1, 4, 1]);
        assert_eq!(e.workload.bot_runtimes(5), [8.0; 4]);
        let rule = BotRule { delta: 10.0, key: BotKey::User, multi_proc: MultiProc::Split };
        let e = extract(&t, &rule).unwrap();
        assert_eq!(e.workload.bots.iter().map(|b| b.size).collect::<Vec<_>>(), [3, 1, 1, 6, 1]);
    }

    #[test]
    fn arrivals_keep_the_local_time_of_day() {
        // 90 000 s after the epoch + a 1 h zone: time 0 is 02:00 local.
        let text = format!(
            "; UnixStartTime: 90000\n; TimeZone: 3600\n{}{}",
            line(1, 0.0, 5.0, 1, 1, -1.0),
            line(2, 86_400.0, 5.0, 1, 1, -1.0)
        );
        let t = import_as(text.as_bytes(), Format::Swf).unwrap();
        let e = extract(&t, &BotRule::default()).unwrap();
        assert_eq!(e.workload.bots.iter().map(|b| b.arrival).collect::<Vec<_>>(), [7_200.0, 93_600.0]);
        // GWF: Unix times; 1 136 070 024 = 13 148 days + 82 824 s.
        let gwf = "1 1136070024 0 10 1 -1 -1 1 -1 -1 1 U1 G1 L1 Q1 -1 S S UNITARY -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n";
        let t = import_as(gwf.as_bytes(), Format::Gwf).unwrap();
        let e = extract(&t, &BotRule::default()).unwrap();
        assert_eq!(e.workload.bots[0].arrival, 82_824.0);
    }

    #[test]
    fn all_parallel_gives_an_empty_workload_and_delta_is_checked() {
        let t = import_as(line(1, 0.0, 5.0, 2, 1, -1.0).as_bytes(), Format::Swf).unwrap();
        let e = extract(&t, &BotRule::default()).unwrap();
        assert!(e.workload.bots.is_empty());
        assert_eq!((e.report.rejected_jobs, e.report.rejected_bots), (1, 1));
        for bad in [-1.0, f64::NAN, MAX_DELTA + 1.0] {
            let err = extract(&t, &BotRule { delta: bad, ..BotRule::default() }).unwrap_err();
            assert!(err.field == "delta" && err.kind == ErrorKind::OutOfRange, "{err}");
            assert!(err.to_string().starts_with("delta: "), "{err}");
        }
    }
}
