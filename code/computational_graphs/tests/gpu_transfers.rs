//! Host↔device transfers and the chunked Linear pipeline, on whatever adapter there is.

mod common;

use common::{assert_close, random};
use computational_graphs::ops;
use computational_graphs::rng::SplitMix64;
use computational_graphs::transfers::{ChunkedLinear, Schedule, TransferBuffers, TransferError};
use gpu_context::GpuContext;

fn random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// Lengths that are not multiples of the 4-byte copy alignment, plus one that is.
const ODD_LENGTHS: [usize; 5] = [1, 3, 1001, 4096, 65_537];

#[test]
fn every_upload_path_round_trips_odd_lengths_bit_exactly() {
    let ctx = GpuContext::for_tests();
    for (i, len) in ODD_LENGTHS.into_iter().enumerate() {
        let buffers = TransferBuffers::new(&ctx, len).unwrap();
        let mut back = vec![0u8; len];
        let first = random_bytes(len, i as u64);
        buffers.upload_with_write_buffer(&ctx, &first).unwrap();
        buffers.download(&ctx, &mut back).unwrap();
        assert_eq!(back, first, "write_buffer, {len} bytes");
        // Twice through the staging buffer: the second upload needs the re-mapped buffer, and
        // so does the first after the device copies were timed on their own.
        buffers.time_device_copies(&ctx).unwrap();
        for round in 0..2 {
            let data = random_bytes(len, 1000 + 10 * i as u64 + round);
            buffers.upload_through_staging(&ctx, &data).unwrap();
            buffers.download(&ctx, &mut back).unwrap();
            assert_eq!(back, data, "staging upload {round}, {len} bytes");
        }
    }
}

#[test]
fn special_floats_keep_every_bit() {
    let ctx = GpuContext::for_tests();
    let floats = [
        f32::from_bits(0x7fc0_1234), // a NaN with a payload
        f32::from_bits(0xffa0_0001), // a signalling NaN, negative
        -0.0,
        f32::from_bits(1), // the smallest subnormal
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
    ];
    let bytes: &[u8] = bytemuck::cast_slice(&floats);
    let buffers = TransferBuffers::new(&ctx, bytes.len()).unwrap();
    buffers.upload_through_staging(&ctx, bytes).unwrap();
    let mut back = vec![0u8; bytes.len()];
    buffers.download(&ctx, &mut back).unwrap();
    let back: Vec<u32> = bytemuck::pod_collect_to_vec(&back);
    let want: Vec<u32> = floats.iter().map(|f| f.to_bits()).collect();
    assert_eq!(back, want);
}

#[test]
fn a_transfer_larger_than_the_largest_buffer_is_a_typed_error() {
    let ctx = GpuContext::for_tests();
    let max = ctx.device.limits().max_buffer_size;
    let too_big = usize::try_from(max + 1).expect("a 64-bit host");
    match TransferBuffers::new(&ctx, too_big) {
        Err(TransferError::TooLarge { bytes, max: m }) => {
            assert_eq!((bytes, m), (max + 1, max));
        }
        Err(other) => panic!("expected TooLarge, got {other}"),
        Ok(_) => panic!("a buffer above max_buffer_size ({max}) was accepted"),
    }
    let message = TransferBuffers::new(&ctx, too_big)
        .err()
        .unwrap()
        .to_string();
    assert!(message.contains("in pieces"), "{message}");
}

#[test]
fn empty_and_mismatched_transfers_are_refused() {
    let ctx = GpuContext::for_tests();
    assert!(matches!(
        TransferBuffers::new(&ctx, 0),
        Err(TransferError::Empty)
    ));
    let buffers = TransferBuffers::new(&ctx, 10).unwrap();
    let err = buffers.upload_with_write_buffer(&ctx, &[0; 9]).unwrap_err();
    assert!(matches!(
        err,
        TransferError::WrongLength {
            expected: 10,
            got: 9
        }
    ));
    let err = buffers.download(&ctx, &mut [0; 11]).unwrap_err();
    assert!(matches!(err, TransferError::WrongLength { got: 11, .. }));
}

