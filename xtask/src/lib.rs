//! The course's task runner as a library: `main.rs` parses the command line, these modules do the
//! work, and xtask's tests use the same helpers (`util`) instead of copies.
//!
//! The commands (`doctor`, `test`, `book`, `demos`, `browser_test`, `figures`) stay here; what
//! they check lives in two crates beside this one, re-exported under their old names:
//! `xtask_system` (the requirements list, installs, process helpers) and `xtask_checks` (links,
//! SUMMARY nesting, figure sidecars). Dependencies point one way: xtask → those two, never back.

pub mod book;
pub mod browser_test;
pub mod demos;
pub mod doctor;
pub mod figures;
pub mod local_tools;
pub mod puzzle_browser_test;
pub mod puzzle_editor;
pub mod test;
pub mod workspace;

pub use xtask_checks::{link_check, sidecars, summary};
pub use xtask_system::{disk, install, requirements, util};
