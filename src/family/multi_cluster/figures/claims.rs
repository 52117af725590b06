//! The paper's findings per figure, checked against our numbers: each claim of [Iosup08] §5 that a figure's
//! data can test, with what we measured and whether it agrees. Orderings count only where the 95% intervals are
//! apart; otherwise the verdict is "not resolved" at this many seeds. A finding that compares a series without a
//! value at some point it compares (no run finished a BoT there) is "no data", never a verdict.

use super::{FigureId, FigureResult, Metric};
use crate::stats::Interval;
pub use crate::stats::{Claim, Parting, Verdict};

/// Whether every interval has a value: a finding is never judged on a series without one (a point at which no run
/// finished a BoT has no mean makespan or NSL).
fn defined(intervals: &[Interval]) -> bool {
    intervals.iter().all(Interval::has_data)
}

/// `a < b` when both have a value.
fn below(a: f64, b: f64) -> Option<bool> {
    (a.is_finite() && b.is_finite()).then_some(a < b)
}

/// Why a finding is "no data" when a series it compares has no value.
const NO_VALUE: &str = "no data: no run finished a BoT there";

fn fmt(i: &Interval) -> String {
    if !defined(&[*i]) {
        return "undefined (no run finished a BoT)".into();
    }
    let d = if i.mean.abs() >= 100.0 {
        0
    } else if i.mean.abs() >= 1.0 {
        2
    } else {
        3
    };
    if i.has_bounds() {
        format!("{:.*} ({:.*} – {:.*})", d, i.mean, d, i.low, d, i.high)
    } else {
        format!("{:.*}", d, i.mean)
    }
}

/// Is `name` the lowest (or `rank`-th lowest, 0-based) series of `metric` overall over `xs`?
fn rank_claim(r: &FigureResult, paper: &str, name: &str, rank: usize, metric: Metric, xs: &[usize]) -> Claim {
    let f = &r.figure;
    let mut all: Vec<(usize, Interval)> = (0..f.series.len()).map(|s| (s, r.overall(s, xs, metric))).collect();
    all.sort_by(|a, b| a.1.mean.total_cmp(&b.1.mean));
    let pos = all.iter().position(|(s, _)| f.series[*s] == name).expect("series of the figure");
    let me = all[pos].1;
    let listing: Vec<String> =
        all.iter().take(4).map(|(s, i)| format!("{} {}", f.series[*s], fmt(i))).collect::<Vec<_>>();
    let ours = format!(
        "{name} ranks {} of {} on {} ({}); lowest: {}",
        pos + 1,
        all.len(),
        metric.title().to_lowercase(),
        fmt(&me),
        listing.join(", ")
    );
    // Agrees: at the claimed rank, and apart from its neighbours; disagrees: another rank, apart from the series
    // at the claimed rank. A series without a value has no rank: nothing is resolved.
    let verdict = if !defined(&all.iter().map(|(_, i)| *i).collect::<Vec<_>>()) {
        return Claim { paper: paper.into(), ours: format!("{ours}; {NO_VALUE}"), verdict: Verdict::NoData };
    } else if pos == rank {
        // The neighbours whose intervals overlap ours keep the rank open.
        let near: Vec<usize> = [rank.checked_sub(1), Some(rank + 1)]
            .into_iter()
            .flatten()
            .filter(|&k| k < all.len() && !all[k].1.separated_from(&me))
            .collect();
        if near.is_empty() {
            Verdict::Agrees
        } else {
            let names: Vec<String> = near.iter().map(|&k| format!("{}'s", f.series[all[k].0])).collect();
            let mut parting = Parting::default();
            near.iter().for_each(|&k| parting.add(&all[k].1, &me));
            let ours = format!("{ours}; its 95% interval overlaps {}{}", names.join(" and "), parting.note());
            return Claim { paper: paper.into(), ours, verdict: Verdict::Unresolved };
        }
    } else if all[rank].1.separated_from(&me) {
        Verdict::Disagrees
    } else {
        let other = f.series[all[rank].0];
        let parting = Parting::of(&all[rank].1, &me).note();
        let ours = format!("{ours}; its 95% interval overlaps that of {other}, ranked {}{parting}", rank + 1);
        return Claim { paper: paper.into(), ours, verdict: Verdict::Unresolved };
    };
    Claim { paper: paper.into(), ours, verdict }
}

