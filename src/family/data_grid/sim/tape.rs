//! The run's tape (docs/story.md), recorded when asked: each job's execution as bars on the processors its site
//! gives it (the lowest-numbered free ones, as `bagsim run --jobs` hands them out: one bar per run of contiguous
//! rows), and each job's decisions as its story's steps — the metascheduler's site and why ([Liu10] §III–IV), its
//! data's transfer, its place in the site's queue, its reservation and how the site's batch scheduler started it:
//! at the head of the queue, or backfilled ahead of jobs that reached the site earlier, and by which rule. Costs
//! nothing but a branch when not recorded.

use super::jobs::Procs;
use super::Simulation;
use crate::family::data_grid::config::{LocalPolicy, Scheme, SchemePolicy};
use crate::stats::csv_number;
use crate::story::{Bar, BarEnd, Lane, Step, Tape, TapeWords, TaskFacts};

/// The tape being recorded.
pub(super) struct TapeRec {
    bars: Vec<Bar>,
    facts: Vec<TaskFacts>,
    procs: Procs,
    /// Each job's first bar and how many it has ((0, 0) until it starts).
    bars_of: Vec<(u32, u32)>,
}

/// A time or a size as a CSV writes it.
fn n(x: f64) -> String {
    csv_number(x)
}

/// A site's batch scheduler, in words.
fn policy_words(p: LocalPolicy) -> &'static str {
    match p {
        LocalPolicy::Conservative => "conservative backfilling",
        LocalPolicy::Easy => "EASY backfilling",
        LocalPolicy::Fcfs => "FCFS",
    }
}

impl Simulation {
    /// Starts recording the tape (before the first step).
    pub fn record_tape(&mut self) {
        let procs = Procs::new(self.sites.iter().map(|s| s.profile.processors()));
        let jobs = self.w.jobs.len();
        self.tape = Some(Box::new(TapeRec { bars: Vec::new(), facts: Vec::new(), procs, bars_of: vec![(0, 0); jobs] }));
    }

    /// The metascheduler sent job j to site k now, with the sites' answers `answers` ((site, (start, finish))); the
    /// job reaches the site at `dispatch`, where it holds `hold` (a reservation, or EASY's forecast).
    #[cold]
    pub(super) fn tape_sent(&mut self, j: usize, k: usize, answers: &[(usize, (f64, f64))], now: f64) {
        if self.tape.is_none() {
            return;
        }
        let (job, st) = (self.w.jobs[j], self.state[j]);
        let key = |a: &(f64, f64)| match &self.settings.scheme {
            SchemePolicy::Builtin(Scheme::StartTimeNoDataAware) => a.0,
            _ => a.1,
        };
        let answered = |a: &(f64, f64)| format!("start {} s, finish {} s", n(a.0), n(a.1));
        let mine = answers.iter().find(|a| a.0 == k).map(|a| a.1).unwrap_or(st.res);
        let why = match &self.settings.scheme {
            SchemePolicy::Builtin(s) => {
                let what = if *s == Scheme::StartTimeNoDataAware { "start" } else { "finish" };
                format!("the scheme {} ({}) chose the earliest {what} the sites answered", s.name(), s.label())
            }
            SchemePolicy::Script(_) => "the scenario's script chose it from the sites' answers".into(),
        };
        let runner_up = answers
            .iter()
            .filter(|a| a.0 != k && !a.1 .0.is_nan())
            .min_by(|a, b| key(&a.1).total_cmp(&key(&b.1)).then(a.0.cmp(&b.0)));
        let mut text = format!("The metascheduler sent it to site {k}, whose answer was {}: {why}", answered(&mine));
        match runner_up {
            Some((o, a)) if key(a) == key(&mine) && self.script.is_none() => text.push_str(&format!(
                "; site {o} answered as well ({}), and a tie goes to the lowest-numbered site",
                answered(a)
            )),
            Some((o, a)) => text.push_str(&format!("; the next best was site {o} ({})", answered(a))),
            None => text.push_str(&format!("; no other site has {} processors", job.procs)),
        }
        text.push('.');
        let transfer = self.w.transfer(j, k);
        if job.data_mb <= 0.0 {
            text.push_str(" It needs no input data.");
        } else if self.overlaps {
            text.push_str(&format!(
                " Its {} MB of input data move to site {k} from its dispatch on ({} s), while it queues.",
                n(job.data_mb),
                n(transfer)
            ));
        } else {
            text.push_str(&format!(
                " It moves its {} MB of input data itself, on its processors, once it starts ({} s).",
                n(job.data_mb),
                n(transfer)
            ));
        }
        let site = &self.sites[k];
        let ahead = site.queue.range(..j as u32).count();
        let hold = match site.policy {
            LocalPolicy::Easy if st.bound => format!("EASY gave it a reservation at {} s", n(st.res.0)),
            LocalPolicy::Easy => {
                format!("EASY promises a start only to the first waiting job; the site forecast {} s", n(st.res.0))
            }
            p => format!("{} reserved it a start at {} s", policy_words(p), n(st.res.0)),
        };
        let queued = format!("It reached site {k}'s queue ({}) with {ahead} jobs waiting before it; {hold}.", {
            policy_words(site.policy)
        });
        let rec = self.tape.as_deref_mut().expect("checked");
        let f = TaskFacts { group: j as u32, user: 0, arrival: job.submit, ready: st.dispatch, steps: Vec::new() };
        if rec.facts.len() <= j {
            rec.facts.resize(j + 1, f.clone());
        }
        rec.facts[j] = f;
        rec.facts[j].steps.push(Step { at: now, text });
        rec.facts[j].steps.push(Step { at: st.dispatch, text: queued });
    }

