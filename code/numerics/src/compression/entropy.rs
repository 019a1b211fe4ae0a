//! How far an entropy coder could shrink a stream: the Shannon entropy of each byte of a u32.

// ANCHOR: byte_entropy
/// Shannon entropy, in bits, of each of the four bytes of the values (byte 0 is the lowest):
/// $H = -\sum_s p_s \log_2 p_s$ over the byte values $s$ seen in that position. A coder that
/// codes each byte position on its own, with one fixed code per position (order 0), needs at
/// least this many bits per byte on average; 8 means the byte is noise.
pub fn byte_entropy(values: &[u32]) -> [f64; 4] {
    let mut counts = [[0u64; 256]; 4];
    for v in values {
        for (lane, byte) in v.to_le_bytes().into_iter().enumerate() {
            counts[lane][usize::from(byte)] += 1;
        }
    }
    let n = values.len() as f64;
    counts.map(|lane| {
        lane.iter()
            .filter(|&&c| c > 0)
            .map(|&c| {
                let p = c as f64 / n;
                p * (1.0 / p).log2() // = -p log2 p, and +0 rather than -0 when p = 1
            })
            .sum()
    })
}
// ANCHOR_END: byte_entropy

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_bytes_carry_no_information_and_uniform_ones_eight_bits() {
        // Byte 0 runs through all 256 values equally often; bytes 1–3 never change.
        let values: Vec<u32> = (0..1024u32).map(|i| 0x0102_0300 | (i % 256)).collect();
        let h = byte_entropy(&values);
        assert!((h[0] - 8.0).abs() < 1e-12, "{h:?}");
        assert_eq!(&h[1..], &[0.0, 0.0, 0.0]);
    }

    #[test]
    fn a_byte_with_probabilities_half_quarter_quarter_has_one_and_a_half_bits() {
        let values = [7u32, 7, 8, 9];
        let h = byte_entropy(&values);
        assert!((h[0] - 1.5).abs() < 1e-12, "{h:?}");
    }

    #[test]
    fn no_values_have_no_entropy() {
        assert_eq!(byte_entropy(&[]), [0.0; 4]);
    }
}
