//! `grader grade --roster DIR`: every student folder in DIR, every exercise (or one), one
//! gradebook CSV with a row per student and a column per exercise.
//!
//! A student folder is a copy of the student edition: `<student>/exercises/<module>/<name>/src`.
//! `--shard K/N` grades every N-th student (a job of a GitHub Actions matrix); `grader merge`
//! joins the shards' `roster.json` files into one gradebook. Nothing stops a roster: a folder that
//! is a link or leads outside the roster is refused with a reason, a grading that fails is an
//! error row, and the gradebook is written whatever happened.

use std::collections::BTreeMap;
use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::catalog::{self, Exercise};
use crate::error::{GradeError, io_err};
use crate::grade::grade_one;
use crate::report::{self, Outcome};
use crate::submission;

/// Which students a run grades: the `k`-th of every `n` (1-based), in name order.
#[derive(Clone, Copy, Debug)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}`: a shard is K/N, e.g. 2/8"))?;
        let (k, n): (usize, usize) = (
            k.parse().map_err(|_| format!("`{k}` is not a number"))?,
            n.parse().map_err(|_| format!("`{n}` is not a number"))?,
        );
        if n == 0 || k == 0 || k > n {
            return Err(format!("shard {k}/{n}: K must be between 1 and N"));
        }
        Ok(Self { k, n })
    }
}

/// One student × exercise of a roster, as the shards record it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cell {
    pub score: u32,
    pub max: u32,
    /// `graded`, `not submitted`, `refused: …`, `grader error: …`.
    pub status: String,
    /// A digest of the taken sources (not a security hash: it only points the teacher at
    /// identical submissions).
    pub digest: Option<String>,
}

/// What a roster run (or shard) writes as `roster.json`.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct RosterFile {
    /// Exercise ids and their maximum points, in column order.
    pub exercises: Vec<(String, u32)>,
    /// Student → exercise id → cell.
    pub students: BTreeMap<String, BTreeMap<String, Cell>>,
    /// Roster entries refused before grading, with the reason.
    pub refused: Vec<(String, String)>,
}

/// Grades every student folder of a roster (or one shard of it) into one gradebook.
pub fn run(
    root: &Path,
    dir: &Path,
    only: Option<&str>,
    out: Option<PathBuf>,
    shard: Option<Shard>,
) -> Result<(), GradeError> {
    crate::sandbox::preflight()?;
    let exercises: Vec<Exercise> = match only {
        Some(id) => vec![catalog::find(root, id)?],
        None => catalog::all(root)?,
    };
    let out = out.unwrap_or_else(|| root.join("target/grading/roster"));
    let (students, refused) = students(dir)?;
    let shard = shard.unwrap_or(Shard { k: 1, n: 1 });
    let mine: Vec<&Student> = students
        .iter()
        .enumerate()
        .filter(|(i, _)| i % shard.n == shard.k - 1)
        .map(|(_, s)| s)
        .collect();
    let start = Instant::now();
    let mut file = RosterFile {
        exercises: exercises
            .iter()
            .map(|e| (e.id.clone(), e.max_points()))
            .collect(),
        students: BTreeMap::new(),
        refused: if shard.k == 1 { refused } else { Vec::new() },
    };
    for (name, folder) in mine {
        let mut row = BTreeMap::new();
        for ex in &exercises {
            let cell = grade_cell(root, ex, dir, folder, &out.join(name).join(ex.slug()));
            eprintln!(
                "{name} {}: {}/{} ({})",
                ex.id, cell.score, cell.max, cell.status
            );
            row.insert(ex.id.clone(), cell);
        }
        file.students.insert(name.clone(), row);
    }
    write_outputs(&out, &file)?;
    println!(
        "graded {} students × {} exercises in {:.1} s; gradebook: {}",
        file.students.len(),
        exercises.len(),
        start.elapsed().as_secs_f64(),
        out.join("gradebook.csv").display()
    );
    Ok(())
}

