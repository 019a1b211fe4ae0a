//! Rule: don't write a log line from the hot loop. Buffer it, or hand a small record to another
//! thread that formats and writes it.
//!
//! `println!` goes to `stdout`, which is line-buffered: one `write` system call per line. The
//! `LineBuffered` variant reproduces exactly that on a file (so a measurement does not flood
//! the terminal); where stdout is a terminal, each line also costs the terminal's drawing.

use std::fs::File;
use std::io::{self, BufWriter, LineWriter, Write};
use std::thread::JoinHandle;

use crate::spsc::{Consumer, Producer, ring_buffer};

/// What the loop wants to log: plain data, `Copy`, no `String`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogRecord {
    pub frame: u64,
    pub mean: f64,
}

fn write_record(out: &mut impl Write, r: &LogRecord) -> io::Result<()> {
    writeln!(out, "frame {}: mean {:.4}", r.frame, r.mean)
}

// ANCHOR: line_buffered
/// Before: like `println!`, one system call per line.
pub struct LineBuffered(LineWriter<File>);

impl LineBuffered {
    pub fn new(file: File) -> Self {
        Self(LineWriter::new(file))
    }

    pub fn log(&mut self, r: LogRecord) -> io::Result<()> {
        write_record(&mut self.0, &r)
    }
}
// ANCHOR_END: line_buffered

// ANCHOR: buffered
/// Better: lines collect in a 64 KiB buffer; one system call per ~2000 lines.
pub struct Buffered(BufWriter<File>);

impl Buffered {
    pub fn new(file: File) -> Self {
        Self(BufWriter::with_capacity(64 * 1024, file))
    }

    pub fn log(&mut self, r: LogRecord) -> io::Result<()> {
        write_record(&mut self.0, &r)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
// ANCHOR_END: buffered

// ANCHOR: off_thread
/// Best for the loop: it moves one ring slot, an `Option<LogRecord>` of 24 bytes, into the
/// module 2 SPSC ring and returns; a logger thread formats and writes. When the ring is full the record is dropped and counted:
/// the loop never waits for the disk.
pub struct OffThread {
    producer: Producer<Option<LogRecord>>,
    dropped: u64,
    logger: Option<JoinHandle<io::Result<u64>>>,
}

impl OffThread {
    pub fn new(file: File, capacity: usize) -> Result<Self, LoggingError> {
        let (producer, consumer) = ring_buffer(capacity).map_err(LoggingError::Capacity)?;
        let logger = std::thread::spawn(move || drain(consumer, file));
        Ok(Self {
            producer,
            dropped: 0,
            logger: Some(logger),
        })
    }

    pub fn log(&mut self, r: LogRecord) {
        if self.producer.push(Some(r)).is_err() {
            self.dropped += 1;
        }
    }

    /// Stops the logger after it has written everything queued; returns (written, dropped).
    pub fn finish(mut self) -> io::Result<(u64, u64)> {
        // `None` is the end-of-log marker; wait for room rather than lose it.
        while self.producer.push(None).is_err() {
            std::thread::yield_now();
        }
        let written = match self.logger.take().map(JoinHandle::join) {
            Some(Ok(result)) => result?,
            Some(Err(_)) => return Err(io::Error::other("the logger thread panicked")),
            None => 0,
        };
        Ok((written, self.dropped))
    }
}
// ANCHOR_END: off_thread

fn drain(mut consumer: Consumer<Option<LogRecord>>, file: File) -> io::Result<u64> {
    let mut out = BufWriter::with_capacity(64 * 1024, file);
    let mut written = 0;
    loop {
        match consumer.pop() {
            Some(Some(r)) => {
                write_record(&mut out, &r)?;
                written += 1;
            }
            Some(None) => break,
            // Nothing queued: give the core away briefly rather than spin on it.
            None => std::thread::sleep(std::time::Duration::from_micros(50)),
        }
    }
    out.flush()?;
    Ok(written)
}

/// Why an off-thread logger could not start.
#[derive(Debug, thiserror::Error)]
pub enum LoggingError {
    #[error("the log ring's capacity is invalid: {0}")]
    Capacity(#[source] parallelism::primitives::spsc::CapacityError),
}
