//! The stub's public API as the contract (no sandbox, no build: fast). Every reference solution
//! keeps it; submissions that change a signature, add a comparison, shadow a primitive, hide
//! items in a macro, use the implied-bounds soundness hole or leave loom are refused.

use std::fs;
use std::path::{Path, PathBuf};

use grader::catalog;
use grader::contract::{api_of, check};

/// Every file under `dir` with its bytes, paths relative to `dir`.
fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    catalog::files_under(dir)
        .unwrap()
        .into_iter()
        .map(|rel| {
            let bytes = fs::read(dir.join(&rel)).unwrap();
            (rel, bytes)
        })
        .collect()
}

fn stub(id: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let ex = catalog::find(&grader::repo_root(), id).unwrap();
    files_under(&ex.dir.join("src"))
}

/// The stub's files with the reference solution's laid over them.
fn solution(id: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let ex = catalog::find(&grader::repo_root(), id).unwrap();
    let mut files = stub(id);
    for (rel, bytes) in files_under(&ex.dir.join("grading/solution")) {
        files.retain(|(r, _)| *r != rel);
        files.push((rel, bytes));
    }
    files
}

/// `stub(id)` with one file's text edited.
fn edited(id: &str, file: &str, edit: impl Fn(&str) -> String) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = solution(id);
    let slot = files
        .iter_mut()
        .find(|(rel, _)| rel == Path::new(file))
        .unwrap_or_else(|| panic!("{id} has no src/{file}"));
    let text = String::from_utf8(slot.1.clone()).unwrap();
    let new = edit(&text);
    assert_ne!(new, text, "the edit of {id}/src/{file} changed nothing");
    slot.1 = new.into_bytes();
    files
}

fn problems(id: &str, files: &[(PathBuf, Vec<u8>)]) -> Vec<String> {
    check(&api_of(&stub(id)).unwrap(), files)
}

#[test]
fn every_reference_solution_keeps_its_stubs_api() {
    let root = grader::repo_root();
    let all = catalog::all(&root).unwrap();
    assert!(all.len() >= 26);
    for ex in all {
        let found = problems(&ex.id, &solution(&ex.id));
        assert!(found.is_empty(), "{}: {found:#?}", ex.id);
        let found = problems(&ex.id, &stub(&ex.id));
        assert!(
            found.is_empty(),
            "{} (stub against itself): {found:#?}",
            ex.id
        );
    }
}

#[test]
fn a_changed_return_type_is_refused_by_name() {
    let files = edited("m0/iterator_adaptor", "batches.rs", |t| {
        format!(
            "{t}\npub struct Always;\nimpl PartialEq<f32> for Always {{ fn eq(&self, _: &f32) -> bool {{ true }} }}\n"
        )
    });
    // A new public type with a comparison of its own is allowed only if no stub item returns it:
    // here nothing does, so the stub's signatures are unchanged and the submission passes.
    assert!(problems("m0/iterator_adaptor", &files).is_empty());
    let files = edited("m1/buffer_reuse", "plan.rs", |t| {
        t.replacen("Result<BufferPlan,", "Result<Fake,", 1)
            + "\npub struct Fake;\nimpl PartialEq<super::BufferPlan> for Fake { fn eq(&self, _: &super::BufferPlan) -> bool { true } }\n"
    });
    let found = problems("m1/buffer_reuse", &files);
    assert!(
        found
            .iter()
            .any(|p| p.contains("fn crate::plan::plan_buffers") && p.contains("changed")),
        "{found:#?}"
    );
}

#[test]
fn a_trait_impl_on_a_stub_type_is_refused() {
    let files = edited("m1/buffer_reuse", "plan.rs", |t| {
        format!(
            "{t}\nimpl PartialOrd for super::BufferPlan {{ fn partial_cmp(&self, _: &Self) -> Option<std::cmp::Ordering> {{ None }} }}\n"
        )
    });
    let found = problems("m1/buffer_reuse", &files);
    assert!(found.iter().any(|p| p.contains("PartialOrd")), "{found:#?}");
}

#[test]
fn look_alike_primitives_and_item_macros_are_refused() {
    let files = edited("m1/buffer_reuse", "plan.rs", |t| {
        format!("{t}\n#[allow(non_camel_case_types)]\ntype usize = u8;\n")
    });
    let found = problems("m1/buffer_reuse", &files);
    assert!(found.iter().any(|p| p.contains("`usize`")), "{found:#?}");
    let files = edited("m1/buffer_reuse", "plan.rs", |t| {
        format!("{t}\nmacro_rules! m {{ () => {{}} }}\nm!();\n")
    });
    let found = problems("m1/buffer_reuse", &files);
    assert!(found.iter().any(|p| p.contains("macro `m!`")), "{found:#?}");
}

#[test]
fn the_implied_bounds_soundness_hole_is_refused() {
    // The shape `cve-rs` builds on: a `&'a &'b ()` argument makes the compiler assume 'b: 'a.
    let files = edited("m1/buffer_reuse", "plan.rs", |t| {
        format!(
            "{t}\nfn translate<'a, 'b, T: ?Sized>(_: &'a &'b (), v: &'b T) -> &'a T {{ v }}\n\
             #[allow(dead_code)]\nfn expand<'a, T: ?Sized>(x: &'a T) -> &'static T {{ \
             let f: for<'x> fn(_, &'x T) -> &'static T = translate; f(&&(), x) }}\n"
        )
    });
    let found = problems("m1/buffer_reuse", &files);
    assert!(
        found.iter().any(|p| p.contains("soundness hole")),
        "{found:#?}"
    );
}

#[test]
fn a_loom_exercise_cannot_switch_to_std_atomics() {
    let files = edited("m2/fix_orderings", "seqlock.rs", |t| {
        t.replace("use loom::sync::atomic::", "use std::sync::atomic::")
    });
    let found = problems("m2/fix_orderings", &files);
    assert!(
        found.iter().any(|p| p.contains("std::sync::atomic")),
        "{found:#?}"
    );
    // A full path in an expression is seen too.
    let files = edited("m2/fix_orderings", "seqlock.rs", |t| {
        format!(
            "{t}\n#[allow(dead_code)]\nfn f() {{ core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst); }}\n"
        )
    });
    let found = problems("m2/fix_orderings", &files);
    assert!(
        found.iter().any(|p| p.contains("core::sync::atomic")),
        "{found:#?}"
    );
}

#[test]
fn a_file_compiled_over_loom_through_a_sync_module_cannot_hide_a_std_lock() {
    // `ring.rs` never names loom: `loom_ring.rs` compiles it over `super::sync`. A static std
    // lock in it would sit outside every loom model, and it is refused all the same.
    let files = edited("m5/audio_ring", "ring.rs", |t| {
        format!("{t}\nstatic LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());\n")
    });
    let found = problems("m5/audio_ring", &files);
    assert!(
        found.iter().any(|p| p.contains("std::sync::Mutex")),
        "{found:#?}"
    );
}

#[test]
fn renaming_std_cannot_smuggle_a_lock_past_the_check() {
    for rename in ["use std as s;", "extern crate std as s;"] {
        let files = edited("m5/audio_ring", "ring.rs", |t| {
            format!("{t}\n{rename}\nstatic LOCK: s::sync::Mutex<()> = s::sync::Mutex::new(());\n")
        });
        let found = problems("m5/audio_ring", &files);
        assert!(
            found.iter().any(|p| p.contains("renames the crate `std`")),
            "{rename}: {found:#?}"
        );
    }
}
