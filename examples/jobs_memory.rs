//! Peak heap per task of a run with and without its per-task records streamed (`bagsim run --jobs`, docs/jobs.md)
//! and with and without its schedule written as SWF (`bagsim run --swf`, docs/traces.md), for a scenario file of
//! any family: the rows and lines go to a sink, so only what a stream keeps in memory counts.
//! `cargo run --release --example jobs_memory -- scenario.json`
use bagsim::family::contract::{Budget, FamilyRun};
use bagsim::registry::AnyRun;
use bagsim::scenario::Scenario;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts live and peak heap bytes (as benches/engine.rs does).
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// What a run streams.
#[derive(Clone, Copy, PartialEq)]
enum Stream {
    Nothing,
    Jobs,
    Swf,
}

/// Peak heap bytes of building and running `s` to its end, and its tasks.
fn peak(s: &Scenario, stream: Stream) -> (usize, u64) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut run = AnyRun::build(s, None).expect("a valid scenario");
    match stream {
        Stream::Nothing => {}
        Stream::Jobs => run.stream_jobs(Box::new(std::io::sink())),
        Stream::Swf => run.stream_swf(Box::new(std::io::sink()), "memory"),
    }
    run.step(Budget::ToEnd);
    let tasks = run.header().tasks;
    match stream {
        Stream::Nothing => {}
        Stream::Jobs => drop(run.end_jobs().expect("streamed").expect("written")),
        Stream::Swf => drop(run.end_swf().expect("streamed").expect("written")),
    }
    (PEAK.load(Ordering::Relaxed) - base, tasks)
}

fn main() {
    let path = std::env::args().nth(1).expect("a scenario file");
    let s = Scenario::from_json(&std::fs::read_to_string(&path).expect("readable")).expect("valid");
    let (without, tasks) = peak(&s, Stream::Nothing);
    let (jobs, _) = peak(&s, Stream::Jobs);
    let (swf, _) = peak(&s, Stream::Swf);
    let per = |b: usize| b as f64 / tasks as f64;
    println!(
        "{} tasks: peak {:.1} B/task without --jobs, {:.1} B/task with (+{:.1}), {:.1} B/task with --swf (+{:.1})",
        tasks,
        per(without),
        per(jobs),
        per(jobs) - per(without),
        per(swf),
        per(swf) - per(without)
    );
}
