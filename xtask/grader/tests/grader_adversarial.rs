//! The grader against cheating submissions of one small CPU exercise (`m1/buffer_reuse`).
//!
//! Every submission below is graded as one roster (so this also times a roster). Each cheat must
//! score 0 for what it fakes; the honest solution scores full marks; partly correct work scores
//! exactly its correct parts. No root needed: the grader's sandbox is bubblewrap in an unprivileged
//! user namespace.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};

mod grader_support;
use grader_support::{grade_roster, root, scratch};

const EXERCISE: &str = "m1/buffer_reuse";
const FULL: u32 = 10;
/// The two liveness tests (1 point each): right in submissions whose planner hangs or crashes.
const LIVENESS_ONLY: u32 = 2;
/// Everything but the best-fit test (2 points): right in a first-fit planner.
const FIRST_FIT: u32 = 8;

fn exercise_dir() -> PathBuf {
    root().join("exercises").join(EXERCISE)
}

/// A submission folder holding the stub, optionally with the reference solution over it.
fn submission(roster: &Path, student: &str, solved: bool) -> PathBuf {
    grader_support::submission(roster, student, EXERCISE, solved)
}

fn edit(dir: &Path, file: &str, find: &str, replace: &str) {
    let path = dir.join(file);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(find), "{file} has no `{find}`");
    fs::write(&path, text.replacen(find, replace, 1)).unwrap();
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Adds `code` at the end of one of the submission's files.
fn append(dir: &Path, file: &str, code: &str) {
    let text = fs::read_to_string(dir.join(file)).unwrap();
    write(dir, file, &format!("{text}\n{code}"));
}

const LIVE_SIG: &str = "-> Result<Vec<Option<usize>>, PlanError> {";
const PLAN_SIG: &str = "-> Result<BufferPlan, PlanError> {";

/// Puts `code` at the start of both functions the student writes.
fn at_start_of_both(dir: &Path, code: &str) {
    edit(
        dir,
        "src/liveness.rs",
        LIVE_SIG,
        &format!("{LIVE_SIG}\n{code}\n"),
    );
    edit(
        dir,
        "src/plan.rs",
        PLAN_SIG,
        &format!("{PLAN_SIG}\n{code}\n"),
    );
}

fn first_fit(dir: &Path) {
    edit(
        dir,
        "src/plan.rs",
        ".min_by_key(|&(_, &a)| (plan.allocation_bytes[a], a))",
        ".min_by_key(|&(_, &a)| a)",
    );
}

