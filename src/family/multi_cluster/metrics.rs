//! The report of a run: per BoT, per size class, per task, per user, over time and system-wide (docs/model.md,
//! "Metrics"). Every figure states its formula and unit; unfinished work is counted, never dropped.

use crate::family::multi_cluster::sim::{Outcome, Sample};
use crate::stats::{note_empty, note_undefined, Stats, Undefined};
use crate::workload::size_class::{size_class, SIZE_CLASSES};
use serde::{Deserialize, Serialize};

/// BoT-level figures of a group of BoTs (a size class, or all).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotGroup {
    /// Class name ("1", "2-4", …, "1000+", "Small" = 2–9, "Medium" = 10–49, or "all").
    pub class: String,
    /// BoTs that arrived.
    pub bots: u64,
    /// BoTs whose every task finished.
    pub finished: u64,
    /// Makespan MS = latest task completion − submission, s ([Iosup08] §4.1; the turnaround time TT of [Anglano09]).
    pub makespan: Stats,
    /// NSL = MS / Σ task runtimes on the reference processor ([Iosup08] §4.1).
    pub nsl: Stats,
    /// Waiting time WT = first task start − submission, s ([Anglano09] Eq. 1).
    pub wait: Stats,
    /// Execution makespan = latest completion − first start, s ([Anglano09]: TT = WT + execution makespan).
    pub exec_makespan: Stats,
}

/// Per-task figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskFigures {
    pub tasks: u64,
    pub finished: u64,
    /// finished / tasks.
    pub finished_fraction: f64,
    /// Tasks never started by the end of the run.
    pub unstarted: u64,
    /// Tasks started but unfinished at the end of the run.
    pub running_at_end: u64,
    /// Wait = first start of any copy − submission, s (started tasks).
    pub wait: Stats,
    /// Response = completion − submission, s (finished tasks).
    pub response: Stats,
    /// Slowdown = response / runtime on the reference processor (finished tasks; < 1 is possible on fast processors).
    pub slowdown: Stats,
    /// Goodput: CPU-seconds of the copies that completed their task.
    pub goodput: f64,
    /// CPU-seconds of replicas cancelled because another copy finished first.
    pub wasted: f64,
    /// RWT = wasted / (goodput + wasted): the share of computation spent on useless replicas ([Anglano09] §IV);
    /// undefined when no copy ran to an end or a cancellation.
    #[serde(
        default = "crate::stats::undefined",
        skip_serializing_if = "crate::stats::is_undefined",
        deserialize_with = "crate::stats::number_or_undefined"
    )]
    pub rwt: f64,
    pub replicas_started: u64,
    pub replicas_cancelled: u64,
}

/// Per-user figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserFigures {
    /// 0-based id; Zipf rank = user + 1.
    pub user: u32,
    pub bots: u64,
    pub tasks: u64,
    pub finished_tasks: u64,
    /// CPU-seconds consumed by the user's copies (finished, cancelled and, at the horizon, running).
    pub consumption: f64,
    /// Mean task wait, s.
    #[serde(
        default = "crate::stats::undefined",
        skip_serializing_if = "crate::stats::is_undefined",
        deserialize_with = "crate::stats::number_or_undefined"
    )]
    pub mean_wait: f64,
    /// Medernach's normalized waiting time = mean wait / (tasks × mean task runtime) ([Medernach05] Eq. 4.1).
    #[serde(
        default = "crate::stats::undefined",
        skip_serializing_if = "crate::stats::is_undefined",
        deserialize_with = "crate::stats::number_or_undefined"
    )]
    pub normalized_wait: f64,
    /// Mean task slowdown (finished tasks).
    #[serde(
        default = "crate::stats::undefined",
        skip_serializing_if = "crate::stats::is_undefined",
        deserialize_with = "crate::stats::number_or_undefined"
    )]
    pub mean_slowdown: f64,
}

/// System-wide figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemFigures {
    /// Time the run ended, s (all work done, or the horizon).
    pub end_time: f64,
    /// Busy processor-seconds / (processors × end time), replicas included: over the whole run, drain included.
    pub utilization: f64,
    /// The first and the last BoT's submission, s: the submission period a user reads the load over.
    #[serde(default = "crate::stats::undefined", skip_serializing_if = "crate::stats::is_undefined")]
    pub first_submission: f64,
    #[serde(default = "crate::stats::undefined", skip_serializing_if = "crate::stats::is_undefined")]
    pub last_submission: f64,
    /// Busy processor-seconds / (processors × (last − first submission)), replicas included: the utilization while
    /// work was being submitted, the one the load (work submitted over capacity in that period) predicts.
    #[serde(default = "crate::stats::undefined", skip_serializing_if = "crate::stats::is_undefined")]
    pub utilization_submitting: f64,
    /// The same after the last submission to the end of the run (the drain); undefined with no time after it.
    #[serde(default = "crate::stats::undefined", skip_serializing_if = "crate::stats::is_undefined")]
    pub utilization_drain: f64,
    pub processors: u64,
    /// Events processed (arrivals, completions, periodic passes, monitoring refreshes).
    pub events: u64,
    /// Completion events of cancelled replicas, skipped.
    pub stale_events: u64,
    /// Jain's fairness index over the users' mean task slowdowns, (Σx)² / (n·Σx²), 1 = perfectly fair.
    #[serde(
        default = "crate::stats::undefined",
        skip_serializing_if = "crate::stats::is_undefined",
        deserialize_with = "crate::stats::number_or_undefined"
    )]
    pub jain_slowdown: f64,
}

