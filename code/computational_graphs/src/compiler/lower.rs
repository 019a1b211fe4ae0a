//! Lowering: every compute node becomes a list of op codes over its output's rows × columns,
//! and element-wise op codes are merged into the kernel that produces their input.

use super::fuse::count_readers;
use crate::graph::{BufferId, NodeKind, VerifiedGraph};

// ANCHOR: opcode
/// The op codes: small steps that each say what happens to one value `v` at (row, col).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpCode {
    /// v = buffer[row, col]
    Load {
        buffer: BufferId,
    },
    /// v = Σₚ input[row, p] · weights[p, col]
    MatMul {
        input: BufferId,
        weights: BufferId,
        k: usize,
    },
    /// v = v + bias[col]  (element-wise)
    AddBias {
        bias: BufferId,
    },
    /// v = max(v, 0)  (element-wise)
    Relu,
    /// Row-wise softmax in four steps: the row's maximum, exp(v − max), the row's sum, v / sum.
    RowMax,
    ExpMinusMax,
    RowSum,
    DivBySum,
    /// buffer[row, col] = v
    Store {
        buffer: BufferId,
    },
}

impl OpCode {
    pub fn is_elementwise(&self) -> bool {
        matches!(self, OpCode::AddBias { .. } | OpCode::Relu)
    }

    pub fn is_row_reduction(&self) -> bool {
        matches!(
            self,
            OpCode::RowMax | OpCode::ExpMinusMax | OpCode::RowSum | OpCode::DivBySum
        )
    }
}

/// One future kernel: op codes over a rows × cols domain, placed at the node `at`.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelIr {
    pub rows: usize,
    pub cols: usize,
    pub ops: Vec<OpCode>,
    pub at: usize,
}
// ANCHOR_END: opcode

// ANCHOR: lower_node
/// A node's op codes. The fused operators are just longer lists.
pub fn lower_node(kind: &NodeKind, b: &[BufferId], k: usize) -> Option<Vec<OpCode>> {
    use OpCode::*;
    let softmax = [RowMax, ExpMinusMax, RowSum, DivBySum];
    let linear = |b: &[BufferId]| {
        vec![
            MatMul {
                input: b[0],
                weights: b[1],
                k,
            },
            AddBias { bias: b[2] },
        ]
    };
    let mut ops = match kind {
        // Transfers are wired up by the program; custom operators bring their own kernel.
        NodeKind::HostToDevice | NodeKind::DeviceToHost | NodeKind::Custom(_) => return None,
        NodeKind::Linear => linear(b),
        NodeKind::LinearRelu => [linear(b), vec![Relu]].concat(),
        NodeKind::LinearReluSoftmax => [linear(b), vec![Relu], softmax.to_vec()].concat(),
        NodeKind::Relu => vec![Load { buffer: b[0] }, Relu],
        NodeKind::Softmax => [vec![Load { buffer: b[0] }], softmax.to_vec()].concat(),
    };
    ops.push(Store {
        buffer: *b.last().expect("a node writes a buffer"),
    });
    Some(ops)
}
// ANCHOR_END: lower_node

/// Lowers every compute node of the graph, in order.
pub fn lower(graph: &VerifiedGraph) -> Vec<KernelIr> {
    let mut kernels = Vec::new();
    for (at, node) in graph.nodes().iter().enumerate() {
        let k = graph.buffer(node.buffers[0]).cols;
        if let Some(ops) = lower_node(&node.kind, &node.buffers, k) {
            let out = graph.buffer(node.output());
            kernels.push(KernelIr {
                rows: out.rows,
                cols: out.cols,
                ops,
                at,
            });
        }
    }
    kernels
}

// ANCHOR: merge
/// Merges kernel B into kernel A when A ends with `Store(x)`, B starts with `Load(x)`, nobody
/// else reads x, and A has no row reduction: x then never leaves the registers.
pub fn merge_elementwise(graph: &VerifiedGraph, kernels: Vec<KernelIr>) -> Vec<KernelIr> {
    let readers = count_readers(graph);
    let mut merged: Vec<KernelIr> = Vec::with_capacity(kernels.len());
    for next in kernels {
        if let Some(prev) = merged.last_mut() {
            let joinable = match (prev.ops.last(), next.ops.first()) {
                (Some(OpCode::Store { buffer: x }), Some(OpCode::Load { buffer: y })) => {
                    x == y && readers[*x] == 1
                }
                _ => false,
            };
            let prev_reduces = prev.ops.iter().any(OpCode::is_row_reduction);
            if joinable && !prev_reduces && (prev.rows, prev.cols) == (next.rows, next.cols) {
                prev.ops.pop();
                prev.ops.extend(next.ops.into_iter().skip(1));
                prev.at = next.at;
                continue;
            }
        }
        merged.push(next);
    }
    merged
}
// ANCHOR_END: merge
