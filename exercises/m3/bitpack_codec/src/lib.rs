//! A bit-packing codec for u32 values: each block of 128 values is stored with as many bits per
//! value as its largest value needs. The work goes in `codec.rs`.
//!
//! Format (all multi-byte numbers little-endian):
//!
//! ```text
//! count: u32 (4 bytes)
//! per block of BLOCK values (the last block may be shorter):
//!     width: u8 (0..=32)
//!     ceil(len × width / 8) bytes: the values, `width` bits each, low bits first
//! ```

mod codec;

pub use codec::{decode, encode};

/// Values per block.
pub const BLOCK: usize = 128;

/// Why a byte stream is not a valid encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("the stream ends early: {needed} bytes needed at byte {at}, {available} available")]
    Truncated {
        at: usize,
        needed: usize,
        available: usize,
    },
    #[error("the block at byte {at} has width {width}; widths are 0 to 32")]
    BadWidth { at: usize, width: u8 },
    #[error("{extra} bytes follow the last block; the stream is not one encoding")]
    TrailingBytes { extra: usize },
}

/// The number of bits needed for `max` (0 for 0).
pub fn bit_width(max: u32) -> u32 {
    32 - max.leading_zeros()
}

/// The exact encoded size of `values`, from the format above.
pub fn encoded_len(values: &[u32]) -> usize {
    4 + values
        .chunks(BLOCK)
        .map(|b| {
            let width = bit_width(b.iter().copied().max().unwrap_or(0)) as usize;
            1 + (b.len() * width).div_ceil(8)
        })
        .sum::<usize>()
}
