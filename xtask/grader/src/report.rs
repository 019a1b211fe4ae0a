//! Grading results in the three formats teachers use: Gradescope's `results.json`, GitHub
//! Classroom's autograding result (`classroom.json`) and a Markdown table (`summary.md`).
//! Only pass/fail per test is reported: hidden tests' output never reaches students.

use std::path::Path;

use serde_json::json;
use student::catalog::{self, Exercise};

use crate::error::GradeError;

pub struct TestResult {
    pub name: String,
    pub max_points: u32,
    pub passed: bool,
    /// For students: "passed", "failed", "timed out", "did not run", …
    pub status: String,
}

pub struct Outcome {
    pub exercise: String,
    pub tests: Vec<TestResult>,
    /// Why nothing ran (compiler message for the student), if so.
    pub build_error: Option<String>,
    /// What was left out of the submission, and other remarks.
    pub notes: Vec<String>,
    pub seconds: f64,
}

impl Outcome {
    pub fn score(&self) -> u32 {
        self.tests
            .iter()
            .filter(|t| t.passed)
            .map(|t| t.max_points)
            .sum()
    }

    pub fn max_score(&self) -> u32 {
        self.tests.iter().map(|t| t.max_points).sum()
    }

    /// Every expected test failed, with the same status and reason (e.g. a build failure).
    pub fn all_failed(
        ex: &Exercise,
        status: &str,
        build_error: String,
        notes: Vec<String>,
    ) -> Self {
        let tests = ex
            .meta
            .points
            .iter()
            .map(|(name, &p)| TestResult {
                name: name.clone(),
                max_points: p,
                passed: false,
                status: status.into(),
            })
            .collect();
        Self {
            exercise: ex.id.clone(),
            tests,
            build_error: Some(build_error),
            notes,
            seconds: 0.0,
        }
    }
}

/// Writes `results.json`, `classroom.json` and `summary.md` into `out`.
pub fn write_all(out: &Path, outcome: &Outcome) -> Result<(), GradeError> {
    catalog::write(&out.join("results.json"), &gradescope(outcome))?;
    catalog::write(&out.join("classroom.json"), &classroom(outcome))?;
    catalog::write(&out.join("summary.md"), &markdown(outcome))?;
    Ok(())
}

fn preamble(outcome: &Outcome) -> String {
    let mut text = String::new();
    if let Some(error) = &outcome.build_error {
        text.push_str(error);
        text.push('\n');
    }
    if !outcome.notes.is_empty() {
        text.push_str(
            "Not taken from the submission (only src/**/*.rs and src/**/*.wgsl are graded):\n",
        );
        for note in &outcome.notes {
            text.push_str(&format!("- {note}\n"));
        }
    }
    text
}

fn gradescope(outcome: &Outcome) -> String {
    let tests: Vec<_> = outcome
        .tests
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "score": if t.passed { t.max_points } else { 0 },
                "max_score": t.max_points,
                "status": if t.passed { "passed" } else { "failed" },
                "output": t.status,
            })
        })
        .collect();
    let value = json!({
        "score": outcome.score(),
        "output": format!("{}: {}/{} points\n{}", outcome.exercise, outcome.score(), outcome.max_score(), preamble(outcome)),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "execution_time": outcome.seconds,
        "tests": tests,
    });
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

fn classroom(outcome: &Outcome) -> String {
    let status = if outcome.build_error.is_some() {
        "error"
    } else if outcome.score() == outcome.max_score() {
        "pass"
    } else {
        "fail"
    };
    let tests: Vec<_> = outcome
        .tests
        .iter()
        .map(|t| {
            json!({
                "name": format!("{} {}", outcome.exercise, t.name),
                "status": if t.passed { "pass" } else { "fail" },
                "score": if t.passed { t.max_points } else { 0 },
                "message": t.status,
                "line_no": 0,
                "execution_time": "",
            })
        })
        .collect();
    let value = json!({
        "version": 1,
        "status": status,
        "max_score": outcome.max_score(),
        "tests": tests,
    });
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

pub fn markdown(outcome: &Outcome) -> String {
    let mut md = format!(
        "### {}: {} / {} points\n\n| hidden test | points | result |\n| --- | --- | --- |\n",
        outcome.exercise,
        outcome.score(),
        outcome.max_score()
    );
    for t in &outcome.tests {
        let got = if t.passed { t.max_points } else { 0 };
        md.push_str(&format!(
            "| `{}` | {got} / {} | {} |\n",
            t.name, t.max_points, t.status
        ));
    }
    let pre = preamble(outcome);
    if !pre.is_empty() {
        md.push_str(&format!(
            "\n```text\n{}\n```\n",
            pre.trim_end().replace("```", "'''")
        ));
    }
    md
}
