//! A recorded sensor trace, and the running totals that count the work done on its readings.
//! Given: the grader uses this copy.

use std::cell::Cell;
use std::fmt;

/// A recording of 16-bit readings, with a count of the operations done on them through totals.
/// The count is the exercise's measurement: unlike a time, it is the same on every machine.
///
/// The readings are private on purpose. No method shows a reading's value, and a reading is
/// named only by its index: the only way to combine readings is a [`Total`] of this trace,
/// which adds readings of this trace and counts every operation here. A total of another trace
/// cannot see these readings, so there is nowhere else to do the work uncounted.
pub struct Trace {
    samples: Vec<u16>,
    operations: Cell<u64>,
}

impl Trace {
    pub fn new(samples: Vec<u16>) -> Self {
        Self {
            samples,
            operations: Cell::new(0),
        }
    }

    /// Reads a recording written one reading per line (a whole number from 0 to 65535).
    /// Blank lines are skipped; anything else is an error that names its line.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let mut samples = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            match line.parse::<u16>() {
                Ok(x) => samples.push(x),
                Err(_) => {
                    return Err(ParseError {
                        line: index + 1,
                        text: line.chars().take(40).collect(),
                    });
                }
            }
        }
        Ok(Self::new(samples))
    }

    /// How many readings the trace holds; they are numbered `0..len()`, oldest first.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// An empty running total of this trace's readings.
    pub fn total(&self) -> Total<'_> {
        Total {
            trace: self,
            sum: 0,
        }
    }

    /// Operations done so far on totals of this trace: every `add`, `remove` and `is_above`.
    pub fn operations(&self) -> u64 {
        self.operations.get()
    }

    fn count(&self) {
        self.operations.set(self.operations.get() + 1);
    }

    fn sample(&self, index: usize) -> u64 {
        match self.samples.get(index) {
            Some(&x) => u64::from(x),
            None => panic!(
                "Total: reading {index} does not exist; this trace holds readings 0..{}",
                self.samples.len()
            ),
        }
    }
}

/// A running sum of one trace's readings, made by [`Trace::total`]. Every operation on it
/// counts one in that trace's [`Trace::operations`]. The sum is a `u64`, so it cannot overflow
/// for any trace a `Vec` holds.
pub struct Total<'t> {
    trace: &'t Trace,
    sum: u64,
}

impl Total<'_> {
    /// Adds reading `index` of the total's trace to the sum. Panics if the trace has no such
    /// reading.
    pub fn add(&mut self, index: usize) {
        self.trace.count();
        self.sum += self.trace.sample(index);
    }

    /// Takes reading `index`, added before, out of the sum. Panics if the trace has no such
    /// reading, or if the sum would go below zero: that reading was never added.
    pub fn remove(&mut self, index: usize) {
        self.trace.count();
        self.sum = self
            .sum
            .checked_sub(self.trace.sample(index))
            .expect("Total::remove: that reading was never added to this total");
    }

    /// Whether the sum is greater than `limit`.
    pub fn is_above(&self, limit: u64) -> bool {
        self.trace.count();
        self.sum > limit
    }
}

/// A line of a recording that is not a reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The line's number, from 1.
    pub line: usize,
    /// The line's first 40 characters.
    pub text: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {:?} is not a reading; write one whole number from 0 to 65535 a line",
            self.line, self.text
        )
    }
}

impl std::error::Error for ParseError {}
