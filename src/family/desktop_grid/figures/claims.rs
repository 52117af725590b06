//! The findings of [Anglano09] §IV-C that a figure's bars can test, with our numbers and a verdict. An ordering of
//! two bars counts only where it is resolved: both bounded with 95% intervals apart, or one bounded and the other
//! unbounded (docs/desktop_grid.md, "Saturation of a bar"); otherwise the finding is "not resolved". "Practically
//! identical" means turnaround times within 10% of each other, or both unbounded (the threshold of [Iosup08]'s
//! "almost identical" in docs/model.md, written before any run). A finding that compares a bar in which no seed
//! finished a BoT is "no data", never a verdict.

use super::{Bar, FigurePreset, Saturation};
use crate::family::desktop_grid::policy::BotSelection::{self, *};
use crate::family::desktop_grid::workload::Mix;
use crate::stats::{Claim, Interval, Parting, Verdict};
use std::cmp::Ordering;

/// The bar of a mix and a policy among a figure's bars.
fn bar(bars: &[Bar], mix: Mix, p: BotSelection) -> Option<&Bar> {
    bars.iter().find(|b| b.mix == mix && b.policy.builtin() == Some(p))
}

fn interval(x: (f64, f64, f64), n: usize) -> Interval {
    Interval { mean: x.0, low: x.1, high: x.2, n }
}

/// How the turnaround of `a` stands to `b`'s, where resolved: Less = a is better (lower).
fn tt_order(a: &Bar, b: &Bar) -> Option<Ordering> {
    use Saturation::*;
    match (a.saturation, b.saturation) {
        (Bounded, Unbounded) => Some(Ordering::Less),
        (Unbounded, Bounded) => Some(Ordering::Greater),
        (Bounded, Bounded) => {
            let (x, y) = (interval(a.turnaround, a.seeds), interval(b.turnaround, b.seeds));
            x.separated_from(&y).then(|| x.mean.total_cmp(&y.mean))
        }
        _ => None,
    }
}

/// Whether a bar has data: some seed of it finished a BoT (it has a mean turnaround).
fn has_data(b: &Bar) -> bool {
    b.turnaround.0.is_finite()
}

/// The bars of `bars` without data, as `mix policy` (empty when every bar has data).
fn without_data(m: Mix, bars: &[&Bar]) -> Vec<String> {
    bars.iter().filter(|b| !has_data(b)).map(|b| format!("{} {}", m.label(), b.policy.label())).collect()
}

/// A finding checked case by case: no data for a compared bar is no data; any case the other way disagrees; every
/// case as stated agrees; else open.
fn tally(yes: usize, no: usize, open: usize, missing: &[String]) -> Verdict {
    if !missing.is_empty() {
        Verdict::NoData
    } else if no > 0 {
        Verdict::Disagrees
    } else if open == 0 && yes > 0 {
        Verdict::Agrees
    } else {
        Verdict::Unresolved
    }
}

fn tt_text(b: &Bar) -> String {
    match b.saturation {
        Saturation::Bounded => format!("{} {} h", b.policy.label(), crate::stats::show(b.turnaround.0 / 3600.0, 1)),
        s => format!("{} {}", b.policy.label(), s.label()),
    }
}

/// Every policy of `better` has a lower turnaround than every policy of `worse` on every mix of `mixes`.
fn better(bars: &[Bar], paper: &str, mixes: &[Mix], better: &[BotSelection], worse: &[BotSelection]) -> Claim {
    let (mut yes, mut no, mut open, mut missing) = (0, 0, 0, Vec::new());
    let (mut ours, mut parting) = (Vec::new(), Parting::default());
    for &m in mixes {
        let mut row = Vec::new();
        for &a in better {
            for &b in worse {
                let (Some(x), Some(y)) = (bar(bars, m, a), bar(bars, m, b)) else { continue };
                let lacking = without_data(m, &[x, y]);
                if !lacking.is_empty() {
                    missing.extend(lacking);
                    continue;
                }
                match tt_order(x, y) {
                    Some(Ordering::Less) => yes += 1,
                    Some(_) => no += 1,
                    None => {
                        open += 1;
                        if (x.saturation, y.saturation) == (Saturation::Bounded, Saturation::Bounded) {
                            parting.add(&interval(x.turnaround, x.seeds), &interval(y.turnaround, y.seeds));
                        }
                    }
                }
            }
        }
        for &p in better.iter().chain(worse) {
            if let Some(b) = bar(bars, m, p) {
                row.push(tt_text(b));
            }
        }
        ours.push(format!("{}: {}", m.label(), row.join(", ")));
    }
    let verdict = tally(yes, no, open, &missing);
    let parting = if verdict == Verdict::Unresolved { parting.note() } else { String::new() };
    Claim {
        paper: paper.into(),
        ours: format!(
            "TT {} ({yes} pairs as stated, {no} the other way, {open} not resolved){}{parting}",
            ours.join("; "),
            no_data_note(&missing)
        ),
        verdict,
    }
}

