//! The Workload lab in headless Chromium: a real trace picked through the file input is imported in the worker with
//! the counts of the native importer, its BoTs (at every Δ of the table) and its fitted row equal the native ones, a
//! bad file is reported and keeps the trace already loaded, and the trace, its platform and its fitted model become
//! runs whose figures equal `bagsim run` of the same scenario, bit for bit.
//!
//! Run with scripts/test-browser.sh (it builds the page first).

use std::path::{Path, PathBuf};
use std::time::Duration;

use bagsim::trace::bots::{extract, BotRule, MultiProc};
use bagsim::trace::import_path;
use bagsim::workload::fit::{fit_workload, notation};
use e2e::fantoccini::{Client, Locator};
use e2e::*;

const IMPORT_TIMEOUT: Duration = Duration::from_secs(60);
/// The Δs of the page's "BoTs against Δ" table.
const DELTAS: [f64; 8] = [0.0, 10.0, 30.0, 60.0, 100.0, 300.0, 900.0, 3600.0];

fn data(name: &str) -> PathBuf {
    workspace_root().join("tests/data").join(name)
}

/// Picks `path` in the file input, as a user would.
async fn pick(client: &Client, path: &Path) {
    let input = client.find(Locator::Css("#trace-file")).await.expect("#trace-file");
    input.send_keys(path.to_str().expect("a UTF-8 path")).await.expect("cannot pick the file");
}

/// Waits until the import ends (imported or failed) and returns `#trace-status[data-state]`.
async fn wait_import(client: &Client) -> String {
    wait_for(client, IMPORT_TIMEOUT, "#trace-status to leave importing", || async {
        let s = attr(client, "#trace-status", "data-state").await.unwrap_or_default();
        (s == "imported" || s == "failed").then_some(s)
    })
    .await
}

async fn num_attr(client: &Client, css: &str, name: &str) -> Option<u64> {
    attr(client, css, name).await.and_then(|v| v.parse().ok())
}

/// Waits until `#trace-bots[data-bots]` shows `want`.
async fn wait_bots(client: &Client, want: u64, what: &str) {
    wait_for(client, IMPORT_TIMEOUT, &format!("{what}: #trace-bots data-bots == {want}"), || async {
        (num_attr(client, "#trace-bots", "data-bots").await == Some(want)).then_some(())
    })
    .await
}

/// Waits until the "BoTs against Δ" table has a row for every Δ.
/// The fitted row in Table 3 notation, as the page's table shows it.
fn row_notations(f: &bagsim::workload::fit::FittedModel) -> [String; 6] {
    [
        f.users.notation(),
        notation(&f.iat.dist),
        notation(&f.daily_cycle.dist),
        notation(&f.size.dist),
        notation(&f.art.dist),
        notation(&f.rtv.dist),
    ]
}

