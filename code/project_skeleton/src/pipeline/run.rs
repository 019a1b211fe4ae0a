//! The stages on their threads: source → queue → processing → queue → the consumer (a display,
//! or a test). A stop flag ends the source; the end of each queue then travels downstream, every
//! stage drains what it holds, and every thread is joined.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

use crate::pipeline::clock::Clock;
use crate::pipeline::pool::FramePool;
use crate::pipeline::process::{Processed, Processor};
use crate::pipeline::queue::{self, Policy, QueueCounters, QueueStats, StageReceiver};
use crate::pipeline::recorder::{RecorderHandle, Summary};
use crate::pipeline::source::{Frame, Source};

/// How the stages are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipelineConfig {
    /// Room in each queue.
    pub capacity: usize,
    pub policy: Policy,
}

/// What went wrong in a stage.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error("could not start the {stage} thread: {source}")]
    Spawn {
        stage: &'static str,
        source: std::io::Error,
    },
    #[error("the source failed: {0}")]
    Source(Box<dyn std::error::Error + Send + Sync>),
    #[error("the processing stage failed: {0}")]
    Processing(Box<dyn std::error::Error + Send + Sync>),
    #[error("the {stage} thread panicked: a bug in that stage")]
    Panicked { stage: &'static str },
}

/// Every frame's fate, after shutdown. With no loss, `produced` = `processed` + the drops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipelineReport {
    /// Frames the source made.
    pub produced: u64,
    /// Frames the source never made because it woke a whole period or more late (after a
    /// stall) under `DropOldest`: it skips to the newest due frame instead of bursting the
    /// missed ones. Always 0 under `Block`, which makes every frame.
    pub skipped_at_source: u64,
    /// Frame buffers the source had to make because the pool had none free: the frames in the
    /// queues, in the processing stage and at the consumer held them all. Those buffers join the
    /// pool, so this stops growing once the pipeline is warm.
    pub made_when_pool_empty: u64,
    /// Frames the processing stage returned.
    pub processed: u64,
    /// Frames the consumer received (shown, or drained at shutdown).
    pub delivered: u64,
    /// Dropped by the policy of the source → processing queue.
    pub dropped_before_processing: u64,
    /// Given up by the processing stage (its read-back ring was full).
    pub dropped_in_processing: u64,
    /// Dropped by the policy of the processing → consumer queue.
    pub dropped_before_consumer: u64,
}

impl PipelineReport {
    /// Frames that vanished without being counted: zero unless there is a bug.
    pub fn lost(&self) -> i128 {
        let accounted = self.delivered
            + self.dropped_before_processing
            + self.dropped_in_processing
            + self.dropped_before_consumer;
        i128::from(self.produced) - i128::from(accounted)
    }
}

/// What the processing thread counted.
#[derive(Clone, Copy, Debug, Default)]
struct ProcessingCounts {
    processed: u64,
    dropped: u64,
}

/// The queues' counters while the pipeline runs, for a display.
pub struct LiveStats {
    produced: Arc<AtomicU64>,
    frames: QueueCounters<Frame>,
    results: QueueCounters<Processed>,
}

impl LiveStats {
    pub fn produced(&self) -> u64 {
        self.produced.load(Ordering::Relaxed)
    }

    /// Source → processing.
    pub fn frames_queue(&self) -> QueueStats {
        self.frames.stats()
    }

    /// Processing → consumer.
    pub fn results_queue(&self) -> QueueStats {
        self.results.stats()
    }
}

/// A running pipeline. Take results with [`Pipeline::try_recv`] or [`Pipeline::recv`]; end it with
/// [`Pipeline::shutdown`].
pub struct Pipeline {
    stop: Arc<AtomicBool>,
    produced: Arc<AtomicU64>,
    outputs: StageReceiver<Processed>,
    delivered: u64,
    source: Option<JoinHandle<Result<u64, PipelineError>>>,
    processing: Option<JoinHandle<Result<ProcessingCounts, PipelineError>>>,
    frames: QueueCounters<Frame>,
    pool: Arc<FramePool>,
}

/// Frame buffers per pipeline beyond the two queues' frames: one being made, one being
/// processed, one at the consumer, and a few held in a GPU stage's ring.
const POOL_SLACK: usize = 6;