/// Grades one student × exercise; every failure becomes a cell, never an early return.
fn grade_cell(root: &Path, ex: &Exercise, roster: &Path, student: &Path, out: &Path) -> Cell {
    let sub = student.join("exercises").join(&ex.id);
    let cell = |score, status: String, digest| Cell {
        score,
        max: ex.max_points(),
        status,
        digest,
    };
    if let Some(reason) = refusal(roster, &sub) {
        let outcome = Outcome::all_failed(ex, "refused", reason.clone(), Vec::new());
        let _ = report::write_all(out, &outcome);
        return cell(0, format!("refused: {reason}"), None);
    }
    if !sub.is_dir() {
        let outcome = Outcome::all_failed(
            ex,
            "not submitted",
            format!("no folder exercises/{}", ex.id),
            Vec::new(),
        );
        let _ = report::write_all(out, &outcome);
        return cell(0, "not submitted".into(), None);
    }
    let digest = digest(ex, &sub);
    match grade_one(root, ex, &sub) {
        Ok(outcome) => match report::write_all(out, &outcome) {
            Ok(()) => cell(outcome.score(), "graded".into(), digest),
            Err(e) => cell(
                outcome.score(),
                format!("graded; reports not written: {e}"),
                digest,
            ),
        },
        Err(e) => {
            eprintln!("grader error on {} {}: {e}", student.display(), ex.id);
            let outcome = Outcome::all_failed(
                ex,
                "grader error",
                "The grader failed on this submission (not your code's fault); your teacher \
                 has the log."
                    .into(),
                Vec::new(),
            );
            let _ = report::write_all(out, &outcome);
            cell(0, format!("grader error: {e}"), digest)
        }
    }
}

/// A student's name and folder.
type Student = (String, PathBuf);
/// A roster entry refused before grading, and why.
type Refused = (String, String);

/// The roster's student folders (name order), and the entries refused with a reason.
fn students(dir: &Path) -> Result<(Vec<Student>, Vec<Refused>), GradeError> {
    let mut ok = Vec::new();
    let mut refused = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| io_err(dir, e))? {
        let path = entry.map_err(|e| io_err(dir, e))?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('.') {
            continue;
        }
        match refusal(dir, &path) {
            Some(reason) => refused.push((name, reason)),
            None if path.is_dir() => ok.push((name, path)),
            None => refused.push((name, "not a folder".into())),
        }
    }
    ok.sort();
    refused.sort();
    for (name, reason) in &refused {
        eprintln!("roster: refused `{name}`: {reason}");
    }
    Ok((ok, refused))
}

/// Why `path` is refused: a component below `roster` is a link, or it leads outside the roster.
/// `None` when every component is a real folder or file (or missing: "not submitted").
fn refusal(roster: &Path, path: &Path) -> Option<String> {
    let Ok(rel) = path.strip_prefix(roster) else {
        return Some(format!("{} is outside the roster folder", path.display()));
    };
    let mut at = roster.to_path_buf();
    for part in rel.components() {
        match part {
            std::path::Component::Normal(p) => at.push(p),
            _ => return Some(format!("{} leads outside the roster folder", rel.display())),
        }
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                return Some(format!(
                    "{} is a symbolic link: each student's work must be their own folder",
                    at.strip_prefix(roster).unwrap_or(&at).display()
                ));
            }
            Ok(_) => {}
            Err(_) => return None, // missing: "not submitted", decided by the caller
        }
    }
    None
}

/// A digest of the sources the grader takes, unless they are the untouched stub.
fn digest(ex: &Exercise, sub: &Path) -> Option<String> {
    let taken = submission::take(sub).ok()?;
    let stub = submission::take(&ex.dir).ok()?;
    if taken.files.is_empty() || taken.files == stub.files {
        return None;
    }
    let mut h = DefaultHasher::new();
    taken.files.hash(&mut h);
    Some(format!("{:016x}", h.finish()))
}

