//! `--redraw`: a figure program draws its charts again from the tables it measured, after its
//! chart code changed, without measuring anything or opening an adapter.
//!
//! The folder's sidecars say which program wrote each figure (`program`, a source path), so a
//! program finds its own figures by the source paths it owns, reads each table through
//! [`Found::rows`], and returns the SVG text its chart code draws from them. An SVG that comes out
//! byte-identical is left alone; a changed one is written, and its sidecar gains a note naming the
//! commit that drew it (the sidecar keeps describing the measurement). A redraw from a tree with
//! uncommitted changes is refused unless `--allow-dirty` is given, as a measurement is.

use std::fs;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::args::FigureArgs;
use crate::figure::{FigureError, read_rows, read_sidecar};
use crate::output::{SidecarRecord, figures_dir};
use crate::provenance::git_state;

/// A figure of this program found in the folder: its name, its sidecar and where its files are.
#[derive(Debug)]
pub struct Found {
    pub name: String,
    pub sidecar: SidecarRecord,
    dir: PathBuf,
}

impl Found {
    /// The figure's own table, `<name>.csv`, as typed rows.
    pub fn rows<T: DeserializeOwned>(&self) -> Result<Vec<T>, FigureError> {
        read_rows(&self.dir.join(format!("{}.csv", self.name)))
    }

    /// Another file in the folder (a second table such as `<name>_cdf.csv`, a sibling figure's CSV).
    pub fn path(&self, file_name: &str) -> PathBuf {
        self.dir.join(file_name)
    }

    /// The machine as the measuring run labelled it (`--machine`), else its CPU.
    pub fn machine(&self) -> &str {
        self.sidecar
            .machine_label
            .as_deref()
            .unwrap_or(&self.sidecar.cpu)
    }

    /// The adapter's name from the sidecar, when the figure measured a GPU.
    pub fn adapter_name(&self) -> Option<&str> {
        self.adapter_field("name")
    }

    /// A text field of the sidecar's adapter (`name`, `device_type`, `backend`, `driver`).
    pub fn adapter_field(&self, key: &str) -> Option<&str> {
        self.sidecar.adapter.get(key).and_then(|v| v.as_str())
    }

    /// The adapter as a chart's subtitle names it: `name (device_type)`, `?` for a field the
    /// sidecar lacks.
    pub fn adapter_label(&self) -> String {
        let field = |key: &str| self.adapter_field(key).unwrap_or("?");
        format!("{} ({})", field("name"), field("device_type"))
    }

    /// Did the figure measure a software adapter (`device_type` `Cpu`: lavapipe, llvmpipe,
    /// WARP)? A program sizes its sweep down for one, so a redraw needs to know.
    pub fn software_adapter(&self) -> bool {
        self.adapter_field("device_type") == Some("Cpu")
    }

    /// Was the measuring command given `flag` (`--quick`)?
    pub fn measured_with(&self, flag: &str) -> bool {
        self.sidecar.command.split_whitespace().any(|a| a == flag)
    }

    /// The value the measuring command gave `flag` (`--pytorch-csv FILE` or
    /// `--pytorch-csv=FILE`); the last one when given twice, as clap reads it.
    pub fn flag_value(&self, flag: &str) -> Option<&str> {
        let mut words = self.sidecar.command.split_whitespace();
        let mut value = None;
        while let Some(word) = words.next() {
            if word == flag {
                value = words.next();
            } else if let Some(v) = word.strip_prefix(flag).and_then(|w| w.strip_prefix('=')) {
                value = Some(v);
            }
        }
        value
    }
}

/// What a program's chart code made of one of its figures.
#[derive(Debug)]
pub enum Drawn {
    /// SVG files to write beside the table: (file name, SVG text).
    Charts(Vec<(String, String)>),
    /// Nothing to draw, and why (a table-only figure, a picture rendered by the GPU, a chart
    /// drawn from data the CSV does not hold).
    Kept(String),
}

impl Drawn {
    /// The figure's one chart, `<name>.svg`.
    pub fn chart(found: &Found, svg: String) -> Self {
        Drawn::Charts(vec![(format!("{}.svg", found.name), svg)])
    }
}

