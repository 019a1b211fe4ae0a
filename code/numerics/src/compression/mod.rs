//! Chapter 5, basic compression: delta, zigzag, varint, bit-packing and run-length, beside LZ4.
//!
//! Every codec turns a `&[u32]` into bytes and back. Each stream starts with the value count as
//! a varint, so a decoder knows when to stop and can refuse a stream that ends early.

mod bitpack;
mod data;
mod entropy;
mod huffman;
mod varint;

pub use bitpack::{BLOCK, bit_width, pack_block, unpack_block};
pub use data::{Dataset, sensor_series, sorted_ids, weights_bits};
pub use entropy::byte_entropy;
pub use huffman::{code_lengths, huffman_bits};
pub use varint::{read_varint, write_varint, zigzag_decode, zigzag_encode};

/// A compressed stream that cannot be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("the stream ends early (at byte {at}); it was cut short or is not this codec's output")]
    Truncated { at: usize },
    #[error(
        "the varint at byte {at} is longer than 5 bytes or overflows a u32; the stream is corrupt"
    )]
    Overlong { at: usize },
    #[error(
        "the bit-packed block at byte {at} claims {width} bits per value (at most 32); the stream is corrupt"
    )]
    BadWidth { at: usize, width: u32 },
    #[error("the stream has {extra} bytes after its last value; it is not this codec's output")]
    TrailingBytes { extra: usize },
    #[error("LZ4 could not decompress the stream: {0}")]
    Lz4(#[from] lz4_flex::block::DecompressError),
    #[error("the LZ4 payload holds {bytes} bytes, not a whole number of u32 values")]
    Unaligned { bytes: usize },
    #[error(
        "the stream claims {count} values, more than the {max} these codecs decode in one call \
         (a run-length stream of a few bytes could otherwise ask for gigabytes); split the data"
    )]
    TooMany { count: usize, max: usize },
}

/// The most values one stream may decode to: 2^26 (256 MiB of u32).
pub const MAX_VALUES: usize = 1 << 26;

// ANCHOR: delta
/// Differences between neighbours, wrapping, so any input round-trips. Sorted ids and slowly
/// changing signals become small numbers.
pub fn delta_encode(xs: &[u32]) -> Vec<i32> {
    let mut prev = 0u32;
    xs.iter()
        .map(|&x| {
            let d = x.wrapping_sub(prev) as i32;
            prev = x;
            d
        })
        .collect()
}

pub fn delta_decode(ds: &[i32]) -> Vec<u32> {
    let mut prev = 0u32;
    ds.iter()
        .map(|&d| {
            prev = prev.wrapping_add(d as u32);
            prev
        })
        .collect()
}
// ANCHOR_END: delta

// ANCHOR: rle
/// Run-length: (value, run length) pairs, both varints. Wins only where values repeat.
pub fn rle_encode(xs: &[u32], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < xs.len() {
        let run = xs[i..].iter().take_while(|&&x| x == xs[i]).count();
        write_varint(xs[i], out);
        write_varint(run as u32, out);
        i += run;
    }
}
// ANCHOR_END: rle

/// The codecs the chapter compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Each value as a varint.
    Varint,
    /// Deltas, zigzagged, as varints.
    DeltaVarint,
    /// Deltas, zigzagged, bit-packed in blocks of 128.
    DeltaBitpack,
    /// Values bit-packed in blocks of 128 (no delta).
    Bitpack,
    /// Runs of equal deltas (zigzagged) as (value, length) varint pairs.
    DeltaRle,
    /// The raw little-endian bytes through LZ4 (the `lz4_flex` crate).
    Lz4,
}