impl Pipeline {
    /// Starts the source and the processing stage on their own threads.
    pub fn start<S: Source, P: Processor>(
        mut source: S,
        mut processor: P,
        config: PipelineConfig,
        clock: Arc<dyn Clock>,
        recorder: RecorderHandle,
    ) -> Result<Self, PipelineError> {
        let (frames_tx, frames_rx) = queue::bounded::<Frame>(config.capacity, config.policy);
        let (results_tx, outputs) = queue::bounded::<Processed>(config.capacity, config.policy);
        let frames = frames_rx.counters();
        let stop = Arc::new(AtomicBool::new(false));
        let produced = Arc::new(AtomicU64::new(0));
        let pool = Arc::new(FramePool::new(2 * config.capacity.max(1) + POOL_SLACK));

        // ANCHOR: source_stage
        let skip_late = config.policy == Policy::DropOldest;
        let source_thread = {
            let (stop, produced, clock, pool) =
                (stop.clone(), produced.clone(), clock.clone(), pool.clone());
            move || -> Result<u64, PipelineError> {
                let (mut index, mut skipped) = (0, 0);
                while !stop.load(Ordering::Acquire) {
                    let Some(due) = source.due_at(index) else {
                        break; // a recording has ended
                    };
                    clock.sleep_until(due);
                    // Woken a period or more late: under `DropOldest` only the newest frame
                    // matters, so skip to it rather than burst the missed ones; under `Block`
                    // every frame matters, and the full queue holds the burst back.
                    let now = clock.now();
                    while skip_late && source.due_at(index + 1).is_some_and(|next| next <= now) {
                        (index, skipped) = (index + 1, skipped + 1);
                    }
                    // A buffer a dropped frame gave back: nothing allocated once warm.
                    let frame = source
                        .capture(index, now, pool.take())
                        .map_err(|e| PipelineError::Source(Box::new(e)))?;
                    produced.fetch_add(1, Ordering::Relaxed);
                    if frames_tx.send(frame).is_err() {
                        break; // processing has stopped: nobody to send to
                    }
                    index += 1;
                }
                Ok(skipped)
                // `frames_tx` is dropped here: processing sees the end once the queue is empty.
            }
        };
        // ANCHOR_END: source_stage

        // ANCHOR: processing_stage
        let processing_thread = move || -> Result<ProcessingCounts, PipelineError> {
            let mut ready = Vec::new();
            let mut processed = 0;
            let mut forward = |ready: &mut Vec<Processed>| {
                for result in ready.drain(..) {
                    recorder.record(Summary {
                        index: result.frame.index,
                        latency: result.latency(),
                        mean_level: result.mean_level(),
                    });
                    processed += 1;
                    // The consumer gone is no error here: the rest is counted as not delivered.
                    let _ = results_tx.send(result);
                }
            };
            let failed = |e: P::Error| PipelineError::Processing(Box::new(e));
            // Runs until the source has stopped and every queued frame has been taken.
            while let Some(frame) = frames_rx.recv() {
                processor
                    .process(frame, clock.now(), &mut ready)
                    .map_err(failed)?;
                forward(&mut ready);
            }
            processor.flush(clock.now(), &mut ready).map_err(failed)?;
            forward(&mut ready);
            Ok(ProcessingCounts {
                processed,
                dropped: processor.dropped(),
            })
        };
        // ANCHOR_END: processing_stage

        let spawn = |stage: &'static str| move |source| PipelineError::Spawn { stage, source };
        let source = std::thread::Builder::new()
            .name("source".into())
            .spawn(source_thread)
            .map_err(spawn("source"))?;
        let processing = std::thread::Builder::new()
            .name("processing".into())
            .spawn(processing_thread)
            .map_err(spawn("processing"))?;
        Ok(Self {
            stop,
            produced,
            outputs,
            delivered: 0,
            source: Some(source),
            processing: Some(processing),
            frames,
            pool,
        })
    }

    /// The next result if one is ready (never blocks): what a display calls once per frame.
    pub fn try_recv(&mut self) -> Option<Processed> {
        let next = self.outputs.try_recv();
        self.delivered += u64::from(next.is_some());
        next
    }

    /// The next result, waiting for it; `None` once the pipeline has ended.
    pub fn recv(&mut self) -> Option<Processed> {
        let next = self.outputs.recv();
        self.delivered += u64::from(next.is_some());
        next
    }

    pub fn live_stats(&self) -> LiveStats {
        LiveStats {
            produced: self.produced.clone(),
            frames: self.frames.clone(),
            results: self.outputs.counters(),
        }
    }

    // ANCHOR: shutdown
    /// Stops the source, hands every result still in the pipeline to `consume` (in order), and
    /// joins both threads. The time it takes is bounded by the queues' capacity, not by how far
    /// behind the consumer is: the queues hold at most `capacity` frames each.
    pub fn shutdown(
        mut self,
        mut consume: impl FnMut(Processed),
    ) -> Result<PipelineReport, PipelineError> {
        self.stop.store(true, Ordering::Release);
        // Drain while the stages finish: with `Policy::Block`, a stage may be waiting for room.
        while let Some(result) = self.recv() {
            consume(result);
        }
        let skipped = match self.source.take().map(JoinHandle::join) {
            Some(Ok(result)) => result?,
            Some(Err(_)) => return Err(PipelineError::Panicked { stage: "source" }),
            None => 0,
        };
        let counts = match self.processing.take().map(JoinHandle::join) {
            Some(Ok(result)) => result?,
            Some(Err(_)) => {
                return Err(PipelineError::Panicked {
                    stage: "processing",
                });
            }
            None => ProcessingCounts::default(),
        };
        Ok(PipelineReport {
            produced: self.produced.load(Ordering::Relaxed),
            skipped_at_source: skipped,
            made_when_pool_empty: self.pool.made_when_empty(),
            processed: counts.processed,
            delivered: self.delivered,
            dropped_before_processing: self.frames.stats().dropped,
            dropped_in_processing: counts.dropped,
            dropped_before_consumer: self.outputs.stats().dropped,
        })
    }
    // ANCHOR_END: shutdown
}

impl Drop for Pipeline {
    /// A pipeline dropped without `shutdown` still stops and joins its threads.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        while self.outputs.recv().is_some() {}
        if let Some(t) = self.source.take() {
            let _ = t.join();
        }
        if let Some(t) = self.processing.take() {
            let _ = t.join();
        }
    }
}
