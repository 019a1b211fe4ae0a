//! `doctor` and `test`'s preflight on a machine that lacks Xvfb, actionlint and a Vulkan driver:
//! both name exactly those, with the install command, and `test` stops before compiling anything.
//! The machine is faked by a `PATH` of links that leaves the two programs out, and by pointing
//! the Vulkan loader's driver list at a file that does not exist.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::text;
use xtask::util::root;

const REMOVED: [&str; 2] = ["Xvfb", "actionlint"];

/// A folder of links to every program on `PATH`, except `REMOVED`.
fn path_without_removed() -> PathBuf {
    let dir = root().join("target/xtask-tests/path-without-xvfb");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut seen = BTreeSet::new();
    let path = std::env::var_os("PATH").unwrap_or_default();
    for folder in std::env::split_paths(&path) {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if REMOVED.contains(&name.as_str()) || !seen.insert(name.clone()) {
                continue;
            }
            let _ = std::os::unix::fs::symlink(entry.path(), dir.join(&name));
        }
    }
    dir
}

fn xtask(args: &[&str], path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env("PATH", path)
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .env_remove("VK_ICD_FILENAMES")
        .output()
        .expect("the xtask binary runs")
}

#[test]
fn doctor_names_each_missing_tool_with_its_install_command_and_is_not_ready() {
    let out = xtask(&["doctor"], &path_without_removed());
    let log = text(&out);
    assert!(!out.status.success(), "{log}");
    assert!(!log.contains("Ready"), "{log}");
    assert!(log.contains("MISSING Xvfb"), "{log}");
    assert!(log.contains("MISSING actionlint"), "{log}");
    assert!(log.contains("MISSING Vulkan driver"), "{log}");
    assert!(log.contains("ok      valgrind"), "{log}");
    if xtask::requirements::System::current() == xtask::requirements::System::Debian {
        assert!(
            log.contains("sudo apt-get install mesa-vulkan-drivers xvfb"),
            "{log}"
        );
    }
}

#[test]
fn test_stops_before_compiling_with_the_install_commands() {
    let out = xtask(&["test", "--no-install"], &path_without_removed());
    let log = text(&out);
    assert!(!out.status.success(), "{log}");
    assert!(log.contains("lacks 3 thing(s)"), "{log}");
    for name in ["Xvfb", "actionlint", "Vulkan driver"] {
        assert!(log.contains(&format!("  - {name}")), "{log}");
    }
    assert!(log.contains("Install them with:"), "{log}");
    // Nothing after the preflight ran: no formatting check, no build.
    assert!(!log.contains("checking formatting"), "{log}");
    assert!(!log.contains("Compiling"), "{log}");
}