/// Everything measured about one run (the CLI's JSON report adds the scenario and the workload summary).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub overall: BotGroup,
    /// One row per size class that has BoTs, in class order, then "Small" and "Medium".
    pub per_class: Vec<BotGroup>,
    pub tasks: TaskFigures,
    pub users: Vec<UserFigures>,
    pub system: SystemFigures,
    /// Time series, sampled every `sample_interval` seconds.
    pub series: Vec<Sample>,
    /// Why a number is absent from this report, by its path (README, "Undefined numbers"): e.g. `"overall.makespan":
    /// "no BoT finished"`. Absent when every number is defined.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub undefined: crate::stats::Undefined,
}

/// BoT-level raw values.
struct BotRow {
    size: u32,
    finished: bool,
    makespan: f64,
    nsl: f64,
    wait: f64,
    exec: f64,
}

fn group(class: &str, rows: &[&BotRow]) -> BotGroup {
    let fin: Vec<&&BotRow> = rows.iter().filter(|r| r.finished).collect();
    let mut ms: Vec<f64> = fin.iter().map(|r| r.makespan).collect();
    let mut nsl: Vec<f64> = fin.iter().map(|r| r.nsl).collect();
    let mut ex: Vec<f64> = fin.iter().map(|r| r.exec).collect();
    let mut wait: Vec<f64> = rows.iter().filter(|r| !r.wait.is_nan()).map(|r| r.wait).collect();
    BotGroup {
        class: class.to_string(),
        bots: rows.len() as u64,
        finished: fin.len() as u64,
        makespan: Stats::of(&mut ms),
        nsl: Stats::of(&mut nsl),
        wait: Stats::of(&mut wait),
        exec_makespan: Stats::of(&mut ex),
    }
}