async fn wait_delta_rows(client: &Client) {
    wait_for(client, IMPORT_TIMEOUT, "#trace-deltas to have a row per Δ", || async {
        let n = js(client, "return document.querySelectorAll('#trace-deltas tbody tr').length;", vec![]).await;
        (n.as_u64() == Some(DELTAS.len() as u64)).then_some(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_is_imported_fitted_and_replayed() {
    let file = data("hpc2n.swf");
    let native = import_path(&file, None).expect("the native import");
    let reject = extract(&native, &BotRule::default()).expect("BoTs");
    let split_rule = BotRule { multi_proc: MultiProc::Split, ..BotRule::default() };
    let split = extract(&native, &split_rule).expect("BoTs, split");
    let fit = fit_workload(&split.workload).expect("a fitted row");

    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        pick(&client, &file).await;
        assert_eq!(wait_import(&client).await, "imported", "{:?}", text(&client, "#trace-message").await);
        let r = &native.report;
        for (name, want) in
            [("data-lines", r.lines), ("data-jobs", r.jobs), ("data-skipped", r.skipped), ("data-comments", r.comments)]
        {
            assert_eq!(num_attr(&client, "#trace-report", name).await, Some(want), "#trace-report {name}");
        }
        println!("import: {}", text(&client, "#trace-status").await.unwrap_or_default());

        // BoTs under the default rule, and at every Δ of the table.
        wait_bots(&client, reject.report.bots, "default rule").await;
        wait_delta_rows(&client).await;
        for d in DELTAS {
            let want = extract(&native, &BotRule { delta: d, ..BotRule::default() }).expect("BoTs").report.bots;
            let got = num_attr(&client, &format!("#trace-deltas tr[data-delta='{d}']"), "data-bots").await;
            assert_eq!(got, Some(want), "BoTs at Δ = {d} s");
        }

        // Split parallel jobs: the BoTs and the fitted row of the native extraction.
        click(&client, "#trace-split").await;
        wait_bots(&client, split.report.bots, "split").await;
        assert_eq!(num_attr(&client, "#trace-bots", "data-tasks").await, Some(split.report.tasks));
        let rows = js(
            &client,
            "return [...document.querySelectorAll('#trace-fit tbody tr')].map(r => \
             r.querySelector('.dist').textContent);",
            vec![],
        )
        .await;
        let want = row_notations(&fit);
        assert_eq!(rows, serde_json::json!(want), "the page's fitted row differs from the native one");
        wait_delta_rows(&client).await;

        // Every candidate fit: per characteristic, each family's notation and KS D as the native candidates give
        // them, the selected one marked, and a chart of the data against each.
        let (_, candidates) =
            bagsim::workload::fit_workload::fit_workload_with_candidates(&split.workload).expect("candidates");
        let got = js(
            &client,
            "return [...document.querySelectorAll('#trace-candidates table.candidates')].map(t => \
             [t.dataset.characteristic, [...t.querySelectorAll('tbody tr')].map(r => \
             [r.dataset.family, r.classList.contains('best'), r.dataset.d, r.children[1].textContent])]);",
            vec![],
        )
        .await;
        let want: Vec<serde_json::Value> = candidates
            .characteristics
            .iter()
            .map(|c| {
                let rows: Vec<serde_json::Value> = c
                    .candidates
                    .iter()
                    .map(|k| match &k.fit {
                        Some(f) => {
                            serde_json::json!([k.family.name(), k.best, format!("{:.4}", f.ks), notation(&f.dist)])
                        }
                        None => serde_json::json!([
                            k.family.name(),
                            k.best,
                            "—",
                            format!("not fitted: {}", k.error.as_deref().unwrap_or(""))
                        ]),
                    })
                    .collect();
                serde_json::json!([c.characteristic, rows])
            })
            .collect();
        assert_eq!(got, serde_json::json!(want), "the page's candidate fits differ from the native ones");
        js(&client, "document.querySelector('#trace-candidates').open = true; return true;", vec![]).await;
        wait_for(&client, IMPORT_TIMEOUT, "the five candidate charts", || async {
            let n = js(
                &client,
                "return document.querySelectorAll('#trace-candidates .candidate-chart svg').length;",
                vec![],
            )
            .await;
            (n.as_u64() == Some(5)).then_some(())
        })
        .await;
        js(&client, "document.querySelector('#trace-candidates').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "trace-candidates.png").await;
        println!("screenshot: {}", shot.display());

        // The views of the BoT workload and the trace jobs' burstiness: the numbers of the native views.
        let views = bagsim::workload::views::views(&split.workload).expect("views");
        let jobs = native.burstiness().expect("burstiness of the trace's jobs");
        assert_eq!(num_attr(&client, "#trace-views", "data-tasks").await, Some(views.tasks));
        let cells = js(
            &client,
            "return [...document.querySelectorAll('#trace-views table.burstiness tbody tr')].map(r => \
             [...r.querySelectorAll('td')].map(c => c.textContent));",
            vec![],
        )
        .await;
        let f = |t: &bagsim::workload::burstiness::Temporal| match (t.entropy, t.poisson) {
            (Some(e), Some(p)) => format!("{e:.3} ({p:.3})"),
            (Some(e), None) => format!("{e:.3}"),
            _ => "—".into(),
        };
        let want: Vec<Vec<String>> = views
            .burstiness
            .iter()
            .zip(&jobs.temporal)
            .map(|(b, j)| vec![bagsim::workload::burstiness::scale_label(b.interval), f(&b.tasks), f(&b.bots), f(j)])
            .collect();
        assert_eq!(cells, serde_json::json!(want), "the page's burstiness table differs from the native views");
        wait_for(&client, IMPORT_TIMEOUT, "the five view charts", || async {
            let n =
                js(&client, "return document.querySelectorAll('#trace-views .views-charts svg').length;", vec![]).await;
            (n.as_u64() == Some(5)).then_some(())
        })
        .await;
        js(&client, "document.querySelector('#trace-lab').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "trace-lab.png").await;
        println!("screenshot: {}", shot.display());

        // A bad file says why and keeps the trace already imported.
        let dir = std::env::temp_dir().join(format!("bagsim-e2e-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.swf");
        std::fs::write(&empty, "").unwrap();
        pick(&client, &empty).await;
        assert_eq!(wait_import(&client).await, "imported");
        let message = text(&client, "#trace-message").await.unwrap_or_default();
        assert!(message.contains("empty") && message.contains("hpc2n.swf") && message.contains("kept"), "{message:?}");
        assert_eq!(num_attr(&client, "#trace-bots", "data-bots").await, Some(split.report.bots));

        // The trace's platform and the trace itself as the next run: the native figures of the same scenario.
        click(&client, "#trace-use-platform").await;
        click(&client, "#trace-use").await;
        let mut scenario = scenario_in_url(&client).await;
        let clusters = scenario.multi_cluster().unwrap().platform.clusters().expect("clusters");
        assert_eq!((clusters.len(), clusters[0].processors), (1, 240), "MaxProcs 240 as one cluster");
        let t = scenario.multi_cluster_mut().unwrap().workload.trace.as_mut().expect("the scenario replays the trace");
        assert_eq!((t.path.as_str(), t.split_parallel, t.delta), ("hpc2n.swf", true, BotRule::default().delta));
        assert_eq!(attr(&client, "#workload-source", "data-source").await.as_deref(), Some("trace"));
        let cards = run_to_the_end(&client).await;
        t.path = file.to_str().unwrap().to_string();
        assert_matches_native(&cards, &scenario, "the imported trace");
        let shot = screenshot(&client, "trace-run.png").await;
        println!("screenshot: {}", shot.display());

        // A sweep of the trace: the pool's workers import the same file first, and every point is the native run
        // (a trace keeps its own times, so the six loads of a policy give the same run).
        js(&client, "document.querySelector('details.sweep').open = true; return true;", vec![]).await;
        wait_enabled(&client, "#sweep-run", READY_TIMEOUT).await;
        click(&client, "#sweep-run").await;
        let want = "18 of 18 runs done";
        let status = wait_for(&client, RUN_TIMEOUT, "the trace sweep", || async {
            let s = text(&client, "#sweep-status").await.unwrap_or_default();
            (s.starts_with(want) || s.contains("lost")).then_some(s)
        })
        .await;
        assert_eq!(status, want, "a run of the trace sweep was lost");
        let series = js(
            &client,
            "return JSON.parse(document.querySelector('#chart-sweep-ms').dataset.series).map(([p, pts]) => \
             [p, pts.map(([x, y]) => String(y))]);",
            vec![],
        )
        .await;
        let series = series.as_array().expect("the sweep's data-series");
        assert_eq!(series.len(), 3, "three policies: {series:?}");
        for line in series {
            let policy = line[0].as_str().unwrap();
            let mut s = scenario.clone();
            s.multi_cluster_mut().unwrap().scheduling = policy.parse().expect("a scheduling policy");
            let native = bagsim::run::run(s.multi_cluster().unwrap())
                .expect("the trace runs natively")
                .metrics
                .overall
                .makespan
                .mean;
            let points = line[1].as_array().unwrap();
            assert_eq!(points.len(), 6, "{policy}");
            for p in points {
                let page = parse_figure(p.as_str().unwrap()).unwrap_or(f64::NAN);
                assert!(same_f64(page, native), "{policy}: the page's sweep gives {page}, the native run {native}");
            }
        }

        // The fitted row as the model of the next run.
        click(&client, "#trace-use-model").await;
        let scenario = scenario_in_url(&client).await;
        assert!(scenario.multi_cluster().unwrap().workload.trace.is_none());
        assert_eq!(
            scenario.multi_cluster().unwrap().workload.model.as_ref(),
            Some(&fit.to_model()),
            "the model is the native fitted row"
        );
        assert_eq!(attr(&client, "#workload-source", "data-source").await.as_deref(), Some("model"));
        let cards = run_to_the_end(&client).await;
        assert_matches_native(&cards, &scenario, "the fitted model");

        // The views of the scenario's generated workload.
        click(&client, "#scenario-views-button").await;
        let bots = bagsim::run::prepare(scenario.multi_cluster().unwrap())
            .expect("the scenario prepares")
            .generated
            .workload
            .bots
            .len() as u64;
        wait_for(&client, IMPORT_TIMEOUT, "#scenario-views", || async {
            (num_attr(&client, "#scenario-views", "data-bots").await == Some(bots)).then_some(())
        })
        .await;
        // …and the row fitted to it, with every candidate: the native fit of the same generated workload.
        let generated =
            bagsim::run::prepare(scenario.multi_cluster().unwrap()).expect("the scenario prepares").generated.workload;
        let (row, candidates) =
            bagsim::workload::fit_workload::fit_workload_with_candidates(&generated).expect("a row");
        let want = row_notations(&row);
        let got = wait_for(&client, IMPORT_TIMEOUT, "#scenario-fit", || async {
            let rows = js(
                &client,
                "return [...document.querySelectorAll('#scenario-fit tbody tr')].map(r => \
                 r.querySelector('.dist').textContent);",
                vec![],
            )
            .await;
            (rows.as_array().is_some_and(|r| !r.is_empty())).then_some(rows)
        })
        .await;
        assert_eq!(got, serde_json::json!(want), "the generated workload's fitted row differs from the native one");
        let n =
            js(&client, "return document.querySelectorAll('#scenario-candidates table.candidates').length;", vec![])
                .await;
        assert_eq!(n.as_u64(), Some(candidates.characteristics.len() as u64));
        js(&client, "document.querySelector('#scenario-views').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "scenario-views.png").await;
        println!("screenshot: {}", shot.display());

        // The log replayed without splitting its parallel jobs: the run says first, in numbers, that most of the
        // log is left out and how to keep it (issue #45 item 6: 147 of the 3 145 jobs are one-processor jobs).
        click(&client, "#trace-split").await;
        click(&client, "#trace-use").await;
        run_to_the_end(&client).await;
        let all = "return [...document.querySelectorAll('.warning')].map(w => w.textContent).join(' | ');";
        let said = js(&client, all, vec![]).await;
        let said = said.as_str().unwrap_or_default().to_string();
        assert!(said.contains("only 147 of the log's 3 145 jobs are simulated (95% left out)"), "{said}");
        assert!(said.contains("split") && said.contains("data-grid family"), "{said}");
        js(&client, "document.querySelector('.warning').scrollIntoView({block: 'center'}); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "trace-left-out.png").await.display());
        client.set_window_size(360, 800).await.expect("a phone's width");
        js(&client, "document.querySelector('.warning').scrollIntoView({block: 'center'}); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "trace-left-out-360.png").await.display());
        std::fs::remove_dir_all(&dir).ok();
    })
    .await;
}

/// The Login/Logout users are edited in the page (preset, a user added, a bad rate refused with its reason and
/// nothing changed, a rate set, the group copied) and the run is the native run of the same scenario.
#[tokio::test]
async fn login_logout_users_are_edited_and_run_as_natively() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#generator", "login_logout").await;
        wait_for(&client, IMPORT_TIMEOUT, "#ll-editor", || async { exists(&client, "#ll-editor").await.then_some(()) })
            .await;
        assert_eq!(attr(&client, "#ll-editor", "data-users").await.as_deref(), Some("4"), "the four Biomed users");
        set_control(&client, "#ll-preset", "biomed-1").await;
        assert_eq!(attr(&client, "#ll-editor", "data-users").await.as_deref(), Some("1"));
        click(&client, "#ll-add").await;
        assert_eq!(attr(&client, "#ll-editor", "data-users").await.as_deref(), Some("2"));
        let before = scenario_in_url(&client).await;
        set_control(&client, "#ll-lambda-1", "-1").await;
        let error = text(&client, "[data-field='workload.generator.login_logout']").await.unwrap_or_default();
        assert!(error.contains("users[1].lambda") && error.contains("allowed"), "{error:?}");
        assert_eq!(scenario_in_url(&client).await, before, "a refused rate changes nothing");
        set_control(&client, "#ll-mu-1", "0.0003").await;
        set_control(&client, "#ll-copies", "3").await;
        click(&client, "#ll-replicate").await;
        assert_eq!(attr(&client, "#ll-editor", "data-users").await.as_deref(), Some("6"));
        let scenario = scenario_in_url(&client).await;
        let Some(bagsim::workload::generators::Generator::LoginLogout(g)) =
            &scenario.multi_cluster().unwrap().workload.generator
        else {
            panic!(
                "the scenario's workload is not Login/Logout: {:?}",
                scenario.multi_cluster().unwrap().workload.generator
            )
        };
        let biomed = bagsim::workload::login_logout::biomed_users();
        assert_eq!(g.users.len(), 6);
        for copy in 0..3 {
            assert_eq!((g.users[2 * copy].lambda, g.users[2 * copy].mu), (biomed[1].lambda, biomed[1].mu));
            assert_eq!((g.users[2 * copy + 1].lambda, g.users[2 * copy + 1].mu), (biomed[1].lambda, 0.0003));
        }
        set_control(&client, "#submission-days", "3").await;
        let scenario = scenario_in_url(&client).await;
        let cards = run_to_the_end(&client).await;
        assert_matches_native(&cards, &scenario, "the edited Login/Logout users");
        js(&client, "document.querySelector('#ll-editor').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "login-logout.png").await;
        println!("screenshot: {}", shot.display());
    })
    .await;
}

/// A Batsim JSON workload picked in the Workload lab is imported in the worker with the native importer's counts,
/// its format found from the file's name, and a bad entry is reported with its place, as natively.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batsim_workload_is_imported_as_natively() {
    let dir = std::env::temp_dir().join(format!("bagsim-e2e-batsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("three.json");
    std::fs::write(
        &file,
        r#"{"nb_res": 4, "jobs": [
  {"id": 1, "subtime": 0, "res": 1, "walltime": 100, "profile": "short"},
  {"id": 2, "subtime": 10, "res": 2, "profile": "long"},
  {"id": 3, "subtime": -5, "res": 1, "profile": "short"},
  {"id": 4, "subtime": 20, "res": 1, "profile": "short"}],
 "profiles": {"short": {"type": "delay", "delay": 5}, "long": {"type": "delay", "delay": 42}}}"#,
    )
    .expect("the workload file");
    let native = import_path(&file, None).expect("the native import");
    assert_eq!((native.report.jobs, native.report.skipped), (3, 1), "the hand-written file's counts");
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        pick(&client, &file).await;
        assert_eq!(wait_import(&client).await, "imported", "{:?}", text(&client, "#trace-message").await);
        let r = &native.report;
        for (name, want) in [("data-lines", r.lines), ("data-jobs", r.jobs), ("data-skipped", r.skipped)] {
            assert_eq!(num_attr(&client, "#trace-report", name).await, Some(want), "#trace-report {name}");
        }
        let status = text(&client, "#trace-status").await.unwrap_or_default();
        println!("import: {status}");
        let report = text(&client, "#trace-report").await.unwrap_or_default();
        assert!(report.contains("subtime"), "the skipped entry's reason is not shown: {report:?}");
        js(&client, "document.querySelector('#trace-report').scrollIntoView({block: 'center'}); return true;", vec![])
            .await;
        println!("screenshot: {}", screenshot(&client, "trace-batsim.png").await.display());
        std::fs::remove_dir_all(&dir).ok();
    })
    .await;
}
