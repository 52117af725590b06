//! The lessons of `lessons/` (docs/lessons.md): every file parses, states its question and explanation, gives a
//! valid scenario for every variant, and runs natively to a finite answer; a broken lesson is refused with a reason.

use bagsim::lessons::{self, Lesson};
use bagsim::registry::run_any;

#[test]
fn every_lesson_is_valid_and_runs_to_a_finite_answer() {
    let all = lessons::all();
    assert!(all.len() >= 6, "at least six lessons, found {}", all.len());
    let mut families = std::collections::BTreeSet::new();
    for l in all {
        let l = l.unwrap_or_else(|e| panic!("{e}"));
        assert!(!l.question.trim().is_empty() && !l.explanation.trim().is_empty(), "{}", l.id);
        let runs = l.runs().unwrap();
        assert_eq!(runs.len(), l.variants.len() * l.seeds as usize);
        let values: Vec<f64> = runs
            .iter()
            .map(|(_, _, s)| {
                families.insert(s.family().name());
                l.value(&run_any(s).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", l.id))
            })
            .collect();
        assert!(values.iter().all(|v| v.is_finite()), "{}: {values:?}", l.id);
        assert_eq!(l.means(&values).len(), l.variants.len());
    }
    assert_eq!(families.len(), 3, "the lessons cover every family: {families:?}");
}

#[test]
fn a_broken_lesson_is_refused_with_a_reason() {
    let good = lessons::find("load").unwrap();
    let text = serde_json::to_string(&good).unwrap();
    let broken = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        edit(&mut v);
        serde_json::from_value::<Lesson>(v).map_err(|e| e.to_string()).and_then(|l| l.check())
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
    assert!(lessons::find("nope").unwrap_err().contains("the lessons are"));
}
