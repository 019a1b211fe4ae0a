//! `cargo run -p first_gpu_program`: adds two vectors on the GPU and prints the adapter it used.

use std::process::ExitCode;

use gpu_context::GpuContext;

// ANCHOR: main
fn main() -> ExitCode {
    let ctx = match GpuContext::new() {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "running on {} ({})",
        ctx.report().name,
        ctx.report().backend
    );

    let a: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..8).map(|i| 100.0 * i as f32).collect();
    match first_gpu_program::add_vectors(&ctx, &a, &b) {
        Ok(sum) => {
            println!("{a:?}\n+ {b:?}\n= {sum:?}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
// ANCHOR_END: main
