//! Grading as root is refused: inside the sandbox a submission would run as root's uid
//! outside it, where `RLIMIT_NPROC` does not hold and `/proc/self/mem` opens. Runs as root only
//! (`cargo xtask test --privileged`; CI does).

mod grader_support;
use grader_support::{grader, scratch, submission, text};

#[test]
fn privileged_grading_as_root_is_refused_with_what_to_do() {
    let (_, roster, out) = scratch("grader-root");
    let dir = submission(&roster, "someone", "m0/borrow_fix", true);
    let ran = grader(&[])
        .args(["grade", "--exercise", "m0/borrow_fix", "--submission"])
        .arg(&dir)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(!ran.status.success(), "graded as root:\n{}", text(&ran));
    let said = text(&ran);
    assert!(
        said.contains("refuses to grade as root") && said.contains("ordinary user"),
        "{said}"
    );
    assert!(!out.join("results.json").exists(), "no results are written");
}
