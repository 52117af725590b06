//! The works the page cites, listed in full once; everywhere else the page names them by author–year key.

use leptos::prelude::*;

/// The works the page cites. The first field is the key the page cites, the second the README's short key
/// (`[Iosup08]`), the third the entry.
pub const REFERENCES: [(&str, &str, &str); 5] = [
    (
        "Iosup et al. 2008",
        "Iosup08",
        "A. Iosup, O. Sonmez, S. Anoep, D. Epema, \"The Performance of Bags-of-Tasks in \
        Large-Scale Distributed Systems\", HPDC 2008.",
    ),
    (
        "Anglano & Canonico 2009",
        "Anglano09",
        "C. Anglano, M. Canonico, \"Knowledge-Free Scheduling Algorithms for \
        Multiple Bag-of-Task Applications on Desktop Grids\", Tech. Rep. TR-INF-2009-02-01, Univ. del Piemonte \
        Orientale, 2009.",
    ),
    (
        "Minh & Wolters 2010",
        "Minh10",
        "T. N. Minh, L. Wolters, \"Towards a Realistic Parallel System Workload Model\" \
        (2010).",
    ),
    (
        "Medernach 2005",
        "Medernach05",
        "E. Medernach, \"Workload Analysis of a Cluster in a Grid Environment\", JSSPP \
        2005 (HAL in2p3-00024274).",
    ),
    (
        "Liu et al. 2010",
        "Liu10",
        "W. Liu, R. Kettimuthu, B. Li, I. Foster, \"An Adaptive Strategy for Scheduling \
        Data-Intensive Applications in Grid Environments\", 2010.",
    ),
];

/// The "References" list at the foot of the page.
#[component]
pub fn References() -> impl IntoView {
    view! {
        <section class="references" id="references">
            <h2>"References"</h2>
            <ul>
                {REFERENCES
                    .iter()
                    .map(|(key, short, entry)| {
                        view! {
                            <li id=format!("ref-{short}")>
                                <strong>{*key}</strong>
                                {format!(" [{short}]")}
                                " — "
                                {*entry}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}