/// For how many series does `holds(series)` hold: all → agrees, none → disagrees, else not resolved. `holds` is
/// None for a series without a value where the finding looks: then the finding is "no data".
fn count_claim(r: &FigureResult, paper: &str, what: &str, holds: impl Fn(usize) -> Option<bool>) -> Claim {
    count_claim_of(r, paper, what, &(0..r.figure.series.len()).collect::<Vec<_>>(), holds)
}

/// `count_claim` over the series `of` alone.
fn count_claim_of(
    r: &FigureResult,
    paper: &str,
    what: &str,
    of: &[usize],
    holds: impl Fn(usize) -> Option<bool>,
) -> Claim {
    let f = &r.figure;
    let (mut yes, mut no, mut none) = (Vec::new(), Vec::new(), Vec::new());
    for &s in of {
        match holds(s) {
            Some(true) => yes.push(f.series[s]),
            Some(false) => no.push(f.series[s]),
            None => none.push(f.series[s]),
        }
    }
    if !none.is_empty() {
        let ours = format!("{what}: no data for {} (no run finished a BoT where it is compared)", none.join(", "));
        return Claim { paper: paper.into(), ours, verdict: Verdict::NoData };
    }
    let verdict = if no.is_empty() {
        Verdict::Agrees
    } else if yes.is_empty() {
        Verdict::Disagrees
    } else {
        Verdict::Unresolved
    };
    let ours = if no.is_empty() {
        format!("{what}: holds for all {} ({})", yes.len(), yes.join(", "))
    } else if yes.is_empty() {
        format!("{what}: holds for none of {} ({})", no.len(), no.join(", "))
    } else {
        format!(
            "{what}: holds for {} of {} ({}); not for {}",
            yes.len(),
            yes.len() + no.len(),
            yes.join(", "),
            no.join(", ")
        )
    };
    Claim { paper: paper.into(), ours, verdict }
}

fn series(r: &FigureResult, name: &str) -> usize {
    r.figure.series.iter().position(|s| *s == name).expect("series of the figure")
}

/// The claims of a figure, checked on its results once every run is in (a failed run counts as in: the panel says
/// it failed); before that, every claim is "waiting", with how many runs are in, and no verdict is drawn from part
/// of the data.
pub fn claims(r: &FigureResult) -> Vec<Claim> {
    // A figure that also draws the base's own script judges the paper's findings on the paper's series.
    let paper;
    let r = if r.figure.paper_series() < r.figure.series.len() {
        paper = r.paper_only();
        &paper
    } else {
        r
    };
    let found = checked(r);
    let (done, total) = (r.done() + r.failures.len(), r.total());
    if done >= total {
        return found;
    }
    found
        .into_iter()
        .map(|c| Claim { ours: format!("waiting: {done} of {total} runs in"), verdict: Verdict::Waiting, ..c })
        .collect()
}

