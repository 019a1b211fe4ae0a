use computational_graphs::graph::{CustomKernel, CustomOperator};
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};

use super::{checked_output, grid, one_input, u32_of};
use crate::sparse::Weights;

const SOURCE: &str = include_str!("../wgsl/sparse_linear.wgsl");

// ANCHOR: sparse_linear
/// `x · W + b` with W stored dense (transposed), as CSR or as 2:4: the same operator with three
/// weight layouts, so the timing figure compares layouts and nothing else.
pub struct SparseLinear {
    pub weights: Weights,
    pub bias: Vec<f32>,
}
// ANCHOR_END: sparse_linear

impl SparseLinear {
    fn k_n(&self) -> (usize, usize) {
        match &self.weights {
            Weights::DenseT(_, k, n) => (*k, *n),
            Weights::Csr(s) => (s.k, s.n),
            Weights::Sparse24(s) => (s.k, s.n),
        }
    }

    /// The layout's words after the 8-word header, and the header's layout fields.
    fn layout_words(&self, op: &'static str) -> Result<([u32; 4], Vec<u32>), Error> {
        const H: usize = 8;
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        Ok(match &self.weights {
            Weights::DenseT(t, _, _) => ([0, u32_of(op, H)?, 0, 0], bits(t)),
            Weights::Csr(s) => {
                let cols_at = H + s.starts.len();
                let vals_at = cols_at + s.cols.len();
                let mut w = s.starts.clone();
                w.extend(&s.cols);
                w.extend(bits(&s.values));
                (
                    [
                        1,
                        u32_of(op, H)?,
                        u32_of(op, cols_at)?,
                        u32_of(op, vals_at)?,
                    ],
                    w,
                )
            }
            Weights::Sparse24(s) => {
                let per_col = (s.k / 4).div_ceil(8);
                let vals_at = H + s.index_words.len();
                let mut w = s.index_words.clone();
                w.extend(bits(&s.values));
                (
                    [
                        2,
                        u32_of(op, H)?,
                        u32_of(op, per_col)?,
                        u32_of(op, vals_at)?,
                    ],
                    w,
                )
            }
        })
    }
}

impl CustomOperator for SparseLinear {
    fn name(&self) -> &'static str {
        match self.weights {
            Weights::DenseT(..) => "DenseLinearT",
            Weights::Csr(_) => "CsrLinear",
            Weights::Sparse24(_) => "Sparse24Linear",
        }
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        let (k, n) = self.k_n();
        one_input(inputs, (k, n)).map(|m| (m, n))
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        let shapes: Vec<_> = inputs.iter().map(|t| t.shape()).collect();
        self.output_shape(&shapes)
            .map_err(|e| Error::shape(self.name(), e))?;
        let mut y = self.weights.matmul(inputs[0]);
        let n = self.bias.len().max(1);
        for row in y.data_mut().chunks_mut(n) {
            row.iter_mut().zip(&self.bias).for_each(|(o, b)| *o += b);
        }
        Ok(y)
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let op = self.name();
        let want = checked_output(op, self.output_shape(inputs), output)?;
        let (m, k, n) = (want.0, self.k_n().0, self.k_n().1);
        let (layout, words) = self.layout_words(op)?;
        let bias_at = u32_of(op, 8 + words.len())?;
        let mut params = vec![u32_of(op, m)?, u32_of(op, k)?, u32_of(op, n)?];
        params.extend(layout);
        params.push(bias_at);
        params.extend(words);
        params.extend(self.bias.iter().map(|b| b.to_bits()));
        Ok(CustomKernel {
            source: SOURCE.into(),
            entry_point: "main",
            params,
            workgroups: grid(m, n),
        })
    }
}
