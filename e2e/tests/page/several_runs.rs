//! Pages of several runs: a pinned run overlaid on the next, a sweep over loads and policies, a paper figure,
//! and the other workload models, each against the native simulator.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pinned_run_is_overlaid_on_the_next() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_small_scenario(&client, 5).await;
        let ect = run_to_the_end(&client).await;
        click(&client, "#pin").await;
        set_control(&client, "#scheduling", "RR").await;
        let rr = run_to_the_end(&client).await;
        let mut rr_scenario = small_scenario(5);
        rr_scenario.multi_cluster_mut().unwrap().scheduling = "RR".parse().expect("RR is a scheduling policy");
        assert_matches_native(&rr, &rr_scenario, "the run after pinning");
        assert_ne!(ect.figures(), rr.figures(), "ECT and RR gave the same figures");

        let legend =
            js(&client, "return [...document.querySelectorAll('ul.pinned li')].map(e => e.textContent);", vec![]).await;
        println!("legend: {legend}");
        let items: Vec<&str> =
            legend.as_array().map(|a| a.iter().filter_map(|v| v.as_str()).collect()).unwrap_or_default();
        assert_eq!(items.len(), 2, "the legend should list the current run and the pinned one: {items:?}");
        assert!(items[1].contains("ECT"), "the pinned run's label does not name its policy (ECT): {items:?}");

        // Both runs are drawn, each in its colour (charts::PALETTE[0] and [1]), on every per-run chart.
        for canvas in ["#chart-nsl-class", "#chart-ms-class", "#chart-cdf", "#chart-util"] {
            let current = colour_pixels(&client, canvas, [0, 114, 178]).await;
            let pinned = colour_pixels(&client, canvas, [213, 94, 0]).await;
            println!("{canvas}: {current} pixels of the current run's colour, {pinned} of the pinned run's");
            assert!(current > 100 && pinned > 100, "{canvas} does not show both runs ({current} and {pinned} pixels)");
        }
        js(&client, "document.querySelector('#charts').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "pinned.png").await;
        println!("screenshot: {}", shot.display());
    })
    .await;
}