/// Computes the metrics from a run's outcome.
pub fn compute(o: &Outcome) -> Metrics {
    let w = o.workload;
    let n_users = o.users.done_cpu.len();
    let mut rows = Vec::with_capacity(w.bots.len());
    let mut unstarted = 0u64;
    let mut running_at_end = 0u64;
    let mut finished = 0u64;
    let mut u_bots = vec![0u64; n_users];
    let mut u_tasks = vec![0u64; n_users];
    let mut u_fin = vec![0u64; n_users];
    let mut u_wait = vec![(0.0f64, 0u64); n_users];
    let mut u_runtime = vec![0.0f64; n_users];
    let mut u_slow = vec![(0.0f64, 0u64); n_users];
    for b in &w.bots {
        let (first, end) = (b.first_task as usize, (b.first_task + b.size) as usize);
        let u = b.user as usize;
        u_bots[u] += 1;
        u_tasks[u] += u64::from(b.size);
        let mut first_start = f64::INFINITY;
        let mut last_end = f64::NEG_INFINITY;
        let mut all_done = true;
        let mut work = 0.0;
        for t in first..end {
            let r = w.runtimes[t];
            work += r;
            u_runtime[u] += r;
            let (s, e) = (o.task_start[t], o.task_end[t]);
            if s.is_nan() {
                unstarted += 1;
                all_done = false;
                continue;
            }
            first_start = first_start.min(s);
            u_wait[u].0 += s - b.arrival;
            u_wait[u].1 += 1;
            if e.is_nan() {
                running_at_end += 1;
                all_done = false;
            } else {
                finished += 1;
                u_fin[u] += 1;
                last_end = last_end.max(e);
                u_slow[u].0 += (e - b.arrival) / r;
                u_slow[u].1 += 1;
            }
        }
        let makespan = last_end - b.arrival;
        rows.push(BotRow {
            size: b.size,
            finished: all_done,
            makespan,
            nsl: makespan / work,
            wait: if first_start.is_finite() { first_start - b.arrival } else { f64::NAN },
            exec: last_end - first_start,
        });
    }
    let all: Vec<&BotRow> = rows.iter().collect();
    let overall = group("all", &all);
    let mut per_class = Vec::new();
    for &(name, lo, hi) in &SIZE_CLASSES {
        let members: Vec<&BotRow> = rows.iter().filter(|r| r.size >= lo && r.size <= hi).collect();
        if !members.is_empty() {
            per_class.push(group(name, &members));
        }
    }
    for (name, lo, hi) in [("Small", 2, 9), ("Medium", 10, 49)] {
        let members: Vec<&BotRow> = rows.iter().filter(|r| r.size >= lo && r.size <= hi).collect();
        if !members.is_empty() {
            per_class.push(group(name, &members));
        }
    }
    // Per-task distributions one at a time through one buffer, to keep the report's memory at 8 B per task.
    let mut buffer = Vec::with_capacity(w.tasks());
    let mut task_stats = |f: &dyn Fn(f64, f64, f64, f64) -> f64| {
        buffer.clear();
        for b in &w.bots {
            for t in b.first_task as usize..(b.first_task + b.size) as usize {
                let x = f(b.arrival, o.task_start[t], o.task_end[t], w.runtimes[t]);
                if !x.is_nan() {
                    buffer.push(x);
                }
            }
        }
        Stats::of(&mut buffer)
    };
    let wait_stats = task_stats(&|arrival, start, _, _| start - arrival);
    let response_stats = task_stats(&|arrival, _, end, _| end - arrival);
    let slowdown_stats = task_stats(&|arrival, _, end, runtime| (end - arrival) / runtime);
    let tasks = w.tasks() as u64;
    let goodput = o.useful_cpu;
    let wasted = o.wasted_cpu;
    let task_figures = TaskFigures {
        tasks,
        finished,
        finished_fraction: if tasks == 0 { 1.0 } else { finished as f64 / tasks as f64 },
        unstarted,
        running_at_end,
        wait: wait_stats,
        response: response_stats,
        slowdown: slowdown_stats,
        goodput,
        wasted,
        rwt: if goodput + wasted > 0.0 { wasted / (goodput + wasted) } else { f64::NAN },
        replicas_started: o.replicas_started,
        replicas_cancelled: o.replicas_cancelled,
    };
    let mut users = Vec::new();
    for u in 0..n_users {
        if u_bots[u] == 0 {
            continue;
        }
        let mean_wait = if u_wait[u].1 > 0 { u_wait[u].0 / u_wait[u].1 as f64 } else { f64::NAN };
        let mean_runtime = u_runtime[u] / u_tasks[u] as f64;
        users.push(UserFigures {
            user: u as u32,
            bots: u_bots[u],
            tasks: u_tasks[u],
            finished_tasks: u_fin[u],
            consumption: o.users.done_cpu[u],
            mean_wait,
            normalized_wait: mean_wait / (u_tasks[u] as f64 * mean_runtime),
            mean_slowdown: if u_slow[u].1 > 0 { u_slow[u].0 / u_slow[u].1 as f64 } else { f64::NAN },
        });
    }
    let xs: Vec<f64> = users.iter().map(|u| u.mean_slowdown).filter(|x| x.is_finite()).collect();
    let jain = if xs.is_empty() {
        f64::NAN
    } else {
        let s: f64 = xs.iter().sum();
        let s2: f64 = xs.iter().map(|x| x * x).sum();
        s * s / (xs.len() as f64 * s2)
    };
    let processors: u64 = o.clusters.iter().map(|c| u64::from(c.processors)).sum();
    let first = o.workload.bots.first().map_or(f64::NAN, |b| b.arrival);
    let last = o.workload.bots.last().map_or(f64::NAN, |b| b.arrival);
    let capacity = |from: f64, to: f64| if to > from { processors as f64 * (to - from) } else { f64::NAN };
    let submitted = if o.submitted_area.is_finite() { o.submitted_area } else { f64::NAN };
    let system = SystemFigures {
        end_time: o.end_time,
        utilization: if o.end_time > 0.0 { o.busy_area / (processors as f64 * o.end_time) } else { 0.0 },
        first_submission: first,
        last_submission: last,
        utilization_submitting: submitted / capacity(first, last),
        utilization_drain: (o.busy_area - submitted) / capacity(last, o.end_time),
        processors,
        events: o.events,
        stale_events: o.stale_events,
        jain_slowdown: jain,
    };
    let mut undefined = Undefined::new();
    let submitting = if !submitted.is_finite() {
        "the run ended before the last submission"
    } else {
        "all BoTs were submitted at one instant"
    };
    note_undefined(&mut undefined, "system.utilization_submitting", system.utilization_submitting, submitting);
    let drain = if !submitted.is_finite() { submitting } else { "the run ended at the last submission" };
    note_undefined(&mut undefined, "system.utilization_drain", system.utilization_drain, drain);
    for (at, g) in std::iter::once(("overall".to_string(), &overall))
        .chain(per_class.iter().enumerate().map(|(i, g)| (format!("per_class[{i}]"), g)))
    {
        let of = if at == "overall" { String::new() } else { format!(" of class {}", g.class) };
        for (name, stats) in [("makespan", &g.makespan), ("nsl", &g.nsl), ("exec_makespan", &g.exec_makespan)] {
            note_empty(&mut undefined, &format!("{at}.{name}"), stats, &format!("no BoT{of} finished"));
        }
        note_empty(&mut undefined, &format!("{at}.wait"), &g.wait, &format!("no BoT{of} started"));
    }
    note_empty(&mut undefined, "tasks.wait", &task_figures.wait, "no task started");
    note_empty(&mut undefined, "tasks.response", &task_figures.response, "no task finished");
    note_empty(&mut undefined, "tasks.slowdown", &task_figures.slowdown, "no task finished");
    note_undefined(&mut undefined, "tasks.rwt", task_figures.rwt, "no copy of a task ran to its end or a cancellation");
    if users.iter().any(|u| !u.mean_wait.is_finite() || !u.normalized_wait.is_finite()) {
        undefined.insert("users[].mean_wait".into(), "absent for a user none of whose tasks started".into());
    }
    if users.iter().any(|u| !u.mean_slowdown.is_finite()) {
        undefined.insert("users[].mean_slowdown".into(), "absent for a user none of whose tasks finished".into());
    }
    note_undefined(&mut undefined, "system.jain_slowdown", system.jain_slowdown, "no user has a finished task");
    Metrics { overall, per_class, tasks: task_figures, users, system, series: o.samples.to_vec(), undefined }
}

