//! S-U-BoT: the oldest BoT of the waiting user with the lowest resource consumption ([Iosup08] §2.3).
use super::{least_consuming, QueueIndex, Selection, SelectionView, TaskSelection};

pub struct SelectUserBot;

impl TaskSelection for SelectUserBot {
    fn select(&mut self, view: &SelectionView) -> Selection {
        least_consuming(view).map_or(Selection::Nothing, Selection::UserOldestBot)
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::PerUser
    }
}
