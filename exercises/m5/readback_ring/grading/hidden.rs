//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use std::cell::Cell;
use std::time::{Duration, Instant};

use ex_m5_readback_ring::{
    BINS, DevicePoller, FrameResult, GpuPoller, HistogramKernel, ReadbackError, ReadbackRing,
    reference_histogram,
};
use gpu_context::{GpuContext, GpuError};

const RESULT_BYTES: u64 = (BINS * 4) as u64;

/// The real poller, with a count of each kind of call: the ring has no other way to poll.
struct CountingPoller {
    inner: DevicePoller,
    polls: Cell<u64>,
    waits: Cell<u64>,
}

impl GpuPoller for CountingPoller {
    fn poll(&self, wait: bool) -> Result<(), GpuError> {
        let count = if wait { &self.waits } else { &self.polls };
        count.set(count.get() + 1);
        self.inner.poll(wait)
    }
}

fn poller(ctx: &GpuContext) -> CountingPoller {
    CountingPoller {
        inner: DevicePoller::new(&ctx.device),
        polls: Cell::new(0),
        waits: Cell::new(0),
    }
}

fn ring(ctx: &GpuContext, k: usize) -> ReadbackRing<CountingPoller> {
    ReadbackRing::new(ctx, poller(ctx), k, RESULT_BYTES).unwrap()
}

fn waits(ring: &ReadbackRing<CountingPoller>) -> u64 {
    ring.poller().waits.get()
}

fn submit(
    ctx: &GpuContext,
    kernel: &HistogramKernel,
    ring: &mut ReadbackRing<CountingPoller>,
    frame: u64,
) -> Result<(), ReadbackError> {
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    kernel.record(ctx, frame, &mut encoder);
    ring.submit(&ctx.queue, frame, encoder, kernel.result())
}

/// One `poll_ready`, checked to poll the device at most once: looping on non-blocking polls
/// until a result is ready is a blocking wait in disguise.
fn poll_once(ring: &mut ReadbackRing<CountingPoller>) -> usize {
    let before = ring.poller().polls.get();
    let ready = ring.poll_ready().unwrap();
    let polls = ring.poller().polls.get() - before;
    assert!(
        polls <= 1,
        "one poll_ready made {polls} polls: poll once and return what is ready, never loop until \
         a result is"
    );
    ready
}

/// Polls (never waits) until the oldest result can be taken, and takes it.
fn take_by_polling(ring: &mut ReadbackRing<CountingPoller>) -> FrameResult {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let ready = poll_once(ring);
        if let Some(result) = ring.try_take().unwrap() {
            return result;
        }
        assert_eq!(
            ready, 0,
            "poll_ready said a result was ready, try_take gave none"
        );
        assert!(Instant::now() < deadline, "no result came back in 30 s");
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Every result is its frame's, and the frames are `expected`, in that order.
fn check(results: &[FrameResult], expected: &[u64], what: &str) {
    let frames: Vec<u64> = results.iter().map(|r| r.frame).collect();
    assert_eq!(
        frames, expected,
        "{what}: every accepted frame once, in order"
    );
    for r in results {
        assert_eq!(
            r.words,
            reference_histogram(r.frame),
            "{what}: frame {}'s result is not its own",
            r.frame
        );
    }
}

#[test]
fn readback_ring_hidden_rejects_bad_sizes() {
    let ctx = GpuContext::for_tests();
    assert!(matches!(
        ReadbackRing::new(&ctx, poller(&ctx), 0, RESULT_BYTES),
        Err(ReadbackError::NoSlots)
    ));
    for bytes in [0, 2, 6, 63] {
        match ReadbackRing::new(&ctx, poller(&ctx), 2, bytes) {
            Err(ReadbackError::ResultSize { bytes: b }) => assert_eq!(b, bytes),
            Err(e) => panic!("{bytes} bytes gave {e}"),
            Ok(_) => panic!("a ring of {bytes}-byte results was made"),
        }
    }
    // A ring reading back more than the kernel's result refuses the kernel's buffer.
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut big = ReadbackRing::new(&ctx, poller(&ctx), 2, RESULT_BYTES * 2).unwrap();
    let encoder = ctx.device.create_command_encoder(&Default::default());
    match big.submit(&ctx.queue, 0, encoder, kernel.result()) {
        Err(ReadbackError::SourceTooSmall { expected, got }) => {
            assert_eq!((expected, got), (RESULT_BYTES * 2, RESULT_BYTES));
        }
        other => panic!("a too small source gave {other:?}"),
    }
    assert_eq!((big.in_flight(), big.refused()), (0, 0));
    // A ring reading back less than the source takes its first words only.
    let mut small = ReadbackRing::new(&ctx, poller(&ctx), 1, 8).unwrap();
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    kernel.record(&ctx, 5, &mut encoder);
    small
        .submit(&ctx.queue, 5, encoder, kernel.result())
        .unwrap();
    let got = small.flush().unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].words, reference_histogram(5)[..2]);
    grade_ok!("readback_ring_hidden_rejects_bad_sizes");
}

