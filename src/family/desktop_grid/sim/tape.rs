//! The run's tape (docs/story.md), recorded when asked: each replica of a task as a bar on its machine, ended by
//! the task's completion, its cancellation or its machine's failure; and each task's decisions as its story's
//! steps — why BoT selection chose its BoT and WQR-FT the task and the machine ([Anglano09] Fig. 1 lines 20–28),
//! each checkpoint stored, each failure with the work it lost, each restart from the best checkpoint. Costs nothing
//! but a branch when not recorded.

use super::slot::Phase;
use super::{DgSimulation, NONE};
use crate::family::desktop_grid::policy::{BotSelection, FcfsShareRule};
use crate::stats::csv_number;
use crate::story::{Bar, BarEnd, Lane, Step, Tape, TapeWords, TaskFacts};

/// The tape being recorded.
pub(super) struct TapeRec {
    bars: Vec<Bar>,
    /// The bar of each machine's replica (u32::MAX: none).
    machine_bar: Vec<u32>,
    facts: Vec<TaskFacts>,
    /// Replicas of each task its machine's failure killed.
    failed: Vec<u32>,
}

/// A time or an amount of work as a CSV writes it.
fn n(x: f64) -> String {
    csv_number(x)
}

impl DgSimulation {
    /// Starts recording the tape (before the first step).
    pub fn record_tape(&mut self) {
        let machines = self.slots.len();
        self.tape = Some(Box::new(TapeRec {
            bars: Vec::new(),
            machine_bar: vec![u32::MAX; machines],
            facts: Vec::new(),
            failed: Vec::new(),
        }));
    }

    /// Served one BoT at a time (FCFS-Excl): a task can start only once its BoT is the oldest in the system.
    fn one_bot_at_a_time(&self) -> bool {
        self.s.selection.builtin() == Some(BotSelection::FcfsExcl)
    }

    /// BoT b arrived now: its tasks join the tape (numbered as the workload numbers them, by BoT).
    #[cold]
    pub(super) fn tape_arrived(&mut self, b: u32, now: f64) {
        if self.tape.is_none() {
            return;
        }
        let head = !self.one_bot_at_a_time() || self.pool.active.first() == Some(&b);
        let Some(rec) = self.tape.as_deref_mut() else { return };
        let bot = &self.workload.bots[b as usize];
        let ready = if head { now } else { f64::NAN };
        let f = TaskFacts { group: b, user: bot.user, arrival: bot.arrival, ready, steps: Vec::new() };
        let end = (bot.first_task + bot.size) as usize;
        if rec.facts.len() < end {
            rec.facts.resize(end, f);
            rec.failed.resize(end, 0);
        }
    }

    /// Why the BoT selection policy chose BoT b now (told before the dispatch changes the pool).
    fn why_bot(&self, b: u32, now: f64) -> String {
        let pool = &self.pool;
        let oldest = pool.active.first() == Some(&b);
        let older = pool.active.range(..b).count();
        match self.s.selection.builtin() {
            Some(BotSelection::FcfsExcl) => "FCFS-Excl served its BoT, the oldest in the system, alone".into(),
            Some(BotSelection::FcfsShare) if oldest => "FCFS-Share served its BoT, the oldest in the system".into(),
            Some(BotSelection::FcfsShare) => {
                let enough = match self.s.fcfs_share {
                    FcfsShareRule::RepThresh => "RepThresh running replicas",
                    FcfsShareRule::OneReplica => "a running replica",
                };
                format!(
                    "FCFS-Share gave the machine to its BoT, the oldest that could use it: every task of the {older} \
                     older BoTs had {enough}"
                )
            }
            Some(BotSelection::Rr) => format!("RR's turn came to its BoT (BoTs served in turn, {older} older ones)"),
            Some(BotSelection::RrNrf) if pool.running(b) == 0 => {
                "RR-NRF chose its BoT first as it had no running replica".into()
            }
            Some(BotSelection::RrNrf) => "RR-NRF's turn came to its BoT (every BoT had a running replica)".into(),
            Some(BotSelection::LongIdle) => format!(
                "LongIdle chose its BoT: one of its tasks had been {} s without a running replica, the longest",
                n(pool.longest_idle(b, now))
            ),
            None => "the scenario's BoT selection script chose its BoT".into(),
        }
    }

