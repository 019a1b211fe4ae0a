//! The warm start of an exercise: its dependencies compiled once, from staff files only, inside
//! the sandbox; every grading then starts from a fresh copy of that target folder.
//!
//! `target/grading/warm/<exercise>/` holds
//! - `course/`: the course crates the exercise builds on (copies) and their workspace manifest,
//!   shown read-only at `/grade/course`;
//! - `Cargo.lock`: the course's lock pruned to this exercise;
//! - `target/`: the dependencies, built by grading the stub once; the exercise's own artifacts
//!   are deleted, so nothing in it came from a submission; it starts from another exercise's
//!   finished target (the registry crates' artifacts hard-linked, the rest copied), and the
//!   files the build left unchanged become hard links to that one's, so the dependencies most
//!   exercises share are on disk once;
//! - `stamp`: what it was made from; a different stamp (new lock, new manifest, edited course
//!   crate, new toolchain) rebuilds it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use student::catalog::{self, Exercise};

use crate::error::{GradeError, io_err};
use crate::paths;
use crate::sandbox::{self, Sandbox};
use crate::workspace::{self, CoursePaths, Targets};

pub struct Warm {
    pub course: PathBuf,
    pub lock: PathBuf,
    pub target: PathBuf,
}

/// The staff workspace of a grading, written into `ws` (the submission's sources come after).
pub fn write_workspace(root: &Path, ex: &Exercise, ws: &Path) -> Result<(), GradeError> {
    let keep = workspace::needed_course_crates(root, std::slice::from_ref(ex))?
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let paths = CoursePaths::Mounted {
        at: sandbox::COURSE.into(),
        keep,
    };
    catalog::write(
        &ws.join("Cargo.toml"),
        &workspace::root_manifest(root, &["exercise".into()], paths)?,
    )?;
    let targets = Targets {
        public: false,
        hidden: true,
    };
    catalog::write(
        &ws.join("exercise/Cargo.toml"),
        &workspace::exercise_manifest(ex, targets)?,
    )?;
    catalog::write(&ws.join("clippy/clippy.toml"), crate::gate::CLIPPY_TOML)?;
    catalog::write(
        &ws.join(".config/nextest.toml"),
        &crate::staff_files::nextest_config(ex),
    )?;
    Ok(())
}

/// The warm folder of `ex`, built now if missing or stale.
pub fn ensure(root: &Path, ex: &Exercise) -> Result<Warm, GradeError> {
    let dir = paths::warm(root, ex);
    let warm = Warm {
        course: dir.join("course"),
        lock: dir.join("Cargo.lock"),
        target: dir.join("target"),
    };
    fs::create_dir_all(&dir).map_err(|e| io_err(&dir, e))?;
    let _lock = paths::exclusive_lock(&dir.with_extension("lock"))?;
    let stamp = stamp(root, ex)?;
    if fs::read_to_string(dir.join("stamp")).ok().as_deref() == Some(stamp.as_str()) {
        return Ok(warm);
    }
    eprintln!(
        "grader: compiling the dependencies of {} once (warm start)",
        ex.id
    );
    rebuild(root, ex, &dir, &warm)?;
    catalog::write(&dir.join("stamp"), &stamp)?;
    Ok(warm)
}

