//! The data-grid run loop: job arrivals at the metascheduler, which asks every site for its earliest start or
//! finish and dispatches the job (`policy/`); starts at reservations; ends, which compress the site's schedule
//! or start a pass of its scheduler (`local.rs`, per local policy); and time-series samples.

mod jobs;
mod local;
mod schedule_swf;
mod tape;

use super::config::{BackfillRule, LocalPolicy};
use super::policy::{choose, ChooseSite, SchemePolicy, SiteOffer, SiteView};
use super::site::{Ask, Site};
use super::workload::Workload;
use crate::engine::{EventQueue, Model};
use crate::script::ScriptError;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug)]
enum Event {
    Arrive(u32),
    /// The earliest reservation of a site begins: its jobs due start; stale when the site's wake version differs
    /// (an arrival or a compression brought an earlier reservation). One pending wake per site, not one event per
    /// reservation, so that a compression that moves many reservations schedules one event.
    Wake(u32, u32),
    /// EASY: a queued job of the site may start from now on (dispatched, or its data arrived): a pass is due.
    Ready(u32),
    /// EASY: the site's scheduling pass, after every event already due at this time (ends first), so that a pass
    /// sees every processor given back at this instant.
    Pass(u32),
    End(u32),
    Sample,
}

/// What happened to one job; times in s. The per-job CSV and the Gantt view read these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    /// The job's index in the window (bagsim's own number).
    pub job: u32,
    /// The log's job number (field 1), to compare with the log or another simulator.
    #[serde(default)]
    pub log_job: i64,
    pub site: u32,
    pub procs: u32,
    pub submit: f64,
    /// Input data, MB (0: none).
    pub data_mb: f64,
    /// The transfer: from dispatch (finish_time_data_aware) or from the hold's start (the job moves its data).
    pub transfer_start: f64,
    pub transfer_end: f64,
    /// Start of the first reservation the site gave the job: the start it guaranteed (under EASY, the reservation
    /// it got as the first queued job, or its start when it backfilled before that).
    pub reservation: f64,
    /// The job took its processors, began computing, and gave them back.
    pub hold_start: f64,
    pub compute_start: f64,
    pub end: f64,
    pub runtime: f64,
    pub estimate: f64,
    /// Stopped at its requested time (walltime `kill`); `runtime` is then the request.
    #[serde(default)]
    pub killed: bool,
}

/// A job that has not ended, as the Gantt view draws it: running (from its start to its reservation's end) or
/// queued (its reservation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub job: u32,
    pub site: u32,
    pub procs: u32,
    pub start: f64,
    pub end: f64,
    pub running: bool,
}

/// A time-series sample.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub time: f64,
    /// Jobs waiting at each site.
    pub queued: Vec<u32>,
    /// Processors held at each site.
    pub busy: Vec<u32>,
    /// Jobs ended so far (finished, or stopped at their requested time under walltime `kill`).
    pub finished: u64,
    /// Mean turnaround of the jobs ended so far, s (0 before the first).
    pub mean_turnaround: f64,
}

/// The run's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub scheme: SchemePolicy,
    pub backfill_rule: BackfillRule,
    pub local_policy: LocalPolicy,
    pub dispatch_delay: f64,
    pub sample_interval: f64,
}

/// A job's state while it runs through the system.
#[derive(Clone, Copy, Debug, Default)]
struct State {
    ask: Option<Ask>,
    /// Current reservation [start, end) (EASY: the forecast until the job holds one).
    res: (f64, f64),
    /// When the job reaches its site.
    dispatch: f64,
    /// Whether the site has guaranteed it a start (a reservation in its profile, or its start).
    bound: bool,
}

/// A reservation start as a key that orders as the time does (times are finite and ≥ 0).
fn key(t: f64) -> u64 {
    t.to_bits()
}

