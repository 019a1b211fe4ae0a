use computational_graphs::graph::{CustomKernel, CustomOperator};
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};

use super::{checked_output, grid, one_input, u32_of};
use crate::QuantError;
use crate::int8::{Int8Weights, gemm_i8_i32, quantize_rows};

const PER_THREAD: &str = include_str!("../wgsl/quant_linear.wgsl");
const SHARED: &str = include_str!("../wgsl/quant_linear_shared.wgsl");
const DOT4_BUILTIN: &str = include_str!("../wgsl/dot4_builtin.wgsl");
const DOT4_SHIFTS: &str = include_str!("../wgsl/dot4_shifts.wgsl");

/// How the kernel multiplies four packed bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotKind {
    /// WGSL's `dot4I8Packed`.
    Builtin,
    /// Shifts and multiplies written out.
    Shifts,
}

/// How the GPU kernel quantizes the input rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowQuant {
    /// Every output thread finds its row's scale and rounds the whole row itself (n times per
    /// row): the short kernel, kept to measure what sharing saves.
    PerThread,
    /// The threads of a 16×16 workgroup find each row's scale together and round each word of
    /// the row once into workgroup memory (n/16 times per row).
    Shared,
}

// ANCHOR: quant_linear_struct
/// A Linear layer with int8 weights (one scale per output column) and int8 activations (one
/// scale per input row, chosen at run time); products are summed exactly in i32.
#[derive(Clone, Debug)]
pub struct QuantLinear {
    pub weights: Int8Weights,
    pub bias: Vec<f32>,
    pub dot: DotKind,
    pub row_quant: RowQuant,
}
// ANCHOR_END: quant_linear_struct

impl QuantLinear {
    /// Quantizes f32 weights (k×n) and keeps the bias (1×n) in f32; the GPU kernel shares each
    /// row's quantization among its workgroup ([`RowQuant::Shared`]).
    pub fn new(w: &Tensor2D, bias: &Tensor2D, dot: DotKind) -> Result<Self, QuantError> {
        if bias.shape() != (1, w.cols()) {
            return Err(QuantError::Shape {
                what: "QuantLinear",
                detail: format!("the bias is {:?} but must be 1×{}", bias.shape(), w.cols()),
            });
        }
        let weights = Int8Weights::quantize(w)?;
        Ok(Self {
            weights,
            bias: bias.data().to_vec(),
            dot,
            row_quant: RowQuant::Shared,
        })
    }

    /// The same layer with another GPU kernel (the CPU path does not change).
    pub fn with_row_quant(self, row_quant: RowQuant) -> Self {
        Self { row_quant, ..self }
    }

    // ANCHOR: quant_linear_forward
    /// The CPU path: quantize rows, integer GEMM, then one multiply per output to get back to f32.
    pub fn forward(&self, x: &Tensor2D) -> Tensor2D {
        let (m, k, n) = (x.rows(), self.weights.k, self.weights.n);
        let (qx, row_scales) = quantize_rows(x);
        let acc = gemm_i8_i32(&qx, &self.weights.q_t, m, k, n);
        let mut y = Tensor2D::zeros(m, n);
        for (i, (out, acc)) in y
            .data_mut()
            .chunks_mut(n.max(1))
            .zip(acc.chunks(n.max(1)))
            .enumerate()
        {
            for (j, o) in out.iter_mut().enumerate() {
                *o = acc[j] as f32 * row_scales[i] * self.weights.scales[j] + self.bias[j];
            }
        }
        y
    }
}
// ANCHOR_END: quant_linear_forward

impl CustomOperator for QuantLinear {
    fn name(&self) -> &'static str {
        match (self.dot, self.row_quant) {
            (DotKind::Builtin, RowQuant::Shared) => "QuantLinear",
            (DotKind::Shifts, RowQuant::Shared) => "QuantLinearShifts",
            (DotKind::Builtin, RowQuant::PerThread) => "QuantLinearPerThread",
            (DotKind::Shifts, RowQuant::PerThread) => "QuantLinearShiftsPerThread",
        }
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        one_input(inputs, (self.weights.k, self.weights.n)).map(|m| (m, self.weights.n))
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        let shapes: Vec<_> = inputs.iter().map(|t| t.shape()).collect();
        self.output_shape(&shapes)
            .map_err(|e| Error::shape(self.name(), e))?;
        Ok(self.forward(inputs[0]))
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let op = self.name();
        let want = checked_output(op, self.output_shape(inputs), output)?;
        let (m, k, n) = (want.0, self.weights.k, self.weights.n);
        let packed = self.weights.packed();
        let words = k.div_ceil(4);
        let scales_at = 6 + packed.len();
        let bias_at = scales_at + n;
        let mut params = vec![
            u32_of(op, m)?,
            u32_of(op, k)?,
            u32_of(op, n)?,
            u32_of(op, words)?,
        ];
        params.extend([u32_of(op, scales_at)?, u32_of(op, bias_at)?]);
        params.extend(packed);
        params.extend(self.weights.scales.iter().map(|s| s.to_bits()));
        params.extend(self.bias.iter().map(|b| b.to_bits()));
        let dot = match self.dot {
            DotKind::Builtin => DOT4_BUILTIN,
            DotKind::Shifts => DOT4_SHIFTS,
        };
        let body = match self.row_quant {
            RowQuant::PerThread => PER_THREAD,
            RowQuant::Shared => SHARED,
        };
        Ok(CustomKernel {
            source: format!("{dot}\n{body}"),
            entry_point: "main",
            params,
            workgroups: grid(m, n),
        })
    }
}
