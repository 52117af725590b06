//! The text alternative of each chart: a "Numbers" toggle that shows, as a table, the values the chart plots,
//! computed from the same run data by the same functions the drawing uses.

use super::charts::{self, RunData};
use super::{with_runs, McPage};
use crate::ui::lab::fmt_time;
use crate::ui::pins::NumbersToggle;
use crate::workload::size_class::SIZE_CLASSES;
use leptos::prelude::*;

pub use crate::ui::pins::Table;

/// The tables of chart `id` for the runs drawn (pinned runs first, the current run last, as on the chart).
pub fn tables(id: &str, runs: &[&RunData]) -> Vec<Table> {
    match id {
        "chart-queue" | "chart-util" => {
            let pick: fn(&crate::family::multi_cluster::sim::Sample) -> f64 =
                if id == "chart-queue" { charts::queued } else { charts::utilization };
            let what = if id == "chart-queue" { "queued tasks" } else { "utilization (busy / processors)" };
            runs.iter()
                .filter(|r| !r.samples.is_empty())
                .map(|r| Table {
                    caption: format!("{}: {what} over simulated time", r.label),
                    head: vec!["simulated time [days]".into(), what.into()],
                    rows: r
                        .samples
                        .iter()
                        .map(|s| {
                            let v = pick(s);
                            vec![
                                format!("{:.3}", s.time / 86_400.0),
                                if id == "chart-queue" { format!("{v}") } else { format!("{v:.4}") },
                            ]
                        })
                        .collect(),
                })
                .collect()
        }
        "chart-nsl-class" | "chart-ms-class" => {
            let nsl = id == "chart-nsl-class";
            let means: Vec<Vec<(usize, f64, f64)>> = runs.iter().map(|r| r.class_means()).collect();
            let classes: Vec<usize> =
                (0..SIZE_CLASSES.len()).filter(|&i| means.iter().any(|m| m.iter().any(|c| c.0 == i))).collect();
            if classes.is_empty() {
                return Vec::new();
            }
            let mut head = vec!["BoT size class".to_string()];
            head.extend(runs.iter().map(|r| r.label.clone()));
            let rows = classes
                .iter()
                .map(|&i| {
                    let mut row = vec![SIZE_CLASSES[i].0.to_string()];
                    row.extend(means.iter().map(|m| {
                        m.iter().find(|c| c.0 == i).map_or("—".to_string(), |c| {
                            if nsl {
                                crate::words::number_words(c.1)
                            } else {
                                fmt_time(c.2)
                            }
                        })
                    }));
                    row
                })
                .collect();
            let caption = if nsl { "Mean NSL per BoT size class" } else { "Mean makespan per BoT size class" };
            vec![Table { caption: caption.into(), head, rows }]
        }
        _ => {
            if runs.iter().all(|r| r.bots.is_empty()) {
                return Vec::new();
            }
            // The plotted CDF curves read at every tenth of the BoTs: the value below which that fraction lies.
            let mut head = vec!["fraction of BoTs".to_string()];
            for r in runs {
                head.push(format!("{}: makespan", r.label));
                head.push(format!("{}: NSL", r.label));
            }
            let curves: Vec<[Vec<(f64, f64)>; 2]> =
                runs.iter().map(|r| [charts::cdf_curve(r, false), charts::cdf_curve(r, true)]).collect();
            let at = |pts: &[(f64, f64)], q: f64| pts.iter().find(|p| p.1 >= q - 1e-12).map(|p| p.0);
            let rows = (1..=10)
                .map(|k| {
                    let q = f64::from(k) / 10.0;
                    let mut row = vec![format!("{:.0}%", 100.0 * q)];
                    for [ms, nsl] in &curves {
                        row.push(at(ms, q).map_or("—".into(), fmt_time));
                        row.push(at(nsl, q).map_or("—".into(), |v| format!("{v:.3}")));
                    }
                    row
                })
                .collect();
            vec![Table { caption: "CDF of BoT makespan and NSL, read at every tenth of the BoTs".into(), head, rows }]
        }
    }
}

/// The "Numbers" button of chart `id` (in its caption) and, when pressed, the tables of its plotted values.
#[component]
pub fn ChartNumbers(id: &'static str, title: &'static str, mc: McPage) -> impl IntoView {
    let tables = Callback::new(move |()| with_runs(mc, |runs| tables(id, runs)));
    view! { <NumbersToggle id=id title=title repaint=mc.repaint tables=tables /> }
}
