//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.

use ex_m3_bitpack_codec::{BLOCK, DecodeError, decode, encode, encoded_len};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Bytes requested from the allocator while `f` runs, counted by dhat (which needs a running
/// profiler: the test starts one; nextest runs each test in its own process). dhat counts every
/// thread of the process, and the harness's own thread may allocate while a loaded machine runs
/// this one: the fewest bytes over three passes is `f`'s own count (what `f` allocates, it
/// allocates in every pass).
fn bytes_allocated(f: impl Fn()) -> u64 {
    (0..3)
        .map(|_| {
            let before = dhat::HeapStats::get().total_bytes;
            f();
            dhat::HeapStats::get().total_bytes - before
        })
        .min()
        .unwrap_or(0)
}

/// The kind of a decode result, without the error's byte positions (several are defensible).
fn kind(result: &Result<Vec<u32>, DecodeError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(DecodeError::Truncated { .. }) => "truncated",
        Err(DecodeError::BadWidth { .. }) => "bad width",
        Err(DecodeError::TrailingBytes { .. }) => "trailing bytes",
    }
}

/// Values of every width: a random u32 shifted right by a random amount.
fn any_widths() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec((any::<u32>(), 0u32..33), 0..700).prop_map(|v| {
        v.into_iter()
            .map(|(x, s)| x.checked_shr(s).unwrap_or(0))
            .collect()
    })
}

#[test]
fn bitpack_codec_hidden_round_trips_properties() {
    let mut runner = TestRunner::new(Config::with_cases(300));
    runner
        .run(&any_widths(), |values| {
            prop_assert_eq!(decode(&encode(&values)).unwrap(), values);
            Ok(())
        })
        .unwrap();
    for values in [vec![u32::MAX; 300], vec![0; 129], vec![1 << 31, 0, 1]] {
        grade_record!("encoded", encode(&values), 0.0);
        assert_eq!(decode(&encode(&values)).unwrap(), values);
    }
    grade_ok!("bitpack_codec_hidden_round_trips_properties");
}

#[test]
fn bitpack_codec_hidden_size_is_minimal() {
    let mut runner = TestRunner::new(Config::with_cases(200));
    runner
        .run(&any_widths(), |values| {
            prop_assert_eq!(encode(&values).len(), encoded_len(&values));
            // The bound: never more than the raw bytes plus 4 + one byte per block.
            prop_assert!(
                encode(&values).len() <= 4 * values.len() + 4 + values.len().div_ceil(BLOCK)
            );
            Ok(())
        })
        .unwrap();
    let sizes: Vec<usize> = [0usize, 1, 127, 128, 129, 1000]
        .iter()
        .map(|&n| encode(&(0..n as u32).map(|i| i * 37 % 1000).collect::<Vec<_>>()).len())
        .collect();
    grade_record!("sizes", (&sizes, encode(&vec![0; 1000]).len()), 0.0);
    assert_eq!(encode(&vec![0; 1000]).len(), 4 + 8);
    grade_ok!("bitpack_codec_hidden_size_is_minimal");
}

#[test]
fn bitpack_codec_hidden_known_bytes() {
    // Width 3: 5 = 101, 2 = 010, 7 = 111 → bits 101 010 111 from the low end: 0b1101_0101, 0b1.
    assert_eq!(
        encode(&[5, 2, 7]),
        vec![3, 0, 0, 0, 3, 0b1101_0101, 0b0000_0001]
    );
    let mut two_blocks = vec![1u32; BLOCK];
    two_blocks.push(255);
    let bytes = encode(&two_blocks);
    grade_record!("known", (encode(&[5, 2, 7]), &bytes), 0.0);
    assert_eq!(bytes[..5], [129, 0, 0, 0, 1]);
    assert_eq!(bytes[5..21], [0xff; 16]);
    assert_eq!(bytes[21..], [8, 255]);
    grade_ok!("bitpack_codec_hidden_known_bytes");
}

#[test]
fn bitpack_codec_hidden_truncated_streams_are_errors() {
    let values: Vec<u32> = (0..500).map(|i| i * 7919 % 5000).collect();
    let bytes = encode(&values);
    let kinds: Vec<&str> = (0..bytes.len())
        .map(|cut| kind(&decode(&bytes[..cut])))
        .collect();
    grade_record!("cuts", (bytes.len(), &kinds), 0.0);
    for cut in 0..bytes.len() {
        assert!(
            matches!(decode(&bytes[..cut]), Err(DecodeError::Truncated { .. })),
            "cut at {cut}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    grade_record!("longer", decode(&longer), 0.0);
    assert_eq!(
        decode(&longer),
        Err(DecodeError::TrailingBytes { extra: 1 })
    );
    grade_ok!("bitpack_codec_hidden_truncated_streams_are_errors");
}

#[test]
fn bitpack_codec_hidden_lying_headers_are_errors() {
    // A count of four billion values with no blocks: an error, quickly, without allocating 16 GB.
    assert!(matches!(
        decode(&[0xff, 0xff, 0xff, 0xff]),
        Err(DecodeError::Truncated { .. })
    ));
    grade_record!("bad_width", decode(&[1, 0, 0, 0, 33, 0, 0, 0, 0, 0]), 0.0);
    assert_eq!(
        decode(&[1, 0, 0, 0, 33, 0, 0, 0, 0, 0]),
        Err(DecodeError::BadWidth { at: 4, width: 33 })
    );
    let mut runner = TestRunner::new(Config::with_cases(500));
    runner
        .run(&proptest::collection::vec(any::<u8>(), 0..40), |bytes| {
            let _ = decode(&bytes);
            Ok(())
        })
        .unwrap();
    grade_ok!("bitpack_codec_hidden_lying_headers_are_errors");
}

/// A header's count is a claim, not a size to reserve: the stream must back it. Every block of
/// up to 128 values takes at least its width byte, so a stream of `n` bytes holds at most
/// `128·(n − 4)` values, and `decode` must allocate no more than that allows (the test leaves
/// room for a growing Vec), however large the count. Reserving `count` values first is 4 GiB
/// for a count of 2^30 before the first block is read, and 16 GiB for `u32::MAX`.
#[test]
fn bitpack_codec_hidden_lying_count_allocates_little() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let mut kinds = Vec::new();
    for (count, zero_blocks) in [
        (1u32 << 20, 0usize),
        (1 << 26, 1),
        (1 << 28, 1000),
        (u32::MAX, 8),
    ] {
        // The count, then `zero_blocks` blocks of width 0 (128 zeros each, one byte), then
        // nothing: the stream ends where the next block should start.
        let mut stream = count.to_le_bytes().to_vec();
        stream.resize(4 + zero_blocks, 0);
        let result = decode(&stream);
        kinds.push(kind(&result));
        assert!(
            matches!(result, Err(DecodeError::Truncated { .. })),
            "a count of {count} with {zero_blocks} blocks: {:?}",
            result.map(|v| v.len())
        );
        let limit = 16 * 4 * BLOCK as u64 * stream.len() as u64 + 64 * 1024;
        let bytes = bytes_allocated(|| {
            let _ = decode(&stream);
        });
        assert!(
            bytes <= limit,
            "decode allocated {bytes} bytes for a {}-byte stream that claims {count} values: \
             cap what you reserve by what the bytes can hold (at most {limit} bytes here)",
            stream.len()
        );
    }
    grade_record!("lying_counts", &kinds, 0.0);
    grade_ok!("bitpack_codec_hidden_lying_count_allocates_little");
}
