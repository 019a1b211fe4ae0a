//! The redraw test every figure program has: its committed figures, copied into a fresh folder,
//! drawn again there by `--redraw`, and compared with the committed SVGs (the redraw writes an
//! SVG only when its bytes differ, so [`RedrawReport::written`] lists exactly the changed ones).

use std::ffi::OsString;
use std::fmt::Display;
use std::fs;
use std::path::{Path, PathBuf};

use crate::args::FigureArgs;
use crate::redraw::{Drawn, Found, RedrawError, RedrawReport, copy_figures};

/// The repository's `figures/` folder, where the committed figures are.
pub fn committed_figures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../figures")
}

/// Copies of a program's committed figures in a fresh temporary folder, removed when dropped.
#[derive(Debug)]
pub struct CommittedFigures {
    dir: PathBuf,
    names: Vec<String>,
}

impl CommittedFigures {
    /// Copies from [`committed_figures_dir`] the figures whose sidecar's `program` starts with
    /// one of `sources` (with the files their sidecars list) into a folder named after `label`.
    pub fn copy(label: &str, sources: &[&str]) -> Result<Self, RedrawError> {
        let dir = std::env::temp_dir().join(format!(
            "{label}_redraw_{}_{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&dir);
        let names = copy_figures(&committed_figures_dir(), &dir, sources)?;
        Ok(Self { dir, names })
    }

    /// The folder holding the copies.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The copied figures' names, sorted.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The flags of a trial redraw of the copies: `--redraw --allow-dirty --out <the copies>`.
    pub fn args(&self) -> FigureArgs {
        FigureArgs {
            out: Some(self.dir.clone()),
            allow_dirty: true,
            redraw: true,
            ..FigureArgs::default()
        }
    }

    /// The same flags as command-line words, for a program with flags of its own (parsed with
    /// its clap `Args`) or run as a process.
    pub fn flags(&self) -> [OsString; 4] {
        [
            "--redraw".into(),
            "--allow-dirty".into(),
            "--out".into(),
            self.dir.clone().into(),
        ]
    }
}

impl Drop for CommittedFigures {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// What redrawing a program's committed figures did.
#[derive(Debug)]
pub struct CommittedRedraw {
    /// The figures found, sorted.
    pub figures: Vec<String>,
    pub report: RedrawReport,
}

/// Copies `program`'s committed figures (see [`CommittedFigures::copy`]) and redraws them with
/// `draw`, given the trial redraw's flags and each figure.
pub fn check_committed<E: Display>(
    program: &str,
    sources: &[&str],
    mut draw: impl FnMut(&FigureArgs, &Found) -> Result<Drawn, E>,
) -> Result<CommittedRedraw, RedrawError> {
    let committed = CommittedFigures::copy(program, sources)?;
    let args = committed.args();
    let report = args.redraw(program, sources, |found| draw(&args, found))?;
    Ok(CommittedRedraw {
        figures: committed.names.clone(),
        report,
    })
}

impl RedrawReport {
    /// The file names of the SVGs that changed, in the order they were written.
    pub fn written_files(&self) -> Vec<String> {
        self.written
            .iter()
            .filter_map(|p| p.file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .collect()
    }

    /// The names of the figures with nothing to draw, in order.
    pub fn kept_names(&self) -> Vec<&str> {
        self.kept.iter().map(|(name, _)| name.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figure::FigureError;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        figures: FigureArgs,
    }

    /// A program none of whose figures' sidecars name it.
    const NO_SOURCE: &str = "code/bench_harness/no_such_program";

    #[test]
    fn a_program_without_committed_figures_copies_none_and_cannot_redraw() {
        let committed = CommittedFigures::copy("nothing", &[NO_SOURCE]).unwrap();
        assert!(committed.names().is_empty());
        let dir = committed.dir().to_owned();
        assert!(dir.is_dir());
        let args = committed.args();
        assert_eq!(args.out.as_deref(), Some(dir.as_path()));
        assert!(args.allow_dirty && args.redraw);
        let words = std::iter::once("x".into()).chain(committed.flags());
        let parsed = <Cli as clap::Parser>::try_parse_from(words)
            .unwrap()
            .figures;
        assert_eq!(parsed.out, args.out);
        assert!(parsed.allow_dirty && parsed.redraw);
        drop(committed);
        assert!(!dir.exists(), "the copies are removed when dropped");

        let err = check_committed("nothing", &[NO_SOURCE], |_, _| {
            Ok::<_, FigureError>(Drawn::Kept("never called".into()))
        })
        .unwrap_err();
        assert!(matches!(err, RedrawError::NothingFound { .. }), "{err}");
    }

    #[test]
    fn the_report_names_written_files_and_kept_figures() {
        let report = RedrawReport {
            written: vec![PathBuf::from("/tmp/x/a.svg")],
            unchanged: vec![],
            kept: vec![("b".into(), "a table".into())],
        };
        assert_eq!(report.written_files(), ["a.svg"]);
        assert_eq!(report.kept_names(), ["b"]);
    }

    #[test]
    fn the_committed_folder_is_the_repositorys_figures() {
        assert!(committed_figures_dir().join("README.md").is_file());
    }
}
