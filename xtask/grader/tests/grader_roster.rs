//! Rosters: a class of 30 mixed submissions (honest, partial, stubs, attacks), graded in three
//! shards and merged, gives every student exactly what grading them alone gives; links and
//! escapes are refused with a reason; identical work is reported; and one student cannot reach
//! the next one's grading (files planted at run time in /tmp or the home folder are gone).

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

mod grader_support;
use grader_support::{append, grader, results, root, scratch, submission};

const EX: &str = "m0/borrow_fix";

/// Replaces the solution's `name` with a wrong one of the same signature (honest partial work).
fn break_function(dir: &Path, name: &str, signature: &str, body: &str) {
    let path = dir.join("src/library.rs");
    let text = fs::read_to_string(&path).unwrap();
    let text = text.replacen(&format!("pub fn {name}"), &format!("fn {name}_unused"), 1);
    fs::write(&path, format!("{text}\npub fn {signature} {{ {body} }}\n")).unwrap();
}

/// Puts `code` at the start of the solution's `snippet` (run by some hidden tests).
fn in_snippet(dir: &Path, code: &str) {
    let path = dir.join("src/library.rs");
    let text = fs::read_to_string(&path).unwrap();
    let at = text.find("pub fn snippet").unwrap();
    let brace = at + text[at..].find('{').unwrap() + 1;
    fs::write(
        &path,
        format!("{}\n{code}\n{}", &text[..brace], &text[brace..]),
    )
    .unwrap();
}

/// 30 students: 6 honest (identical), 4 stubs, 4 partial, 16 attacks.
fn class(roster: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut add = |name: &str| {
        names.push(name.to_string());
        name.to_string()
    };
    for i in 0..6 {
        submission(roster, &add(&format!("honest_{i}")), EX, true);
    }
    for i in 0..4 {
        submission(roster, &add(&format!("stub_{i}")), EX, false);
    }
    let snippet_sig = "snippet<'a>(doc: &'a Document, word: &str) -> Option<&'a str>";
    let remove_sig = "remove_containing(docs: &mut Vec<Document>, word: &str) -> Vec<Document>";
    break_function(
        &submission(roster, &add("partial_snippet"), EX, true),
        "snippet",
        snippet_sig,
        "let _ = (doc, word); None",
    );
    break_function(
        &submission(roster, &add("partial_remove"), EX, true),
        "remove_containing",
        remove_sig,
        "let _ = (docs, word); Vec::new()",
    );
    break_function(
        &submission(roster, &add("partial_snippet_todo"), EX, true),
        "snippet",
        snippet_sig,
        "let _ = (doc, word); todo!()",
    );
    break_function(
        &submission(roster, &add("partial_snippet_first_word"), EX, true),
        "snippet",
        snippet_sig,
        "let _ = word; doc.body.split_whitespace().next()",
    );
    let attacks: [(&str, &str); 16] = [
        ("exit", "std::process::exit(0);"),
        ("abort", "std::process::abort();"),
        (
            "panic_hook",
            "std::panic::set_hook(Box::new(|_| std::process::exit(0)));",
        ),
        ("env", "let _ = std::env::var(\"HOME\");"),
        ("infinite_loop", "loop { std::hint::spin_loop(); }"),
        ("panic", "panic!(\"no\");"),
        (
            "fake_token",
            "println!(\"GRADE-OK 00000000000000000000000000000000\");",
        ),
        (
            "thread_leak",
            "std::thread::spawn(|| loop { std::thread::yield_now(); });",
        ),
        (
            "stack_overflow",
            "fn deep(n: u64) -> u64 { deep(n + 1) + 1 } std::hint::black_box(deep(0));",
        ),
        (
            "huge_allocation",
            "let v = vec![1u8; 1 << 40]; std::hint::black_box(&v);",
        ),
        ("file_read", "let _ = std::fs::read(\"/proc/self/exe\");"),
        (
            "command",
            "let _ = std::process::Command::new(\"true\").status();",
        ),
        (
            "network",
            "let _ = std::net::TcpStream::connect(\"1.1.1.1:80\");",
        ),
        ("include_passwd", "let _ = include_str!(\"/etc/passwd\");"),
        (
            "not_clippy",
            "#[cfg(not(clippy))] { std::process::exit(0); }",
        ),
        (
            "unsafe_code",
            "unsafe { std::hint::unreachable_unchecked() }",
        ),
    ];
    for (name, code) in attacks {
        in_snippet(&submission(roster, &add(name), EX, true), code);
    }
    names
}

