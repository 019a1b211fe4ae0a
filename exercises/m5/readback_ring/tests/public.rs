//! Public tests: `cargo nextest run -p ex_m5_readback_ring` (they need a GPU adapter; lavapipe is
//! enough).

use std::cell::Cell;
use std::time::{Duration, Instant};

use ex_m5_readback_ring::{
    BINS, DevicePoller, FrameResult, GpuPoller, HistogramKernel, ReadbackError, ReadbackRing,
    reference_histogram,
};
use gpu_context::{GpuContext, GpuError};

/// The real poller, with a count of each kind of call.
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

fn ring(ctx: &GpuContext, k: usize) -> ReadbackRing<CountingPoller> {
    let poller = CountingPoller {
        inner: DevicePoller::new(&ctx.device),
        polls: Cell::new(0),
        waits: Cell::new(0),
    };
    ReadbackRing::new(ctx, poller, k, (BINS * 4) as u64).unwrap()
}

/// Records frame `frame`'s kernel and hands it to the ring.
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

/// Polls (never waits) until the oldest result can be taken, and takes it.
fn take_by_polling(ring: &mut ReadbackRing<CountingPoller>) -> FrameResult {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        ring.poll_ready().unwrap();
        if let Some(result) = ring.try_take().unwrap() {
            return result;
        }
        assert!(Instant::now() < deadline, "no result came back in 30 s");
        std::thread::sleep(Duration::from_micros(200));
    }
}

#[test]
fn readback_ring_public_one_frame_comes_back() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 2);
    submit(&ctx, &kernel, &mut ring, 7).unwrap();
    assert_eq!(ring.in_flight(), 1);
    let result = take_by_polling(&mut ring);
    assert_eq!(result.frame, 7);
    assert_eq!(
        result.words,
        reference_histogram(7),
        "frame 7's sums per bin"
    );
    assert_eq!(ring.in_flight(), 0);
    assert_eq!(
        ring.poller().waits.get(),
        0,
        "taking a result must not wait"
    );
}

#[test]
fn readback_ring_public_frames_come_back_in_order_without_waiting() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 3);
    let (mut accepted, mut got) = (Vec::new(), Vec::new());
    for frame in 0..20 {
        ring.poll_ready().unwrap();
        while let Some(result) = ring.try_take().unwrap() {
            got.push(result);
        }
        match submit(&ctx, &kernel, &mut ring, frame) {
            Ok(()) => accepted.push(frame),
            Err(ReadbackError::Full { .. }) => {}
            Err(e) => panic!("frame {frame}: {e}"),
        }
    }
    assert_eq!(
        ring.poller().waits.get(),
        0,
        "no frame may wait for the GPU"
    );
    got.extend(ring.flush().unwrap());
    let frames: Vec<u64> = got.iter().map(|r| r.frame).collect();
    assert_eq!(frames, accepted, "every accepted frame once, in order");
    for result in &got {
        assert_eq!(result.words, reference_histogram(result.frame));
    }
}

#[test]
fn readback_ring_public_a_full_ring_refuses_the_frame() {
    let ctx = GpuContext::for_tests();
    let kernel = HistogramKernel::new(&ctx).unwrap();
    let mut ring = ring(&ctx, 1);
    submit(&ctx, &kernel, &mut ring, 0).unwrap();
    match submit(&ctx, &kernel, &mut ring, 1) {
        Err(ReadbackError::Full { frame: 1, slots: 1 }) => {}
        other => panic!("a second frame in a ring of one slot gave {other:?}"),
    }
    assert_eq!(ring.refused(), 1);
    assert_eq!(ring.poller().waits.get(), 0, "refusing must not wait");
}
