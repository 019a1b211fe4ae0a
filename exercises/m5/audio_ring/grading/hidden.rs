//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m5_audio_ring::{CallbackStats, RingError, audio_ring};
use realtime::counting_alloc::{CountingAllocator, allocations_on_this_thread};

/// Counts this thread's allocations (the course's counting allocator, from `code/realtime`).
#[global_allocator]
static COUNTING: CountingAllocator = CountingAllocator;

fn allocations() -> u64 {
    allocations_on_this_thread()
}

#[test]
fn audio_ring_hidden_rejects_bad_capacities() {
    for bad in [0, 3, 6, 1000, 4097] {
        assert_eq!(
            audio_ring(bad).err(),
            Some(RingError::CapacityNotPowerOfTwo { capacity: bad })
        );
    }
    for good in [1, 2, 64, 1024] {
        let (tx, rx) = audio_ring(good).unwrap();
        assert_eq!((tx.free(), rx.available()), (good, 0));
    }
    grade_ok!("audio_ring_hidden_rejects_bad_capacities");
}

#[test]
fn audio_ring_hidden_keeps_order_in_any_chunking() {
    let (mut tx, mut rx) = audio_ring(16).unwrap();
    let input: Vec<f32> = (1..=5000).map(|i| i as f32).collect();
    let mut output = Vec::new();
    let (mut i, mut round) = (0, 0usize);
    let mut block = [0.0f32; 13];
    while output.len() < input.len() {
        let take = (round * 7 % 11 + 1).min(input.len() - i);
        i += tx.push_slice(&input[i..i + take]);
        let want = (round * 5 % 13 + 1).min(rx.available());
        rx.fill(&mut block[..want]);
        output.extend_from_slice(&block[..want]);
        round += 1;
    }
    assert_eq!(output, input);
    assert_eq!(
        rx.stats(),
        CallbackStats::default(),
        "never asked for more than available"
    );
    grade_ok!("audio_ring_hidden_keeps_order_in_any_chunking");
}

#[test]
fn audio_ring_hidden_push_stops_when_full() {
    let (mut tx, mut rx) = audio_ring(8).unwrap();
    let ten: Vec<f32> = (0..10).map(|i| i as f32).collect();
    assert_eq!(tx.push_slice(&ten), 8);
    assert_eq!((tx.free(), rx.available()), (0, 8));
    assert_eq!(tx.push_slice(&ten), 0);
    let mut out = [0.0; 3];
    rx.fill(&mut out);
    assert_eq!(out, [0.0, 1.0, 2.0]);
    assert_eq!(tx.free(), 3);
    assert_eq!(tx.push_slice(&[20.0, 21.0, 22.0, 23.0]), 3);
    let mut rest = [0.0; 8];
    rx.fill(&mut rest);
    assert_eq!(rest, [3.0, 4.0, 5.0, 6.0, 7.0, 20.0, 21.0, 22.0]);
    grade_ok!("audio_ring_hidden_push_stops_when_full");
}

#[test]
fn audio_ring_hidden_underruns_are_counted_and_silent() {
    let (mut tx, mut rx) = audio_ring(32).unwrap();
    let mut out = [7.0f32; 64];
    rx.fill(&mut out);
    assert!(out.iter().all(|&x| x == 0.0));
    assert_eq!(
        rx.stats(),
        CallbackStats {
            underruns: 1,
            missing_samples: 64
        }
    );
    tx.push_slice(&[0.25; 10]);
    let mut out = [7.0f32; 16];
    rx.fill(&mut out);
    assert_eq!(&out[..10], &[0.25; 10]);
    assert_eq!(&out[10..], &[0.0; 6]);
    assert_eq!(
        rx.stats(),
        CallbackStats {
            underruns: 2,
            missing_samples: 70
        }
    );
    // The ring recovers: a full block later is not an underrun.
    tx.push_slice(&[1.0; 16]);
    rx.fill(&mut out);
    assert_eq!(out, [1.0; 16]);
    assert_eq!(rx.stats().underruns, 2);
    grade_ok!("audio_ring_hidden_underruns_are_counted_and_silent");
}

#[test]
fn audio_ring_hidden_exact_and_empty_fills_are_not_underruns() {
    let (mut tx, mut rx) = audio_ring(4).unwrap();
    rx.fill(&mut []);
    tx.push_slice(&[1.0, 2.0, 3.0, 4.0]);
    let mut out = [0.0; 4];
    rx.fill(&mut out);
    assert_eq!(out, [1.0, 2.0, 3.0, 4.0]);
    rx.fill(&mut []);
    assert_eq!(rx.stats(), CallbackStats::default());
    grade_ok!("audio_ring_hidden_exact_and_empty_fills_are_not_underruns");
}