#[test]
fn grader_roster_of_30_shards_merge_and_equal_grading_alone() {
    let work = root().join("target/grader-roster");
    let _ = fs::remove_dir_all(&work);
    let roster = work.join("roster");
    let students = class(&roster);
    assert_eq!(students.len(), 30);
    // Refused entries: a link to a classmate's folder, and a folder whose exercises are a link.
    symlink(roster.join("honest_0"), roster.join("linked_student")).unwrap();
    let escape = roster.join("escaping_exercises");
    fs::create_dir_all(&escape).unwrap();
    symlink(roster.join("honest_1/exercises"), escape.join("exercises")).unwrap();

    let shards: Vec<_> = (1..=3).map(|k| work.join(format!("shard-{k}"))).collect();
    for (k, out) in shards.iter().enumerate() {
        let status = grader(&[])
            .args(["grade", "--exercise", EX, "--roster"])
            .arg(&roster)
            .arg("--out")
            .arg(out)
            .args(["--shard", &format!("{}/3", k + 1)])
            .status()
            .unwrap();
        assert!(status.success(), "shard {} failed", k + 1);
    }
    let merged = work.join("merged");
    let status = grader(&[])
        .args(["merge", "--out"])
        .arg(&merged)
        .args(&shards)
        .status()
        .unwrap();
    assert!(status.success(), "merge failed");

    let mut differ = Vec::new();
    for student in &students {
        let alone = work.join("alone").join(student);
        let status = grader(&[])
            .args(["grade", "--exercise", EX, "--submission"])
            .arg(roster.join(student).join("exercises").join(EX))
            .arg("--out")
            .arg(&alone)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{student} alone: the grader failed");
        let (in_roster, a) = results(&merged, student, EX);
        let text = fs::read_to_string(alone.join("results.json")).unwrap();
        let b: serde_json::Value = serde_json::from_str(&text).unwrap();
        let (alone_score, a_tests, b_tests) = (
            b["score"].as_u64().unwrap() as u32,
            a["tests"].to_string(),
            b["tests"].to_string(),
        );
        if in_roster != alone_score || a_tests != b_tests {
            differ.push(format!("{student}: roster {a_tests}\nalone {b_tests}"));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));

    let csv = fs::read_to_string(merged.join("gradebook.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 30 + 2, "{csv}");
    let row = |name: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .unwrap()
    };
    assert!(row("honest_3").starts_with("honest_3,10,10,"), "{csv}");
    assert!(row("stub_2").starts_with("stub_2,0,0,"), "{csv}");
    assert!(row("linked_student").contains("symbolic link"), "{csv}");
    assert!(row("escaping_exercises").contains("symbolic link"), "{csv}");
    // Partial work earns something, never everything.
    for partial in [
        "partial_snippet",
        "partial_remove",
        "partial_snippet_first_word",
    ] {
        let (score, report) = results(&merged, partial, EX);
        assert!(score > 0 && score < 10, "{partial}: {report:#}");
    }
    let identical = fs::read_to_string(merged.join("identical.md")).unwrap();
    assert!(
        identical.contains("honest_0, honest_1, honest_2, honest_3, honest_4, honest_5"),
        "{identical}"
    );
    assert!(!identical.contains("stub_0"), "{identical}");
}

/// One student's run-time files do not reach the next student's build: /tmp and the home folder
/// are private to each grading. (The gate is off so that the planting student's code runs.)
#[test]
fn grader_roster_one_student_cannot_reach_the_next() {
    let (_, roster, out) = scratch("grader-roster-effects");
    let plant = "for p in [\"/tmp/planted.rs\", \"/grade/home/planted.rs\", \"/dev/shm/planted.rs\", \
                 \"/grade/target/planted.rs\"] { let _ = std::fs::write(p, \"pub fn planted() {}\"); }";
    in_snippet(&submission(&roster, "a_planter", EX, true), plant);
    for (student, path) in [
        ("b_reads_tmp", "/tmp/planted.rs"),
        ("c_reads_home", "/grade/home/planted.rs"),
        ("d_reads_shm", "/dev/shm/planted.rs"),
        ("e_reads_target", "/grade/target/planted.rs"),
    ] {
        append(
            &submission(&roster, student, EX, true),
            "src/library.rs",
            &format!("include!(\"{path}\");"),
        );
    }
    grader_support::grade_roster(
        &roster,
        Some(EX),
        &out,
        &[("GRADER_NO_GATE", "1"), ("GRADER_SKIP_TEXT_CHECK", "1")],
    );
    let (planter, report) = results(&out, "a_planter", EX);
    assert_eq!(planter, 10, "{report:#}");
    for student in [
        "b_reads_tmp",
        "c_reads_home",
        "d_reads_shm",
        "e_reads_target",
    ] {
        let (score, report) = results(&out, student, EX);
        assert_eq!(score, 0, "{student}: {report:#}");
        assert!(
            report["output"].as_str().unwrap().contains("couldn't read"),
            "{student}: {report:#}"
        );
    }
}

/// A grading that fails for the grader's own reasons (here: cargo-nextest missing from PATH) is
/// an error row for that student, never the end of the roster; the gradebook is still written.
#[test]
fn grader_roster_grader_errors_are_rows_and_the_gradebook_is_written() {
    let (_, roster, out) = scratch("grader-roster-errors");
    submission(&roster, "first", EX, true);
    submission(&roster, "second", EX, true);
    let sysroot = std::process::Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .unwrap();
    let sysroot = String::from_utf8(sysroot.stdout).unwrap();
    let path = format!("{}/bin:/usr/bin:/bin", sysroot.trim());
    let status = grader(&[("PATH", path.as_str())])
        .args(["grade", "--exercise", EX, "--roster"])
        .arg(&roster)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "a grader error stopped the roster");
    let csv = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    for student in ["first", "second"] {
        let row = csv
            .lines()
            .find(|l| l.starts_with(&format!("{student},")))
            .unwrap_or_else(|| panic!("no row for {student}:\n{csv}"));
        assert!(
            row.contains("grader error") && row.contains("cargo-nextest"),
            "{row}"
        );
        let (score, report) = results(&out, student, EX);
        assert_eq!(score, 0, "{report:#}");
    }
}

