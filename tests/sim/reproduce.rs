//! The §5 presets of [Iosup08]: each figure's runs follow its row of Table 5; the CSV carries the seeds' mean and
//! t-interval; the verdicts follow the intervals.

use bagsim::family::multi_cluster::architecture::Architecture;
use bagsim::family::multi_cluster::figures::claims::{claims, Verdict};
use bagsim::family::multi_cluster::figures::{FigureId, FigureResult, RunResult, STUDY_LOADS};
use bagsim::stats::Interval;
use bagsim::workload::generate::ArrivalPattern;

#[test]
fn every_figure_follows_its_row_of_table_5() {
    for id in FigureId::ALL {
        let f = id.figure();
        let runs = f.runs(2);
        assert_eq!(runs.len(), f.series.len() * f.xs.len() * 2, "{id:?}");
        for r in &runs {
            let s = &r.scenario;
            s.validate().unwrap_or_else(|e| panic!("{id:?}: {e}"));
            assert_eq!(s.seed, r.seed);
            let name = f.series[r.series];
            let (arch, selection, scheduling) =
                (s.architecture.kind.name().to_string(), s.selection.name().to_string(), s.scheduling.to_string());
            match id {
                FigureId::Fig9 | FigureId::Fig10 => {
                    assert_eq!((arch.as_str(), scheduling.as_str(), selection.as_str()), ("csp", "FPLT", name))
                }
                FigureId::Fig11 => {
                    assert_eq!((arch.as_str(), selection.as_str(), scheduling.as_str()), (name, "S-T", "FPLT"))
                }
                _ => assert_eq!((arch.as_str(), selection.as_str(), scheduling.as_str()), ("csp", "S-T", name)),
            }
            assert_eq!(s.inaccuracy, if id == FigureId::Fig8 { f.xs[r.point] } else { 0.0 }, "{id:?}");
            let load = s.workload.load.expect("every figure sets a load");
            match id {
                FigureId::Fig3 => assert_eq!(load, 0.25),
                FigureId::Fig10 => assert_eq!(load, 0.95),
                FigureId::Fig4 | FigureId::Fig9 | FigureId::Fig11 => assert_eq!(load, STUDY_LOADS[r.point]),
                _ => assert_eq!(load, 0.6),
            }
            if id == FigureId::Fig5 {
                let want = [ArrivalPattern::Realistic, ArrivalPattern::AllAtZero, ArrivalPattern::EvenlySpread];
                assert_eq!(s.workload.arrival_pattern, want[r.point]);
            }
        }
    }
    assert_eq!(FigureId::Fig11.figure().series.len(), Architecture::ALL.len());
    assert_eq!("Figure 11".parse::<FigureId>(), Ok(FigureId::Fig11));
    assert_eq!("fig3".parse::<FigureId>(), Ok(FigureId::Fig3));
    assert!("fig12".parse::<FigureId>().is_err());
}

/// Figure 7 shortens the submission period with the mean runtime so that no workload holds more tasks than the
/// base month at 60%: under the `sd` reading, whose month keeps [Iosup08] §4.2's 20 000–175 000 tasks, every point
/// keeps them too (the default reading's months are checked against the budget instead).
#[test]
fn figure_7_workloads_keep_the_papers_task_counts() {
    let f = FigureId::Fig7.figure();
    let mut base = bagsim::scenario::McScenario::default();
    base.workload.normal_param = bagsim::workload::model::NormalParam::Sd;
    for point in 0..f.xs.len() {
        let s = f.scenario_on(&base, 1, point, 1);
        let p = bagsim::run::prepare(&s).unwrap();
        let n = p.generated.workload.tasks();
        assert!((20_000..=175_000).contains(&n), "mean runtime {} s: {n} tasks", f.xs[point]);
        let mean = p.generated.workload.total_work() / n as f64;
        // One month's sample of a heavy tail: the mean lands within a factor of two of the target.
        assert!(mean / f.xs[point] > 0.5 && mean / f.xs[point] < 2.0, "{}: mean {mean}", f.xs[point]);
    }
}

fn result(makespan: f64, nsl: f64, finished: f64) -> RunResult {
    RunResult {
        makespan,
        nsl,
        finished_fraction: finished,
        class_makespan: vec![makespan; 10],
        class_nsl: vec![nsl; 10],
    }
}

