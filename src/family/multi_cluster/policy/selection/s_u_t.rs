//! S-U-T: all tasks of the waiting user with the lowest resource consumption ([Iosup08] §2.3).
use super::{least_consuming, QueueIndex, Selection, SelectionView, TaskSelection};

pub struct SelectUserTasks;

impl TaskSelection for SelectUserTasks {
    fn select(&mut self, view: &SelectionView) -> Selection {
        least_consuming(view).map_or(Selection::Nothing, Selection::UserTasks)
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::PerUser
    }
}
