//! A lesson on the built page (dist/) in headless Chromium: opened by its link, a prediction written, run in the
//! page's workers, its answer equals `bagsim lesson` (the same library code run natively) and its explanation shows;
//! the prediction stays after a reload; axe-core finds no violation with the lesson open.
//!
//! Run with scripts/test-browser.sh (it builds the page first). One browser per test; `--test-threads=1`.

use std::time::Duration;

use bagsim::lessons;
use bagsim::registry::run_any;
use e2e::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_runs_from_question_to_explanation_with_the_native_numbers() {
    let lesson = lessons::find("load").unwrap();
    let values: Vec<f64> =
        lesson.runs().unwrap().iter().map(|(_, _, s)| lesson.value(&run_any(s).unwrap()).unwrap()).collect();
    let native = lesson.means(&values);
    with_browser(|client, base| async move {
        let url = format!("{base}?lesson=load");
        open_ready(&client, &url).await;
        let question = text(&client, "#lesson-question").await.unwrap_or_default();
        assert!(question.contains("mean wait"), "the lesson's question is not shown: {question:?}");
        set_control(&client, "#lesson-prediction", "it doubles at each step").await;
        click(&client, "#lesson-run").await;
        wait_for(&client, Duration::from_secs(120), "#lesson-status finished", || async {
            let s = text(&client, "#lesson-status").await.unwrap_or_default();
            s.starts_with("finished").then_some(())
        })
        .await;
        let rows = js(
            &client,
            "return [...document.querySelectorAll('#lesson-answer tbody tr')].map(r => r.dataset.value);",
            vec![],
        )
        .await;
        let page: Vec<f64> =
            rows.as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse::<f64>().unwrap()).collect();
        assert_eq!(page.len(), native.len());
        for (p, n) in page.iter().zip(&native) {
            assert!(p.to_bits() == n.to_bits(), "page {p} vs native {n}");
        }
        let why = text(&client, "#lesson-explanation").await.unwrap_or_default();
        assert!(why.contains("1 / (1 − load)"), "no explanation: {why:?}");
        let violations = axe_violations(&client, "with a lesson open").await;
        assert!(violations.is_empty(), "axe-core with a lesson open:\n  {}", violations.join("\n  "));
        js(&client, "document.querySelector('#lessons').scrollIntoView(); return true;", vec![]).await;
        println!("screenshot: {}", screenshot(&client, "lesson.png").await.display());
        // The prediction is kept in this browser.
        open_ready(&client, &url).await;
        let kept = prop(&client, "#lesson-prediction", "value").await;
        assert_eq!(kept, serde_json::json!("it doubles at each step"));
    })
    .await;
}
