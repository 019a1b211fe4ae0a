//! `cargo xtask progress` and `cargo xtask hint ID` in the student edition (and in the course).

use clap::Parser;

/// Two commands and no shared options, so the command itself is the whole command line.
#[derive(Parser)]
#[command(
    name = "student",
    about = "Your exercises: public tests passing, and hints"
)]
enum Command {
    /// Every exercise, how many of its public tests pass, minutes and hints seen.
    Progress,
    /// The next hint for an exercise, one at a time (e.g. `hint m1/buffer_reuse`).
    Hint {
        /// The exercise id, `<module>/<name>`.
        id: String,
    },
}

fn main() -> anyhow::Result<()> {
    let root = student::repo_root();
    match Command::parse() {
        Command::Progress => student::tools::progress(&root)?,
        Command::Hint { id } => student::tools::hint(&root, &id)?,
    }
    Ok(())
}
