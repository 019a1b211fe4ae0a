//! The timed parts: run them on an idle machine (the sidecar records the load).

use bench_harness::{Bar, BarChart, Csv, Figure, Sidecar, Stats, black_box, measure};
use numerics::bit_tricks::{fast_inv_sqrt, inv_sqrt, rsqrt_newton};
use numerics::compression::{Codec, Dataset};
use numerics::integers::{Divider, divide_by_constant_7, divide_by_divider, divide_by_variable};

fn samples(quick: bool) -> (usize, usize) {
    if quick { (1, 3) } else { (5, 31) }
}

fn subtitle(sidecar: &Sidecar) -> String {
    format!(
        "{} · {} logical CPUs, one thread",
        sidecar.machine.cpu_model, sidecar.machine.logical_cpus
    )
}

/// One row per variant: ns per element, median and spread.
fn per_element_table(
    name: &str,
    title: &str,
    description: &str,
    n: usize,
    results: &[(&str, Stats)],
) -> anyhow::Result<()> {
    let mut csv = Csv::new(&["variant", "elements", "ns_per_element_median", "p10", "p90"]);
    let mut bars: Vec<Bar> = Vec::new();
    let per = |s: f64| s * 1e9 / n as f64;
    for (variant, stats) in results {
        csv.row(&[
            (*variant).into(),
            n.to_string(),
            format!("{:.4}", per(stats.median)),
            format!("{:.4}", per(stats.p10)),
            format!("{:.4}", per(stats.p90)),
        ]);
        bars.push((
            (*variant).into(),
            per(stats.median),
            Some((per(stats.p10), per(stats.p90))),
        ));
        println!("{name}: {variant:<28} {:.3} ns/element", per(stats.median));
    }
    let sidecar = Sidecar::new(name, description);
    let chart = BarChart {
        title: title.into(),
        subtitle: subtitle(&sidecar),
        y_label: "ns per element (median; whiskers p10–p90)".into(),
        log_y: false,
        bars,
    };
    Figure::new(sidecar)
        .table(&csv)
        .chart(chart.to_svg())
        .write()?;
    Ok(())
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
        "1/sqrt(x) over 65 536 f32: the instruction against the 1999 trick",
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
        "u32 / 7 over 65 536 values",
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
    let mut csv = Csv::new(&[
        "dataset",
        "codec",
        "raw_bytes",
        "encoded_bytes",
        "ratio",
        "decode_median_s",
        "decode_p10_s",
        "decode_p90_s",
        "decode_gb_per_s",
        "decode_new_vec_median_s",
        "decode_new_vec_gb_per_s",
    ]);
    let (mut ratio_bars, mut speed_bars): (Vec<Bar>, Vec<Bar>) = (Vec::new(), Vec::new());
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
            csv.row(&[
                dataset.name().into(),
                codec.name().into(),
                raw.to_string(),
                bytes.len().to_string(),
                format!("{ratio:.3}"),
                format!("{:.4e}", stats.median),
                format!("{:.4e}", stats.p10),
                format!("{:.4e}", stats.p90),
                format!("{:.3}", gbs(stats.median)),
                format!("{:.4e}", fresh.median),
                format!("{:.3}", gbs(fresh.median)),
            ]);
            let label = format!("{} · {}", dataset.name(), codec.name());
            println!(
                "{label:<44} ratio {ratio:>6.2}  decode {:>6.2} GB/s",
                gbs(stats.median)
            );
            ratio_bars.push((label.clone(), ratio, None));
            speed_bars.push((
                label,
                gbs(stats.median),
                Some((gbs(stats.p90), gbs(stats.p10))),
            ));
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
    let ratio_chart = BarChart {
        title: "Compression ratio (raw bytes / encoded bytes)".into(),
        subtitle: "computed (deterministic)".into(),
        y_label: "ratio".into(),
        log_y: true,
        bars: ratio_bars,
    };
    let speed_chart = BarChart {
        title: "Decode speed into a reused vector (GB/s of u32 output, one thread)".into(),
        subtitle: subtitle(&sidecar),
        y_label: "GB/s (median; whiskers p10–p90)".into(),
        log_y: true,
        bars: speed_bars,
    };
    Figure::new(sidecar)
        .table(&csv)
        .extra("numerics_compression_ratio.svg", ratio_chart.to_svg())
        .extra("numerics_compression_decode.svg", speed_chart.to_svg())
        .write()?;
    Ok(())
}
