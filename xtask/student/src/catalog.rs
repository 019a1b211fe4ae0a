//! Finding exercises and reading their `exercise.toml`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use crate::error::StudentError;
use crate::error::io;

/// What `exercise.toml` says about an exercise.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub title: String,
    pub module: String,
    pub minutes: u32,
    pub gpu: bool,
    pub hints: Vec<String>,
    /// Points for each hidden test, by test name: the grader's list of expected tests.
    pub points: BTreeMap<String, u32>,
    /// Seconds one hidden test may run before it is killed (default: 10, or 60 with a GPU).
    #[serde(default)]
    pub timeout_s: Option<u32>,
    /// Files under `src/` that belong to the staff (e.g. `src/lib.rs`, which wires the
    /// student's functions into the public API): graded from the staff copy, never the student's.
    #[serde(default)]
    pub given: Vec<String>,
}

/// One exercise crate under `exercises/<module>/<name>/`.
#[derive(Debug)]
pub struct Exercise {
    /// `<module>/<name>`, e.g. `m1/buffer_reuse`.
    pub id: String,
    pub dir: PathBuf,
    pub meta: Meta,
}

impl Exercise {
    /// The Cargo package name: `ex_<module>_<name>`.
    pub fn package(&self) -> String {
        format!("ex_{}", self.id.replace('/', "_"))
    }

    /// The id with `/` replaced, usable as a file or folder name.
    pub fn slug(&self) -> String {
        self.id.replace('/', "_")
    }

    /// The staff's files under `src/`, as paths relative to `src/`.
    pub fn given_in_src(&self) -> Vec<PathBuf> {
        self.meta
            .given
            .iter()
            .map(|f| PathBuf::from(f.trim_start_matches("src/")))
            .collect()
    }

    pub fn max_points(&self) -> u32 {
        self.meta.points.values().sum()
    }

    pub fn timeout_s(&self) -> u32 {
        self.meta
            .timeout_s
            .unwrap_or(if self.meta.gpu { 60 } else { 10 })
    }
}

/// Every exercise of the repository, sorted by id. Fails on a malformed one.
pub fn all(root: &Path) -> Result<Vec<Exercise>, StudentError> {
    let base = root.join("exercises");
    let mut found = Vec::new();
    for module in sorted_dirs(&base)? {
        for dir in sorted_dirs(&module)? {
            if dir.join("exercise.toml").is_file() {
                found.push(load(&base, &dir)?);
            }
        }
    }
    if found.is_empty() {
        return Err(StudentError::Invalid(format!(
            "no exercises found under {}",
            base.display()
        )));
    }
    Ok(found)
}

/// The exercise with this id (`m1/buffer_reuse`), or an error listing the ids there are.
pub fn find(root: &Path, id: &str) -> Result<Exercise, StudentError> {
    let all = all(root)?;
    let ids: Vec<String> = all.iter().map(|e| e.id.clone()).collect();
    all.into_iter().find(|e| e.id == id).ok_or_else(|| {
        StudentError::Invalid(format!(
            "no exercise `{id}`; the exercises are: {}",
            ids.join(", ")
        ))
    })
}

fn load(base: &Path, dir: &Path) -> Result<Exercise, StudentError> {
    let rel = dir.strip_prefix(base).unwrap_or(dir);
    let id = rel.to_string_lossy().replace('\\', "/");
    let path = dir.join("exercise.toml");
    let text = fs::read_to_string(&path).map_err(|e| io(&path, e))?;
    let meta: Meta = toml::from_str(&text).map_err(|source| StudentError::Toml {
        path: path.clone(),
        source,
    })?;
    let module = id.split('/').next().unwrap_or_default();
    if meta.module != module {
        return Err(StudentError::Invalid(format!(
            "{}: module = \"{}\" but the exercise lives in the folder `{module}`",
            path.display(),
            meta.module
        )));
    }
    if meta.points.is_empty() || meta.hints.is_empty() {
        return Err(StudentError::Invalid(format!(
            "{}: an exercise needs [points] and hints",
            path.display()
        )));
    }
    for file in &meta.given {
        let inside_src =
            file.starts_with("src/") && !file.split('/').any(|p| p == ".." || p.is_empty());
        if !inside_src || !dir.join(file).is_file() {
            return Err(StudentError::Invalid(format!(
                "{}: given = \"{file}\" must name an existing file under src/",
                path.display()
            )));
        }
    }
    Ok(Exercise {
        id,
        dir: dir.to_path_buf(),
        meta,
    })
}

fn sorted_dirs(dir: &Path) -> Result<Vec<PathBuf>, StudentError> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut dirs: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Every file under `dir` (recursively, following links to folders), as paths relative to
/// `dir`, sorted.
pub fn files_under(dir: &Path) -> Result<Vec<PathBuf>, StudentError> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(true).min_depth(1) {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(dir).to_path_buf();
            io(&path, e.into())
        })?;
        if !entry.file_type().is_dir()
            && let Ok(rel) = entry.path().strip_prefix(dir)
        {
            out.push(rel.to_path_buf());
        }
    }
    out.sort();
    Ok(out)
}

/// Copies `from` to `to`, creating parent folders.
pub fn copy_file(from: &Path, to: &Path) -> Result<(), StudentError> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
    }
    fs::copy(from, to).map(|_| ()).map_err(|e| io(to, e))
}

/// Writes `text` to `path`, creating parent folders.
pub fn write(path: &Path, text: &str) -> Result<(), StudentError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
    }
    fs::write(path, text).map_err(|e| io(path, e))
}
