//! `cargo run -p gpu_context --bin gpu_report`: which adapter would the course's GPU code use?
//! `cargo xtask doctor` runs this, so that the task runner itself does not have to build wgpu.

use std::process::ExitCode;

fn main() -> ExitCode {
    match gpu_context::GpuContext::new() {
        Ok(ctx) => {
            println!("{}", ctx.report());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
