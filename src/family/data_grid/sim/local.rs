//! The sites' batch schedulers (docs/data_grid.md, "Local schedulers"): what a site answers the metascheduler, how
//! it takes a job in, and what it does when a job ends early or may start.
//!
//! - Conservative backfilling: every queued job holds a reservation, placed at its earliest start when it arrives;
//!   an early end compresses the schedule (each queued job, in order of arrival, moved to its earliest start if
//!   that is earlier). The site answers with the reservation it would give: a promise.
//! - FCFS: the same, but no job's reservation starts before that of a job which reached the site earlier; the
//!   answer is a promise too.
//! - EASY: only the first queued job (the head) holds a reservation; at every event of the site, the head starts
//!   if it can, and then each later job, in order of arrival, starts now if it fits beside the running jobs and the
//!   head's reservation. Only the head is promised a start, so the site answers with a forecast: where the job
//!   would go if every queued job took, in order of arrival, the earliest place conservative backfilling would give
//!   it (the plan). With an empty queue the forecast is the reservation the job would get as head: a promise.
//!   A pass runs after every event due at its instant, so that it sees every job that ended then.
//! - A backfill depth d (Slurm's `bf_max_job_test`) bounds each of these to the first d queued jobs: an EASY pass
//!   tries at most d − 1 jobs behind the head, a compression re-places only the first d (the others keep their
//!   reservations, which stay valid), and a forecast places only the first d before the new job.

use super::{key, Event, Simulation};
use crate::family::data_grid::config::LocalPolicy;
use crate::family::data_grid::site::Ask;

impl Simulation {
    /// Site `k`'s answer for `ask` at time `now`: the hold [start, end) it can promise (conservative, FCFS) or
    /// forecast (EASY).
    pub(super) fn answer(&mut self, k: usize, ask: &Ask, now: f64) -> (f64, f64) {
        let from = now + self.settings.dispatch_delay;
        match self.sites[k].policy {
            LocalPolicy::Conservative => ask.place(&self.sites[k].profile, from),
            LocalPolicy::Fcfs => ask.place(&self.sites[k].profile, from.max(self.fcfs_bound(k))),
            LocalPolicy::Easy if self.sites[k].queue.is_empty() => ask.place(&self.sites[k].profile, from),
            LocalPolicy::Easy => {
                self.build_plan(k, now);
                let site = &self.sites[k];
                ask.place(site.plan.as_ref().unwrap_or(&site.profile), from)
            }
        }
    }

    /// FCFS: the start of the reservation of the job that reached site `k` last (none starts before it).
    fn fcfs_bound(&self, k: usize) -> f64 {
        self.sites[k].queue.last().map_or(f64::NEG_INFINITY, |&j| self.state[j as usize].res.0)
    }

    /// EASY: builds site `k`'s plan if it has none: its profile (running jobs and the head's reservation) with
    /// every later queued job within the site's depth placed in order of arrival.
    fn build_plan(&mut self, k: usize, now: f64) {
        if self.sites[k].plan.is_some() {
            return;
        }
        let site = &self.sites[k];
        let mut plan = site.profile.clone();
        let mut placed = 0;
        for &j in site.queue.iter().take(site.depth).skip(1) {
            let st = &self.state[j as usize];
            placed += 1;
            let Some(ask) = st.ask else { continue };
            let (start, end) = ask.place(&plan, now.max(st.dispatch));
            plan.reserve(start, end, ask.procs);
        }
        self.replacements += placed;
        self.sites[k].plan = Some(plan);
    }

