//! `cargo xtask book [--serve]`: install the pinned book tools if missing, fetch KaTeX's CSS and
//! fonts (so formulas render with no network), build the book, and check its internal links.

use std::fs;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};

use crate::local_tools::{installed_version, tools_bin, tools_root};
use crate::util::{self, root, run_step};
use crate::{demos, link_check, summary};

/// mdbook-katex 0.10.0 is built (with `--locked`) against mdbook 0.5.3: mdbook warns on every
/// build when the two differ, so they are pinned as a pair. Move them together.
pub const MDBOOK: (&str, &str) = ("mdbook", "0.5.3");
pub const MDBOOK_KATEX: (&str, &str) = ("mdbook-katex", "0.10.0");
const KATEX_VERSION: &str = "0.16.4";
/// The npm registry's integrity hash of katex-0.16.4.tgz: a different tarball is refused.
const KATEX_INTEGRITY: &str = "sha512-WudRKUj8yyBeVDI4aYMNxhx5Vhh2PjpzQw1GRu/LVGqL4m1AxwD1GcUp0IMbdJaf5zsjtj8ghP0DOQRYhroNkw==";

#[derive(Debug, clap::Args)]
pub struct BookArgs {
    /// Serve the book at http://localhost:3000 and open it, rebuilding on every change.
    #[arg(long)]
    pub serve: bool,
}

/// `PATH` with the local tools folder first, so the pinned mdbook and mdbook-katex win.
fn path_with_tools() -> std::ffi::OsString {
    let mut paths = vec![tools_bin()];
    if let Some(path) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(paths).unwrap_or_default()
}

pub fn run(args: &BookArgs) -> anyhow::Result<()> {
    check_summary()?;
    ensure_tools()?;
    ensure_katex()?;
    if args.serve {
        demos::build()?;
        crate::puzzle_editor::build()?;
        let mut cmd = Command::new(tools_bin().join("mdbook"));
        cmd.args(["serve", "--open"])
            .current_dir(root())
            .env("PATH", path_with_tools());
        return util::run_step(&mut cmd, "serving the book at http://localhost:3000", "");
    }
    build()
}

/// Builds the book (HTML and the expanded markdown for doctests) and checks its links.
pub fn build() -> anyhow::Result<()> {
    check_summary()?;
    ensure_tools()?;
    ensure_katex()?;
    demos::build()?;
    crate::puzzle_editor::build()?;
    let mut cmd = Command::new(tools_bin().join("mdbook"));
    cmd.arg("build")
        .current_dir(root())
        .env("PATH", path_with_tools());
    util::run_step(
        &mut cmd,
        "building the book",
        "Read mdbook's message above: it names the chapter.",
    )?;
    let html = root().join("book/build/html");
    for chapter in summary::chapters(&fs::read_to_string(root().join("book/SUMMARY.md"))?) {
        let page = match chapter.strip_suffix("README.md") {
            Some(folder) => format!("{folder}index.html"),
            None => chapter.replace(".md", ".html"),
        };
        if !html.join(&page).is_file() {
            bail!("mdbook wrote no page for `{chapter}` of book/SUMMARY.md (expected {page})");
        }
    }
    eprintln!(
        "\n==> checking internal links and anchors in {}",
        html.display()
    );
    let report = link_check::check(&html)?;
    eprintln!(
        "    {} pages, {} internal links and images checked",
        report.pages, report.links
    );
    Ok(())
}

/// Every chapter of a module folder is nested under its module's overview in SUMMARY.md.
fn check_summary() -> anyhow::Result<()> {
    let path = root().join("book/SUMMARY.md");
    let text = fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let problems = summary::check(&text);
    if !problems.is_empty() {
        bail!("the table of contents:\n  {}", problems.join("\n  "));
    }
    Ok(())
}

pub fn ensure_tools() -> anyhow::Result<()> {
    for (tool, version) in [MDBOOK, MDBOOK_KATEX] {
        if installed_version(tool).as_deref() == Some(version) {
            continue;
        }
        let mut cmd = util::cargo();
        cmd.args(["install", "--locked", "--root"])
            .arg(tools_root())
            .arg(format!("{tool}@{version}"));
        run_step(
            &mut cmd,
            &format!(
                "building {tool} {version} into {} (once; minutes)",
                tools_root().display()
            ),
            "Check your network connection; the tools come from crates.io.",
        )?;
    }
    Ok(())
}

/// KaTeX's stylesheet and fonts in book/katex/ (git-ignored), fetched by name and version from
/// the npm registry and checked against the pinned integrity hash.
pub fn ensure_katex() -> anyhow::Result<()> {
    let dest = root().join("book/katex");
    if dest.join("katex.min.css").is_file() && dest.join("fonts").is_dir() {
        return Ok(());
    }
    let scratch = root().join("target/katex-download");
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch).with_context(|| format!("creating {}", scratch.display()))?;
    eprintln!("\n==> fetching katex@{KATEX_VERSION} (CSS and fonts) from the npm registry");
    let out = Command::new("npm")
        .args(["pack", "--json", &format!("katex@{KATEX_VERSION}")])
        .current_dir(&scratch)
        .output()
        .context(
            "cannot run npm. Install Node.js and npm (https://nodejs.org) to build the book.",
        )?;
    if !out.status.success() {
        bail!(
            "`npm pack katex@{KATEX_VERSION}` failed: {}. Check your network connection.",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let json = String::from_utf8_lossy(&out.stdout);
    if !json.contains(KATEX_INTEGRITY) {
        bail!(
            "the downloaded katex-{KATEX_VERSION}.tgz does not have the pinned integrity hash; refusing to use it"
        );
    }
    let tarball = scratch.join(format!("katex-{KATEX_VERSION}.tgz"));
    let mut tar = Command::new("tar");
    tar.arg("-xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(&scratch)
        .args(["package/dist/katex.min.css", "package/dist/fonts"]);
    run_step(
        &mut tar,
        "unpacking KaTeX",
        "The `tar` program is needed to unpack it.",
    )?;
    let _ = fs::remove_dir_all(&dest);
    copy_dir(&scratch.join("package/dist/fonts"), &dest.join("fonts"))?;
    fs::copy(
        scratch.join("package/dist/katex.min.css"),
        dest.join("katex.min.css"),
    )
    .context("copying katex.min.css")?;
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for entry in fs::read_dir(from)
        .with_context(|| format!("reading {}", from.display()))?
        .flatten()
    {
        fs::copy(entry.path(), to.join(entry.file_name()))
            .with_context(|| format!("copying {}", entry.path().display()))?;
    }
    Ok(())
}
