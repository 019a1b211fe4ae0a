//! Enums and `match` as state machines: a GPU job seen from the host.
//!
//! Each state carries only the data that makes sense in it, and `match` must handle every
//! (state, event) pair, so a transition nobody thought about is a compile error, not a bug.

use std::fmt;

// ANCHOR: states
/// Where a batch of GPU work is in its life.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// Commands are being recorded into an encoder; nothing has reached the GPU.
    Recording { commands: usize },
    /// Handed to the queue at host frame `frame`; the GPU may or may not have started.
    Submitted { commands: usize, frame: u64 },
    /// The GPU finished; the time comes from its timestamps.
    Done { commands: usize, gpu_micros: u64 },
    /// The device was lost (driver reset, GPU removed): the work is gone.
    Failed { reason: String },
}

/// What can happen to a job.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Record,
    Submit { frame: u64 },
    Finished { gpu_micros: u64 },
    DeviceLost,
}
// ANCHOR_END: states

/// An event that makes no sense in the current state, e.g. submitting a job twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidTransition {
    pub state: &'static str,
    pub event: &'static str,
}

impl fmt::Display for InvalidTransition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a job that is {} cannot take the event {}: record, then submit, then wait",
            self.state, self.event
        )
    }
}

impl std::error::Error for InvalidTransition {}

impl Default for Job {
    fn default() -> Self {
        Job::Recording { commands: 0 }
    }
}

// ANCHOR: transitions
impl Job {
    /// The state after `event`, or an error naming the state and the event that do not fit.
    pub fn next(self, event: Event) -> Result<Job, InvalidTransition> {
        use Event as E;
        use Job as J;
        match (self, event) {
            (J::Recording { commands }, E::Record) => Ok(J::Recording {
                commands: commands + 1,
            }),
            (J::Recording { commands }, E::Submit { frame }) => {
                Ok(J::Submitted { commands, frame })
            }
            (J::Submitted { commands, .. }, E::Finished { gpu_micros }) => Ok(J::Done {
                commands,
                gpu_micros,
            }),
            // A lost device takes every job that has not finished with it.
            (J::Recording { .. } | J::Submitted { .. }, E::DeviceLost) => Ok(J::Failed {
                reason: "the GPU device was lost".into(),
            }),
            (state, event) => Err(InvalidTransition {
                state: state.name(),
                event: event.name(),
            }),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Job::Recording { .. } => "recording",
            Job::Submitted { .. } => "submitted",
            Job::Done { .. } => "done",
            Job::Failed { .. } => "failed",
        }
    }
}
// ANCHOR_END: transitions

impl Event {
    pub fn name(&self) -> &'static str {
        match self {
            Event::Record => "Record",
            Event::Submit { .. } => "Submit",
            Event::Finished { .. } => "Finished",
            Event::DeviceLost => "DeviceLost",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_goes_from_recording_to_done() {
        let job = Job::default()
            .next(Event::Record)
            .and_then(|j| j.next(Event::Record))
            .and_then(|j| j.next(Event::Submit { frame: 7 }))
            .unwrap();
        assert_eq!(
            job,
            Job::Submitted {
                commands: 2,
                frame: 7
            }
        );
        let done = job.next(Event::Finished { gpu_micros: 120 }).unwrap();
        assert_eq!(
            done,
            Job::Done {
                commands: 2,
                gpu_micros: 120
            }
        );
    }

    #[test]
    fn impossible_events_are_errors() {
        let err = Job::default()
            .next(Event::Finished { gpu_micros: 1 })
            .unwrap_err();
        assert_eq!(
            err,
            InvalidTransition {
                state: "recording",
                event: "Finished"
            }
        );
        let submitted = Job::Submitted {
            commands: 1,
            frame: 0,
        };
        assert!(submitted.next(Event::Submit { frame: 1 }).is_err());
        assert!(err.to_string().contains("record, then submit"));
    }

    #[test]
    fn device_loss_fails_unfinished_jobs_only() {
        let lost = Job::default().next(Event::DeviceLost).unwrap();
        assert_eq!(lost.name(), "failed");
        let done = Job::Done {
            commands: 1,
            gpu_micros: 5,
        };
        assert!(done.next(Event::DeviceLost).is_err());
    }
}