#[test]
fn readback_ring_hidden_one_slot_in_order() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 1);
    assert_eq!(ring.slots(), 1);
    let mut got = Vec::new();
    for frame in 100..130 {
        submit(&ctx, &kernel, &mut ring, frame).unwrap();
        got.push(take_by_polling(&mut ring));
    }
    check(&got, &(100..130).collect::<Vec<_>>(), "K = 1");
    assert_eq!(waits(&ring), 0, "taking by polling must not wait");
    assert!(
        ring.poller().polls.get() >= 30,
        "poll_ready polls through the poller"
    );
    assert_eq!(ring.refused(), 0);
    grade_ok!("readback_ring_hidden_one_slot_in_order");
}

#[test]
fn readback_ring_hidden_three_slots_never_wait() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 3);
    let (mut accepted, mut got) = (Vec::new(), Vec::new());
    for frame in 0..100 {
        poll_once(&mut ring);
        while let Some(result) = ring.try_take().unwrap() {
            got.push(result);
        }
        match submit(&ctx, &kernel, &mut ring, frame) {
            Ok(()) => accepted.push(frame),
            Err(ReadbackError::Full { frame: f, slots: 3 }) => assert_eq!(f, frame),
            Err(e) => panic!("frame {frame}: {e}"),
        }
        assert!(ring.in_flight() <= 3);
        // A frame of the loop: other work while the GPU catches up.
        std::thread::sleep(Duration::from_micros(500));
    }
    assert_eq!(waits(&ring), 0, "steady-state frames made blocking polls");
    assert_eq!(accepted.len() as u64 + ring.refused(), 100);
    assert!(!got.is_empty(), "results came back while frames ran");
    got.extend(ring.flush().unwrap());
    check(&got, &accepted, "K = 3");
    assert_eq!(ring.in_flight(), 0);
    grade_ok!("readback_ring_hidden_three_slots_never_wait");
}

#[test]
fn readback_ring_hidden_back_pressure_is_counted() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 3);
    for frame in 0..3 {
        submit(&ctx, &kernel, &mut ring, frame).unwrap();
    }
    // Nobody takes results: every further frame is refused at once, never waited for.
    for frame in 3..10 {
        match submit(&ctx, &kernel, &mut ring, frame) {
            Err(e @ ReadbackError::Full { .. }) => {
                assert!(matches!(e, ReadbackError::Full { frame: f, slots: 3 } if f == frame));
                assert!(
                    e.to_string().contains("try_take"),
                    "the message says what to do"
                );
            }
            other => panic!("frame {frame} into a full ring gave {other:?}"),
        }
    }
    assert_eq!((ring.refused(), ring.in_flight()), (7, 3));
    assert_eq!(waits(&ring), 0, "a full ring must not wait");
    // Taking one result makes room for exactly one frame.
    let first = take_by_polling(&mut ring);
    assert_eq!(first.frame, 0);
    submit(&ctx, &kernel, &mut ring, 10).unwrap();
    assert!(matches!(
        submit(&ctx, &kernel, &mut ring, 11),
        Err(ReadbackError::Full { frame: 11, .. })
    ));
    assert_eq!(ring.refused(), 8);
    let mut got = vec![first];
    got.extend(ring.flush().unwrap());
    check(&got, &[0, 1, 2, 10], "after back-pressure");
    grade_ok!("readback_ring_hidden_back_pressure_is_counted");
}

