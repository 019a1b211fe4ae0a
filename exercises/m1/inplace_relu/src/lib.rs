//! Exercise: an in-place ReLU in the course's graph, and the validation rule that makes it safe.
//!
//! ReLU reads one buffer and writes one of the same shape, element by element, so it can write
//! its result over its input: one device buffer fewer. Whether that is safe depends on the rest
//! of the graph, and getting it wrong does not crash: it silently changes numbers. So the graph
//! (`computational_graphs`' [`VerifiedGraph`]) gets one more rule, and a pass that applies it.
//!
//! This file and `run.rs` are given: the grader always uses the course's copies. Your work is in
//! `rule.rs` and `pass.rs`.

mod pass;
mod rule;
mod run;

pub use pass::plan_in_place;
pub use rule::check_in_place;
pub use run::{AliasedRunner, RunError, run_aliased};

use std::fmt;

use computational_graphs::graph::{BufferId, NodeKind, VerifiedGraph};

/// Which buffer's memory each graph buffer uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasPlan {
    /// `storage_of[b]` is the buffer whose memory holds `b`: `b` itself, or, for the output of an
    /// in-place ReLU, the buffer whose memory holds the ReLU's input. A chain of in-place ReLUs
    /// therefore ends up in the memory of the buffer that started it.
    pub storage_of: Vec<BufferId>,
    /// The nodes that run in place, in increasing order.
    pub in_place: Vec<usize>,
}

impl AliasPlan {
    /// Every buffer in its own memory: the plan with no in-place node.
    pub fn separate(graph: &VerifiedGraph) -> Self {
        AliasPlan {
            storage_of: (0..graph.buffers().len()).collect(),
            in_place: Vec::new(),
        }
    }

    /// How many buffers need no memory of their own.
    pub fn saved_buffers(&self) -> usize {
        (0..self.storage_of.len())
            .filter(|&b| self.storage_of[b] != b)
            .count()
    }

    /// The bytes those buffers would have needed (f32 elements).
    pub fn saved_bytes(&self, graph: &VerifiedGraph) -> u64 {
        (0..self.storage_of.len())
            .filter(|&b| self.storage_of[b] != b)
            .map(|b| {
                let decl = graph.buffer(b);
                (decl.rows * decl.cols * std::mem::size_of::<f32>()) as u64
            })
            .sum()
    }
}

/// Why a node may not write its output over its input. The rule checks in this order and
/// reports the first reason that applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InPlaceError {
    /// The graph has no node with this index.
    NoSuchNode { node: usize, nodes: usize },
    /// Only a ReLU runs in place here.
    NotRelu { node: usize, kind: NodeKind },
    /// The input is a parameter: uploaded once, read again by every later run.
    InputIsParameter {
        node: usize,
        input: BufferId,
        name: String,
    },
    /// The input is filled by the caller (`Contents::Input`): its memory is the caller's.
    InputIsCallerInput {
        node: usize,
        input: BufferId,
        name: String,
    },
    /// A later node (`reader`, the first one) reads the input again, a DeviceToHost included.
    ReadLater {
        node: usize,
        input: BufferId,
        name: String,
        reader: usize,
    },
}

impl fmt::Display for InPlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const KEEP: &str = "keep this ReLU out of place";
        match self {
            InPlaceError::NoSuchNode { node, nodes } => write!(
                f,
                "node {node} does not exist: the graph has {nodes} nodes; pass an index into \
                 graph.nodes()"
            ),
            InPlaceError::NotRelu { node, kind } => write!(
                f,
                "node {node} is {kind:?}, not a ReLU: only a ReLU runs in place here"
            ),
            InPlaceError::InputIsParameter { node, input, name } => write!(
                f,
                "node {node} reads the parameter \"{name}\" (buffer {input}): overwriting it \
                 would change the weights of every later run; {KEEP}"
            ),
            InPlaceError::InputIsCallerInput { node, input, name } => write!(
                f,
                "node {node} reads \"{name}\" (buffer {input}), which the caller fills: that \
                 memory is the caller's; {KEEP}"
            ),
            InPlaceError::ReadLater {
                node,
                input,
                name,
                reader,
            } => write!(
                f,
                "node {node} reads \"{name}\" (buffer {input}), and node {reader} reads it again \
                 later: in place, node {reader} would get the ReLU's output; {KEEP}"
            ),
        }
    }
}

impl std::error::Error for InPlaceError {}
