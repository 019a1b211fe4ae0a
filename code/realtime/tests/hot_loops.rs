//! Every "after" variant computes what its "before" does, and the ones that promise no
//! allocation make none (counted by the allocator installed here).

use realtime::counting_alloc::{CountingAllocator, count_allocations};
use realtime::rules::{Rule, Sizes, allocation, copying, keys, logging, measure_rule, validation};
use realtime::workload::{FRAME_LEN, sensor_frame};

#[global_allocator]
static ALLOC: CountingAllocator = CountingAllocator;

#[test]
fn preallocated_matches_allocating_and_allocates_nothing() {
    let frame = sensor_frame(3);
    let mut pre = allocation::Preallocated::new(FRAME_LEN);
    let (expected, before) = count_allocations(|| allocation::allocating(&frame));
    assert!(before >= 2, "the allocating variant allocates ({before})");
    for _ in 0..3 {
        let (got, allocs) = count_allocations(|| pre.step(&frame));
        assert_eq!(got, expected);
        assert_eq!(allocs, 0);
    }
    assert!(expected > 0, "the test frame has peaks");
}

#[test]
fn borrowing_matches_cloning_without_copying() {
    let frame = sensor_frame(4);
    let (cloned, a) = count_allocations(|| copying::cloning(&frame));
    let (borrowed, b) = count_allocations(|| copying::borrowing(&frame));
    assert_eq!(cloned, borrowed);
    assert_eq!((a, b), (1, 0));
}

#[test]
fn validation_before_the_loop_gives_the_same_energy_and_the_same_errors() {
    let frame = sensor_frame(5);
    let inside = validation::energy_checking_inside(&frame).unwrap();
    let valid = validation::ValidFrame::new(&frame).unwrap();
    assert_eq!(
        inside,
        validation::energy(&valid),
        "same lanes, same order, same sum"
    );

    let mut bad = frame.clone();
    bad[10] = f32::NAN;
    bad[20] = 50.0;
    let e1 = validation::energy_checking_inside(&bad).unwrap_err();
    let e2 = validation::ValidFrame::new(&bad).err().unwrap();
    assert_eq!(e1.to_string(), e2.to_string());
    assert!(e1.to_string().contains("sample 10"), "{e1}");
}

#[test]
fn enum_keys_give_the_same_totals_as_string_keys() {
    let mut by_name = keys::ByName::new();
    let mut by_enum = keys::ByEnum::default();
    for (i, c) in keys::Channel::ALL.iter().cycle().take(40).enumerate() {
        by_name.add(c.name(), i as f64);
        by_enum.add(*c, i as f64);
    }
    for c in keys::Channel::ALL {
        assert_eq!(by_name.get(c.name()), by_enum.get(c));
    }
    let (_, allocs) = count_allocations(|| by_enum.add(keys::Channel::Light, 1.0));
    assert_eq!(allocs, 0);
}

#[test]
fn the_off_thread_logger_writes_every_record_and_the_loop_does_not_allocate() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.txt");
    let mut off = logging::OffThread::new(std::fs::File::create(&path).unwrap(), 1024).unwrap();
    let mut allocs = 0;
    for frame in 0..500 {
        let record = logging::LogRecord { frame, mean: 0.5 };
        allocs += count_allocations(|| off.log(record)).1;
        if frame % 100 == 0 {
            // Let the logger catch up so nothing is dropped in this test.
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    let (written, dropped) = off.finish().unwrap();
    assert_eq!(allocs, 0);
    assert_eq!(written + dropped, 500);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count() as u64, written);
    assert!(text.starts_with("frame 0: mean 0.5000\n"), "{text:.40}");
}

#[test]
fn a_bad_ring_capacity_is_an_error_that_names_a_good_one() {
    let file = tempfile::tempfile().unwrap();
    let err = logging::OffThread::new(file, 1000).err().unwrap();
    assert!(err.to_string().contains("1024"), "{err}");
}

