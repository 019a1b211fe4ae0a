//! Runs every measurement of the memory-hierarchy chapters and writes `figures/memory_*`.
//!
//! ```text
//! memory_hierarchies_figures                 every sweep, then the cachegrind twins
//! memory_hierarchies_figures --quick         smaller sizes and fewer samples (a smoke test)
//! memory_hierarchies_figures --only latency  some sections, comma-separated (see SECTIONS)
//! memory_hierarchies_figures --cachegrind row_major   one kernel, once (run under valgrind)
//! ```

mod aliasing;
mod cachegrind;
mod clock;
mod config;
mod cpu;
mod layouts;
mod redraw;
mod report;
mod sweeps;

use bench_harness::MachineInfo;
use config::Config;

const SECTIONS: [&str; 8] = [
    "latency",
    "layouts",
    "containers",
    "growth",
    "cpu",
    "virtual_memory",
    "aliasing",
    "cachegrind",
];

#[derive(clap::Parser)]
#[command(about = "Measures the memory-hierarchy figures of module 1")]
struct Cli {
    #[command(flatten)]
    figures: bench_harness::FigureArgs,
    /// Run one cachegrind kernel once and exit (the program runs itself under valgrind).
    #[arg(long, value_name = "KERNEL")]
    cachegrind: Option<String>,
}

fn main() {
    if let Err(error) = run(clap::Parser::parse()) {
        eprintln!("error: {error:#}");
        std::process::exit(2);
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    if cli.figures.redraw {
        return redraw::run(&cli.figures, &SECTIONS);
    }
    let machine = MachineInfo::detect();
    let quick = cli.figures.quick;
    let cfg = Config::new(&machine, quick);
    if let Some(kernel) = cli.cachegrind {
        return cachegrind::run_kernel(&kernel, &cfg);
    }
    cli.figures.start(&SECTIONS)?;
    println!("machine: {}", machine.summary());
    for c in &machine.caches {
        println!(
            "  L{} {:<11} {:>8} KiB, shared by {} CPU(s)",
            c.level,
            c.kind,
            c.bytes / 1024,
            c.shared_by
        );
    }
    println!(
        "working set of the big-array runs: {} MiB ({:.2}× the {} MiB LLC){}",
        cfg.big >> 20,
        cfg.big as f64 / cfg.llc.max(1) as f64,
        cfg.llc >> 20,
        if quick { ", quick run" } else { "" }
    );
    let wants = |s: &str| cli.figures.wants(s);
    let io = |e: std::io::Error| anyhow::Error::new(e).context("could not write a figure");
    if wants("latency") {
        sweeps::latency_and_bandwidth(&cfg, &machine).map_err(io)?;
    }
    if wants("virtual_memory") {
        sweeps::first_touch(&cfg).map_err(io)?;
    }
    if wants("layouts") {
        layouts::access_patterns(&cfg).map_err(io)?;
        layouts::transpose(&cfg).map_err(io)?;
    }
    if wants("containers") {
        layouts::containers(&cfg).map_err(io)?;
        layouts::jagged_and_permutation(&cfg).map_err(io)?;
    }
    if wants("growth") {
        layouts::growth_and_scratch(&cfg).map_err(io)?;
    }
    if wants("cpu") {
        cpu::hash_maps(&cfg).map_err(io)?;
        cpu::branches_and_inlining(&cfg).map_err(io)?;
        cpu::smart_pointers(&cfg).map_err(io)?;
    }
    if wants("aliasing") {
        aliasing::aliasing(&cfg).map_err(io)?;
    }
    if wants("cachegrind") {
        cachegrind::run_all(&cfg)?;
    }
    Ok(())
}
