//! The Login/Logout users of Medernach 2005 §5 in the page: each user's login rate λ, logout rate δ and submission
//! rate μ, editable one by one; the four Biomed users of Fig. 10 as presets, alone or as a group; copies of a group.
//! Shown when the workload model is Login/Logout. Every edit goes through the scenario's own validation.

use super::form::{apply, error_view};
use crate::ui::form::Refused;
use crate::ui::form::{mc, mcm};
use crate::ui::lab::Lab;
use crate::workload::generators::Generator;
use crate::workload::login_logout::{biomed_users, UserRates};
use leptos::prelude::*;

/// Where the errors of this editor are shown.
const FIELD: &str = "workload.generator.login_logout";
/// The validation's limit on the number of users.
const MAX_USERS: usize = 10_000;

fn users_of(lab: Lab) -> Option<Vec<UserRates>> {
    lab.scenario.with(|s| match &mc(s).workload.generator {
        Some(Generator::LoginLogout(g)) => Some(g.users.clone()),
        _ => None,
    })
}

/// Replaces the users; anything the validation refuses is reported and changes nothing.
fn set_users(lab: Lab, edit: impl FnOnce(&mut Vec<UserRates>) -> Result<(), Refused>) {
    apply(lab, FIELD, |s| match &mut mcm(s)?.workload.generator {
        Some(Generator::LoginLogout(g)) => {
            edit(&mut g.users)?;
            // Checked here too, so that the message names the user and the rate (e.g. "users[1].lambda: …").
            g.validate().map_err(|e| Refused::Rule(format!("{}: {}", e.field, e.message)))
        }
        _ => Err("the workload model is not Login/Logout".into()),
    });
}

fn parse_rate(text: &str, what: &str) -> Result<f64, Refused> {
    text.trim()
        .parse::<f64>()
        .map_err(|_| Refused::Rule(format!("{what}: {text:?} is not a number (a rate per second, e.g. 2.1e-4)")))
}

/// The preset groups of the select: all four Biomed users, or one of them.
fn preset(name: &str) -> Option<Vec<UserRates>> {
    let all = biomed_users();
    match name {
        "biomed" => Some(all),
        _ => name
            .strip_prefix("biomed-")
            .and_then(|k| k.parse::<usize>().ok())
            .and_then(|k| all.get(k).cloned())
            .map(|u| vec![u]),
    }
}

