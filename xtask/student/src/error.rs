//! Errors of the exercise catalog and the student tool.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum StudentError {
    /// A file or folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// An `exercise.toml` is not valid TOML or misses a field.
    #[error("{path}: {source}")]
    Toml {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    /// nextest's report could not be read.
    #[error("{path}: {source}")]
    Report {
        path: PathBuf,
        #[source]
        source: crate::junit::ReportError,
    },
    /// A program (cargo, nextest) could not be started.
    #[error("running {what}: {source}")]
    Start {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// What the user asked for does not exist or an exercise is malformed, in words.
    #[error("{0}")]
    Invalid(String),
}

pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> StudentError {
    StudentError::Io {
        path: path.to_path_buf(),
        source,
    }
}