impl Codec {
    pub const ALL: [Codec; 6] = [
        Codec::Varint,
        Codec::DeltaVarint,
        Codec::Bitpack,
        Codec::DeltaBitpack,
        Codec::DeltaRle,
        Codec::Lz4,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Codec::Varint => "varint",
            Codec::DeltaVarint => "delta+zigzag+varint",
            Codec::Bitpack => "bitpack",
            Codec::DeltaBitpack => "delta+zigzag+bitpack",
            Codec::DeltaRle => "delta+zigzag+rle",
            Codec::Lz4 => "lz4",
        }
    }

    pub fn encode(&self, xs: &[u32]) -> Vec<u8> {
        let mut out = Vec::with_capacity(xs.len());
        write_varint(xs.len() as u32, &mut out);
        let zigzagged = || delta_encode(xs).into_iter().map(zigzag_encode);
        match self {
            Codec::Varint => xs.iter().for_each(|&x| write_varint(x, &mut out)),
            Codec::DeltaVarint => zigzagged().for_each(|z| write_varint(z, &mut out)),
            Codec::Bitpack => xs.chunks(BLOCK).for_each(|b| pack_block(b, &mut out)),
            Codec::DeltaBitpack => {
                let zs: Vec<u32> = zigzagged().collect();
                zs.chunks(BLOCK).for_each(|b| pack_block(b, &mut out));
            }
            Codec::DeltaRle => rle_encode(&zigzagged().collect::<Vec<u32>>(), &mut out),
            Codec::Lz4 => {
                out.extend_from_slice(&lz4_flex::compress(bytemuck::cast_slice(xs)));
            }
        }
        out
    }

    /// Decodes into a new vector. A loop that decodes again and again should reuse one with
    /// [`Codec::decode_into`]: a fresh multi-megabyte vector may cost page faults on first touch
    /// (whether it does depends on the allocator and the block's size).
    pub fn decode(&self, bytes: &[u8]) -> Result<Vec<u32>, DecodeError> {
        let mut xs = Vec::new();
        self.decode_into(bytes, &mut xs)?;
        Ok(xs)
    }

    // ANCHOR: decode
    /// Decodes into `xs`, replacing what it held and reusing its allocation.
    pub fn decode_into(&self, bytes: &[u8], xs: &mut Vec<u32>) -> Result<(), DecodeError> {
        let mut pos = 0;
        let n = read_varint(bytes, &mut pos)? as usize;
        if n > MAX_VALUES {
            return Err(DecodeError::TooMany {
                count: n,
                max: MAX_VALUES,
            });
        }
        // Never trust a count from the stream for an allocation: cap it by what the bytes allow.
        let room = n.min(bytes.len() * 8);
        if *self != Codec::Lz4 {
            xs.clear();
            xs.reserve(room);
        }
        match self {
            Codec::Varint | Codec::DeltaVarint => {
                for _ in 0..n {
                    xs.push(read_varint(bytes, &mut pos)?);
                }
            }
            Codec::Bitpack | Codec::DeltaBitpack => {
                while xs.len() < n {
                    unpack_block(bytes, &mut pos, (n - xs.len()).min(BLOCK), xs)?;
                }
            }
            Codec::DeltaRle => {
                while xs.len() < n {
                    let value = read_varint(bytes, &mut pos)?;
                    let run = read_varint(bytes, &mut pos)? as usize;
                    xs.extend(std::iter::repeat_n(value, run.min(n - xs.len())));
                }
            }
            Codec::Lz4 => {
                // Straight into the output's bytes: LZ4 decompresses into a slice it is given,
                // so `xs` is sized first (only growth is zero-filled; LZ4 expands at most 255×).
                xs.resize(n.min(bytes.len().saturating_mul(255)), 0);
                let written =
                    lz4_flex::decompress_into(&bytes[pos..], bytemuck::cast_slice_mut(xs))?;
                if written != n * 4 {
                    return Err(DecodeError::Unaligned { bytes: written });
                }
                xs.iter_mut().for_each(|x| *x = u32::from_le(*x));
                pos = bytes.len();
            }
        }
        if pos != bytes.len() {
            return Err(DecodeError::TrailingBytes {
                extra: bytes.len() - pos,
            });
        }
        if matches!(
            self,
            Codec::DeltaVarint | Codec::DeltaBitpack | Codec::DeltaRle
        ) {
            // Undo zigzag and delta in place: a running sum of the decoded differences.
            let mut prev = 0u32;
            for x in xs.iter_mut() {
                prev = prev.wrapping_add(zigzag_decode(*x) as u32);
                *x = prev;
            }
        }
        Ok(())
    }
    // ANCHOR_END: decode
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_tiny_stream_cannot_ask_for_gigabytes() {
        // A count of 2^32 - 1 and one run of as many zeros: 11 bytes.
        let mut bytes = Vec::new();
        write_varint(u32::MAX, &mut bytes);
        write_varint(0, &mut bytes);
        write_varint(u32::MAX, &mut bytes);
        let err = Codec::DeltaRle.decode(&bytes).unwrap_err();
        assert!(matches!(err, DecodeError::TooMany { .. }), "{err}");
    }

    #[test]
    fn decoding_into_a_reused_vector_gives_the_same_values_without_growing_it() {
        let mut reused = Vec::new();
        for data in Dataset::ALL {
            let xs = data.generate(3000, 11);
            for codec in Codec::ALL {
                let bytes = codec.encode(&xs);
                codec.decode_into(&bytes, &mut reused).unwrap();
                assert_eq!(reused, xs, "{} {}", codec.name(), data.name());
                let capacity = reused.capacity();
                codec.decode_into(&bytes, &mut reused).unwrap();
                assert_eq!(reused, xs);
                assert_eq!(
                    reused.capacity(),
                    capacity,
                    "{}: decoded again, grew",
                    codec.name()
                );
            }
        }
    }

    #[test]
    fn every_codec_round_trips_every_dataset() {
        for data in Dataset::ALL {
            let xs = data.generate(3000, 7);
            for codec in Codec::ALL {
                let bytes = codec.encode(&xs);
                assert_eq!(
                    codec.decode(&bytes).unwrap(),
                    xs,
                    "{} {}",
                    codec.name(),
                    data.name()
                );
            }
        }
    }

    #[test]
    fn sorted_ids_shrink_with_deltas() {
        let ids = sorted_ids(10_000, 1);
        let raw = ids.len() * 4;
        let packed = Codec::DeltaBitpack.encode(&ids).len();
        assert!(packed * 5 < raw, "{packed} of {raw}");
        assert!(Codec::Varint.encode(&ids).len() > raw / 2);
    }

    #[test]
    fn damaged_streams_are_errors_not_panics() {
        let xs = sensor_series(1000, 3);
        for codec in Codec::ALL {
            let bytes = codec.encode(&xs);
            assert!(
                codec.decode(&bytes[..bytes.len() / 2]).is_err(),
                "{}",
                codec.name()
            );
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(codec.decode(&longer).is_err(), "{}", codec.name());
        }
        assert!(Codec::Bitpack.decode(&[1, 40, 0, 0, 0, 0, 0]).is_err());
    }

    proptest! {
        #[test]
        fn any_input_round_trips(xs in proptest::collection::vec(any::<u32>(), 0..600)) {
            for codec in Codec::ALL {
                prop_assert_eq!(codec.decode(&codec.encode(&xs)).unwrap(), xs.clone());
            }
        }

        #[test]
        fn garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            for codec in Codec::ALL {
                let _ = codec.decode(&bytes);
            }
        }
    }
}
