//! The book's "Run it on your GPU" demos (`code/book_demos`), compiled to WebAssembly and wrapped
//! by wasm-bindgen into `book/demos/` (git-ignored), which mdBook copies into the built book.
//!
//! Without the wasm toolchain a local `cargo xtask book` still builds the book and says in one
//! line that the demos were left out (a reader can still read). In CI (`CI=true`) that is an
//! error: the published book must carry its demos.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::local_tools::{installed_version, tools_bin, tools_root};
use crate::util::{self, cargo, root, run_step};
use crate::{disk, requirements};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
const PACKAGE: &str = "book_demos";
/// The size-optimised profile of the root Cargo.toml (a reader downloads every byte).
const WASM_PROFILE: &str = "wasm-release";
/// The newest binaryen release seen to break the demo (see [`optimise`]).
const NEWEST_BROKEN_WASM_OPT: u32 = 108;

/// Where the demo's JS glue and `.wasm` go: inside the book's source, so mdBook copies them.
pub fn out_dir() -> PathBuf {
    root().join("book/demos")
}

pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Builds the demos into `book/demos/`, or (outside CI) explains in one line why they were left out.
pub fn build() -> anyhow::Result<()> {
    match try_build() {
        Ok(()) => Ok(()),
        Err(e) if !in_ci() => {
            let _ = fs::remove_dir_all(out_dir());
            eprintln!(
                "note: the book's browser demos were left out ({:#}); the book builds without them",
                e
            );
            Ok(())
        }
        Err(e) => Err(e.context("CI builds the book with its browser demos")),
    }
}

fn try_build() -> anyhow::Result<()> {
    ensure_wasm_target()?;
    let bindgen = ensure_wasm_bindgen()?;
    run_step(
        cargo().args([
            "build",
            "--profile",
            WASM_PROFILE,
            "--target",
            WASM_TARGET,
            "-p",
            PACKAGE,
        ]),
        "building the browser demos (WebAssembly)",
        "Read the compiler's message above.",
    )?;
    let wasm = disk::target_dir(&root())
        .join(WASM_TARGET)
        .join(WASM_PROFILE)
        .join(format!("{PACKAGE}.wasm"));
    let out = out_dir();
    let _ = fs::remove_dir_all(&out);
    run_step(
        Command::new(bindgen)
            .args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(&out)
            .arg(&wasm),
        "wrapping the demos for the browser (wasm-bindgen)",
        "wasm-bindgen's message above names the problem.",
    )?;
    let glue = out.join(format!("{PACKAGE}_bg.wasm"));
    let before = size(&glue);
    optimise(&glue);
    eprintln!(
        "    demo bundle: {} KiB wasm ({} KiB before wasm-opt) + {} KiB JS",
        size(&glue) / 1024,
        before / 1024,
        size(&out.join(format!("{PACKAGE}.js"))) / 1024
    );
    Ok(())
}

/// `wasm-opt -Oz` in place when binaryen is installed; one line and the unoptimised file otherwise.
fn optimise(wasm: &Path) {
    if !util::on_path("wasm-opt") {
        eprintln!("    wasm-opt not found (binaryen): the demo stays unoptimised");
        return;
    }
    // binaryen 108 (Debian 12) rewrites wasm-bindgen's reference-types table into one that
    // Chromium rejects at load time ("WebAssembly.Table.set(): ... must be null"): the browser
    // test caught it. Newer releases are used, and the browser test judges them.
    let version = util::output(Command::new("wasm-opt").arg("--version"))
        .and_then(|v| v.split_whitespace().find_map(|w| w.parse::<u32>().ok()));
    if let Some(v) = version.filter(|v| *v <= NEWEST_BROKEN_WASM_OPT) {
        eprintln!(
            "    wasm-opt {v} breaks wasm-bindgen's output (needs > {NEWEST_BROKEN_WASM_OPT}): the demo stays unoptimised"
        );
        return;
    }
    let optimised = wasm.with_extension("opt.wasm");
    // The post-MVP features Rust's wasm32 target emits by default, named one by one: with
    // `--all-features` an older wasm-opt (binaryen 108) writes encodings browsers reject.
    let ok = Command::new("wasm-opt")
        .args(["-Oz", "-o"])
        .arg(&optimised)
        .arg(wasm)
        .args([
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-multivalue",
            "--enable-reference-types",
        ])
        .status()
        .is_ok_and(|s| s.success());
    if ok && fs::rename(&optimised, wasm).is_ok() {
        return;
    }
    let _ = fs::remove_file(&optimised);
    eprintln!("    wasm-opt failed (see above): the demo stays unoptimised");
}

fn size(path: &Path) -> u64 {
    fs::metadata(path).map_or(0, |m| m.len())
}

fn ensure_wasm_target() -> anyhow::Result<()> {
    if requirements::installed_rust_targets().contains(WASM_TARGET) {
        return Ok(());
    }
    if !util::on_path("rustup") {
        bail!("the Rust target {WASM_TARGET} is needed and rustup is not here to add it");
    }
    run_step(
        Command::new("rustup")
            .args(["target", "add", WASM_TARGET])
            .current_dir(root()),
        &format!("adding the Rust target {WASM_TARGET}"),
        "Check your network connection.",
    )
}

/// The wasm-bindgen CLI must be exactly the version of the `wasm-bindgen` crate in Cargo.lock
/// (the two share a private format), so the version is read from the lock, never written twice.
fn ensure_wasm_bindgen() -> anyhow::Result<PathBuf> {
    let version = locked_version("wasm-bindgen")?;
    let bin = tools_bin().join(format!("wasm-bindgen{}", std::env::consts::EXE_SUFFIX));
    if installed_version("wasm-bindgen").as_deref() == Some(version.as_str()) {
        return Ok(bin);
    }
    let install = |locked: bool| {
        let mut cmd = cargo();
        cmd.arg("install");
        if locked {
            cmd.arg("--locked");
        }
        cmd.arg("--root")
            .arg(tools_root())
            .arg(format!("wasm-bindgen-cli@{version}"));
        run_step(
            &mut cmd,
            &format!(
                "building wasm-bindgen-cli {version} into {} (once; minutes)",
                tools_root().display()
            ),
            "Check your network connection; it comes from crates.io.",
        )
    };
    // A registry mirror may lack a version that the CLI's own lock file names: then resolve anew.
    if install(true).is_err() {
        eprintln!("    retrying without --locked (the registry lacks a locked dependency)");
        install(false)?;
    }
    Ok(bin)
}

fn locked_version(package: &str) -> anyhow::Result<String> {
    let lock: toml::Table = fs::read_to_string(root().join("Cargo.lock"))
        .context("reading Cargo.lock")?
        .parse()
        .context("parsing Cargo.lock")?;
    lock.get("package")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
        .find(|p| p.get("name").and_then(|n| n.as_str()) == Some(package))
        .and_then(|p| p.get("version")?.as_str().map(str::to_owned))
        .with_context(|| format!("Cargo.lock has no `{package}`: run `cargo build -p {PACKAGE}`"))
}
