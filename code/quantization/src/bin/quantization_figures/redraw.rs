//! `--redraw`: every chart drawn again from its table, by the chart code of the part that
//! measured it; what the measuring run's shape or GPU put in a subtitle comes from the sidecar.

use bench_harness::{Drawn, FigureArgs, Found};

use crate::{
    bits, energy, gemm, gemm_layout, narrowed, point_cloud, pruning, quant_linear, sparse,
    sparse_tuned,
};

/// Every source file whose figures this program wrote (the sidecars name the part's file).
const SOURCES: [&str; 1] = ["code/quantization/src/bin/quantization_figures/"];

/// Each figure's name after `quant_[machine_]`, and the part that writes it.
const FIGURES: [(&str, &str); 17] = [
    ("accuracy_bits", "bits"),
    ("gemm", "gemm"),
    ("energy_batch", "energy"),
    ("cpu_energy_probe", "cpu-energy"),
    ("cpu_energy_batch", "cpu-energy"),
    ("sparse_gpu", "sparse-gpu"),
    ("sparse_cpu", "sparse-cpu"),
    ("point_cloud_error", "point-cloud"),
    ("pruning_accuracy", "pruning"),
    ("sparse_tuned_cpu", "sparse-tuned-cpu"),
    ("linear_kernels", "quant-linear"),
    ("gemm_layout", "gemm-layout"),
    ("coop_matrix", "coop-matrix"),
    ("coop_matrix_configs", "coop-matrix"),
    ("octahedral_error", "small-formats"),
    ("shared_exponent", "small-formats"),
    ("narrowed_cpu", "narrowed-cpu"),
];

/// The figure's name without `quant_` and the machine label (`quant_h200_gemm` → `gemm`).
fn base_name(found: &Found) -> &str {
    let rest = found.name.strip_prefix("quant_").unwrap_or(&found.name);
    match &found.sidecar.machine_label {
        Some(m) => rest
            .strip_prefix(m.as_str())
            .and_then(|r| r.strip_prefix('_'))
            .unwrap_or(rest),
        None => rest,
    }
}

fn adapter(found: &Found) -> anyhow::Result<&str> {
    found
        .adapter_name()
        .ok_or_else(|| anyhow::anyhow!("the sidecar names no adapter"))
}

fn draw(args: &FigureArgs, found: &Found) -> anyhow::Result<Drawn> {
    let base = base_name(found);
    let (_, part) = FIGURES
        .into_iter()
        .find(|(name, _)| *name == base)
        .ok_or_else(|| anyhow::anyhow!("`{base}` is not a figure of this program's parts"))?;
    if !args.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` not in --only")));
    }
    // A `--quick` run's shapes and sample counts are smaller.
    let quick = found.measured_with("--quick");
    Ok(match base {
        "accuracy_bits" => Drawn::chart(found, bits::chart(&found.rows()?)),
        "point_cloud_error" => Drawn::chart(found, point_cloud::chart(&found.rows()?)),
        "pruning_accuracy" => Drawn::chart(found, pruning::chart(&found.rows()?)),
        "narrowed_cpu" => Drawn::chart(found, narrowed::chart(&found.rows()?, quick)?),
        "sparse_tuned_cpu" => {
            let [by_sparsity, scaling] = sparse_tuned::charts(&found.rows()?, quick)?;
            Drawn::Charts(vec![
                (format!("{}.svg", found.name), by_sparsity),
                (format!("{}_threads.svg", found.name), scaling),
            ])
        }
        "sparse_cpu" => {
            // The measuring run used rayon's default pool: one thread per logical CPU.
            let threads = found.sidecar.logical_cpus;
            Drawn::chart(found, sparse::cpu_chart(&found.rows()?, quick, threads))
        }
        "sparse_gpu" => Drawn::chart(
            found,
            sparse::gpu_chart(&found.rows()?, quick, adapter(found)?),
        ),
        "gemm" => Drawn::chart(found, gemm::chart(&found.rows()?, adapter(found)?)),
        "gemm_layout" => Drawn::chart(found, gemm_layout::chart(&found.rows()?, adapter(found)?)),
        "linear_kernels" => {
            Drawn::chart(found, quant_linear::chart(&found.rows()?, adapter(found)?)?)
        }
        "energy_batch" => {
            let (joules, latency) = energy::charts(&found.rows()?, quick, adapter(found)?);
            let latency = (
                format!("{}.svg", energy::latency_name(&found.name)),
                latency,
            );
            let joules = joules.map(|svg| (format!("{}.svg", found.name), svg));
            Drawn::Charts(joules.into_iter().chain([latency]).collect())
        }
        _ => Drawn::Kept("a table for the text, without a chart".into()),
    })
}

/// Redraws this program's figures in the output folder; `parts` are the names `--only` takes.
pub fn run(args: &FigureArgs, parts: &[&str]) -> anyhow::Result<()> {
    args.check_parts(parts)?;
    args.redraw("quantization_figures", &SOURCES, |found| draw(args, found))?;
    Ok(())
}
