//! Where a measurement comes from: the commit (and whether the tree differs from it) and how busy
//! the machine was. Both the flags' checks (`args`) and the sidecars (`output`) read them, so
//! they live apart from both.

use std::fs;

/// The commit being measured and whether the working tree differs from it.
#[derive(Clone, Debug, PartialEq)]
pub struct GitState {
    pub commit: String,
    pub dirty: bool,
}

/// `$COURSE_COMMIT` when set (a binary built from a clean checkout and run on a machine without
/// the repository), else what git says about the current directory; `None` outside git.
pub fn git_state() -> Option<GitState> {
    if let Ok(commit) = std::env::var("COURSE_COMMIT") {
        return Some(match commit.strip_suffix("-dirty") {
            Some(c) => GitState {
                commit: c.to_owned(),
                dirty: true,
            },
            None => GitState {
                commit,
                dirty: false,
            },
        });
    }
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let commit = run(&["rev-parse", "--short=12", "HEAD"])?;
    let dirty =
        run(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(GitState { commit, dirty })
}

/// The current commit, with "-dirty" when the tree has uncommitted changes ("unknown" outside git).
pub fn git_commit() -> String {
    match git_state() {
        Some(GitState {
            commit,
            dirty: true,
        }) => format!("{commit}-dirty"),
        Some(GitState { commit, .. }) => commit,
        None => "unknown".into(),
    }
}

/// The 1-, 5- and 15-minute load averages (Linux only).
pub fn load_average() -> Option<[f64; 3]> {
    let text = fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}
