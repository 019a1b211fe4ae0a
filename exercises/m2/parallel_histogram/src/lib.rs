//! Exercise: a histogram of `u32` samples (latencies in microseconds, say), counted by several
//! threads that each fill private bins, merged at the end.
//!
//! The threads read their samples through [`Samples::take`], which records which thread took
//! which range: the tests use that record to check that the work really was split, without
//! timing anything (timings on a shared machine are too noisy to grade).
//!
//! This file, `run.rs` and `samples.rs` are given: the grader always uses the course's copies.
//! Your work is in `bins.rs` and `count.rs`.

mod bins;
mod count;
mod run;
mod samples;

pub use run::{Counted, parallel_histogram};
pub use samples::{Samples, Take};

use std::fmt;

/// The most bins a histogram may have: every thread keeps its own copy of the bins, so their
/// number must stay small next to the data.
pub const MAX_BINS: usize = 1 << 20;

/// Equal-width bins over the values `lo..hi` (`hi` excluded). Made by `BinSpec::new`, which
/// checks them (in `bins.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinSpec {
    lo: u32,
    hi: u32,
    bins: usize,
}

impl BinSpec {
    pub fn lo(&self) -> u32 {
        self.lo
    }

    pub fn hi(&self) -> u32 {
        self.hi
    }

    pub fn bins(&self) -> usize {
        self.bins
    }
}

/// Where one sample is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Below `lo`.
    Below,
    /// In bin `i`, `0 <= i < bins`.
    Bin(usize),
    /// At `hi` or above.
    Above,
}

/// The counts: one per bin, and the samples outside `lo..hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    pub counts: Vec<u64>,
    pub below: u64,
    pub above: u64,
}

impl Histogram {
    /// All zeros, with the spec's number of bins.
    pub fn empty(spec: &BinSpec) -> Self {
        Histogram {
            counts: vec![0; spec.bins],
            below: 0,
            above: 0,
        }
    }

    /// Every sample counted, inside the range or not.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum::<u64>() + self.below + self.above
    }
}

/// Everything that can go wrong, each with a message that says what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistogramError {
    /// `lo >= hi`: no value would fall in any bin.
    EmptyRange { lo: u32, hi: u32 },
    /// `bins == 0`.
    NoBins,
    /// More bins than `max`: `MAX_BINS`, or `hi - lo` (one value per bin) if that is smaller.
    TooManyBins { bins: usize, max: usize },
    /// `threads == 0`.
    NoThreads,
    /// `Samples::take` was asked for a range that is not inside the data.
    OutOfBounds {
        start: usize,
        end: usize,
        len: usize,
    },
    /// `Samples::take` was asked for a range that overlaps one already taken.
    AlreadyTaken {
        start: usize,
        end: usize,
        taken_start: usize,
        taken_end: usize,
    },
    /// A worker thread panicked (a bug in the counting code, not in the input).
    WorkerPanicked,
}

impl fmt::Display for HistogramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistogramError::EmptyRange { lo, hi } => write!(
                f,
                "the range {lo}..{hi} is empty: choose lo < hi (hi is excluded)"
            ),
            HistogramError::NoBins => write!(f, "a histogram needs at least one bin"),
            HistogramError::TooManyBins { bins, max } => write!(
                f,
                "{bins} bins is too many: use at most {max} (every bin must cover at least one value, and at \
                 most {MAX_BINS} bins)"
            ),
            HistogramError::NoThreads => write!(f, "use at least one thread"),
            HistogramError::OutOfBounds { start, end, len } => write!(
                f,
                "samples {start}..{end} are not inside the {len} samples: take ranges with \
                 start <= end <= {len}"
            ),
            HistogramError::AlreadyTaken {
                start,
                end,
                taken_start,
                taken_end,
            } => write!(
                f,
                "samples {start}..{end} overlap {taken_start}..{taken_end}, already taken: \
                 every sample is counted once, so give each thread its own range"
            ),
            HistogramError::WorkerPanicked => write!(
                f,
                "a worker thread panicked: this is a bug in the counting code, not in the input"
            ),
        }
    }
}

impl std::error::Error for HistogramError {}
