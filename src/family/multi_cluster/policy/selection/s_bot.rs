//! S-BoT: the tasks of the oldest waiting BoT; the next BoT once they are all dispatched ([Iosup08] §2.3).
use super::{QueueIndex, Selection, SelectionView, TaskSelection};

pub struct SelectBots;

impl TaskSelection for SelectBots {
    fn select(&mut self, _view: &SelectionView) -> Selection {
        Selection::OldestBot
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::Fifo
    }
}