/// The claims of a figure, checked on whatever results it holds.
fn checked(r: &FigureResult) -> Vec<Claim> {
    let f = &r.figure;
    let says = f.paper_says;
    let all_x: Vec<usize> = (0..r.x_count()).collect();
    let mean = |s: usize, x: usize, m: Metric| r.interval(s, x, m);
    match f.id {
        FigureId::Fig3 => {
            let overall = |s: usize| Interval::of(&r.overall_values(s));
            vec![
                count_claim(r, says[0], "NSL of classes 5-9 and 10-19 above the policy's average NSL", |s| {
                    let avg = overall(s).mean;
                    let (a, b) = (mean(s, 2, Metric::Nsl).mean, mean(s, 3, Metric::Nsl).mean);
                    (a.is_finite() && b.is_finite() && avg.is_finite()).then_some(a > avg && b > avg)
                }),
                count_claim(r, says[1], "mean MS rising with the size class (classes with BoTs)", |s| {
                    let v: Vec<f64> =
                        all_x.iter().map(|&x| mean(s, x, Metric::Makespan).mean).filter(|v| v.is_finite()).collect();
                    (v.len() >= 2).then(|| v.windows(2).all(|w| w[1] >= w[0]))
                }),
            ]
        }
        FigureId::Fig4 => vec![
            rank_claim(r, says[0], "FPLT", 0, Metric::Makespan, &all_x),
            rank_claim(r, says[0], "ECT", 1, Metric::Nsl, &all_x),
            rank_claim(r, says[1], "STFR", 0, Metric::Nsl, &all_x),
            rank_claim(r, says[2], "FPF", 0, Metric::Makespan, &all_x),
            rank_claim(r, says[3], "WQR4x", f.series.len() - 1, Metric::Nsl, &[all_x.len() - 1]),
            pair_claim(r, says[4], "FPLT", "DFPLT", Metric::Makespan, &all_x),
            pair_claim(r, says[4], "ECT", "ECT-P", Metric::Makespan, &all_x),
        ],
        FigureId::Fig5 => vec![
            count_claim(
                r,
                says[0],
                "MS and NSL under All at T=0 above both other patterns (95% intervals apart)",
                |s| {
                    let all = [0, 1, 2].iter().flat_map(|&x| [mean(s, x, Metric::Makespan), mean(s, x, Metric::Nsl)]);
                    if !defined(&all.collect::<Vec<_>>()) {
                        return None;
                    }
                    Some([Metric::Makespan, Metric::Nsl].iter().all(|&m| {
                        let z = mean(s, 1, m);
                        [0, 2].iter().all(|&x| {
                            let o = mean(s, x, m);
                            z.mean > o.mean && z.separated_from(&o)
                        })
                    }))
                },
            ),
            count_claim(r, says[1], "Evenly Spread's MS below Realistic's", |s| {
                let (real, even) = (mean(s, 0, Metric::Makespan), mean(s, 2, Metric::Makespan));
                below(even.mean, real.mean)
            })
            .with_detail(|| ratio_list(r, 2, 0, Metric::Makespan, "MS Evenly Spread / Realistic")),
        ],
        FigureId::Fig6 => vec![count_claim(r, says[0], "MS at median 50 above MS at median 10", |s| {
            let (a, b) = (mean(s, 0, Metric::Makespan), mean(s, all_x.len() - 1, Metric::Makespan));
            below(a.mean, b.mean)
        })
        .with_detail(|| ratio_list(r, all_x.len() - 1, 0, Metric::Makespan, "MS median 50 / median 10"))],
        FigureId::Fig7 => vec![count_claim(r, says[0], "NSL at a 3 h mean below NSL at a 3 min mean", |s| {
            let (a, b) = (mean(s, 0, Metric::Nsl), mean(s, all_x.len() - 1, Metric::Nsl));
            below(b.mean, a.mean)
        })],
        FigureId::Fig8 => {
            let change = |s: usize, m: Metric| {
                let base = mean(s, 0, m).mean;
                let c = all_x.iter().map(|&x| (mean(s, x, m).mean / base - 1.0).abs()).fold(0.0, f64::max);
                // f64::max drops a NaN: a position without a value makes the change undefined, not small.
                let all_defined = all_x.iter().all(|&x| defined(&[mean(s, x, m)])) && base != 0.0;
                all_defined.then_some(c)
            };
            vec![
                count_claim(r, says[0], "MS and NSL within 10% of their I = 0 value at every I", |s| {
                    Some(change(s, Metric::Makespan)? <= 0.10 && change(s, Metric::Nsl)? <= 0.10)
                }),
                count_claim(r, says[1], "NSL at some I > 0 above the I = 0 interval", |s| {
                    let base = mean(s, 0, Metric::Nsl);
                    if !all_x.iter().all(|&x| defined(&[mean(s, x, Metric::Nsl)])) {
                        return None;
                    }
                    let up = all_x[1..].iter().any(|&x| {
                        let i = mean(s, x, Metric::Nsl);
                        i.mean > base.mean && i.separated_from(&base)
                    });
                    // The claim: ECT yes, every other policy no.
                    Some(up == (f.series[s] == "ECT"))
                }),
            ]
        }
        FigureId::Fig9 => {
            let low: Vec<usize> = all_x.iter().copied().filter(|&x| f.xs[x] <= 0.5).collect();
            let high: Vec<usize> = all_x.iter().copied().filter(|&x| f.xs[x] >= 0.6).collect();
            let low_defined = low.iter().all(|&x| (0..f.series.len()).all(|s| defined(&[mean(s, x, Metric::Nsl)])));
            let spread = low
                .iter()
                .map(|&x| {
                    let v: Vec<f64> = (0..f.series.len()).map(|s| mean(s, x, Metric::Nsl).mean).collect();
                    v.iter().copied().fold(f64::MIN, f64::max) / v.iter().copied().fold(f64::MAX, f64::min) - 1.0
                })
                .fold(0.0, f64::max);
            let what = "largest spread of mean NSL between the selection policies at loads ≤ 50%";
            let identical = if !low_defined || low.is_empty() {
                Claim { paper: says[0].into(), ours: format!("{what}: {NO_VALUE}"), verdict: Verdict::NoData }
            } else {
                Claim {
                    paper: says[0].into(),
                    ours: format!("{what}: {:.1}%", 100.0 * spread),
                    verdict: if spread <= 0.10 { Verdict::Agrees } else { Verdict::Disagrees },
                }
            };
            let four = ["S-U-T", "S-U-BoT", "S-U-GRR", "S-U-RR"];
            let mut fair = rank_among(r, says[2], "S-U-T", &four, Metric::Nsl, &all_x);
            fair.paper = says[2].into();
            vec![identical, rank_claim(r, says[1], "S-BoT", 0, Metric::Nsl, &high), fair]
        }
        FigureId::Fig10 => {
            let sbot = series(r, "S-BoT");
            let others: Vec<usize> = (0..f.series.len()).filter(|&s| s != sbot).collect();
            let what = "S-BoT's NSL below this policy's in the Small classes 2-4 and 5-9";
            vec![count_claim_of(r, says[0], what, &others, |s| {
                let pairs: Option<Vec<bool>> = [1, 2]
                    .iter()
                    .map(|&x| below(mean(sbot, x, Metric::Nsl).mean, mean(s, x, Metric::Nsl).mean))
                    .collect();
                Some(pairs?.into_iter().all(|b| b))
            })]
        }
        FigureId::Fig11 => {
            let last = all_x.len() - 1;
            let fin = |name: &str| mean(series(r, name), last, Metric::Finished);
            // Nothing finished under any architecture (a horizon shorter than a task) is no data.
            let no_data = !defined(&[fin("fcondor"), fin("sep-c"), fin("csp")])
                || ["fcondor", "sep-c", "csp"].iter().all(|a| fin(a).high <= 0.0);
            vec![
                rank_claim(r, says[0], "csp", 0, Metric::Nsl, &all_x),
                rank_claim(r, says[0], "sep-c", 2, Metric::Nsl, &all_x),
                Claim {
                    paper: says[1].into(),
                    ours: format!(
                        "finished tasks at 95%: fcondor {}, sep-c {}, csp {}{}",
                        fmt(&fin("fcondor")),
                        fmt(&fin("sep-c")),
                        fmt(&fin("csp")),
                        if no_data { "; no data: no architecture finished a task" } else { "" }
                    ),
                    verdict: if no_data {
                        Verdict::NoData
                    } else if fin("fcondor").high < 0.6 && fin("sep-c").high < 0.7 {
                        Verdict::Agrees
                    } else {
                        Verdict::Disagrees
                    },
                },
            ]
        }
    }
}

