//! [`measure_rule`]: times every variant of one [`Rule`] the same way, through `time_each`.

use std::time::Duration;

use super::{
    FIR_TAPS, Measured, Rule, Sizes, allocation, batching, casts, copying, handoff, keys, logging,
    sleeping, syscalls, validation, vectorisation,
};
use crate::latency::time_each;
use crate::workload::{FRAME_LEN, sensor_frame};

/// Why a rule could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum MeasureError {
    #[error("could not prepare the files the `{rule}` rule writes to")]
    Io {
        rule: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Logging(#[from] logging::LoggingError),
}

fn io_error(rule: Rule) -> impl Fn(std::io::Error) -> MeasureError {
    move |source| MeasureError::Io {
        rule: rule.name(),
        source,
    }
}

/// Times every variant of `rule`.
pub fn measure_rule(rule: Rule, sizes: Sizes) -> Result<Vec<Measured>, MeasureError> {
    let frame = sensor_frame(7);
    Ok(match rule {
        Rule::Floor => {
            let (w, n) = (sizes.warmup, sizes.iterations);
            vec![row(rule, "empty step", time_each(w, n, |i| i as f64))]
        }
        Rule::Allocation => allocation_rows(&frame, sizes),
        Rule::Logging => logging_rows(sizes)?,
        Rule::Syscalls => syscalls_rows(sizes)?,
        Rule::Copying => copying_rows(&frame, sizes),
        Rule::Validation => validation_rows(&frame, sizes),
        Rule::Keys => keys_rows(&frame, sizes),
        Rule::Batching => batching_rows(&frame, sizes),
        Rule::Vectorisation => vectorisation_rows(&frame, sizes),
        Rule::Casts => casts_rows(sizes),
        Rule::Handoff => handoff_rows(sizes),
        Rule::Sleeping => sleeping_rows(sizes),
    })
}

/// Measures every rule in `rules`, in that order.
pub fn measure_all(rules: &[Rule], sizes: Sizes) -> Result<Vec<Measured>, MeasureError> {
    let mut all = Vec::new();
    for &rule in rules {
        all.extend(measure_rule(rule, sizes)?);
    }
    Ok(all)
}

fn row(rule: Rule, variant: &'static str, summary: crate::latency::LatencySummary) -> Measured {
    Measured::new(rule.name(), variant, summary)
}

fn allocation_rows(frame: &[f32], sizes: Sizes) -> Vec<Measured> {
    let (w, n) = (sizes.warmup, sizes.iterations);
    let before = time_each(w, n, |_| allocation::allocating(frame) as f64);
    let mut pre = allocation::Preallocated::new(FRAME_LEN);
    let after = time_each(w, n, |_| pre.step(frame) as f64);
    let rule = Rule::Allocation;
    vec![
        row(rule, "allocating", before),
        row(rule, "preallocated", after),
    ]
}

fn logging_rows(sizes: Sizes) -> Result<Vec<Measured>, MeasureError> {
    let err = io_error(Rule::Logging);
    let (w, n) = (sizes.warmup, sizes.iterations);
    let dir = tempfile::tempdir().map_err(&err)?;
    let file = |name: &str| std::fs::File::create(dir.path().join(name)).map_err(&err);
    let frame = sensor_frame(7);
    let record = |i: u64| logging::LogRecord {
        frame: i,
        mean: crate::workload::mean(&frame[..16]),
    };

    let mut line = logging::LineBuffered::new(file("line.log")?);
    let s1 = time_each(w, n, |i| line.log(record(i)).map_or(-1.0, |()| 0.0));
    let mut buffered = logging::Buffered::new(file("buffered.log")?);
    let s2 = time_each(w, n, |i| buffered.log(record(i)).map_or(-1.0, |()| 0.0));
    buffered.flush().map_err(&err)?;
    // The loop pushes faster than the logger writes, so a small ring fills and most pushes
    // fail; a ring that holds every record measures a push that succeeds. Both report drops.
    let off_thread = |capacity: usize, name: &str| {
        let mut off = logging::OffThread::new(file(name)?, capacity)?;
        let summary = time_each(w, n, |i| {
            off.log(record(i));
            0.0
        });
        let (_written, dropped) = off.finish().map_err(&err)?;
        Ok::<_, MeasureError>((summary, dropped))
    };
    let (s3, dropped3) = off_thread(4096, "off.log")?;
    let every_record = usize::try_from(w + n + 1)
        .unwrap_or(usize::MAX)
        .checked_next_power_of_two()
        .unwrap_or(4096);
    let (s4, dropped4) = off_thread(every_record, "off_large.log")?;
    let m = |variant, summary| row(Rule::Logging, variant, summary);
    Ok(vec![
        m("line-buffered (println!)", s1),
        m("BufWriter", s2),
        Measured {
            dropped: Some(dropped3),
            ..m("off-thread (SPSC ring)", s3)
        },
        Measured {
            dropped: Some(dropped4),
            ..m("off-thread, ring holds every record", s4)
        },
    ])
}

fn syscalls_rows(sizes: Sizes) -> Result<Vec<Measured>, MeasureError> {
    let (w, n) = (sizes.warmup, sizes.iterations);
    let rule = Rule::Syscalls;
    let err = io_error(rule);
    let dir = tempfile::tempdir().map_err(&err)?;
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "gain = 1.0\n").map_err(&err)?;
    let mut seen = None;
    let before = time_each(w, n, |_| {
        syscalls::changed_every_iteration(&path, &mut seen).map_or(-1.0, f64::from)
    });
    let mut batched = syscalls::BatchedCheck::new(path.clone(), 1000);
    let after = time_each(w, n, |i| batched.changed(i).map_or(-1.0, f64::from));
    let watched =
        syscalls::WatchedFile::new(path.clone(), Duration::from_millis(1)).map_err(&err)?;
    let elsewhere = time_each(w, n, |_| f64::from(u8::from(watched.changed())));
    watched.stop().map_err(&err)?;
    Ok(vec![
        row(rule, "stat every iteration", before),
        row(rule, "stat every 1000th", after),
        row(rule, "stat on another thread", elsewhere),
    ])
}

