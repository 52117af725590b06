//! The lessons of `lessons/` (docs/lessons.md): every file parses, states its question and explanation, gives a
//! valid scenario for every variant, and runs natively to a finite answer whose claimed ordering holds with 95%
//! intervals (a lesson of long runs only with `BAGSIM_LONG=1`), and whose questions' answers are the same on its
//! seeds run twice and resolved; a broken lesson is refused with a reason.

use bagsim::lessons::{self, Claim, Lesson, Resolution, Verdict};
use bagsim::registry::run_any;

#[test]
fn every_lesson_is_valid_and_runs_to_a_finite_answer() {
    let all = lessons::all();
    assert!(all.len() >= 6, "at least six lessons, found {}", all.len());
    let mut families = std::collections::BTreeSet::new();
    let mut questions = std::collections::BTreeSet::new();
    // A lesson of the month runs for minutes in a debug build: its file is checked here, its runs with BAGSIM_LONG=1.
    let long = std::env::var_os("BAGSIM_LONG").is_some();
    for l in all {
        let l = l.unwrap_or_else(|e| panic!("{e}"));
        assert!(!l.question.trim().is_empty() && !l.explanation.trim().is_empty(), "{}", l.id);
        let runs = l.runs().unwrap();
        assert_eq!(runs.len(), l.variants.len() * l.seeds as usize);
        if l.long && !long {
            println!("{}: a lesson of long runs, not run (BAGSIM_LONG=1 runs it)", l.id);
            continue;
        }
        let values: Vec<f64> = runs
            .iter()
            .map(|(_, _, s)| {
                families.insert(s.family().name());
                l.value(&run_any(s).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", l.id))
            })
            .collect();
        assert!(values.iter().all(|v| v.is_finite()), "{}: {values:?}", l.id);
        assert_eq!(l.means(&values).len(), l.variants.len());
        // What the explanation claims holds on the lesson's own runs, with intervals; a lesson whose numbers do
        // not separate claims no ordering (and says so in its text).
        let verdict = l.verdict(&values);
        assert!(matches!(verdict, Verdict::Holds(_) | Verdict::NoClaim), "{}: {}", l.id, verdict.sentence());
        assert_eq!(matches!(verdict, Verdict::NoClaim), l.claim == Claim::NoOrder, "{}", l.id);
        // Each question's answer comes out the same when the lesson's seeds run again from its file, and is
        // resolved on them (every answer a student can give is right or wrong) unless the question allows it not.
        if !l.questions.is_empty() {
            let again: Vec<f64> =
                l.runs().unwrap().iter().map(|(_, _, s)| l.value(&run_any(s).unwrap()).unwrap()).collect();
            for (i, (a, b)) in l.answers(&values).into_iter().zip(l.answers(&again)).enumerate() {
                let a = a.unwrap_or_else(|e| panic!("{}: question {i}: {e}", l.id));
                assert_eq!(Ok(&a), b.as_ref(), "{}: question {i} differs between two runs of its seeds", l.id);
                assert!(a.correct.is_some(), "{}: question {i} has no answer: {}", l.id, a.explanation);
                let resolved = a.resolution == Resolution::Resolved;
                assert!(resolved || l.questions[i].not_resolved_ok, "{}: question {i}: {:?}", l.id, a.resolution);
                questions.insert(s_family(&l));
            }
        }
    }
    assert_eq!(families.len(), 3, "the lessons cover every family: {families:?}");
    if !long {
        assert_eq!(questions.len(), 3, "a lesson of every family asks questions: {questions:?}");
    }
}

/// The family of a lesson's scenario.
fn s_family(l: &Lesson) -> &'static str {
    l.scenario(0, 1).unwrap().family().name()
}