/// Builds the warm folder `dir` afresh; without a stamp until the caller writes it, so a
/// rebuild that fails half-way is redone next time.
fn rebuild(root: &Path, ex: &Exercise, dir: &Path, warm: &Warm) -> Result<(), GradeError> {
    let _ = fs::remove_file(dir.join("stamp"));
    for sub in ["course", "build"] {
        let path = dir.join(sub);
        if path.exists() {
            fs::remove_dir_all(&path).map_err(|e| io_err(&path, e))?;
        }
    }
    copy_course(root, ex, &warm.course)?;
    let ws = dir.join("build");
    write_stub_build(root, ex, &ws)?;
    // A stale target goes: its files may be hard links shared with other exercises' warm
    // folders, which a rebuild in place would change under them.
    if warm.target.exists() {
        fs::remove_dir_all(&warm.target).map_err(|e| io_err(&warm.target, e))?;
    }
    let own = own_crates(root, ex)?;
    let mut donor = donor_target(dir);
    if let Some(from) = &donor
        && let Err(e) = seed(&warm.target, || link_seed(from, &warm.target, &own))
    {
        // A donor being rebuilt at this moment, say: build from nothing instead.
        eprintln!(
            "grader: seeding the warm start of {} from {} failed ({e}); building it from nothing",
            ex.id,
            from.display()
        );
        donor = None;
    }
    fs::create_dir_all(&warm.target).map_err(|e| io_err(&warm.target, e))?;
    if let Err(first) = build_stub(ex, &ws, warm) {
        // A unit that Cargo rebuilt in place would have met a linked, read-only file: build
        // once more on a full copy of the donor, which costs disk for a while, not correctness.
        // Any other failure would only fail again.
        let denied = first.to_string().contains("Permission denied");
        let Some(from) = donor.as_ref().filter(|_| denied) else {
            return Err(first);
        };
        eprintln!(
            "grader: the warm start of {} met a linked file it had to rewrite; building it again \
             on a full copy of {}. The first build said:\n{first}",
            ex.id,
            from.display()
        );
        fs::remove_dir_all(&warm.target).map_err(|e| io_err(&warm.target, e))?;
        seed(&warm.target, || copy_seed(from, &warm.target))?;
        build_stub(ex, &ws, warm)?;
    }
    catalog::copy_file(&ws.join("Cargo.lock"), &warm.lock)?;
    forget_own_artifacts(&warm.target, &ex.package())?;
    // Gradings hard-link these files: read-only, so that no grading can change them for the next.
    for rel in catalog::files_under(&warm.target)? {
        let path = warm.target.join(&rel);
        let mode = fs::metadata(&path)
            .map_err(|e| io_err(&path, e))?
            .permissions();
        use std::os::unix::fs::PermissionsExt;
        sandbox::set_mode(&path, mode.mode() & 0o555)?;
    }
    if let Some(donor) = &donor {
        share_unchanged_files(donor, &warm.target)?;
    }
    fs::remove_dir_all(&ws).map_err(|e| io_err(&ws, e))
}

/// The course crates the exercise builds on, copied into `course`, with their workspace
/// manifest.
fn copy_course(root: &Path, ex: &Exercise, course: &Path) -> Result<(), GradeError> {
    let crates = workspace::needed_course_crates(root, std::slice::from_ref(ex))?;
    for (_, rel) in &crates {
        workspace::copy_tree(&root.join(rel), &course.join(rel))?;
    }
    let names = crates.iter().map(|(n, _)| n.clone()).collect();
    catalog::write(
        &course.join("Cargo.toml"),
        &workspace::root_manifest(root, &["code/*".into()], CoursePaths::Copied(names))?,
    )?;
    Ok(())
}

/// The staff workspace of a grading in `ws`, with the stub as the submission and hidden tests
/// whose tokens do not matter (nothing is scored).
fn write_stub_build(root: &Path, ex: &Exercise, ws: &Path) -> Result<(), GradeError> {
    write_workspace(root, ex, ws)?;
    for rel in catalog::files_under(&ex.dir.join("src"))? {
        catalog::copy_file(
            &ex.dir.join("src").join(&rel),
            &ws.join("exercise/src").join(&rel),
        )?;
    }
    let tokens = ex
        .meta
        .points
        .keys()
        .map(|n| (n.clone(), "warm".to_string()))
        .collect();
    catalog::write(
        &ws.join("exercise/tests/hidden.rs"),
        &crate::staff_files::hidden_source(ex, &tokens)?,
    )?;
    catalog::copy_file(&root.join("Cargo.lock"), &ws.join("Cargo.lock"))?;
    Ok(())
}

/// Builds the stub and its tests once, in the sandbox, at the paths every grading uses.
fn build_stub(ex: &Exercise, ws: &Path, warm: &Warm) -> Result<(), GradeError> {
    let sb = Sandbox::new(ws, &warm.target, Some(&warm.course), ex.meta.gpu)?;
    let package = ex.package();
    for args in [
        vec!["metadata", "--offline", "--format-version", "1"],
        vec![
            "build",
            "--locked",
            "--profile",
            "test",
            "-p",
            &package,
            "--tests",
        ],
    ] {
        let out = sb.cargo(&args, 3600, false)?;
        if !out.status.success() {
            return Err(GradeError::Setup(format!(
                "the warm start of {} failed (`cargo {}`):\n{}",
                ex.id,
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            )));
        }
    }
    Ok(())
}