/// What a finding's text adds when a bar it compares has no data.
fn no_data_note(missing: &[String]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for m in missing {
        if !names.contains(&m.as_str()) {
            names.push(m);
        }
    }
    if names.is_empty() {
        String::new()
    } else {
        format!("; no data: no BoT finished in {}", names.join(", "))
    }
}

/// The bars of `policies` on `mixes` are all unbounded (`unbounded`) or all bounded.
fn saturation(bars: &[Bar], paper: &str, mixes: &[Mix], policies: &[BotSelection], unbounded: bool) -> Claim {
    let want = if unbounded { Saturation::Unbounded } else { Saturation::Bounded };
    let (mut yes, mut no, mut open, mut missing) = (0, 0, 0, Vec::new());
    let mut ours = Vec::new();
    for &m in mixes {
        for &p in policies {
            let Some(b) = bar(bars, m, p) else { continue };
            missing.extend(without_data(m, &[b]));
            match b.saturation {
                s if s == want => yes += 1,
                Saturation::NotResolved => open += 1,
                _ => no += 1,
            }
            ours.push(format!(
                "{} {} {} ({}/{} seeds saturated)",
                m.label(),
                p.label(),
                b.saturation.label(),
                b.saturated_seeds,
                b.seeds
            ));
        }
    }
    let verdict = tally(yes, no, open, &missing);
    Claim { paper: paper.into(), ours: format!("{}{}", ours.join("; "), no_data_note(&missing)), verdict }
}

/// `a` and `b` have practically identical turnaround on every mix: both unbounded, or within 10%.
fn identical(bars: &[Bar], paper: &str, mixes: &[Mix], a: BotSelection, b: BotSelection) -> Claim {
    let (mut yes, mut no, mut open, mut missing) = (0, 0, 0, Vec::new());
    let mut ours = Vec::new();
    for &m in mixes {
        let (Some(x), Some(y)) = (bar(bars, m, a), bar(bars, m, b)) else { continue };
        missing.extend(without_data(m, &[x, y]));
        use Saturation::*;
        match (x.saturation, y.saturation) {
            (Unbounded, Unbounded) => yes += 1,
            (Bounded, Bounded) => {
                let (p, q) = (x.turnaround.0, y.turnaround.0);
                let close = (p - q).abs() <= 0.1 * p.abs().max(q.abs());
                let apart = interval(x.turnaround, x.seeds).separated_from(&interval(y.turnaround, y.seeds));
                match (close, apart) {
                    (true, _) => yes += 1,
                    (false, true) => no += 1,
                    (false, false) => open += 1,
                }
            }
            (Bounded, Unbounded) | (Unbounded, Bounded) => no += 1,
            _ => open += 1,
        }
        ours.push(format!("{}: {} vs {}", m.label(), tt_text(x), tt_text(y)));
    }
    let verdict = tally(yes, no, open, &missing);
    Claim { paper: paper.into(), ours: format!("TT {}{}", ours.join("; "), no_data_note(&missing)), verdict }
}

/// Every policy of `lower` wastes a smaller share of machine time (RWT) than every policy of `higher`, on every mix.
fn less_waste(bars: &[Bar], paper: &str, mixes: &[Mix], lower: &[BotSelection], higher: &[BotSelection]) -> Claim {
    let (mut yes, mut no, mut open, mut missing) = (0, 0, 0, Vec::new());
    let (mut ours, mut parting) = (Vec::new(), Parting::default());
    for &m in mixes {
        for &a in lower {
            for &b in higher {
                let (Some(x), Some(y)) = (bar(bars, m, a), bar(bars, m, b)) else { continue };
                let lacking = without_data(m, &[x, y]);
                if !lacking.is_empty() {
                    missing.extend(lacking);
                    continue;
                }
                let (i, j) = (interval(x.rwt, x.seeds), interval(y.rwt, y.seeds));
                match (i.separated_from(&j), i.mean < j.mean) {
                    (true, true) => yes += 1,
                    (true, false) => no += 1,
                    _ => {
                        open += 1;
                        parting.add(&i, &j);
                    }
                }
            }
        }
        let row: Vec<String> = lower
            .iter()
            .chain(higher)
            .filter_map(|&p| {
                bar(bars, m, p).map(|b| format!("{} {}%", p.label(), crate::stats::show(100.0 * b.rwt.0, 1)))
            })
            .collect();
        ours.push(format!("{}: {}", m.label(), row.join(", ")));
    }
    let verdict = tally(yes, no, open, &missing);
    let parting = if verdict == Verdict::Unresolved { parting.note() } else { String::new() };
    Claim {
        paper: paper.into(),
        ours: format!(
            "RWT {} ({yes} pairs as stated, {no} the other way, {open} not resolved){}{parting}",
            ours.join("; "),
            no_data_note(&missing)
        ),
        verdict,
    }
}

