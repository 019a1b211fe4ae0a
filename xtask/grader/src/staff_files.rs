//! The files the staff put into every grading workspace beside the submission: the hidden tests
//! with their per-run tokens, and the nextest profile that runs them.

use std::collections::BTreeMap;
use std::fs;

use student::catalog::Exercise;

use crate::error::GradeError;

/// Staff hidden tests with the `grade_ok!` macro put in front: each test's last act prints
/// `GRADE-OK <token>` for its own name.
pub fn hidden_source(
    ex: &Exercise,
    tokens: &BTreeMap<String, String>,
) -> Result<String, GradeError> {
    let path = ex.dir.join("grading/hidden.rs");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut arms = String::new();
    for (name, token) in tokens {
        arms.push_str(&format!("        \"{name}\" => \"{token}\",\n"));
    }
    let prelude = format!(
        "// Put here by the grader: prints this run's token for a test, as the test's last act.\n\
         macro_rules! grade_ok {{\n    ($name:literal) => {{\n        \
         ::std::println!(\"GRADE-OK {{}}\", grade_token($name))\n    }};\n}}\n\n\
         #[allow(dead_code)]\nfn grade_token(name: &str) -> &'static str {{\n    match name {{\n{arms}        \
         _ => \"not-an-expected-test\",\n    }}\n}}\n\n"
    );
    // Inner attributes and `//!` docs must stay first in the file.
    let mut head = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.peek() {
        let t = line.trim_start();
        if t.starts_with("//!") || t.starts_with("#![") || t.is_empty() {
            head.push_str(line);
            head.push('\n');
            lines.next();
        } else {
            break;
        }
    }
    let rest: Vec<&str> = lines.collect();
    Ok(format!(
        "{head}\n{prelude}{}\n{}\n",
        crate::verdict::RECORD_MACRO,
        rest.join("\n")
    ))
}

/// The grade profile: no retries, per-test timeouts, leaked processes fail, output stored.
pub fn nextest_config(ex: &Exercise) -> String {
    let half = ex.timeout_s().div_ceil(2);
    let threads = if ex.meta.gpu {
        toml::Value::Integer(1)
    } else {
        toml::Value::String("num-cpus".into())
    };
    let config = toml::toml! {
        [store]
        dir = "store"

        [profile.grade]
        retries = 0
        fail-fast = false
        status-level = "none"
        final-status-level = "none"
        failure-output = "never"
        success-output = "never"
        leak-timeout = { period = "500ms", result = "fail" }

        [profile.grade.junit]
        path = "junit.xml"
        store-success-output = true
        store-failure-output = true
    };
    let mut config = config;
    let grade = config["profile"]["grade"]
        .as_table_mut()
        .expect("the literal above has [profile.grade]");
    grade.insert("test-threads".into(), threads);
    let mut slow = toml::Table::new();
    slow.insert("period".into(), format!("{half}s").into());
    slow.insert("terminate-after".into(), 2.into());
    grade.insert("slow-timeout".into(), slow.into());
    format!(
        "# Written by `cargo xtask grade`.\n{}",
        toml::to_string(&config).expect("a TOML table always serialises")
    )
}
