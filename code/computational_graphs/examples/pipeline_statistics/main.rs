//! What the Vulkan driver made of the matrix-multiply ladder's kernels: the statistics each
//! driver reports through VK_KHR_pipeline_executable_properties (on NVIDIA, registers and
//! shared memory per kernel; on Mesa, its own counts), for every rung at one size.
//!
//! `cargo run --release -p computational_graphs --example pipeline_statistics -- --machine h200`
//! writes `graphs_h200_pipeline_stats.{csv,json}`: one row per (device, kernel, statistic).
//! Each kernel is compiled as the ladder compiles it (the generator's WGSL, the override
//! constants of `tuned_pipeline`, naga's SPIR-V with the bounds-check policy wgpu picks for a
//! checked or an unchecked module), and every Vulkan device is tried. A device without the
//! extension is named in the sidecar; none with it is an error that says so.

mod driver;
mod figure;
mod kernels;

use std::error::Error;
use std::process::ExitCode;

use bench_harness::{Figure, FigureArgs, Sidecar};
use clap::Parser;
use gpu_context::{GpuContext, Requirements, wgpu};

use driver::{Checks, DriverError, Vulkan};
use figure::{Row, SOURCES, chart, draw};
use kernels::ladder_kernels;

#[derive(Parser)]
#[command(about = "The Vulkan driver's statistics of the matmul ladder's kernels")]
struct Cli {
    #[command(flatten)]
    figure: FigureArgs,
}

/// The square size every kernel is specialised for: the ladder figure's.
const SIZE: usize = 4096;

fn main() -> ExitCode {
    bench_harness::exit_code(run(&Cli::parse()))
}

fn run(cli: &Cli) -> Result<(), Box<dyn Error>> {
    if cli.figure.redraw {
        cli.figure.redraw("pipeline_statistics", &SOURCES, draw)?;
        return Ok(());
    }
    cli.figure.start(&[])?;
    // The device the ladder would run on, with subgroups where offered (as the ladder figure
    // opens it): the last rungs are generated for its workgroup memory and subgroup size.
    let ctx = GpuContext::with_requirements(&Requirements {
        optional_features: wgpu::Features::SUBGROUP,
        ..Default::default()
    })?;
    let (kernels, skipped) = ladder_kernels(&ctx, SIZE, cli.figure.quick)?;
    let generated_for = ctx.adapter.get_info();
    let vulkan = Vulkan::load()?;
    let devices = vulkan.devices()?;
    let mut rows = Vec::new();
    let mut notes = vec![format!(
        "every kernel specialised for {n}×{n} · {n}×{n} (override constants M = N = K = {n} \
         where the kernel has them); SPIR-V written by naga 30 with the options wgpu 30's Vulkan \
         backend uses on the same device",
        n = SIZE
    )];
    notes.push(format!(
        "the last rungs generated for wgpu's adapter {} ({:?}; workgroup memory {} bytes, \
         subgroups of {}–{} lanes) through Rung::pipelining",
        generated_for.name,
        generated_for.backend,
        ctx.device.limits().max_compute_workgroup_storage_size,
        generated_for.subgroup_min_size,
        generated_for.subgroup_max_size
    ));
    notes.extend(skipped.iter().map(|s| format!("not generated: {s}")));
    let mut missing = Vec::new();
    let adapters: Vec<String> = devices
        .iter()
        .map(|d| format!("{} ({}, Vulkan through ash)", d.name, d.driver))
        .collect();
    for device in &devices {
        if !device.offers_statistics() {
            println!("{}: no VK_KHR_pipeline_executable_properties", device.name);
            missing.push(format!("{} ({})", device.name, device.driver));
            continue;
        }
        println!("{} ({})", device.name, device.driver);
        for k in &kernels {
            let checks = Checks {
                unchecked: k.unchecked,
                robust_buffer_access2: device.robust_buffer_access2,
            };
            // One kernel the driver refuses is reported, and the others still measured.
            let compiled = device.spirv(&k.name, &k.wgsl, &k.constants, checks);
            let (spirv, stats) = match compiled.and_then(|(spirv, bindings)| {
                let stats = device.pipeline_statistics(&spirv, &bindings, true)?;
                Ok((spirv, stats))
            }) {
                Ok(done) => done,
                Err(e) => {
                    eprintln!("  {}: {e}", k.name);
                    notes.push(format!("{} on {}: {e}", k.name, device.name));
                    continue;
                }
            };
            println!("  {:<44} {} statistics", k.name, stats.len());
            for s in stats {
                rows.push(Row {
                    device: device.name.clone(),
                    driver: device.driver.clone(),
                    kernel: k.name.clone(),
                    wgpu_checks: if k.unchecked { "off" } else { "on" }.to_owned(),
                    checks: checks.describe(),
                    spirv_words: spirv.len(),
                    executable: s.executable,
                    statistic: s.name,
                    value: s.value,
                    description: s.description,
                });
            }
        }
    }
    if rows.is_empty() {
        return Err(Box::new(DriverError::NoExtension {
            device: missing.join(", "),
        }));
    }
    if !missing.is_empty() {
        notes.push(format!(
            "devices without VK_KHR_pipeline_executable_properties (no rows): {}",
            missing.join("; ")
        ));
    }
    let name = cli.figure.figure_name("graphs", "pipeline_stats");
    let sidecar = Sidecar::new(
        &name,
        "The Vulkan driver's statistics (VK_KHR_pipeline_executable_properties) of each matmul \
         ladder kernel, one row per device, kernel and statistic",
    )
    .with_notes(notes)
    .with_adapter(&adapters);
    let figure = match chart(&rows) {
        Some(svg) => Figure::new(sidecar).rows(&rows)?.chart(svg),
        // A table alone: the sidecar says so.
        None => Figure::new(sidecar.with_files([format!("{name}.csv")])).rows(&rows)?,
    };
    figure.write()?;
    Ok(())
}