const OTHERS: [BotSelection; 3] = [FcfsExcl, FcfsShare, LongIdle];
const ROUND: [BotSelection; 2] = [Rr, RrNrf];

/// The findings of §IV-C that bear on figure `f`, checked on its bars.
pub fn claims(f: &FigurePreset, bars: &[Bar]) -> Vec<Claim> {
    let [m0, m1, m2, m3] = f.mixes;
    let n = f.number;
    let single = n <= 9;
    let mut out = Vec::new();
    if single && n <= 7 {
        out.push(better(
            bars,
            "for very small and small task granularities (All_VS, All_S) RR and RR-NRF perform slightly worse than the \
             other ones",
            &[m0, m1],
            &OTHERS,
            &ROUND,
        ));
        out.push(better(
            bars,
            "for All_L RR and RR-NRF perform better than the other strategies",
            &[m3],
            &ROUND,
            &OTHERS,
        ));
    }
    if n == 2 {
        out.push(saturation(
            bars,
            "for the All_L workload mix FCFS-Excl makes the turnaround grow to an unlimited value",
            &[m3],
            &[FcfsExcl],
            true,
        ));
    }
    if n == 4 || n == 5 {
        out.push(saturation(
            bars,
            "FCFS-Excl, FCFS-Share, and LongIdle fail to yield a finite value for the turnaround time (All_M, All_L)",
            &[m2, m3],
            &OTHERS,
            true,
        ));
        out.push(saturation(bars, "… while this is not the case of RR and RR-NRF", &[m0, m1, m2, m3], &ROUND, false));
    }
    if n == 8 || n == 9 {
        out.push(saturation(
            bars,
            "for high-intensity workloads all the scheduling strategies fail to yield a bounded turnaround time",
            &[m0, m1, m2, m3],
            &BotSelection::ALL,
            true,
        ));
    }
    if n == 10 || n == 11 {
        out.push(saturation(
            bars,
            "for all workload mixes, the turnaround time obtained for FCFS-Excl grows to an unlimited value",
            &[m0, m1, m2, m3],
            &[FcfsExcl],
            true,
        ));
    }
    if !(single || n == 12 || n == 13) {
        out.push(better(
            bars,
            "RR and RR-NRF perform better (Uniform, Short, Medium) than the other ones",
            &[m0, m1, m2],
            &ROUND,
            &[FcfsShare, LongIdle],
        ));
    }
    if n == 12 || n == 13 {
        out.push(saturation(
            bars,
            "FCFS-Excl, FCFS-Share, and LongIdle fail to yield a finite value for the turnaround time",
            &[m0, m1, m2],
            &OTHERS,
            true,
        ));
        out.push(saturation(
            bars,
            "Only for the Long workload mix, the FCFS-Share and LongIdle are able to yield a finite value",
            &[m3],
            &[FcfsShare, LongIdle],
            false,
        ));
        out.push(saturation(bars, "… while this is not the case of RR and RR-NRF", &[m0, m1, m2, m3], &ROUND, false));
    }
    let all = [m0, m1, m2, m3];
    out.push(identical(
        bars,
        "FCFS-Share and LongIdle results in the same performance (all scenarios and workloads)",
        &all,
        FcfsShare,
        LongIdle,
    ));
    out.push(identical(bars, "RR and RR-NRF always exhibit the same performance", &all, Rr, RrNrf));
    if n <= 5 || (10..=13).contains(&n) {
        out.push(less_waste(bars, "RR and RR-NRF are clear winners in terms of RWT", &all, &ROUND, &OTHERS));
    } else {
        out.push(less_waste(
            bars,
            "RR is always more efficient than FCFS-Share (wastes less)",
            &all,
            &[Rr],
            &[FcfsShare],
        ));
    }
    out
}