#[test]
fn audio_ring_hidden_callback_allocates_nothing() {
    let (mut tx, mut rx) = audio_ring(256).unwrap();
    let input = [0.5f32; 100];
    let mut out = [0.0f32; 64];
    let before = allocations();
    for _ in 0..1000 {
        tx.push_slice(&input);
        rx.fill(&mut out);
        rx.fill(&mut out);
        let _ = (tx.free(), rx.available(), rx.stats());
    }
    assert_eq!(
        allocations() - before,
        0,
        "push_slice and fill must not allocate"
    );
    assert!(rx.stats().underruns > 0, "this loop plays some silence");
    grade_ok!("audio_ring_hidden_callback_allocates_nothing");
}

#[test]
fn audio_ring_hidden_two_threads_lose_nothing() {
    const N: usize = 100_000;
    let (mut tx, mut rx) = audio_ring(512).unwrap();
    let producer = std::thread::spawn(move || {
        let input: Vec<f32> = (1..=N).map(|i| i as f32).collect();
        let mut i = 0;
        while i < N {
            let n = tx.push_slice(&input[i..(i + 37).min(N)]);
            i += n;
            if n == 0 {
                std::thread::yield_now();
            }
        }
    });
    let mut heard = Vec::with_capacity(N);
    let mut block = [0.0f32; 64];
    let mut silent = 0u64;
    while heard.len() < N {
        rx.fill(&mut block);
        for &x in &block {
            if x == 0.0 {
                silent += 1;
            } else {
                heard.push(x);
            }
        }
    }
    producer.join().unwrap();
    let expected: Vec<f32> = (1..=N).map(|i| i as f32).collect();
    assert_eq!(heard, expected, "every sample once, in order");
    assert_eq!(rx.stats().missing_samples, silent);
    grade_ok!("audio_ring_hidden_two_threads_lose_nothing");
}

#[test]
fn audio_ring_hidden_counts_stay_consistent() {
    let (mut tx, mut rx) = audio_ring(4).unwrap();
    let mut out = [0.0f32; 3];
    for round in 0..10_000usize {
        let pushed = tx.push_slice(&[1.0, 2.0, 3.0][..round % 4]);
        assert!(pushed <= round % 4);
        assert_eq!(tx.free() + rx.available(), 4, "round {round}");
        rx.fill(&mut out[..round % 3]);
        assert_eq!(tx.free() + rx.available(), 4, "round {round}");
    }
    grade_ok!("audio_ring_hidden_counts_stay_consistent");
}

/// Loom tries every interleaving, and every value each atomic load may return under the memory
/// model: an ordering that x86 happens to make safe (all `Relaxed`) fails here.
fn loom_model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

#[test]
fn audio_ring_hidden_loom_samples_arrive_with_their_values() {
    loom_model(|| {
        use ex_m5_audio_ring::loom_ring;
        let (mut tx, mut rx) = loom_ring::audio_ring(4).unwrap();
        let producer = loom::thread::spawn(move || {
            assert_eq!(tx.push_slice(&[1.5, 2.5]), 2);
        });
        let mut out = [9.0f32; 2];
        rx.fill(&mut out);
        // Whatever number of samples the callback got, they are the ones pushed, in order:
        // seeing the new tail without the samples written before it would give stale slots.
        let got = 2 - rx.stats().missing_samples as usize;
        assert_eq!(out[..got], [1.5, 2.5][..got], "the callback read {out:?}");
        assert!(out[got..].iter().all(|&x| x == 0.0), "{out:?}");
        producer.join().unwrap();
    });
    grade_ok!("audio_ring_hidden_loom_samples_arrive_with_their_values");
}

#[test]
fn audio_ring_hidden_loom_a_slot_is_reused_only_after_it_was_read() {
    loom_model(|| {
        use ex_m5_audio_ring::loom_ring;
        let (mut tx, mut rx) = loom_ring::audio_ring(2).unwrap();
        assert_eq!(tx.push_slice(&[1.5, 2.5]), 2);
        let consumer = loom::thread::spawn(move || {
            let mut out = [0.0f32; 1];
            rx.fill(&mut out);
            out[0]
        });
        // The ring is full until the callback has taken a sample; then this push reuses the
        // callback's slot, which must not change what the callback read from it.
        let pushed = tx.push_slice(&[3.5]);
        let read = consumer.join().unwrap();
        assert_eq!(read, 1.5, "the callback read a sample overwritten under it");
        assert!(pushed <= 1);
    });
    grade_ok!("audio_ring_hidden_loom_a_slot_is_reused_only_after_it_was_read");
}
