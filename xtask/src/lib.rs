//! The course's task runner as a library: `main.rs` parses the command line, these modules do the
//! work, and xtask's tests use the same helpers (`util`) instead of copies.
//!
//! Modules depend downwards only: commands (`doctor`, `test`, `book`, `figures`) use the checks
//! (`requirements`, `install`, `summary`, `link_check`, `sidecars`, `workspace`), which use `util`.

pub mod book;
pub mod browser_test;
pub mod demos;
pub mod doctor;
pub mod figures;
pub mod install;
pub mod link_check;
pub mod requirements;
pub mod sidecars;
pub mod summary;
pub mod test;
pub mod util;
pub mod workspace;
