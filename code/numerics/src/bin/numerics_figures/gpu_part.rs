//! The WGSL dot product on whatever adapter there is, beside its CPU emulation.

use bench_harness::{Csv, Figure, Sidecar};
use half::f16;
use numerics::gpu_dot::{Accumulator, emulate, gpu_dot, open_f16_context};
use numerics::summation::relative_error;

fn inputs(n: usize, seed: u64) -> Vec<f16> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let z = (state ^ (state >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            f16::from_f32(((z ^ (z >> 29)) >> 40) as f32 / (1u64 << 24) as f32)
        })
        .collect()
}

/// Errors of the GPU kernel and of its emulation against the exact dot product. The table is
/// `numerics_gpu_dot_<tag>`, tagged `lavapipe` on a software adapter and `gpu` otherwise.
pub fn gpu_dot_table(quick: bool) -> anyhow::Result<()> {
    let ctx = match open_f16_context() {
        Ok(ctx) => Some(ctx),
        Err(e) => {
            eprintln!("gpu_dot: {e}\n(only the CPU emulation runs)");
            None
        }
    };
    let tag = match &ctx {
        Some(c) if c.report().is_software() => "lavapipe",
        Some(_) => "gpu",
        None => "emulation_only",
    };
    let name = format!("numerics_gpu_dot_{tag}");
    let mut csv = Csv::new(&[
        "n",
        "accumulator",
        "exact",
        "gpu",
        "emulation",
        "gpu_relative_error",
        "emulation_relative_error",
    ]);
    let top = if quick { 14 } else { 20 };
    for p in (8..=top).step_by(2) {
        let n = 1usize << p;
        let (a, b) = (inputs(n, 11), inputs(n, 5));
        let exact: f64 = a.iter().zip(&b).map(|(x, y)| x.to_f64() * y.to_f64()).sum();
        for acc in [Accumulator::F32, Accumulator::F16] {
            let emulated = f64::from(emulate(&a, &b, acc)?);
            let gpu = match &ctx {
                Some(ctx) => Some(f64::from(gpu_dot(ctx, &a, &b, acc)?)),
                None => None,
            };
            let cell = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{v:e}"));
            csv.row(&[
                n.to_string(),
                acc.name().into(),
                format!("{exact:e}"),
                cell(gpu),
                format!("{emulated:e}"),
                cell(gpu.map(|g| relative_error(g, exact))),
                format!("{:e}", relative_error(emulated, exact)),
            ]);
            println!(
                "gpu_dot n={n:>8} {}: gpu {} emulation {emulated:.6e} exact {exact:.6e}",
                acc.name(),
                cell(gpu)
            );
        }
    }
    let mut sidecar = Sidecar::new(
        &name,
        "WGSL dot product over f16 storage, f32 or f16 accumulator, against a CPU emulation",
    );
    if let Some(ctx) = &ctx {
        sidecar.set_adapter(ctx.report());
    }
    sidecar.files = vec![format!("{name}.csv")]; // a table, no chart
    Figure::new(sidecar).table(&csv).write()?;
    Ok(())
}