#[test]
fn a_broken_lesson_is_refused_with_a_reason() {
    let good = lessons::find("load").unwrap();
    let text = serde_json::to_string(&good).unwrap();
    let broken = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        edit(&mut v);
        serde_json::from_value::<Lesson>(v)
            .map_err(|e| e.to_string())
            .and_then(|l| l.check().map_err(|e| e.to_string()))
    };
    assert!(broken(&|v| v["question"] = "".into()).unwrap_err().contains("question"));
    assert!(broken(&|v| v["seeds"] = 0.into()).unwrap_err().contains("seeds"));
    assert!(broken(&|v| v["metric"] = "metrics.nsl".into()).unwrap_err().contains("JSON pointer"));
    let e = broken(&|v| v["variants"][0]["set"]["workload.load"] = 7.into()).unwrap_err();
    assert!(e.contains("workload.load") && e.contains("load 50%"), "{e}");
    assert!(broken(&|v| v["colour"] = "red".into()).unwrap_err().contains("colour"));
    // The prediction, the answer's label and the conversion agree on one unit.
    assert!(broken(&|v| v["unit"] = "h".into()).unwrap_err().contains("\"hours\""));
    let e = broken(&|v| v["metric_label"] = "mean task wait [h]".into()).unwrap_err();
    assert!(e.contains("does not end with the answer's unit [s]"), "{e}");
    let e = broken(&|v| v["unit"] = "%".into()).unwrap_err();
    assert!(e.contains("does not fit the metric"), "{e}");
    assert!(lessons::find("nope").unwrap_err().to_string().contains("the lessons are"));
    // A claim names a variant, and needs seeds for its intervals.
    let e = broken(&|v| v["claim"] = serde_json::json!({"lowest": "load 60%"})).unwrap_err();
    assert!(e.contains("\"load 60%\", which is not a variant's label"), "{e}");
    let e = broken(&|v| v["seeds"] = 1.into()).unwrap_err();
    assert!(e.contains("at least 2 seeds"), "{e}");
    assert!(broken(&|v| v["claim"] = "rising".into()).unwrap_err().contains("rising"));
    // A key to write as a script is one the page's script boxes edit, in the lesson's family.
    let e = broken(&|v| v["your_own"] = "bot_selection".into()).unwrap_err();
    assert!(e.contains("your_own \"bot_selection\"") && e.contains("scheduling (multi_cluster)"), "{e}");
    broken(&|v| v["your_own"] = "selection".into()).expect("a multi-cluster lesson may ask for a selection script");
    // The class's scenario: the lesson's, with the script in place of the key.
    let beat = lessons::find("beat-fplt").unwrap();
    let s = beat.your_own_scenario("fn choose(e, v) { wait() }").unwrap().unwrap();
    let m = s.multi_cluster().unwrap();
    assert_eq!(m.scheduling.script(), Some("fn choose(e, v) { wait() }"));
    assert_eq!(m.workload.load, Some(0.95));
    assert!(good.your_own_scenario("x").is_none());
}

/// The claim's verdict on numbers worked by hand. Two seeds per variant at level k: values g·e^∓0.05 around
/// g = 10 · 4^(k/30). Their logarithms are 0.1 apart: s² = 0.1²/2 = 0.005, so the modified Cox interval is
/// g · exp(s²/2 ± t_{0.975,1} · √(s²/2 + s⁴/2)) = g · exp(0.0025 ± 12.706205 · 0.050125) = g · exp(0.0025 ± 0.636897):
/// g · 0.53026 to g · 1.89534, a ratio of 3.574; the mean is g · cosh 0.05 = 1.00125 g. Levels 30 apart (g four
/// times as large) are apart; levels 20 apart (2.52 times) overlap. At level 0: 10.0125 (95%: 5.3026 – 18.953),
/// shown to three significant digits as 10.0 (95%: 5.30 – 19.0); at level 20, g = 25.198: 25.230 (95%: 13.362 –
/// 47.759), shown as 25.2 (95%: 13.4 – 47.8).
#[test]
fn a_claim_is_checked_on_the_intervals() {
    let mut l = lessons::find("load").unwrap();
    l.seeds = 2;
    let g = |k: f64| 10.0 * 4f64.powf(k / 30.0);
    let at = |levels: [f64; 3]| -> Vec<f64> {
        levels.iter().flat_map(|&k| [g(k) * (-0.05f64).exp(), g(k) * 0.05f64.exp()]).collect()
    };
    l.claim = Claim::Increasing;
    let v = l.verdict(&at([0.0, 30.0, 60.0]));
    assert!(matches!(v, Verdict::Holds(_)), "{v:?}");
    let v = l.verdict(&at([0.0, 20.0, 60.0]));
    let says = |s: &str| {
        s.contains("load 50% at 10.0 (95%: 5.30 – 19.0)")
            && s.contains("load 70% at 25.2 (95%: 13.4 – 47.8)")
            && !s.contains("load 90%")
    };
    assert!(matches!(&v, Verdict::NotResolved(s) if says(s)), "{v:?}");
    let v = l.verdict(&at([0.0, 60.0, 30.0]));
    assert!(matches!(&v, Verdict::Contradicted(s) if s.contains("load 70%") && s.contains("above load 90%")), "{v:?}");
    l.claim = Claim::Decreasing;
    assert!(matches!(l.verdict(&at([60.0, 30.0, 0.0])), Verdict::Holds(_)));
    l.claim = Claim::Lowest("load 70%".into());
    assert!(matches!(l.verdict(&at([30.0, 0.0, 60.0])), Verdict::Holds(_)));
    assert!(matches!(l.verdict(&at([10.0, 0.0, 60.0])), Verdict::NotResolved(_)));
    assert!(matches!(l.verdict(&at([0.0, 30.0, 60.0])), Verdict::Contradicted(_)));
    l.claim = Claim::Highest("load 90%".into());
    assert!(matches!(l.verdict(&at([0.0, 30.0, 60.0])), Verdict::Holds(_)));
    l.claim = Claim::NoOrder;
    assert_eq!(l.verdict(&at([0.0, 30.0, 60.0])), Verdict::NoClaim);
    // One seed gives no interval, so nothing is separated.
    l.seeds = 1;
    l.claim = Claim::Increasing;
    assert!(matches!(l.verdict(&[g(0.0), g(30.0), g(60.0)]), Verdict::NotResolved(_)));
}
