//! S-U-GRR: all waiting tasks of the next user in round-robin order; BoTs the user submits during the turn wait
//! for the next turn ([Iosup08] §2.3). Users without waiting tasks are skipped.
use super::{QueueIndex, Selection, SelectionView, TaskSelection};

#[derive(Default)]
pub struct SelectUserGlobalRoundRobin {
    last: Option<u32>,
}

impl TaskSelection for SelectUserGlobalRoundRobin {
    fn select(&mut self, view: &SelectionView) -> Selection {
        let next = match self.last {
            Some(l) => view.waiting_users.range(l + 1..).next().or_else(|| view.waiting_users.first()),
            None => view.waiting_users.first(),
        };
        match next {
            Some(&u) => {
                self.last = Some(u);
                Selection::UserTasks(u)
            }
            None => Selection::Nothing,
        }
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::PerUser
    }
}