/// Builds every submission; returns (student, expected score).
fn build_roster(roster: &Path, port: u16) -> Vec<(&'static str, u32)> {
    let mut expected = Vec::new();
    let mut add = |name: &'static str, score: u32| expected.push((name, score));

    submission(roster, "honest", true);
    add("honest", FULL);
    submission(roster, "stub", false);
    add("stub", 0);
    first_fit(&submission(roster, "partly_correct", true));
    add("partly_correct", FIRST_FIT);

    at_start_of_both(&submission(roster, "exit0", true), "std::process::exit(0);");
    add("exit0", 0);

    at_start_of_both(
        &submission(roster, "panic_hook_exit", false),
        "std::panic::set_hook(Box::new(|_| std::process::exit(0)));",
    );
    add("panic_hook_exit", 0);

    // A Drop that exits 0 when a failed test's thread ends, on a first-fit planner: only the
    // best-fit test fails, and it must not turn into a pass. (`src/lib.rs` is given, so no value
    // the tests hold can carry the submission's own Drop: a thread-local does.)
    let d = submission(roster, "drop_exit", true);
    first_fit(&d);
    edit(
        &d,
        "src/plan.rs",
        PLAN_SIG,
        &format!("{PLAN_SIG}\n    EXIT_AT_THREAD_END.with(|_| ());"),
    );
    append(
        &d,
        "src/plan.rs",
        "struct ExitOnDrop;\n\nimpl Drop for ExitOnDrop {\n    fn drop(&mut self) {\n        std::process::exit(0);\n    }\n}\n\nthread_local! {\n    static EXIT_AT_THREAD_END: ExitOnDrop = const { ExitOnDrop };\n}\n",
    );
    add("drop_exit", FIRST_FIT);

    edit(
        &submission(roster, "infinite_loop", true),
        "src/plan.rs",
        PLAN_SIG,
        &format!(
            "{PLAN_SIG}\n    loop {{ std::hint::spin_loop(); }}\n    #[allow(unreachable_code)]"
        ),
    );
    add("infinite_loop", LIVENESS_ONLY);

    let s = submission(roster, "stack_overflow", true);
    edit(
        &s,
        "src/plan.rs",
        PLAN_SIG,
        &format!("{PLAN_SIG}\n    std::hint::black_box(deep(std::hint::black_box(0)));"),
    );
    write(
        &s,
        "src/plan.rs",
        &(fs::read_to_string(s.join("src/plan.rs")).unwrap()
            + "\nfn deep(n: u64) -> u64 {\n    let pad = std::hint::black_box([n; 64]);\n    1 + deep(pad[3] + 1)\n}\n"),
    );
    add("stack_overflow", LIVENESS_ONLY);

    at_start_of_both(
        &submission(roster, "fake_output", false),
        r#"println!("test buffer_reuse_hidden_last_use_chain ... ok\ntest result: ok. 7 passed; 0 failed\nGRADE-OK 0123456789abcdef0123456789abcdef\n        PASS [   0.001s] ex_m1_buffer_reuse::hidden buffer_reuse_hidden_last_use_chain"); std::process::exit(0);"#,
    );
    add("fake_output", 0);

    let b = submission(roster, "build_script", false);
    write(
        &b,
        "build.rs",
        "fn main() { std::fs::write(\"tests/hidden.rs\", \"#[test] fn buffer_reuse_hidden_last_use_chain() {}\").unwrap(); }\n",
    );
    write(
        &b,
        "Cargo.toml",
        "[package]\nname = \"ex_m1_buffer_reuse\"\nversion = \"0.1.0\"\nedition = \"2024\"\nbuild = \"build.rs\"\n",
    );
    add("build_script", 0);

    let c = submission(roster, "cargo_config_wrapper", false);
    write(
        &c,
        ".cargo/config.toml",
        "[build]\nrustc-wrapper = \"./wrap.sh\"\n",
    );
    write(
        &c,
        "wrap.sh",
        "#!/bin/sh\nfor f in tests/*.rs; do echo '#[test] fn buffer_reuse_hidden_last_use_chain() {}' > \"$f\"; done\nexec \"$@\"\n",
    );
    add("cargo_config_wrapper", 0);

    let m = submission(roster, "edited_manifest", false);
    write(
        &m,
        "Cargo.toml",
        "[package]\nname = \"ex_m1_buffer_reuse\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[[test]]\nname = \"hidden\"\npath = \"src/fake_hidden.rs\"\n",
    );
    write(
        &m,
        "src/fake_hidden.rs",
        "#[test]\nfn buffer_reuse_hidden_last_use_chain() { println!(\"GRADE-OK 0123\"); }\n",
    );
    add("edited_manifest", 0);

    let n = submission(roster, "shadow_names", false);
    let shadow = "#[cfg(test)]\nmod hidden {\n    #[test]\n    fn buffer_reuse_hidden_last_use_chain() {}\n    #[test]\n    fn buffer_reuse_hidden_best_fit_and_peak() {}\n}\n";
    append(&n, "src/liveness.rs", shadow);
    write(
        &n,
        "tests/hidden.rs",
        "#[test]\nfn buffer_reuse_hidden_last_use_chain() {}\n",
    );
    add("shadow_names", 0);

    at_start_of_both(
        &submission(roster, "report_rewriter", false),
        r#"let _ = std::process::Command::new("setsid").args(["-f", "sh", "-c", "for i in $(seq 1 100); do find / -name junit.xml -exec sed -i 's/<failure/<x/g' {} + 2>/dev/null; sleep 0.1; done"]).spawn();"#,
    );
    add("report_rewriter", 0);

    let i = submission(roster, "include_hidden", true);
    append(
        &i,
        "src/liveness.rs",
        "pub const LEAK: &str = include_str!(\"../tests/hidden.rs\");\n",
    );
    add("include_hidden", 0);

    // `#[path]` to the staff's solution: the grader hides the exercise folders while building.
    let p = submission(roster, "path_to_solution", false);
    let sol = exercise_dir().join("grading/solution");
    for (file, function) in [("liveness.rs", "last_uses"), ("plan.rs", "plan_buffers")] {
        write(
            &p,
            &format!("src/{file}"),
            &format!(
                "#[path = \"{}/{file}\"]\nmod staff;\npub use staff::{function};\n",
                sol.display()
            ),
        );
    }
    add("path_to_solution", 0);

    // The solution pasted into `src/lib.rs` around the stubs: lib.rs is given, so the course's
    // copy is used (and the student is told), and the stubs are what runs.
    let g = submission(roster, "edited_given_file", false);
    let inline = |file: &str| {
        fs::read_to_string(exercise_dir().join("grading/solution").join(file)).unwrap()
    };
    edit(
        &g,
        "src/lib.rs",
        "mod liveness;\nmod plan;",
        &format!(
            "mod liveness {{\n{}\n}}\nmod plan {{\n{}\n}}",
            inline("liveness.rs"),
            inline("plan.rs")
        ),
    );
    add("edited_given_file", 0);

    // Correct only if it can read the hidden tests at run time.
    let hidden_in_repo = exercise_dir().join("grading/hidden.rs");
    let read_check = format!(
        "if std::fs::read_to_string(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/tests/hidden.rs\")).is_err() && std::fs::read_to_string({:?}).is_err() {{ panic!(\"could not read the hidden tests\"); }}",
        hidden_in_repo.display().to_string()
    );
    at_start_of_both(
        &submission(roster, "read_hidden_at_run_time", true),
        &read_check,
    );
    add("read_hidden_at_run_time", 0);

    // Correct only if it can reach a server on the grading machine.
    let net_check = format!(
        "if std::net::TcpStream::connect((\"127.0.0.1\", {port})).is_err() {{ panic!(\"no network\"); }}"
    );
    at_start_of_both(&submission(roster, "network", true), &net_check);
    add("network", 0);

    at_start_of_both(
        &submission(roster, "fork_bomb", false),
        r#"let _ = std::process::Command::new("sh").args(["-c", "b() { b | b & }; b"]).spawn();"#,
    );
    add("fork_bomb", 0);

    at_start_of_both(
        &submission(roster, "gigabytes_of_output", true),
        r#"let line = "y".repeat(1 << 16); for _ in 0..100_000 { println!("{line}"); }"#,
    );
    add("gigabytes_of_output", 0);

    // Looks for the tokens in its own binary and prints every candidate (every 32 hex digits in a
    // row): the grader makes the binary unreadable to the test user, which also closes /proc/self.
    at_start_of_both(
        &submission(roster, "token_hunt", false),
        r#"for path in [std::path::PathBuf::from("/proc/self/exe"), std::env::current_exe().unwrap_or_default()] {
            if let Ok(bytes) = std::fs::read(&path) {
                for run in bytes.split(|b| !b.is_ascii_hexdigit()) {
                    for window in run.windows(32) { println!("GRADE-OK {}", String::from_utf8_lossy(window)); }
                }
            }
        }
        std::process::exit(0);"#,
    );
    add("token_hunt", 0);

    // A symlink to the staff's solution is not a regular file: left out.
    let l = submission(roster, "symlink_to_solution", false);
    fs::remove_file(l.join("src/plan.rs")).unwrap();
    std::os::unix::fs::symlink(
        exercise_dir().join("grading/solution/plan.rs"),
        l.join("src/plan.rs"),
    )
    .unwrap();
    add("symlink_to_solution", 0);

    let u = submission(roster, "unsafe_code", true);
    let live = fs::read_to_string(u.join("src/liveness.rs")).unwrap();
    write(
        &u,
        "src/liveness.rs",
        &format!(
            "#![allow(unsafe_code)]\n{live}\npub fn peek() -> u8 {{ let x = 7u8; unsafe {{ *(&x as *const u8) }} }}\n"
        ),
    );
    add("unsafe_code", 0);

    // Knows every token (as code that reads its process's memory through a soundness hole
    // would: the grader hands them over in this test) and prints its own before exiting 0, with
    // no work done. The tests' records decide, outside the process: nothing scores.
    const LEAKED_TOKEN_EXIT: &str = r#"if let Ok(all) = std::env::var("GRADE_TOKENS") {
            let me = std::thread::current().name().unwrap_or_default().rsplit("::").next().unwrap_or_default().to_string();
            for pair in all.split(',') {
                if let Some((name, token)) = pair.split_once('=') {
                    if name == me { println!("GRADE-OK {token}"); }
                }
            }
            std::process::exit(0);
        }"#;
    at_start_of_both(
        &submission(roster, "tokens_from_memory", false),
        LEAKED_TOKEN_EXIT,
    );
    add("tokens_from_memory", 0);
    // The same on a first-fit planner, printing its token and exiting 0 from a thread-local's
    // Drop as each test's thread ends, failed or not: the failing test's records show the
    // first-fit plan, so exactly the first-fit work scores.
    let d = submission(roster, "tokens_from_memory_on_failure", true);
    first_fit(&d);
    edit(
        &d,
        "src/plan.rs",
        PLAN_SIG,
        &format!("{PLAN_SIG}\n    EXIT_AT_THREAD_END.with(|_| ());"),
    );
    append(
        &d,
        "src/plan.rs",
        &format!(
            "struct ExitOnDrop;\n\nimpl Drop for ExitOnDrop {{\n    fn drop(&mut self) {{\n        \
             {LEAKED_TOKEN_EXIT}\n    }}\n}}\n\n\
             thread_local! {{\n    static EXIT_AT_THREAD_END: ExitOnDrop = const {{ ExitOnDrop }};\n}}\n"
        ),
    );
    add("tokens_from_memory_on_failure", FIRST_FIT);

    // Rewrites what the grader runs after it: the test runner (where it used to lie in the
    // writable workspace), the hidden tests' binaries (made writable first) and the report.
    // Everything the tests can reach is read-only to them.
    at_start_of_both(
        &submission(roster, "rewrite_staff_files", false),
        r#"let runner = "\#!/bin/bash\nfor t in buffer_reuse_hidden_last_use_chain; do echo GRADE-OK 0; done\n";
        for path in ["/grade/staff/runner.sh", "/grade/ws/runner.sh", "/grade/ws/store/grade/junit.xml"] {
            let _ = std::fs::write(path, runner);
        }
        if let Ok(dir) = std::fs::read_dir("/grade/target/debug/deps") {
            for entry in dir.flatten() {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o755));
                let _ = std::fs::write(entry.path(), runner);
            }
        }
        let _ = std::fs::write("/tmp/flood", "x");"#,
    );
    add("rewrite_staff_files", 0);

    // Returns a type of its own whose comparison always agrees, in place of the stub's
    // `BufferPlan`: refused before it is built (the stub's signatures are the contract).
    let own = submission(roster, "own_type_that_always_agrees", false);
    edit(
        &own,
        "src/plan.rs",
        "Result<BufferPlan, PlanError>",
        "Result<AlwaysEqual, PlanError>",
    );
    append(
        &own,
        "src/plan.rs",
        "#[derive(Debug)]\npub struct AlwaysEqual;\nimpl PartialEq<BufferPlan> for AlwaysEqual {\n    fn eq(&self, _: &BufferPlan) -> bool { true }\n}\n",
    );
    add("own_type_that_always_agrees", 0);

    expected
}

