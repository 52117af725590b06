//! A site's own FCFS ([Iosup08] §4.3, *"all sites employ the FCFS policy, without backfilling"*), under
//! `architecture.site_policy = "fcfs"`: tasks in the order they reached the site, each to any free processor. It
//! reads neither speeds nor runtimes; a site's processors are all alike, so which one it takes changes nothing.
use super::{Choice, Estimate, ResourceView, TaskOrder, TaskScheduling};

pub struct SiteFcfs;

impl TaskScheduling for SiteFcfs {
    fn order(&self) -> TaskOrder {
        TaskOrder::Fcfs
    }
    fn choose(&mut self, _estimate: f64, view: &ResourceView) -> Choice {
        // The first managed cluster with a free processor in listed order (a site manages only its own cluster).
        view.free_listed.next_after(None).map_or(Choice::Wait, Choice::Start)
    }
    fn estimate(&self) -> Estimate {
        Estimate::None
    }
}
