//! The grader's errors. A submission that does not build or fails its tests is not an error (it
//! is a graded outcome with zero points); these are the grader's own failures.

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// A file or folder of the grading could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The sandbox (bubblewrap, timeout) could not be started.
    #[error("{what}: {source}")]
    Sandbox {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// bubblewrap runs but may not create namespaces on this machine.
    #[error(
        "bubblewrap cannot create an unprivileged user namespace here ({0}). Allow them \
         (`sudo sysctl -w kernel.unprivileged_userns_clone=1`, or on Ubuntu 24.04 \
         `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`)"
    )]
    NoUserNamespaces(String),
    /// The grader was started as root.
    #[error(
        "the grader refuses to grade as root: inside its sandbox a submission would run as root's \
         uid outside it, where process limits do not apply. Run it as an ordinary user (create one \
         with `sudo useradd --create-home grader` and grade as that user)"
    )]
    AsRoot,
    /// A roster file (`gradebook`, shard) could not be written or merged.
    #[error("{what}: {source}")]
    Format {
        what: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The exercise catalog (`exercise.toml`, files of the course).
    #[error(transparent)]
    Catalog(#[from] student::StudentError),
    /// Set-up problems described in words: a missing exercise, a bad manifest, a failed step.
    #[error("{0}")]
    Setup(String),
}

impl From<String> for GradeError {
    fn from(message: String) -> Self {
        Self::Setup(message)
    }
}

impl From<&str> for GradeError {
    fn from(message: &str) -> Self {
        Self::Setup(message.to_string())
    }
}

pub fn io_err(path: &Path, source: std::io::Error) -> GradeError {
    GradeError::Io {
        path: path.to_path_buf(),
        source,
    }
}
