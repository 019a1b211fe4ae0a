//! The roofline's two models: the roof itself, and the work and traffic of a graph.
//!
//! Roof: a kernel that does I FLOP per byte of memory traffic can go no faster than the memory
//! delivers bytes (I × bandwidth) nor faster than the arithmetic units (the peak), so its ceiling
//! is min(peak, I × bandwidth).
//!
//! Graph cost, per device operator, counting every tensor the operator reads and writes once
//! (4 bytes per f32, no cache reuse between operators):
//! - Linear on an m×k input and k×n weights: 2·m·k·n FLOP for the product plus m·n for the bias;
//!   bytes: input, weights, bias and output;
//! - ReLU and Softmax: one FLOP per output element (softmax's exp, sum and divide cost more, so
//!   this undercounts it; at depth 64 the matrix products dominate anyway); bytes: input and output;
//! - the fused operators: the sum of their parts' FLOPs, but only the first part's inputs and
//!   the last part's output cross memory, which is what fusion saves;
//! - transfers between host and device: no FLOPs, and no device-memory bytes (they cross the
//!   bus, which the roofline does not draw).

use computational_graphs::graph::{NodeKind, VerifiedGraph};

/// The roof at operational intensity `intensity` (FLOP/byte) for a machine with `peak` FLOP/s
/// and `bandwidth` bytes/s.
pub fn roof(intensity: f64, peak: f64, bandwidth: f64) -> f64 {
    (intensity * bandwidth).min(peak)
}

/// FLOPs and device-memory bytes of one run of a graph (see the module comment for the model).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub flops: f64,
    pub bytes: f64,
}

impl Cost {
    pub fn intensity(self) -> f64 {
        self.flops / self.bytes
    }
}

// ANCHOR: graph_cost
pub fn graph_cost(graph: &VerifiedGraph) -> Cost {
    let elements = |id| {
        let b = graph.buffer(id);
        (b.rows * b.cols) as f64
    };
    let mut cost = Cost {
        flops: 0.0,
        bytes: 0.0,
    };
    for node in graph.nodes() {
        let out = elements(node.output());
        let matmul = || {
            let input = graph.buffer(node.reads()[0]);
            2.0 * input.rows as f64 * input.cols as f64 * graph.buffer(node.output()).cols as f64
        };
        let flops = match node.kind {
            NodeKind::HostToDevice | NodeKind::DeviceToHost => continue,
            NodeKind::Relu | NodeKind::Softmax => out,
            NodeKind::Linear => matmul() + out,
            NodeKind::LinearRelu => matmul() + 2.0 * out,
            NodeKind::LinearReluSoftmax => matmul() + 3.0 * out,
            // Custom operators do not say what they compute; none is in the random graphs.
            NodeKind::Custom(_) => 0.0,
        };
        let read: f64 = node.reads().iter().map(|&id| elements(id)).sum();
        cost.flops += flops;
        cost.bytes += 4.0 * (read + out);
    }
    cost
}
// ANCHOR_END: graph_cost

#[cfg(test)]
mod tests {
    use super::*;

    use computational_graphs::graph::{GraphBuilder, fuse, validate};
    use computational_graphs::tensor::Tensor2D;

    #[test]
    fn the_roof_is_the_lower_of_bandwidth_times_intensity_and_the_peak() {
        let (peak, bw) = (100e9, 10e9); // ridge at 10 FLOP/byte
        assert_eq!(roof(1.0, peak, bw), 10e9);
        assert_eq!(roof(10.0, peak, bw), 100e9);
        assert_eq!(roof(1000.0, peak, bw), 100e9);
    }

    /// x (4×4) → Linear (4×4 weights, 1×4 bias) → ReLU, on the device.
    fn small_graph() -> VerifiedGraph {
        let mut g = GraphBuilder::new();
        let x = g.input("x", 4, 4);
        let h = g.to_device(x);
        let w = g.parameter("w", Tensor2D::zeros(4, 4));
        let b = g.parameter("b", Tensor2D::zeros(1, 4));
        let h = g.linear(h, w, b);
        let h = g.relu(h);
        g.to_host(h);
        validate(&g.finish()).unwrap()
    }

    #[test]
    fn a_linear_and_relu_cost_what_the_model_says_and_fusing_saves_one_round_trip() {
        let graph = small_graph();
        let cost = graph_cost(&graph);
        // Linear: 2·4³ + 16 FLOP; ReLU: 16 FLOP.
        assert_eq!(cost.flops, 128.0 + 16.0 + 16.0);
        // Linear reads 16 + 16 + 4 and writes 16; ReLU reads 16 and writes 16: 84 floats.
        assert_eq!(cost.bytes, 4.0 * 84.0);
        let fused = graph_cost(&fuse(&graph));
        assert_eq!(fused.flops, cost.flops, "fusion does the same arithmetic");
        // One LinearRelu: reads 16 + 16 + 4, writes 16: the intermediate never reaches memory.
        assert_eq!(fused.bytes, 4.0 * 52.0);
        assert!(fused.intensity() > cost.intensity());
    }
}
