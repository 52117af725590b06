//! S-U-RR: one task of every waiting user per round, so a BoT of N tasks is served in exactly N rounds
//! ([Iosup08] §2.3). Each round starts one user further than the previous one so no user is always first.
use super::{QueueIndex, Selection, SelectionView, TaskSelection};

#[derive(Default)]
pub struct SelectUserRoundRobin {
    last_first: Option<u32>,
}

impl TaskSelection for SelectUserRoundRobin {
    fn select(&mut self, view: &SelectionView) -> Selection {
        let first = match self.last_first {
            Some(l) => view.waiting_users.range(l + 1..).next().or_else(|| view.waiting_users.first()),
            None => view.waiting_users.first(),
        };
        let Some(&first) = first else { return Selection::Nothing };
        let after = self.last_first;
        self.last_first = Some(first);
        Selection::OneTaskPerUser { after }
    }
    fn index(&self) -> QueueIndex {
        QueueIndex::PerUser
    }
}
