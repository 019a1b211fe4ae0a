//! Judging a run: the output against the CPU reference, and each thread's global reads against
//! the puzzle's limit. The book's page (`book/theme/puzzles.js`) applies the same rules.

use std::fmt;

use crate::puzzle::{Failure, Puzzle};

/// How many mismatches a verdict lists.
pub const SHOWN: usize = 5;

#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    pub index: usize,
    pub expected: f64,
    pub got: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Pass,
    /// The first few differing elements and how many differ in all.
    Mismatch {
        first: Vec<Mismatch>,
        count: usize,
        answer_len: usize,
    },
    /// A thread read global memory `most` times where `limit` are allowed.
    TooManyReads {
        thread: usize,
        most: u32,
        limit: u32,
    },
}

impl Verdict {
    pub fn failure(&self) -> Option<Failure> {
        match self {
            Verdict::Pass => None,
            Verdict::Mismatch { .. } => Some(Failure::Mismatch),
            Verdict::TooManyReads { .. } => Some(Failure::Reads),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Pass => write!(f, "passed: every element matches the CPU reference"),
            Verdict::Mismatch {
                first,
                count,
                answer_len,
            } => {
                write!(
                    f,
                    "{count} element(s) differ from the CPU reference; first:"
                )?;
                for m in first {
                    let place = if m.index >= *answer_len {
                        " (past the end: must stay untouched)"
                    } else {
                        ""
                    };
                    write!(
                        f,
                        "\n  index {}{place}: expected {}, got {}",
                        m.index, m.expected, m.got
                    )?;
                }
                Ok(())
            }
            Verdict::TooManyReads {
                thread,
                most,
                limit,
            } => write!(
                f,
                "thread {thread} read global memory {most} times; this puzzle allows {limit} per thread"
            ),
        }
    }
}

fn close(expected: f64, got: f64, tolerance: f64) -> bool {
    // NaN never matches: a NaN answer is always wrong.
    (got - expected).abs() <= tolerance * expected.abs().max(1.0)
}

/// The verdict on one run: `output` is the whole (padded) output buffer, `reads` one count per
/// thread. The read limit is checked first: a right answer got the wrong way does not pass.
pub fn judge(puzzle: &Puzzle, output: &[f64], reads: &[u32]) -> Verdict {
    if let Some(limit) = puzzle.read_limit
        && let Some((thread, &most)) = reads.iter().enumerate().max_by_key(|(_, r)| **r)
        && most > limit
    {
        return Verdict::TooManyReads {
            thread,
            most,
            limit,
        };
    }
    let expected = puzzle.expected_padded();
    let wrong: Vec<Mismatch> = expected
        .iter()
        .zip(output)
        .enumerate()
        .filter(|(_, (e, g))| !close(**e, **g, puzzle.tolerance))
        .map(|(index, (e, g))| Mismatch {
            index,
            expected: *e,
            got: *g,
        })
        .collect();
    if wrong.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Mismatch {
            count: wrong.len(),
            first: wrong.into_iter().take(SHOWN).collect(),
            answer_len: puzzle.output.len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;

    #[test]
    fn a_nan_never_matches() {
        assert!(!close(1.0, f64::NAN, 1e-3));
        assert!(close(100.0, 100.001, 1e-4));
    }

    #[test]
    fn the_read_limit_is_checked_before_the_output() {
        let p = catalogue::by_id("shared").expect("the shared puzzle exists");
        let v = judge(&p, &p.expected_padded(), &vec![2; p.total_threads()]);
        assert_eq!(v.failure(), Some(Failure::Reads));
        assert!(v.to_string().contains("allows 1 per thread"), "{v}");
    }

    #[test]
    fn a_write_past_the_end_is_reported_as_such() {
        let p = catalogue::by_id("guards").expect("the guards puzzle exists");
        let mut out = p.expected_padded();
        out[p.output.len] = 13.0;
        let v = judge(&p, &out, &vec![1; p.total_threads()]);
        assert!(v.to_string().contains("past the end"), "{v}");
    }
}
