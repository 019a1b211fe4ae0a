//! The deterministic figures: computed, so any machine gives the same numbers.

use bench_harness::{Csv, Figure, LineChart, Series, Sidecar};
use half::f16;
use numerics::bit_tricks::fast_inv_sqrt_max_error;
use numerics::compression::{Dataset, byte_entropy, delta_encode, huffman_bits, zigzag_encode};
use numerics::floats::{Format, max_relative_error_in_binade};
use numerics::summation::{
    dot_f16_accumulate_f16, dot_f16_accumulate_f32, in_f64, kahan, naive, neumaier, pairwise,
    relative_error,
};
use serde::{Deserialize, Serialize};

const COMPUTED: &str = "computed (deterministic: the same on every machine)";

/// ULP against magnitude for the six formats, from `Format::spacing_at` (tested against the
/// gaps between consecutive bit patterns).
pub fn spacing() -> anyhow::Result<()> {
    let mut rows = Vec::new();
    for format in Format::ALL {
        // Quarter-decade steps in powers of two, from 2^-40 to 2^40.
        for k in -160..=160 {
            let x = 2f64.powf(f64::from(k) / 4.0);
            if let Some(spacing) = format.spacing_at(x) {
                rows.push(SpacingRow {
                    format: format.name.into(),
                    x,
                    spacing,
                });
            }
        }
    }
    let sidecar = Sidecar::new("numerics_spacing", "ULP against magnitude, six formats");
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(spacing_chart(&rows))
        .write()?;
    Ok(())
}

/// One format at one magnitude in `numerics_spacing.csv`.
#[derive(Serialize, Deserialize)]
pub struct SpacingRow {
    format: String,
    x: f64,
    spacing: f64,
}

