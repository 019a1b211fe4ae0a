//! `cargo xtask release --out DIR`: the student edition.
//!
//! A workspace with every exercise's stub, public tests, README and `exercise.toml` (no
//! `grading/`), the course crates the exercises build on, its own lock file and nextest config, the student tool
//! (`xtask/student`: `progress` and `hint`, reached as `cargo xtask`), a README for students, and
//! `.github/workflows/classroom.yml` (public tests and `progress`; no secret).

use std::fs;
use std::path::Path;

use student::catalog::{self, Exercise};

use crate::error::GradeError;
use crate::workflow;
use crate::workspace::{self, CoursePaths};

const STUDENT_NEXTEST: &str = "# Each test runs in its own process; GPU tests take turns on the device.\n\
[test-groups]\ngpu = { max-threads = 1 }\n\n[profile.default]\n\
slow-timeout = { period = \"60s\", terminate-after = 4 }\n\n\
[[profile.default.overrides]]\nfilter = \"rdeps(gpu_context)\"\ntest-group = \"gpu\"\n";

pub fn run(root: &Path, out: &Path) -> Result<(), GradeError> {
    if out.exists()
        && fs::read_dir(out)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(format!(
            "{} exists and is not empty: pick a new folder",
            out.display()
        )
        .into());
    }
    let exercises = catalog::all(root)?;
    let crates = workspace::needed_course_crates(root, &exercises)?;
    for (_, rel) in &crates {
        workspace::copy_tree(&root.join(rel), &out.join(rel))?;
    }
    for ex in &exercises {
        copy_exercise(ex, &out.join("exercises").join(&ex.id))?;
    }
    let mut names: Vec<String> = crates.iter().map(|(n, _)| n.clone()).collect();
    if copy_puzzles(root, out)? {
        names.push("gpu_puzzles".into());
    }
    write_workspace_files(root, out, names, &exercises)?;
    workspace::prune_lock(root, out)?;
    nothing_of_the_staff(out, &exercises)?;
    println!(
        "student edition written to {} ({} exercises)",
        out.display(),
        exercises.len()
    );
    Ok(())
}

/// What a student gets of one exercise: the manifest, README, public tests and stub sources
/// (and given example programs), never `grading/`.
fn copy_exercise(ex: &Exercise, dest: &Path) -> Result<(), GradeError> {
    for file in [
        "Cargo.toml",
        "exercise.toml",
        "README.md",
        "tests/public.rs",
    ] {
        catalog::copy_file(&ex.dir.join(file), &dest.join(file))?;
    }
    workspace::copy_tree(&ex.dir.join("src"), &dest.join("src"))?;
    // Given programs (e.g. a timing example for a finished kernel) ship as they are.
    if ex.dir.join("examples").is_dir() {
        workspace::copy_tree(&ex.dir.join("examples"), &dest.join("examples"))?;
    }
    Ok(())
}

/// The edition's own files: the workspace manifest over the copied crates (`names`), the
/// toolchain pin, nextest and cargo configuration, the student tool, the README and the
/// Classroom workflow.
fn write_workspace_files(
    root: &Path,
    out: &Path,
    names: Vec<String>,
    exercises: &[Exercise],
) -> Result<(), GradeError> {
    let members = vec![
        "code/*".to_string(),
        "exercises/*/*".to_string(),
        "xtask/student".to_string(),
    ];
    catalog::write(
        &out.join("Cargo.toml"),
        &workspace::root_manifest(root, &members, CoursePaths::Copied(names))?,
    )?;
    for file in ["rust-toolchain.toml"] {
        if root.join(file).is_file() {
            catalog::copy_file(&root.join(file), &out.join(file))?;
        }
    }
    catalog::write(&out.join(".config/nextest.toml"), STUDENT_NEXTEST)?;
    catalog::write(
        &out.join(".cargo/config.toml"),
        "[alias]\nxtask = \"run --quiet --package student --\"\n",
    )?;
    catalog::write(&out.join(".gitignore"), "/target/\n")?;
    // The student tool (progress, hint) ships as it is: it holds no grader code.
    workspace::copy_tree(&root.join("xtask/student"), &out.join("xtask/student"))?;
    catalog::write(&out.join("README.md"), &student_readme(exercises))?;
    catalog::write(
        &out.join(".github/workflows/classroom.yml"),
        workflow::student(),
    )?;
    Ok(())
}

/// A last look at the edition: no grading folder and no GPU puzzle's solution came along.
fn nothing_of_the_staff(out: &Path, exercises: &[Exercise]) -> Result<(), GradeError> {
    if out.join("grading").exists()
        || exercises
            .iter()
            .any(|e| out.join("exercises").join(&e.id).join("grading").exists())
    {
        return Err("release bug: a grading folder was copied".into());
    }
    if out
        .join("code/gpu_puzzles/puzzles/map/solution.wgsl")
        .exists()
    {
        return Err("release bug: a GPU puzzle's solution was copied".into());
    }
    Ok(())
}

fn student_readme(exercises: &[Exercise]) -> String {
    let mut table =
        String::from("| exercise | title | minutes | GPU |\n| --- | --- | --- | --- |\n");
    for ex in exercises {
        table.push_str(&format!(
            "| [`{}`](exercises/{}/README.md) | {} | {} | {} |\n",
            ex.id,
            ex.id,
            ex.meta.title,
            ex.meta.minutes,
            if ex.meta.gpu { "yes" } else { "no" }
        ));
    }
    format!(
        "# Exercises: The Real-Timers Guide to the Computational Galaxy\n\n\
         Each folder under `exercises/` is one exercise: read its `README.md`, then replace the\n\
         `todo!()`s (and the shader stubs) under its `src/`. Only files under `src/` count; the\n\
         manifest, the tests and everything else are the course's.\n\n{table}\n\
         ## Working on an exercise\n\n\
         ```console\n\
         cargo nextest run -p ex_m1_buffer_reuse    # its public tests (they fail until you are done)\n\
         cargo xtask progress                       # every exercise, its public tests passing, minutes\n\
         cargo xtask hint m1/buffer_reuse           # the next hint, one at a time\n\
         ```\n\n\
         Install nextest once with `cargo install cargo-nextest --locked`. GPU exercises need a\n\
         GPU driver, or on Linux without one the software Vulkan device lavapipe\n\
         (`sudo apt install mesa-vulkan-drivers`).\n\n\
         ## Grading\n\n\
         Public tests passing is a good sign, not a grade. When you push, the `Progress` workflow\n\
         runs the public tests and writes the `progress` table to the Actions tab's job summary.\n\
         Your teacher grades your `src/` files with hidden tests that check the same task on more\n\
         cases; their names tell you what failed, their output is not shown.\n"
    )
}

/// The GPU puzzles (`code/gpu_puzzles`: stubs, harness, checks, the `puzzle` runner) without what
/// gives their answers away: reference and wrong solutions, the staff's tests that run them, and
/// the browser test's copy of them. The crate builds without those files.
fn copy_puzzles(root: &Path, out: &Path) -> Result<bool, GradeError> {
    let from = root.join("code/gpu_puzzles");
    if !from.is_dir() {
        return Ok(false);
    }
    for rel in catalog::files_under(&from)? {
        let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let staff_only = name == "solution.wgsl"
            || name.starts_with("wrong_")
            || name == "browser_checks.json"
            || rel == Path::new("tests/gpu_puzzles.rs")
            || rel.components().any(|c| c.as_os_str() == "target");
        if !staff_only {
            catalog::copy_file(&from.join(&rel), &out.join("code/gpu_puzzles").join(&rel))?;
        }
    }
    Ok(true)
}
