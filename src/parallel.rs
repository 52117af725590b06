//! One pool of threads for every batch of independent runs the CLI makes (sweeps, figure runs, figure bars):
//! items are taken in order by whichever thread is free, and the results come back in the items' order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The number of threads to use: `jobs`, or one per available core.
pub fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

/// `f(i, &items[i])` for every item on `jobs` threads; the results in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let cells: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(i, item);
                *cells[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    cells.into_iter().map(|c| c.into_inner().unwrap_or_else(|e| e.into_inner()).expect("every item was run")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_whatever_the_threads() {
        let items: Vec<u64> = (0..100).collect();
        for jobs in [1, 2, 7, 200] {
            let out = map(&items, jobs, |i, &x| (i as u64, x * x));
            assert_eq!(out, items.iter().map(|&x| (x, x * x)).collect::<Vec<_>>(), "jobs = {jobs}");
        }
        assert!(map(&Vec::<u8>::new(), 4, |_, &x| x).is_empty());
    }
}
