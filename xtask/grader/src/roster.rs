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
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use student::catalog::{self, Exercise};

use crate::error::{GradeError, io_err};
use crate::grade::grade_one;
use crate::options::GradeOptions;
use crate::report::{self, Outcome};
use crate::similarity::{self, Fingerprints};
use crate::{paths, stable_hash, submission};

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
    /// Winnowed fingerprints of the student's own code, for `similarity.md`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprints: Option<Fingerprints>,
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
    /// Each exercise's reference solution, fingerprinted (the stub's code left out).
    #[serde(default)]
    pub references: BTreeMap<String, Fingerprints>,
}

/// Grades every student folder of a roster (or one shard of it) into one gradebook.
pub fn run(
    root: &Path,
    dir: &Path,
    only: Option<&str>,
    out: Option<PathBuf>,
    shard: Option<Shard>,
    options: GradeOptions,
) -> Result<(), GradeError> {
    crate::sandbox::preflight()?;
    let exercises: Vec<Exercise> = match only {
        Some(id) => vec![catalog::find(root, id)?],
        None => catalog::all(root)?,
    };
    let out = out.unwrap_or_else(|| paths::roster(root));
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
        references: exercises
            .iter()
            .map(|ex| Ok((ex.id.clone(), reference_fingerprints(ex)?)))
            .collect::<Result<_, GradeError>>()?,
    };
    for (name, folder) in mine {
        let mut row = BTreeMap::new();
        for ex in &exercises {
            let report_dir = out.join(name).join(ex.slug());
            let cell = grade_cell(root, ex, dir, folder, &report_dir, options);
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
fn grade_cell(
    root: &Path,
    ex: &Exercise,
    roster: &Path,
    student: &Path,
    out: &Path,
    options: GradeOptions,
) -> Cell {
    let sub = student.join("exercises").join(&ex.id);
    let cell = |score, status: String, digest| Cell {
        score,
        max: ex.max_points(),
        status,
        digest,
        fingerprints: None,
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
    let prints = own_fingerprints(ex, &sub);
    let cell = |score, status: String, digest| Cell {
        fingerprints: prints.clone(),
        ..cell(score, status, digest)
    };
    match grade_one(root, ex, &sub, options) {
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
        let name = path.file_name().map(shown_name).unwrap_or_default();
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
    Some(format!("{:016x}", stable_hash::of_files(&taken.files)))
}

/// A source file: its path under `src/` and its bytes.
type SourceFile = (PathBuf, Vec<u8>);

/// The files a student wrote (the given ones left out) and the stub's.
fn written_and_stub(ex: &Exercise, sub: &Path) -> Option<(Vec<SourceFile>, Fingerprints)> {
    let given = ex.given_in_src();
    let taken = submission::take(sub).ok()?;
    let stub = submission::take(&ex.dir).ok()?;
    let own = |files: Vec<(PathBuf, Vec<u8>)>| -> Vec<(PathBuf, Vec<u8>)> {
        files
            .into_iter()
            .filter(|(r, _)| !given.contains(r))
            .collect()
    };
    Some((own(taken.files), similarity::fingerprint(&own(stub.files))))
}

/// A submission's fingerprints without the stub's code.
fn own_fingerprints(ex: &Exercise, sub: &Path) -> Option<Fingerprints> {
    let (files, stub) = written_and_stub(ex, sub)?;
    Some(similarity::without(&similarity::fingerprint(&files), &stub))
}

/// The reference solution's fingerprints (laid over the stub) without the stub's code.
fn reference_fingerprints(ex: &Exercise) -> Result<Fingerprints, GradeError> {
    let (_, stub) = written_and_stub(ex, &ex.dir)
        .ok_or_else(|| GradeError::Setup(format!("{}: the stub cannot be read", ex.id)))?;
    let given = ex.given_in_src();
    let files: Vec<SourceFile> = submission::solved_stub(&ex.dir)
        .map_err(|e| GradeError::Setup(format!("{}: {e}", ex.id)))?
        .into_iter()
        .filter(|(r, _)| !given.contains(r))
        .collect();
    Ok(similarity::without(&similarity::fingerprint(&files), &stub))
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
        merged.references.extend(part.references);
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
    catalog::write(&out.join("gradebook.csv"), &gradebook(file)?)?;
    catalog::write(&out.join("identical.md"), &identical(file))?;
    let mut students: BTreeMap<String, BTreeMap<String, Fingerprints>> = BTreeMap::new();
    for (name, row) in &file.students {
        for (id, cell) in row {
            if let Some(fp) = &cell.fingerprints {
                students
                    .entry(name.clone())
                    .or_default()
                    .insert(id.clone(), fp.clone());
            }
        }
    }
    let references = file.references.clone().into_iter().collect();
    catalog::write(
        &out.join("similarity.md"),
        &similarity::report(&file.exercises, &students, &references),
    )?;
    Ok(())
}

/// One row per student (refused entries too), a column per exercise, the total and a status.
/// Written by the `csv` crate (quoting commas, quotes, CR and LF); every text cell defused.
fn gradebook(file: &RosterFile) -> Result<String, GradeError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| GradeError::Format {
        what: "writing gradebook.csv".into(),
        source: Box::new(e),
    };
    let mut header = vec!["student".to_string()];
    header.extend(
        file.exercises
            .iter()
            .map(|(id, max)| format!("{id} (/{max})")),
    );
    header.extend(["total".into(), "problems".into()]);
    w.write_record(header.iter().map(|h| defused(h)))
        .map_err(fail)?;
    for (name, row) in &file.students {
        let mut fields = vec![defused(name)];
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
        fields.push(defused(&problems.join("; ")));
        w.write_record(&fields).map_err(fail)?;
    }
    for (name, reason) in &file.refused {
        let mut fields = vec![defused(name)];
        fields.extend(std::iter::repeat_n(
            "0".to_string(),
            file.exercises.len() + 1,
        ));
        fields.push(defused(&format!("refused: {reason}")));
        w.write_record(&fields).map_err(fail)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| GradeError::Setup(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A text cell a spreadsheet will not run: `'` before every `=`, `+`, `-` or `@` that starts
/// the cell or follows a character some spreadsheet splits or starts a line on (`,` `;` tab,
/// `|`, CR, LF, space), so no piece of it starts a formula whatever the separator.
fn defused(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 1);
    let mut at_start = true;
    for ch in s.chars() {
        if at_start && matches!(ch, '=' | '+' | '-' | '@') {
            out.push('\'');
        }
        out.push(ch);
        at_start = matches!(ch, ',' | ';' | '\t' | '|' | '\r' | '\n' | ' ');
    }
    out
}

/// A student folder's name as the gradebook shows it: the name itself when it is printable
/// UTF-8; otherwise every byte that is not is written `\xNN` (and `\` as `\\`), so two
/// different names never show, or merge, as one.
pub fn shown_name(name: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = name.as_bytes();
    let mut out = String::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (good, bad) = match std::str::from_utf8(rest) {
            Ok(text) => (text, &[][..]),
            Err(e) => (
                std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
                &rest[e.valid_up_to()..],
            ),
        };
        for ch in good.chars() {
            match ch {
                '\\' => out.push_str("\\\\"),
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        out.push_str(&format!("\\x{b:02x}"));
                    }
                }
                c => out.push(c),
            }
        }
        if let Some((&b, after)) = bad.split_first() {
            out.push_str(&format!("\\x{b:02x}"));
            rest = after;
        } else {
            rest = &[];
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn names_that_cannot_be_shown_stay_apart() {
        // Two different invalid byte strings that a lossy decode turns into the same text.
        let a = shown_name(OsStr::from_bytes(b"ann\xff"));
        let b = shown_name(OsStr::from_bytes(b"ann\xfe"));
        assert_ne!(a, b);
        assert_eq!(a, "ann\\xff");
        // A name that looks like an escape is escaped too: no collision with a real byte.
        assert_ne!(shown_name(OsStr::new("ann\\xff")), a);
        assert_eq!(shown_name(OsStr::new("bo\rb")), "bo\\x0db");
        assert_eq!(shown_name(OsStr::new("Zoë")), "Zoë");
    }

    #[test]
    fn the_gradebook_keeps_one_row_per_student_and_runs_no_formula() {
        let mut file = RosterFile {
            exercises: vec![("m0/x".into(), 5)],
            ..RosterFile::default()
        };
        let cell = Cell {
            score: 5,
            max: 5,
            status: "graded".into(),
            digest: None,
            fingerprints: None,
        };
        for name in [
            "=cmd|' /C calc'!A0",
            "a;=HYPERLINK(1)",
            "carriage\rreturn\n=SUM(1)",
            "plain",
        ] {
            file.students.insert(
                name.into(),
                BTreeMap::from([("m0/x".to_string(), cell.clone())]),
            );
        }
        file.refused
            .push(("@evil,\"quoted\"".into(), "-1+1".into()));
        let text = gradebook(&file).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 5, "{text}");
        for row in &rows {
            assert_eq!(row.len(), 4, "{row:?}");
            for field in row {
                for piece in field.split([',', ';', '\t', '|', '\r', '\n', ' ']) {
                    assert!(
                        !piece.starts_with(['=', '+', '-', '@']),
                        "{piece:?} in {text}"
                    );
                }
            }
        }
        assert!(
            rows.iter().any(|r| &r[0] == "carriage\rreturn\n'=SUM(1)"),
            "{text}"
        );
    }
}

#[cfg(test)]
mod similarity_tests {
    use super::*;

    /// A copy of the reference solution with its names changed and its layout squashed is
    /// flagged against the reference; the untouched stub is not.
    #[test]
    fn a_renamed_reformatted_copy_of_the_reference_is_flagged() {
        let root = student::repo_root();
        let ex = catalog::find(&root, "m1/buffer_reuse").unwrap();
        let reference = reference_fingerprints(&ex).unwrap();
        let dir = std::env::temp_dir().join(format!("similarity-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        crate::workspace::copy_tree(&ex.dir.join("src"), &dir.join("src")).unwrap();
        let stub_only = own_fingerprints(&ex, &dir).unwrap();
        for (rel, bytes) in submission::take_folder(&ex.dir.join("grading/solution")).unwrap() {
            let text = String::from_utf8(bytes).unwrap();
            let disguised: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join(" ")
                .replace("plan", "layout")
                .replace("last", "final_")
                .replace("alloc", "slot");
            fs::write(dir.join("src").join(rel), disguised).unwrap();
        }
        let copy = own_fingerprints(&ex, &dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        let m = similarity::compare(&copy, &reference).expect("large enough to compare");
        assert!(
            m.share >= similarity::THRESHOLD,
            "shares only {:.2}",
            m.share
        );
        assert!(similarity::compare(&stub_only, &reference).is_none_or(|m| m.share < 0.2));
    }
}