fn copying_rows(frame: &[f32], sizes: Sizes) -> Vec<Measured> {
    let (w, n) = (sizes.warmup, sizes.iterations);
    let before = time_each(w, n, |_| copying::cloning(frame));
    let after = time_each(w, n, |_| copying::borrowing(frame));
    let rule = Rule::Copying;
    vec![row(rule, "clone", before), row(rule, "borrow", after)]
}

fn validation_rows(frame: &[f32], sizes: Sizes) -> Vec<Measured> {
    let (w, n) = (sizes.warmup, sizes.iterations);
    let before = time_each(w, n, |_| {
        validation::energy_checking_inside(frame).unwrap_or(f64::NAN)
    });
    let valid = validation::ValidFrame::new(frame);
    let after = time_each(w, n, |_| {
        valid.as_ref().map_or(f64::NAN, validation::energy)
    });
    // A frame used once: its validation is part of every iteration.
    let once = time_each(w, n, |_| {
        validation::ValidFrame::new(frame).map_or(f64::NAN, |v| validation::energy(&v))
    });
    let rule = Rule::Validation;
    vec![
        row(rule, "checked inside the loop", before),
        row(rule, "validated before the loop", after),
        row(rule, "validate + energy", once),
    ]
}

fn keys_rows(frame: &[f32], sizes: Sizes) -> Vec<Measured> {
    use keys::Channel;
    let (w, n) = (sizes.warmup, sizes.iterations);
    let mut by_name = keys::ByName::new();
    let before = time_each(w, n, |i| {
        for (c, &x) in Channel::ALL.iter().cycle().zip(&frame[..64]) {
            by_name.add(c.name(), f64::from(x) + i as f64);
        }
        by_name.get("light")
    });
    let mut by_enum = keys::ByEnum::default();
    let after = time_each(w, n, |i| {
        for (&c, &x) in Channel::ALL.iter().cycle().zip(&frame[..64]) {
            by_enum.add(c, f64::from(x) + i as f64);
        }
        by_enum.get(Channel::Light)
    });
    let rule = Rule::Keys;
    vec![
        row(rule, "string keys", before),
        row(rule, "enum index", after),
    ]
}

