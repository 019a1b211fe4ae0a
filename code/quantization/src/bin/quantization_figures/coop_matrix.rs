//! wgpu's experimental cooperative matrices: what the adapter reports, and where it runs them,
//! a checked and timed GEMM beside the tiled WGSL kernels (`tile_b` strided and padded) on the
//! same device.

use bench_harness::{Csv, FigureArgs, Sidecar, figures_dir};
use gpu_context::GpuContext;
use quantization::coop_matrix::{CoopGpu, Prepared, check_exact, reference, small_integer_matrix};
use quantization::gemm::{GemmKind, TileLayout};

use crate::output::figure_name;

/// Five timed submissions of `reps` products each, sorted (seconds per product).
fn samples(gpu: &CoopGpu, p: &Prepared, reps: usize) -> anyhow::Result<Vec<f64>> {
    gpu.time(p, reps)?; // warm-up
    let mut s = (0..5)
        .map(|_| gpu.time(p, reps))
        .collect::<Result<Vec<_>, _>>()?;
    s.sort_by(f64::total_cmp);
    Ok(s)
}

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let name = figure_name(args, "coop_matrix");
    let configs_name = figure_name(args, "coop_matrix_configs");
    let mut csv = Csv::new(&["kernel", "n", "median_s", "p10_s", "p90_s", "tops"]);
    let mut configs = Csv::new(&["m", "n", "k", "ab_type", "cr_type", "saturating"]);
    let mut notes = Vec::new();
    match CoopGpu::open() {
        Err(e) => {
            eprintln!("coop-matrix: {e}");
            notes.push(format!("not measured: {e}"));
        }
        Ok(gpu) => {
            for c in &gpu.configs {
                configs.row(&[
                    c.m_size.to_string(),
                    c.n_size.to_string(),
                    c.k_size.to_string(),
                    format!("{:?}", c.ab_type),
                    format!("{:?}", c.cr_type),
                    c.saturating_accumulation.to_string(),
                ]);
            }
            notes.push(format!("cooperative matrices on {}", gpu.adapter_name()));
            notes.push(
                "inputs are small integers (-2..=2), so a correct kernel equals the CPU product \
                 exactly; each kernel is checked at 256×256×256 before it is timed"
                    .into(),
            );
            notes.push(
                "times: CPU clock from submission to completion of 5 submissions of several \
                 products (median, min as p10, max as p90); tops counts 2·n³ operations"
                    .into(),
            );
            measure(args, &gpu, &mut csv, &mut notes)?;
        }
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    configs.write(&dir.join(format!("{configs_name}.csv")))?;
    for (figure, what) in [
        (
            &name,
            "Cooperative-matrix GEMM through wgpu 30 against the tiled WGSL GEMM",
        ),
        (
            &configs_name,
            "Cooperative-matrix configurations the adapter reports to wgpu 30",
        ),
    ] {
        // Tables, no chart.
        let mut s = Sidecar::new(figure, what)
            .with_adapter(ctx.report())
            .with_notes(notes.clone());
        s.files = vec![format!("{figure}.csv")];
        s.write(&dir.join(format!("{figure}.json")))?;
    }
    Ok(())
}

fn measure(
    args: &FigureArgs,
    gpu: &CoopGpu,
    csv: &mut Csv,
    notes: &mut Vec<String>,
) -> anyhow::Result<()> {
    let shapes = gpu.usable();
    if shapes.is_empty() {
        notes.push(format!(
            "no configuration fits this GEMM: {:?}",
            gpu.configs
        ));
        return Ok(());
    }
    let sizes: &[usize] = if args.quick {
        &[256]
    } else {
        &[1024, 2048, 4096]
    };
    let check = 256;
    let (a, b) = (
        small_integer_matrix(check, check, 1),
        small_integer_matrix(check, check, 2),
    );
    let want = reference(&a, &b, check, check, check);
    type Prepare<'g> = Box<
        dyn Fn(&[f32], &[f32], usize) -> Result<Prepared, quantization::coop_matrix::CoopError>
            + 'g,
    >;
    let mut kernels: Vec<Prepare> = Vec::new();
    for shape in shapes {
        kernels.push(Box::new(move |a, b, n| {
            gpu.prepare_coop(shape, a, b, (n, n, n))
        }));
    }
    for kind in [GemmKind::F16, GemmKind::F32] {
        for layout in [TileLayout::Strided, TileLayout::Padded] {
            kernels.push(Box::new(move |a, b, n| {
                gpu.prepare_tiled(kind, layout, a, b, (n, n, n))
            }));
        }
    }
    for prepare in &kernels {
        let checked = prepare(&a, &b, check)
            .and_then(|p| Ok((gpu.result(&p)?, p)))
            .and_then(|(got, p)| check_exact(&p.label, &got, &want, check).map(|()| p.label));
        let label = match checked {
            Ok(label) => label,
            Err(e) => {
                eprintln!("coop-matrix: {e}");
                notes.push(format!("not timed: {e}"));
                continue;
            }
        };
        for &n in sizes {
            let (a, b) = (small_integer_matrix(n, n, 3), small_integer_matrix(n, n, 4));
            let p = prepare(&a, &b, n)?;
            let reps = if label.starts_with("tiled") && n >= 2048 {
                3
            } else {
                10
            };
            let s = samples(gpu, &p, reps)?;
            let tops = p.ops / s[2] / 1e12;
            eprintln!("coop-matrix {label} n={n}: {tops:.2} T(FL)OP/s");
            csv.row(&[
                label.clone(),
                n.to_string(),
                format!("{:.6e}", s[2]),
                format!("{:.6e}", s[0]),
                format!("{:.6e}", s[4]),
                format!("{tops:.4}"),
            ]);
        }
    }
    Ok(())
}
