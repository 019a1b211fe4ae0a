//! GPU puzzles: short WGSL exercises in rising difficulty, from a map to a tiled matrix
//! multiply, a histogram with atomics and a softmax. After Sasha Rush's GPU Puzzles
//! (<https://github.com/srush/GPU-Puzzles>, numba CUDA): the idea of small puzzles checked
//! against a reference, and of limiting a thread's global reads, is his; these puzzles, their
//! text and their code are the course's own, in WGSL.
//!
//! Each puzzle is data: WGSL files under `puzzles/<id>/` (the stub the reader starts from, a
//! reference solution, plausible wrong solutions) and a description in [`catalogue`] (sizes,
//! inputs, the CPU reference's answer). The same definitions run natively ([`run::run`], tested
//! on lavapipe) and in the book's pages, which embed `book_data/<id>.json` (written by the
//! `export_puzzles` binary; a test keeps it current).

pub mod catalogue;
pub mod check;
pub mod export;
pub mod harness;
pub mod puzzle;
pub mod run;

pub use check::Verdict;
pub use puzzle::{Failure, Puzzle};
pub use run::{Outcome, PuzzleError, run};
