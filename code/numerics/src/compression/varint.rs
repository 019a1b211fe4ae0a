//! Zigzag and LEB128 varints: small numbers in few bytes.

use super::DecodeError;

// ANCHOR: zigzag
/// Maps signed to unsigned so that small magnitudes stay small: 0, -1, 1, -2, 2 → 0, 1, 2, 3, 4.
/// (Two's complement would turn -1 into 0xFFFF_FFFF, the worst case for a varint.)
pub fn zigzag_encode(x: i32) -> u32 {
    ((x << 1) ^ (x >> 31)) as u32
}

pub fn zigzag_decode(z: u32) -> i32 {
    ((z >> 1) as i32) ^ -((z & 1) as i32)
}
// ANCHOR_END: zigzag

// ANCHOR: varint
/// LEB128: seven bits per byte, low bits first; the top bit says "more bytes follow".
/// Values below 128 take one byte, below 16 384 two, and a u32 at most five.
pub fn write_varint(mut x: u32, out: &mut Vec<u8>) {
    while x >= 0x80 {
        out.push((x as u8 & 0x7f) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Reads one varint at `*pos` and moves `*pos` past it.
pub fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u32, DecodeError> {
    let mut value: u32 = 0;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(*pos).ok_or(DecodeError::Truncated { at: *pos })?;
        *pos += 1;
        let bits = u32::from(byte & 0x7f);
        if shift == 28 && bits > 0x0f {
            return Err(DecodeError::Overlong { at: *pos - 1 });
        }
        value |= bits << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(DecodeError::Overlong { at: *pos - 1 })
}
// ANCHOR_END: varint

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sizes() {
        for (x, len) in [
            (0u32, 1),
            (127, 1),
            (128, 2),
            (16_383, 2),
            (16_384, 3),
            (u32::MAX, 5),
        ] {
            let mut out = Vec::new();
            write_varint(x, &mut out);
            assert_eq!(out.len(), len, "{x}");
        }
        assert_eq!([0, -1, 1, -2, 2].map(zigzag_encode), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut pos = 0;
        assert!(matches!(
            read_varint(&[0x80, 0x80], &mut pos),
            Err(DecodeError::Truncated { at: 2 })
        ));
        let mut pos = 0;
        assert!(read_varint(&[0xff, 0xff, 0xff, 0xff, 0x7f], &mut pos).is_err());
    }

    proptest! {
        #[test]
        fn round_trips(x: u32, s: i32) {
            let mut out = Vec::new();
            write_varint(x, &mut out);
            let mut pos = 0;
            prop_assert_eq!(read_varint(&out, &mut pos).unwrap(), x);
            prop_assert_eq!(pos, out.len());
            prop_assert_eq!(zigzag_decode(zigzag_encode(s)), s);
        }
    }
}
