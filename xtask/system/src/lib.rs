//! What `cargo xtask test` needs from the machine, apart from xtask's commands so that they stay
//! thin: `requirements` reads `xtask/requirements.toml` (the one list) and checks it, `install`
//! installs what is missing where it may, and `util` holds the process helpers every command
//! shares. Modules depend downwards only: `install` → `requirements` → `util`.

pub mod install;
pub mod requirements;
pub mod util;
