//! The compressed 2:4 form: the kept values and their positions, and the dense matrix again.

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
}
