//! The timed parts: run them on an idle machine (the sidecar records the load).

use bench_harness::digits::{round_to, significant};
use bench_harness::{Bar, BarChart, Figure, Sidecar, Stats, black_box, measure};
use numerics::bit_tricks::{fast_inv_sqrt, inv_sqrt, rsqrt_newton};
use numerics::compression::{Codec, Dataset};
use numerics::integers::{Divider, divide_by_constant_7, divide_by_divider, divide_by_variable};
use serde::{Deserialize, Serialize};

fn samples(quick: bool) -> (usize, usize) {
    if quick { (1, 3) } else { (5, 31) }
}

/// The CPU the timed charts name: the sidecar's model and logical CPUs.
pub fn subtitle(cpu: &str, logical_cpus: usize) -> String {
    format!("{cpu} · {logical_cpus} logical CPUs, one thread")
}

/// `x` to five significant digits.
fn sig5(x: f64) -> f64 {
    significant(x, 5)
}

/// One variant of `numerics_inv_sqrt_time.csv` or `numerics_division.csv`: ns per element.
#[derive(Serialize, Deserialize)]
pub struct PerElementRow {
    variant: String,
    elements: usize,
    ns_per_element_median: f64,
    p10: f64,
    p90: f64,
}

/// The title of each per-element chart, by figure name.
pub const PER_ELEMENT_TITLES: [(&str, &str); 2] = [
    (
        "numerics_inv_sqrt_time",
        "1/sqrt(x) over 65 536 f32: the instruction against the 1999 trick",
    ),
    ("numerics_division", "u32 / 7 over 65 536 values"),
];

/// One row per variant: ns per element, median and spread.
fn per_element_table(
    name: &str,
    description: &str,
    n: usize,
    results: &[(&str, Stats)],
) -> anyhow::Result<()> {
    let per = |s: f64| round_to(s * 1e9 / n as f64, 4);
    let rows: Vec<PerElementRow> = results
        .iter()
        .map(|(variant, stats)| PerElementRow {
            variant: (*variant).into(),
            elements: n,
            ns_per_element_median: per(stats.median),
            p10: per(stats.p10),
            p90: per(stats.p90),
        })
        .collect();
    for r in &rows {
        println!(
            "{name}: {:<28} {:.3} ns/element",
            r.variant, r.ns_per_element_median
        );
    }
    let sidecar = Sidecar::new(name, description);
    let chart = per_element_chart(
        name,
        &subtitle(&sidecar.machine.cpu_model, sidecar.machine.logical_cpus),
        &rows,
    );
    Figure::new(sidecar).rows(&rows)?.chart(chart).write()?;
    Ok(())
}

/// A bar per variant, ns per element; `name` picks the title from [`PER_ELEMENT_TITLES`].
pub fn per_element_chart(name: &str, subtitle: &str, rows: &[PerElementRow]) -> String {
    let title = PER_ELEMENT_TITLES
        .iter()
        .find(|(figure, _)| *figure == name)
        .map_or(name, |(_, title)| title);
    BarChart {
        title: title.into(),
        subtitle: subtitle.into(),
        y_label: "ns per element (median; whiskers p10–p90)".into(),
        log_y: false,
        bars: rows
            .iter()
            .map(|r| {
                (
                    r.variant.clone(),
                    r.ns_per_element_median,
                    Some((r.p10, r.p90)),
                )
            })
            .collect(),
    }
    .to_svg()
}

