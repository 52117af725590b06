//! The readings table on the page, shared by the families: one row per finding of the paper, one column per
//! combination of readings, each cell a verdict with our numbers ("Which assumption carries this result?").

use crate::readings::{Reading, ReadingsTable};
use crate::stats::Verdict;
use leptos::prelude::*;

/// The CSS class of a verdict's badge.
pub(crate) fn badge(v: Verdict) -> &'static str {
    match v {
        Verdict::Agrees => "badge agrees",
        Verdict::Disagrees => "badge disagrees",
        Verdict::Unresolved | Verdict::Waiting => "badge unresolved",
    }
}

/// The key select's options: each reading's key with its values, the default first.
pub fn reading_options(list: &'static [Reading], chosen: RwSignal<String>) -> impl IntoView {
    list.iter()
        .map(|r| {
            let text = format!("{} ({})", r.short(), r.names().join(" / "));
            view! { <option value=r.key selected=move || chosen.get() == r.key>{text}</option> }
        })
        .collect_view()
}

/// What the chosen reading rests on, under the select.
pub fn rests_on(list: &'static [Reading], key: &str) -> String {
    list.iter().find(|r| r.key == key).map_or(String::new(), |r| format!("Rests on: {}", r.rests_on))
}

/// The table, or nothing before the first round is in.
#[component]
pub fn ReadingsTableView(#[prop(into)] table: Signal<Option<ReadingsTable>>, id: &'static str) -> impl IntoView {
    move || {
        table.get().map(|t| {
            let heads = t
                .rows
                .iter()
                .map(|r| view! { <th scope="col">{r.label.clone()}<br/><span class="subtitle">{format!("{} seeds", r.seeds)}</span></th> })
                .collect_view();
            let n = t.rows.first().map_or(0, |r| r.claims.len());
            let body = (0..n)
                .map(|k| {
                    let cells = t
                        .rows
                        .iter()
                        .map(|r| {
                            let c = &r.claims[k];
                            view! {
                                <td data-verdict=c.verdict.label()>
                                    <span class=badge(c.verdict)>{c.verdict.label()}</span>" "{c.ours.clone()}
                                </td>
                            }
                        })
                        .collect_view();
                    view! { <tr><td class="quote"><q>{t.rows[0].claims[k].paper.clone()}</q></td>{cells}</tr> }
                })
                .collect_view();
            let notes = t
                .rows
                .iter()
                .filter(|r| r.capped)
                .map(|r| view! { <p class="paper-note">{format!("{}: some findings are not resolved after {} seeds.", r.label, r.seeds)}</p> })
                .collect_view();
            view! {
                <div class="table-scroll">
                    <table class="paper-claims readings-table" id=id>
                        <thead><tr><th scope="col">"The paper reports"</th>{heads}</tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                {notes}
            }
        })
    }
}
