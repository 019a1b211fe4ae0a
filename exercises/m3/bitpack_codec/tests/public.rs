//! Public tests: `cargo nextest run -p ex_m3_bitpack_codec`.

use ex_m3_bitpack_codec::{decode, encode, encoded_len};
use proptest::prelude::*;

#[test]
fn bitpack_codec_public_small_values_take_few_bytes() {
    let values = vec![3u32; 128];
    let bytes = encode(&values);
    // 4 bytes of count, 1 byte of width 2, 128 × 2 bits = 32 bytes.
    assert_eq!(bytes.len(), 4 + 1 + 32);
    assert_eq!(decode(&bytes).unwrap(), values);
}

#[test]
fn bitpack_codec_public_empty() {
    assert_eq!(encode(&[]), vec![0, 0, 0, 0]);
    assert_eq!(decode(&[0, 0, 0, 0]).unwrap(), Vec::<u32>::new());
}

#[test]
fn bitpack_codec_public_a_short_stream_is_an_error() {
    let bytes = encode(&[1, 2, 3]);
    assert!(decode(&bytes[..bytes.len() - 1]).is_err());
}

#[test]
fn bitpack_codec_public_a_lying_count_is_an_error() {
    // Four bytes of header claim four billion values, and nothing follows: an error, quickly,
    // without reserving room for them (the hidden tests count the bytes).
    assert!(decode(&u32::MAX.to_le_bytes()).is_err());
}

proptest! {
    #[test]
    fn bitpack_codec_public_round_trip(values in proptest::collection::vec(0u32..1000, 0..300)) {
        let bytes = encode(&values);
        prop_assert_eq!(bytes.len(), encoded_len(&values));
        prop_assert_eq!(decode(&bytes).unwrap(), values);
    }
}
