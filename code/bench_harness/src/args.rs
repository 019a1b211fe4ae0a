//! The command line every figure program shares, and the checks made before anything is measured.
//!
//! A figure in the book must name the code that made it and the state of the machine: so a
//! program refuses to write into `figures/` from a tree with uncommitted changes, or while the
//! machine is busy, unless it is told to (and then the sidecar says so).

use std::fmt::Display;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::{Args, FromArgMatches};

use crate::provenance::{git_state, load_average};

/// Flags shared by every `*_figures` program: [`FigureArgs::parse_with_about`] where they are the
/// whole command line, `#[command(flatten)]` in a program that adds its own.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct FigureArgs {
    /// Small sweeps and few samples: a smoke test that finishes quickly (also on lavapipe).
    #[arg(long)]
    pub quick: bool,
    /// Run only these parts (comma-separated); `--help` of the program lists them.
    #[arg(long, value_delimiter = ',', value_name = "PART,...")]
    pub only: Vec<String>,
    /// A short name for the machine (e.g. `h100`), written into every sidecar.
    #[arg(long)]
    pub machine: Option<String>,
    /// Folder to write figures into (default: `$FIGURES_DIR`, else the repository's `figures/`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write even from a tree with uncommitted changes; every sidecar is then marked dirty.
    #[arg(long)]
    pub allow_dirty: bool,
    /// Measure nothing: draw the charts again from the tables in the output folder (after the
    /// chart code changed); each changed chart's sidecar keeps the measuring commit and notes the
    /// drawing one.
    #[arg(long)]
    pub redraw: bool,
    /// Measure even when the 1-minute load average is above `--max-load`; the sidecar records it.
    #[arg(long)]
    pub allow_busy: bool,
    /// The highest 1-minute load average at which the machine counts as idle
    /// (default: a quarter of the logical CPUs, at least 0.75).
    #[arg(long, value_name = "LOAD")]
    pub max_load: Option<f64>,
}

/// Why a figure program will not measure.
#[derive(Debug, thiserror::Error)]
pub enum FigureArgsError {
    #[error("unknown part `{part}` in --only; the parts are: {}", known.join(", "))]
    UnknownPart { part: String, known: Vec<String> },
    #[error(
        "the working tree has uncommitted changes, so no commit contains the code being measured; \
         commit first, or pass --allow-dirty for a trial run (its sidecars say dirty)"
    )]
    DirtyTree,
    #[error(
        "the machine is busy (1-minute load average {load:.2} > {max:.2}): a figure measured now \
         shows other programs' work; wait until it is idle, or pass --allow-busy (the sidecar \
         records the load)"
    )]
    Busy { load: f64, max: f64 },
}

/// What was checked at start-up, kept for every sidecar the program writes.
#[derive(Clone, Debug)]
pub(crate) struct RunState {
    pub out: Option<PathBuf>,
    pub machine_label: Option<String>,
    pub dirty: bool,
}

static RUN_STATE: OnceLock<RunState> = OnceLock::new();

pub(crate) fn run_state() -> Option<&'static RunState> {
    RUN_STATE.get()
}

impl FigureArgs {
    /// The command line of a program that takes only the shared flags: `about` is what its
    /// `--help` says it measures. Bad flags print clap's message and exit, as a derived parser's
    /// `parse()` does.
    pub fn parse_with_about(about: &'static str) -> Self {
        let matches = Self::command(about).get_matches();
        Self::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }

    fn command(about: &'static str) -> clap::Command {
        // After the flags: deriving them sets `about` to this struct's own doc comment.
        Self::augment_args(clap::Command::new("figures")).about(about)
    }

    /// Checks the flags and the machine before anything is measured: every `--only` part is one
    /// of `parts`, the tree is clean (or `--allow-dirty`), the machine is idle (or
    /// `--allow-busy`). Then `figures_dir()` and every [`crate::Sidecar`] follow these flags.
    pub fn start(&self, parts: &[&str]) -> Result<(), FigureArgsError> {
        self.check_parts(parts)?;
        let dirty = git_state().is_some_and(|s| s.dirty);
        if dirty && !self.allow_dirty {
            return Err(FigureArgsError::DirtyTree);
        }
        if let Some([load, _, _]) = load_average() {
            let max = self.max_load.unwrap_or_else(default_max_load);
            if load > max && !self.allow_busy {
                return Err(FigureArgsError::Busy { load, max });
            }
        }
        let state = RunState {
            out: self.out.clone(),
            machine_label: self.machine.clone(),
            dirty,
        };
        // A second call keeps the first state: one program, one set of flags.
        let _ = RUN_STATE.set(state);
        Ok(())
    }

    /// A figure's file name: `{program}_{name}`, with the machine label between when one is
    /// given (`path_tracer_h100_throughput`), so runs on two machines sit side by side.
    pub fn figure_name(&self, program: &str, name: &str) -> String {
        match &self.machine {
            Some(m) => format!("{program}_{m}_{name}"),
            None => format!("{program}_{name}"),
        }
    }

    /// Is `part` selected (every part is when `--only` is absent)?
    pub fn wants(&self, part: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|p| p == part)
    }

    /// Is every `--only` part one of `parts`? ([`FigureArgs::start`] checks it; a `--redraw`,
    /// which does not start, checks it here.)
    pub fn check_parts(&self, parts: &[&str]) -> Result<(), FigureArgsError> {
        match self.only.iter().find(|p| !parts.contains(&p.as_str())) {
            Some(part) => Err(FigureArgsError::UnknownPart {
                part: part.clone(),
                known: parts.iter().map(|p| (*p).to_owned()).collect(),
            }),
            None => Ok(()),
        }
    }
}

/// The end of every figure program's `main`: success, or the error (with its causes) on stderr
/// and a failing exit code.
pub fn exit_code<E: Display>(result: Result<(), E>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn default_max_load() -> f64 {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cpus as f64 / 4.0).max(0.75)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        figures: FigureArgs,
    }

    #[test]
    fn only_takes_a_comma_separated_list() {
        let cli = Cli::try_parse_from(["x", "--quick", "--only", "a,b"]).unwrap();
        assert!(cli.figures.quick);
        assert!(cli.figures.wants("a") && cli.figures.wants("b") && !cli.figures.wants("c"));
    }

    #[test]
    fn an_unknown_part_is_named_with_the_known_ones() {
        let cli = Cli::try_parse_from(["x", "--only", "latency,nope"]).unwrap();
        let err = cli
            .figures
            .check_parts(&["latency", "bandwidth"])
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("`nope`") && text.contains("latency, bandwidth"),
            "{text}"
        );
    }

    #[test]
    fn unknown_flags_are_refused() {
        assert!(Cli::try_parse_from(["x", "--quik"]).is_err());
    }

    #[test]
    fn the_flags_alone_parse_and_help_says_what_the_program_measures() {
        let parse = |argv: &[&str]| {
            let matches = FigureArgs::command("Times x").try_get_matches_from(argv)?;
            FigureArgs::from_arg_matches(&matches)
        };
        let args = parse(&["x", "--quick", "--only", "a"]).unwrap();
        assert!(args.quick && args.wants("a") && !args.wants("b"));
        assert!(parse(&["x", "--quik"]).is_err());
        let help = parse(&["x", "--help"]).unwrap_err();
        assert!(help.to_string().contains("Times x"), "{help}");
    }
}
