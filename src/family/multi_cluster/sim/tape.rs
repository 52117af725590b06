//! The run's tape (docs/story.md), recorded when asked: each copy of a task as a bar on its processor, and each
//! task's decisions — when it entered an eligible set, where the scheduling policy placed it and what it saw there,
//! a reservation or a cluster's own queue — as its story's steps. Costs nothing but a branch when not recorded.

use super::rm::Part;
use super::Simulation;
use crate::family::multi_cluster::architecture::Architecture;
use crate::family::multi_cluster::policy::scheduling::Choice;
use crate::story::{Bar, BarEnd, Lane, Step, Tape, TapeWords, TaskFacts};

/// The tape being recorded.
pub(super) struct TapeRec {
    bars: Vec<Bar>,
    /// The bar each processor's copy is drawn as.
    proc_bar: Vec<u32>,
    facts: Vec<TaskFacts>,
}

impl Simulation {
    /// Starts recording the tape (before the first step).
    pub fn record_tape(&mut self) {
        for rm in &mut self.rms {
            rm.entered = Some(Vec::new());
        }
        let proc_bar = vec![u32::MAX; self.proc_task.len()];
        self.tape = Some(Box::new(TapeRec { bars: Vec::new(), proc_bar, facts: Vec::new() }));
    }

    /// BoT b arrived: its tasks join the tape (tasks are numbered in the order their BoTs arrive).
    #[cold]
    pub(super) fn tape_arrived(&mut self, b: usize) {
        let Some(rec) = self.tape.as_deref_mut() else { return };
        let bot = &self.workload.bots[b];
        let f = TaskFacts { group: b as u32, user: bot.user, arrival: bot.arrival, ready: f64::NAN, steps: Vec::new() };
        let end = (bot.first_task + bot.size) as usize;
        if rec.facts.len() < end {
            rec.facts.resize(end, f);
        }
    }

    /// The tape so far, copies still running closed now.
    pub fn take_tape(&mut self) -> Option<Tape> {
        let now = self.now();
        let mut rec = self.tape.take()?;
        for &b in rec.proc_bar.iter().filter(|&&b| b != u32::MAX) {
            let bar = &mut rec.bars[b as usize];
            if bar.ended == BarEnd::Running {
                bar.end = now;
            }
        }
        let lanes = self
            .clusters_spec
            .iter()
            .map(|c| Lane { name: c.name.clone(), rows: c.processors, note: format!("speed {}", c.speed) })
            .collect();
        let overtaking = match self.cfg.architecture {
            Architecture::Csp => {
                "a task placed on a cluster that had a free processor starts at once, while one reserved on a \
                 busy cluster, or sent by a stale view, waits for that cluster"
            }
            _ => {
                "each cluster's resource manager schedules its own queue, so a task queued at another cluster can \
                  start first"
            }
        };
        Some(Tape {
            words: TapeWords {
                lane: "cluster".into(),
                row: "processor".into(),
                group: "BoT".into(),
                overtaking: overtaking.into(),
                lane_column: "cluster".into(),
                executions_column: "executions".into(),
            },
            lanes,
            bars: rec.bars,
            tasks: rec.facts,
            end: now,
            cut: false,
        })
    }

    /// Tells the tape which tasks entered RM r's eligible set now.
    #[cold]
    pub(super) fn tape_entered(&mut self, r: usize) {
        if self.tape.is_none() {
            return;
        }
        let Some(log) = self.rms[r].entered.as_mut() else { return };
        let parts: Vec<Part> = std::mem::take(log);
        if parts.is_empty() {
            return;
        }
        let size: u32 = parts.iter().map(|p| p.end - p.start).sum();
        let now = self.queue.now();
        let rm = self.rm_name(r);
        let how = if self.cfg.architecture != Architecture::Csp
            && self.cfg.site_policy == crate::family::multi_cluster::architecture::SitePolicy::Fcfs
        {
            "the site's own FCFS".to_string()
        } else {
            format!("task selection {}", self.cfg.selection.name())
        };
        let rec = self.tape.as_deref_mut().expect("checked");
        for p in parts {
            for t in p.start..p.end {
                let f = &mut rec.facts[t as usize];
                f.ready = now;
                f.steps.push(Step {
                    at: now,
                    text: format!("It entered the eligible set of {rm} ({how}), with {size} tasks entering at once."),
                });
            }
        }
    }