/// Deletes what the exercise's own build left (its library, the hidden test binary, their
/// fingerprints): the warm folder keeps dependencies only.
fn forget_own_artifacts(target: &Path, package: &str) -> Result<(), GradeError> {
    let prefixes = [
        format!("lib{package}-"),
        format!("{package}-"),
        "hidden-".to_string(),
    ];
    for rel in catalog::files_under(target)? {
        let own = rel.components().any(|c| {
            let c = c.as_os_str().to_string_lossy();
            prefixes.iter().any(|p| c.starts_with(p.as_str())) || c == "incremental"
        });
        if own {
            let path = target.join(&rel);
            fs::remove_file(&path).map_err(|e| io_err(&path, e))?;
        }
    }
    Ok(())
}

/// What the warm folder is made of: manifests, lock, toolchain, course crates (names, sizes and
/// modification times).
fn stamp(root: &Path, ex: &Exercise) -> Result<String, GradeError> {
    let mut text = workspace::exercise_manifest(
        ex,
        Targets {
            public: false,
            hidden: true,
        },
    )?;
    text.push_str(&fs::read_to_string(root.join("Cargo.lock")).map_err(|e| io_err(root, e))?);
    text.push_str(&fs::read_to_string(root.join("Cargo.toml")).map_err(|e| io_err(root, e))?);
    let version = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("-vV")
        .output()
        .map_err(|source| GradeError::Sandbox {
            what: "running rustc -vV".into(),
            source,
        })?;
    text.push_str(&String::from_utf8_lossy(&version.stdout));
    for (_, rel) in workspace::needed_course_crates(root, std::slice::from_ref(ex))? {
        let dir = root.join(&rel);
        for file in catalog::files_under(&dir)? {
            if file.components().any(|c| c.as_os_str() == "target") {
                continue;
            }
            let meta = fs::metadata(dir.join(&file)).map_err(|e| io_err(&dir, e))?;
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or_default();
            text.push_str(&format!(
                "{rel}/{} {} {modified}\n",
                file.display(),
                meta.len()
            ));
        }
    }
    Ok(text)
}

/// This grading's target folder: the warm one's files hard-linked (instant, whatever its size)
/// in folders of its own. Cargo never writes into a fresh dependency's files, and the warm files
/// are read-only; the few files Cargo rewrites in place are copied instead.
pub fn copy_target(from: &Path, to: &Path) -> Result<(), GradeError> {
    run_tool(
        Command::new("cp").arg("-al").arg(from).arg(to),
        &format!("linking {} to {}", from.display(), to.display()),
    )?;
    for dir in [to.to_path_buf(), to.join("debug")] {
        for name in [".rustc_info.json", ".cargo-lock", "CACHEDIR.TAG"] {
            let path = dir.join(name);
            if path.exists() {
                let bytes = fs::read(&path).map_err(|e| io_err(&path, e))?;
                fs::remove_file(&path).map_err(|e| io_err(&path, e))?;
                fs::write(&path, bytes).map_err(|e| io_err(&path, e))?;
            }
        }
    }
    Ok(())
}

/// The largest finished warm target of another exercise, if any. Most exercises share most of
/// their dependencies (wgpu, egui, …), so starting from one compiles them once for all exercises
/// instead of once each.
fn donor_target(own: &Path) -> Option<PathBuf> {
    let parent = own.parent()?;
    fs::read_dir(parent)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|d| d != own && d.join("stamp").is_file() && d.join("target/debug/deps").is_dir())
        .max_by_key(|d| {
            fs::read_dir(d.join("target/debug/deps")).map_or(0, |entries| entries.count())
        })
        .map(|d| d.join("target"))
}

/// Runs one way of seeding `target`; half a seed is worse than none (the next warm start would
/// build on it), so a failure removes it.
fn seed(target: &Path, how: impl FnOnce() -> Result<(), GradeError>) -> Result<(), GradeError> {
    how().inspect_err(|_| {
        let _ = fs::remove_dir_all(target);
    })
}

/// The crates whose artifacts a warm build may rewrite in place: every course crate (copied
/// afresh for each exercise, so rebuilt under the same file names) and the exercise itself, as
/// the file-name prefixes of their artifacts.
fn own_crates(root: &Path, ex: &Exercise) -> Result<Vec<String>, GradeError> {
    let mut names: Vec<String> = workspace::course_crates(root)?
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    names.push(ex.package());
    Ok(names
        .iter()
        .map(|n| n.replace('-', "_"))
        .flat_map(|n| [format!("lib{n}-"), format!("{n}-")])
        .collect())
}