    /// WQR-FT's replica of task t of BoT b starts on machine m now (told before the pool and the free list change).
    #[cold]
    pub(super) fn tape_dispatch(&mut self, b: u32, t: u32, m: u32, now: f64) {
        let Some(rec) = self.tape.as_deref() else { return };
        let ti = t as usize;
        let running = self.pool.replicas(t);
        let task = if running == 0 {
            let c = self.pool.unreplicated(b);
            let pick = if c > 1 { format!(", at random among the {c} tasks") } else { String::new() };
            format!("WQR-FT picked this task{pick} of its BoT with no running replica")
        } else {
            let limit = if self.s.thresh == u32::MAX { "no limit".to_string() } else { self.s.thresh.to_string() };
            format!(
                "WQR-FT replicated it: every pending task of its BoT had a running replica, and it had {running}, \
                 the fewest, below RepThresh ({limit})"
            )
        };
        let group = self.machine_group[m as usize];
        let grp = if self.groups.is_empty() { String::new() } else { format!(", availability group {}", group + 1) };
        let drawn = match self.free.len() {
            1 => "the only free machine".to_string(),
            f => format!("drawn at random among {f} free machines"),
        };
        let mut text = format!(
            "{}; {task}, and gave it machine {m} (power {}{grp}), {drawn}.",
            self.why_bot(b, now),
            n(self.power[m as usize])
        );
        let (best, work) = (self.best[ti], self.workload.runtimes[ti]);
        if best > 0.0 {
            text.push_str(&format!(
                " It resumes from the task's best checkpoint, {} s of its {} s of work, fetched from the checkpoint \
                 server first.",
                n(best),
                n(work)
            ));
        } else if rec.failed[ti] > 0 {
            text.push_str(" It starts over from the beginning: no checkpoint of the task had been stored.");
        }
        let rec = self.tape.as_deref_mut().expect("checked");
        rec.facts[ti].steps.push(Step { at: now, text });
        rec.machine_bar[m as usize] = rec.bars.len() as u32;
        let (ended, replica) = (BarEnd::Running, running > 0);
        rec.bars.push(Bar { task: t, row: m, rows: 1, start: now, end: now, ended, replica, continues: false });
    }

    /// A checkpoint of `progress` s of work from machine m's replica reached the server now (`best`: it is the
    /// task's best).
    #[cold]
    pub(super) fn tape_checkpoint(&mut self, m: u32, progress: f64, best: bool) {
        if self.tape.is_none() {
            return;
        }
        let now = self.now();
        let t = self.slots[m as usize].task as usize;
        let work = self.workload.runtimes[t];
        let Some(rec) = self.tape.as_deref_mut() else { return };
        let verdict = if best {
            "the task's best checkpoint now".to_string()
        } else {
            format!("no better than the best one stored ({} s, from another replica)", n(self.best[t]))
        };
        let text = format!(
            "A checkpoint of {} s of its {} s of work ({:.0}%) from machine {m} reached the checkpoint server: \
             {verdict}.",
            n(progress),
            n(work),
            100.0 * progress / work
        );
        rec.facts[t].steps.push(Step { at: now, text });
    }

    /// Machine m failed now, killing its replica (told before the replica ends).
    #[cold]
    pub(super) fn tape_failed(&mut self, m: u32, now: f64) {
        if self.tape.is_none() {
            return;
        }
        let sl = &self.slots[m as usize];
        let t = sl.task as usize;
        let done = match sl.phase {
            Phase::Compute { .. } => sl.progress + (now - sl.phase_start) * self.power[m as usize],
            Phase::Upload { progress } => progress,
            Phase::Retrieve | Phase::Idle => sl.progress,
        };
        let (work, best) = (self.workload.runtimes[t], self.best[t]);
        let done = done.min(work);
        let others = self.pool.replicas(sl.task).saturating_sub(1);
        let next = if others == 1 {
            "Another replica of it still runs.".to_string()
        } else if others > 1 {
            format!("{others} other replicas of it still run.")
        } else if best > 0.0 {
            "With no replica running, it went back to its BoT's pending tasks, to be dispatched again from that \
             checkpoint."
                .to_string()
        } else {
            "With no replica running, it went back to its BoT's pending tasks, to be dispatched again from the \
             beginning."
                .to_string()
        };
        let text = format!(
            "Machine {m} failed (it left the grid): its replica had done {} s of the task's {} s of work and the best \
             stored checkpoint holds {} s, so {} s of work were lost. {next}",
            n(done),
            n(work),
            n(best),
            n((done - best).max(0.0))
        );
        let rec = self.tape.as_deref_mut().expect("checked");
        rec.facts[t].steps.push(Step { at: now, text });
        rec.failed[t] += 1;
        end_bar(rec, m, now, BarEnd::Failed);
    }