/// Is `name` the lowest of `among` on `metric` overall over `xs`?
fn rank_among(r: &FigureResult, paper: &str, name: &str, among: &[&str], metric: Metric, xs: &[usize]) -> Claim {
    let mut all: Vec<(&str, Interval)> = among.iter().map(|n| (*n, r.overall(series(r, n), xs, metric))).collect();
    all.sort_by(|a, b| a.1.mean.total_cmp(&b.1.mean));
    let pos = all.iter().position(|(n, _)| *n == name).expect("listed");
    let listing: Vec<String> = all.iter().map(|(n, i)| format!("{n} {}", fmt(i))).collect();
    let ours = format!("overall NSL, lowest first: {}", listing.join(", "));
    let open = |other: &(&str, Interval)| {
        let parting = Parting::of(&all[pos].1, &other.1).note();
        format!("{ours}; the 95% intervals of {name} and {} overlap{parting}", other.0)
    };
    let (ours, verdict) = if !defined(&all.iter().map(|(_, i)| *i).collect::<Vec<_>>()) {
        (format!("{ours}; {NO_VALUE}"), Verdict::NoData)
    } else if pos == 0 {
        if all[1].1.separated_from(&all[0].1) {
            (ours, Verdict::Agrees)
        } else {
            (open(&all[1]), Verdict::Unresolved)
        }
    } else if all[0].1.separated_from(&all[pos].1) {
        (ours, Verdict::Disagrees)
    } else {
        (open(&all[0]), Verdict::Unresolved)
    };
    Claim { paper: paper.into(), ours, verdict }
}

