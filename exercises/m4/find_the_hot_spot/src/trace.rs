//! A recorded sensor trace that counts its reads. Given: the grader uses this copy.

use std::cell::Cell;

/// 16-bit sensor readings, read one at a time through [`Trace::get`], which counts each read.
/// The count is the exercise's measurement: unlike a time, it does not depend on the machine.
pub struct Trace {
    samples: Vec<u16>,
    reads: Cell<u64>,
}

impl Trace {
    pub fn new(samples: Vec<u16>) -> Self {
        Self {
            samples,
            reads: Cell::new(0),
        }
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Reading `i`, counted. Panics if `i >= len()`, as indexing a slice does.
    pub fn get(&self, i: usize) -> u16 {
        self.reads.set(self.reads.get() + 1);
        match self.samples.get(i) {
            Some(&x) => x,
            None => panic!("reading {i} of a trace of {} readings", self.samples.len()),
        }
    }

    /// Readings taken so far.
    pub fn reads(&self) -> u64 {
        self.reads.get()
    }
}