#[test]
fn readback_ring_hidden_flush_returns_the_rest_in_order() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 4);
    for frame in [40, 41, 42, 43] {
        submit(&ctx, &kernel, &mut ring, frame).unwrap();
    }
    let first = take_by_polling(&mut ring);
    let rest = ring.flush().unwrap();
    check(&[vec![first], rest].concat(), &[40, 41, 42, 43], "flush");
    assert_eq!(ring.in_flight(), 0);
    // The ring is whole again after a flush: K more frames fit, and come back.
    let waits_after_flush = waits(&ring);
    assert_eq!(ring.flush().unwrap(), [], "nothing left to flush");
    assert_eq!(
        waits(&ring),
        waits_after_flush,
        "flushing an empty ring must not wait"
    );
    for frame in 50..54 {
        submit(&ctx, &kernel, &mut ring, frame).unwrap();
    }
    check(&ring.flush().unwrap(), &[50, 51, 52, 53], "second flush");
    grade_ok!("readback_ring_hidden_flush_returns_the_rest_in_order");
}

#[test]
fn readback_ring_hidden_slow_consumer_long_run() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 3);
    let (mut accepted, mut got) = (Vec::new(), Vec::new());
    for frame in 0..200u64 {
        // The consumer takes at most one result every third frame: it is the slow side.
        if frame % 3 == 0 {
            poll_once(&mut ring);
            if let Some(result) = ring.try_take().unwrap() {
                got.push(result);
            }
        }
        match submit(&ctx, &kernel, &mut ring, frame) {
            Ok(()) => accepted.push(frame),
            Err(ReadbackError::Full { .. }) => {}
            Err(e) => panic!("frame {frame}: {e}"),
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    assert_eq!(
        waits(&ring),
        0,
        "a slow consumer must not make the ring wait"
    );
    assert_eq!(accepted.len() as u64 + ring.refused(), 200);
    assert!(
        ring.refused() >= 100,
        "taking one result per three frames leaves room for about a third of them \
         (refused {})",
        ring.refused()
    );
    got.extend(ring.flush().unwrap());
    check(&got, &accepted, "slow consumer");
    grade_ok!("readback_ring_hidden_slow_consumer_long_run");
}

#[test]
fn readback_ring_hidden_empty_ring_is_quiet() {
    let ctx = GpuContext::for_tests();
    let mut ring = ring(&ctx, 2);
    assert_eq!(ring.poll_ready().unwrap(), 0);
    assert_eq!(ring.try_take().unwrap(), None);
    assert_eq!(ring.flush().unwrap(), []);
    assert_eq!(waits(&ring), 0, "an empty ring has nothing to wait for");
    assert_eq!((ring.in_flight(), ring.refused(), ring.slots()), (0, 0, 2));
    // try_take only looks at what earlier polls found: it never polls itself.
    let kernel = HistogramKernel::new(&ctx).unwrap();
    submit(&ctx, &kernel, &mut ring, 1).unwrap();
    let polls = ring.poller().polls.get();
    let _ = ring.try_take().unwrap();
    assert_eq!(ring.poller().polls.get(), polls, "try_take must not poll");
    let rest = ring.flush().unwrap();
    assert!(rest.len() <= 1);
    grade_ok!("readback_ring_hidden_empty_ring_is_quiet");
}

#[test]
fn readback_ring_hidden_a_failed_mapping_is_an_error() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 3);
    submit(&ctx, &kernel, &mut ring, 0).unwrap();
    // No poll has run since frame 0's map_async: its mapping is still pending, and fails.
    assert_eq!(ring.fail_oldest_mapping_for_tests(&ctx.device), Some(0));
    for frame in 1..3 {
        submit(&ctx, &kernel, &mut ring, frame).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    let failed = loop {
        poll_once(&mut ring);
        match ring.try_take() {
            Err(ReadbackError::MapFailed { frame }) => break frame,
            Ok(None) => {}
            other => panic!("frame 0's failed mapping gave {other:?}"),
        }
        assert!(
            Instant::now() < deadline,
            "the failed mapping was never reported"
        );
        std::thread::sleep(Duration::from_micros(200));
    };
    assert_eq!(failed, 0);
    assert_eq!(ring.in_flight(), 2, "the failed frame leaves the ring");
    let mut got = vec![take_by_polling(&mut ring)];
    // Its slot is free again: new frames go in, through every slot.
    for frame in 3..6 {
        submit(&ctx, &kernel, &mut ring, frame).unwrap();
        got.push(take_by_polling(&mut ring));
    }
    got.extend(ring.flush().unwrap());
    check(&got, &[1, 2, 3, 4, 5], "after a failed mapping");
    assert_eq!(ring.refused(), 0);
    grade_ok!("readback_ring_hidden_a_failed_mapping_is_an_error");
}
