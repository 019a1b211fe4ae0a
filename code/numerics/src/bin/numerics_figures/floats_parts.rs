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

const COMPUTED: &str = "computed (deterministic: the same on every machine)";

/// ULP against magnitude for the six formats, from `Format::spacing_at` (tested against the
/// gaps between consecutive bit patterns).
pub fn spacing() -> anyhow::Result<()> {
    let mut csv = Csv::new(&["format", "x", "spacing"]);
    let mut series = Vec::new();
    for format in Format::ALL {
        let mut s = Series::new(format.name);
        // Quarter-decade steps in powers of two, from 2^-40 to 2^40.
        for k in -160..=160 {
            let x = 2f64.powf(f64::from(k) / 4.0);
            if let Some(gap) = format.spacing_at(x) {
                csv.row(&[format.name.into(), format!("{x:e}"), format!("{gap:e}")]);
                s.point(x, gap);
            }
        }
        series.push(s);
    }
    let chart = LineChart {
        title: "Spacing between neighbouring values (ULP)".into(),
        subtitle: COMPUTED.into(),
        x_label: "magnitude x".into(),
        y_label: "gap to the next value".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    };
    let sidecar = Sidecar::new("numerics_spacing", "ULP against magnitude, six formats");
    Figure::new(sidecar)
        .table(&csv)
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}

/// The largest relative rounding error per binade, measured by rounding 256 points of each.
pub fn rounding_error() -> anyhow::Result<()> {
    let mut csv = Csv::new(&["format", "binade_start", "max_relative_error"]);
    let mut series = Vec::new();
    for format in Format::ALL.into_iter().skip(1) {
        let mut s = Series::new(format.name);
        for k in -40..=40 {
            if let Some(err) = max_relative_error_in_binade(format, k, 256) {
                let x = 2f64.powi(k);
                csv.row(&[format.name.into(), format!("{x:e}"), format!("{err:e}")]);
                // Exact values (relative error 0) cannot sit on a log axis; plot them at 1e-12.
                s.point(x, err.max(1e-12));
            }
        }
        series.push(s);
    }
    let chart = LineChart {
        title: "Worst relative rounding error per binade (f32 inputs)".into(),
        subtitle: COMPUTED.into(),
        x_label: "magnitude x (start of the binade)".into(),
        y_label: "max |round(x) - x| / x".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    };
    let sidecar = Sidecar::new(
        "numerics_relative_error",
        "worst relative rounding error of 256 f32 points per binade, five formats",
    );
    Figure::new(sidecar)
        .table(&csv)
        .chart(chart.to_svg())
        .write()?;
    Ok(())
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
    let names = [
        "f32 naive",
        "f32 pairwise",
        "f32 Kahan",
        "f32 Neumaier",
        "f16 dot, f16 accumulator",
        "f16 dot, f32 accumulator",
    ];
    let mut series: Vec<Series> = names.iter().map(|n| Series::new(n)).collect();
    let mut csv = Csv::new(&["n", "method", "result", "reference", "relative_error"]);
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
        for (i, (got, reference)) in results.into_iter().enumerate() {
            let err = relative_error(got, reference);
            csv.row(&[
                n.to_string(),
                names[i].into(),
                format!("{got:e}"),
                format!("{reference:e}"),
                format!("{err:e}"),
            ]);
            series[i].point(n as f64, err.max(1e-10));
        }
    }
    let chart = LineChart {
        title: "Relative error of a sum of n uniform [0, 1) values".into(),
        subtitle: COMPUTED.into(),
        x_label: "n".into(),
        y_label: "relative error (exact: 1e-10 floor)".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    };
    let sidecar = Sidecar::new(
        "numerics_summation",
        "relative error against n: four f32 summations and two f16 dot products",
    );
    Figure::new(sidecar)
        .table(&csv)
        .chart(chart.to_svg())
        .write()?;
    Ok(())
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