/// A line per format (all six, in [`Format::ALL`]'s order): the gap against the magnitude.
pub fn spacing_chart(rows: &[SpacingRow]) -> String {
    let series = Format::ALL
        .iter()
        .map(|format| {
            let mut s = Series::new(format.name);
            for r in rows.iter().filter(|r| r.format == format.name) {
                s.point(r.x, r.spacing);
            }
            s
        })
        .collect();
    LineChart {
        title: "Spacing between neighbouring values (ULP)".into(),
        subtitle: COMPUTED.into(),
        x_label: "magnitude x".into(),
        y_label: "gap to the next value".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
    .to_svg()
}

/// The largest relative rounding error per binade, measured by rounding 256 points of each.
pub fn rounding_error() -> anyhow::Result<()> {
    let mut rows = Vec::new();
    for format in Format::ALL.into_iter().skip(1) {
        for k in -40..=40 {
            if let Some(max_relative_error) = max_relative_error_in_binade(format, k, 256) {
                rows.push(RoundingErrorRow {
                    format: format.name.into(),
                    binade_start: 2f64.powi(k),
                    max_relative_error,
                });
            }
        }
    }
    let sidecar = Sidecar::new(
        "numerics_relative_error",
        "worst relative rounding error of 256 f32 points per binade, five formats",
    );
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(rounding_error_chart(&rows))
        .write()?;
    Ok(())
}

/// One format's binade in `numerics_relative_error.csv`.
#[derive(Serialize, Deserialize)]
pub struct RoundingErrorRow {
    format: String,
    binade_start: f64,
    max_relative_error: f64,
}

/// A line per format (f64 left out: f32 inputs round to it exactly).
pub fn rounding_error_chart(rows: &[RoundingErrorRow]) -> String {
    let series = Format::ALL
        .iter()
        .skip(1)
        .map(|format| {
            let mut s = Series::new(format.name);
            for r in rows.iter().filter(|r| r.format == format.name) {
                // Exact values (relative error 0) cannot sit on a log axis; plot them at 1e-12.
                s.point(r.binade_start, r.max_relative_error.max(1e-12));
            }
            s
        })
        .collect();
    LineChart {
        title: "Worst relative rounding error per binade (f32 inputs)".into(),
        subtitle: COMPUTED.into(),
        x_label: "magnitude x (start of the binade)".into(),
        y_label: "max |round(x) - x| / x".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
    .to_svg()
}

/// SplitMix64 into [0, 1): the same inputs on every run and every machine.
fn uniform(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect()
}

/// Relative error against n for the summation methods and the two f16 dot products.
pub fn summation(quick: bool) -> anyhow::Result<()> {
    let top = if quick { 16 } else { 24 };
    let mut rows = Vec::new();
    for p in (4..=top).step_by(2) {
        let n = 1usize << p;
        let xs = uniform(n, 42);
        let exact = in_f64(&xs);
        // The dot products take f16 inputs; their reference is the exact dot of those inputs.
        let a: Vec<f16> = xs.iter().map(|&x| f16::from_f32(x)).collect();
        let b: Vec<f16> = uniform(n, 7).iter().map(|&x| f16::from_f32(x)).collect();
        let exact_dot: f64 = a.iter().zip(&b).map(|(x, y)| x.to_f64() * y.to_f64()).sum();
        let results = [
            (f64::from(naive(&xs)), exact),
            (f64::from(pairwise(&xs)), exact),
            (f64::from(kahan(&xs)), exact),
            (f64::from(neumaier(&xs)), exact),
            (dot_f16_accumulate_f16(&a, &b).to_f64(), exact_dot),
            (f64::from(dot_f16_accumulate_f32(&a, &b)), exact_dot),
        ];
        for (method, (result, reference)) in SUMMATION_METHODS.iter().zip(results) {
            rows.push(SummationRow {
                n,
                method: (*method).into(),
                result,
                reference,
                relative_error: relative_error(result, reference),
            });
        }
    }
    let sidecar = Sidecar::new(
        "numerics_summation",
        "relative error against n: four f32 summations and two f16 dot products",
    );
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(summation_chart(&rows))
        .write()?;
    Ok(())
}

/// The summation figure's methods, in the table's and the legend's order.
const SUMMATION_METHODS: [&str; 6] = [
    "f32 naive",
    "f32 pairwise",
    "f32 Kahan",
    "f32 Neumaier",
    "f16 dot, f16 accumulator",
    "f16 dot, f32 accumulator",
];

/// One method at one n in `numerics_summation.csv`.
#[derive(Serialize, Deserialize)]
pub struct SummationRow {
    n: usize,
    method: String,
    result: f64,
    reference: f64,
    relative_error: f64,
}

/// A line per method: the relative error against n.
pub fn summation_chart(rows: &[SummationRow]) -> String {
    let series = SUMMATION_METHODS
        .iter()
        .map(|method| {
            let mut s = Series::new(method);
            for r in rows.iter().filter(|r| r.method == *method) {
                s.point(r.n as f64, r.relative_error.max(1e-10));
            }
            s
        })
        .collect();
    LineChart {
        title: "Relative error of a sum of n uniform [0, 1) values".into(),
        subtitle: COMPUTED.into(),
        x_label: "n".into(),
        y_label: "relative error (exact: 1e-10 floor)".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
    .to_svg()
}

/// The fast inverse square root's worst relative error, over every f32 of [1, 4).
pub fn inv_sqrt_error(quick: bool) -> anyhow::Result<()> {
    let stride = if quick { 97 } else { 1 };
    let worst = fast_inv_sqrt_max_error(stride);
    let mut csv = Csv::new(&["floats_checked", "max_relative_error"]);
    let checked = (2u64 << 23).div_ceil(stride as u64);
    csv.row(&[checked.to_string(), format!("{worst:e}")]);
    println!("fast inverse square root: worst relative error {worst:.4e} over {checked} floats");
    let sidecar = Sidecar::new(
        "numerics_inv_sqrt_error",
        "worst relative error of the fast inverse square root over every f32 in [1, 4)",
    );
    Figure::new(sidecar).table(&csv).write()?;
    Ok(())
}

/// Byte entropy of the compression data sets, raw and as zigzagged deltas: the size an order-0
/// entropy coder working byte by byte could reach, beside the codecs' ratios.
pub fn entropy() -> anyhow::Result<()> {
    let mut csv = Csv::new(&[
        "dataset",
        "stream",
        "byte0_bits",
        "byte1_bits",
        "byte2_bits",
        "byte3_bits",
        "bits_per_value",
        "ratio_bound",
        "huffman_top_byte_bits",
        "huffman_bits_per_value",
        "huffman_ratio",
    ]);
    for dataset in Dataset::ALL {
        // The same values as the codec table: 2^20 of them, seed 2024.
        let raw = dataset.generate(1 << 20, 2024);
        let deltas: Vec<u32> = delta_encode(&raw).into_iter().map(zigzag_encode).collect();
        for (stream, values) in [("raw", &raw), ("delta+zigzag", &deltas)] {
            let h = byte_entropy(values);
            let total: f64 = h.iter().sum();
            let mut cells = vec![dataset.name().to_owned(), stream.to_owned()];
            cells.extend(h.iter().map(|b| format!("{b:.3}")));
            cells.push(format!("{total:.3}"));
            cells.push(format!("{:.3}", 32.0 / total));
            // A real byte-wise Huffman coder on the same stream: its code tables included.
            let coded = huffman_bits(values);
            let n = values.len() as f64;
            let coded_total = coded.iter().sum::<u64>() as f64 / n;
            cells.push(format!("{:.3}", coded[3] as f64 / n));
            cells.push(format!("{coded_total:.3}"));
            cells.push(format!("{:.3}", 32.0 / coded_total));
            println!(
                "entropy {:<14} {stream:<13} {total:.2} bits per value (bound), Huffman {coded_total:.2}",
                dataset.name(),
            );
            csv.row(&cells);
        }
    }
    let mut sidecar = Sidecar::new(
        "numerics_entropy",
        "Shannon entropy of each byte of the compression data sets (2^20 values, seed 2024), \
         raw and as zigzagged deltas; ratio_bound = 32 / bits per value; the huffman columns \
         are the bits a byte-wise Huffman coder (one code per byte position, tables included) \
         spends, and 32 / those bits",
    );
    sidecar.notes = vec![COMPUTED.into()];
    sidecar.files = vec!["numerics_entropy.csv".into()]; // a table, no chart
    Figure::new(sidecar).table(&csv).write()?;
    Ok(())
}