#[component]
pub fn LoginLogoutEditor() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let copies = RwSignal::new("2".to_string());
    let rate_input = move |i: usize, which: &'static str, value: f64| {
        let id = format!("ll-{which}-{i}");
        let (symbol, title) = match which {
            "lambda" => ("λ", "login rate: a logged-out user logs in after Exp(λ)"),
            "delta" => ("δ", "logout rate: a logged-in user logs out after Exp(δ); 0 = never"),
            _ => ("μ", "submission rate while logged in"),
        };
        view! {
            <label class="ll-rate" title=title>
                {format!("{symbol} [s⁻¹] ")}
                <input
                    type="number"
                    id=id
                    step="any"
                    prop:value=format!("{value}")
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        set_users(
                            lab,
                            |users| {
                                let v = parse_rate(&text, which)?;
                                let u = users.get_mut(i).ok_or("no such user")?;
                                match which {
                                    "lambda" => u.lambda = v,
                                    "delta" => u.delta = v,
                                    _ => u.mu = v,
                                }
                                Ok(())
                            },
                        );
                    }
                />
            </label>
        }
    };
    move || {
        users_of(lab).map(|users| {
            let n = users.len();
            let rows = users
                .iter()
                .enumerate()
                .map(|(i, u)| {
                    let p = u.p_login();
                    view! {
                        <fieldset class="ll-user" data-user=i.to_string()>
                            <legend>
                                {if u.name.is_empty() { format!("user {}", i + 1) } else { u.name.clone() }}
                            </legend>
                            {rate_input(i, "lambda", u.lambda)}
                            {rate_input(i, "delta", u.delta)}
                            {rate_input(i, "mu", u.mu)}
                            <span class="help">{format!("P(login) {p:.3}, {:.3e} jobs/s ", u.mu * p)}</span>
                            <button
                                class="small"
                                disabled=n <= 1
                                aria-label=format!("Remove user {}", i + 1)
                                on:click=move |_| set_users(
                                    lab,
                                    |users| {
                                        users.remove(i);
                                        Ok(())
                                    },
                                )
                            >
                                "Remove"
                            </button>
                        </fieldset>
                    }
                })
                .collect_view();
            view! {
                <div class="ll-editor" id="ll-editor" data-users=n.to_string()>
                    <h4>"Login/Logout users (Medernach 2005 §5)"</h4>
                    <p class="help">
                        "A user logs in after an exponential time of rate λ, stays logged in for one of rate δ (0: \
                            never logs out) and, while logged in, submits jobs at rate μ. P(login) = λ / (λ + δ) (Eq. \
                            5.6); μ·P(login) is the user's mean jobs per second. The target load rescales time for the \
                            whole group; the rates set the users' shares and burstiness."
                    </p>
                    <div class="ll-users">{rows}</div>
                    <div class="ll-actions">
                        <label>
                            "Group "
                            <select
                                id="ll-preset"
                                on:change=move |ev| {
                                    let v = event_target_value(&ev);
                                    set_users(
                                        lab,
                                        |users| {
                                            *users = preset(&v).ok_or_else(|| format!("unknown group {v:?}"))?;
                                            Ok(())
                                        },
                                    );
                                }
                            >
                                <option value="" selected>
                                    "choose a preset…"
                                </option>
                                <option value="biomed">"the four Biomed users (Fig. 10)"</option>
                                {(0..4)
                                    .map(|k| {
                                        view! {
                                            <option value=format!(
                                                "biomed-{k}",
                                            )>{format!("Biomed user {} alone", k + 1)}</option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </label>
                        " "
                        <button
                            class="small"
                            id="ll-add"
                            on:click=move |_| set_users(
                                lab,
                                |users| {
                                    let last = users.last().cloned().ok_or("no user to copy")?;
                                    users
                                        .push(UserRates {
                                            name: format!("user {}", users.len() + 1),
                                            ..last
                                        });
                                    Ok(())
                                },
                            )
                        >
                            "Add a user (copy of the last)"
                        </button>
                        " "
                        <label>
                            "copies of the group "
                            <input
                                type="number"
                                id="ll-copies"
                                min="2"
                                max="1000"
                                step="1"
                                prop:value=move || copies.get()
                                on:change=move |ev| copies.set(event_target_value(&ev))
                            />
                        </label>
                        <button
                            class="small"
                            id="ll-replicate"
                            on:click=move |_| {
                                let text = copies.get_untracked();
                                set_users(
                                    lab,
                                    |users| {
                                        let k: usize = text
                                            .trim()
                                            .parse()
                                            .ok()
                                            .filter(|k| (2..=1000).contains(k))
                                            .ok_or_else(|| {
                                                format!("copies: {text:?}; allowed a whole number 2–1000")
                                            })?;
                                        if users.len() * k > MAX_USERS {
                                            return Err(
                                                format!(
                                                    "{} users × {k} = {}; allowed at most {MAX_USERS}",
                                                    users.len(),
                                                    users.len() * k,
                                                )
                                                    .into(),
                                            );
                                        }
                                        let one: Vec<UserRates> = users.clone();
                                        *users = (0..k)
                                            .flat_map(|c| {
                                                one.iter()
                                                    .map(move |u| UserRates {
                                                        name: if u.name.is_empty() || c == 0 {
                                                            u.name.clone()
                                                        } else {
                                                            format!("{} (copy {})", u.name, c + 1)
                                                        },
                                                        ..u.clone()
                                                    })
                                            })
                                            .collect();
                                        Ok(())
                                    },
                                );
                            }
                        >
                            "Make copies"
                        </button>
                    </div>
                    {error_view(FIELD)}
                </div>
            }
        })
    }
}
