use crate::{BinSpec, Histogram, HistogramError, Samples};

/// Counts every sample with `threads` scoped worker threads (fewer if there are fewer samples
/// than threads, none if there are none). Each worker takes its own part with `samples.take`,
/// parts differing in size by at most one sample, and counts it into private bins; the calling
/// thread only starts the workers and adds up their histograms. `threads == 0` is `NoThreads`.
pub fn histogram(
    samples: &Samples,
    spec: &BinSpec,
    threads: usize,
) -> Result<Histogram, HistogramError> {
    let _ = (samples, spec, threads);
    todo!("split, count in scoped threads, merge")
}
