//! The generated GitHub workflows: the students' has no secret and runs only public tests and
//! `progress`; the teacher's passes actionlint and runs the same roster commands (sharded, then
//! merged) that `grader_roster` runs against a local roster.

use std::fs;
use std::process::Command;

mod grader_support;
use grader_support::{grader, root};

#[test]
fn grader_workflows_pass_actionlint_and_keep_secrets_out_of_students_reach() {
    let work = root().join("target/grader-workflows");
    let _ = fs::remove_dir_all(&work);
    let dir = work.join(".github/workflows");
    fs::create_dir_all(&dir).unwrap();
    let teacher = dir.join("grade-class.yml");
    let status = grader(&[])
        .args(["classroom-workflow", "--shards", "16", "--out"])
        .arg(&teacher)
        .status()
        .unwrap();
    assert!(status.success());
    let student = root().join("xtask/grader/templates/student-progress.yml");
    fs::copy(&student, dir.join("classroom.yml")).unwrap();

    let lint = Command::new("actionlint")
        .current_dir(&work)
        .output()
        .expect("actionlint is a requirement of the test run (xtask/requirements.toml)");
    assert!(
        lint.status.success(),
        "{}{}",
        String::from_utf8_lossy(&lint.stdout),
        String::from_utf8_lossy(&lint.stderr)
    );

    let students = fs::read_to_string(dir.join("classroom.yml")).unwrap();
    assert!(!students.contains("secrets."), "{students}");
    assert!(!students.contains("grader grade"), "{students}");
    assert!(students.contains("cargo xtask progress"));
    let teachers = fs::read_to_string(&teacher).unwrap();
    assert!(teachers.contains("shard: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]"));
    assert!(teachers.contains(
        "target/release/grader grade --roster roster --shard \"${SHARD}/16\" --out \"shard-${SHARD}\""
    ));
    assert!(teachers.contains("grader -- merge --out gradebook shard-*"));
    assert!(teachers.contains("secrets.CLASSROOM_TOKEN"));
}
