use crate::{PruneError, Sparse24};

/// Keeps the two largest |w| of every group of four consecutive weights of each row (the lower
/// position first on ties) and stores them with their positions, ascending within the group.
pub fn prune_2_4(_w: &[f32], _rows: usize, _cols: usize) -> Result<Sparse24, PruneError> {
    todo!("check the shapes, then keep two of every four")
}

/// `W · x`: for each row, the kept values times the x at their positions.
pub(crate) fn matvec(_w: &Sparse24, _x: &[f32]) -> Result<Vec<f32>, PruneError> {
    todo!("two multiply-adds per group of four")
}
