//! "Your own policy" in the page (docs/policies.md): the FPLT example as a script, an error shown at its line
//! before Run (the worker compiles it: the page has no engine), the fixed script run in the worker with the native
//! numbers, pinned beside the built-in FPLT (the two give the same run), a link that holds the script, and the
//! script as one more series of the page's sweep.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::registry::run_any;
use bagsim::scenario::Scenario;
use e2e::*;

fn small() -> Scenario {
    Scenario::from_json(r#"{"seed": 4, "workload": {"submission_period": 43200, "load": 0.9}}"#).expect("valid")
}

/// The worker's word on the script once it contains `want`.
async fn script_status(client: &e2e::fantoccini::Client, want: &str) -> String {
    wait_for(client, Duration::from_secs(20), want, || async move {
        let t = text(client, "#policy-script-status").await.unwrap_or_default();
        t.contains(want).then_some(t)
    })
    .await
}

/// Whether the script box is shown.
async fn editor_shown(client: &e2e::fantoccini::Client) -> bool {
    js(client, "const e = document.querySelector('#script-editor'); return !!e && !e.hidden;", vec![]).await
        == serde_json::json!(true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_policy_is_checked_run_pinned_and_shared() {
    with_browser(|client, base| async move {
        open_ready(&client, &format!("{base}?scenario={}", scenario_param(&small()))).await;
        assert!(!editor_shown(&client).await, "the script box shows under a built-in policy");
        set_control(&client, "#scheduling", "script").await;
        let source = prop(&client, "#policy-script", "value").await.as_str().unwrap_or_default().to_string();
        assert!(source.contains("fn choose") && source.contains("fastest_free"), "the FPLT example: {source:?}");
        script_status(&client, "compiles").await;

        // A syntax error is shown at its line before any run.
        let broken = source.replace("start(view.fastest_free())", "start(view.fastest_free()");
        assert_ne!(broken, source);
        set_control(&client, "#policy-script", &broken).await;
        let said = script_status(&client, "line ").await;
        let line = broken.lines().position(|l| l.contains("start(view.fastest_free()")).unwrap() + 1;
        println!("the broken script: {said}");
        assert!(said.contains(&format!("line {}", line)) || said.contains(&format!("line {}", line + 1)), "{said}");
        set_control(&client, "#policy-script", &source).await;
        script_status(&client, "compiles").await;

        // Run: the worker runs the script, with the native numbers of the same scenario.
        let scripted = scenario_in_url(&client).await;
        assert_eq!(scripted.multi_cluster().and_then(|m| m.scheduling.script()), Some(source.as_str()));
        let cards = run_to_the_end(&client).await;
        let native = run_any(&scripted).expect("runs natively");
        let bagsim::registry::AnyReport::MultiCluster(native) = native else { panic!("a multi-cluster report") };
        let bad = compare_with_native(&cards, &native);
        assert!(bad.is_empty(), "the scripted run differs from native:\n  {}", bad.join("\n  "));
        assert!(native.metrics.tasks.wait.mean > 0.0, "no task waited: the run tells nothing of the policy");

        // Pinned beside the built-in FPLT: the same numbers, since the example is FPLT.
        click(&client, "#pin").await;
        set_control(&client, "#scheduling", "FPLT").await;
        assert!(!editor_shown(&client).await, "the script box stays under FPLT");
        let fplt = run_to_the_end(&client).await;
        assert_eq!(fplt.figures(), cards.figures(), "the FPLT script and the built-in FPLT differ");
        let legend = text(&client, ".pinned").await.unwrap_or_default();
        assert!(legend.contains("script") && legend.contains("FPLT"), "the legend: {legend:?}");

        // The link holds the pinned run: opened afresh, Run runs the pinned script and pins it, then FPLT, with the
        // same legend and the same plotted values, run by run.
        let plotted = chart_numbers(&client, "chart-nsl-class").await;
        click(&client, "#share").await;
        let (shared, search) = location(&client).await;
        assert_eq!(search.matches("&pin=").count(), 1, "one pinned run in the link: {search}");
        open_ready(&client, &shared).await;
        let waiting = text(&client, "#message").await.unwrap_or_default();
        assert!(waiting.contains("holds a pinned run"), "the run bar before Run: {waiting:?}");
        let before = text(&client, ".pinned").await.unwrap_or_default();
        assert!(before.contains("No run yet"), "the legend before Run: {before:?}");
        run_to_the_end(&client).await;
        wait_for(&client, RUN_TIMEOUT, "the link's own run after its pinned run", || async {
            let legend_now = text(&client, ".pinned").await.unwrap_or_default();
            (status(&client).await == "finished" && legend_now == legend).then_some(())
        })
        .await;
        let again = e2e::cards(&client).await;
        assert_eq!(again.figures(), fplt.figures(), "the link's own run differs from the FPLT run shared");
        assert_eq!(chart_numbers(&client, "chart-nsl-class").await, plotted, "the runs of the link plot other values");
        println!("screenshot: {}", screenshot(&client, "own-policy-link-pins.png").await.display());

        // A damaged pin is named in the banner; the link's own scenario still loads, and nothing runs.
        open_ready(&client, &format!("{shared}&pin=AAAA!")).await;
        let banner = wait_for(&client, Duration::from_secs(10), "#banner-error", || async {
            text(&client, "#banner-error").await.filter(|t| !t.is_empty())
        })
        .await;
        assert!(banner.contains("pinned runs could not be loaded") && banner.contains("pinned run 2"), "{banner}");
        assert_eq!(prop(&client, "#scheduling", "value").await, serde_json::json!("FPLT"));
        assert_eq!(status(&client).await, "ready");

        // The link holds the script: opened afresh, the page shows it and runs it.
        let link = format!("{base}?scenario={}", scenario_param(&scripted));
        open_ready(&client, &link).await;
        assert_eq!(prop(&client, "#scheduling", "value").await, serde_json::json!("script"));
        assert_eq!(prop(&client, "#policy-script", "value").await, serde_json::json!(source));
        script_status(&client, "compiles").await;
        js(&client, "document.querySelector('#script-editor').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "own-policy.png").await.display());
        let violations = axe_violations(&client, "with a script policy").await;
        assert!(violations.is_empty(), "axe-core with the script editor:\n  {}", violations.join("\n  "));

        // The sweep offers the script as one more series; raced against FPLT over the loads, the FPLT example
        // gives FPLT's line point for point.
        js(&client, "document.querySelector('details.sweep').open = true; return true;", vec![]).await;
        let boxes = js(
            &client,
            "const on = {}; for (const l of document.querySelectorAll('.sweep-policies label')) \
             on[l.textContent.trim()] = l.querySelector('input').checked; return on;",
            vec![],
        )
        .await;
        assert_eq!(boxes.get("Your policy"), Some(&serde_json::json!(false)), "the sweep's series: {boxes}");
        for (name, want) in [("ECT", false), ("RR", false), ("Your policy", true)] {
            if boxes.get(name) != Some(&serde_json::json!(want)) {
                let toggle = format!(
                    "for (const l of document.querySelectorAll('.sweep-policies label')) \
                     if (l.textContent.trim() === '{name}') l.querySelector('input').click(); return true;"
                );
                js(&client, &toggle, vec![]).await;
            }
        }
        wait_enabled(&client, "#sweep-run", READY_TIMEOUT).await;
        click(&client, "#sweep-run").await;
        let want = "12 of 12 runs done";
        let status = wait_for(&client, RUN_TIMEOUT, "the sweep with the script", || async {
            let s = text(&client, "#sweep-status").await.unwrap_or_default();
            (s.starts_with(want) || s.contains("lost")).then_some(s)
        })
        .await;
        assert_eq!(status, want, "a run of the sweep was lost");
        let series = js(
            &client,
            "return Object.fromEntries(JSON.parse(document.querySelector('#chart-sweep-nsl').dataset.series));",
            vec![],
        )
        .await;
        let (mine, fplt) = (&series["Your policy"], &series["FPLT"]);
        assert!(mine.as_array().is_some_and(|p| p.len() == 6), "six loads of the script: {series}");
        assert_eq!(mine, fplt, "the FPLT script's sweep differs from FPLT's");
        println!("screenshot: {}", screenshot(&client, "own-policy-sweep.png").await.display());
    })
    .await;
}

/// The "Numbers" of chart `id`, shown and read: every run's plotted values, as text.
async fn chart_numbers(client: &e2e::fantoccini::Client, id: &str) -> String {
    let open = format!("document.querySelector('#{id}-numbers').hidden");
    if js(client, &format!("return {open};"), vec![]).await == serde_json::json!(true) {
        click(client, &format!("#{id}-numbers-toggle")).await;
    }
    let numbers = text(client, &format!("#{id}-numbers")).await.unwrap_or_default();
    assert!(numbers.contains("load"), "the numbers of {id}: {numbers:?}");
    numbers
}

/// Every card of a finished run of the family shown, by id: (id, data-value).
async fn card_values(client: &e2e::fantoccini::Client, cards: &str) -> serde_json::Value {
    let js_text = format!(
        "return Array.from(document.querySelectorAll('{cards} .card')).map(c => [c.id, c.dataset.value || \
         c.textContent]);"
    );
    js(client, &js_text, vec![]).await
}

/// The desktop grid's BoT selection and the data grid's scheme as scripts: "Your own policy" opens the family's
/// example (RR-NRF, finish_time_data_aware), the worker checks it, and its run in the page gives the cards of the
/// built-in it copies; the task selection of the multi-cluster grid offers its S-BoT example the same way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_family_runs_a_scripted_policy_in_the_page() {
    with_browser(|client, base| async move {
        // Desktop grid: 8 BoTs, seed 3.
        let mut dg = Scenario::default_for(bagsim::registry::Family::DesktopGrid);
        dg.set_seed(3);
        dg.desktop_grid_mut().expect("a desktop grid").desktop_grid.bots = 8;
        open_ready(&client, &format!("{base}?scenario={}", scenario_param(&dg))).await;
        set_control(&client, "#dg-policy", "rr_nrf").await;
        run_to_the_end_of(&client).await;
        let builtin = card_values(&client, "#dg-cards").await;
        set_control(&client, "#dg-policy", "script").await;
        wait_text(&client, "#dg-policy-script-status", "compiles").await;
        let scripted = scenario_in_url(&client).await;
        let source = scripted.desktop_grid().and_then(|d| d.desktop_grid.bot_selection.script()).map(str::to_string);
        assert!(source.as_deref().is_some_and(|s| s.contains("fn select")), "the RR-NRF example: {source:?}");
        run_to_the_end_of(&client).await;
        let mine = card_values(&client, "#dg-cards").await;
        assert!(builtin.as_array().is_some_and(|c| c.len() >= 3), "the desktop grid's cards: {builtin}");
        assert_eq!(mine, builtin, "the RR-NRF script's run differs from RR-NRF's in the page");
        js(&client, "document.querySelector('#dg-policy-script-editor').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "own-policy-dg.png").await.display());

        // Data grid: 300 jobs of the bundled log, seed 3.
        let mut dd = Scenario::default_for(bagsim::registry::Family::DataGrid);
        dd.set_seed(3);
        dd.data_grid_mut().expect("a data grid").data_grid.jobs = 300;
        open_ready(&client, &format!("{base}?scenario={}", scenario_param(&dd))).await;
        set_control(&client, "#dd-scheme", "finish_time_data_aware").await;
        run_to_the_end_of(&client).await;
        let builtin = card_values(&client, "#dd-cards").await;
        set_control(&client, "#dd-scheme", "script").await;
        wait_text(&client, "#dd-scheme-script-status", "compiles").await;
        // An error is shown at its line before any run, and nothing runs it.
        let example = prop(&client, "#dd-scheme-script", "value").await.as_str().unwrap_or_default().to_string();
        let broken = format!("{example}\nfn broken( {{");
        set_control(&client, "#dd-scheme-script", &broken).await;
        let said = wait_text(&client, "#dd-scheme-script-status", "line ").await;
        let line = broken.lines().position(|l| l.starts_with("fn broken")).expect("the broken line") + 1;
        assert!(said.contains(&format!("line {line}")), "{said}");
        set_control(&client, "#dd-scheme-script", &example).await;
        wait_text(&client, "#dd-scheme-script-status", "compiles").await;
        run_to_the_end_of(&client).await;
        let mine = card_values(&client, "#dd-cards").await;
        assert!(builtin.as_array().is_some_and(|c| c.len() >= 3), "the data grid's cards: {builtin}");
        assert_eq!(mine, builtin, "the finish_time_data_aware script's run differs from the built-in's in the page");
        js(&client, "document.querySelector('#dd-scheme-script-editor').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "own-policy-dd.png").await.display());

        // Multi-cluster task selection: the S-BoT example, checked by the worker.
        open_ready(&client, &format!("{base}?scenario={}", scenario_param(&small()))).await;
        set_control(&client, "#selection", "script").await;
        wait_text(&client, "#selection-script-status", "compiles").await;
        let s = scenario_in_url(&client).await;
        assert!(s.multi_cluster().and_then(|m| m.selection.script()).is_some_and(|t| t.contains("fn select")));
        let violations = axe_violations(&client, "with a selection script").await;
        assert!(violations.is_empty(), "axe-core with the selection script:\n  {}", violations.join("\n  "));
    })
    .await;
}

/// Runs the family shown to its end.
async fn run_to_the_end_of(client: &e2e::fantoccini::Client) {
    wait_enabled(client, "#run", READY_TIMEOUT).await;
    click(client, "#run").await;
    wait_status(client, &["finished"], RUN_TIMEOUT).await;
}

/// The text of `selector` once it contains `want`.
async fn wait_text(client: &e2e::fantoccini::Client, selector: &str, want: &str) -> String {
    wait_for(client, Duration::from_secs(20), want, || async move {
        let t = text(client, selector).await.unwrap_or_default();
        t.contains(want).then_some(t)
    })
    .await
}

/// The lesson "beat-fplt" hands the class the lab: "Write your own policy" opens the lesson's month with the task
/// scheduling as a script (the FPLT example), checked by the worker, ready to run and pin.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_opens_the_lab_with_a_script_to_write() {
    with_browser(|client, base| async move {
        open_ready(&client, &format!("{base}?lesson=beat-fplt")).await;
        wait_enabled(&client, "#lesson-your-own", READY_TIMEOUT).await;
        click(&client, "#lesson-your-own").await;
        wait_text(&client, "#policy-script-status", "compiles").await;
        let s = scenario_in_url(&client).await;
        let m = s.multi_cluster().expect("the lesson's multi-cluster month");
        assert_eq!(m.workload.load, Some(0.95), "the lesson's load");
        let script = m.scheduling.script().unwrap_or_default();
        assert!(script.contains("fastest_free"), "the FPLT example: {script:?}");
        assert!(editor_shown(&client).await, "the script box is shown");
        assert_eq!(prop(&client, "#scheduling", "value").await, serde_json::json!("script"));
        println!("screenshot: {}", screenshot(&client, "lesson-your-own.png").await.display());
    })
    .await;
}
