//! The entry point the tests call: your `count::histogram` on recorded samples. Given (the
//! grader uses this copy).

use crate::BinSpec;
use crate::count;
use crate::{Histogram, HistogramError, Samples, Take};

/// The histogram, and which thread took which samples.
#[derive(Debug)]
pub struct Counted {
    pub histogram: Histogram,
    /// Every range of samples taken, in order, with the thread that took it.
    pub takes: Vec<Take>,
}

/// Counts `data` with `threads` worker threads (your `count::histogram`), and reports which
/// thread took which samples.
pub fn parallel_histogram(
    data: &[u32],
    spec: &BinSpec,
    threads: usize,
) -> Result<Counted, HistogramError> {
    let samples = Samples::new(data);
    let histogram = count::histogram(&samples, spec, threads)?;
    Ok(Counted {
        histogram,
        takes: samples.takes(),
    })
}
