//! `cargo xtask figures --check`: every sidecar `figures/*.json` names the code that made it.
//!
//! A measured figure's sidecar must name a clean commit that exists and contains its `program`,
//! say which `machine` and `adapter` (null for CPU figures) measured it, and sit beside its data
//! and chart (`files`, or `<figure>.csv` and `<figure>.svg`). A drawn figure (`"kind":
//! "diagram"`) needs only its `source` to exist. A JSON file that a sidecar lists in its `files`
//! is data (a Chrome trace, the graphs a PyTorch baseline read), not a sidecar.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Debug, Deserialize)]
struct Sidecar {
    figure: Option<String>,
    kind: Option<String>,
    source: Option<String>,
    program: Option<String>,
    commit: Option<String>,
    #[serde(default)]
    dirty: bool,
    files: Option<Vec<String>>,
}

/// Checks every `*.json` in `dir` against the git repository at `repo`; one line per problem.
pub fn check_dir(repo: &Path, dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut sidecars: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    sidecars.sort();
    let data: Vec<PathBuf> = sidecars
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter_map(|t| serde_json::from_str::<Sidecar>(&t).ok())
        .flat_map(|s| s.files.unwrap_or_default())
        .map(|f| dir.join(f))
        .collect();
    sidecars.retain(|p| !data.contains(p));
    let mut problems = Vec::new();
    for path in &sidecars {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        problems.extend(
            check_one(repo, dir, path)
                .into_iter()
                .map(|p| format!("{name}: {p}")),
        );
    }
    Ok(problems)
}

fn check_one(repo: &Path, dir: &Path, path: &Path) -> Vec<String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return vec![format!("cannot read it: {e}")],
    };
    let keys: Map<String, Value> = match serde_json::from_str(&text) {
        Ok(k) => k,
        Err(e) => return vec![format!("not a JSON object: {e}")],
    };
    let sidecar: Sidecar = match serde_json::from_value(Value::Object(keys.clone())) {
        Ok(s) => s,
        Err(e) => return vec![format!("unexpected field type: {e}")],
    };
    if sidecar.kind.as_deref() == Some("diagram") {
        return match &sidecar.source {
            Some(source) if repo.join(source).exists() => vec![],
            Some(source) => vec![format!("its diagram source `{source}` does not exist")],
            None => vec!["a diagram sidecar names its `source`".into()],
        };
    }
    let mut problems = Vec::new();
    for key in ["machine", "adapter"] {
        if !keys.contains_key(key) {
            problems.push(format!(
                "no `{key}` field (null is fine for `adapter` of a CPU figure)"
            ));
        }
    }
    match sidecar.commit.as_deref() {
        None => problems.push("no `commit` field".into()),
        Some(commit) if commit.ends_with("-dirty") || sidecar.dirty => problems.push(format!(
            "made from a dirty tree ({commit}): regenerate it from a clean commit"
        )),
        Some(commit) if !git_has(repo, &format!("{commit}^{{commit}}")) => {
            problems.push(format!("commit {commit} is not in this repository"));
        }
        Some(commit) => match sidecar.program.as_deref() {
            None => problems.push("no `program` field naming the figure program's source".into()),
            Some(program) if !git_has(repo, &format!("{commit}:{program}")) => problems.push(
                format!("commit {commit} does not contain its program `{program}`"),
            ),
            Some(_) => {}
        },
    }
    let stem = sidecar.figure.clone().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let files = sidecar
        .files
        .clone()
        .unwrap_or_else(|| vec![format!("{stem}.csv"), format!("{stem}.svg")]);
    for file in files {
        if !dir.join(&file).is_file() {
            problems.push(format!("`{file}` is missing beside it"));
        }
    }
    problems
}

/// `git cat-file -e OBJECT`: the commit, or the path in that commit, exists.
fn git_has(repo: &Path, object: &str) -> bool {
    Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["cat-file", "-e", object])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
