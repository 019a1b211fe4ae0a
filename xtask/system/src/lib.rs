//! What `cargo xtask test` needs from the machine, apart from xtask's commands so that they stay
//! thin: `requirements` reads `xtask/requirements.toml` (the one list) and checks it, `install`
//! installs what is missing where it may, `disk` says when the build's disk is too full, and
//! `util` holds the process helpers every command shares. Modules depend downwards only:
//! `install` → `requirements` → `util`; `disk` stands alone.

pub mod disk;
pub mod install;
pub mod requirements;
pub mod util;
