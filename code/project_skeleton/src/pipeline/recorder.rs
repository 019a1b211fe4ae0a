//! The recorder: a summary of every processed frame, written on its own thread. The hot stage
//! hands summaries over with `try_send` and never waits: when the recorder falls behind (a slow
//! disk), summaries are dropped and counted, and the frames keep flowing.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Sender, TrySendError};

/// What is recorded of one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub index: u64,
    /// From capture to the end of processing.
    pub latency: Duration,
    /// The mean grey level, from the frame's histogram.
    pub mean_level: f64,
}

/// Where summaries go.
pub trait RecordSink: Send + 'static {
    fn write(&mut self, summary: &Summary) -> std::io::Result<()>;
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Kept in memory (tests, and a display that plots them).
impl RecordSink for Vec<Summary> {
    fn write(&mut self, summary: &Summary) -> std::io::Result<()> {
        self.push(*summary);
        Ok(())
    }
}

/// One CSV line per frame into any writer (a `BufWriter<File>` for a recording on disk).
pub struct CsvSink<W: Write + Send + 'static> {
    out: W,
    header_written: bool,
}

impl<W: Write + Send + 'static> CsvSink<W> {
    pub fn new(out: W) -> Self {
        Self {
            out,
            header_written: false,
        }
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write + Send + 'static> RecordSink for CsvSink<W> {
    fn write(&mut self, s: &Summary) -> std::io::Result<()> {
        if !self.header_written {
            writeln!(self.out, "index,latency_us,mean_level")?;
            self.header_written = true;
        }
        let us = s.latency.as_secs_f64() * 1e6;
        writeln!(self.out, "{},{us:.1},{:.3}", s.index, s.mean_level)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The recorder's thread ended badly.
#[derive(Debug, thiserror::Error)]
pub enum RecorderError {
    #[error("the recorder could not write a summary (check the disk and the path): {0}")]
    Write(#[source] std::io::Error),
    #[error("the recorder's thread panicked: a bug in its sink")]
    Panicked,
}

// ANCHOR: handle
/// The hot stage's end: cheap to clone, and `record` never blocks.
#[derive(Clone)]
pub struct RecorderHandle {
    tx: Sender<Summary>,
    dropped: Arc<AtomicU64>,
}

impl RecorderHandle {
    /// Queues `summary` if there is room; otherwise drops it and counts it.
    pub fn record(&self, summary: Summary) {
        match self.tx.try_send(summary) {
            Ok(()) => {}
            // Full: the disk is behind. Disconnected: the recorder failed and has stopped.
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Summaries dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}
// ANCHOR_END: handle

/// The recorder's thread. Dropping every [`RecorderHandle`] ends it, after it has written what
/// is queued; [`Recorder::finish`] then returns the sink.
pub struct Recorder<S> {
    handle: RecorderHandle,
    thread: JoinHandle<Result<(S, u64), RecorderError>>,
}

/// What the recorder did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecorderReport {
    pub written: u64,
    pub dropped: u64,
}

impl<S: RecordSink> Recorder<S> {
    /// Starts the thread with room for `capacity` summaries in flight.
    pub fn spawn(mut sink: S, capacity: usize) -> std::io::Result<Self> {
        let (tx, rx) = crossbeam_channel::bounded::<Summary>(capacity.max(1));
        let thread = std::thread::Builder::new()
            .name("recorder".into())
            .spawn(move || {
                let mut written = 0;
                for summary in rx {
                    sink.write(&summary).map_err(RecorderError::Write)?;
                    written += 1;
                }
                sink.flush().map_err(RecorderError::Write)?;
                Ok((sink, written))
            })?;
        let handle = RecorderHandle {
            tx,
            dropped: Arc::new(AtomicU64::new(0)),
        };
        Ok(Self { handle, thread })
    }

    /// A handle for a stage.
    pub fn handle(&self) -> RecorderHandle {
        self.handle.clone()
    }

    /// Waits for the thread: every handle must have been dropped (or this waits for them).
    pub fn finish(self) -> Result<(S, RecorderReport), RecorderError> {
        let dropped = self.handle.dropped.clone();
        drop(self.handle);
        let (sink, written) = self.thread.join().map_err(|_| RecorderError::Panicked)??;
        let report = RecorderReport {
            written,
            dropped: dropped.load(Ordering::Relaxed),
        };
        Ok((sink, report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that cannot write until the test lets it: a disk that has stalled.
    struct Stalled {
        go: crossbeam_channel::Receiver<()>,
        got: Vec<Summary>,
    }

    impl RecordSink for Stalled {
        fn write(&mut self, s: &Summary) -> std::io::Result<()> {
            let _ = self.go.recv();
            self.got.push(*s);
            Ok(())
        }
    }

    fn summary(index: u64) -> Summary {
        Summary {
            index,
            latency: Duration::from_micros(index),
            mean_level: 1.0,
        }
    }

    // ANCHOR: never_blocks_test
    #[test]
    fn a_stalled_sink_never_blocks_the_hot_stage_and_every_summary_is_written_or_counted() {
        let (go_tx, go) = crossbeam_channel::unbounded();
        let recorder = Recorder::spawn(Stalled { go, got: vec![] }, 4).unwrap();
        let handle = recorder.handle();
        // If `record` waited for the stalled sink, this loop would never end.
        for i in 0..100 {
            handle.record(summary(i));
        }
        drop(handle);
        drop(go_tx); // the disk comes back
        let (sink, report) = recorder.finish().unwrap();
        assert_eq!(report.written + report.dropped, 100);
        assert!(
            report.dropped >= 95,
            "at most 4 queued and 1 in the sink's hands"
        );
        assert_eq!(sink.got.len() as u64, report.written);
        assert!(sink.got.windows(2).all(|w| w[0].index < w[1].index));
    }
    // ANCHOR_END: never_blocks_test

    #[test]
    fn csv_lines_have_a_header_and_one_line_per_frame() {
        let recorder = Recorder::spawn(CsvSink::new(Vec::new()), 8).unwrap();
        let handle = recorder.handle();
        handle.record(summary(0));
        handle.record(summary(1));
        drop(handle);
        let (sink, report) = recorder.finish().unwrap();
        assert_eq!(
            report,
            RecorderReport {
                written: 2,
                dropped: 0
            }
        );
        let text = String::from_utf8(sink.into_inner()).unwrap();
        assert_eq!(
            text,
            "index,latency_us,mean_level\n0,0.0,1.000\n1,1.0,1.000\n"
        );
    }
}
