//! The readings of docs/model.md "Readings": each changes exactly what it names (hand-worked cases, and the
//! workload identical across readings that do not touch it), the readings table of one small figure against a
//! pinned file, and `--seeds auto` stopping at its cap.

use super::common::{config, ends};
use bagsim::family::multi_cluster::architecture::{Architecture::*, EligibleSet, FcondorMove};
use bagsim::family::multi_cluster::figures::{run_point, study::study, FigureId, RunSpec};
use bagsim::family::multi_cluster::policy::scheduling::SchedulingPolicy as P;
use bagsim::family::multi_cluster::policy::selection::SelectionPolicy as S;
use bagsim::family::multi_cluster::readings::READINGS;
use bagsim::readings::{apply, combinations, parse_axis, Seeds};
use bagsim::run;
use bagsim::scenario::McScenario;
use bagsim::stats::Verdict;
use bagsim::study::PointError;

/// S-BoT on one cluster of two processors: BoT A (10 s and 1 s) and BoT B (1 s) arrive at 0. Once A's two tasks
/// are dispatched, `dispatched` forms B's set when the 1 s task frees a processor (B runs 1–2 s); `completed`
/// waits until A's 10 s task has finished (B runs 10–11 s).
#[test]
fn eligible_set_completed_waits_for_the_whole_set_to_finish() {
    let bots: &[(f64, u32, &[f64])] = &[(0.0, 0, &[10.0, 1.0]), (0.0, 1, &[1.0])];
    let mut cfg = config(Csp, S::SBot, P::Fpf);
    assert_eq!(ends(cfg.clone(), &[(2, 1.0)], bots).0, vec![10.0, 1.0, 2.0]);
    cfg.eligible_set = EligibleSet::Completed;
    assert_eq!(ends(cfg, &[(2, 1.0)], bots).0, vec![10.0, 1.0, 11.0]);
}

/// fcondor on two clusters of one processor, one user homed at cluster 0, one BoT of three 5 s tasks. Task by
/// task: the first starts at cluster 0, the second queues there and the user moves, the third starts at cluster 1
/// (ends 5, 10, 5). BoT by BoT: the whole BoT goes to cluster 0 (ends 5, 10, 15).
#[test]
fn fcondor_moves_task_by_task_or_bot_by_bot() {
    let bots: &[(f64, u32, &[f64])] = &[(0.0, 0, &[5.0, 5.0, 5.0])];
    let mut cfg = config(Fcondor, S::ST, P::Fpf);
    assert_eq!(ends(cfg.clone(), &[(1, 1.0), (1, 1.0)], bots).0, vec![5.0, 10.0, 5.0]);
    cfg.fcondor_move = FcondorMove::Bot;
    assert_eq!(ends(cfg, &[(1, 1.0), (1, 1.0)], bots).0, vec![5.0, 10.0, 15.0]);
}

/// A month of one day: the figures' runs are small enough for the test command.
fn small_base() -> McScenario {
    let mut s = McScenario::default();
    s.workload.submission_period = 86_400.0;
    s
}

/// Readings of the architecture or the horizon leave the workload bit for bit as it was; the workload readings and
/// the platform (whose capacity scales the streams) change it.
#[test]
fn each_reading_changes_only_what_it_names() {
    // Six hours at 20%: `calibration = seconds` under the default `variance` makes about a million tasks.
    let mut base = small_base();
    base.workload.submission_period = 6.0 * 3600.0;
    base.workload.load = Some(0.2);
    base.sample_interval = Some(3600.0);
    let w0 = run::prepare(&base).unwrap().generated.workload;
    for r in READINGS {
        let touches_workload = r.key.starts_with("workload.") || r.key.starts_with("platform.");
        for (name, _) in &r.values[1..] {
            let axis = parse_axis(&format!("{}={name}", r.key), READINGS).unwrap();
            let s = apply(&base, &combinations(&[axis])[0]).unwrap();
            let changed: Vec<&str> = [
                (s.workload != base.workload, "workload"),
                (s.architecture != base.architecture, "architecture"),
                (s.horizon != base.horizon, "horizon"),
                (s.platform != base.platform, "platform"),
                (s.policy_options != base.policy_options, "policy_options"),
                (s.inaccuracy_on != base.inaccuracy_on, "inaccuracy_on"),
            ]
            .iter()
            .filter(|c| c.0)
            .map(|c| c.1)
            .collect();
            assert_eq!(changed, vec![r.key.split('.').next().unwrap()], "{}={name}", r.key);
            let w = run::prepare(&s).unwrap().generated.workload;
            assert_eq!(w != w0, touches_workload, "{}={name}: workload changed = {}", r.key, w != w0);
        }
    }
}

fn run_all(specs: &[RunSpec]) -> Vec<Result<bagsim::family::multi_cluster::figures::RunResult, PointError>> {
    bagsim::parallel::map(specs, 2, |_, s| run_point(&s.scenario).map_err(PointError::Run))
}

/// The readings table of Figure 11 on a one-day month, two seeds, both load splits, equals the pinned file
/// (tests/data/readings-fig11.md; BAGSIM_BLESS=1 rewrites it after a change that is meant to move it).
#[test]
fn readings_table_of_a_small_figure_equals_the_pinned_file() {
    let axes = [parse_axis("load_split=all", READINGS).unwrap()];
    let table = study(FigureId::Fig11, &small_base(), &combinations(&axes), Seeds::Fixed(2), &run_all).unwrap();
    assert_eq!(table.rows.len(), 2);
    let md = table.markdown();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/readings-fig11.md");
    if std::env::var_os("BAGSIM_BLESS").is_some() {
        std::fs::write(path, &md).unwrap();
    }
    assert_eq!(md, std::fs::read_to_string(path).unwrap());
}

/// `--seeds auto` adds seeds while a verdict is open and stops at its cap: with a cap of 3 every row ends at 3
/// seeds or earlier, and a row still open ends exactly at the cap.
#[test]
fn auto_seeds_stop_at_the_cap() {
    let axes = [parse_axis("load_split=all", READINGS).unwrap()];
    let seeds = Seeds::Auto { start: 1, cap: 3 };
    let table = study(FigureId::Fig11, &small_base(), &combinations(&axes), seeds, &run_all).unwrap();
    let mut open_rows = 0;
    for row in &table.rows {
        assert!(row.seeds <= 3, "{}: {} seeds", row.label, row.seeds);
        if row.claims.iter().any(|c| c.verdict == Verdict::Unresolved) {
            assert_eq!(row.seeds, 3, "{} stopped before the cap with a verdict open", row.label);
            open_rows += 1;
        }
    }
    assert!(open_rows > 0, "no verdict stayed open: the case no longer tests the cap");
    assert!(table.rows.iter().any(|r| r.capped));
    assert!(table.markdown().contains("not resolved after 3 seeds"));
}

/// Under 20 equal clusters the two load splits give each stream the same share: the workloads are identical.
#[test]
fn on_equal_clusters_the_two_load_splits_coincide() {
    let mut s = small_base();
    s.platform.preset = Some(bagsim::family::multi_cluster::platform::PlatformPreset::Uniform20);
    let mut t = s.clone();
    t.workload.load_split = bagsim::workload::streams::LoadSplit::Capacity;
    let (a, b) = (run::prepare(&s).unwrap().generated.workload, run::prepare(&t).unwrap().generated.workload);
    assert!(a == b, "the load splits differ on equal clusters");
    assert_ne!(a, run::prepare(&small_base()).unwrap().generated.workload);
}
