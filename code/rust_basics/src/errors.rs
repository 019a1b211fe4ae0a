//! `Option`, `Result` and `?`: absence and failure as ordinary values.
//!
//! A shape such as `"3x224x224"` typed by a user can be malformed in several ways; each becomes a
//! variant of [`ShapeError`], whose message says what was wrong and what to do.

use std::fmt;
use std::path::{Path, PathBuf};

// ANCHOR: option
/// The middle element of a slice, if there is one. `?` on an `Option` returns `None` early.
pub fn middle(values: &[f32]) -> Option<f32> {
    let last = values.len().checked_sub(1)?; // None for an empty slice
    values.get(last / 2).copied()
}
// ANCHOR_END: option

// ANCHOR: error_type
/// What can be wrong with a shape string such as `"3x224x224"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeError {
    /// Nothing was given.
    Empty,
    /// A dimension is not a whole number.
    NotANumber { position: usize, text: String },
    /// A dimension is zero.
    Zero { position: usize },
    /// The element count does not fit in a `usize`.
    TooLarge,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "the shape is empty: write dimensions like 3x224x224"),
            Self::NotANumber { position, text } => write!(
                f,
                "dimension {position} is {text:?}, not a whole number: write dimensions like 3x224x224"
            ),
            Self::Zero { position } => write!(
                f,
                "dimension {position} is 0: every dimension must be at least 1"
            ),
            Self::TooLarge => write!(f, "the shape has more elements than fit in memory"),
        }
    }
}

impl std::error::Error for ShapeError {}
// ANCHOR_END: error_type

// ANCHOR: parse
/// Parses `"3x224x224"` into `[3, 224, 224]`.
pub fn parse_shape(text: &str) -> Result<Vec<usize>, ShapeError> {
    if text.trim().is_empty() {
        return Err(ShapeError::Empty);
    }
    // `collect` into a `Result` stops at the first error and returns it.
    text.split('x')
        .enumerate()
        .map(|(position, part)| parse_dimension(position, part))
        .collect()
}

fn parse_dimension(position: usize, part: &str) -> Result<usize, ShapeError> {
    let n: usize = part.trim().parse().map_err(|_| ShapeError::NotANumber {
        position,
        text: part.to_owned(),
    })?;
    if n == 0 {
        return Err(ShapeError::Zero { position });
    }
    Ok(n)
}

/// How many elements a tensor of this shape holds. `?` passes a parse error straight up;
/// `checked_mul` turns overflow into `None`, and `ok_or` turns that into an error.
pub fn element_count(text: &str) -> Result<usize, ShapeError> {
    let shape = parse_shape(text)?;
    shape
        .iter()
        .try_fold(1usize, |count, &dim| count.checked_mul(dim))
        .ok_or(ShapeError::TooLarge)
}
// ANCHOR_END: parse

// ANCHOR: from
/// Reading a shape from a file can fail in two unrelated ways; one enum holds both.
#[derive(Debug)]
pub enum LoadError {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    Shape(ShapeError),
}

/// This `From` is what lets `?` turn a `ShapeError` into a `LoadError` by itself.
impl From<ShapeError> for LoadError {
    fn from(e: ShapeError) -> Self {
        Self::Shape(e)
    }
}

pub fn load_shape(path: &Path) -> Result<Vec<usize>, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    Ok(parse_shape(text.trim())?)
}
// ANCHOR_END: from

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(
                f,
                "cannot read {}: {source}. Check that the file exists and is readable",
                path.display()
            ),
            Self::Shape(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Shape(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn middle_of_empty_is_none() {
        assert_eq!(middle(&[]), None);
        assert_eq!(middle(&[1.0, 2.0, 3.0]), Some(2.0));
        assert_eq!(middle(&[1.0, 2.0]), Some(1.0));
    }

    #[test]
    fn shapes_parse() {
        assert_eq!(parse_shape("3x224x224"), Ok(vec![3, 224, 224]));
        assert_eq!(parse_shape(" 7 "), Ok(vec![7]));
        assert_eq!(element_count("2x3x4"), Ok(24));
    }

    #[test]
    fn each_mistake_has_its_own_error() {
        assert_eq!(parse_shape(""), Err(ShapeError::Empty));
        assert_eq!(
            parse_shape("3xtwo"),
            Err(ShapeError::NotANumber {
                position: 1,
                text: "two".into()
            })
        );
        assert_eq!(parse_shape("3x0"), Err(ShapeError::Zero { position: 1 }));
        assert!(matches!(
            parse_shape("3x-1"),
            Err(ShapeError::NotANumber { position: 1, .. })
        ));
        let huge = format!("{}x{}", usize::MAX, 2);
        assert_eq!(element_count(&huge), Err(ShapeError::TooLarge));
    }

    #[test]
    fn messages_say_what_to_do() {
        let msg = parse_shape("3xtwo").unwrap_err().to_string();
        assert!(
            msg.contains("\"two\"") && msg.contains("3x224x224"),
            "{msg}"
        );
    }

    #[test]
    fn load_shape_reports_missing_files_and_bad_shapes() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.txt");
        let err = load_shape(&missing).unwrap_err();
        assert!(matches!(err, LoadError::Io { .. }));
        assert!(err.to_string().contains("nope.txt"), "{err}");

        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, "4x0\n").unwrap();
        assert!(matches!(
            load_shape(&bad),
            Err(LoadError::Shape(ShapeError::Zero { position: 1 }))
        ));

        let good = dir.path().join("good.txt");
        std::fs::write(&good, "4x5\n").unwrap();
        assert_eq!(load_shape(&good).unwrap(), [4, 5]);
    }
}
