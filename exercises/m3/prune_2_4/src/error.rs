//! What can go wrong: shapes that do not fit, each with what to do.

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