/// Student folders named to break a gradebook: a carriage return, formulas (also after a
/// separator), and two names that are not UTF-8 and decode alike. Each keeps its own row and no
/// cell starts a formula. (Grading itself fails fast here: nextest is left off the PATH.)
#[test]
fn grader_roster_names_cannot_bend_the_gradebook() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let (_, roster, out) = scratch("grader-roster-names");
    let names: [&[u8]; 5] = [
        b"carriage\rreturn",
        b"=HYPERLINK(\"x\")",
        b"a;=cmd|' /C calc'!A0",
        b"ann\xff",
        b"ann\xfe",
    ];
    for name in names {
        let dir = roster.join(OsStr::from_bytes(name));
        grader_support::copy_dir(
            &root().join("exercises").join(EX).join("src"),
            &dir.join("exercises").join(EX).join("src"),
        );
    }
    let sysroot = std::process::Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .unwrap();
    let path = format!(
        "{}/bin:/usr/bin:/bin",
        String::from_utf8(sysroot.stdout).unwrap().trim()
    );
    let status = grader(&[("PATH", path.as_str())])
        .args(["grade", "--exercise", EX, "--roster"])
        .arg(&roster)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let text = fs::read_to_string(out.join("gradebook.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), names.len(), "one row per student:\n{text}");
    let shown: std::collections::BTreeSet<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(shown.len(), names.len(), "two students merged:\n{text}");
    assert!(
        shown.contains("ann\\xff") && shown.contains("ann\\xfe"),
        "{shown:?}"
    );
    assert!(shown.contains("carriage\\x0dreturn"), "{shown:?}");
    for row in &rows {
        for field in row {
            for piece in field.split([',', ';', '\t', '|', '\r', '\n', ' ']) {
                assert!(
                    !piece.starts_with(['=', '+', '-', '@']),
                    "{piece:?} in\n{text}"
                );
            }
        }
    }
}