/// `1/x.sqrt()` against the fast inverse square root, over an array that fits in L2.
pub fn inv_sqrt_time(quick: bool) -> anyhow::Result<()> {
    let n = 1 << 16;
    let xs: Vec<f32> = (0..n).map(|i| 0.5 + i as f32 * 0.37).collect();
    let mut out = vec![0.0f32; n];
    let (warmup, count) = samples(quick);
    let mut run = |f: fn(f32) -> f32| {
        measure(warmup, count, || {
            for (o, &x) in out.iter_mut().zip(black_box(&xs)) {
                *o = f(x);
            }
            black_box(&mut out);
        })
    };
    // Through a function pointer, as a library call would be: one scalar call per element.
    let exact = run(inv_sqrt);
    let fast = run(fast_inv_sqrt);
    // Inlined loops: the compiler sees the whole loop and vectorises what it can.
    let exact_inlined = measure(warmup, count, || {
        for (o, &x) in out.iter_mut().zip(black_box(&xs)) {
            *o = 1.0 / x.sqrt();
        }
        black_box(&mut out);
    });
    let fast_inlined = measure(warmup, count, || {
        for (o, &x) in out.iter_mut().zip(black_box(&xs)) {
            let y = f32::from_bits(0x5f37_59df - (x.to_bits() >> 1));
            *o = y * (1.5 - 0.5 * x * y * y);
        }
        black_box(&mut out);
    });
    let rsqrt = measure(warmup, count, || {
        rsqrt_newton(black_box(&xs), &mut out);
        black_box(&mut out);
    });
    per_element_table(
        "numerics_inv_sqrt_time",
        "time per element of 1.0/x.sqrt(), the fast inverse square root, each called through a \
         function pointer and inlined in the loop, and rsqrtps with one Newton step",
        n,
        &[
            ("1.0 / x.sqrt(), called", exact),
            ("fast inverse sqrt, called", fast),
            ("1.0 / x.sqrt(), inlined", exact_inlined),
            ("fast inverse sqrt, inlined", fast_inlined),
            ("rsqrtps + Newton step", rsqrt),
        ],
    )
}

/// u32 division by a run-time divisor, by a constant, and by a precomputed magic multiplier.
pub fn division(quick: bool) -> anyhow::Result<()> {
    let n = 1 << 16;
    let xs: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let mut out = vec![0u32; n];
    let (warmup, count) = samples(quick);
    // black_box hides the divisor's value, so the compiler must emit a real DIV.
    let d = black_box(7u32);
    let variable = measure(warmup, count, || {
        divide_by_variable(black_box(&xs), d, &mut out);
        black_box(&mut out);
    });
    let constant = measure(warmup, count, || {
        divide_by_constant_7(black_box(&xs), &mut out);
        black_box(&mut out);
    });
    let divider = Divider::new(d).expect("7 is not zero");
    let magic = measure(warmup, count, || {
        divide_by_divider(black_box(&xs), &divider, &mut out);
        black_box(&mut out);
    });
    per_element_table(
        "numerics_division",
        "time per element of u32 division: run-time divisor, constant divisor, magic multiplier",
        n,
        &[
            ("x / d (d at run time)", variable),
            ("x / 7 (constant)", constant),
            ("magic multiply (Divider)", magic),
        ],
    )
}

