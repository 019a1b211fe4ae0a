//! `cargo xtask doctor [--install]`: predicts the test run. It checks the toolchain and every
//! entry of `xtask/requirements.toml` (the same check `cargo xtask test` runs before compiling),
//! names the adapter the GPU tests will use, and says "Ready" only when nothing is missing.

use std::process::Command;

use anyhow::bail;

use crate::install::{self, Rights};
use crate::requirements::{self, Probe, assess};
use crate::util::{self, output};
use crate::{book, disk, local_tools};

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Install what is missing (system packages need root or password-less sudo).
    #[arg(long)]
    pub install: bool,
}

pub fn run(args: &DoctorArgs) -> anyhow::Result<()> {
    let requirements = requirements::all()?;
    let rights = Rights::of_this_machine();
    if args.install {
        install::ensure(&requirements, rights, true)?;
    }
    let probe = Probe::of_this_machine(&requirements);
    let missing = assess(&requirements, &probe, rights.system);
    let toolchain_ok = toolchain();
    for req in requirements.iter().filter(|r| r.applies_to(rights.system)) {
        if missing.iter().any(|m| std::ptr::eq(*m, req)) {
            println!("MISSING {}: {}", req.name, req.why);
            println!("        install: {}", req.command_for(rights.system));
        } else {
            println!("ok      {}", req.name);
        }
    }
    if probe.vulkan_driver {
        adapter();
    }
    if !rights.root {
        println!(
            "note    not root: `cargo xtask test` leaves out the grader's privileged tests; \
             CI (or you, as root) runs them with `cargo xtask test --privileged`"
        );
    }
    for (tool, version) in [book::MDBOOK, book::MDBOOK_KATEX] {
        match local_tools::installed_version(tool) {
            Some(found) if found == version => println!("ok      book tool {tool} {version}"),
            _ => println!(
                "note    book tool {tool} {version}: the first `cargo xtask book` (or `test`) \
                 builds it into {} (minutes)",
                local_tools::tools_bin().display()
            ),
        }
    }
    let target = disk::target_dir(&util::root());
    match disk::available_bytes(&target) {
        Some(free) => match disk::warning(free, &target) {
            Some(warning) => println!("{warning}"),
            None => println!("ok      disk: {:.0} GB free for target/", free as f64 / 1e9),
        },
        None => println!("        disk: free space not known on this system"),
    }
    if !missing.is_empty() || !toolchain_ok {
        bail!(
            "not ready: {}",
            install::missing_message(&missing, rights.system)
        );
    }
    println!(
        "\nReady. Read the book with `cargo xtask book --serve`; run the tests with `cargo xtask test`."
    );
    Ok(())
}

fn toolchain() -> bool {
    #[derive(serde::Deserialize)]
    struct File {
        toolchain: Toolchain,
    }
    #[derive(serde::Deserialize)]
    struct Toolchain {
        channel: String,
    }
    let pinned = std::fs::read_to_string(util::root().join("rust-toolchain.toml"))
        .ok()
        .and_then(|t| toml::from_str::<File>(&t).ok())
        .map(|f| f.toolchain.channel)
        .unwrap_or_default();
    let version = output(Command::new("rustc").arg("--version")).unwrap_or_default();
    if version.contains(&pinned) {
        println!("ok      Rust toolchain: {version}");
        true
    } else {
        println!("MISSING Rust toolchain {pinned} (found: {version:?})");
        println!("        install: rustup from https://rustup.rs; it reads rust-toolchain.toml");
        false
    }
}

/// The adapter wgpu will pick, as `vulkaninfo` lists the devices: a real GPU first, else a CPU one.
fn adapter() {
    let summary = output(Command::new("vulkaninfo").arg("--summary")).unwrap_or_default();
    match pick_adapter(&summary) {
        Some(a) => println!(
            "adapter the GPU tests will use: {} ({}, driver {}){}",
            a.name,
            a.kind,
            a.driver,
            if a.kind == "CPU" {
                ": software Vulkan, correct but slow"
            } else {
                ""
            }
        ),
        None => println!(
            "adapter unknown: `vulkaninfo --summary` lists no device (wgpu's own view: \
             `cargo run -p gpu_context --bin gpu_report`)"
        ),
    }
}

#[derive(Debug, PartialEq)]
pub struct Adapter {
    pub name: String,
    pub kind: String,
    pub driver: String,
}

/// The device wgpu prefers among those of `vulkaninfo --summary`: any non-CPU one, else the first.
pub fn pick_adapter(summary: &str) -> Option<Adapter> {
    let mut devices = Vec::new();
    for line in summary.lines().map(str::trim) {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().to_owned();
        match key.trim() {
            "deviceType" => devices.push(Adapter {
                name: String::new(),
                kind: value
                    .trim_start_matches("PHYSICAL_DEVICE_TYPE_")
                    .replace('_', " "),
                driver: String::new(),
            }),
            "deviceName" => devices.last_mut()?.name = value,
            "driverName" => devices.last_mut()?.driver = value,
            _ => {}
        }
    }
    let first_gpu = devices.iter().position(|d| d.kind != "CPU").unwrap_or(0);
    (first_gpu < devices.len()).then(|| devices.swap_remove(first_gpu))
}