#[test]
fn every_rule_measures_every_variant_in_quick_mode() {
    let sizes = Sizes {
        warmup: 5,
        iterations: 50,
        messages: 50,
        sleeps: 3,
        ..Sizes::quick()
    };
    for rule in Rule::ALL {
        let rows = measure_rule(rule, sizes).unwrap();
        let variants = if rule == Rule::Floor { 1 } else { 2 };
        assert!(rows.len() >= variants, "{rule}: {rows:?}");
        for r in rows {
            assert!(r.summary.iterations > 0);
            let q = r.summary;
            assert!(q.p50_ns <= q.p99_ns && q.p99_ns <= q.p999_ns && q.p999_ns <= q.max_ns);
            // Only the off-thread logger can drop, and it always says how many it dropped.
            assert_eq!(
                r.dropped.is_some(),
                r.variant.starts_with("off-thread"),
                "{r:?}"
            );
        }
    }
}

#[test]
fn rule_names_parse_back_and_an_unknown_name_lists_the_rules() {
    for rule in Rule::ALL {
        assert_eq!(rule.to_string().parse::<Rule>().unwrap(), rule);
    }
    let err = "nope".parse::<Rule>().unwrap_err().to_string();
    assert!(err.contains("`nope`"), "{err}");
    assert!(err.contains("floor, allocation, logging"), "{err}");
}

#[test]
fn every_handoff_message_arrives() {
    use realtime::rules::handoff::{Handoff, measure};
    for kind in [Handoff::Mutex, Handoff::SpscRing] {
        let r = measure(kind, 300, std::time::Duration::from_micros(1));
        assert_eq!(r.delivered, 300, "{kind:?}");
        assert_eq!(r.send.iterations, 300);
    }
}

#[test]
fn a_call_per_frame_computes_what_a_call_per_sample_does() {
    use realtime::rules::batching;
    let frame = sensor_frame(6);
    let (mut a, mut b) = (vec![0.0; frame.len()], vec![0.0; frame.len()]);
    batching::per_sample(&frame, 0.5, &mut a);
    batching::per_frame(&frame, 0.5, &mut b);
    assert_eq!(a, b);
}

