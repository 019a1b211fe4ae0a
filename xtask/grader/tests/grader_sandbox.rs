//! The grader's sandbox against submissions that name files outside their own sources (path
//! attributes, include macros in several spellings, files anywhere on the machine), and its gate
//! against code the build would see but a separate check would not; on a CPU exercise, a GPU
//! exercise, a loom exercise and the template exercise.
//!
//! The text check that refuses most include spellings before building is switched off here
//! (`GRADER_SKIP_TEXT_CHECK`), so that the sandbox alone is what stops them. Each attack is
//! written on top of the reference solution: if it could read its file it would build and score
//! full marks, so a zero with "couldn't read" / "not found" proves the file was out of reach.

use std::fs;
use std::path::Path;

mod grader_support;
use grader_support::{append, grade_roster, results, root, scratch, submission};

const CPU: &str = "m1/buffer_reuse";

/// Secrets planted where a submission might look: /tmp, the home folder, the target folder.
fn plant(name: &str, dir: &Path) -> String {
    fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    fs::write(&path, "pub fn planted() -> u32 { 42 }\n").unwrap();
    path.display().to_string()
}

#[test]
fn grader_sandbox_no_file_outside_the_sources_can_be_named() {
    let (work, roster, out) = scratch("grader-sandbox");
    let ex = root().join("exercises").join(CPU);
    let solution_plan = ex.join("grading/solution/plan.rs").display().to_string();
    let hidden = ex.join("grading/hidden.rs").display().to_string();
    let tmp = plant(
        "planted.rs",
        // One folder per run: another user's earlier run may own a shared name.
        &std::env::temp_dir().join(format!("grader-sandbox-test-{}", std::process::id())),
    );
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let home = plant(
        "planted.rs",
        &Path::new(&home).join(format!(".cache/grader-sandbox-test-{}", std::process::id())),
    );
    let target = plant("planted.rs", &work.join("planted"));
    let runs = root().join("target/grading/runs").display().to_string();

    let attacks: Vec<(&str, String)> = vec![
        ("path_repo_solution", format!("#[path = \"{solution_plan}\"]\nmod stolen;")),
        ("include_repo_hidden_tests", format!("include!(\"{hidden}\");")),
        ("include_etc_passwd", "pub const P: &str = include_str!(\"/etc/passwd\");".into()),
        ("include_home", format!("include!(\"{home}\");")),
        ("include_tmp", format!("include!(\"{tmp}\");")),
        ("include_target", format!("include!(\"{target}\");")),
        ("path_tmp", format!("#[path = \"{tmp}\"]\nmod planted_mod;")),
        ("cfg_attr_path", format!("#[cfg_attr(all(), path = \"{home}\")]\nmod planted_mod;")),
        ("concat_spelling", "pub const P: &str = include_str!(concat!(\"/et\", \"c/pass\", \"wd\"));".into()),
        ("macro_wrapped", "macro_rules! grab { ($p:expr) => { include_bytes!($p) }; }\npub const P: &[u8] = grab!(\"/etc/hostname\");".into()),
        ("doc_attribute", "#[doc = include_str!(\"/etc/passwd\")]\npub struct Documented;".into()),
        ("relative_escape", "pub const P: &str = include_str!(\"../../../../../../../../../../etc/passwd\");".into()),
        ("relative_staff_layout", "pub const P: &str = include_str!(\"../grading/hidden.rs\");".into()),
        ("std_alias_include", "use core::include_str as grab;\npub const P: &str = grab!(\"/etc/shadow\");".into()),
        ("previous_gradings", format!("pub const P: &[u8] = include_bytes!(\"{runs}\");")),
    ];
    for (name, code) in &attacks {
        append(&submission(&roster, name, CPU, true), "src/plan.rs", code);
    }
    submission(&roster, "honest", CPU, true);
    grade_roster(&roster, Some(CPU), &out, &[("GRADER_SKIP_TEXT_CHECK", "1")]);

    let (honest, report) = results(&out, "honest", CPU);
    assert_eq!(honest, 10, "{report:#}");
    for (name, _) in &attacks {
        let (score, report) = results(&out, name, CPU);
        let text = report["output"].as_str().unwrap();
        assert_eq!(score, 0, "{name}: {report:#}");
        assert!(
            text.contains("couldn't read")
                || text.contains("file not found")
                || text.contains("No such file")
                || text.contains("Is a directory"),
            "{name} failed for another reason than a missing file:\n{text}"
        );
    }
}

