//! `cargo xtask doctor` on a machine with no GPU adapter: it must say what to install and fail.

use std::process::Command;

#[test]
fn doctor_without_any_adapter_says_what_to_install_and_fails() {
    // Only Vulkan, and a Vulkan loader that finds no driver: no adapter of any kind.
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("doctor")
        .env("WGPU_BACKEND", "vulkan")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .output()
        .expect("the xtask binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "doctor passed without an adapter:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("MISSING GPU adapter"), "{stdout}");
    assert!(
        stdout.contains("sudo apt install mesa-vulkan-drivers"),
        "{stdout}"
    );
    assert!(stderr.contains("needed piece(s) missing"), "{stderr}");
}