/// Why a redraw stopped.
#[derive(Debug, thiserror::Error)]
pub enum RedrawError {
    #[error(
        "the working tree has uncommitted changes, so no commit contains the chart code; commit \
         first, or pass --allow-dirty for a trial redraw (its note then says dirty)"
    )]
    DirtyTree,
    #[error("cannot list {path}: {source}")]
    List {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{figure}: {why}; fix or re-measure that figure, --redraw draws only what it can read")]
    Draw { figure: String, why: String },
    #[error(
        "no figure in {dir} was written by {program} (sidecars whose `program` starts with {sources:?}); \
         pass --out with the folder that holds its measurements"
    )]
    NothingFound {
        dir: PathBuf,
        program: String,
        sources: Vec<String>,
    },
}

/// What one redraw did, figure by figure.
#[derive(Debug, Default)]
pub struct RedrawReport {
    /// SVGs whose text changed and were written.
    pub written: Vec<PathBuf>,
    /// SVGs that came out byte-identical to the file already there.
    pub unchanged: Vec<PathBuf>,
    /// Figures with nothing to draw, and why.
    pub kept: Vec<(String, String)>,
}

/// The note a redraw adds to the sidecar of a figure whose chart changed.
pub fn redraw_note(program: &str, commit: &str) -> String {
    format!("SVG redrawn from this CSV by {program} --redraw at commit {commit}")
}

/// The sidecars in `dir` whose `program` starts with one of `sources`, sorted by figure name.
/// Files that are not sidecars (traces, other JSON) are passed over.
pub fn figures_of(dir: &Path, sources: &[&str]) -> Result<Vec<Found>, RedrawError> {
    let entries = fs::read_dir(dir).map_err(|source| RedrawError::List {
        path: dir.to_owned(),
        source,
    })?;
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let Ok(sidecar) = read_sidecar(&path) else {
            continue;
        };
        if !sources.iter().any(|s| sidecar.program.starts_with(s)) {
            continue;
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        found.push(Found {
            name,
            sidecar,
            dir: dir.to_owned(),
        });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

/// Copies the figures of a program (sidecars whose `program` starts with one of `sources`) from
/// `from` into `to` (created): each one's `<name>.*` and `<name>_*` files (a second chart such as
/// `<name>_threads.svg`, which older sidecars do not list) and the files its sidecar lists. A
/// redraw test runs on the copy and compares the SVGs with the committed ones. Returns the
/// figures' names, sorted.
pub fn copy_figures(from: &Path, to: &Path, sources: &[&str]) -> Result<Vec<String>, RedrawError> {
    let write_err = |path: &Path| {
        let path = path.to_owned();
        move |source| RedrawError::Write { path, source }
    };
    fs::create_dir_all(to).map_err(write_err(to))?;
    let found = figures_of(from, sources)?;
    let entries = fs::read_dir(from).map_err(|source| RedrawError::List {
        path: from.to_owned(),
        source,
    })?;
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let ours = found.iter().any(|f| {
            f.sidecar.files.contains(&file)
                || file
                    .strip_prefix(&f.name)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('_'))
        });
        if ours {
            let target = to.join(&file);
            fs::copy(entry.path(), &target).map_err(write_err(&target))?;
        }
    }
    Ok(found.into_iter().map(|f| f.name).collect())
}