/// The simulation of one data-grid run.
pub struct Simulation {
    settings: Settings,
    w: Workload,
    sites: Vec<Site>,
    queue: EventQueue<Event>,
    state: Vec<State>,
    records: Vec<JobRecord>,
    /// Jobs in the order they ended.
    ended: Vec<u32>,
    samples: Vec<Sample>,
    events: u64,
    turnaround_sum: f64,
    /// Largest reservation end given so far, s.
    latest: f64,
    /// Queued jobs placed again by compressions (the work of conservative backfilling besides its events).
    replacements: u64,
    /// Scratch space of `compress`: the queue it walks.
    queued_buffer: Vec<u32>,
    /// Compression queries that began past the compression's start, as an earlier job showed nothing fits before.
    skipped: u64,
    /// Whether compressions use what earlier jobs showed (off only to test that this changes nothing).
    skips: bool,
    /// Whether the job's data moves from dispatch on, while it queues (the scheme's).
    overlaps: bool,
    /// A user's scheme (None: the built-in `settings.scheme`), the sites' offers it reads, and why it failed.
    script: Option<Box<dyn ChooseSite>>,
    offers: Vec<SiteOffer>,
    failure: Option<ScriptError>,
    /// The per-job records, streamed as jobs end (`bagsim run --jobs`, docs/jobs.md); None when not asked for.
    jobs: Option<Box<jobs::JobLog>>,
    /// The schedule, written as SWF as jobs end (`bagsim run --swf`, docs/traces.md); None when not asked for.
    swf: Option<Box<schedule_swf::JobSwf>>,
    /// The run's tape (docs/story.md), recorded when asked; None when not.
    tape: Option<Box<tape::TapeRec>>,
}

impl Simulation {
    pub fn new(settings: Settings, processors: &[u32], w: Workload) -> Simulation {
        let mut queue = EventQueue::new();
        queue.reserve(w.jobs.len() * 3 + 16);
        for (j, job) in w.jobs.iter().enumerate() {
            // Submit times are finite and ≥ 0 by construction (shifted to the window's first job).
            let _ = queue.schedule(job.submit, Event::Arrive(j as u32));
        }
        let _ = queue.schedule(0.0, Event::Sample);
        let n = w.jobs.len();
        let records = w
            .jobs
            .iter()
            .enumerate()
            .map(|(j, job)| JobRecord {
                job: j as u32,
                log_job: job.id,
                procs: job.procs,
                submit: job.submit,
                data_mb: job.data_mb,
                runtime: job.runtime,
                estimate: job.estimate,
                killed: job.killed,
                ..JobRecord::default()
            })
            .collect();
        let script = settings.scheme.build();
        let overlaps = match (&settings.scheme, &script) {
            (SchemePolicy::Builtin(scheme), _) => scheme.overlaps(),
            (_, Some(script)) => script.overlaps(),
            (_, None) => false,
        };
        Simulation {
            sites: processors.iter().map(|&p| Site::new(p, settings.local_policy)).collect(),
            settings,
            queue,
            state: vec![State::default(); n],
            records,
            ended: Vec::with_capacity(n),
            samples: Vec::new(),
            events: 0,
            turnaround_sum: 0.0,
            latest: w.jobs.last().map_or(0.0, |j| j.submit),
            replacements: 0,
            queued_buffer: Vec::new(),
            skipped: 0,
            skips: true,
            overlaps,
            script,
            offers: Vec::new(),
            failure: None,
            jobs: None,
            swf: None,
            tape: None,
            w,
        }
    }

    /// Gives site k the batch scheduler `policies[k]` instead of the settings' one; before the first event only.
    pub fn set_policies(&mut self, policies: &[LocalPolicy]) {
        if self.events == 0 {
            for (site, &p) in self.sites.iter_mut().zip(policies) {
                site.policy = p;
            }
        }
    }

    /// Gives each site its backfill depth (`depths[k]` queued jobs, 0 = unbounded); before the first event only.
    pub fn set_depths(&mut self, depths: &[u32]) {
        if self.events == 0 {
            for (site, &d) in self.sites.iter_mut().zip(depths) {
                site.depth = if d == 0 { usize::MAX } else { d as usize };
            }
        }
    }

