//! `cargo xtask grade --roster DIR`: every student folder in DIR, every exercise (or one), one
//! gradebook CSV with a row per student and a column per exercise.
//!
//! A student folder is a copy of the student edition: `<student>/exercises/<module>/<name>/src`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::catalog::{self, Exercise};
use super::grade::grade_one;
use super::report::{self, Outcome};

pub fn run(
    root: &Path,
    dir: &Path,
    only: Option<&str>,
    out: Option<PathBuf>,
) -> Result<(), String> {
    let exercises: Vec<Exercise> = match only {
        Some(id) => vec![catalog::find(root, id)?],
        None => catalog::all(root)?,
    };
    let mut students: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("the roster folder {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| fs::symlink_metadata(p).map(|m| m.is_dir()).unwrap_or(false))
        .collect();
    students.sort();
    if students.is_empty() {
        return Err(format!("{} holds no student folders", dir.display()));
    }
    let out = out.unwrap_or_else(|| root.join("target/grading/roster"));
    let start = Instant::now();
    let mut csv = String::from("student");
    for ex in &exercises {
        csv.push_str(&format!(",{} (/{})", ex.id, ex.max_points()));
    }
    csv.push_str(",total\n");
    for student in &students {
        let name = student
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut row = vec![csv_field(&name)];
        let mut total = 0;
        for ex in &exercises {
            let sub = student.join("exercises").join(&ex.id);
            let outcome = if sub.is_dir() {
                grade_one(root, ex, &sub)?
            } else {
                Outcome::all_failed(
                    ex,
                    "not submitted",
                    format!("no folder exercises/{}", ex.id),
                    Vec::new(),
                )
            };
            report::write_all(&out.join(&name).join(ex.slug()), &outcome)?;
            total += outcome.score();
            row.push(outcome.score().to_string());
            eprintln!(
                "{name} {}: {}/{}",
                ex.id,
                outcome.score(),
                outcome.max_score()
            );
        }
        row.push(total.to_string());
        csv.push_str(&row.join(","));
        csv.push('\n');
    }
    let path = out.join("gradebook.csv");
    catalog::write(&path, &csv)?;
    println!(
        "graded {} students × {} exercises in {:.1} s; gradebook: {}",
        students.len(),
        exercises.len(),
        start.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}

/// A CSV field, quoted when it needs to be; a leading `=`, `+`, `-` or `@` is defused so a
/// spreadsheet does not run it as a formula.
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
