//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m3_bitpack_codec::{BLOCK, DecodeError, decode, encode, encoded_len};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

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
    assert_eq!(bytes[..5], [129, 0, 0, 0, 1]);
    assert_eq!(bytes[5..21], [0xff; 16]);
    assert_eq!(bytes[21..], [8, 255]);
    grade_ok!("bitpack_codec_hidden_known_bytes");
}

#[test]
fn bitpack_codec_hidden_truncated_streams_are_errors() {
    let values: Vec<u32> = (0..500).map(|i| i * 7919 % 5000).collect();
    let bytes = encode(&values);
    for cut in 0..bytes.len() {
        assert!(
            matches!(decode(&bytes[..cut]), Err(DecodeError::Truncated { .. })),
            "cut at {cut}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
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