/// Figure 11 with made-up results: NSL = base[series] + small seed noise.
fn fig11_with(base: [f64; 3], noise: f64) -> FigureResult {
    let f = FigureId::Fig11.figure();
    let mut r = FigureResult::new(f.clone(), 4);
    for spec in f.runs(4) {
        let v = base[spec.series] * (1.0 + 0.1 * spec.point as f64) + noise * (spec.seed as f64 - 2.5);
        r.add(&spec, result(1000.0 * v, v, 1.0 - 0.1 * spec.series as f64));
    }
    r
}

#[test]
fn csv_holds_each_seed_and_the_t_interval() {
    let r = fig11_with([1.0, 3.0, 2.0], 0.2);
    let csv = r.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "figure,series,x,x_value,metric,n,mean,ci95_low,ci95_high,seed1,seed2,seed3,seed4");
    // 3 series × 7 loads × 3 metrics.
    assert_eq!(lines.len(), 1 + 3 * 7 * 3);
    let row = lines.iter().find(|l| l.starts_with("fig11,sep-c,50%,0.5,nsl,")).expect("the sep-c NSL row at 50%");
    let cells: Vec<f64> = row.split(',').skip(5).map(|c| c.parse().unwrap()).collect();
    // sep-c at point 2: 3 · 1.2 = 3.6, plus 0.2 · (seed − 2.5): 3.3, 3.5, 3.7, 3.9.
    let seeds = [3.3, 3.5, 3.7, 3.9];
    for (got, want) in cells[4..].iter().zip(seeds) {
        assert!((got - want).abs() < 1e-12, "{row}");
    }
    let i = Interval::of(&seeds);
    assert_eq!(cells[0], 4.0);
    assert!((cells[1] - 3.6).abs() < 1e-12);
    // NSL is positive: the modified Cox interval. y = ln 3.3, ln 3.5, ln 3.7, ln 3.9 = 1.193922, 1.252763,
    // 1.308333, 1.360977: ȳ = 1.278999, s² = 0.00516905; centre ȳ + s²/2 = 1.281583; spread t(0.975, 3) ·
    // √(s²/4 + s⁴/6) = 3.182446 · 0.036010 = 0.114600; bounds exp(1.166984) = 3.21229 and exp(1.396183) = 4.03975.
    assert!((cells[2] - 3.21229).abs() < 1e-5 && (cells[3] - 4.03975).abs() < 1e-5, "{row}");
    assert!((cells[2] - i.low).abs() < 1e-12 && (cells[3] - i.high).abs() < 1e-12);
}

#[test]
fn verdicts_follow_the_intervals() {
    let verdict = |r: &FigureResult, i: usize| claims(r)[i].verdict;
    // csp best and sep-c worst, far apart: both findings agree.
    let clear = fig11_with([1.0, 3.0, 2.0], 0.01);
    assert_eq!(verdict(&clear, 0), Verdict::Agrees);
    assert_eq!(verdict(&clear, 1), Verdict::Agrees);
    // sep-c best and csp worst: both disagree.
    let reversed = fig11_with([3.0, 1.0, 2.0], 0.01);
    assert_eq!(verdict(&reversed, 0), Verdict::Disagrees);
    assert_eq!(verdict(&reversed, 1), Verdict::Disagrees);
    // Nearly equal with wide noise: nothing is resolved.
    let noisy = fig11_with([1.0, 1.02, 1.01], 2.0);
    assert_eq!(verdict(&noisy, 0), Verdict::Unresolved);
    // Everything finished: the paper's 44% and 53% at 95% load are not what we see.
    assert_eq!(verdict(&clear, 2), Verdict::Disagrees);
}

/// A figure with some runs still out draws no verdict: every finding is "waiting", whatever the partial data say
/// (here they would agree); once the last run is in, the verdicts appear.
#[test]
fn no_verdict_from_a_partial_figure() {
    let f = FigureId::Fig11.figure();
    let runs = f.runs(4);
    let mut r = FigureResult::new(f.clone(), 4);
    let (last, first) = runs.split_last().unwrap();
    for spec in first {
        let v = [1.0, 3.0, 2.0][spec.series] + 0.01 * spec.seed as f64;
        r.add(spec, result(1000.0 * v, v, 1.0));
    }
    for c in claims(&r) {
        assert_eq!(c.verdict, Verdict::Waiting, "{}: {}", c.paper, c.ours);
        assert!(c.ours.contains(&format!("{} of {} runs in", runs.len() - 1, runs.len())), "{}", c.ours);
    }
    let v = [1.0, 3.0, 2.0][last.series] + 0.01 * last.seed as f64;
    r.add(last, result(1000.0 * v, v, 1.0));
    assert!(claims(&r).iter().all(|c| c.verdict != Verdict::Waiting));
    assert_eq!(claims(&r)[0].verdict, Verdict::Agrees);
}
