//! The judging half of the requirements check, on a hand-made machine: what is missing, the
//! commands printed for each system, who may install what, and which adapter `vulkaninfo` names.

use xtask::doctor::pick_adapter;
use xtask::install::{Rights, missing_message};
use xtask::requirements::{self, Detect, Probe, System, assess};

/// A machine that has everything the list asks for.
fn complete_machine(reqs: &[requirements::Requirement]) -> Probe {
    let mut probe = Probe {
        vulkan_driver: true,
        crates_fetched: true,
        ..Probe::default()
    };
    for req in reqs {
        match &req.detect {
            Detect::Program(p) => {
                probe.programs.insert(p.clone());
            }
            Detect::Libraries(l) => probe.libraries.extend(l.iter().cloned()),
            Detect::RustTarget(t) => {
                probe.rust_targets.insert(t.clone());
            }
            Detect::VulkanDriver | Detect::CratesFetched | Detect::Succeeds(_) => {}
        }
    }
    probe
}

#[test]
fn the_list_parses_and_a_complete_machine_lacks_nothing() {
    let reqs = requirements::all().unwrap();
    assert!(reqs.len() >= 12);
    for system in [
        System::Debian,
        System::Fedora,
        System::Macos,
        System::Windows,
    ] {
        assert!(assess(&reqs, &complete_machine(&reqs), system).is_empty());
    }
}

#[test]
fn a_missing_rust_target_is_named_with_its_rustup_command() {
    let reqs = requirements::all().unwrap();
    let mut probe = complete_machine(&reqs);
    probe.rust_targets.clear();
    let missing = assess(&reqs, &probe, System::Macos);
    assert_eq!(missing.len(), 1);
    assert_eq!(
        missing[0].command_for(System::Macos),
        "rustup target add wasm32-unknown-unknown"
    );
}

#[test]
fn a_missing_program_and_driver_are_named_with_commands_for_each_system() {
    let reqs = requirements::all().unwrap();
    let mut probe = complete_machine(&reqs);
    probe.programs.remove("Xvfb");
    probe.vulkan_driver = false;
    let missing = assess(&reqs, &probe, System::Debian);
    let names: Vec<&str> = missing.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].starts_with("Vulkan driver") && names[1] == "Xvfb");
    let debian = missing_message(&missing, System::Debian);
    assert!(
        debian.contains("sudo apt-get install mesa-vulkan-drivers xvfb"),
        "{debian}"
    );
    let fedora = missing_message(&missing, System::Fedora);
    assert!(
        fedora.contains("sudo dnf install xorg-x11-server-Xvfb"),
        "{fedora}"
    );
    // Linux-only needs are no needs on macOS.
    assert!(assess(&reqs, &probe, System::Macos).is_empty());
}

#[test]
fn system_packages_are_installed_only_by_an_admin_on_debian() {
    let reqs = requirements::all().unwrap();
    let xvfb = reqs.iter().find(|r| r.name == "Xvfb").unwrap();
    let fetch = reqs
        .iter()
        .find(|r| matches!(r.detect, Detect::CratesFetched))
        .unwrap();
    let user = Rights {
        system: System::Debian,
        admin: false,
        root: false,
    };
    let admin = Rights {
        admin: true,
        ..user
    };
    let fedora_admin = Rights {
        system: System::Fedora,
        ..admin
    };
    assert!(!user.can_install(xvfb));
    assert!(admin.can_install(xvfb));
    assert!(!fedora_admin.can_install(xvfb));
    assert!(user.can_install(fetch), "anyone can fetch crates");
}

#[test]
fn the_family_comes_from_os_release() {
    assert_eq!(
        System::from_os_release("ID=ubuntu\nID_LIKE=debian\n"),
        System::Debian
    );
    assert_eq!(
        System::from_os_release("ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n"),
        System::Fedora
    );
    assert_eq!(System::from_os_release("ID=arch\n"), System::Arch);
    assert_eq!(System::from_os_release("ID=alpine\n"), System::OtherLinux);
}

#[test]
fn the_adapter_is_a_hardware_device_before_lavapipe() {
    let summary = "Devices:\n========\nGPU0:\n\tdeviceType         = PHYSICAL_DEVICE_TYPE_CPU\n\tdeviceName         = llvmpipe (LLVM 15.0.6, 256 bits)\n\tdriverName         = llvmpipe\nGPU1:\n\tdeviceType         = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU\n\tdeviceName         = NVIDIA H100 80GB HBM3\n\tdriverName         = NVIDIA\n";
    let gpu = pick_adapter(summary).unwrap();
    assert_eq!(
        (gpu.name.as_str(), gpu.kind.as_str()),
        ("NVIDIA H100 80GB HBM3", "DISCRETE GPU")
    );
    let cpu_only = &summary[..summary.find("GPU1").unwrap()];
    assert_eq!(pick_adapter(cpu_only).unwrap().kind, "CPU");
    assert_eq!(pick_adapter("no devices"), None);
}