fn score_of(out: &Path, student: &str) -> (u32, serde_json::Value) {
    let dir = out.join(student).join(EXERCISE.replace('/', "_"));
    for file in ["classroom.json", "summary.md"] {
        assert!(dir.join(file).is_file(), "{student}: no {file}");
    }
    let results: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    (results["score"].as_u64().unwrap() as u32, results)
}

#[test]
fn grader_adversarial_roster_scores_only_real_work() {
    let (_, roster, out) = scratch("grader-adversarial");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let expected = build_roster(&roster, port);

    // The static gate would refuse most of these before they run: switch it off here, so that
    // the sandbox alone is tested. (The test below checks the gate.)
    grade_roster(
        &roster,
        Some(EXERCISE),
        &out,
        &[
            ("GRADER_NO_GATE", "1"),
            ("GRADER_TEST_ONLY_LEAK_TOKENS", "1"),
        ],
    );
    drop(listener);

    let mut wrong = Vec::new();
    for (student, want) in &expected {
        let (got, results) = score_of(&out, student);
        if got != *want {
            wrong.push(format!(
                "{student}: scored {got}, expected {want}\n{results:#}"
            ));
        }
    }
    assert!(wrong.is_empty(), "wrong scores:\n{}", wrong.join("\n"));

    // The gradebook has a row per student and the right totals.
    let csv = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert!(
        csv.starts_with("student,m1/buffer_reuse (/10),total,problems\n"),
        "{csv}"
    );
    for (student, want) in &expected {
        assert!(
            csv.contains(&format!("\n{student},{want},{want},")),
            "{student} row in\n{csv}"
        );
    }
    // Ignored files are reported to the student; hidden tests' output is not.
    let (_, build) = score_of(&out, "build_script");
    let text = build["output"].as_str().unwrap();
    assert!(
        text.contains("build.rs (not under src/)") && text.contains("Cargo.toml"),
        "{text}"
    );
    let (_, link) = score_of(&out, "symlink_to_solution");
    let text = link["output"].as_str().unwrap();
    assert!(text.contains("src/plan.rs (not a regular file)"), "{text}");
    let (_, given) = score_of(&out, "edited_given_file");
    let text = given["output"].as_str().unwrap();
    assert!(text.contains("src/lib.rs (given by the course"), "{text}");
    let (_, leak) = score_of(&out, "include_hidden");
    assert!(
        leak["output"].as_str().unwrap().contains("include_str"),
        "{leak:#}"
    );
    let (_, own) = score_of(&out, "own_type_that_always_agrees");
    let text = own["output"].as_str().unwrap();
    assert!(text.contains("plan_buffers` changed"), "{text}");
    let (_, partly) = score_of(&out, "partly_correct");
    let failed: Vec<&str> = partly["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "failed")
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["buffer_reuse_hidden_best_fit_and_peak"]);
    assert!(
        !partly.to_string().contains("assertion"),
        "hidden test output leaked: {partly:#}"
    );
    // The leaked tokens did fool every test in its own process (each ran, exited 0 and printed
    // its token): only the records, compared by the grader, failed them.
    for (student, record_failures) in [
        ("tokens_from_memory", 8),
        ("tokens_from_memory_on_failure", 1),
    ] {
        let (_, results) = score_of(&out, student);
        let outputs: Vec<&str> = results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["status"] == "failed")
            .map(|t| t["output"].as_str().unwrap())
            .collect();
        assert_eq!(outputs.len(), record_failures, "{student}: {results:#}");
        assert!(
            outputs
                .iter()
                .all(|o| o.starts_with("wrong result for") || o.starts_with("recorded ")),
            "{student}: {outputs:?}"
        );
    }
}

