use bench_harness::{Csv, FigureArgs, Sidecar, figures_dir};
use quantization::specialisations::{
    octahedral_max_error_degrees, rgb9e5_round_trip, unsigned_small_float_round_trip,
};

use crate::output::figure_name;

/// The directions per half-turn of the grid that the octahedral error is searched over.
const GRID_STEPS: usize = 180;
/// A bright red, a mid green and a dark blue: one texel of an HDR colour.
const COLOUR: [f32; 3] = [1.0, 0.5, 0.01];

/// The largest angle error of octahedral normals against bits per coordinate, and one colour
/// through RGB9E5 and R11G11B10F (computed, not timed: the same numbers on every machine).
pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let steps = if args.quick { 30 } else { GRID_STEPS };
    let dir = figures_dir();
    let normals = figure_name(args, "octahedral_error");
    let mut csv = Csv::new(&["bits_per_coordinate", "grid_steps", "max_angle_error_deg"]);
    for bits in [8, 10, 12, 16] {
        csv.row(&[
            bits.to_string(),
            steps.to_string(),
            format!("{:.6e}", octahedral_max_error_degrees(bits, steps)),
        ]);
    }
    csv.write(&dir.join(format!("{normals}.csv")))?;
    // Numbers for the text, no chart: the sidecar names the CSV alone.
    let mut s = Sidecar::new(
        &normals,
        "Largest angle between a unit normal and its octahedral round trip, against bits",
    )
    .with_notes(vec![format!("directions: θ, φ on a grid of π/{steps}")]);
    s.files = vec![format!("{normals}.csv")];
    s.write(&dir.join(format!("{normals}.json")))?;

    let colours = figure_name(args, "shared_exponent");
    let mut csv = Csv::new(&["format", "channel", "input", "stored", "relative_error"]);
    let shared = rgb9e5_round_trip(COLOUR);
    // R11G11B10F: 6 mantissa bits for red and green, 5 for blue.
    let separate: [f32; 3] =
        std::array::from_fn(|c| unsigned_small_float_round_trip(COLOUR[c], [6, 6, 5][c]));
    for (format, stored) in [("RGB9E5", shared), ("R11G11B10F", separate)] {
        for (c, name) in ["red", "green", "blue"].iter().enumerate() {
            let (x, y) = (f64::from(COLOUR[c]), f64::from(stored[c]));
            csv.row(&[
                format.to_string(),
                name.to_string(),
                COLOUR[c].to_string(),
                format!("{y:.9e}"),
                format!("{:.6e}", (y - x).abs() / x),
            ]);
        }
    }
    csv.write(&dir.join(format!("{colours}.csv")))?;
    let mut s = Sidecar::new(
        &colours,
        "One HDR colour stored as RGB9E5 (shared exponent) and as R11G11B10F",
    )
    .with_notes(vec![format!("colour {COLOUR:?}")]);
    s.files = vec![format!("{colours}.csv")];
    s.write(&dir.join(format!("{colours}.json")))?;
    println!("small-formats → {normals}.csv, {colours}.csv");
    Ok(())
}
