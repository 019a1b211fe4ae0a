use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
use quantization::specialisations::point_cloud::{quantisation_error, scene};

use crate::output::figure_name;

/// Position error of the seeded test scene quantised with 8 to 16 bits per axis, beside the
/// formulas (computed, not timed: the same numbers on every machine).
pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let per_shape = if args.quick { 2_000 } else { 20_000 };
    let cloud = scene(per_shape, 1);
    let name = figure_name(args, "point_cloud_error");
    let mut csv = Csv::new(&[
        "bits",
        "points",
        "largest_step_m",
        "max_axis_error_m",
        "max_axis_bound_m",
        "max_position_error_m",
        "max_position_bound_m",
        "rms_position_error_m",
        "rms_uniform_m",
    ]);
    let mut max_axis = Series::new("largest coordinate error");
    let mut bound = Series::new("extent / 2^(b+1)");
    let mut rms = Series::new("RMS position error");
    let mut rms_uniform = Series::new("RMS, points uniform in cells");
    for bits in 8..=16 {
        let e = quantisation_error(&cloud, bits)?;
        let largest_step = 2.0 * e.axis_bound();
        csv.row(&[
            bits.to_string(),
            cloud.len().to_string(),
            format!("{largest_step:.6e}"),
            format!("{:.6e}", e.max_axis),
            format!("{:.6e}", e.axis_bound()),
            format!("{:.6e}", e.max_position),
            format!("{:.6e}", e.position_bound()),
            format!("{:.6e}", e.rms_position),
            format!("{:.6e}", e.rms_uniform()),
        ]);
        let b = f64::from(bits);
        // Millimetres read better than metres on a log axis from 0.1 mm to 20 mm.
        max_axis.point(b, e.max_axis * 1e3);
        bound.point(b, e.axis_bound() * 1e3);
        rms.point(b, e.rms_position * 1e3);
        rms_uniform.point(b, e.rms_uniform() * 1e3);
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    LineChart {
        title: "Point-cloud quantisation: position error against bits per axis".into(),
        subtitle: format!(
            "{} points on 3 spheres and 2 planes in a 10 m box; computed exactly (no timing)",
            cloud.len()
        ),
        x_label: "bits per axis".into(),
        y_label: "error (mm)".into(),
        log_x: false,
        log_y: true,
        series: vec![max_axis, bound, rms, rms_uniform],
        markers: vec![],
    }
    .write(&dir.join(format!("{name}.svg")))?;
    Sidecar::new(
        &name,
        "Position error of a quantised point cloud against bits per axis, with the formulas",
    )
    .with_notes(vec![format!(
        "scene(per_shape = {per_shape}, seed = 1): {} points; grid over the bounding box",
        cloud.len()
    )])
    .write(&dir.join(format!("{name}.json")))?;
    println!(
        "point-cloud: {} points, 8..16 bits → {name}.csv",
        cloud.len()
    );
    Ok(())
}
