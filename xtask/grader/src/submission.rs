//! Taking a submission: only regular `src/**` `.rs` and `.wgsl` files, within size limits.
//! Everything else (manifests, lock files, build scripts, `.cargo/`, toolchain files, tests,
//! nextest config, symlinks) is left behind and reported.

use std::fs;
use std::path::{Component, Path, PathBuf};

const MAX_FILE_BYTES: u64 = 256 * 1024;
const MAX_TOTAL_BYTES: u64 = 2 * 1024 * 1024;
const MAX_FILES: usize = 200;
const MAX_DEPTH: usize = 8;
/// How many ignored paths the report lists before it summarises.
const MAX_LISTED: usize = 40;

/// Why a submission folder could not be read at all (said to the student).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotTaken(pub String);

/// The source files taken (path relative to `src/`, contents) and what was ignored.
pub struct Taken {
    pub files: Vec<(PathBuf, Vec<u8>)>,
    pub ignored: Vec<String>,
}

/// Reads a submission folder: the exercise's crate folder, holding `src/`.
pub fn take(dir: &Path) -> Result<Taken, NotTaken> {
    let meta = fs::symlink_metadata(dir).map_err(|e| {
        NotTaken(format!(
            "the submission {} cannot be read: {e}",
            dir.display()
        ))
    })?;
    if !meta.is_dir() {
        return Err(NotTaken(format!(
            "the submission {} is not a folder",
            dir.display()
        )));
    }
    let mut taken = Taken {
        files: Vec::new(),
        ignored: Vec::new(),
    };
    let mut total = 0u64;
    walk(dir, dir, 0, &mut taken, &mut total)?;
    taken.files.sort();
    if taken.ignored.len() > MAX_LISTED {
        let more = taken.ignored.len() - MAX_LISTED;
        taken.ignored.truncate(MAX_LISTED);
        taken.ignored.push(format!("… and {more} more"));
    }
    Ok(taken)
}

fn walk(
    base: &Path,
    dir: &Path,
    depth: usize,
    taken: &mut Taken,
    total: &mut u64,
) -> Result<(), NotTaken> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| NotTaken(format!("{}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let rel = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
        let shown = rel.to_string_lossy().into_owned();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            taken.ignored.push(format!("{shown} (unreadable)"));
            continue;
        };
        let in_src = rel.components().next() == Some(Component::Normal("src".as_ref()));
        if meta.is_dir() {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if name == "target" || name == ".git" {
                continue;
            }
            if depth >= MAX_DEPTH {
                taken
                    .ignored
                    .push(format!("{shown}/ (folders nested too deep)"));
            } else {
                walk(base, &path, depth + 1, taken, total)?;
            }
            continue;
        }
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        let why = if !in_src {
            Some("not under src/")
        } else if !meta.is_file() {
            Some("not a regular file")
        } else if ext != "rs" && ext != "wgsl" {
            Some("not a .rs or .wgsl file")
        } else if !sane(&rel) {
            Some("unusual file name")
        } else if meta.len() > MAX_FILE_BYTES {
            Some("larger than 256 KiB")
        } else if *total + meta.len() > MAX_TOTAL_BYTES {
            Some("over the 2 MiB total")
        } else if taken.files.len() >= MAX_FILES {
            Some("over 200 files")
        } else {
            None
        };
        match why {
            Some(reason) => taken.ignored.push(format!("{shown} ({reason})")),
            None => {
                let bytes = fs::read(&path).map_err(|e| NotTaken(format!("{shown}: {e}")))?;
                *total += bytes.len() as u64;
                let inner = rel.strip_prefix("src").unwrap_or(&rel).to_path_buf();
                taken.files.push((inner, bytes));
            }
        }
    }
    Ok(())
}

/// An exercise's reference solution as the grader builds it: the stub's `src/` files with
/// `grading/solution/`'s laid over them, sorted by path.
pub fn solved_stub(exercise_dir: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>, NotTaken> {
    let mut files = take(exercise_dir)?.files;
    for (rel, bytes) in take_folder(&exercise_dir.join("grading/solution"))? {
        files.retain(|(r, _)| *r != rel);
        files.push((rel, bytes));
    }
    files.sort();
    Ok(files)
}

/// The regular files under a staff folder (a reference solution), paths relative to it.
pub fn take_folder(dir: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>, NotTaken> {
    let files = student::catalog::files_under(dir).map_err(|e| NotTaken(e.to_string()))?;
    files
        .into_iter()
        .map(|rel| {
            let path = dir.join(&rel);
            let bytes =
                fs::read(&path).map_err(|e| NotTaken(format!("{}: {e}", path.display())))?;
            Ok((rel, bytes))
        })
        .collect()
}

/// Plain names only: letters, digits, `_`, `-`, `.`; no hidden files.
fn sane(rel: &Path) -> bool {
    rel.components().all(|c| match c {
        Component::Normal(name) => name.to_str().is_some_and(|n| {
            !n.starts_with('.')
                && n.chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "_-.".contains(ch))
        }),
        _ => false,
    })
}

/// Reasons to refuse a submission before building it: macros that read other files at compile
/// time. `include_str!("name.wgsl")` of a file next to the source is allowed (that is how a
/// crate loads its shaders); any other path, `include!`, or renaming these macros is refused.
/// (The build also runs with the staff's exercise folders hidden; this gives a clear message.)
pub fn forbidden_uses(files: &[(PathBuf, Vec<u8>)]) -> Vec<String> {
    let mut found = Vec::new();
    for (path, bytes) in files {
        let text = String::from_utf8_lossy(bytes);
        for word in ["include_str", "include_bytes", "include"] {
            for rest in macro_uses(&text, word) {
                if word != "include" && local_literal(rest) {
                    continue;
                }
                found.push(format!(
                    "src/{} uses `{word}`: a submission may only include files next to it, by a plain \
                     name like include_str!(\"kernel.wgsl\")",
                    path.display()
                ));
                break;
            }
        }
    }
    found
}

/// The text after each whole-word `word` that is a macro call (`word!`) or a renaming `use`.
fn macro_uses<'a>(text: &'a str, word: &str) -> Vec<&'a str> {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(pos) = text[start..].find(word) {
        let at = start + pos;
        let end = at + word.len();
        let before_ok = at == 0 || !ident(bytes[at - 1]);
        let after_ok = end >= bytes.len() || !ident(bytes[end]);
        if before_ok && after_ok {
            let rest = text[end..].trim_start();
            if let Some(call) = rest.strip_prefix('!') {
                out.push(call);
            } else if rest.starts_with("as ") || rest.starts_with([',', '}', ';']) {
                out.push("");
            }
        }
        start = end;
    }
    out
}

/// `("file.wgsl")`: one plain literal naming a file in the same folder or below, no `..`.
fn local_literal(call: &str) -> bool {
    let Some(inner) = call.trim_start().strip_prefix('(') else {
        return false;
    };
    let Some(inner) = inner.trim_start().strip_prefix('"') else {
        return false;
    };
    let Some((name, after)) = inner.split_once('"') else {
        return false;
    };
    let plain = !name.is_empty()
        && !name.starts_with('/')
        && !name.split('/').any(|part| part.is_empty() || part == "..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c));
    plain && after.trim_start().starts_with(')')
}
