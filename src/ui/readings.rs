//! The readings table on the page, shared by the families: one row per finding of the paper, one column per
//! combination of readings, each cell a verdict with our numbers ("Which assumption carries this result?").

use crate::readings::{flips, Reading, ReadingsTable};
use crate::stats::{Claim, Verdict};
use leptos::prelude::*;

/// The CSS class of a verdict's badge.
pub(crate) fn badge(v: Verdict) -> &'static str {
    match v {
        Verdict::Agrees => "badge agrees",
        Verdict::Disagrees => "badge disagrees",
        Verdict::Unresolved | Verdict::Waiting | Verdict::NoData | Verdict::NotMeasured => "badge unresolved",
    }
}

/// A figure's findings, one row per check: the paper's words once for the checks that test the same sentence, our
/// numbers, the verdict; a finding that disagrees or is not resolved links to the family's readings panel, the
/// element `readings` ("Which assumption carries this result?"), where it has one. `waiting` replaces our numbers
/// until the runs are in.
pub fn findings_rows(claims: Vec<Claim>, waiting: Option<String>, readings: Option<&'static str>) -> impl IntoView {
    let spans: Vec<usize> = (0..claims.len())
        .map(|i| {
            let first = i == 0 || claims[i - 1].paper != claims[i].paper;
            if first {
                claims[i..].iter().take_while(|c| c.paper == claims[i].paper).count()
            } else {
                0
            }
        })
        .collect();
    claims
        .into_iter()
        .zip(spans)
        .map(|(c, span)| {
            let (label, class) = match &waiting {
                Some(_) => ("waiting", "badge unresolved"),
                None => (c.verdict.label(), badge(c.verdict)),
            };
            let open =
                readings.filter(|_| waiting.is_none() && matches!(c.verdict, Verdict::Disagrees | Verdict::Unresolved));
            let quote = (span > 0).then(|| {
                view! {
                    <td class="quote" rowspan=span.to_string()>
                        <q>{c.paper}</q>
                    </td>
                }
            });
            view! {
                <tr data-verdict=label>
                    {quote} <td>{waiting.clone().unwrap_or(c.ours)}</td> <td>
                        <span class=class>{label}</span>
                        {open
                            .map(|id| {
                                view! {
                                    " "
                                    <a class="which-reading" href=format!("#{id}")>
                                        "Which assumption carries this result?"
                                    </a>
                                }
                            })}
                    </td>
                </tr>
            }
        })
        .collect_view()
}

/// The key select's options: each reading's key with its values, the default first.
pub fn reading_options(list: &'static [Reading], chosen: RwSignal<String>) -> impl IntoView {
    list.iter()
        .map(|r| {
            let text = format!("{}: {}", words(r.short()), r.names().join(" or "));
            view! {
                <option value=r.key title=r.key selected=move || chosen.get() == r.key>
                    {text}
                </option>
            }
        })
        .collect_view()
}

/// A key in words for a menu: `load_split` → "Load split", `policy_options.wqr_nx` → "Policy options wqr nx".
fn words(key: &str) -> String {
    let text = key.replace(['_', '.'], " ");
    let mut c = text.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// What the chosen reading rests on, under the select.
pub fn rests_on(list: &'static [Reading], key: &str) -> String {
    list.iter().find(|r| r.key == key).map_or(String::new(), |r| format!("Rests on: {}", r.rests_on))
}

/// The sentences whose verdict a reading changes (`readings::flips`), once the table holds two readings or more.
#[component]
pub fn FlipsList(#[prop(into)] table: Signal<Option<ReadingsTable>>, id: &'static str) -> impl IntoView {
    view! {
        <ul class="paper-note" id=id>
            {move || {
                table
                    .get()
                    .filter(|t| t.rows.len() > 1)
                    .map(|t| {
                        flips(&t)
                            .into_iter()
                            .map(|f| {
                                view! {
                                    <li>
                                        <q>{f.paper.clone()}</q>
                                        ": "
                                        {f.text()}
                                    </li>
                                }
                            })
                            .collect_view()
                    })
            }}
        </ul>
    }
}

/// The table, or nothing before the first round is in.
#[component]
pub fn ReadingsTableView(#[prop(into)] table: Signal<Option<ReadingsTable>>, id: &'static str) -> impl IntoView {
    move || {
        table.get().map(|t| {
            let heads = t
                .rows
                .iter()
                .map(|r| {
                    view! {
                        <th scope="col">
                            {r.label.clone()}<br />
                            <span class="subtitle">{format!("{} \
                        seeds", r.seeds)}</span>
                        </th>
                    }
                })
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
                                    <span class=badge(c.verdict)>{c.verdict.label()}</span>
                                    " "
                                    {c.ours.clone()}
                                </td>
                            }
                        })
                        .collect_view();
                    view! {
                        <tr>
                            <td class="quote">
                                <q>{t.rows[0].claims[k].paper.clone()}</q>
                            </td>
                            {cells}
                        </tr>
                    }
                })
                .collect_view();
            let notes = t
                .rows
                .iter()
                .filter(|r| r.capped)
                .map(|r| {
                    view! {
                        <p class="paper-note">
                            {format!(
                                "{}: some findings are not resolved after {} \
                        seeds.",
                                r.label,
                                r.seeds,
                            )}
                        </p>
                    }
                })
                .collect_view();
            view! {
                <div class="table-scroll">
                    <table class="paper-claims readings-table" id=id>
                        <thead>
                            <tr>
                                <th scope="col">"The paper reports"</th>
                                {heads}
                            </tr>
                        </thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                {notes}
            }
        })
    }
}