#[test]
fn the_three_fir_filters_give_the_same_bits() {
    use realtime::rules::vectorisation::{
        fir_by_tap, fir_indexed, fir_iterators, output_len, smoothing_taps,
    };
    for (frame, taps) in [(1, 1), (2, 3), (3, 16), (4, 33)] {
        let x = sensor_frame(frame);
        let h = smoothing_taps(taps);
        assert!((h.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{h:?}");
        let len = output_len(x.len(), taps);
        assert_eq!(len, FRAME_LEN - taps + 1);
        let mut outs = [
            vec![f32::NAN; len],
            vec![f32::NAN; len],
            vec![f32::NAN; len],
        ];
        fir_indexed(&x, &h, &mut outs[0]);
        fir_iterators(&x, &h, &mut outs[1]);
        fir_by_tap(&x, &h, &mut outs[2]);
        let bits = |v: &[f32]| v.iter().map(|y| y.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&outs[0]), bits(&outs[1]), "{taps} taps");
        assert_eq!(bits(&outs[0]), bits(&outs[2]), "{taps} taps");
    }
    // A smoothing filter keeps a constant signal as it is.
    let ones = vec![1.0; 64];
    let mut out = vec![0.0; output_len(64, 8)];
    fir_by_tap(&ones, &smoothing_taps(8), &mut out);
    assert!(out.iter().all(|y| (y - 1.0).abs() < 1e-5), "{out:?}");
}

#[test]
fn the_gain_table_gives_what_the_per_pixel_cast_gives() {
    use realtime::rules::casts::{GainTable, gain_per_pixel, pixel_frame};
    let every_value: Vec<u8> = (0..=255).collect();
    let frame = pixel_frame(3);
    // 1.3 saturates above 196, 0.5 rounds down, a negative gain clamps to 0, NaN gives 0.
    for gain in [1.0, 1.3, 0.5, 0.0, -2.0, 1000.0, f32::NAN] {
        for pixels in [&every_value, &frame] {
            let (mut a, mut b) = (vec![7u8; pixels.len()], vec![9u8; pixels.len()]);
            gain_per_pixel(pixels, gain, &mut a);
            GainTable::new(gain).apply(pixels, &mut b);
            assert_eq!(a, b, "gain {gain}");
        }
    }
    let mut out = vec![0u8; 256];
    GainTable::new(1.3).apply(&every_value, &mut out);
    assert_eq!(
        (out[100], out[196], out[197], out[255]),
        (130, 254, 255, 255)
    );
    let (_, allocs) = count_allocations(|| GainTable::new(1.3).apply(&frame, &mut out));
    assert_eq!(allocs, 0);
}

#[test]
fn a_ring_slot_of_the_logger_is_24_bytes() {
    // The record is 16 bytes; the ring holds `Option<LogRecord>` (None ends the log), and an
    // f64 has no spare bit pattern for the None, so the tag takes another 8 bytes.
    assert_eq!(std::mem::size_of::<logging::LogRecord>(), 16);
    assert_eq!(std::mem::size_of::<Option<logging::LogRecord>>(), 24);
}

#[test]
fn a_ring_that_holds_every_record_drops_none_and_the_small_one_counts_its_drops() {
    let sizes = Sizes {
        warmup: 10,
        iterations: 20_000,
        ..Sizes::quick()
    };
    let rows = measure_rule(Rule::Logging, sizes).unwrap();
    let dropped = |name: &str| rows.iter().find(|r| r.variant == name).unwrap().dropped;
    assert_eq!(dropped("off-thread, ring holds every record"), Some(0));
    let small = dropped("off-thread (SPSC ring)").unwrap();
    assert!(small <= 20_010, "{small}");
}

#[test]
fn the_floor_is_an_empty_step_and_rows_near_it_are_flagged() {
    let sizes = Sizes {
        warmup: 5,
        iterations: 200,
        ..Sizes::quick()
    };
    let floor = measure_rule(Rule::Floor, sizes).unwrap();
    assert_eq!(floor.len(), 1);
    let f = floor[0].summary;
    assert!(floor[0].near_floor(&f), "an empty step is at its own floor");
    let slow = realtime::rules::Measured {
        summary: realtime::latency::LatencySummary {
            p50_ns: f.p50_ns * 2 + 1,
            ..f
        },
        ..floor[0].clone()
    };
    assert!(!slow.near_floor(&f));
}

#[test]
fn validate_plus_energy_gives_the_energy_of_the_other_two() {
    let sizes = Sizes {
        warmup: 1,
        iterations: 10,
        ..Sizes::quick()
    };
    let rows = measure_rule(Rule::Validation, sizes).unwrap();
    let names: Vec<_> = rows.iter().map(|r| r.variant).collect();
    assert_eq!(
        names,
        [
            "checked inside the loop",
            "validated before the loop",
            "validate + energy"
        ]
    );
    let frame = sensor_frame(7);
    let once = validation::ValidFrame::new(&frame).map(|v| validation::energy(&v));
    assert_eq!(
        once.unwrap(),
        validation::energy_checking_inside(&frame).unwrap()
    );
}

#[test]
fn the_watcher_thread_notices_a_change_and_the_loop_only_reads_a_flag() {
    use realtime::rules::syscalls::WatchedFile;
    use std::time::{Duration, Instant, SystemTime};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "gain = 1\n").unwrap();
    let watched = WatchedFile::new(path.clone(), Duration::from_millis(1)).unwrap();
    let (changed, allocs) = count_allocations(|| watched.changed());
    assert!(!changed);
    assert_eq!(allocs, 0);
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() + Duration::from_secs(60))
        .unwrap();
    let give_up = Instant::now() + Duration::from_secs(5);
    while !watched.changed() {
        assert!(Instant::now() < give_up, "the watcher never saw the change");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(!watched.changed(), "a change is reported once");
    watched.stop().unwrap();

    let missing = WatchedFile::new(dir.path().join("missing.toml"), Duration::from_millis(1));
    assert!(missing.is_err());
}
