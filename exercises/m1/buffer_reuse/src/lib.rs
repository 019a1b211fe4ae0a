//! Exercise: reusable buffers in a computational graph — liveness analysis and a buffer plan.
//!
//! The graph is the course's [`VerifiedGraph`] (crate `computational_graphs`). Without a plan,
//! every device buffer a node uses gets its own allocation, all alive for the whole run. A device
//! intermediate is dead once the last node that touches it has run, so its allocation can hold a
//! later intermediate: that is what a buffer plan decides, and the peak device memory drops.
//!
//! This file and `run.rs` are given: the grader always uses the course's copies. Your work is in
//! `liveness.rs` and `plan.rs`.

mod liveness;
mod plan;
mod run;

pub use liveness::last_uses;
pub use plan::plan_buffers;
pub use run::{PlannedRun, RunError, run_planned};

use computational_graphs::graph::{BufferId, VerifiedGraph};

/// Which allocation holds each device buffer, and how large each allocation is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferPlan {
    /// `allocation_of[b]` is the allocation that holds graph buffer `b`: `None` for host buffers
    /// and for buffers that no node uses.
    pub allocation_of: Vec<Option<usize>>,
    /// `allocation_bytes[a]` is the size of allocation `a`.
    pub allocation_bytes: Vec<u64>,
}

impl BufferPlan {
    /// Peak device memory of the plan: every allocation exists for the whole run.
    pub fn peak_bytes(&self) -> u64 {
        self.allocation_bytes.iter().sum()
    }

    /// The graph buffers that allocation `a` holds over the run, in buffer order.
    pub fn buffers_in(&self, a: usize) -> Vec<BufferId> {
        (0..self.allocation_of.len())
            .filter(|&b| self.allocation_of[b] == Some(a))
            .collect()
    }
}

/// The size of one graph buffer: `rows × cols` numbers of 4 bytes (f32).
pub fn buffer_bytes(graph: &VerifiedGraph, id: BufferId) -> u64 {
    let decl = graph.buffer(id);
    (decl.rows * decl.cols * std::mem::size_of::<f32>()) as u64
}

/// Peak device memory without a plan: one allocation per device buffer that a node uses
/// (parameters included).
pub fn naive_peak_bytes(graph: &VerifiedGraph) -> u64 {
    (0..graph.buffers().len())
        .filter(|&b| graph.is_device(b) && graph.is_used(b))
        .map(|b| buffer_bytes(graph, b))
        .sum()
}

/// What makes a plan impossible: the caller's `keep` list names a wrong buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// `keep` names a buffer index the graph does not have.
    UnknownBuffer { buffer: BufferId, buffers: usize },
    /// `keep` names a buffer that no node writes and the caller does not fill: nothing to keep.
    NeverWritten { buffer: BufferId, name: String },
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::UnknownBuffer { buffer, buffers } => write!(
                f,
                "keep names buffer {buffer}, but the graph has {buffers} buffers \
                 (0..{buffers}): keep only indices of graph.buffers()"
            ),
            PlanError::NeverWritten { buffer, name } => write!(
                f,
                "keep names \"{name}\" (buffer {buffer}), which no node writes: keep a buffer \
                 that some node writes, or drop it from the list"
            ),
        }
    }
}

impl std::error::Error for PlanError {}