    /// Tells the tape where RM r's scheduling policy placed `task` (with `estimate` its runtime estimate).
    #[cold]
    pub(super) fn tape_placed(&mut self, r: usize, task: u32, choice: Choice, estimate: f64) {
        if self.tape.is_none() {
            return;
        }
        let (c, reserved) = match choice {
            Choice::Start(c) => (c, false),
            Choice::Reserve(c) => (c, true),
            Choice::Wait => return,
        };
        let now = self.queue.now();
        let rm = &self.rms[r];
        let name = |c: u32| &self.clusters_spec[c as usize].name;
        let policy = if self.cfg.architecture != Architecture::Csp
            && self.cfg.site_policy == crate::family::multi_cluster::architecture::SitePolicy::Fcfs
        {
            "FCFS"
        } else {
            self.cfg.scheduling.name()
        };
        let mut text = if reserved {
            format!(
                "{policy} reserved it a place in cluster {}'s queue (the cluster where its chart expected it to \
                 complete first",
                name(c)
            )
        } else {
            format!("{policy} placed it on cluster {} (speed {}", name(c), self.speed[c as usize])
        };
        if estimate > 0.0 {
            text.push_str(&format!("; runtime estimate {} s", crate::stats::csv_number(estimate)));
        }
        text.push(')');
        // A faster cluster the RM saw free and did not take: the policy's reason is its own order.
        let faster = rm
            .managed
            .iter()
            .copied()
            .filter(|&o| rm.view(o) > 0 && self.speed[o as usize] > self.speed[c as usize])
            .max_by(|&a, &b| self.speed[a as usize].total_cmp(&self.speed[b as usize]).then(b.cmp(&a)));
        if let Some(o) = faster {
            text.push_str(&format!(
                ", although the faster cluster {} (speed {}) had {} free processors in its view",
                name(o),
                self.speed[o as usize],
                rm.view(o)
            ));
        }
        text.push('.');
        let rec = self.tape.as_deref_mut().expect("checked");
        rec.facts[task as usize].steps.push(Step { at: now, text });
    }

    /// Tells the tape that `task` joined cluster c's own queue (no processor free there: a stale view).
    #[cold]
    pub(super) fn tape_queued(&mut self, task: u32, c: u32) {
        let now = self.queue.now();
        let name = self.clusters_spec[c as usize].name.clone();
        if let Some(rec) = self.tape.as_deref_mut() {
            rec.facts[task as usize].steps.push(Step {
                at: now,
                text: format!(
                    "Cluster {name} had no free processor (the resource manager's view was out of date): it joined \
                     the cluster's own first-come-first-served queue."
                ),
            });
        }
    }

    /// A copy of `task` started on processor p (`replica`: not its first).
    #[cold]
    pub(super) fn tape_started(&mut self, task: u32, p: u32, replica: bool) {
        let now = self.queue.now();
        if let Some(rec) = self.tape.as_deref_mut() {
            rec.proc_bar[p as usize] = rec.bars.len() as u32;
            let ended = BarEnd::Running;
            rec.bars.push(Bar { task, row: p, rows: 1, start: now, end: now, ended, replica, continues: false });
        }
    }

    /// The copy on processor p ended now, as `how`.
    #[cold]
    pub(super) fn tape_ended(&mut self, p: u32, how: BarEnd) {
        let now = self.queue.now();
        if let Some(rec) = self.tape.as_deref_mut() {
            let b = std::mem::replace(&mut rec.proc_bar[p as usize], u32::MAX);
            if let Some(bar) = rec.bars.get_mut(b as usize) {
                bar.end = now;
                bar.ended = how;
            }
        }
    }

    /// How a story names RM r.
    fn rm_name(&self, r: usize) -> String {
        match self.cfg.architecture {
            Architecture::Csp => "the global resource manager".into(),
            _ => format!("cluster {}'s resource manager", self.clusters_spec[self.rms[r].managed[0] as usize].name),
        }
    }
}
