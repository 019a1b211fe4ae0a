//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m5_alloc_free_pipeline::{Block, Pipeline, Settings, SettingsError, reference};
use realtime::counting_alloc::{CountingAllocator, allocations_on_this_thread};

/// Counts this thread's allocations (the course's counting allocator, from `code/realtime`).
#[global_allocator]
static COUNTING: CountingAllocator = CountingAllocator;

fn allocations() -> u64 {
    allocations_on_this_thread()
}

fn signal(len: usize, seed: u64) -> Vec<f32> {
    let mut x = seed | 1;
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let noise = (x % 1000) as f32 / 1000.0 - 0.5;
            0.3 + 0.8 * (i as f32 * 0.01).sin() + 0.4 * noise
        })
        .collect()
}

fn streamed(signal: &[f32], s: Settings, chunks: &[usize]) -> Vec<Block> {
    let mut p = Pipeline::new(s).unwrap();
    let mut out = Vec::with_capacity(signal.len() / s.block_len + 1);
    let mut at = 0;
    let mut k = 0;
    while at < signal.len() {
        let n = chunks[k % chunks.len()].min(signal.len() - at);
        p.process(&signal[at..at + n], &mut out);
        at += n;
        k += 1;
    }
    out
}

const S: Settings = Settings {
    block_len: 48,
    pole: 0.995,
    clip: 0.99,
};

#[test]
fn alloc_free_pipeline_hidden_rejects_bad_settings() {
    let e = |s: Settings| Pipeline::new(s).err();
    assert_eq!(
        e(Settings {
            block_len: 0,
            pole: 2.0,
            clip: -1.0
        }),
        Some(SettingsError::EmptyBlock)
    );
    assert_eq!(
        e(Settings {
            pole: 1.0,
            clip: -1.0,
            ..S
        }),
        Some(SettingsError::PoleOutOfRange { pole: 1.0 })
    );
    assert_eq!(
        e(Settings { pole: -0.1, ..S }),
        Some(SettingsError::PoleOutOfRange { pole: -0.1 })
    );
    assert!(matches!(
        e(Settings {
            pole: f32::NAN,
            ..S
        }),
        Some(SettingsError::PoleOutOfRange { .. })
    ));
    assert_eq!(
        e(Settings { clip: 0.0, ..S }),
        Some(SettingsError::ClipNotPositive { clip: 0.0 })
    );
    assert!(matches!(
        e(Settings {
            clip: f32::NAN,
            ..S
        }),
        Some(SettingsError::ClipNotPositive { .. })
    ));
    assert!(
        Pipeline::new(Settings {
            block_len: 1,
            pole: 0.0,
            clip: f32::MIN_POSITIVE
        })
        .is_ok()
    );
    grade_ok!("alloc_free_pipeline_hidden_rejects_bad_settings");
}

#[test]
fn alloc_free_pipeline_hidden_matches_the_reference() {
    for (len, s) in [
        (4800, S),
        (
            1000,
            Settings {
                block_len: 1,
                pole: 0.0,
                clip: 0.5,
            },
        ),
        (
            999,
            Settings {
                block_len: 100,
                pole: 0.5,
                clip: 0.2,
            },
        ),
    ] {
        let x = signal(len, len as u64);
        let expected = reference::blocks(&x, &s).unwrap();
        assert_eq!(streamed(&x, s, &[len]), expected, "{s:?}");
        assert!(expected.iter().any(|b| b.clipped > 0) || s.clip > 0.9);
    }
    grade_ok!("alloc_free_pipeline_hidden_matches_the_reference");
}

#[test]
fn alloc_free_pipeline_hidden_any_chunking_gives_the_same_blocks() {
    let x = signal(5000, 3);
    let expected = reference::blocks(&x, &S).unwrap();
    for chunks in [&[1][..], &[47], &[48], &[49], &[3, 100, 1, 7], &[480]] {
        assert_eq!(streamed(&x, S, chunks), expected, "chunks {chunks:?}");
    }
    grade_ok!("alloc_free_pipeline_hidden_any_chunking_gives_the_same_blocks");
}

#[test]
fn alloc_free_pipeline_hidden_empty_and_tiny_chunks() {
    let mut p = Pipeline::new(S).unwrap();
    let mut out = Vec::with_capacity(4);
    p.process(&[], &mut out);
    p.process(&[0.5; 47], &mut out);
    assert!(out.is_empty(), "47 samples: no complete block yet");
    p.process(&[], &mut out);
    p.process(&[0.5], &mut out);
    let expected = reference::blocks(&[0.5; 48], &S).unwrap();
    assert_eq!(out, expected);
    grade_ok!("alloc_free_pipeline_hidden_empty_and_tiny_chunks");
}

#[test]
fn alloc_free_pipeline_hidden_process_allocates_nothing() {
    let x = signal(48_000, 9);
    let mut p = Pipeline::new(S).unwrap();
    // Room for every block of all four passes, reserved before the loop.
    let mut out = Vec::with_capacity(4 * x.len() / S.block_len + 1);
    let before = allocations();
    // Chunk sizes a sound system really hands over (10 ms at 48 kHz, a few samples), then
    // larger ones than any before: a scratch buffer sized for the first chunks and grown on
    // demand allocates here.
    for size in [480, 7, 4096, x.len()] {
        for chunk in x.chunks(size) {
            p.process(chunk, &mut out);
        }
        assert_eq!(
            allocations() - before,
            0,
            "process allocated (chunks of {size} samples)"
        );
    }
    assert_eq!(out.len(), 4000);
    grade_ok!("alloc_free_pipeline_hidden_process_allocates_nothing");
}