/// What the sandbox cannot stop: code under test reading its own process memory, where the
/// token is. The static gate refuses files, processes, sockets, the environment, panic hooks and
/// `exit` in the library, whatever they are renamed to; an honest solution passes it.
#[test]
fn grader_static_gate_refuses_what_the_sandbox_cannot_stop() {
    let (_, roster, out) = scratch("grader-gate");
    submission(&roster, "honest", true);
    at_start_of_both(
        &submission(&roster, "memory_hunt", true),
        r#"use std::fs as f;
        let _maps = f::read_to_string("/proc/self/maps");
        let _mem = f::OpenOptions::new().read(true).open("/proc/self/mem");"#,
    );
    at_start_of_both(
        &submission(&roster, "renamed_exit", true),
        "use std::process as p;\n    if std::hint::black_box(true) { p::exit(0); }",
    );
    at_start_of_both(
        &submission(&roster, "gate_allowed_away", true),
        "#[allow(clippy::disallowed_methods)]\n    let _ = std::env::var(\"HOME\");",
    );
    // The file APIs the first gate's list missed: methods of `Path`, `soft_link`, `DirBuilder`.
    at_start_of_both(
        &submission(&roster, "path_methods", true),
        r#"let _ = std::path::Path::new("/grade").read_dir();
        let _ = std::path::Path::new("/grade/ws").metadata();
        let _ = std::path::Path::new("/proc/self/exe").canonicalize();"#,
    );
    at_start_of_both(
        &submission(&roster, "links_and_dirs", true),
        r#"#[allow(deprecated)]
        let _ = std::fs::soft_link("/grade/ws", "/tmp/ws");
        let _ = std::fs::DirBuilder::new().recursive(true).create("/tmp/x");"#,
    );
    grade_roster(&roster, Some(EXERCISE), &out, &[]);
    for (student, want) in [
        ("honest", FULL),
        ("memory_hunt", 0),
        ("renamed_exit", 0),
        ("gate_allowed_away", 0),
        ("path_methods", 0),
        ("links_and_dirs", 0),
    ] {
        let (got, results) = score_of(&out, student);
        assert_eq!(got, want, "{student}: {results:#}");
        if want == 0 {
            let text = results["output"].as_str().unwrap();
            assert!(
                text.contains("disallowed") || text.contains("may not use"),
                "{student}: {text}"
            );
        }
    }
}
