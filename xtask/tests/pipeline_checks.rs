//! Tests of the test pipeline itself: each plants one deliberate mistake in a scratch copy and
//! checks that the real tool the test command runs catches it. Without these, a pipeline that
//! silently tested nothing would look exactly like one that passes.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::text;
use xtask::local_tools::tools_bin;
use xtask::util::{self, root};

fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/pipeline-checks").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A one-chapter book using the same mdBook as the course, built into `<dir>/build`.
fn build_book(dir: &Path, book_toml_extra: &str, chapter: &str) -> Output {
    write(
        &dir.join("book.toml"),
        &format!(
            "[book]\ntitle = \"check\"\nsrc = \"src\"\n[build]\nbuild-dir = \"build\"\n[rust]\nedition = \"2024\"\n{book_toml_extra}"
        ),
    );
    write(
        &dir.join("src/SUMMARY.md"),
        "# Summary\n\n- [Chapter](chapter.md)\n- [Other](other.md)\n",
    );
    write(&dir.join("src/chapter.md"), chapter);
    write(&dir.join("src/other.md"), "# Other\n\n## A real heading\n");
    Command::new(tools_bin().join("mdbook"))
        .arg("build")
        .current_dir(dir)
        .output()
        .expect("mdbook runs")
}

#[test]
fn a_wrong_rust_block_in_a_chapter_fails_the_book_doctests() {
    let dir = scratch("wrong_rust_block");
    let chapter = "# Chapter\n\n```rust\nlet sum = first_gpu_program::SHADER.len() + 1;\nassert_eq!(2 + 2, 5, \"deliberately wrong\");\n# let _ = sum;\n```\n";
    let built = build_book(&dir, "[output.markdown]\n", chapter);
    assert!(built.status.success(), "{}", text(&built));

    let out = util::cargo()
        .args(["test", "--doc", "-p", "book_tests"])
        .env("BOOK_MARKDOWN_DIR", dir.join("build"))
        .output()
        .unwrap();
    let log = text(&out);
    assert!(
        !out.status.success(),
        "the doctests passed with a wrong block:\n{log}"
    );
    assert!(
        log.contains("chapter.md") && log.contains("FAILED"),
        "{log}"
    );
    assert!(log.contains("deliberately wrong"), "{log}");
}

#[test]
fn a_broken_link_and_a_missing_anchor_fail_the_link_check() {
    let dir = scratch("broken_link");
    let chapter = "# Chapter\n\n[fine](other.md#a-real-heading), [gone](missing.md), [no anchor](other.md#nowhere)\n";
    let built = build_book(&dir, "[output.html]\n", chapter);
    assert!(built.status.success(), "{}", text(&built));

    let err = xtask::link_check::check(&dir.join("build"))
        .err()
        .expect("the link check must fail")
        .to_string();
    // mdBook copies the first chapter to index.html and all chapters into print.html: the same
    // two mistakes are reported on each page that carries them.
    assert!(
        err.contains("chapter.html: `missing.html` points to a missing file"),
        "{err}"
    );
    assert!(
        err.contains("chapter.html: `other.html#nowhere` points to an anchor"),
        "{err}"
    );
    assert!(
        !err.contains("a-real-heading"),
        "a good anchor was reported: {err}"
    );
}

#[test]
fn a_gpu_test_with_a_wrong_expected_value_fails_nextest() {
    // A scratch workspace whose one crate uses the course's gpu_context, built into the main
    // target dir so the already-compiled wgpu is reused.
    let dir = scratch("wrong_gpu_test");
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let profiles = &manifest[manifest
        .find("[profile.")
        .expect("the root manifest has profiles")..];
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[workspace]\nresolver = \"3\"\nmembers = [\"check\"]\n\n[workspace.dependencies]\n\
             gpu_context = {{ path = {:?} }}\nfirst_gpu_program = {{ path = {:?} }}\n\n{profiles}",
            root().join("code/gpu_context"),
            root().join("code/first_gpu_program"),
        ),
    );
    fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    write(
        &dir.join("check/Cargo.toml"),
        "[package]\nname = \"check\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\n\
         gpu_context.workspace = true\nfirst_gpu_program.workspace = true\n",
    );
    write(&dir.join("check/src/lib.rs"), "");
    write(
        &dir.join("check/tests/gpu.rs"),
        "fn sum() -> Vec<f32> {\n    let ctx = gpu_context::GpuContext::for_tests();\n    \
         first_gpu_program::add_vectors(&ctx, &[1.0, 2.0], &[10.0, 20.0]).unwrap()\n}\n\n\
         #[test]\nfn gpu_right_expectation() {\n    assert_eq!(sum(), [11.0, 22.0]);\n}\n\n\
         #[test]\nfn gpu_wrong_expectation() {\n    assert_eq!(sum(), [11.0, 23.0]);\n}\n",
    );
    let out = util::cargo()
        .args(["nextest", "run", "--no-fail-fast", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(root().join("target"))
        // Under `nextest --profile ci` this variable names a profile the scratch workspace lacks.
        .env_remove("NEXTEST_PROFILE")
        .output()
        .unwrap();
    let log = text(&out);
    assert!(
        !out.status.success(),
        "nextest passed with a wrong GPU expectation:\n{log}"
    );
    assert!(log.contains("2 tests run: 1 passed, 1 failed"), "{log}");
    assert!(log.contains("gpu_wrong_expectation"), "{log}");
    assert!(
        log.contains("[11.0, 22.0]"),
        "the failure shows the GPU's real result:\n{log}"
    );
}
