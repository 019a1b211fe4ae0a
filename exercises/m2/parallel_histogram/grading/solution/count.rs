use std::thread;

use crate::{BinSpec, Histogram, HistogramError, Samples, Slot};

/// Counts every sample with `threads` scoped worker threads (fewer if there are fewer samples
/// than threads, none if there are none). Each worker takes its own part with `samples.take`,
/// parts differing in size by at most one sample, and counts it into private bins; the calling
/// thread only starts the workers and adds up their histograms. `threads == 0` is `NoThreads`.
pub fn histogram(
    samples: &Samples,
    spec: &BinSpec,
    threads: usize,
) -> Result<Histogram, HistogramError> {
    if threads == 0 {
        return Err(HistogramError::NoThreads);
    }
    let n = samples.len();
    // A thread with nothing to count would cost a spawn and count nothing.
    let workers = threads.min(n);
    let partials: Vec<Result<Histogram, HistogramError>> = thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|k| {
                // Part k is [k·n/p, (k+1)·n/p): consecutive parts share their edges, so they
                // cover everything once, and their sizes differ by at most one.
                let part = k * n / workers..(k + 1) * n / workers;
                s.spawn(move || count_part(samples, part, spec))
            })
            .collect();
        // Joining every handle (not stopping at the first error) keeps a panic from being
        // re-raised by the scope.
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(HistogramError::WorkerPanicked)))
            .collect()
    });
    let mut total = Histogram::empty(spec);
    for partial in partials {
        merge(&mut total, &partial?);
    }
    Ok(total)
}

/// One worker: its part into its own bins. Nothing is shared while counting, so there is
/// nothing to lock and no cache line that two cores both write.
fn count_part(
    samples: &Samples,
    part: std::ops::Range<usize>,
    spec: &BinSpec,
) -> Result<Histogram, HistogramError> {
    let mut bins = Histogram::empty(spec);
    for &value in samples.take(part)? {
        match spec.slot(value) {
            Slot::Below => bins.below += 1,
            Slot::Bin(i) => bins.counts[i] += 1,
            Slot::Above => bins.above += 1,
        }
    }
    Ok(bins)
}

/// Adds `part` into `total`: once per worker, `bins + 2` additions each.
fn merge(total: &mut Histogram, part: &Histogram) {
    for (t, p) in total.counts.iter_mut().zip(&part.counts) {
        *t += p;
    }
    total.below += part.below;
    total.above += part.above;
}