/// The numbers a sweep chart plotted (its `data-series`): one line per policy, (load, value) points. The browser's
/// JSON.parse reads them and hands them over as strings, which `str::parse` reads back exactly (serde_json's default
/// float parser may be one unit in the last place off on 17-digit numbers).
async fn sweep_series(client: &Client, css: &str) -> Vec<(String, Vec<(f64, f64)>)> {
    let v = js(
        client,
        "const e = document.querySelector(arguments[0]);
         if (!e || !e.dataset.series) return null;
         return JSON.parse(e.dataset.series).map(([p, pts]) => [p, pts.map(([x, y]) => [String(x), String(y)])]);",
        vec![json!(css)],
    )
    .await;
    let number = |x: &serde_json::Value| x.as_str().and_then(parse_figure).unwrap_or(f64::NAN);
    v.as_array()
        .unwrap_or_else(|| panic!("{css} has no data-series"))
        .iter()
        .map(|line| {
            let points = line[1].as_array().map(|a| a.iter().map(|p| (number(&p[0]), number(&p[1]))).collect());
            (line[0].as_str().unwrap_or_default().to_string(), points.unwrap_or_default())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_runs_every_load_and_policy_and_matches_native() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_small_scenario(&client, 3).await;
        let base_scenario = scenario_in_url(&client).await;
        js(&client, "document.querySelector('details.sweep').open = true; return true;", vec![]).await;
        wait_enabled(&client, "#sweep-run", READY_TIMEOUT).await;
        click(&client, "#sweep-run").await;
        // The default choice: FPLT, ECT and RR at six loads.
        let total = 18;
        let want = format!("{total} of {total} runs done");
        let status = wait_for(&client, RUN_TIMEOUT, &format!("#sweep-status to say '{want}'"), || async {
            let s = text(&client, "#sweep-status").await.unwrap_or_default();
            (s.starts_with(&want) || s.contains("lost")).then_some(s)
        })
        .await;
        assert_eq!(status, want, "the sweep did not finish every run");

        for (css, nsl) in [("#chart-sweep-ms", false), ("#chart-sweep-nsl", true)] {
            let series = sweep_series(&client, css).await;
            let policies: Vec<&str> = series.iter().map(|(p, _)| p.as_str()).collect();
            assert_eq!(policies, ["ECT", "FPLT", "RR"], "{css} does not plot the three chosen policies");
            let mut differ = Vec::new();
            for (policy, points) in &series {
                let loads: Vec<f64> = points.iter().map(|p| p.0).collect();
                assert_eq!(loads, [0.2, 0.35, 0.5, 0.65, 0.8, 0.95], "{css}, {policy}: not every load of the sweep");
                for &(load, value) in points {
                    let mut s = base_scenario.clone();
                    s.multi_cluster_mut().unwrap().scheduling = policy.parse().expect("a scheduling policy");
                    s.multi_cluster_mut().unwrap().workload.load = Some(load);
                    let m = bagsim::run::run(s.multi_cluster().unwrap()).expect("runs natively").metrics.overall;
                    let native = if nsl { m.nsl.mean } else { m.makespan.mean };
                    if !same_f64(value, native) {
                        differ.push(format!("{policy} at load {load}: page {value}, native {native}"));
                    }
                }
            }
            assert!(differ.is_empty(), "{css} differs from native runs:\n  {}", differ.join("\n  "));
            for (i, rgb) in [[0, 114, 178], [213, 94, 0], [0, 158, 115]].into_iter().enumerate() {
                let n = colour_pixels(&client, css, rgb).await;
                assert!(n > 50, "{css}: the line of {} (colour {rgb:?}) has only {n} pixels", policies[i]);
            }
            println!("{css}: 3 policies × 6 loads, every point equal to the native run");
        }
        js(&client, "document.querySelector('details.sweep').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "sweep.png").await;
        println!("screenshot: {}", shot.display());
    })
    .await;
}

/// A paper figure run in the page's worker pool gives, byte for byte, the CSV and the SVG of the same library code
/// run natively (what `bagsim reproduce fig10 --seeds 1` writes), and shows the paper's findings with verdicts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paper_figure_matches_the_native_reproduction() {
    use bagsim::family::multi_cluster::figures::{
        claims::claims, svg::figure_svg, Base, FigureId, MONTH, QUICK_PERIOD,
    };
    // The quick base: a month at 95% load holds millions of tasks a run, too long for this test.
    let native = native_figure(FigureId::Fig10, 1, QUICK_PERIOD);
    assert!(native.failures.is_empty(), "native runs failed: {:?}", native.failures);
    let (native_csv, native_svg) = (native.to_csv(), figure_svg(&native));
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        // Bad input starts nothing and says why.
        set_control(&client, "#paper-seeds", "0").await;
        assert!(!is_enabled(&client, "#paper-run").await, "#paper-run is enabled with 0 seeds");
        let error = text(&client, "#paper-error").await.unwrap_or_default();
        assert!(error.contains("from 1 to 20"), "no clear message for 0 seeds: {error:?}");

        // The panel opens on the CLI's base, and names the base of its verdicts.
        let opened = js(&client, "return document.querySelector('#paper-period').value;", vec![]).await;
        assert_eq!(opened.as_str(), Some(MONTH.to_string().as_str()), "the paper figures do not open on the month");
        let named = attr(&client, "#paper-base", "data-base").await;
        assert_eq!(named.as_deref(), Some(Base::Month.name()), "#paper-base does not name the month");

        let (csv, elapsed) = run_paper_figure(&client, "fig10", 1, QUICK_PERIOD, RUN_TIMEOUT).await;
        let named = attr(&client, "#paper-base", "data-base").await;
        assert_eq!(named.as_deref(), Some(Base::Quick.name()), "#paper-base does not name the quick base");
        let said = text(&client, "#paper-base").await.unwrap_or_default();
        assert!(said.contains("not the CLI's base"), "the quick base's verdicts are not marked as such: {said:?}");
        println!("Figure 10 with 1 seed: {} runs in {elapsed:.1} s", native.total());
        assert!(csv == native_csv, "the page's CSV differs from the native one:\npage:\n{csv}\nnative:\n{native_csv}");
        let (_, total, _) = paper_counts(&client).await;
        assert_eq!(total, 7, "Figure 10 has 7 selection policies × 1 point × 1 seed");

        let inner = js(&client, "return document.querySelector('#paper-svg').innerHTML;", vec![]).await;
        let inner = inner.as_str().unwrap_or_default();
        assert!(inner.contains("<svg"), "#paper-svg holds no <svg>: {inner:.200}");
        let rows = js(
            &client,
            "return [...document.querySelectorAll('#paper-claims tbody tr')].map(r => r.dataset.verdict);",
            vec![],
        )
        .await;
        let rows: Vec<String> =
            rows.as_array().into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect();
        let want: Vec<String> = claims(&native).iter().map(|c| c.verdict.label().to_string()).collect();
        assert!(!rows.is_empty(), "#paper-claims has no rows");
        assert_eq!(rows, want, "the verdicts in #paper-claims differ from the native ones");
        // The paper's words once per sentence (checks of one sentence share its cell), and a way from every
        // finding that disagrees or is not resolved to "Which assumption carries this result?".
        let shape = js(
            &client,
            "return [...document.querySelectorAll('#paper-claims tbody tr')].map(r => [r.querySelectorAll('q').length, \
             r.querySelector('a.which-reading')?.getAttribute('href') ?? '']);",
            vec![],
        )
        .await;
        let shape: Vec<(u64, String)> = serde_json::from_value(shape).unwrap();
        let natives = claims(&native);
        for (k, ((quotes, link), c)) in shape.iter().zip(&natives).enumerate() {
            let first = k == 0 || natives[k - 1].paper != c.paper;
            assert_eq!(*quotes, u64::from(first), "row {k}: the quotation is shown {quotes} times");
            let open = matches!(c.verdict.label(), "disagrees" | "not resolved");
            assert_eq!(link.as_str(), if open { "#mc-readings" } else { "" }, "row {k} ({})", c.verdict.label());
        }
        // What we measured, word for word the native finding's, with what would resolve an open one (#45 item 9).
        let ours = js(
            &client,
            "return [...document.querySelectorAll('#paper-claims tbody tr')]\
             .map(r => r.querySelector('td:not(.quote)').textContent);",
            vec![],
        )
        .await;
        let ours: Vec<String> = serde_json::from_value(ours).unwrap();
        let want: Vec<&str> = natives.iter().map(|c| c.ours.as_str()).collect();
        assert_eq!(ours, want, "the findings' texts differ from the native ones");
        for c in natives.iter().filter(|c| c.verdict.label() == "not resolved" && c.ours.contains("overlap")) {
            assert!(c.ours.contains("what would resolve it"), "an open finding says nothing of what would: {}", c.ours);
        }

        capture_downloads(&client).await;
        click(&client, "#paper-download-csv").await;
        let (name, text) = captured_download(&client, 1, Duration::from_secs(10)).await;
        assert_eq!(name, "bagsim-fig10.csv");
        assert!(text == native_csv, "the downloaded CSV differs from the native one");
        click(&client, "#paper-download-svg").await;
        let (name, text) = captured_download(&client, 2, Duration::from_secs(10)).await;
        assert_eq!(name, "bagsim-fig10.svg");
        assert!(text == native_svg, "the downloaded SVG differs from the native one");

        js(&client, "document.querySelector('#paper').scrollIntoView(); return true;", vec![]).await;
        let shot = screenshot(&client, "paper-figure.png").await;
        println!("screenshot: {}", shot.display());
        // The findings at a phone's width, an open one with what would resolve it (#45 item 9).
        client.set_window_size(360, 800).await.expect("a phone's width");
        js(&client, "document.querySelector('#paper-claims').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "paper-figure-360.png").await.display());
    })
    .await;
}

/// The other two workload models, chosen in the page, give the native figures of the scenario the page keeps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_workload_models_run_as_natively() {
    with_browser(|client, base| async move {
        open_ready(&client, &base).await;
        set_control(&client, "#submission-days", "2").await;
        for (model, name) in [("login_logout", "Login/Logout"), ("minh_wolters", "Minh & Wolters")] {
            set_control(&client, "#generator", model).await;
            let scenario = scenario_in_url(&client).await;
            let chosen = scenario.multi_cluster().unwrap().workload.generator.as_ref().map(|g| g.name());
            assert_eq!(chosen, Some(model), "#generator did not set workload.generator");
            let cards = run_to_the_end(&client).await;
            assert_matches_native(&cards, &scenario, name);
        }
        set_control(&client, "#generator", "table3").await;
        assert!(scenario_in_url(&client).await.multi_cluster().unwrap().workload.generator.is_none());
    })
    .await;
}