impl FigureArgs {
    /// The folder a redraw reads and writes: `--out`, else `$FIGURES_DIR`, else `figures/`.
    pub fn redraw_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(figures_dir)
    }

    /// Redraws every figure in [`FigureArgs::redraw_dir`] that `program` wrote (its sidecar's
    /// `program` starts with one of `sources`), with `draw` turning each into SVG text; prints
    /// what it did. `--only` is the program's to apply inside `draw` (by `found.name`).
    pub fn redraw<E: std::fmt::Display>(
        &self,
        program: &str,
        sources: &[&str],
        mut draw: impl FnMut(&Found) -> Result<Drawn, E>,
    ) -> Result<RedrawReport, RedrawError> {
        let commit = match git_state() {
            Some(g) if g.dirty && !self.allow_dirty => return Err(RedrawError::DirtyTree),
            Some(g) if g.dirty => format!("{}-dirty", g.commit),
            Some(g) => g.commit,
            None => "unknown".into(),
        };
        let dir = self.redraw_dir();
        let found = figures_of(&dir, sources)?;
        if found.is_empty() {
            return Err(RedrawError::NothingFound {
                dir,
                program: program.to_owned(),
                sources: sources.iter().map(|s| (*s).to_owned()).collect(),
            });
        }
        let note = redraw_note(program, &commit);
        let mut report = RedrawReport::default();
        for figure in found {
            let drawn = draw(&figure).map_err(|e| RedrawError::Draw {
                figure: figure.name.clone(),
                why: e.to_string(),
            })?;
            let charts = match drawn {
                Drawn::Kept(why) => {
                    report.kept.push((figure.name.clone(), why));
                    continue;
                }
                Drawn::Charts(charts) => charts,
            };
            let mut changed = false;
            for (file, svg) in charts {
                let path = dir.join(&file);
                if fs::read(&path).is_ok_and(|old| old == svg.as_bytes()) {
                    report.unchanged.push(path);
                    continue;
                }
                fs::write(&path, svg).map_err(|source| RedrawError::Write {
                    path: path.clone(),
                    source,
                })?;
                report.written.push(path);
                changed = true;
            }
            if changed && !figure.sidecar.notes.contains(&note) {
                let mut record = figure.sidecar.clone();
                record.notes.push(note.clone());
                let path = dir.join(format!("{}.json", figure.name));
                let mut json =
                    serde_json::to_string_pretty(&record).expect("a sidecar always serialises");
                json.push('\n');
                fs::write(&path, json).map_err(|source| RedrawError::Write { path, source })?;
            }
        }
        report.print();
        Ok(report)
    }
}

