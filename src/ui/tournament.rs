//! A tournament of policies in the page (second module, `split::Part::Tournament`): a teacher drops the students'
//! scripts (`.rhai` files) or pastes their share links, and the page races them against the family's built-ins on
//! the scenario shown, over the same seeds, in a pool of workers; the standings grow as runs end, each entry with
//! its mean and 95% interval. The runs and the ranking are those of `bagsim tournament` (`study::tournament`): the
//! same scenarios, the same column, the same interval. A script that fails is listed with its reason and never
//! stops the others.

use super::download;
use super::pool::{Job, OnDone, Outcome, Pool};
use crate::family::contract::Tournament as Spec;
use crate::scenario::Scenario;
use crate::study::tournament::{cell, contenders, runs, standings, to_csv, Contender, Entry, Standing};
use crate::words::number_words;
use leptos::prelude::*;
use std::rc::Rc;

/// Seeds per entry: the CLI's default and range.
const SEEDS: (u32, u32, u32) = (5, 2, 30);

/// A script's source as the page reads it: at most this many bytes (as `bagsim tournament` reads a file).
const MAX_SCRIPT: usize = 1 << 20;

/// The scripts taken in, each with its name: a file's stem, or "link N" for a pasted share link.
type Scripts = Vec<(String, String)>;

/// Why a pasted line gives no policy.
enum NoPolicy {
    /// It is not a bagsim link (the reason the link's reader gave).
    NotALink(String),
    /// Its scenario's value of the family's key is not a script.
    NotAScript,
}

/// The scripted policy a share link holds: the value of the family's key in the link's scenario, when a script.
fn script_of_link(link: &str, spec: &Spec) -> Result<String, NoPolicy> {
    let param = link.split(['?', '&']).find_map(|p| p.strip_prefix("scenario=")).unwrap_or(link.trim());
    let s = crate::share::from_link(param.trim()).map_err(|e| NoPolicy::NotALink(e.to_string()))?;
    let json = serde_json::to_value(&s).map_err(|e| NoPolicy::NotALink(e.to_string()))?;
    let value = json.get(spec.key);
    match value.and_then(|v| v.get("script")).and_then(|v| v.as_str()) {
        Some(source) => Ok(source.to_string()),
        None => Err(NoPolicy::NotAScript),
    }
}

/// Reads the `.rhai` files picked or dropped into `scripts` (a file of another kind or too large is said in
/// `said` and left out).
fn take_files(files: web_sys::FileList, scripts: RwSignal<Scripts>, said: RwSignal<String>) {
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        let name = file.name();
        let Some(stem) = name.strip_suffix(".rhai").map(str::to_string) else {
            said.set(format!("{name}: a policy is a Rhai script whose name ends in .rhai"));
            continue;
        };
        if file.size() > MAX_SCRIPT as f64 {
            said.set(format!("{name}: larger than {} bytes", number_words(MAX_SCRIPT as f64)));
            continue;
        }
        let file = gloo_file::File::from(file);
        leptos::task::spawn_local(async move {
            match gloo_file::futures::read_as_text(&file).await {
                Ok(source) => scripts.update(|s| s.push((stem, source))),
                Err(e) => said.set(format!("{name}: could not be read ({e})")),
            }
        });
    }
}

