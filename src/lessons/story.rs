//! A lesson built around a task's story (docs/lessons.md, "A task's story"): the lesson names a variant, and the
//! task of its first run (seed 1) that waited longest from submission to its first start is the one whose story
//! the class reads (docs/story.md). The task is picked from the run, never written in the file, so the lesson
//! stays right when the simulator or the scenario changes.

use super::{Lesson, LessonError};
use crate::scenario::Scenario;
use crate::story::Tape;
use serde::{Deserialize, Serialize};

/// Which task's story a lesson tells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoryPick {
    /// The label of the variant whose run (seed 1) the story is told from.
    pub variant: String,
    /// Which of its tasks.
    pub pick: Pick,
    /// What the class looks for in the story.
    pub look_for: String,
}

/// How the task is picked from the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// The task that waited longest from its submission to its first start (the lowest id among equals).
    LongestWait,
}

impl StoryPick {
    /// The index of the variant it names.
    pub fn variant_index(&self, lesson: &Lesson) -> Result<usize, LessonError> {
        lesson.variants.iter().position(|v| v.label == self.variant).ok_or_else(|| {
            LessonError::Field(format!("story names the variant {:?}, which the lesson does not have", self.variant))
        })
    }

    /// The task of `tape` it picks (None if no task started).
    pub fn task(&self, tape: &Tape) -> Option<u32> {
        match self.pick {
            Pick::LongestWait => {
                let mut first = vec![f64::INFINITY; tape.tasks.len()];
                for b in &tape.bars {
                    let f = &mut first[b.task as usize];
                    *f = f.min(b.start);
                }
                let mut best: Option<(f64, u32)> = None;
                for (t, (&start, facts)) in first.iter().zip(&tape.tasks).enumerate() {
                    let wait = start - facts.arrival;
                    if start.is_finite() && best.is_none_or(|(w, _)| wait > w) {
                        best = Some((wait, t as u32));
                    }
                }
                best.map(|(_, t)| t)
            }
        }
    }
}

impl Lesson {
    /// The scenario whose run the lesson's story is told from (None: the lesson tells no story).
    pub fn story_scenario(&self) -> Option<Result<Scenario, LessonError>> {
        let pick = self.story.as_ref()?;
        Some(pick.variant_index(self).and_then(|v| self.scenario(v, 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::story::{Bar, BarEnd, TaskFacts};

    #[test]
    fn the_longest_wait_is_picked_from_the_first_starts() {
        let facts = |arrival| TaskFacts { group: 0, user: 0, arrival, ready: arrival, steps: Vec::new() };
        let bar = |task, start, replica| Bar {
            task,
            row: 0,
            rows: 1,
            start,
            end: start + 1.0,
            ended: BarEnd::Completed,
            continues: false,
            replica,
        };
        let tape = Tape {
            tasks: vec![facts(0.0), facts(1.0), facts(2.0), facts(0.0)],
            // Task 1 waits 5 s; task 0's replica starts late but its first start is at 0; task 3 never starts.
            bars: vec![bar(0, 0.0, false), bar(2, 3.0, false), bar(1, 6.0, false), bar(0, 9.0, true)],
            ..Tape::default()
        };
        let pick = StoryPick { variant: "x".into(), pick: Pick::LongestWait, look_for: String::new() };
        assert_eq!(pick.task(&tape), Some(1));
        assert_eq!(pick.task(&Tape::default()), None);
    }
}
