//! Every stage failing, under every queue policy: the pipeline must still shut down, within a
//! time limit that turns a hang into a failed test, and say which stage failed.

mod common;

use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use project_skeleton::pipeline::clock::FakeClock;
use project_skeleton::pipeline::pool::Pixels;
use project_skeleton::pipeline::process::{CpuHistogram, Processed, Processor};
use project_skeleton::pipeline::queue::Policy;
use project_skeleton::pipeline::run::{Pipeline, PipelineError, PipelineReport};
use project_skeleton::pipeline::source::{Frame, FrameSource, Source};

const LIMIT: Duration = Duration::from_secs(20);
const POLICIES: [Policy; 2] = [Policy::Block, Policy::DropOldest];
/// The stage under test goes wrong on the first frame it sees with this index or a later one
/// (`DropOldest` may throw frame 3 itself away before processing sees it).
const BAD_FRAME: u64 = 3;

#[derive(Debug, thiserror::Error)]
#[error("frame {0} could not be processed")]
struct Broken(u64);

/// A stage goes wrong from [`BAD_FRAME`] on: with an error, or with a panic.
#[derive(Clone, Copy, Debug)]
enum Fault {
    Error,
    Panic,
}

impl Fault {
    fn strike(self, index: u64) -> Result<(), Broken> {
        if index >= BAD_FRAME {
            // Fail slowly, as a timed-out GPU would: meanwhile the stage upstream fills the
            // queue and (under `Block`) waits for room, which is where a hang would hide.
            std::thread::sleep(Duration::from_millis(30));
        }
        match (index >= BAD_FRAME, self) {
            (false, _) => Ok(()),
            (true, Fault::Error) => Err(Broken(index)),
            (true, Fault::Panic) => panic!("a deliberate panic on frame {index}"),
        }
    }
}

struct FaultyProcessor(Fault);

impl Processor for FaultyProcessor {
    type Error = Broken;

    fn process(
        &mut self,
        frame: Frame,
        now: Duration,
        ready: &mut Vec<Processed>,
    ) -> Result<(), Broken> {
        self.0.strike(frame.index)?;
        CpuHistogram
            .process(frame, now, ready)
            .map_err(|e| match e {})
    }

    fn flush(&mut self, _: Duration, _: &mut Vec<Processed>) -> Result<(), Broken> {
        Ok(())
    }
}

struct FaultySource(FrameSource, Fault);

impl Source for FaultySource {
    type Error = Broken;

    fn due_at(&self, index: u64) -> Option<Duration> {
        self.0.due_at(index)
    }

    fn capture(&mut self, index: u64, at: Duration, pixels: Pixels) -> Result<Frame, Broken> {
        self.1.strike(index)?;
        Ok(self.0.frame_in(index, at, pixels))
    }
}

// ANCHOR: within
/// Runs `work` on its own thread and waits at most [`LIMIT`]: a pipeline that hangs fails the
/// test instead of hanging the test suite.
fn within<T: Send + 'static>(what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, finished) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || done.send(work()));
    match finished.recv_timeout(LIMIT) {
        Ok(value) => value,
        Err(RecvTimeoutError::Timeout) => panic!("{what}: still running after {LIMIT:?}"),
        Err(RecvTimeoutError::Disconnected) => panic!("{what}: the test's own thread panicked"),
    }
}
// ANCHOR_END: within

/// Starts a pipeline whose consumer reads nothing for a while, so that every queue is full and
/// (under `Block`) the stages upstream are waiting for room when the fault strikes.
fn start_and_stall(source: impl Source, processor: impl Processor, policy: Policy) -> Pipeline {
    let (pipeline, _recorder) =
        common::start_with(source, processor, Arc::new(FakeClock::new()), 1, policy);
    std::thread::sleep(Duration::from_millis(50));
    pipeline
}

/// Reads results until the pipeline ends by itself (the stop flag is never set, so only the
/// failure can end it), then shuts it down: the order a consumer meets a failure in.
fn read_to_the_end(mut pipeline: Pipeline) -> (Vec<u64>, Result<PipelineReport, PipelineError>) {
    let mut delivered = Vec::new();
    while let Some(result) = pipeline.recv() {
        delivered.push(result.frame.index);
    }
    (delivered, pipeline.shutdown(|_| {}))
}

fn source() -> FrameSource {
    common::small_source(Duration::from_millis(1))
}

// ANCHOR: failing_processor
#[test]
fn a_failing_processor_ends_the_pipeline_under_every_policy() {
    for policy in POLICIES {
        let what = format!("shutdown after a processing error, {policy:?}");
        let (delivered, report) = within(&what, move || {
            read_to_the_end(start_and_stall(
                source(),
                FaultyProcessor(Fault::Error),
                policy,
            ))
        });
        assert!(
            matches!(&report, Err(PipelineError::Processing(e)) if e.to_string().contains("could not be processed")),
            "{policy:?}: {report:?}"
        );
        // Results made before the error still arrive, in order.
        assert!(delivered.iter().all(|&i| i < BAD_FRAME), "{delivered:?}");
        assert!(delivered.windows(2).all(|w| w[0] < w[1]), "{delivered:?}");
    }
}
// ANCHOR_END: failing_processor

#[test]
fn a_panicking_processor_is_reported_and_joined_under_every_policy() {
    for policy in POLICIES {
        let what = format!("shutdown after a processing panic, {policy:?}");
        let (_, report) = within(&what, move || {
            read_to_the_end(start_and_stall(
                source(),
                FaultyProcessor(Fault::Panic),
                policy,
            ))
        });
        assert!(
            matches!(
                report,
                Err(PipelineError::Panicked {
                    stage: "processing"
                })
            ),
            "{policy:?}: {report:?}"
        );
    }
}

#[test]
fn a_failing_source_ends_the_pipeline_after_what_it_made_under_every_policy() {
    for (policy, fault) in POLICIES
        .into_iter()
        .flat_map(|p| [(p, Fault::Error), (p, Fault::Panic)])
    {
        let what = format!("shutdown after a source {fault:?}, {policy:?}");
        let (delivered, report) = within(&what, move || {
            read_to_the_end(start_and_stall(
                FaultySource(source(), fault),
                CpuHistogram,
                policy,
            ))
        });
        match fault {
            Fault::Error => assert!(
                matches!(&report, Err(PipelineError::Source(e)) if e.to_string().contains("frame 3")),
                "{policy:?}: {report:?}"
            ),
            Fault::Panic => assert!(
                matches!(report, Err(PipelineError::Panicked { stage: "source" })),
                "{policy:?}: {report:?}"
            ),
        }
        // The frames made before the fault were processed and delivered (or dropped, counted,
        // by `DropOldest`): under `Block` nothing may be missing.
        if policy == Policy::Block {
            assert_eq!(delivered, (0..BAD_FRAME).collect::<Vec<_>>());
        }
    }
}

#[test]
fn a_consumer_that_walks_away_drops_the_pipeline_without_hanging_under_every_policy() {
    for policy in POLICIES {
        for fault in [None, Some(Fault::Error), Some(Fault::Panic)] {
            let what = format!("dropping the pipeline, {policy:?}, processor fault {fault:?}");
            within(&what, move || match fault {
                None => drop(start_and_stall(source(), CpuHistogram, policy)),
                Some(f) => drop(start_and_stall(source(), FaultyProcessor(f), policy)),
            });
        }
    }
}
