//! `figures --check` on a scratch git repository: a sidecar passes only when it names a clean
//! commit that contains its program, with its machine, adapter, CSV and SVG.

use std::path::Path;
use std::process::Command;

use xtask::sidecars::check_dir;
use xtask::util::root;

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn sidecar(commit: &str) -> String {
    format!(
        r#"{{"figure": "demo", "program": "code/demo/src/bin/demo_figures.rs", "machine": "2 vCPU VM",
            "adapter": null, "commit": "{commit}", "dirty": false}}"#
    )
}

#[test]
fn a_sidecar_passes_only_with_a_clean_commit_that_contains_its_program() {
    let repo = root().join("target/xtask-tests/figures-check");
    let _ = std::fs::remove_dir_all(&repo);
    let figures = repo.join("figures");
    std::fs::create_dir_all(&figures).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("README.md"), "demo\n").unwrap();
    git(&repo, &["add", "README.md"]);
    git(&repo, &["commit", "-qm", "before the program"]);
    let before = git(&repo, &["rev-parse", "--short=12", "HEAD"]);
    let program = repo.join("code/demo/src/bin/demo_figures.rs");
    std::fs::create_dir_all(program.parent().unwrap()).unwrap();
    std::fs::write(&program, "fn main() {}\n").unwrap();
    git(&repo, &["add", "code"]);
    git(&repo, &["commit", "-qm", "the program"]);
    let with_program = git(&repo, &["rev-parse", "--short=12", "HEAD"]);
    std::fs::write(figures.join("demo.csv"), "n,ns\n1,2\n").unwrap();
    std::fs::write(figures.join("demo.svg"), "<svg/>").unwrap();

    std::fs::write(figures.join("demo.json"), sidecar(&with_program)).unwrap();
    assert_eq!(check_dir(&repo, &figures).unwrap(), Vec::<String>::new());

    std::fs::write(figures.join("demo.json"), sidecar(&before)).unwrap();
    let problems = check_dir(&repo, &figures).unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("does not contain its program"),
        "{problems:?}"
    );

    std::fs::write(
        figures.join("demo.json"),
        sidecar(&format!("{with_program}-dirty")),
    )
    .unwrap();
    let problems = check_dir(&repo, &figures).unwrap();
    assert!(problems[0].contains("dirty tree"), "{problems:?}");

    std::fs::write(figures.join("demo.json"), sidecar("0123456789ab")).unwrap();
    std::fs::remove_file(figures.join("demo.svg")).unwrap();
    let problems = check_dir(&repo, &figures).unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("not in this repository"),
        "{problems:?}"
    );
    assert!(
        problems[1].contains("`demo.svg` is missing"),
        "{problems:?}"
    );
}

#[test]
fn a_diagram_needs_only_its_source_and_a_sidecar_without_machine_fails() {
    let dir = root().join("target/xtask-tests/figures-diagram");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("d.dot"), "digraph {}").unwrap();
    std::fs::write(
        dir.join("d.json"),
        r#"{"kind": "diagram", "source": "d.dot"}"#,
    )
    .unwrap();
    assert_eq!(check_dir(&dir, &dir).unwrap(), Vec::<String>::new());
    std::fs::write(dir.join("e.json"), r#"{"commit": "abc", "adapter": null}"#).unwrap();
    let problems = check_dir(&dir, &dir).unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("e.json: no `machine` field")),
        "{problems:?}"
    );
}

#[test]
fn a_json_file_that_a_sidecar_lists_is_data_not_a_sidecar() {
    let dir = root().join("target/xtask-tests/figures-data-json");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("d.dot"), "digraph {}").unwrap();
    std::fs::write(dir.join("run.trace.json"), r#"[{"ph": "X"}]"#).unwrap();
    std::fs::write(dir.join("graphs.json"), r#"{"graphs": []}"#).unwrap();
    let listing = r#"{"kind": "diagram", "source": "d.dot", "files": ["run.trace.json"]}"#;
    std::fs::write(dir.join("d.json"), listing).unwrap();
    let problems = check_dir(&dir, &dir).unwrap();
    // The unlisted graphs.json is checked as a sidecar and fails; the listed trace is not.
    assert!(
        problems.iter().all(|p| !p.starts_with("run.trace.json")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("graphs.json: no `machine`")),
        "{problems:?}"
    );
}
