//! For students: `progress` (each exercise, how many of its public tests pass, minutes) and
//! `hint ID` (the next hint, one at a time; which were shown is kept in `target/`).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::catalog;
use crate::error::StudentError;
use crate::junit;

pub fn progress(root: &Path) -> Result<(), StudentError> {
    let exercises = catalog::all(root)?;
    let dir = root.join("target/exercise-progress");
    let config = dir.join("nextest.toml");
    catalog::write(
        &config,
        &format!(
            "[store]\ndir = {}\n\n[test-groups]\ngpu = {{ max-threads = 1 }}\n\n[profile.progress]\n\
             fail-fast = false\nretries = 0\nstatus-level = \"none\"\nfinal-status-level = \"none\"\n\
             failure-output = \"never\"\nslow-timeout = {{ period = \"30s\", terminate-after = 2 }}\n\n\
             [[profile.progress.overrides]]\nfilter = \"rdeps(gpu_context)\"\ntest-group = \"gpu\"\n\n\
             [profile.progress.junit]\npath = \"junit.xml\"\n",
            toml_string(&dir.join("store").display().to_string())
        ),
    )?;
    println!("Running the public tests of {} exercises…", exercises.len());
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args([
        "nextest",
        "run",
        "--profile",
        "progress",
        "--no-fail-fast",
        "--config-file",
    ]);
    cmd.arg(&config);
    // Only the exercise packages are built, not the rest of the workspace.
    for ex in &exercises {
        cmd.args(["-p", &ex.package()]);
    }
    let status = cmd
        .args(["-E", "binary(public)"])
        .env("NEXTEST_HIDE_PROGRESS_BAR", "1")
        .current_dir(root)
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|source| StudentError::Start {
            what: "cargo nextest (install it: `cargo install cargo-nextest --locked`)".into(),
            source,
        })?;
    let xml = fs::read_to_string(dir.join("store/progress/junit.xml")).unwrap_or_default();
    if xml.is_empty() {
        return Err(StudentError::Invalid(format!(
            "the exercises did not build (cargo nextest exited with {status}); run `cargo build --workspace` to see why"
        )));
    }
    let cases = junit::parse(&xml).map_err(|source| StudentError::Report {
        path: dir.join("store/progress/junit.xml"),
        source,
    })?;
    let hints = load_hints(root);
    println!(
        "\n| exercise | public tests passing | minutes | hints seen |\n| --- | --- | --- | --- |"
    );
    for ex in &exercises {
        let suite = format!("{}::public", ex.package());
        let mine: Vec<_> = cases.iter().filter(|c| c.suite == suite).collect();
        let passing = mine.iter().filter(|c| c.failure.is_none()).count();
        let mark = if !mine.is_empty() && passing == mine.len() {
            " ✓"
        } else {
            ""
        };
        println!(
            "| {} — {} | {passing}/{}{mark} | {} | {}/{} |",
            ex.id,
            ex.meta.title,
            mine.len(),
            ex.meta.minutes,
            hints.get(&ex.id).copied().unwrap_or(0),
            ex.meta.hints.len()
        );
    }
    println!("\nPublic tests passing is a good sign, not a grade: the hidden tests check more.");
    Ok(())
}

pub fn hint(root: &Path, id: &str) -> Result<(), StudentError> {
    let ex = catalog::find(root, id)?;
    let mut shown = load_hints(root);
    let seen = shown.get(&ex.id).copied().unwrap_or(0);
    let total = ex.meta.hints.len();
    if seen >= total {
        println!(
            "Hint {total} of {total} (there are no more):\n\n{}",
            ex.meta.hints[total - 1]
        );
        return Ok(());
    }
    println!("Hint {} of {total}:\n\n{}", seen + 1, ex.meta.hints[seen]);
    shown.insert(ex.id.clone(), seen + 1);
    let text = serde_json::to_string_pretty(&shown)
        .map_err(|e| StudentError::Invalid(format!("writing the hints seen: {e}")))?;
    catalog::write(&state_file(root), &text)
}

fn state_file(root: &Path) -> std::path::PathBuf {
    root.join("target/exercise-hints.json")
}

fn load_hints(root: &Path) -> BTreeMap<String, usize> {
    fs::read_to_string(state_file(root))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// A TOML string holding `text`, quoted and escaped by the `toml` crate: a Windows path's
/// backslashes (`C:\Users\…`) would otherwise be read as escapes and the config refused.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_windows_path_survives_the_nextest_config() {
        let path = r"C:\Users\ada\course\target\exercise-progress\store";
        let config = format!("[store]\ndir = {}\n", toml_string(path));
        let parsed: toml::Table = toml::from_str(&config).unwrap();
        assert_eq!(parsed["store"]["dir"].as_str(), Some(path));
    }
}