    /// Takes job `j` in at site `k` (its state holds its ask, the answer the site gave and its dispatch time).
    pub(super) fn dispatch_to(&mut self, k: usize, j: usize, now: f64) {
        let st = self.state[j];
        let Some(ask) = st.ask else { return };
        let site = &mut self.sites[k];
        if site.policy != LocalPolicy::Easy {
            let (start, end) = st.res;
            site.profile.reserve(start, end, ask.procs);
            site.queue.insert(j as u32);
            site.starts.insert((key(start), j as u32));
            self.state[j].bound = true;
            self.records[j].reservation = start;
            self.rewake(k);
            return;
        }
        match site.plan.as_mut() {
            // Appended behind the others within the depth, the job takes in the plan the place it was forecast;
            // beyond it, the plan (the first `depth` queued jobs) stays as it is.
            Some(plan) if !site.queue.is_empty() && site.queue.len() < site.depth => {
                plan.reserve(st.res.0, st.res.1, ask.procs)
            }
            Some(_) if !site.queue.is_empty() => {}
            _ => site.plan = None,
        }
        site.queue.insert(j as u32);
        // A pass when the job reaches the site and when its data is in, so that it may start then.
        for t in [st.dispatch, ask.data_at] {
            if t > now {
                let _ = self.queue.schedule(t, Event::Ready(k as u32));
            }
        }
        self.request_pass(k, now);
    }

    /// EASY: schedules a pass of site `k` at `now` unless one is due.
    pub(super) fn request_pass(&mut self, k: usize, now: f64) {
        if !self.sites[k].pass_due {
            self.sites[k].pass_due = true;
            let _ = self.queue.schedule(now, Event::Pass(k as u32));
        }
    }

    /// Conservative backfilling's compression at site `k` (and FCFS's, keeping the order of arrival): each queued
    /// job within the site's depth, in order of arrival, is taken out of the profile and put back at its earliest
    /// hold, never later than the one it had.
    ///
    /// A query may begin later than the time asked, with the same answer: when an earlier job of the pass (one of
    /// the latest `KNOWN`) found no start in [from, x) before its reservation, a job no narrower, no shorter,
    /// reserved no earlier and asked from no earlier finds none there either (each of its windows contains one of
    /// the earlier job's, which met a step short of processors). Only rising free counts before the earlier job's
    /// reservation void that, and they rise only where a moved job was; a job's own move frees time after its
    /// reservation only.
    pub(super) fn compress(&mut self, k: usize, now: f64) {
        self.sites[k].profile.trim(now);
        let ordered = self.sites[k].policy == LocalPolicy::Fcfs;
        // The queue is copied out (the loop changes reservations while it walks it) into a buffer kept across
        // compressions, so that a compression allocates nothing.
        let mut queued = std::mem::take(&mut self.queued_buffer);
        queued.clear();
        queued.extend(self.sites[k].queue.iter().take(self.sites[k].depth).copied());
        self.replacements += queued.len() as u64;
        let mut bound = f64::NEG_INFINITY;
        // What the latest jobs of this pass found not to fit, oldest replaced first.
        let mut known = [None::<NoFit>; KNOWN];
        let mut oldest = 0;
        for &j in &queued {
            let j = j as usize;
            let st = self.state[j];
            let Some(ask) = st.ask else { continue };
            let from = if ordered { now.max(st.dispatch).max(bound) } else { now.max(st.dispatch) };
            let profile = &mut self.sites[k].profile;
            let (start, end) = if ask.early && ask.data_at > from {
                // A hold that may begin before its data: taken out and placed again.
                profile.release(st.res.0, st.res.1, ask.procs);
                let (start, end) = ask.place(profile, from);
                let hold = if start < st.res.0 { (start, end) } else { st.res };
                profile.reserve(hold.0, hold.1, ask.procs);
                hold
            } else {
                let from = from.max(ask.data_at);
                let asked = NoFit { procs: ask.procs, len: ask.len, limit: st.res.0, from, until: from };
                // What an earlier job of this compression found not to fit does not fit this one either.
                let scan_from = if self.skips {
                    known.iter().flatten().filter(|n| n.covers(&asked)).fold(from, |s, n| s.max(n.until))
                } else {
                    from
                };
                // Asked in place, without taking the hold out: most queued jobs cannot move and cost one query.
                let found = profile.earlier_start(scan_from, ask.procs, ask.len, st.res.0);
                self.skipped += u64::from(scan_from > from);
                known[oldest] = Some(NoFit { until: found.unwrap_or(st.res.0), ..asked });
                oldest = (oldest + 1) % KNOWN;
                match found {
                    Some(start) => {
                        profile.release(st.res.0, st.res.1, ask.procs);
                        profile.reserve(start, start + ask.len, ask.procs);
                        (start, start + ask.len)
                    }
                    None => st.res,
                }
            };
            bound = start;
            if start != st.res.0 {
                if self.tape.is_some() {
                    self.tape_moved(j, k, st.res.0, start);
                }
                // Processors rose where the job was: from there on, what was found not to fit may fit.
                let vacated = st.res.0.max(end);
                for n in &mut known {
                    if n.is_some_and(|n| vacated < n.limit) {
                        *n = None;
                    }
                }
                let site = &mut self.sites[k];
                site.starts.remove(&(key(st.res.0), j as u32));
                site.starts.insert((key(start), j as u32));
                self.state[j].res = (start, end);
            }
        }
        self.queued_buffer = queued;
        self.rewake(k);
    }