    /// Machine m's replica completed task t now; every other replica of it is cancelled (told before they end).
    #[cold]
    pub(super) fn tape_completed(&mut self, m: u32, t: u32, now: f64) {
        let Some(rec) = self.tape.as_deref_mut() else { return };
        let mut r = self.head[t as usize];
        while r != NONE {
            end_bar(rec, r, now, if r == m { BarEnd::Completed } else { BarEnd::Cancelled });
            r = self.slots[r as usize].next;
        }
    }

    /// BoT b completed now with task t: a story says so, and under FCFS-Excl the next BoT's tasks may start.
    #[cold]
    pub(super) fn tape_bot_done(&mut self, b: u32, t: u32, now: f64) {
        if self.tape.is_none() {
            return;
        }
        let head = self.pool.active.first().copied().filter(|_| self.one_bot_at_a_time());
        let Some(rec) = self.tape.as_deref_mut() else { return };
        let text = format!("It was the last task of BoT {b} to complete: the BoT completed.");
        rec.facts[t as usize].steps.push(Step { at: now, text });
        if let Some(h) = head {
            let bot = &self.workload.bots[h as usize];
            for f in &mut rec.facts[bot.first_task as usize..(bot.first_task + bot.size) as usize] {
                if f.ready.is_nan() {
                    f.ready = now;
                    f.steps.push(Step {
                        at: now,
                        text: format!(
                            "BoT {b} completed, so its BoT became the oldest in the system: FCFS-Excl, which serves \
                             one BoT at a time, could now start its tasks."
                        ),
                    });
                }
            }
        }
    }

    /// The tape so far, replicas still running closed now.
    pub fn take_tape(&mut self) -> Option<Tape> {
        let now = self.now();
        let mut rec = self.tape.take()?;
        for m in 0..rec.machine_bar.len() as u32 {
            end_bar(&mut rec, m, now, BarEnd::Running);
        }
        let machines = self.power.len() as u32;
        let (lo, hi) = self.power.iter().fold((f64::INFINITY, 0.0f64), |(a, b), &p| (a.min(p), b.max(p)));
        let power = if lo == hi { format!("power {}", n(lo)) } else { format!("powers {}–{}", n(lo), n(hi)) };
        let lane = Lane { name: "grid".into(), rows: machines, note: format!("{machines} machines, {power}") };
        let overtaking = match self.s.selection.builtin() {
            Some(BotSelection::FcfsExcl) => "FCFS-Excl serves one BoT at a time, oldest first",
            Some(BotSelection::FcfsShare) => {
                "FCFS-Share gives a machine to a later BoT when every task of the older BoTs has its replicas running"
            }
            Some(BotSelection::Rr) => "RR serves the BoTs in turn, so a later BoT's task starts when its turn comes",
            Some(BotSelection::RrNrf) => {
                "RR-NRF serves first a BoT with no running replica, then the BoTs in turn, so a later BoT's task \
                 can start while an older BoT's task waits"
            }
            Some(BotSelection::LongIdle) => {
                "LongIdle serves the BoT whose task has been without a replica longest, which may be a later BoT's"
            }
            None => "the scenario's BoT selection script orders the BoTs as it likes",
        };
        Some(Tape {
            words: TapeWords {
                lane: "pool".into(),
                row: "machine".into(),
                group: "BoT".into(),
                overtaking: overtaking.into(),
                lane_column: String::new(),
                executions_column: "executions".into(),
            },
            lanes: vec![lane],
            bars: rec.bars,
            tasks: rec.facts,
            end: now,
            cut: false,
        })
    }
}

/// Machine m's bar, if it has one running, ends now as `how`.
fn end_bar(rec: &mut TapeRec, m: u32, now: f64, how: BarEnd) {
    let b = std::mem::replace(&mut rec.machine_bar[m as usize], u32::MAX);
    if let Some(bar) = rec.bars.get_mut(b as usize) {
        bar.end = now;
        bar.ended = how;
    }
}
