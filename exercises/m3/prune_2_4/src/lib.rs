//! Exercise: prune a weight matrix to the 2:4 pattern, store it compressed, and multiply with
//! it without touching the zeros.
//!
//! This file is given (the grader always uses the staff's copy). Your work: `sparse24.rs`.

mod sparse24;

pub use sparse24::prune_2_4;

/// A rows×cols weight matrix (row-major; one row per output) in which every group of four
/// consecutive weights of a row keeps two: their values and their positions (0–3) in the group.
#[derive(Clone, Debug, PartialEq)]
pub struct Sparse24 {
    pub rows: usize,
    pub cols: usize,
    /// rows × cols/2 kept values: row r, group g, slot j at `2 * (r * cols / 4 + g) + j`.
    pub values: Vec<f32>,
    /// The position in its group (0..4) of each kept value, same index; the two positions of a
    /// group are different and in ascending order.
    pub positions: Vec<u8>,
}

/// What is wrong with the shapes, and what to do.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum PruneError {
    #[error("{got} values for a {rows}×{cols} matrix, which needs {}: pass rows * cols values", rows * cols)]
    WrongLength {
        rows: usize,
        cols: usize,
        got: usize,
    },
    #[error("{cols} columns is not a multiple of 4: pad each row with zeros to a multiple of 4")]
    NotMultipleOfFour { cols: usize },
    #[error(
        "the input has {got} values but the matrix has {cols} columns: pass one value per column"
    )]
    InputLength { cols: usize, got: usize },
}

impl Sparse24 {
    /// The full matrix again, with zeros where weights were pruned.
    pub fn to_dense(&self) -> Vec<f32> {
        let groups = self.cols / 4;
        let mut out = vec![0.0; self.rows * self.cols];
        for (i, (&v, &p)) in self.values.iter().zip(&self.positions).enumerate() {
            let (r, g) = (i / 2 / groups.max(1), i / 2 % groups.max(1));
            out[r * self.cols + 4 * g + usize::from(p)] = v;
        }
        out
    }

    /// `W · x` using only the kept weights.
    pub fn matvec(&self, x: &[f32]) -> Result<Vec<f32>, PruneError> {
        sparse24::matvec(self, x)
    }
}