    /// EASY's scheduling pass at site `k`: the head starts while it can, else (re)takes its earliest reservation;
    /// then every later queued job that has reached the site starts now if it fits beside the running jobs and the
    /// head's reservation, in order of arrival.
    pub(super) fn easy_pass(&mut self, k: usize, now: f64) {
        if self.sites[k].policy != LocalPolicy::Easy {
            return;
        }
        self.sites[k].profile.trim(now);
        let mut changed = false;
        while let Some(&h) = self.sites[k].queue.first() {
            let h = h as usize;
            let st = self.state[h];
            let Some(ask) = st.ask else { break };
            let site = &mut self.sites[k];
            if st.bound {
                site.profile.release(st.res.0, st.res.1, ask.procs);
                site.starts.remove(&(key(st.res.0), h as u32));
            }
            // Running jobs end by their estimates, so the head's place is never later than before.
            let (start, end) = ask.place(&site.profile, now.max(st.dispatch));
            site.profile.reserve(start, end, ask.procs);
            changed |= !st.bound || start != st.res.0;
            self.state[h].res = (start, end);
            if !st.bound {
                self.state[h].bound = true;
                self.records[h].reservation = start;
            }
            if self.tape.is_some() && start > now && (!st.bound || start != st.res.0) {
                self.tape_head_reserved(h, k, start);
            }
            if start > now {
                self.sites[k].starts.insert((key(start), h as u32));
                break;
            }
            self.start(h, now);
        }
        // Up to depth − 1 jobs behind the head, copied into the buffer kept across passes (the loop starts jobs).
        let mut later = std::mem::take(&mut self.queued_buffer);
        later.clear();
        later.extend(self.sites[k].queue.iter().take(self.sites[k].depth).skip(1).copied());
        for &j in &later {
            let free = self.sites[k].profile.free_at(now);
            if free == 0 {
                break;
            }
            let j = j as usize;
            let st = self.state[j];
            let Some(ask) = st.ask else { continue };
            if ask.procs > free || st.dispatch > now {
                continue;
            }
            self.replacements += 1;
            let profile = &mut self.sites[k].profile;
            let (start, end) = ask.place(profile, now);
            if start > now {
                continue;
            }
            profile.reserve(start, end, ask.procs);
            self.state[j].res = (start, end);
            self.state[j].bound = true;
            self.records[j].reservation = start;
            self.start(j, now);
            changed = true;
        }
        self.queued_buffer = later;
        if changed {
            self.sites[k].plan = None;
        }
        self.rewake(k);
    }
}

/// How many of the latest queued jobs' findings a compression keeps: a job is covered by (no narrower, shorter or
/// earlier than) the previous job about a third of the time, and by one of the latest eight more often.
const KNOWN: usize = 8;

/// What a compression learnt from one queued job: no hold of `procs` processors for `len` fitted before `limit` at
/// any start in [`from`, `until`), on the profile as it is, as long as no processors rose before `limit` since.
#[derive(Clone, Copy, Debug)]
struct NoFit {
    procs: u32,
    len: f64,
    limit: f64,
    from: f64,
    until: f64,
}

impl NoFit {
    /// Whether this also holds for `other`: a start that fitted `other` before its limit would fit this job
    /// before its own, as `other` is no narrower, no shorter, reserved no earlier and asked from no earlier.
    fn covers(&self, other: &NoFit) -> bool {
        other.procs >= self.procs && other.len >= self.len && other.limit >= self.limit && other.from >= self.from
    }
}
