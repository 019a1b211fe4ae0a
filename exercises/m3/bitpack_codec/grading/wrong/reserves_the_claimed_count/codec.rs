//! Wrong: `decode` trusts the header's count and reserves that many values up front.

use crate::{BLOCK, DecodeError, bit_width};

/// Encodes `values` in the format described in `lib.rs`; the output is exactly
/// `encoded_len(values)` bytes long.
pub fn encode(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(crate::encoded_len(values));
    out.extend_from_slice(&(values.len() as u32).to_le_bytes());
    for block in values.chunks(BLOCK) {
        let width = bit_width(block.iter().copied().max().unwrap_or(0));
        out.push(width as u8);
        let (mut acc, mut filled) = (0u64, 0u32);
        for &v in block {
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
    out
}

fn take<'a>(bytes: &'a [u8], at: usize, needed: usize) -> Result<&'a [u8], DecodeError> {
    bytes.get(at..at + needed).ok_or(DecodeError::Truncated {
        at,
        needed,
        available: bytes.len().saturating_sub(at),
    })
}

/// Decodes a stream made by [`encode`]; any other stream is an error, never a panic.
pub fn decode(bytes: &[u8]) -> Result<Vec<u32>, DecodeError> {
    let header = take(bytes, 0, 4)?;
    let count = u32::from_le_bytes([header[0], header[1], header[2], header[3]]) as usize;
    // Wrong: reserves what the header claims before reading a single block. Every valid stream
    // decodes, but a 4-byte stream claiming 2^28 values reserves 1 GiB (16 GiB for u32::MAX)
    // before the truncation is found: a denial of service, or an abort where the allocation is
    // refused.
    let mut values = Vec::with_capacity(count);
    let mut pos = 4;
    while values.len() < count {
        let len = (count - values.len()).min(BLOCK);
        let width = take(bytes, pos, 1)?[0];
        if width > 32 {
            return Err(DecodeError::BadWidth { at: pos, width });
        }
        pos += 1;
        let width = u32::from(width);
        let body = take(bytes, pos, (len * width as usize).div_ceil(8))?;
        let mask = (1u64 << width) - 1;
        let (mut acc, mut filled, mut next) = (0u64, 0u32, 0);
        for _ in 0..len {
            while filled < width {
                acc |= u64::from(body[next]) << filled;
                next += 1;
                filled += 8;
            }
            values.push((acc & mask) as u32);
            acc >>= width;
            filled -= width;
        }
        pos += body.len();
    }
    if pos != bytes.len() {
        return Err(DecodeError::TrailingBytes {
            extra: bytes.len() - pos,
        });
    }
    Ok(values)
}