/// The standings as the page shows them: one row per entry, the ranked ones first.
fn standings_view(table: Vec<Standing>, metric: String) -> impl IntoView {
    let rows = table
        .into_iter()
        .map(|s| {
            let kind = if s.builtin { "built-in" } else { "script" };
            let i = s.interval;
            let (rank, value, range) = match (&s.rank, &s.reason) {
                (Some(r), None) => (
                    if s.tied_above { format!("={r}") } else { r.to_string() },
                    number_words(i.mean),
                    if i.has_bounds() {
                        format!("{} – {}", number_words(i.low), number_words(i.high))
                    } else {
                        "one seed: no interval".into()
                    },
                ),
                (_, reason) => ("—".into(), "not ranked".into(), reason.clone().unwrap_or_default()),
            };
            let (name, shown_rank, ranked) = (s.name.clone(), rank.clone(), s.reason.is_none());
            // A reason reads as a sentence: it takes the interval's and the seeds' columns and wraps.
            let last = if ranked {
                view! {
                    <td>{range}</td>
                    <td>{i.n}</td>
                }
                .into_any()
            } else {
                view! {
                    <td class="reason" colspan="2">
                        {range}
                    </td>
                }
                .into_any()
            };
            view! {
                <tr data-name=name data-mean=i.mean.to_string() data-rank=rank>
                    <td>{shown_rank}</td>
                    <td>{s.name}</td>
                    <td>{kind}</td>
                    <td>{value}</td>
                    {last}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="tournament-wrap">
            <table id="tournament-table">
                <thead>
                    <tr>
                        <th scope="col">"rank"</th>
                        <th scope="col">"entry"</th>
                        <th scope="col">"kind"</th>
                        <th scope="col">{format!("{metric}, mean")}</th>
                        <th scope="col">"95% interval over seeds"</th>
                        <th scope="col">"seeds"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// The tournament section: scripts in, seeds and column chosen, the race run in a pool, the standings live.
#[component]
pub fn Tournament(scenario: Signal<Scenario>) -> impl IntoView {
    let scripts = RwSignal::new(Scripts::new());
    let links = RwSignal::new(String::new());
    let seeds = RwSignal::new(SEEDS.0.to_string());
    let metric = RwSignal::new(String::new());
    let builtins = RwSignal::new(true);
    let said = RwSignal::new(String::new());
    let entries = RwSignal::new(Vec::<Entry>::new());
    let done = RwSignal::new((0usize, 0usize));
    let pool = StoredValue::new_local(None::<Pool>);
    let spec = Memo::new(move |_| scenario.with(|s| s.family().tournament()));
    let columns = Memo::new(move |_| scenario.with(|s| s.family().sweep_header()));
    let chosen = move || {
        let m = metric.get();
        if m.is_empty() {
            spec.get().map_or(String::new(), |s| s.metric.to_string())
        } else {
            m
        }
    };
    let race = move |_| {
        let Some(spec) = spec.get_untracked() else { return };
        let n = match seeds.get_untracked().trim().parse::<u32>() {
            Ok(n) if (SEEDS.1..=SEEDS.2).contains(&n) => n,
            _ => return said.set(format!("Seeds: a whole number from {} to {}", SEEDS.1, SEEDS.2)),
        };
        let mut all: Scripts = scripts.get_untracked();
        for (k, line) in links.get_untracked().lines().filter(|l| !l.trim().is_empty()).enumerate() {
            match script_of_link(line, &spec) {
                Ok(source) => all.push((format!("link {}", k + 1), source)),
                Err(NoPolicy::NotALink(e)) => return said.set(format!("Link {}: not a bagsim link ({e})", k + 1)),
                Err(NoPolicy::NotAScript) => {
                    return said.set(format!("Link {}: its scenario's {} is not a script", k + 1, spec.key))
                }
            }
        }
        let field = chosen();
        let header = scenario.with_untracked(|s| s.family().sweep_header());
        let Some(column) = header.split(',').position(|c| c == field) else { return };
        let racing: Vec<Contender> = contenders(&spec, &all, builtins.get_untracked());
        if racing.is_empty() {
            return said.set("Nothing to race: add scripts, or keep the built-ins.".into());
        }
        let planned = scenario.with_untracked(|base| runs(base, &spec, &racing, n));
        entries.set(crate::study::tournament::entries(&racing, &planned.refused));
        let owners: Vec<usize> = planned.runs.iter().map(|r| r.0).collect();
        done.set((0, owners.len()));
        said.set(String::new());
        let on_done: OnDone = Rc::new(move |job, outcome| {
            let k = owners[job];
            entries.update(|e| match outcome {
                Outcome::Finished(report) => match cell(&report.sweep_row(), column) {
                    Some(v) => e[k].values.push(v),
                    None => {
                        e[k].failure.get_or_insert_with(|| format!("a run's row has no number in {field}"));
                    }
                },
                Outcome::Failed(why) => {
                    e[k].failure.get_or_insert(why.to_string());
                }
                Outcome::Figure(_) => {}
            });
            done.update(|d| d.0 += 1);
        });
        let jobs: Vec<Job> = planned.runs.into_iter().map(|(_, s)| Job::Run(Box::new(s))).collect();
        pool.try_update_value(Option::take);
        match Pool::start(jobs, on_done) {
            Ok(p) => pool.set_value(Some(p)),
            Err(e) => said.set(e.to_string()),
        }
    };
    let table = move || {
        let higher = spec.get().is_some_and(|s| s.higher_is_better.contains(&chosen().as_str()));
        standings(&entries.get(), higher)
    };
    let progress = move || match done.get() {
        (_, 0) => String::new(),
        (d, t) => format!("{d} of {t} runs"),
    };
    let drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
            take_files(files, scripts, said);
        }
    };
    view! {
        <details
            class="sweep tournament"
            id="tournament"
            on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=drop
        >
            <summary>"Tournament of policies: the class's scripts raced against the built-ins"</summary>
            {move || match spec.get() {
                None => view! { <p class="help">"This family has no decision a script can take."</p> }.into_any(),
                Some(spec) => {
                    view! {
                        <p class="help">
                            {format!(
                                "Race the class's policies (Rhai scripts of {}, docs/policies.md) against the \
                                    built-ins on \
                         the scenario shown, over the same seeds: the runs and the ranking of `bagsim tournament`. \
                         Drop .rhai files here, pick them, or paste share links, one per line.",
                                spec.key,
                            )}
                        </p>
                    }
                        .into_any()
                }
            }}
            <div class="tournament-inputs">
                <label for="tournament-files">"Scripts (.rhai)"</label>
                <input
                    type="file"
                    id="tournament-files"
                    multiple
                    accept=".rhai"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        if let Some(files) = input.files() {
                            take_files(files, scripts, said);
                        }
                    }
                />
                <label for="tournament-links">"Share links"</label>
                <textarea
                    id="tournament-links"
                    rows="2"
                    prop:value=move || links.get()
                    on:input=move |ev| links.set(event_target_value(&ev))
                ></textarea>
                <label for="tournament-seeds">"Seeds per entry"</label>
                <input
                    type="number"
                    id="tournament-seeds"
                    min="2"
                    max="30"
                    prop:value=move || seeds.get()
                    on:change=move |ev| seeds.set(event_target_value(&ev))
                />
                <label for="tournament-metric">"Rank by"</label>
                <select id="tournament-metric" on:change=move |ev| metric.set(event_target_value(&ev))>
                    {move || {
                        columns
                            .get()
                            .split(',')
                            .map(|c| {
                                let (c, on) = (c.to_string(), c == chosen());
                                view! {
                                    <option value=c.clone() selected=on>
                                        {c.clone()}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
                <label>
                    <input
                        type="checkbox"
                        id="tournament-builtins"
                        prop:checked=move || builtins.get()
                        on:change=move |ev| builtins.set(event_target_checked(&ev))
                    />
                    " the built-ins as reference rows"
                </label>
            </div>
            <p id="tournament-scripts" class="help">
                {move || {
                    scripts
                        .with(|s| {
                            if s.is_empty() {
                                "No script yet.".to_string()
                            } else {
                                format!("Scripts: {}", s.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "))
                            }
                        })
                }}
            </p>
            <button id="tournament-run" on:click=race disabled=move || spec.get().is_none()>
                "Race"
            </button>
            <button
                id="tournament-clear"
                on:click=move |_| {
                    scripts.set(Vec::new());
                    entries.set(Vec::new());
                }
            >
                "Clear"
            </button>
            <p id="tournament-said" class="error" role="alert">
                {move || said.get()}
            </p>
            <p
                id="tournament-status"
                data-done=move || done.get().0.to_string()
                data-total=move || done.get().1.to_string()
            >
                {progress}
            </p>
            {move || (!entries.with(Vec::is_empty)).then(|| standings_view(table(), chosen()))}
            <button
                id="tournament-csv"
                disabled=move || entries.with(Vec::is_empty)
                on:click=move |_| download::text("bagsim-tournament.csv", "text/csv", &to_csv(&table()))
            >
                "Standings (CSV)"
            </button>
        </details>
    }
}
