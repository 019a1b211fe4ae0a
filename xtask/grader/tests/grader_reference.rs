//! Every exercise's reference solution gets full marks and its stub zero, in all three output
//! formats (Gradescope, GitHub Classroom, Markdown). Needs root, like the grader.

use std::fs;
use std::path::Path;

mod grader_support;
use grader_support::root;

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn grader_reference_solutions_score_full_and_stubs_zero() {
    let work = root().join("target/grader-reference");
    let _ = fs::remove_dir_all(&work);
    let mut ids = Vec::new();
    for module in fs::read_dir(root().join("exercises")).unwrap() {
        let module = module.unwrap().path();
        if !module.is_dir() {
            continue; // exercises/README.md
        }
        for ex in fs::read_dir(module).unwrap() {
            let ex = ex.unwrap().path();
            let id = ex
                .strip_prefix(root().join("exercises"))
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let solved = work.join("roster/solution/exercises").join(&id).join("src");
            copy_dir(&ex.join("src"), &solved);
            copy_dir(&ex.join("grading/solution"), &solved);
            copy_dir(
                &ex.join("src"),
                &work.join("roster/stub/exercises").join(&id).join("src"),
            );
            ids.push(id);
        }
    }
    let out = work.join("out");
    let status = grader_support::grader(&[])
        .args(["grade", "--roster"])
        .arg(work.join("roster"))
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    for id in &ids {
        for (student, full) in [("solution", true), ("stub", false)] {
            let dir = out.join(student).join(id.replace('/', "_"));
            let gradescope = json(&dir.join("results.json"));
            let classroom = json(&dir.join("classroom.json"));
            let summary = fs::read_to_string(dir.join("summary.md")).unwrap();
            let max = classroom["max_score"].as_u64().unwrap();
            let want = if full { max } else { 0 };
            assert!(max > 0);
            assert_eq!(
                gradescope["score"].as_u64(),
                Some(want),
                "{student} {id}: {gradescope:#}"
            );
            let tests = classroom["tests"].as_array().unwrap();
            let sum: u64 = tests.iter().map(|t| t["score"].as_u64().unwrap()).sum();
            assert_eq!(sum, want, "{student} {id}: {classroom:#}");
            assert_eq!(
                classroom["status"],
                if full { "pass" } else { "fail" },
                "{student} {id}"
            );
            assert!(
                summary.contains(&format!("### {id}: {want} / {max} points")),
                "{summary}"
            );
        }
    }
    let csv = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
}
