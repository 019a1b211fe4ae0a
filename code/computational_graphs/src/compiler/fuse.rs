//! Operator fusion on verified nodes: Linear→ReLU becomes LinearReLU, and Linear→ReLU→Softmax
//! becomes LinearReLUSoftmax, when the intermediate results are read by nobody else.

use crate::graph::{BufferId, Node, NodeKind, VerifiedGraph};

// ANCHOR: fuse
/// Returns a graph with the same results and fewer nodes. The rules still hold: a fused node
/// reads what the first node read and writes what the last node wrote.
pub fn fuse(graph: &VerifiedGraph) -> VerifiedGraph {
    let readers = count_readers(graph);
    let nodes = graph.nodes();
    // `feeds(a, b)`: node b exists, reads a's output, and is the only node that does.
    let feeds = |a: &Node, b: Option<&Node>, kind: NodeKind| {
        b.is_some_and(|b| b.kind == kind && b.buffers[0] == a.output() && readers[a.output()] == 1)
    };
    let mut fused = Vec::with_capacity(nodes.len());
    let mut i = 0;
    while i < nodes.len() {
        let node = &nodes[i];
        if node.kind == NodeKind::Linear && feeds(node, nodes.get(i + 1), NodeKind::Relu) {
            let relu = &nodes[i + 1];
            let mut buffers = node.buffers.clone();
            if feeds(relu, nodes.get(i + 2), NodeKind::Softmax) {
                *buffers.last_mut().expect("linear has an output") = nodes[i + 2].output();
                fused.push(Node {
                    kind: NodeKind::LinearReluSoftmax,
                    buffers,
                });
                i += 3;
            } else {
                *buffers.last_mut().expect("linear has an output") = relu.output();
                fused.push(Node {
                    kind: NodeKind::LinearRelu,
                    buffers,
                });
                i += 2;
            }
        } else {
            fused.push(node.clone());
            i += 1;
        }
    }
    VerifiedGraph {
        buffers: graph.buffers.clone(),
        nodes: fused,
    }
}
// ANCHOR_END: fuse

/// How many nodes read each buffer.
pub fn count_readers(graph: &VerifiedGraph) -> Vec<usize> {
    let mut readers = vec![0; graph.buffers().len()];
    for node in graph.nodes() {
        for &r in node.reads() {
            readers[r] += 1;
        }
    }
    readers
}

/// The buffers read by more than one node (fusion must not hide them).
pub fn shared_buffers(graph: &VerifiedGraph) -> Vec<BufferId> {
    let readers = count_readers(graph);
    (0..readers.len()).filter(|&b| readers[b] > 1).collect()
}
