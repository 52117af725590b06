//! The multi-cluster family's [`PageFamily`]: its controls with the platform's summary, its results (cards,
//! comparison of pinned runs, live charts, the size-class table, the workload lab and the load sweep) and its paper
//! figures, each built at the shell's stage for it (`Reveal`), and what the shell's messages do to its store.

use super::trace_lab;
use super::{cards, controls, first_open, McPage};
use crate::family::contract::{Header, Start};
use crate::family::multi_cluster::platform;
use crate::registry::{AnyDetail, AnyReport, Family};
use crate::scenario::Scenario;
use crate::ui::contract::PageFamily;
use crate::ui::lab::Reveal;
use crate::ui::lazy::LazyPanel;
use crate::ui::not_modelled::NotModelled;
use crate::ui::split::Part;
use crate::ui::{form, shown};
use leptos::prelude::*;

/// What the family does not model (docs/limits.md), under its controls.
const NOT_MODELLED: &str =
    "machine failures (every processor stays up), data and the network (a task moves no input or output), \
     parallel jobs (a task uses one processor). See docs/limits.md.";

impl PageFamily for McPage {
    fn family(&self) -> Family {
        Family::MultiCluster
    }

    fn label(&self) -> &'static str {
        "Multi-cluster grid (Iosup et al. 2008)"
    }

    fn prefix(&self) -> &'static str {
        ""
    }

    fn controls(&self) -> AnyView {
        let (lab, reveal) = (self.lab, expect_context::<Reveal>());
        let processors = move || {
            lab.scenario.with(|s| {
                form::mc(s)
                    .platform
                    .clusters()
                    .map(|c| (c.len(), c.iter().map(|c| u64::from(c.processors)).sum::<u64>(), platform::capacity(&c)))
            })
        };
        let summary = move || match processors() {
            Ok((c, p, cap)) => format!("{c} clusters, {p} processors, capacity {cap:.0} reference processors"),
            Err(e) => e.to_string(),
        };
        view! {
            <Show when=move || reveal.controls.get()>
                <controls::Controls />
                <div class="platform-summary">{summary}</div>
                <NotModelled id="not-modelled-mc" text=NOT_MODELLED />
            </Show>
        }
        .into_any()
    }

    fn results(&self) -> AnyView {
        let (mc, reveal) = (*self, expect_context::<Reveal>());
        view! {
            <Show when=move || reveal.first_view.get()>
                <cards::Cards mc=mc />
            </Show>
            <Show when=move || reveal.charts.get()>
                <super::Compare mc=mc />
                <super::Charts mc=mc />
            </Show>
            <Show when=move || reveal.table.get()>
                <super::ClassTable mc=mc />
            </Show>
            <Show when=move || reveal.trace.get()>
                <trace_lab::TraceLabView />
            </Show>
            <Show when=move || reveal.sweep.get()>
                <LazyPanel part=Part::Sweep />
            </Show>
        }
        .into_any()
    }

    fn below(&self) -> AnyView {
        let reveal = expect_context::<Reveal>();
        view! {
            <Show when=move || reveal.paper.get()>
                <LazyPanel part=Part::Paper />
            </Show>
        }
        .into_any()
    }

    fn charts(&self) -> Vec<(&'static str, &'static str)> {
        super::CHARTS.to_vec()
    }

    fn started_text(&self, start: &Start, generate_s: f64) -> String {
        format!(
            "{} BoTs, {} tasks, achieved load {:.4} (generated in {generate_s:.2} s)",
            start.bots, start.tasks, start.achieved_load
        )
    }

    fn first_open(&self) -> Option<Scenario> {
        Some(first_open::start(self.lab, *self))
    }

    fn first_open_active(&self) -> bool {
        first_open::active(*self)
    }

    fn after_start(&self) -> Vec<Box<dyn FnOnce()>> {
        // The empty charts, one per task; the next redraw (a run) draws them all. A first open's run draws them
        // within a second or two: empty axes first would only hold the page longer.
        if first_open::active(*self) {
            return Vec::new();
        }
        let mc = *self;
        let draw = move |id: &'static str| -> Box<dyn FnOnce()> {
            Box::new(move || super::with_runs(mc, |runs| super::draw_on_canvas(id, runs)))
        };
        super::CHARTS.iter().map(|&(id, _)| draw(id)).collect()
    }

    fn on_start(&self, scenario: &Scenario) {
        super::on_start(*self, scenario);
    }

    fn on_progress(&self, header: &Header, detail: AnyDetail) {
        if let AnyDetail::MultiCluster(d) = detail {
            super::on_progress(*self, header.finished_tasks == header.tasks, d);
        }
    }

    fn on_finished(&self, report: AnyReport) {
        if let AnyReport::MultiCluster(r) = report {
            super::on_finished(*self, self.lab, r);
        }
    }

    fn pinned_scenarios(&self) -> Vec<Scenario> {
        super::pinned_scenarios(*self)
    }

    fn pin_finished(&self) {
        super::pin(*self, self.lab);
    }
}

/// Mounts the family's parts of the page's second module: its paper figures and its load sweep; gives `element`
/// back for any other part.
pub(crate) fn mount_part(part: Part, element: web_sys::HtmlElement) -> Option<web_sys::HtmlElement> {
    match part {
        Part::Paper => leptos::mount::mount_to(element, super::paper::PaperFigures).forget(),
        Part::Sweep => {
            let (scenario, form_ok) = (shown::mirror(), shown::form_ok());
            leptos::mount::mount_to(element, move || {
                view! { <super::sweep::Sweep scenario=scenario form_ok=form_ok /> }
            })
            .forget()
        }
        _ => return Some(element),
    }
    None
}

/// The script box of each policy key a lesson may ask the class to write: its first example and the box's id.
pub(crate) fn your_own_box(key: &str) -> Option<(&'static str, &'static str)> {
    match key {
        "scheduling" => Some((super::script_editor::EXAMPLES[0].1, "script-editor")),
        "selection" => Some((super::script_editor::SELECTION_EXAMPLES[0].1, "selection-script-editor")),
        _ => None,
    }
}