/// One line per BoT: bot, user, size, arrival, first start, last completion (s), makespan (s), NSL, finished.
/// Unfinished BoTs have empty completion, makespan and NSL.
pub fn bots_csv(o: &Outcome) -> String {
    use std::fmt::Write;
    let w = o.workload;
    let mut out = String::from("bot,user,size,size_class,arrival_s,first_start_s,last_end_s,makespan_s,nsl,finished\n");
    for (i, b) in w.bots.iter().enumerate() {
        let range = b.first_task as usize..(b.first_task + b.size) as usize;
        let first = o.task_start[range.clone()].iter().copied().filter(|x| !x.is_nan()).fold(f64::INFINITY, f64::min);
        let done = o.task_end[range.clone()].iter().all(|x| !x.is_nan());
        let last = o.task_end[range.clone()].iter().copied().filter(|x| !x.is_nan()).fold(f64::NEG_INFINITY, f64::max);
        let work: f64 = w.runtimes[range].iter().sum();
        let first = if first.is_finite() { first.to_string() } else { String::new() };
        let (last, ms, nsl) = if done {
            (last.to_string(), (last - b.arrival).to_string(), ((last - b.arrival) / work).to_string())
        } else {
            (String::new(), String::new(), String::new())
        };
        let _ = writeln!(
            out,
            "{i},{},{},{},{},{first},{last},{ms},{nsl},{done}",
            b.user,
            b.size,
            size_class(b.size),
            b.arrival
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_csv_marks_unfinished_bots() {
        use crate::family::multi_cluster::sim::{Outcome, UserAccounts};
        use crate::workload::{Bot, Workload};
        let w = Workload {
            bots: vec![
                Bot { arrival: 0.0, user: 0, first_task: 0, size: 2, art: f64::NAN, rtv: f64::NAN, home: None },
                Bot { arrival: 5.0, user: 1, first_task: 2, size: 1, art: f64::NAN, rtv: f64::NAN, home: None },
            ],
            runtimes: vec![10.0, 30.0, 7.0],
            users: 2,
            ..Workload::default()
        };
        let users = UserAccounts { done_cpu: vec![0.0; 2], running: vec![0; 2], start_sum: vec![0.0; 2] };
        let o = Outcome {
            workload: &w,
            clusters: &[],
            task_start: &[0.0, 1.0, f64::NAN],
            task_end: &[10.0, 31.0, f64::NAN],
            users: &users,
            end_time: 40.0,
            busy_area: 0.0,
            submitted_area: 0.0,
            useful_cpu: 0.0,
            wasted_cpu: 0.0,
            replicas_started: 0,
            replicas_cancelled: 0,
            events: 0,
            stale_events: 0,
            samples: &[],
            finished_bots: &[0],
        };
        let csv = bots_csv(&o);
        let lines: Vec<&str> = csv.lines().collect();
        // BoT 0: makespan 31 - 0 = 31, NSL 31 / 40.
        assert_eq!(lines[1], "0,0,2,2-4,0,0,31,31,0.775,true");
        assert_eq!(lines[2], "1,1,1,1,5,,,,,false");
    }
}