fn batching_rows(frame: &[f32], sizes: Sizes) -> Vec<Measured> {
    let (w, n) = (sizes.warmup, sizes.iterations);
    let mut out = vec![0.0; frame.len()];
    let before = time_each(w, n, |_| {
        f64::from(batching::per_sample(frame, 0.5, &mut out))
    });
    let after = time_each(w, n, |_| {
        f64::from(batching::per_frame(frame, 0.5, &mut out))
    });
    let rule = Rule::Batching;
    vec![
        row(rule, "a call per sample", before),
        row(rule, "a call per frame", after),
    ]
}

fn vectorisation_rows(frame: &[f32], sizes: Sizes) -> Vec<Measured> {
    use vectorisation::{fir_by_tap, fir_indexed, fir_iterators, output_len};
    let (w, n) = (sizes.warmup, sizes.iterations);
    let taps = vectorisation::smoothing_taps(FIR_TAPS);
    let mut out = vec![0.0; output_len(frame.len(), taps.len())];
    let mut run = |fir: fn(&[f32], &[f32], &mut [f32])| {
        time_each(w, n, |_| {
            fir(frame, &taps, &mut out);
            f64::from(out[out.len() / 2])
        })
    };
    let (indexed, iterators, by_tap) = (run(fir_indexed), run(fir_iterators), run(fir_by_tap));
    let rule = Rule::Vectorisation;
    vec![
        row(rule, "indexed, one accumulator", indexed),
        row(rule, "iterators, one accumulator", iterators),
        row(rule, "loops swapped (SIMD)", by_tap),
    ]
}

fn casts_rows(sizes: Sizes) -> Vec<Measured> {
    let (w, n) = (sizes.warmup, sizes.iterations);
    let pixels = casts::pixel_frame(7);
    let mut out = vec![0u8; pixels.len()];
    let gain = 1.3;
    let before = time_each(w, n, |_| {
        casts::gain_per_pixel(&pixels, gain, &mut out);
        f64::from(out[out.len() / 2])
    });
    let after = time_each(w, n, |_| {
        casts::GainTable::new(gain).apply(&pixels, &mut out);
        f64::from(out[out.len() / 2])
    });
    let rule = Rule::Casts;
    vec![
        row(rule, "f32 as u8 per pixel", before),
        row(rule, "256-entry table per frame", after),
    ]
}

fn handoff_rows(sizes: Sizes) -> Vec<Measured> {
    let gap = Duration::from_micros(2);
    let mut rows = Vec::new();
    for (kind, name) in [
        (handoff::Handoff::Mutex, "Mutex<VecDeque>"),
        (handoff::Handoff::SpscRing, "SPSC ring"),
    ] {
        let r = handoff::measure(kind, sizes.messages, gap);
        rows.push(row(Rule::Handoff, name, r.send));
        // The delivery latency is a row of its own: the chart draws it apart from the send.
        rows.push(Measured::new("handoff_delivery", name, r.delivery));
    }
    rows
}

fn sleeping_rows(sizes: Sizes) -> Vec<Measured> {
    use sleeping::{Sleeper, overshoot};
    let (p, count) = (sizes.sleep_period, sizes.sleeps);
    let rule = Rule::Sleeping;
    vec![
        row(rule, "thread::sleep", overshoot(Sleeper::Std, p, count)),
        row(rule, "spin_sleep", overshoot(Sleeper::SpinSleep, p, count)),
        row(
            rule,
            "spin_sleep, spin_loop hint",
            overshoot(Sleeper::SpinLoopHint, p, count),
        ),
    ]
}
