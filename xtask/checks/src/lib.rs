//! Static checks of what the course publishes, with no process to run and no machine to ask:
//! `link_check` (every internal link, image and anchor of the built book), `summary` (every
//! chapter nested under its module in `book/SUMMARY.md`) and `sidecars` (every figure names the
//! clean commit and the program that made it). `cargo xtask book` and `cargo xtask figures
//! --check` call them; the three modules do not depend on one another.

pub mod link_check;
pub mod sidecars;
pub mod summary;
