//! Your work: the monitor. Every function here returns the right answer, and on a day's
//! recording the program is far too slow. Profile the example before you change anything
//! (`cargo run --release -p ex_m4_find_the_hot_spot --example profile_alarms` under a sampling
//! profiler), find where the time goes, change that, and keep every answer the same.

use crate::{Episode, Trace};

/// The indices `end` at which the mean of the `window` readings ending at `end` (inclusive)
/// is above `threshold`, i.e. their sum is greater than `threshold × window`. The first
/// possible `end` is `window - 1`. A `window` of 0 or longer than the trace gives no alarms.
pub fn alarms(trace: &Trace, window: usize, threshold: u16) -> Vec<usize> {
    let mut found = Vec::new();
    if window == 0 || window > trace.len() {
        return found;
    }
    let limit = u64::from(threshold) * window as u64;
    // A running total: the windows ending at `end - 1` and at `end` share all but two readings,
    // so each step adds the one that enters and removes the one that leaves. Three operations
    // per reading, whatever the window, instead of `window + 1`.
    let mut total = trace.total();
    for index in 0..window {
        total.add(index);
    }
    if total.is_above(limit) {
        found.push(window - 1);
    }
    for end in window..trace.len() {
        total.add(end);
        total.remove(end - window);
        if total.is_above(limit) {
            found.push(end);
        }
    }
    found
}

/// The runs of consecutive indices in `alarms` (sorted, no repeats), longest first; runs of the
/// same length in the order they start.
pub fn episodes(alarms: &[usize]) -> Vec<Episode> {
    let mut runs = Vec::new();
    let mut start = 0;
    while start < alarms.len() {
        // Walk to the end of this run.
        let mut end = start;
        while end + 1 < alarms.len() && alarms[end + 1] == alarms[end] + 1 {
            end += 1;
        }
        runs.push(Episode {
            first: alarms[start],
            last: alarms[end],
        });
        start = end + 1;
    }
    runs.sort_by(|a, b| b.len().cmp(&a.len()).then(a.first.cmp(&b.first)));
    runs
}