/// `grader merge`: the shards' `roster.json` files joined into one gradebook in `out`.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<(), GradeError> {
    let mut merged = RosterFile::default();
    for dir in shards {
        let path = dir.join("roster.json");
        let text = fs::read_to_string(&path).map_err(|e| io_err(&path, e))?;
        let part: RosterFile = serde_json::from_str(&text).map_err(|e| GradeError::Format {
            what: format!("reading {}", path.display()),
            source: Box::new(e),
        })?;
        if merged.exercises.is_empty() {
            merged.exercises = part.exercises.clone();
        } else if merged.exercises != part.exercises {
            return Err(GradeError::Setup(format!(
                "{}: graded other exercises than the first shard",
                path.display()
            )));
        }
        merged.students.extend(part.students);
        merged.refused.extend(part.refused);
        // Each student's reports, next to the merged gradebook.
        for student in fs::read_dir(dir).map_err(|e| io_err(dir, e))?.flatten() {
            if student.path().is_dir() {
                let to = out.join(student.file_name());
                crate::workspace::copy_tree(&student.path(), &to)?;
            }
        }
    }
    write_outputs(out, &merged)
}

/// `roster.json`, `gradebook.csv` and `identical.md` (submissions with the same sources).
fn write_outputs(out: &Path, file: &RosterFile) -> Result<(), GradeError> {
    let json = serde_json::to_string_pretty(file).map_err(|e| GradeError::Format {
        what: "writing roster.json".into(),
        source: Box::new(e),
    })?;
    catalog::write(&out.join("roster.json"), &json)?;
    catalog::write(&out.join("gradebook.csv"), &gradebook(file))?;
    catalog::write(&out.join("identical.md"), &identical(file))?;
    Ok(())
}

/// One row per student (refused entries too), a column per exercise, the total and a status.
fn gradebook(file: &RosterFile) -> String {
    let mut csv = String::from("student");
    for (id, max) in &file.exercises {
        csv.push_str(&format!(",{id} (/{max})"));
    }
    csv.push_str(",total,problems\n");
    for (name, row) in &file.students {
        let mut fields = vec![csv_field(name)];
        let mut total = 0;
        let mut problems = Vec::new();
        for (id, _) in &file.exercises {
            let cell = row.get(id);
            let score = cell.map_or(0, |c| c.score);
            total += score;
            fields.push(score.to_string());
            if let Some(c) = cell.filter(|c| c.status != "graded" && c.status != "not submitted") {
                problems.push(format!("{id}: {}", c.status));
            }
        }
        fields.push(total.to_string());
        fields.push(csv_field(&problems.join("; ")));
        csv.push_str(&fields.join(","));
        csv.push('\n');
    }
    for (name, reason) in &file.refused {
        let zeros = vec!["0"; file.exercises.len() + 1].join(",");
        csv.push_str(&format!(
            "{},{zeros},{}\n",
            csv_field(name),
            csv_field(&format!("refused: {reason}"))
        ));
    }
    csv
}

/// Groups of students whose taken sources for an exercise are identical.
fn identical(file: &RosterFile) -> String {
    let mut md = String::from(
        "# Identical submissions\n\nStudents whose graded sources are byte-for-byte the same \
         (untouched stubs left out). The grader scores them as they are; whether it is shared work \
         is for the teacher to judge.\n\n",
    );
    let mut any = false;
    for (id, _) in &file.exercises {
        let mut groups: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (name, row) in &file.students {
            if let Some(d) = row.get(id).and_then(|c| c.digest.as_deref()) {
                groups.entry(d).or_default().push(name);
            }
        }
        for names in groups.values().filter(|n| n.len() > 1) {
            any = true;
            md.push_str(&format!("- `{id}`: {}\n", names.join(", ")));
        }
    }
    if !any {
        md.push_str("None.\n");
    }
    md
}

/// A CSV field, quoted when it needs to be; a leading `=`, `+`, `-` or `@` is defused so a
/// spreadsheet does not run it as a formula. (Hand-written: five lines, no crate needed.)
fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}