    pub fn now(&self) -> f64 {
        self.queue.now()
    }
    /// Queued jobs placed again by compressions so far.
    pub fn replacements(&self) -> u64 {
        self.replacements
    }
    /// Compression queries so far that began past the time asked, as an earlier job of the same compression had
    /// shown that nothing fits before (part of `replacements`).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }
    /// Lets compressions start each query where an earlier job showed nothing fits (the default), or scan every
    /// one from the time asked: the schedules are the same, which the tests check.
    pub fn set_compression_skips(&mut self, on: bool) {
        self.skips = on;
    }
    pub fn jobs(&self) -> usize {
        self.w.jobs.len()
    }
    /// Jobs that ended so far.
    pub fn finished_jobs(&self) -> usize {
        self.ended.len()
    }
    pub fn records(&self) -> &[JobRecord] {
        &self.records
    }
    /// Job indices in the order they ended.
    pub fn ended(&self) -> &[u32] {
        &self.ended
    }
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }
    pub fn workload(&self) -> &Workload {
        &self.w
    }
    /// The workload's warnings, to add to.
    pub fn warnings_mut(&mut self) -> &mut Vec<String> {
        &mut self.w.summary.warnings
    }
    /// The latest end of any reservation so far, s (the run ends by then unless jobs are still to arrive).
    pub fn horizon(&self) -> f64 {
        self.latest
    }
    pub fn queued(&self) -> u64 {
        self.sites.iter().map(|s| s.queue.len() as u64).sum()
    }
    pub fn busy(&self) -> u64 {
        self.sites.iter().map(|s| u64::from(s.busy)).sum()
    }
    /// The jobs running now and the first `queued` reservations of each site (earliest first).
    pub fn pending(&self, queued: usize) -> Vec<Pending> {
        let mut out = Vec::new();
        for (k, site) in self.sites.iter().enumerate() {
            for &j in &site.running {
                let (r, st) = (&self.records[j as usize], &self.state[j as usize]);
                out.push(Pending {
                    job: j,
                    site: k as u32,
                    procs: r.procs,
                    start: r.hold_start,
                    end: st.res.1,
                    running: true,
                });
            }
            for &(_, j) in site.starts.iter().take(queued) {
                let st = &self.state[j as usize];
                let procs = self.records[j as usize].procs;
                out.push(Pending { job: j, site: k as u32, procs, start: st.res.0, end: st.res.1, running: false });
            }
        }
        out
    }

    pub fn is_done(&self) -> bool {
        self.ended.len() == self.w.jobs.len()
    }

    /// Why a scripted scheme stopped the run, if it did.
    pub fn failure(&self) -> Option<&ScriptError> {
        self.failure.as_ref()
    }

    /// Plays one event; false when none is left.
    fn play(&mut self) -> bool {
        if self.is_done() {
            return false;
        }
        let Some((now, ev)) = self.queue.pop() else { return false };
        self.events += 1;
        match ev {
            Event::Arrive(j) => self.arrive(j as usize, now),
            Event::Wake(k, v) if self.sites[k as usize].wake.1 == v => self.wake(k as usize, now),
            Event::Wake(..) => {}
            Event::Ready(k) => self.request_pass(k as usize, now),
            Event::Pass(k) => {
                self.sites[k as usize].pass_due = false;
                self.easy_pass(k as usize, now);
            }
            Event::End(j) => self.end(j as usize, now),
            Event::Sample => {
                self.sample(now);
                if !self.is_done() {
                    // At most about a thousand more samples to the latest reservation's end: a job that runs for
                    // years must not fill the memory with samples of an idle stretch.
                    let step = self.settings.sample_interval.max((self.latest - now) / 1_000.0);
                    let _ = self.queue.schedule(now + step, Event::Sample);
                }
            }
        }
        if self.is_done() {
            self.sample(now);
        }
        true
    }

    fn arrive(&mut self, j: usize, now: f64) {
        let job = self.w.jobs[j];
        let dispatch = now + self.settings.dispatch_delay;
        for s in &mut self.sites {
            s.profile.trim(now);
        }
        let transfers: Vec<f64> = (0..self.sites.len()).map(|k| self.w.transfer(j, k)).collect();
        let widths: Vec<u32> = self.sites.iter().map(|s| s.profile.processors()).collect();
        // The sites' answers, kept for the tape's story only.
        let mut answers = self.tape.as_ref().map(|_| Vec::new());
        let (k, ask, hold) = match &self.settings.scheme {
            &SchemePolicy::Builtin(scheme) => choose(scheme, &widths, &job, &transfers, dispatch, |k, a| {
                let answer = self.answer(k, a, now);
                if let Some(v) = answers.as_mut() {
                    v.push((k, answer));
                }
                answer
            }),
            SchemePolicy::Script(_) => match self.scripted_choice(j, &widths, &transfers, dispatch, now) {
                Some(choice) => {
                    if let Some(v) = answers.as_mut() {
                        v.extend(self.offers.iter().enumerate().map(|(k, o)| (k, (o.start, o.finish))));
                    }
                    choice
                }
                None => return,
            },
        };
        self.latest = self.latest.max(hold.1);
        let r = &mut self.records[j];
        r.site = k as u32;
        if self.overlaps {
            r.transfer_start = dispatch;
            r.transfer_end = dispatch + transfers[k];
        }
        // The §III rule applies when the schedule is compressed; the first reservation starts once the data is
        // there (Eq. 3: T_start ≥ T1).
        let early = self.overlaps && self.settings.backfill_rule == BackfillRule::DataAware;
        self.state[j] = State { ask: Some(Ask { early, ..ask }), res: hold, dispatch, bound: false };
        self.dispatch_to(k, j, now);
        if let Some(answers) = answers {
            if self.tape.is_some() {
                self.tape_sent(j, k, &answers, now);
            }
        }
    }

    /// A scripted scheme's site for job `j`, with the ask and the hold that site answered, from every fitting site's
    /// answer (asked in site order, as the built-in schemes ask); None when the script failed (the run then ends).
    fn scripted_choice(
        &mut self,
        j: usize,
        widths: &[u32],
        transfers: &[f64],
        dispatch: f64,
        now: f64,
    ) -> Option<(usize, Ask, (f64, f64))> {
        let job = self.w.jobs[j];
        let mut offers = std::mem::take(&mut self.offers);
        offers.clear();
        for (k, &processors) in widths.iter().enumerate() {
            let ask = super::policy::ask(self.overlaps, &job, transfers[k], dispatch);
            let fits = job.procs <= processors;
            let (start, finish) = if fits { self.answer(k, &ask, now) } else { (f64::NAN, f64::NAN) };
            let site = &self.sites[k];
            let (queued, busy) = (site.queue.len() as u32, site.busy);
            offers.push(SiteOffer { processors, fits, transfer: transfers[k], start, finish, queued, busy, ask });
        }
        let script = self.script.as_mut().expect("a scripted scheme has its script");
        let view = SiteView { now, dispatch, job_index: j as u32, job: &job, sites: &offers };
        let choice = script.choose(&view).map(|k| (k, offers[k].ask, (offers[k].start, offers[k].finish)));
        if choice.is_none() {
            let none = || ScriptError::new(0, 0, "the scheme chose no site");
            self.failure = Some(script.failure().cloned().unwrap_or_else(none));
            // The run ends here: no event is left to play (the loop's per-event test stays the built-ins').
            self.queue = EventQueue::new();
            let _ = self.queue.advance_to(now);
        }
        self.offers = offers;
        choice
    }

    /// Schedules the site's wake at its earliest reservation, if that is earlier than the wake pending.
    fn rewake(&mut self, k: usize) {
        let site = &mut self.sites[k];
        let Some(&(bits, _)) = site.starts.first() else { return };
        let t = f64::from_bits(bits);
        if t < site.wake.0 {
            site.wake = (t, site.wake.1 + 1);
            let _ = self.queue.schedule(t, Event::Wake(k as u32, site.wake.1));
        }
    }

    /// The site's reservations that begin now start, in order of time and then of arrival.
    fn wake(&mut self, k: usize, now: f64) {
        self.sites[k].wake.0 = f64::INFINITY;
        if self.sites[k].policy == LocalPolicy::Easy {
            self.request_pass(k, now);
            return;
        }
        while let Some(&(bits, j)) = self.sites[k].starts.first() {
            if f64::from_bits(bits) > now {
                break;
            }
            self.sites[k].starts.pop_first();
            self.start(j as usize, now);
        }
        self.rewake(k);
    }

    fn start(&mut self, j: usize, now: f64) {
        let Some(ask) = self.state[j].ask else { return };
        let k = self.records[j].site as usize;
        let site = &mut self.sites[k];
        site.queue.remove(&(j as u32));
        site.running.insert(j as u32);
        site.busy += ask.procs;
        if let Some(log) = self.jobs.as_mut() {
            log.take(k, j as u32, ask.procs);
        }
        let job = self.w.jobs[j];
        let r = &mut self.records[j];
        r.hold_start = now;
        // Each end is computed as its reservation's end was (start + length), so that a job whose runtime equals
        // its estimate ends exactly where its reservation does, not a rounding later.
        if self.overlaps {
            r.compute_start = now.max(r.transfer_end);
            r.end = r.compute_start + job.runtime;
        } else {
            // The job moves its own data on its processors, then computes.
            let t = self.w.transfer(j, k);
            r.transfer_start = now;
            r.transfer_end = now + t;
            r.compute_start = r.transfer_end;
            r.end = now + (t + job.runtime);
        }
        let _ = self.queue.schedule(r.end, Event::End(j as u32));
        if self.tape.is_some() {
            self.tape_started(j, k, ask.procs);
        }
    }

    fn end(&mut self, j: usize, now: f64) {
        let k = self.records[j].site as usize;
        let procs = self.w.jobs[j].procs;
        let reserved_end = self.state[j].res.1;
        self.sites[k].busy -= procs;
        self.sites[k].running.remove(&(j as u32));
        self.ended.push(j as u32);
        if self.jobs.is_some() {
            self.write_job(j);
        }
        if self.swf.is_some() {
            self.swf_ended(j);
        }
        if self.tape.is_some() {
            self.tape_ended(j, k, self.records[j].killed);
        }
        self.turnaround_sum += now - self.records[j].submit;
        if now < reserved_end {
            self.sites[k].profile.release(now, reserved_end, procs);
            if self.sites[k].policy != LocalPolicy::Easy {
                self.compress(k, now);
            }
        }
        if self.sites[k].policy == LocalPolicy::Easy {
            self.request_pass(k, now);
        }
    }

    fn sample(&mut self, now: f64) {
        if self.samples.last().is_some_and(|s| s.time == now) {
            self.samples.pop();
        }
        let n = self.ended.len();
        self.samples.push(Sample {
            time: now,
            queued: self.sites.iter().map(|s| s.queue.len() as u32).collect(),
            busy: self.sites.iter().map(|s| s.busy).collect(),
            finished: n as u64,
            mean_turnaround: if n > 0 { self.turnaround_sum / n as f64 } else { 0.0 },
        });
    }
}

/// The run loop (`engine::Model`): the next event is the queue's head (arrivals, wake-ups, passes, ends and
/// samples are all events); the run is over when every job ended or nothing is left to play.
impl Model for Simulation {
    fn step(&mut self) {
        self.play();
    }

    fn next_time(&self) -> Option<f64> {
        self.queue.peek_key().map(|k| k.0)
    }

    /// Every job ended, or nothing is left to play (a scripted scheme that failed empties the queue, so the loop
    /// tests nothing more per event).
    fn is_over(&self) -> bool {
        self.is_done() || self.queue.peek_key().is_none()
    }

    fn events(&self) -> u64 {
        self.events
    }
}
