//! Bit-packing: blocks of 128 values, each stored with as many bits as its largest value needs.

use super::DecodeError;

pub const BLOCK: usize = 128;

// ANCHOR: pack
/// The number of bits needed for `max` (0 for 0).
pub fn bit_width(max: u32) -> u32 {
    32 - max.leading_zeros()
}

/// Appends `values` (at most [`BLOCK`]) as one byte of width, then `width` bits per value,
/// low bits first, in a little-endian bit stream.
pub fn pack_block(values: &[u32], out: &mut Vec<u8>) {
    let width = bit_width(values.iter().copied().max().unwrap_or(0));
    out.push(width as u8);
    let (mut acc, mut filled) = (0u64, 0u32);
    for &v in values {
        acc |= u64::from(v) << filled;
        filled += width;
        while filled >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        out.push(acc as u8);
    }
}
// ANCHOR_END: pack

// ANCHOR: unpack
/// Reads one block of `count` values at `*pos`, appending them to `out`.
pub fn unpack_block(
    bytes: &[u8],
    pos: &mut usize,
    count: usize,
    out: &mut Vec<u32>,
) -> Result<(), DecodeError> {
    let width = u32::from(*bytes.get(*pos).ok_or(DecodeError::Truncated { at: *pos })?);
    if width > 32 {
        return Err(DecodeError::BadWidth { at: *pos, width });
    }
    *pos += 1;
    let len = (count * width as usize).div_ceil(8);
    let body = bytes
        .get(*pos..*pos + len)
        .ok_or(DecodeError::Truncated { at: bytes.len() })?;
    let mask = if width == 32 {
        u64::from(u32::MAX)
    } else {
        (1u64 << width) - 1
    };
    let (mut acc, mut filled, mut next) = (0u64, 0u32, 0usize);
    for _ in 0..count {
        while filled < width {
            acc |= u64::from(body[next]) << filled;
            next += 1;
            filled += 8;
        }
        out.push((acc & mask) as u32);
        acc >>= width;
        filled -= width;
    }
    *pos += len;
    Ok(())
}
// ANCHOR_END: unpack

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn widths_and_sizes() {
        assert_eq!(
            [0, 1, 2, 255, 256, u32::MAX].map(bit_width),
            [0, 1, 2, 8, 9, 32]
        );
        let mut out = Vec::new();
        pack_block(&[5; BLOCK], &mut out);
        assert_eq!(out.len(), 1 + BLOCK * 3 / 8);
        let mut zeros = Vec::new();
        pack_block(&[0; BLOCK], &mut zeros);
        assert_eq!(zeros, [0]);
    }

    proptest! {
        #[test]
        fn blocks_round_trip(values in proptest::collection::vec(any::<u32>().prop_map(|v| v >> (v % 32)), 0..=BLOCK)) {
            let mut bytes = Vec::new();
            pack_block(&values, &mut bytes);
            let (mut pos, mut back) = (0, Vec::new());
            unpack_block(&bytes, &mut pos, values.len(), &mut back).unwrap();
            prop_assert_eq!(back, values);
            prop_assert_eq!(pos, bytes.len());
        }
    }
}
