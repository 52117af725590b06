//! S-U-Prio: all tasks of the highest-priority waiting user; every user has a unique priority, its Zipf rank
//! ([Iosup08] §2.3, the "ideal" setting of unique priorities).
use super::{QueueIndex, Selection, SelectionView, TaskSelection};

pub struct SelectUserPriority;

impl TaskSelection for SelectUserPriority {
    fn select(&mut self, view: &SelectionView) -> Selection {
        view.waiting_users.first().map_or(Selection::Nothing, |&u| Selection::UserTasks(u))
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::PerUser
    }
}
