//! `egui_winit_wgpu_template`: run with `--help` for the flags.

fn main() -> std::process::ExitCode {
    egui_winit_wgpu_template::main_with_args(std::env::args().skip(1).collect())
}