/// Is `better`'s overall `metric` below `worse`'s?
fn pair_claim(r: &FigureResult, paper: &str, better: &str, worse: &str, metric: Metric, xs: &[usize]) -> Claim {
    let (a, b) = (r.overall(series(r, better), xs, metric), r.overall(series(r, worse), xs, metric));
    let verdict = crate::stats::judge(&[a, b], || {
        if !a.separated_from(&b) {
            Verdict::Unresolved
        } else if a.mean < b.mean {
            Verdict::Agrees
        } else {
            Verdict::Disagrees
        }
    });
    let mut ours = format!("overall {}: {better} {}, {worse} {}", metric.title().to_lowercase(), fmt(&a), fmt(&b));
    if verdict == Verdict::Unresolved && defined(&[a, b]) {
        ours.push_str("; the two 95% intervals overlap");
        ours.push_str(&Parting::of(&a, &b).note());
    } else if !defined(&[a, b]) {
        ours = format!("{ours}; {NO_VALUE}");
    }
    Claim { paper: paper.into(), ours, verdict }
}

fn ratio_list(r: &FigureResult, num: usize, den: usize, metric: Metric, what: &str) -> String {
    let parts: Vec<String> = (0..r.figure.series.len())
        .map(|s| {
            let q = r.interval(s, num, metric).mean / r.interval(s, den, metric).mean;
            if q.is_finite() {
                format!("{} {:+.0}%", r.figure.series[s], 100.0 * (q - 1.0))
            } else {
                format!("{} undefined", r.figure.series[s])
            }
        })
        .collect();
    format!("{what}: {}", parts.join(", "))
}

impl Claim {
    fn with_detail(mut self, detail: impl Fn() -> String) -> Claim {
        self.ours = format!("{}. {}", self.ours, detail());
        self
    }
}

/// The "Paper and bagsim" panel as Markdown: the two setups side by side, then each finding with our numbers and
/// the verdict (what `bagsim reproduce` writes next to the CSV and SVG).
pub fn panel_markdown(r: &FigureResult) -> String {
    let f = &r.figure;
    let mut out = format!(
        "# {} — {}\n\n[Iosup08] {}; {} runs in, {} seeds per point; verdicts on {}.\n\n| | |\n|---|---|\n| the paper's \
         setup | {} |\n| ours | {} |\n\n| the paper reports | bagsim | verdict |\n|---|---|---|\n",
        f.id.name().replace("fig", "Figure "),
        f.title,
        f.section,
        r.done(),
        r.seeds,
        if r.base.is_empty() { "a base not named" } else { &r.base },
        f.paper_setup,
        f.our_setup
    );
    for c in claims(r) {
        out.push_str(&format!("| \"{}\" | {} | {} |\n", c.paper, c.ours.replace('|', "/"), c.verdict.label()));
    }
    out.push_str(&script_line(r));
    out
}

/// Where the base's own script stands among all the series, when the figure draws it: its overall mean of each
/// metric and its rank by mean (the findings above are the paper's, judged without it).
fn script_line(r: &FigureResult) -> String {
    let f = &r.figure;
    let mine = f.series.len() - 1;
    if f.paper_series() == f.series.len() {
        return String::new();
    }
    let xs: Vec<usize> = (0..r.x_count()).collect();
    let parts: Vec<String> = [Metric::Makespan, Metric::Nsl]
        .into_iter()
        .map(|m| {
            let me = r.overall(mine, &xs, m);
            let below = (0..mine).filter(|&s| r.overall(s, &xs, m).mean < me.mean).count();
            format!("{} {} (rank {} of {} by mean)", m.title().to_lowercase(), fmt(&me), below + 1, f.series.len())
        })
        .collect();
    format!(
        "\nThe base's own script (series `{}`): {}, over every point of the figure. The findings above are judged on \
         the paper's {} series alone.\n",
        f.series[mine],
        parts.join("; "),
        f.paper_series()
    )
}