impl RedrawReport {
    fn print(&self) {
        for path in &self.written {
            println!("redrawn  {}", path.display());
        }
        for (name, why) in &self.kept {
            println!("kept     {name}: {why}");
        }
        println!(
            "{} SVG(s) changed, {} unchanged, {} figure(s) without a chart to redraw",
            self.written.len(),
            self.unchanged.len(),
            self.kept.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Sidecar;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Row {
        x: f64,
        y: f64,
    }

    fn folder() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "bench_harness_redraw_{}_{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write_figure(dir: &Path, name: &str, program: &str) {
        let mut sidecar = Sidecar::new(name, "a test figure");
        sidecar.program = program.into();
        crate::Figure::new(sidecar)
            .rows(&[Row { x: 1.0, y: 2.0 }, Row { x: 2.0, y: 3.0 }])
            .unwrap()
            .chart("<svg>old</svg>".into())
            .write_to(dir)
            .unwrap();
    }

    fn args(dir: &Path) -> FigureArgs {
        FigureArgs {
            out: Some(dir.to_owned()),
            allow_dirty: true,
            ..FigureArgs::default()
        }
    }

    fn draw(found: &Found) -> Result<Drawn, FigureError> {
        let rows: Vec<Row> = found.rows()?;
        let sum: f64 = rows.iter().map(|r| r.y).sum();
        Ok(Drawn::chart(found, format!("<svg>{sum}</svg>")))
    }

    #[test]
    fn redraws_only_this_programs_figures_and_notes_the_commit_once() {
        let dir = folder();
        write_figure(&dir, "mine", "code/a/src/bin/a_figures.rs");
        write_figure(&dir, "theirs", "code/b/src/bin/b_figures.rs");
        let report = args(&dir)
            .redraw("a_figures", &["code/a/src/bin/a_figures"], draw)
            .unwrap();
        assert_eq!(report.written, vec![dir.join("mine.svg")]);
        assert_eq!(
            fs::read_to_string(dir.join("mine.svg")).unwrap(),
            "<svg>5</svg>"
        );
        assert_eq!(
            fs::read_to_string(dir.join("theirs.svg")).unwrap(),
            "<svg>old</svg>"
        );
        let notes = read_sidecar(&dir.join("mine.json")).unwrap().notes;
        assert_eq!(notes.iter().filter(|n| n.contains("--redraw")).count(), 1);

        // A second redraw draws the same text: nothing is written, no second note.
        let again = args(&dir)
            .redraw("a_figures", &["code/a/src/bin/a_figures"], draw)
            .unwrap();
        assert!(again.written.is_empty());
        assert_eq!(again.unchanged, vec![dir.join("mine.svg")]);
        let notes = read_sidecar(&dir.join("mine.json")).unwrap().notes;
        assert_eq!(notes.iter().filter(|n| n.contains("--redraw")).count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_without_the_programs_figures_and_an_unreadable_table_are_errors() {
        let dir = folder();
        write_figure(&dir, "theirs", "code/b/src/bin/b_figures.rs");
        let err = args(&dir)
            .redraw("a_figures", &["code/a/"], draw)
            .unwrap_err();
        assert!(matches!(err, RedrawError::NothingFound { .. }), "{err}");

        fs::write(dir.join("theirs.csv"), "x,y\n1,not a number\n").unwrap();
        let err = args(&dir)
            .redraw("b_figures", &["code/b/"], draw)
            .unwrap_err();
        assert!(err.to_string().starts_with("theirs: "), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn copy_figures_copies_only_the_programs_files() {
        let dir = folder();
        write_figure(&dir, "mine", "code/a/src/bin/a_figures.rs");
        write_figure(&dir, "theirs", "code/b/src/bin/b_figures.rs");
        fs::write(dir.join("mine_threads.svg"), "<svg>second</svg>").unwrap();
        fs::write(dir.join("minerals.csv"), "x\n1\n").unwrap();
        let copy = dir.join("copy");
        let names = copy_figures(&dir, &copy, &["code/a/"]).unwrap();
        assert_eq!(names, vec!["mine".to_owned()]);
        let mut files: Vec<String> = fs::read_dir(&copy)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files,
            ["mine.csv", "mine.json", "mine.svg", "mine_threads.svg"]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn found_reads_the_measuring_command_and_the_adapter() {
        let dir = folder();
        let mut sidecar = Sidecar::new("gpu", "a test figure");
        sidecar.program = "code/a/".into();
        sidecar.set_adapter(&serde_json::json!({"name": "llvmpipe", "device_type": "Cpu"}));
        crate::Figure::new(sidecar)
            .rows(&[Row { x: 1.0, y: 2.0 }])
            .unwrap()
            .write_to(&dir)
            .unwrap();
        let json = dir.join("gpu.json");
        let mut record = read_sidecar(&json).unwrap();
        record.command =
            "gpu_figures --quick --pytorch-csv a.csv --out=x --pytorch-csv=b.csv".into();
        fs::write(&json, serde_json::to_string_pretty(&record).unwrap()).unwrap();

        let found = figures_of(&dir, &["code/a/"]).unwrap().remove(0);
        assert!(found.measured_with("--quick"));
        assert!(!found.measured_with("--quic"));
        assert_eq!(found.flag_value("--pytorch-csv"), Some("b.csv"));
        assert_eq!(found.flag_value("--out"), Some("x"));
        assert_eq!(found.flag_value("--machine"), None);
        assert_eq!(found.adapter_name(), Some("llvmpipe"));
        assert_eq!(found.adapter_field("device_type"), Some("Cpu"));
        assert_eq!(found.adapter_field("driver"), None);
        assert_eq!(found.adapter_label(), "llvmpipe (Cpu)");
        assert!(found.software_adapter());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn kept_figures_are_reported_not_drawn() {
        let dir = folder();
        write_figure(&dir, "picture", "code/a/src/bin/a_figures.rs");
        let report = args(&dir)
            .redraw("a_figures", &["code/a/"], |_| {
                Ok::<_, FigureError>(Drawn::Kept("a rendered image".into()))
            })
            .unwrap();
        assert_eq!(report.kept.len(), 1);
        assert_eq!(
            fs::read_to_string(dir.join("picture.svg")).unwrap(),
            "<svg>old</svg>"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
