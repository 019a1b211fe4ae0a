//! A recorded sensor trace, and the running totals that count the work done on its readings.
//! Given: the grader uses this copy.

use std::cell::Cell;
use std::fmt;

/// One 16-bit sensor reading. It has no arithmetic and shows no value on purpose: the only way
/// to combine readings is a [`Total`], which its trace counts. Copying readings is free.
#[derive(Clone, Copy)]
pub struct Reading(u16);

/// A recording of readings, with a count of the operations done on them through totals.
/// The count is the exercise's measurement: unlike a time, it is the same on every machine.
pub struct Trace {
    readings: Vec<Reading>,
    operations: Cell<u64>,
}

impl Trace {
    pub fn new(samples: Vec<u16>) -> Self {
        Self {
            readings: samples.into_iter().map(Reading).collect(),
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

    pub fn len(&self) -> usize {
        self.readings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.readings.is_empty()
    }

    /// The readings, oldest first. Reading them costs nothing; adding them up does.
    pub fn readings(&self) -> &[Reading] {
        &self.readings
    }

    /// An empty running total of this trace's readings.
    pub fn total(&self) -> Total<'_> {
        Total {
            operations: &self.operations,
            sum: 0,
        }
    }

    /// Operations done so far on totals of this trace: every `add`, `remove` and `is_above`.
    pub fn operations(&self) -> u64 {
        self.operations.get()
    }
}

/// A running sum of readings. Every operation on it counts one in its trace's
/// [`Trace::operations`]. The sum is a `u64`, so it cannot overflow for any trace a `Vec` holds.
pub struct Total<'t> {
    operations: &'t Cell<u64>,
    sum: u64,
}

impl Total<'_> {
    fn count(&self) {
        self.operations.set(self.operations.get() + 1);
    }

    /// Adds a reading to the sum.
    pub fn add(&mut self, reading: Reading) {
        self.count();
        self.sum += u64::from(reading.0);
    }

    /// Takes a reading that was added before out of the sum. Panics if the sum would go below
    /// zero: that reading was never added.
    pub fn remove(&mut self, reading: Reading) {
        self.count();
        self.sum = self
            .sum
            .checked_sub(u64::from(reading.0))
            .expect("Total::remove: that reading was never added to this total");
    }

    /// Whether the sum is greater than `limit`.
    pub fn is_above(&self, limit: u64) -> bool {
        self.count();
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