/// A seed that costs almost no disk: the donor's registry crates' artifacts in `debug/deps`
/// hard-linked (read-only; Cargo never rewrites a fresh unit's files, and a dependency built
/// with other features gets files of another name), every other file (the course crates'
/// artifacts, fingerprints, build-script outputs) copied, writable and with the donor's
/// modification time, so that Cargo's own freshness check decides what to rebuild.
fn link_seed(donor: &Path, to: &Path, own: &[String]) -> Result<(), GradeError> {
    link_seed_dir(donor, to, Path::new(""), own)
}

/// One folder of `link_seed` (empty folders included, as `cp -R` would make them).
fn link_seed_dir(donor: &Path, to: &Path, rel: &Path, own: &[String]) -> Result<(), GradeError> {
    use std::os::unix::fs::PermissionsExt;
    let dir = to.join(rel);
    fs::create_dir_all(&dir).map_err(|e| io_err(&dir, e))?;
    let entries = fs::read_dir(donor.join(rel)).map_err(|e| io_err(&donor.join(rel), e))?;
    for entry in entries {
        let entry = entry.map_err(|e| io_err(&donor.join(rel), e))?;
        let rel = rel.join(entry.file_name());
        let (from, dest) = (donor.join(&rel), to.join(&rel));
        let meta = fs::metadata(&from).map_err(|e| io_err(&from, e))?;
        if meta.is_dir() {
            link_seed_dir(donor, to, &rel, own)?;
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        // Only finished, read-only files are shared: a file still writable may yet change.
        let registry_artifact = rel.starts_with("debug/deps")
            && !own.iter().any(|prefix| name.starts_with(prefix.as_str()))
            && meta.permissions().mode() & 0o222 == 0;
        if registry_artifact {
            fs::hard_link(&from, &dest).map_err(|e| io_err(&dest, e))?;
            continue;
        }
        fs::copy(&from, &dest).map_err(|e| io_err(&dest, e))?;
        let mut mode = meta.permissions();
        mode.set_mode(mode.mode() | 0o200);
        fs::set_permissions(&dest, mode).map_err(|e| io_err(&dest, e))?;
        let modified = meta.modified().map_err(|e| io_err(&from, e))?;
        fs::File::options()
            .write(true)
            .open(&dest)
            .and_then(|f| f.set_modified(modified))
            .map_err(|e| io_err(&dest, e))?;
    }
    Ok(())
}

/// A writable copy of the whole donor (the fallback when a build on a linked seed fails) that
/// keeps the donor's modification times, so Cargo's own freshness check decides what to rebuild.
fn copy_seed(donor: &Path, to: &Path) -> Result<(), GradeError> {
    run_tool(
        Command::new("cp")
            .args(["-R", "--preserve=timestamps"])
            .arg(donor)
            .arg(to),
        &format!("copying {} to {}", donor.display(), to.display()),
    )?;
    make_writable(to)
}

/// Replaces each file of `target` that is byte for byte the donor's file at the same place by a
/// hard link to it. Both are finished and read-only, so nothing writes through the link; without
/// this, every exercise's warm folder holds its own full copy of the shared dependencies (about
/// 1.5 GB each, 27 exercises: more than a 2-core CI machine's disk).
fn share_unchanged_files(donor: &Path, target: &Path) -> Result<(), GradeError> {
    for rel in catalog::files_under(target)? {
        let (ours, theirs) = (target.join(&rel), donor.join(&rel));
        let (Ok(a), Ok(b)) = (fs::metadata(&ours), fs::metadata(&theirs)) else {
            continue;
        };
        use std::os::unix::fs::MetadataExt;
        let linked = a.dev() == b.dev() && a.ino() == b.ino();
        if linked || a.len() != b.len() || !b.is_file() {
            continue;
        }
        let same = fs::read(&ours).map_err(|e| io_err(&ours, e))?
            == fs::read(&theirs).map_err(|e| io_err(&theirs, e))?;
        if same {
            fs::remove_file(&ours).map_err(|e| io_err(&ours, e))?;
            fs::hard_link(&theirs, &ours).map_err(|e| io_err(&ours, e))?;
        }
    }
    Ok(())
}

fn make_writable(to: &Path) -> Result<(), GradeError> {
    run_tool(
        Command::new("chmod").args(["-R", "u+w"]).arg(to),
        &format!("making {} writable", to.display()),
    )
}

/// Runs a file tool (cp, chmod) to completion; its error output becomes the error's text.
fn run_tool(cmd: &mut Command, what: &str) -> Result<(), GradeError> {
    let out = cmd.output().map_err(|source| GradeError::Sandbox {
        what: format!("starting the tool for {what}"),
        source,
    })?;
    if !out.status.success() {
        return Err(GradeError::Setup(format!(
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(())
}
