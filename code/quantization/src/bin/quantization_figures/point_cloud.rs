use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use quantization::specialisations::point_cloud::{quantisation_error, scene};

use crate::output::{figure_name, seven_digits};

/// One row of the table: the cloud's errors, and the formulas' bounds, at one bit width (m).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub bits: u32,
    pub points: usize,
    pub largest_step_m: f64,
    pub max_axis_error_m: f64,
    pub max_axis_bound_m: f64,
    pub max_position_error_m: f64,
    pub max_position_bound_m: f64,
    pub rms_position_error_m: f64,
    pub rms_uniform_m: f64,
}

/// The chart: errors and bounds against bits, in millimetres (they read better than metres on a
/// log axis from 0.1 mm to 20 mm).
pub fn chart(rows: &[Row]) -> String {
    let line = |label: &str, metres: fn(&Row) -> f64| {
        let mut s = Series::new(label);
        for r in rows {
            s.point(f64::from(r.bits), metres(r) * 1e3);
        }
        s
    };
    LineChart {
        title: "Point-cloud quantisation: position error against bits per axis".into(),
        subtitle: format!(
            "{} points on 3 spheres and 2 planes in a 10 m box; computed exactly (no timing)",
            rows.first().map_or(0, |r| r.points)
        ),
        x_label: "bits per axis".into(),
        y_label: "error (mm)".into(),
        log_x: false,
        log_y: true,
        series: vec![
            line("largest coordinate error", |r| r.max_axis_error_m),
            line("extent / 2^(b+1)", |r| r.max_axis_bound_m),
            line("RMS position error", |r| r.rms_position_error_m),
            line("RMS, points uniform in cells", |r| r.rms_uniform_m),
        ],
        markers: vec![],
    }
    .to_svg()
}

/// Position error of the seeded test scene quantised with 8 to 16 bits per axis, beside the
/// formulas (computed, not timed: the same numbers on every machine).
pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let per_shape = if args.quick { 2_000 } else { 20_000 };
    let cloud = scene(per_shape, 1);
    let name = figure_name(args, "point_cloud_error");
    let mut rows = Vec::new();
    for bits in 8..=16 {
        let e = quantisation_error(&cloud, bits)?;
        rows.push(Row {
            bits,
            points: cloud.len(),
            largest_step_m: seven_digits(2.0 * e.axis_bound()),
            max_axis_error_m: seven_digits(e.max_axis),
            max_axis_bound_m: seven_digits(e.axis_bound()),
            max_position_error_m: seven_digits(e.max_position),
            max_position_bound_m: seven_digits(e.position_bound()),
            rms_position_error_m: seven_digits(e.rms_position),
            rms_uniform_m: seven_digits(e.rms_uniform()),
        });
    }
    Figure::new(
        Sidecar::new(
            &name,
            "Position error of a quantised point cloud against bits per axis, with the formulas",
        )
        .with_notes(vec![format!(
            "scene(per_shape = {per_shape}, seed = 1): {} points; grid over the bounding box",
            cloud.len()
        )]),
    )
    .rows(&rows)?
    .chart(chart(&rows))
    .write()?;
    println!(
        "point-cloud: {} points, 8..16 bits → {name}.csv",
        cloud.len()
    );
    Ok(())
}
