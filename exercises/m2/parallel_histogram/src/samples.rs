//! The input, handed out in ranges, with a record of which thread took each range. This record
//! is how the tests check, without timing anything, that the work really was split.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Mutex;
use std::thread::{self, ThreadId};

use crate::HistogramError;

/// One range of samples and the thread that took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Take {
    pub start: usize,
    pub end: usize,
    pub thread: ThreadId,
}

/// The samples to count. The only way to read them is [`Samples::take`], which records the
/// calling thread. `Samples` is `Sync`: share `&Samples` with scoped threads.
pub struct Samples<'a> {
    data: &'a [u32],
    /// Taken ranges by start: `start -> (end, thread)`. A map, so that checking a new range
    /// against the ones already taken costs a lookup, not a scan.
    taken: Mutex<BTreeMap<usize, (usize, ThreadId)>>,
}

impl<'a> Samples<'a> {
    pub fn new(data: &'a [u32]) -> Self {
        Samples {
            data,
            taken: Mutex::new(BTreeMap::new()),
        }
    }

    /// How many samples there are.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The samples in `range`, recorded as taken by the calling thread. Every sample may be
    /// taken once: a range that overlaps one already taken is an error, and so is one that ends
    /// past the data. An empty range gives an empty slice and is not recorded.
    pub fn take(&self, range: Range<usize>) -> Result<&'a [u32], HistogramError> {
        let Range { start, end } = range;
        if start > end || end > self.data.len() {
            return Err(HistogramError::OutOfBounds {
                start,
                end,
                len: self.data.len(),
            });
        }
        if start == end {
            return Ok(&[]);
        }
        // A poisoned lock only means another thread panicked; the map itself is intact.
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        let before = taken.range(..end).next_back();
        if let Some((&s, &(e, _))) = before
            && e > start
        {
            return Err(HistogramError::AlreadyTaken {
                start,
                end,
                taken_start: s,
                taken_end: e,
            });
        }
        taken.insert(start, (end, thread::current().id()));
        Ok(&self.data[start..end])
    }

    /// Every range taken so far, in order of `start`.
    pub fn takes(&self) -> Vec<Take> {
        let taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        taken
            .iter()
            .map(|(&start, &(end, thread))| Take { start, end, thread })
            .collect()
    }
}