    /// A step of job j's story now.
    fn tape_step(&mut self, j: usize, text: String) {
        let now = self.now();
        if let Some(rec) = self.tape.as_deref_mut() {
            if let Some(f) = rec.facts.get_mut(j) {
                f.steps.push(Step { at: now, text });
            }
        }
    }

    /// An early end at site k moved job j's reservation from `from` to `to` (conservative backfilling, FCFS).
    #[cold]
    pub(super) fn tape_moved(&mut self, j: usize, k: usize, from: f64, to: f64) {
        if self.tape.is_none() {
            return;
        }
        let text = format!(
            "A job ended before its estimate at site {k}: {} compressed the schedule and moved its reservation from \
             {} s to {} s.",
            policy_words(self.sites[k].policy),
            n(from),
            n(to)
        );
        self.tape_step(j, text);
    }

    /// EASY made job j, the first waiting job of site k, a reservation at `start` (later than now).
    #[cold]
    pub(super) fn tape_head_reserved(&mut self, j: usize, k: usize, start: f64) {
        if self.tape.is_none() {
            return;
        }
        let text = format!(
            "It was the first waiting job of site {k}: EASY reserved it the earliest start its processors allow, \
             {} s, which no job started behind it may delay.",
            n(start)
        );
        self.tape_step(j, text);
    }

    /// Job j started now at site k on `procs` processors (told after it left the queue).
    #[cold]
    pub(super) fn tape_started(&mut self, j: usize, k: usize, procs: u32) {
        if self.tape.is_none() {
            return;
        }
        let now = self.now();
        let site = &self.sites[k];
        let earlier: Vec<u32> = site.queue.range(..j as u32).copied().collect();
        let text = match (earlier.first(), site.policy) {
            (None, LocalPolicy::Easy) => format!("It started as the first waiting job of site {k} (EASY)."),
            (None, p) => format!(
                "It started at its reservation ({}), with no job that reached site {k} before it still waiting.",
                policy_words(p)
            ),
            (Some(&h), LocalPolicy::Easy) => {
                let hs = self.state[h as usize];
                let head = if hs.bound { format!(" (start {} s)", n(hs.res.0)) } else { String::new() };
                format!(
                    "Backfilled (EASY): it started ahead of {} jobs that reached site {k} before it, as it fit beside \
                     the running jobs without delaying the reservation of the first waiting job, job {h}{head}.",
                    earlier.len()
                )
            }
            (Some(&h), LocalPolicy::Conservative) => format!(
                "Backfilled (conservative backfilling): it started at its reservation ahead of {} jobs that reached \
                 site {k} before it (the first, job {h}), in a hole of the schedule that delays none of their \
                 reservations.",
                earlier.len()
            ),
            (Some(&h), LocalPolicy::Fcfs) => format!(
                "It started at its reservation while {} jobs that reached site {k} before it (the first, job {h}) \
                 start at this same time.",
                earlier.len()
            ),
        };
        self.tape_step(j, text);
        let end = self.records[j].end;
        let rec = self.tape.as_deref_mut().expect("checked");
        let held = rec.procs.take(k, j as u32, procs);
        let first = rec.bars.len() as u32;
        let mut i = 0;
        while i < held.len() {
            let mut len = 1;
            while i + len < held.len() && held[i + len] == held[i] + len as u32 {
                len += 1;
            }
            let (row, rows, continues) = (held[i], len as u32, i > 0);
            let ended = BarEnd::Running;
            rec.bars.push(Bar { task: j as u32, row, rows, start: now, end, ended, replica: false, continues });
            i += len;
        }
        rec.bars_of[j] = (first, rec.bars.len() as u32 - first);
    }

    /// Job j ended now at site k (stopped at its requested time when `killed`).
    #[cold]
    pub(super) fn tape_ended(&mut self, j: usize, k: usize, killed: bool) {
        if self.tape.is_none() {
            return;
        }
        if killed {
            self.tape_step(j, "It reached its requested time (walltime) and was stopped there.".into());
        }
        let now = self.now();
        let rec = self.tape.as_deref_mut().expect("checked");
        rec.procs.give_back(k, j as u32);
        let (first, count) = rec.bars_of[j];
        for b in &mut rec.bars[first as usize..(first + count) as usize] {
            b.end = now;
            b.ended = BarEnd::Completed;
        }
    }

    /// The tape so far, jobs still running closed now.
    pub fn take_tape(&mut self) -> Option<Tape> {
        let now = self.now();
        let mut rec = self.tape.take()?;
        for site in &self.sites {
            for &j in &site.running {
                let (first, count) = rec.bars_of[j as usize];
                for b in &mut rec.bars[first as usize..(first + count) as usize] {
                    b.end = now;
                }
            }
        }
        // Bars by start time: a job's bars are pushed when it starts, so they are.
        let lanes = self
            .sites
            .iter()
            .enumerate()
            .map(|(k, s)| Lane {
                name: k.to_string(),
                rows: s.profile.processors(),
                note: format!("{} processors, {}", s.profile.processors(), policy_words(s.policy)),
            })
            .collect();
        let overtaking = "backfilling, or another site: under conservative backfilling a job starts before one that \
                          reached its site earlier when its reservation fits in a hole that delays no earlier job's; \
                          under EASY when it fits beside the running jobs without delaying the first waiting job's \
                          reservation; a job at another site runs on that site's processors";
        Some(Tape {
            words: TapeWords {
                lane: "site".into(),
                row: "processor".into(),
                group: "job".into(),
                overtaking: overtaking.into(),
                lane_column: "site".into(),
                executions_column: String::new(),
            },
            lanes,
            bars: rec.bars,
            tasks: rec.facts,
            end: now,
            cut: false,
        })
    }
}
