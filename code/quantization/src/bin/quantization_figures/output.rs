//! What every part names its files with and writes beside them: kept out of `main.rs`, which
//! calls the parts, so that the parts need not reach back into it.

use bench_harness::{FigureArgs, Sidecar};
use gpu_context::GpuContext;

/// File names carry the machine label when one is given (`quant_h100_gemm`).
pub fn figure_name(args: &FigureArgs, name: &str) -> String {
    args.figure_name("quant", name)
}

/// The sidecar of a part's figure, with the adapter of a GPU part; the sidecar names the part's
/// file (the caller) as its program.
#[track_caller]
pub fn sidecar(
    name: &str,
    description: &str,
    ctx: Option<&GpuContext>,
    notes: Vec<String>,
) -> Sidecar {
    Sidecar::new(name, description)
        .with_adapter(ctx.map(|c| c.report()).as_ref())
        .with_notes(notes)
}