/// A GPU exercise, a loom exercise and the template exercise: honest work scores full marks,
/// reading a solution's shader fails to build, code kept out of Clippy's sight (`cfg(not(clippy))`)
/// is not built at all, and what the gate forbids is refused.
#[test]
fn grader_sandbox_holds_for_gpu_loom_and_template_exercises() {
    let (_, roster, out) = scratch("grader-sandbox-kinds");
    let gpu = "m0/gpu_vector_op";
    let loom = "m2/fix_orderings";
    let template = "m2/template_control";
    let shader = root()
        .join("exercises")
        .join(gpu)
        .join("grading/solution/saxpy.wgsl")
        .display()
        .to_string();

    submission(&roster, "honest", gpu, true);
    submission(&roster, "honest", loom, true);
    submission(&roster, "honest", template, true);
    // GPU: the kernel taken from the staff's solution at compile time.
    append(
        &submission(&roster, "gpu_solution_shader", gpu, false),
        "src/launch.rs",
        &format!("pub const STOLEN: &str = include_str!(\"{shader}\");"),
    );
    // GPU: exiting the process before the test can fail.
    append(
        &submission(&roster, "gpu_exit", gpu, true),
        "src/launch.rs",
        "pub fn leave() { std::process::exit(0) }",
    );
    // loom: a version of the code that only the build would see, if the gate were a second build.
    append(
        &submission(&roster, "loom_not_clippy", loom, true),
        "src/seqlock.rs",
        "#[cfg(not(clippy))]\ncompile_error!(\"built without the gate\");",
    );
    // loom: the environment, forbidden, even with the lint allowed.
    append(
        &submission(&roster, "loom_env", loom, true),
        "src/seqlock.rs",
        "#[allow(clippy::disallowed_methods)]\npub fn home() -> bool { std::env::var_os(\"HOME\").is_some() }",
    );
    // template: a process started from the library; the solution read at compile time.
    append(
        &submission(&roster, "template_command", template, true),
        "src/control.rs",
        "pub fn shell() { let _ = std::process::Command::new(\"sh\").status(); }",
    );
    append(
        &submission(&roster, "template_include_solution", template, false),
        "src/control.rs",
        &format!(
            "pub const S: &str = include_str!(\"{}\");",
            root()
                .join("exercises")
                .join(template)
                .join("grading/solution/control.rs")
                .display()
        ),
    );
    for ex in [gpu, loom, template] {
        grade_roster(
            &roster,
            Some(ex),
            &out.join(ex.replace('/', "_")),
            &[("GRADER_SKIP_TEXT_CHECK", "1")],
        );
    }
    let score = |student: &str, ex: &str| {
        let dir = out.join(ex.replace('/', "_"));
        results(&dir, student, ex)
    };
    for ex in [gpu, loom, template] {
        let (got, report) = score("honest", ex);
        let max = report["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["max_score"].as_u64().unwrap() as u32)
            .sum::<u32>();
        assert_eq!(got, max, "{ex} honest: {report:#}");
    }
    // A GPU submission that knows every token (as one reading its own memory through a
    // soundness hole would: handed over here) and exits 0 with no work: the tests' records,
    // compared by the grader, fail it. And a loom submission on std's atomics: refused.
    let (_, leak_roster, leak_out) = scratch("grader-sandbox-leak");
    let leak = submission(&leak_roster, "gpu_tokens_from_memory", gpu, false);
    let launch = fs::read_to_string(leak.join("src/launch.rs")).unwrap();
    let exit = r#"if let Ok(all) = std::env::var("GRADE_TOKENS") {
        let me = std::thread::current().name().unwrap_or_default().rsplit("::").next().unwrap_or_default().to_string();
        for pair in all.split(',') {
            if let Some((name, token)) = pair.split_once('=') { if name == me { println!("GRADE-OK {token}"); } }
        }
        std::process::exit(0);
    }"#;
    fs::write(
        leak.join("src/launch.rs"),
        launch.replace("todo!(", &format!("{{ {exit} }}\n    todo!(")),
    )
    .unwrap();
    let std_atomics = submission(&leak_roster, "loom_std_atomics", loom, true);
    let seqlock = fs::read_to_string(std_atomics.join("src/seqlock.rs")).unwrap();
    fs::write(
        std_atomics.join("src/seqlock.rs"),
        seqlock.replace("use loom::sync::atomic::", "use std::sync::atomic::"),
    )
    .unwrap();
    for ex in [gpu, loom] {
        grade_roster(
            &leak_roster,
            Some(ex),
            &leak_out.join(ex.replace('/', "_")),
            &[
                ("GRADER_NO_GATE", "1"),
                ("GRADER_TEST_ONLY_LEAK_TOKENS", "1"),
            ],
        );
    }
    let (got, report) = results(
        &leak_out.join(gpu.replace('/', "_")),
        "gpu_tokens_from_memory",
        gpu,
    );
    assert_eq!(got, 0, "{report:#}");
    let (got, report) = results(
        &leak_out.join(loom.replace('/', "_")),
        "loom_std_atomics",
        loom,
    );
    assert_eq!(got, 0, "{report:#}");
    assert!(
        report["output"].as_str().unwrap().contains("loom"),
        "{report:#}"
    );

    let (got, report) = score("loom_not_clippy", loom);
    assert_eq!(got, 10, "the gate and the build must be one: {report:#}");
    for (student, ex, why) in [
        ("gpu_solution_shader", gpu, "couldn't read"),
        ("gpu_exit", gpu, "may not use"),
        ("loom_env", loom, "may not use"),
        ("template_command", template, "may not use"),
        ("template_include_solution", template, "couldn't read"),
    ] {
        let (got, report) = score(student, ex);
        assert_eq!(got, 0, "{student}: {report:#}");
        let text = report["output"].as_str().unwrap();
        assert!(text.contains(why), "{student}: {text}");
    }
}
