//! What every part names its files with and writes beside them: kept out of `main.rs`, which
//! calls the parts, so that the parts need not reach back into it.

use bench_harness::{FigureArgs, Sidecar};

/// File names carry the machine label when one is given (`quant_vm2core_noise`).
pub fn figure_name(args: &FigureArgs, name: &str) -> String {
    args.figure_name("quant", name)
}

/// A sidecar naming the files its figure wrote beside it, and the part's file (the caller) as
/// its program.
#[track_caller]
pub fn sidecar(name: &str, description: &str, notes: Vec<String>, files: &[String]) -> Sidecar {
    Sidecar::new(name, description)
        .with_notes(notes)
        .with_files(files)
}