/// Compression ratio (deterministic) and decode speed (timed) for every codec and dataset.
pub fn compression(quick: bool) -> anyhow::Result<()> {
    let n = if quick { 1 << 14 } else { 1 << 20 };
    let (warmup, count) = samples(quick);
    let mut rows = Vec::new();
    for dataset in Dataset::ALL {
        let xs = dataset.generate(n, 2024);
        let raw = xs.len() * 4;
        for codec in Codec::ALL {
            let bytes = codec.encode(&xs);
            anyhow::ensure!(
                codec.decode(&bytes)? == xs,
                "{} does not round-trip",
                codec.name()
            );
            // The codec alone: decoding into one reused vector, as a loop should.
            let mut reused = Vec::new();
            let stats = measure(warmup, count, || {
                codec
                    .decode_into(black_box(&bytes), &mut reused)
                    .expect("checked above");
                black_box(&reused);
            });
            // And into a new vector each time: the codec plus the first touch of 4 MiB.
            let fresh = measure(warmup, count, || {
                black_box(codec.decode(black_box(&bytes)).expect("checked above"));
            });
            let ratio = raw as f64 / bytes.len() as f64;
            let gbs = |s: f64| raw as f64 / s / 1e9;
            println!(
                "{:<44} ratio {ratio:>6.2}  decode {:>6.2} GB/s",
                format!("{} · {}", dataset.name(), codec.name()),
                gbs(stats.median)
            );
            rows.push(CompressionRow {
                dataset: dataset.name().into(),
                codec: codec.name().into(),
                raw_bytes: raw,
                encoded_bytes: bytes.len(),
                ratio: round_to(ratio, 3),
                decode_median_s: sig5(stats.median),
                decode_p10_s: sig5(stats.p10),
                decode_p90_s: sig5(stats.p90),
                decode_gb_per_s: round_to(gbs(stats.median), 3),
                decode_new_vec_median_s: sig5(fresh.median),
                decode_new_vec_gb_per_s: round_to(gbs(fresh.median), 3),
            });
        }
    }
    let mut sidecar = Sidecar::new(
        "numerics_compression",
        "compression ratio and single-thread decode speed, six codecs, three datasets of 2^20 u32",
    );
    // Two charts and no `numerics_compression.svg`: the sidecar names what it describes.
    sidecar.files = [
        "numerics_compression.csv",
        "numerics_compression_decode.svg",
        "numerics_compression_ratio.svg",
    ]
    .map(String::from)
    .to_vec();
    let charts = compression_charts(
        &subtitle(&sidecar.machine.cpu_model, sidecar.machine.logical_cpus),
        &rows,
    );
    let mut figure = Figure::new(sidecar).rows(&rows)?;
    for (file, svg) in charts {
        figure = figure.extra(&file, svg);
    }
    figure.write()?;
    Ok(())
}

/// One codec on one data set in `numerics_compression.csv`.
#[derive(Serialize, Deserialize)]
pub struct CompressionRow {
    dataset: String,
    codec: String,
    raw_bytes: usize,
    encoded_bytes: usize,
    ratio: f64,
    decode_median_s: f64,
    decode_p10_s: f64,
    decode_p90_s: f64,
    decode_gb_per_s: f64,
    decode_new_vec_median_s: f64,
    decode_new_vec_gb_per_s: f64,
}

/// The compression figure's two charts, (file name, SVG): the ratio of every codec on every
/// data set, and its decode speed into a reused vector (whiskers from the p10 and p90 times).
pub fn compression_charts(subtitle: &str, rows: &[CompressionRow]) -> Vec<(String, String)> {
    let label = |r: &CompressionRow| format!("{} · {}", r.dataset, r.codec);
    let gbs = |r: &CompressionRow, s: f64| r.raw_bytes as f64 / s / 1e9;
    let ratio_chart = BarChart {
        title: "Compression ratio (raw bytes / encoded bytes)".into(),
        subtitle: "computed (deterministic)".into(),
        y_label: "ratio".into(),
        log_y: true,
        // From the byte counts, not the rounded `ratio` column: 12.8503 must not be drawn as 12.8.
        bars: rows
            .iter()
            .map(|r| (label(r), r.raw_bytes as f64 / r.encoded_bytes as f64, None))
            .collect(),
    };
    let speed_chart = BarChart {
        title: "Decode speed into a reused vector (GB/s of u32 output, one thread)".into(),
        subtitle: subtitle.into(),
        y_label: "GB/s (median; whiskers p10–p90)".into(),
        log_y: true,
        bars: rows
            .iter()
            .map(|r| -> Bar {
                (
                    label(r),
                    gbs(r, r.decode_median_s),
                    Some((gbs(r, r.decode_p90_s), gbs(r, r.decode_p10_s))),
                )
            })
            .collect(),
    };
    vec![
        (
            "numerics_compression_ratio.svg".into(),
            ratio_chart.to_svg(),
        ),
        (
            "numerics_compression_decode.svg".into(),
            speed_chart.to_svg(),
        ),
    ]
}
