//! S-T: every waiting task is eligible, and arriving tasks join the current set ([Iosup08] §2.3).
use super::{QueueIndex, Selection, SelectionView, TaskSelection};

pub struct SelectTasks;

impl TaskSelection for SelectTasks {
    fn select(&mut self, _view: &SelectionView) -> Selection {
        Selection::AllTasks
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::Fifo
    }
    fn absorbs_arrivals(&self) -> bool {
        true
    }
}
