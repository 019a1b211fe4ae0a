//! Chart helpers shared by the sweeps.

use bench_harness::{Found, LineChart, MachineInfo, Series};
use gpu_context::GpuContext;

use crate::args::Args;
use crate::tables::{PytorchRow, Row, SWEEP_DEPTH};
use crate::variants::Variant;

pub fn subtitle(ctx: &GpuContext, args: &Args) -> String {
    let r = ctx.report();
    let machine = args
        .machine
        .clone()
        .unwrap_or_else(|| MachineInfo::detect().cpu_model);
    subtitle_of(&machine, &r.name, &r.backend)
}

pub fn subtitle_of(machine: &str, adapter: &str, backend: &str) -> String {
    format!("{machine} · GPU: {adapter} ({backend})")
}

/// The subtitle a measuring run gave a GPU figure, from its sidecar's machine and adapter.
pub fn gpu_subtitle(found: &Found) -> Result<String, String> {
    let text = |key: &str| found.sidecar.adapter[key].as_str();
    match (text("name"), text("backend")) {
        (Some(name), Some(backend)) => Ok(subtitle_of(found.machine(), name, backend)),
        _ => {
            Err("its sidecar names no adapter (name and backend), which the subtitle shows".into())
        }
    }
}

/// The subtitle of a CPU figure: the machine's label, else the whole description of it.
pub fn cpu_subtitle(label: Option<&str>, summary: &str) -> String {
    label.unwrap_or(summary).to_owned()
}

/// A sweep chart's title and x-axis label; `sweep_size` is the depth sweep's tensor size.
pub fn sweep_title(sweep: &str, sweep_size: usize) -> (String, &'static str) {
    if sweep == "size" {
        (
            format!("Random graphs of depth {SWEEP_DEPTH}: time per run"),
            "tensor size n (n×n tensors)",
        )
    } else {
        (
            format!("Random graphs of {sweep_size}×{sweep_size} tensors: time per run"),
            "graph depth (operators)",
        )
    }
}

pub fn line_chart(
    rows: &[Row],
    pytorch: &[PytorchRow],
    sweep: &str,
    title: &str,
    sub: &str,
    x_label: &str,
) -> LineChart {
    let x_of = |size: usize, depth: usize| if sweep == "size" { size } else { depth } as f64;
    let mut series = Vec::new();
    for v in Variant::ALL {
        let mut s = Series::new(v.name());
        for r in rows.iter().filter(|r| r.sweep == sweep && r.variant == v) {
            s.point_with_spread(x_of(r.size, r.depth), r.median_ms, r.p10_ms, r.p90_ms);
        }
        if !s.points.is_empty() {
            series.push(s);
        }
    }
    // One series per PyTorch variant: the script's CSV interleaves them, so dedup alone would
    // leave a series (and a legend entry) per row.
    let mut names: Vec<&str> = Vec::new();
    for r in pytorch {
        if !names.contains(&r.variant.as_str()) {
            names.push(&r.variant);
        }
    }
    for name in names {
        let mut s = Series::new(name);
        for r in pytorch
            .iter()
            .filter(|r| r.sweep == sweep && r.variant == name)
        {
            s.point_with_spread(x_of(r.size, r.depth), r.median_ms, r.p10_ms, r.p90_ms);
        }
        if !s.points.is_empty() {
            series.push(s);
        }
    }
    LineChart {
        title: title.into(),
        subtitle: sub.into(),
        x_label: x_label.into(),
        y_label: "milliseconds per run (log)".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
}