#[test]
fn serial_and_pipelined_chunks_match_the_cpu_and_each_other() {
    let ctx = GpuContext::for_tests();
    let (rows, k, n) = (37, 19, 23);
    let x = random(rows, k, 1);
    let w = random(k, n, 2);
    let b = random(1, n, 3);
    let want = ops::cpu::linear(&x, &w, &b).unwrap();
    let schedules = [
        Schedule::Serial,
        Schedule::Pipelined { in_flight: 1 },
        Schedule::Pipelined { in_flight: 3 },
    ];
    let mut first: Option<Vec<f32>> = None;
    for chunks in [1, 2, 5, rows] {
        let linear = ChunkedLinear::new(&ctx, rows, &w, &b, chunks).unwrap();
        for schedule in schedules {
            let mut got = vec![f32::NAN; rows * n];
            linear.run(&ctx, x.data(), &mut got, schedule).unwrap();
            let what = format!("{chunks} chunks, {schedule:?}");
            let tensor = computational_graphs::tensor::Tensor2D::new(rows, n, got.clone()).unwrap();
            assert_close(&tensor, &want, &what);
            // Every row runs the same kernel on the same numbers, however it was scheduled.
            match &first {
                Some(f) => assert_eq!(
                    bytemuck::cast_slice::<f32, u32>(f),
                    bytemuck::cast_slice::<f32, u32>(&got),
                    "{what}"
                ),
                None => first = Some(got),
            }
        }
    }
}

#[test]
fn a_second_run_sees_the_new_input() {
    let ctx = GpuContext::for_tests();
    let (rows, k, n) = (20, 8, 6);
    let w = random(k, n, 4);
    let b = random(1, n, 5);
    let linear = ChunkedLinear::new(&ctx, rows, &w, &b, 4).unwrap();
    for seed in [6, 7] {
        let x = random(rows, k, seed);
        let want = ops::cpu::linear(&x, &w, &b).unwrap();
        let mut got = vec![0.0; rows * n];
        linear
            .run(
                &ctx,
                x.data(),
                &mut got,
                Schedule::Pipelined { in_flight: 2 },
            )
            .unwrap();
        let got = computational_graphs::tensor::Tensor2D::new(rows, n, got).unwrap();
        assert_close(&got, &want, &format!("input seed {seed}"));
    }
}

#[test]
fn bad_chunking_is_refused_with_what_to_do() {
    let ctx = GpuContext::for_tests();
    let w = random(4, 3, 8);
    let b = random(1, 3, 9);
    for chunks in [0, 11] {
        let err = ChunkedLinear::new(&ctx, 10, &w, &b, chunks).err().unwrap();
        assert!(
            matches!(err, TransferError::Chunks { rows: 10, chunks: c } if c == chunks),
            "{err}"
        );
        assert!(err.to_string().contains("between 1 and 10"), "{err}");
    }
    let wrong_bias = random(1, 4, 10);
    assert!(matches!(
        ChunkedLinear::new(&ctx, 10, &w, &wrong_bias, 2),
        Err(TransferError::Operator(_))
    ));
    let linear = ChunkedLinear::new(&ctx, 10, &w, &b, 2).unwrap();
    let mut out = vec![0.0; 30];
    let err = linear
        .run(
            &ctx,
            &[0.0; 40],
            &mut out,
            Schedule::Pipelined { in_flight: 0 },
        )
        .unwrap_err();
    assert!(matches!(err, TransferError::NothingInFlight), "{err}");
    let err = linear
        .run(&ctx, &[0.0; 39], &mut out, Schedule::Serial)
        .unwrap_err();
    assert!(matches!(err, TransferError::WrongLength { .. }), "{err}");
}
